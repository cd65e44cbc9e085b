"""``improve_campaign``: reorder (and, where allowed, regenerate) levels to meet funnel goals.

A :class:`FunnelGoal` names what the designer wants: at least ``reach_last`` of the players
reach the last level, no level stops more than ``max_quit_hazard`` of those who reach it, and
difficulty never drops by more than ``max_band_drop`` bands from one level to the next (bands
from an average player's first-try success: easy above 85 %, intermediate above 65 %, hard
above 45 %, challenge at or below; a success exactly at an edge is the harder band, as a
calibrated score of exactly 30, 50 or 70 is).

**Search.** Orders are judged by the funnel of the fitted parameters on one fixed cohort
(common random numbers, so two orders differ only by the order), with the band rule as a hard
constraint: start from the better of the given order and the order by difficulty, then swap
and move levels while that lowers the shortfall (hazard above the goal summed over levels, plus
five times the reach missing at the last level) until no move helps or ``time_limit`` runs out.
With ``regenerate=True`` the levels still stopping too many players are replaced, worst first,
by levels generated to an easier first-try success (``generate_to_target``), kept only if the
shortfall falls and the band rule holds.

**Why a goal is missed.** The model has a floor: the funnel of the same campaign in which every
level is won at the first try. If the floor itself misses a goal, no order and no level can meet
it, and the answer says so with the floor's value; otherwise it names the levels that stop the
most players and what was tried.

Examples
--------
>>> from labkit.hexpuzzle.playthrough.truth import TrueModel
>>> truth = TrueModel([2.0, -1.0, 0.0, 1.0], quit={"baseline": -3.0, "won": -1.0, "run": 1.0})
>>> imp = improve_campaign(["L01", "L02", "L03", "L04"], truth,
...                        FunnelGoal(reach_last=0.5, max_quit_hazard=0.15), players=2000)
>>> imp.order
['L02', 'L03', 'L04', 'L01']
>>> [g.met for g in imp.goals]
[True, True, True]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit._args import check_int
from labkit.hexpuzzle.campaign_file import MAX_LEVELS
from labkit.hexpuzzle.playthrough.compare import FunnelComparison, compare_funnels
from labkit.hexpuzzle.playthrough.model import _level_id, _plan, funnel, model_tables
from labkit.hexpuzzle.playthrough.simulate import Funnel, Tables, counts, measures, reorder
from labkit.rng import RngLike, make_rng, stream

__all__ = ["FunnelGoal", "GoalResult", "Improvement", "improve_campaign"]

BANDS = ("easy", "intermediate", "hard", "challenge")
#: Least drop of the shortfall a regenerated level must bring to be kept.
MARGIN = 0.01


@dataclass(frozen=True)
class FunnelGoal:
    """What the funnel should look like; a goal set to None is not asked for.

    Examples
    --------
    >>> for line in FunnelGoal().describe():
    ...     print(line)
    at least 60 % reach the last level
    no level stops more than 10 % of its players
    difficulty never drops by more than 1 band
    """

    reach_last: float | None = 0.6
    max_quit_hazard: float | None = 0.10
    max_band_drop: int | None = 1

    def __post_init__(self) -> None:
        # checked when made: a share of 1.5 or "0.6" would otherwise reach the funnel's
        # comparisons (never met, or a TypeError deep inside improve_campaign)
        import math
        import numbers

        for name in ("reach_last", "max_quit_hazard"):
            v = getattr(self, name)
            if v is None:
                continue
            if (isinstance(v, bool) or not isinstance(v, numbers.Real)
                    or not math.isfinite(float(v)) or not 0.0 <= float(v) <= 1.0):  # fmt: skip
                raise ArgumentError("must be a share between 0 and 1, or None", argument=name,
                                    value=v)  # fmt: skip
            object.__setattr__(self, name, float(v))
        if self.max_band_drop is not None:
            drop = check_int(self.max_band_drop, "max_band_drop", 0, len(BANDS) - 1)
            object.__setattr__(self, "max_band_drop", drop)

    def describe(self) -> list[str]:
        """The goals in designer words."""
        out = []
        if self.reach_last is not None:
            out.append(f"at least {self.reach_last:.0%} reach the last level".replace("%", " %"))
        if self.max_quit_hazard is not None:
            out.append(f"no level stops more than {self.max_quit_hazard:.0%} of its players"
                       .replace("%", " %"))  # fmt: skip
        if self.max_band_drop is not None:
            s = "" if self.max_band_drop == 1 else "s"
            out.append(f"difficulty never drops by more than {self.max_band_drop} band{s}")
        return out


@dataclass(frozen=True)
class GoalResult:
    """One goal: met or not, the value before and after, and why when it is missed."""

    goal: str
    met: bool
    before: float
    after: float
    why: str = ""


@dataclass(frozen=True, eq=False)
class Improvement:
    """The improved campaign, its funnel before and after, and each goal's verdict.

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> truth = TrueModel([1.0, -1.0], quit={"baseline": -2.0, "won": -2.0})
    >>> imp = improve_campaign(["L01", "L02"], truth, FunnelGoal(reach_last=0.99), players=1000)
    >>> imp.order, imp.goals[0].met, imp.goals[0].why.startswith("even if every level")
    (['L02', 'L01'], False, True)
    """

    campaign: list[Any]
    before: Funnel
    after: Funnel
    goals: list[GoalResult]
    changes: list[str] = field(default_factory=list)

    @property
    def order(self) -> list[str]:
        """The improved campaign's level ids, in play order."""
        return [_level_id(lv) for lv in self.campaign]

    def comparison(self) -> FunnelComparison:
        """Before and after side by side (paired cohorts)."""
        return compare_funnels(self.before, self.after, labels=("before", "after"))

    def summary(self) -> str:
        """What changed and which goals are met, in designer words."""
        lines = [f"{'met' if g.met else 'NOT met'}: {g.goal} (before {_said(g, g.before)}, "
                 f"after {_said(g, g.after)}){' - ' + g.why if g.why else ''}"
                 for g in self.goals]  # fmt: skip
        return "\n".join(self.changes + lines)

    def __repr__(self) -> str:
        met = sum(g.met for g in self.goals)
        return f"Improvement({met} of {len(self.goals)} goals met; {len(self.changes)} changes)"

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{escape(line)}</li>" for line in self.summary().splitlines())
        return f"<ul>{items}</ul>{self.comparison()._repr_html_()}"


def _said(g: GoalResult, value: float) -> str:
    """A goal's value as its goal speaks: shares of players in percent, band drops counted."""
    if g.goal.startswith("difficulty"):
        return f"{value:.0f} band" + ("" if value == 1 else "s")
    return f"{100 * value:.0f} %"


def _bands(model: Any, levels: Sequence[Any], features: Any = None) -> np.ndarray:
    from labkit.hexpuzzle.difficulty.fit import BAND_TARGETS

    s = _success(model, levels, features)
    return np.searchsorted(-np.asarray(BAND_TARGETS), -s, side="right")


def _falls(bands: np.ndarray) -> float:
    """Bands lost, summed over every step where difficulty falls back."""
    return float(np.maximum(bands[:-1] - bands[1:], 0).sum())


def _drops(bands: np.ndarray) -> int:
    """The largest fall in bands from one level to the next (0 when it never falls)."""
    return int(np.max(bands[:-1] - bands[1:], initial=0))


class _Judge:
    """Funnels of orders of the given levels on one fixed cohort (fitted parameters)."""

    def __init__(self, model, levels, players, seed, features=None):
        self.levels, self.players, self.seed = list(levels), players, seed
        self.base = model_tables(model, self.levels, features=features)
        floor = replace(self.base, win=np.full_like(self.base.win, 30.0))
        self.floor = self.measure(floor)

    def tables(self, order: Sequence[int]) -> Tables:
        return reorder(self.base, order)

    def measure(self, tables: Tables) -> dict[str, np.ndarray]:
        c = counts(tables, self.players, stream(self.seed, "judge"))
        return measures(c, self.players, tables)

    def shortfall(self, m: dict[str, np.ndarray], goal: FunnelGoal, drops: float = 0.0) -> float:
        cost = 2e-3 * drops  # among equals, a curve that falls back less often
        if goal.max_quit_hazard is not None:
            cost += float(np.nansum(np.maximum(m["quit_hazard"] - goal.max_quit_hazard, 0.0)))
        if goal.reach_last is not None:
            cost += 5.0 * max(goal.reach_last - float(m["reach"][-1]), 0.0)
        return cost - 1e-3 * float(m["reach"][-1])  # among equals, more players at the end


def _search(judge: _Judge, bands, goal: FunnelGoal, start: list[int], deadline: float,
            evaluations: int | None = None):  # fmt: skip
    judged = [0]

    def out_of_time() -> bool:
        return time.monotonic() > deadline or (evaluations is not None and judged[0] >= evaluations)

    def ok(order):
        return goal.max_band_drop is None or _drops(bands[order]) <= goal.max_band_drop

    def cost(order):
        if not ok(order):
            return np.inf
        judged[0] += 1
        m = judge.measure(judge.tables(order))
        return judge.shortfall(m, goal, _falls(bands[order]))

    best, best_cost = start, cost(start)
    improved = True
    while improved and not out_of_time():
        improved = False
        n = len(best)
        for i in range(n):
            for j in range(n):
                if i == j or out_of_time():
                    continue
                moved = best.copy()
                moved.insert(j, moved.pop(i))  # move, then swap
                swapped = best.copy()
                swapped[i], swapped[j] = swapped[j], swapped[i]
                for cand in (moved, swapped):
                    if out_of_time():  # the budget is exact, even between a move and a swap
                        break
                    c = cost(cand)
                    if c < best_cost - 1e-9:
                        best, best_cost, improved = cand, c, True
    return best


def improve_campaign(
    campaign: Sequence[Any],
    model: Any,
    goal: FunnelGoal | None = None,
    *,
    regenerate: bool = False,
    max_regenerate: int = 4,
    players: int = 5000,
    draws: int = 30,
    rng: RngLike = 0,
    time_limit: float = 20.0,
    evaluations: int | None = None,
    features: Any = None,
) -> Improvement:
    """Reorder (and with ``regenerate`` replace) levels of ``campaign`` to meet ``goal``.

    Parameters
    ----------
    campaign : sequence of Level or level ids
    model : SkillModel (with a quit model)
    goal : FunnelGoal
        Default: 60 % reach the last level, no hazard above 10 %, bands drop by at most one.
    regenerate : bool
        Replace the levels that still stop too many players by easier generated ones
        (needs Level objects and a model that predicts new levels from their parts).
    max_regenerate : int
        Most levels replaced (0 to 1,000; at most every level of the campaign).
    players, draws, rng
        The before and after funnels (:func:`~labkit.hexpuzzle.playthrough.model.funnel`, both
        from the same seed, so they are paired); the search judges orders on one cohort of
        ``min(players, 5000)`` players from that seed's stream ``"judge"``.
    time_limit : float
        Seconds for the order search (regeneration comes on top).
    evaluations : int, optional
        At most this many candidate orders judged. Unlike ``time_limit`` it does not depend on the
        machine's speed, so the same call gives the same order everywhere (notebooks use it).
    features : DataFrame or dict, optional
        The feature table of a campaign of level ids for a model fitted with ``features=``
        (any game's levels), as :func:`~labkit.hexpuzzle.playthrough.model.funnel` takes it: a
        level the model does not hold is predicted from its row, for the search, the bands
        and both funnels; checked before any play, each refusal one line. Such a campaign is
        only reordered (regenerating needs the puzzle's parts).

    Returns
    -------
    Improvement

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> truth = TrueModel([1.5, -1.0, 0.0], quit={"baseline": -2.5, "run": 1.0})
    >>> imp = improve_campaign(["L01", "L02", "L03"], truth, players=2000, draws=5)
    >>> imp.order, imp.goals[1].goal
    (['L02', 'L03', 'L01'], 'no level stops more than 10 % of its players')
    """
    goal = goal or FunnelGoal()
    levels = list(campaign)
    if len(levels) < 2:
        raise ArgumentError("needs at least two levels to reorder", argument="campaign",
                            value=len(levels))  # fmt: skip
    if evaluations is not None:
        check_int(evaluations, "evaluations", 1, 10**7)
    # most levels replaced (0 to a campaign's own limit; more than the campaign holds is all)
    check_int(max_regenerate, "max_regenerate", 0, MAX_LEVELS)
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not (0 < time_limit <= 1e6)
    ):
        raise ArgumentError("must be a number of seconds in (0, 1e6]", argument="time_limit",
                            value=time_limit)  # fmt: skip
    root = make_rng(rng)
    seed = int(root.integers(2**62))
    # the table is checked against the model (funnel's own checks) before any play
    judge = _Judge(model, levels, min(players, 5000), seed, features)
    success = _success(model, levels, features)
    bands = _bands(model, levels, features)
    by_difficulty = [int(i) for i in np.argsort(-success, kind="stable")]
    starts = [list(range(len(levels))), by_difficulty]
    start = min(starts, key=lambda o: _start_cost(judge, bands, goal, o))
    deadline = time.monotonic() + float(time_limit)
    order = _search(judge, bands, goal, start, deadline, evaluations)
    new = [levels[i] for i in order]
    changes = _moves(levels, new)
    if regenerate:
        new, more = _regenerate(new, model, goal, judge, max_regenerate, seed, features)
        changes += more
    before = funnel(levels, model, players=players, draws=draws, rng=seed, features=features)
    after = funnel(new, model, players=players, draws=draws, rng=seed, features=features)
    floor = judge.floor
    results = _verdicts(goal, before, after, floor, bands, _bands(model, new, features),
                        regenerate)  # fmt: skip
    return Improvement(new, before, after, results, changes)


def _success(model, levels, features=None):
    """An average player's first-try success per level; with a feature table, a level the
    model does not hold (or holds with other features) is read from the funnel's own plan
    (its predicted β, the plug-in value as ``model.success`` gives a Level's)."""
    if features is None:
        return np.array([float(model.success(lv, 0.0)) for lv in levels])
    index, beta, _ = _plan(model, levels, features)
    ids = model.level_ids
    return np.array([float(model.success(ids[i], 0.0)) if i >= 0 else 1.0 / (1.0 + np.exp(b))
                     for i, b in zip(index, beta)])  # fmt: skip


def _start_cost(judge, bands, goal, order):
    if goal.max_band_drop is not None and _drops(bands[order]) > goal.max_band_drop:
        return np.inf
    return judge.shortfall(judge.measure(judge.tables(order)), goal, _falls(bands[order]))


def _moves(old: list[Any], new: list[Any]) -> list[str]:
    ids = [_level_id(lv) for lv in old]
    out = []
    for pos, lv in enumerate(new):
        was = ids.index(_level_id(lv)) if _level_id(lv) in ids else None
        if was is not None and was != pos:
            out.append(f"moved {_level_id(lv)} from position {was + 1} to {pos + 1}")
    return out


def _regenerate(levels, model, goal, judge, max_regenerate, seed, features=None):
    """Replace the worst levels by easier generated ones while that helps (see module notes)."""
    from labkit.hexpuzzle.solving.generator import GeneratorError
    from labkit.hexpuzzle.solving.targets import generate_to_target

    levels, notes = list(levels), []
    if features is not None:  # the generator makes hex levels; a feature row is not one
        return levels, ["regenerating needs levels of the puzzle's parts, not a feature table: "
                        "nothing regenerated"]  # fmt: skip
    if any(isinstance(lv, str) for lv in levels):
        return levels, ["regenerating needs Level objects, not level ids: nothing regenerated"]
    order = list(range(len(levels)))
    if goal.max_quit_hazard is None:  # no level stops "too many" without a hazard goal
        return levels, notes
    judge = _Judge(model, levels, judge.players, judge.seed)  # the levels in their new order
    m = judge.measure(judge.tables(order))
    cost = judge.shortfall(m, goal)
    lost = np.nan_to_num(m["reach"] * m["quit_hazard"])
    limit = goal.max_quit_hazard
    worst = [int(i) for i in np.argsort(-lost, kind="stable") if m["quit_hazard"][i] > limit]
    for pos in worst[: int(max_regenerate)]:
        old = levels[pos]
        s = float(model.success(old, 0.0))
        if s >= 0.9:
            why = "its stops come from failures before it"
            notes.append(f"kept {old.id}: average players already win it at the first try "
                         f"({s:.0%}); {why}")  # fmt: skip
            continue
        target = min(0.95, s + 0.15)
        try:
            new = generate_to_target(stream(seed, f"regenerate/{pos}"), success=target,
                                     model=model, time_limit=5.0, id=f"{old.id}-easier",
                                     name=old.name)  # fmt: skip
        except (GeneratorError, ArgumentError) as exc:
            notes.append(f"could not regenerate {old.id}: {exc}")
            continue
        trial = levels[:pos] + [new] + levels[pos + 1 :]
        j2 = _Judge(model, trial, judge.players, judge.seed)
        m2 = j2.measure(j2.tables(order))
        c2 = j2.shortfall(m2, goal)
        drops = _drops(_bands(model, trial))
        better = c2 < cost - MARGIN  # a real gain, not the noise of one cohort
        if better and (goal.max_band_drop is None or drops <= goal.max_band_drop):
            levels, cost = trial, c2
            now = float(model.success(new, 0.0))
            notes.append(f"regenerated {old.id} at position {pos + 1}: first-try success of "
                         f"an average player {s:.0%} -> {now:.0%}")  # fmt: skip
        else:
            notes.append(f"kept {old.id}: an easier version (success {target:.0%}) did not help")
    return levels, notes


def _verdicts(goal, before, after, floor, bands_before, bands_after, regenerate):
    out = []
    tried = (
        "reordering and regenerating"
        if regenerate
        else "reordering only (replacing the worst levels by easier generated ones was not tried)"
    )
    if goal.reach_last is not None:
        b, a = before.stats["reach"][-1, 0], after.stats["reach"][-1, 0]
        lo = after.stats["reach"][-1, 1]
        met = bool(a >= goal.reach_last)
        why = ""
        if not met:
            best = float(floor["reach"][-1])
            if best < goal.reach_last:
                why = (
                    f"even if every level were won at the first try, the quit model lets only "
                    f"{best:.0%} reach the last level, so no order or level can meet it"
                )
            else:
                worst = ", ".join(f"{lid} ({s:.0%})" for lid, s in after.exits(3))
                why = (
                    f"after {tried}, {a:.0%} (95 %: {lo:.0%}-"
                    f"{after.stats['reach'][-1, 2]:.0%}) reach it; most leave at {worst}"
                )
        out.append(GoalResult(goal.describe()[0], met, float(b), float(a), why))
    if goal.max_quit_hazard is not None:
        h = np.nan_to_num(after.stats["quit_hazard"][:, 0])
        hb = float(np.nanmax(before.stats["quit_hazard"][:, 0]))
        met = bool(h.max() <= goal.max_quit_hazard)
        why = ""
        if not met:
            bad = np.flatnonzero(h > goal.max_quit_hazard)
            parts = []
            for i in bad[:4]:
                fl = float(floor["quit_hazard"][i])
                tail = "an easier level there would help"
                if fl > goal.max_quit_hazard:
                    tail = f"even a level won at the first try there stops {fl:.0%}"
                parts.append(f"{after.level_ids[i]} at position {i + 1} stops {h[i]:.0%} "
                             f"({tail})")  # fmt: skip
            why = "; ".join(parts) + ("; …" if len(bad) > 4 else "")
        text = [t for t in goal.describe() if t.startswith("no level")][0]
        out.append(GoalResult(text, met, hb, float(h.max()), why))
    if goal.max_band_drop is not None:
        d_b, d_a = _drops(bands_before), _drops(bands_after)
        why = "" if d_a <= goal.max_band_drop else "no order found keeps the band rule"
        out.append(GoalResult(goal.describe()[-1], d_a <= goal.max_band_drop, float(d_b),
                              float(d_a), why))  # fmt: skip
    return out
