"""Tuning to a target (rule W3): the parameter value whose win rate (or other metric) hits it.

:func:`tune` runs a stochastic root search on a response that is assumed monotone between the
bounds (more monster life, fewer NPC wins), spending games where the answer is uncertain:

1. **Ends.** Both bounds are played on the first ``start`` seeds. When the target lies outside
   the two rates (beyond their 95 % intervals) it is not reachable: the result says so and
   names the closest end.
2. **Bisection on paired estimates.** The midpoint of the bracket is played on the same seeds
   (common random numbers: every point plays a prefix of one seed list, so neighbouring points
   differ by the parameter, not by luck). When its Wilson interval excludes the target the
   bracket halves; when it does not, the point and the bracket ends get twice the seeds, up to
   all of them; a midpoint still undecided then ends the bisection (the root is near it). An
   integer parameter stops at two neighbouring integers. Which half holds the root follows
   from the direction of the ends' rates, read again whenever their seeds double (ends that
   tie on their first seeds are taken as falling until more seeds tell them apart).
3. **Whole values first.** For a whole-number parameter the two whole values around the
   crossing are what the answer is about, so they get the budget first: their games double
   until each one's 95 % rate interval lies inside ``target ± precision`` (a *hit*) or wholly
   outside it (*off*), or the budget or the seed list runs out (*unsure*: the answer says the
   games were too few to tell).
4. **Local fit.** The points inside the final bracket get the remaining seeds (within
   ``budget``). The crossing is where a line through them meets the target: the mean of the
   rate line's root and the log-odds line's (a sigmoid's chord and a straight response's
   log-odds line err in opposite directions). Its 95 % interval is a bootstrap that reweights
   *seeds* (Poisson weights, the same for every point: the pairing is kept), refitting each
   time, for the fit's uncertainty, plus on each side the two lines' disagreement, for the
   curve's.

The response is injectable (``response=``): ``response(value, seeds) -> 0/1 array`` per seed.
The default plays the games (outcome-only kernel) and reads the metric
(:data:`~labkit.encounter.sim.sweep.METRICS`).

``value`` and ``ci`` always say the same thing: the answer and the 95 % interval of what it
claims. For a real parameter ``value`` is the crossing and ``ci`` its interval (``root_ci``).
For a whole number (monster life) ``value`` is one of the two whole values around the crossing
and ``ci`` the 95 % Wilson interval of the rate it gave on its own games: the value is exact,
what it gives is uncertain. ``hits`` is True only when that interval lies within ``target ±
precision`` (rule W3: a value played on a handful of games, whose interval holds anything, is
never a hit); ``whole`` holds both whole values with their games, rates, intervals and verdicts,
``root``/``root_ci`` the continuous crossing, a guide between them. :meth:`Tuned.summary` says
which whole value hits, that none does, or that the games were too few to tell.

Examples
--------
>>> import numpy as np
>>> u = np.random.default_rng(0).random(4000)          # one fixed uniform per seed (CRN)
>>> def response(v, seeds):                             # P(win) falls from 1 to 0 around 4.3
...     return u[seeds] < 1 / (1 + np.exp(1.5 * (v - 4.3)))
>>> t = tune(None, "/characters/monster/life", 0.5, bounds=(1.0, 9.0), response=response,
...          progress=False)
>>> t.reachable, t.ci[0] < 4.3 < t.ci[1], t.ci[1] - t.ci[0] < 0.5
(True, True, True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit._text import html_text
from labkit.encounter.rules.combat import wilson_interval

__all__ = ["tune", "Tuned", "play_response"]

Response = Callable[[float, np.ndarray], np.ndarray]


@dataclass
class Tuned:
    """What :func:`tune` found: ``value`` and ``ci``, the 95 % interval of what ``value`` claims.

    * A real parameter: ``value`` is the crossing (``root``) and ``ci`` its interval, in the
      parameter's units (``ci == root_ci``).
    * A whole-number parameter: ``value`` is a whole value that was played and ``ci`` the 95 %
      Wilson interval of *its* rate (in rate units: the value itself is exact; what is uncertain
      is what it gives). ``whole`` is a DataFrame of the two whole values around the crossing
      (``value``, ``n``, ``rate``, ``lo``, ``hi``, ``hits``, ``verdict``). A whole value hits
      when its interval lies within ``target ± precision`` (verdict ``"hit"``); ``"off"`` when
      its interval lies wholly outside that band; ``"unsure"`` when the budget or the seed
      list ran out first. ``hits`` says whether one of them hits; ``value`` is the hitting one
      nearest the target, else the measured one nearest it. ``root``/``root_ci`` are still the
      continuous crossing and its interval, a guide between the whole values.

    ``fit`` is the rate line (intercept, slope) through the final bracket (drawn with the
    curve); ``curve`` a DataFrame (``value``, ``n``, ``rate``, ``lo``, ``hi``, one row per
    point played, by value); ``games`` the games spent; ``reachable`` False when the target
    lies outside the rates at the bounds, and then ``closest`` is the end nearest to it
    (``value`` is that end, ``ci`` is ``(nan, nan)``).

    Examples
    --------
    A 30 % win rate cannot be reached between 5 and 10 when the rate is ``value / 10``:

    >>> import numpy as np
    >>> def response(value, seeds):
    ...     return ((seeds * 0.6180339887) % 1.0 < value / 10).astype(int)
    >>> t = tune(None, "x", 0.3, bounds=(5.0, 10.0), seeds=range(500), response=response,
    ...          progress=False)
    >>> t.reachable, t.value, t.closest, bool(np.isnan(t.ci).all())
    (False, 5.0, (5.0, 0.5), True)
    >>> t.summary()
    'npc_win = 0.3 is not reachable for x in the bounds: closest 5 gives 0.500 (... games)'
    """

    parameter: str
    target: float
    metric: str
    value: float
    ci: tuple[float, float]
    root: float
    reachable: bool
    closest: tuple[float, float]
    curve: Any
    games: int
    integer: bool
    fit: tuple[float, float] = field(default=(math.nan, math.nan))  # intercept, slope
    root_ci: tuple[float, float] = field(default=(math.nan, math.nan))
    whole: Any = None
    hits: bool = True
    precision: float = 0.02

    def plot(self, ax: Any = None, **style: Any) -> Any:
        """Draw the response curve with intervals, the target and the chosen value
        (:func:`labkit.encounter.draw_sim.draw_response`: a new figure's axes when ``ax`` is
        None; returns the artists)."""
        from labkit.encounter.draw_sim import draw_response

        return draw_response(self, ax=ax, **style)

    @property
    def settled(self) -> bool:
        """Whether every whole value around the crossing was measured to a verdict (False:
        the budget or the seed list was too small to tell; True for a real parameter)."""
        return self.whole is None or bool((self.whole["verdict"] != "unsure").all())

    def summary(self) -> str:
        """The answer in one line: for whole values, each with its rate, interval and games,
        and whether one lies within ``target ± precision``."""
        if not self.reachable:
            v, r = self.closest
            return (f"{self.metric} = {self.target:g} is not reachable for {self.parameter} in the "
                    f"bounds: closest {v:g} gives {r:.3f} ({self.games} games)")  # fmt: skip
        crossing = (f"crossing {self.root:.3f}, 95 % interval {self.root_ci[0]:.3f}-"
                    f"{self.root_ci[1]:.3f}; {self.games} games")  # fmt: skip
        if not self.integer or self.whole is None:  # no crossing, so no whole neighbours
            lo, hi = self.ci
            return (f"{self.parameter} = {self.value:.3f} gives {self.metric} = {self.target:g} "
                    f"(95 % interval {lo:.3f}-{hi:.3f}; {self.games} games)")  # fmt: skip
        sides = "; ".join(
            f"{r.value:g} gives {r.rate:.3f} (95 % {r.lo:.3f}-{r.hi:.3f}, {r.n} games)" if r.n
            else f"{r.value:g} not played" for r in self.whole.itertuples()
        )  # fmt: skip
        band = f"{self.metric} = {self.target:g} ± {self.precision:g}"
        if self.hits:
            return f"{self.parameter} = {self.value:g} gives {band}: {sides} ({crossing})"
        if self.settled:
            return (f"no whole value of {self.parameter} gives {band}: {sides}; nearest "
                    f"{self.value:g} ({crossing})")  # fmt: skip
        return (f"too few games to tell whether a whole value of {self.parameter} gives {band} "
                f"(raise the budget or the seeds): {sides}; nearest so far {self.value:g} "
                f"({crossing})")  # fmt: skip

    def __repr__(self) -> str:
        return f"Tuned({self.summary()})"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{r.value:g}</td><td>{r.n}</td><td>{r.rate:.3f}</td>"
            f"<td>{r.lo:.3f}–{r.hi:.3f}</td></tr>"
            for r in self.curve.itertuples()
        )
        # The parameter and metric names come from the caller (or a balance file): escaped.
        return (f"<b>Tuned</b>: {html_text(self.summary())}<table><tr><th>value</th><th>n</th>"
                f"<th>{html_text(self.metric)}</th><th>95% CI</th></tr>{rows}</table>")  # fmt: skip


def play_response(
    base: Any, parameter: str, metric: str = "npc_win", *, executor: Any = None,
    progress: Any = None, mode: str = "outcome",
) -> Response:  # fmt: skip
    """The default response of :func:`tune`: play ``base`` with ``parameter = value`` on the
    given seeds and return the metric per game (0/1, in seed order)."""
    from labkit.encounter.sim.engine import play_jobs
    from labkit.encounter.sim.sweep import METRICS, design, point_settings

    def response(value: float, seeds: np.ndarray) -> np.ndarray:
        design(base, {parameter: [value]})  # a bad name or value is named
        doc = point_settings(base, {parameter: value}).to_dict()
        jobs = [(i, 0, int(s), int(s)) for i, s in enumerate(seeds)]
        rows: list[tuple] = []
        play_jobs([doc], jobs, lambda chunk, got: rows.extend(got), executor=executor,
                  progress=progress or False, mode=mode)  # fmt: skip
        rows.sort()
        frame = {"winner": np.array([r[1] for r in rows]),
                 "end_reason": np.array([r[2] for r in rows])}  # fmt: skip
        return np.asarray(METRICS[metric](frame), dtype=bool)

    return response


class _Search:
    """The points measured so far (value -> 0/1 outcomes on a prefix of the seed list)."""

    def __init__(self, response: Response, seeds: np.ndarray, budget: int, bar: Any) -> None:
        self.response, self.seeds, self.budget, self.bar = response, seeds, budget, bar
        self.y: dict[float, np.ndarray] = {}
        self.games = 0

    def measure(self, v: float, n: int) -> np.ndarray:
        """Outcomes of v on the first n seeds (plays only the seeds not played yet, and never
        more games than the budget has left)."""
        have = self.y.get(v, np.zeros(0, dtype=bool))
        n = min(n, self.seeds.size, have.size + max(self.left, 0))
        if have.size < n:
            got = np.asarray(self.response(v, self.seeds[have.size : n]))
            if got.shape != (n - have.size,):
                raise ArgumentError("must return one 0/1 outcome per seed", argument="response",
                                    value=got.shape)  # fmt: skip
            odd = got[(got != 0) & (got != 1)] if got.dtype != bool else got[:0]
            if odd.size:  # a rate or a score is not a game's outcome: never read it as a win
                raise ArgumentError(f"must return 0/1 outcomes, one per seed (value {v:g})",
                                    argument="response", value=odd[0].item())  # fmt: skip
            more = got.astype(bool)
            self.games += more.size
            if self.bar is not None:
                self.bar(self.games)
            have = np.concatenate([have, more])
            self.y[v] = have
        return have[:n]

    def rate(self, v: float) -> float:
        return float(self.y[v].mean())

    def side(self, v: float, target: float) -> int:
        """+1 / -1 when v's interval lies above / below the target, 0 when it holds it."""
        y = self.y[v]
        lo, hi = wilson_interval(int(y.sum()), y.size)
        return 1 if lo > target else -1 if hi < target else 0

    @property
    def left(self) -> int:
        return self.budget - self.games


def _fit(points: list[float], y: dict[float, np.ndarray], w: np.ndarray | None,
         logit: bool = False) -> tuple:  # fmt: skip
    """Weighted least-squares line (intercept, slope) of rate on value over ``points``; with
    ``logit``, of the empirical log-odds ``log((k + 1/2) / (n - k + 1/2))`` (weights
    ``n p (1 - p)``, their inverse variances; finite for rates of 0 and 1)."""
    xs, rs, ns = [], [], []
    for v in points:
        ww = np.ones(y[v].size) if w is None else w[: y[v].size]
        tot = ww.sum()
        if tot <= 0:
            continue
        xs.append(v)
        k = float((ww * y[v]).sum())
        if logit:
            p = (k + 0.5) / (tot + 1)
            rs.append(math.log((k + 0.5) / (tot - k + 0.5)))
            ns.append(tot * p * (1 - p))
        else:
            rs.append(k / tot)
            ns.append(tot)
    x, r, n = np.array(xs), np.array(rs), np.array(ns)
    if x.size < 2 or np.ptp(x) == 0:
        return math.nan, math.nan
    xm, rm = np.average(x, weights=n), np.average(r, weights=n)
    slope = float((n * (x - xm) * (r - rm)).sum() / (n * (x - xm) ** 2).sum())
    return rm - slope * xm, slope


def tune(
    base: Any,
    parameter: str,
    target: float,
    *,
    metric: str = "npc_win",
    bounds: tuple[float, float],
    seeds: Iterable[int] = range(4000),
    executor: Any = None,
    integer: bool | None = None,
    start: int = 200,
    budget: int = 20_000,
    tol: float | None = None,
    bootstrap: int = 400,
    progress: bool | Callable[[int, int], None] = True,
    response: Response | None = None,
    precision: float = 0.02,
) -> Tuned:
    """Find the value of ``parameter`` whose ``metric`` equals ``target``.

    Parameters
    ----------
    base : SimulationSettings
        The games (ignored when ``response`` is given).
    parameter : str
        A settings field or a balance JSON pointer (as in :func:`~labkit.encounter.sweep`).
    target : float
        The rate to hit, in (0, 1).
    metric : str
        ``"npc_win"``, ``"monster_win"``, ``"step_limit"`` or ``"mutual_death"``.
    bounds : (low, high)
        The search range; the response must be monotone in it.
    seeds : iterable of int
        The seed list; every point plays a prefix of it (common random numbers). A response
        gets its seeds as an int64 array, whatever integer type they came in.
    integer : bool, optional
        Search integers only (default: when both bounds are ints).
    start, budget : int
        Seeds per point at first; the most games to spend in all (at least ``2 * start``: both
        ends are played first). A search that runs out stops bisecting and fits the bracket
        it has.
    tol : float, optional
        Stop bisecting a real parameter when the bracket is this narrow (default 1/64 of the
        range).
    bootstrap : int
        Resamples for the interval.
    progress : bool or callable
        A bar over games spent, or ``progress(games, budget)``.
    response : callable, optional
        ``response(value, seeds) -> 0/1 per seed`` instead of playing games (tests, other
        models).
    precision : float
        Whole numbers only: a whole value *hits* when its rate's 95 % interval lies within
        ``target ± precision`` (default 0.02, two points of a win rate). The two whole values
        around the crossing get the budget first, their games doubling until each is a hit or
        wholly outside that band; when the budget or the seeds run out before, the answer says
        so.

    Returns
    -------
    Tuned
        ``reachable=False`` (with ``closest``) when the target is outside the bounds' rates.

    Examples
    --------
    A synthetic response whose win rate is ``value / 10`` (each seed a fixed uniform draw,
    so points share their random numbers) is tuned to 30 % near ``value = 3``:

    >>> import numpy as np
    >>> def response(value, seeds):
    ...     return ((seeds * 0.6180339887) % 1.0 < value / 10).astype(int)
    >>> t = tune(None, "x", 0.3, bounds=(0.0, 10.0), seeds=range(1000), response=response,
    ...          bootstrap=100, progress=False)
    >>> t.reachable, round(t.value, 1), t.ci[0] < 3 < t.ci[1], t.games <= 20_000
    (True, 3.0, True, True)
    >>> list(t.curve.columns)
    ['value', 'n', 'rate', 'lo', 'hi']
    """
    import pandas as pd

    from labkit.encounter.sim.sweep import METRICS

    if metric not in METRICS:
        raise ArgumentError(f"unknown metric, known: {sorted(METRICS)}", argument="metric",
                            value=metric)  # fmt: skip
    if not isinstance(target, (int, float)) or not 0 < target < 1:
        raise ArgumentError("must be a rate strictly between 0 and 1", argument="target",
                            value=target)  # fmt: skip
    try:
        lo_b, hi_b = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ArgumentError("must be (low, high)", argument="bounds", value=bounds) from None
    if not (math.isfinite(lo_b) and math.isfinite(hi_b) and lo_b < hi_b):
        raise ArgumentError("needs finite low < high", argument="bounds", value=bounds)
    from labkit._args import check_int
    from labkit.encounter.sim.sweep import MAX_SEEDS

    start = check_int(start, "start", 10, MAX_SEEDS)
    budget = check_int(budget, "budget", 1, 100_000_000)
    if budget < 2 * start:  # the two ends are played on `start` seeds each before anything else
        why = f"must be at least 2 × start = {2 * start} games (both ends are played first)"
        raise ArgumentError(why, argument="budget", value=budget)
    bootstrap = check_int(bootstrap, "bootstrap", 1, 100_000)
    if (isinstance(precision, bool) or not isinstance(precision, (int, float))
            or not 0 < precision < 0.5):  # fmt: skip
        raise ArgumentError("must be a number strictly between 0 and 0.5", argument="precision",
                            value=precision)  # fmt: skip
    if tol is not None and (isinstance(tol, bool) or not isinstance(tol, (int, float))
                            or not math.isfinite(tol) or tol <= 0):  # fmt: skip
        raise ArgumentError("must be a finite number > 0 (or None)", argument="tol", value=tol)
    seed_arr = np.array(list(itertools.islice(seeds, MAX_SEEDS + 1)), dtype=np.int64)
    if seed_arr.size > MAX_SEEDS:
        raise ArgumentError(f"more than {MAX_SEEDS} seeds", argument="seeds")
    if seed_arr.size < 10 or np.unique(seed_arr).size != seed_arr.size:
        raise ArgumentError("needs at least 10 distinct seeds", argument="seeds",
                            value=seed_arr.size)  # fmt: skip
    if integer is None:
        integer = all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
    if integer:
        lo_b, hi_b = float(math.ceil(lo_b)), float(math.floor(hi_b))
    tol = (hi_b - lo_b) / 64 if tol is None else tol
    own = None
    if response is None:
        if executor is None:  # one pool for every point, not one per point
            from labkit.encounter.sim.batch import local_executor

            executor = own = local_executor()
        response = play_response(base, parameter, metric, executor=executor)
    bar = close = None
    if progress is True:
        from tqdm.auto import tqdm

        t = tqdm(total=budget, desc="tune", unit="game")
        bar, close = (lambda games: t.update(games - t.n)), t.close
    elif callable(progress):
        bar = lambda games: progress(games, budget)  # noqa: E731
    s = _Search(response, seed_arr, budget, bar)
    try:
        a, b = (lo_b, hi_b) if not integer else (int(lo_b), int(hi_b))
        for v in (a, b):
            s.measure(v, start)
        fa, fb = s.rate(a) - target, s.rate(b) - target
        sa, sb = s.side(a, target), s.side(b, target)
        if sa != 0 and sa == sb:
            best = a if abs(fa) <= abs(fb) else b
            return _result(parameter, target, metric, s, integer, best, False, pd,
                           precision=precision)  # fmt: skip
        rising = fb > fa
        n = start
        while (b - a > 1) if integer else (b - a > tol):
            if s.left < min(n, seed_arr.size):
                break  # no budget for another midpoint: fit the bracket as it stands
            m = (a + b) // 2 if integer else (a + b) / 2
            s.measure(m, n)
            side = s.side(m, target)
            while side == 0 and n < seed_arr.size and s.left >= 3 * min(2 * n, seed_arr.size):
                n = min(2 * n, seed_arr.size)
                for v in (a, m, b):
                    s.measure(v, n)
                side = s.side(m, target)
                if s.rate(a) != s.rate(b):  # ends that tied on fewer seeds may now tell
                    rising = s.rate(b) > s.rate(a)
            if side == 0:
                break  # the root is near m: fit it
            above = side > 0
            if above == rising:
                b = m
            else:
                a = m
        inside = sorted(v for v in s.y if a <= v <= b)
        if integer:
            # the answer is about the whole values around the crossing: their rates are
            # measured to the precision first, the fit gets what is left (issue 45: a value
            # played on 2 games was called a hit)
            root = _crossing(inside, s.y, target, 0)[0]
            if not math.isnan(root):
                _settle(s, _whole_pair(s, root), target, precision, n)
            inside = sorted(v for v in s.y if a <= v <= b)
        per = min(seed_arr.size, max(n, s.left // max(1, len(inside)) + min(
            s.y[v].size for v in inside)))  # fmt: skip
        for v in inside:
            s.measure(v, per)
        return _result(parameter, target, metric, s, integer, (a, b), True, pd, bootstrap,
                       precision)  # fmt: skip
    finally:
        if close is not None:
            close()
        if own is not None:
            own.shutdown()


def _curve(s: _Search, pd: Any) -> Any:
    """Every point played: its games, rate and 95 % Wilson interval, by value."""
    return pd.DataFrame(
        [(v, s.y[v].size, s.rate(v), *map(float, wilson_interval(int(s.y[v].sum()), s.y[v].size)))
         for v in sorted(s.y)], columns=["value", "n", "rate", "lo", "hi"],
    )  # fmt: skip


def _roots(points: list[float], y: dict[float, np.ndarray], target: float,
           w: np.ndarray | None) -> tuple[float, float]:  # fmt: skip
    """Where the rate line and the log-odds line through ``points`` cross the target."""
    i, k = _fit(points, y, w)
    li, lk = _fit(points, y, w, logit=True)
    rate = (target - i) / k if k else math.nan
    odds = (math.log(target / (1 - target)) - li) / lk if lk else math.nan
    return rate, odds


_BLOCK = 2_000_000  # Poisson weights held at once by the bootstrap (16 MB)


def _lines(x: np.ndarray, r: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least-squares lines of ``r`` on ``x`` (weights ``n``), one per row: (intercept,
    slope), nan where fewer than two values carry weight."""
    with np.errstate(invalid="ignore", divide="ignore"):
        tot = n.sum(axis=1, keepdims=True)
        xm = (n * x).sum(axis=1, keepdims=True) / tot
        rm = (n * r).sum(axis=1, keepdims=True) / tot
        sxx = (n * (x - xm) ** 2).sum(axis=1)
        slope = np.where(sxx > 0, (n * (x - xm) * (r - rm)).sum(axis=1) / sxx, np.nan)
    return rm[:, 0] - slope * xm[:, 0], slope


def _resampled_roots(points: list[float], y: dict[float, np.ndarray], target: float,
                     w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """:func:`_roots` for many resamples at once: row i of ``w`` weights the seeds (a point
    played on n seeds takes the first n weights, as in :func:`_fit`); nan where a line has no
    slope."""
    x = np.asarray(points, dtype=float)
    n = np.stack([w[:, : y[v].size].sum(axis=1) for v in points], axis=1)
    k = np.stack([w[:, : y[v].size] @ y[v].astype(float) for v in points], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        i, b = _lines(x, np.where(n > 0, k / n, 0.0), n)
        p = (k + 0.5) / (n + 1)
        li, lb = _lines(x, np.log((k + 0.5) / (n - k + 0.5)), n * p * (1 - p))
        rate = np.where(b != 0, (target - i) / b, np.nan)
        odds = np.where(lb != 0, (math.log(target / (1 - target)) - li) / lb, np.nan)
    return rate, odds


def _crossing(points: list[float], y: dict[float, np.ndarray], target: float,
              bootstrap: int) -> tuple[float, tuple[float, float], bool]:  # fmt: skip
    """The crossing, its 95 % interval and whether any resample gave a root.

    A line through the bracket is a model of the curve, not the curve: a sigmoid's chord
    crosses nearer the bracket's middle than the curve does, a straight response's log-odds line
    the other way. The crossing is the mean of the two lines' roots; its interval is the
    bootstrap's (seeds reweighted, the same weights for every point: the pairing is kept) for
    the fit's own uncertainty, each side widened by the two lines' disagreement for the
    curve's (issue 45: the rate line alone held the truth in 90-93 % of runs; widening in
    quadrature instead held it in 92-93 % at 6,000 games, this in 94-97 %)."""
    rate, odds = map(float, _roots(points, y, target, None))
    root = (rate + odds) / 2
    rng = np.random.default_rng(0)  # the interval is a function of the data, not of the clock
    size = max(y[v].size for v in points)
    roots = []
    block = max(1, _BLOCK // size)  # resamples drawn together, in bounded memory
    for first in range(0, bootstrap, block):
        w = rng.poisson(1.0, (min(block, bootstrap - first), size)).astype(float)
        r, o = _resampled_roots(points, y, target, w)
        keep = np.isfinite(r) & np.isfinite(o)
        roots.extend(((r + o) / 2)[keep].tolist())
    if not roots or math.isnan(root):
        return root, (math.nan, math.nan), bool(roots)
    lo, hi = map(float, np.percentile(roots, [2.5, 97.5]))
    curve = abs(rate - odds)
    # max(.., 0): a root outside its resamples' range still lies in its own interval
    return root, (root - max(root - lo, 0.0) - curve, root + max(hi - root, 0.0) + curve), True


def _result(parameter, target, metric, s, integer, where, reachable, pd, bootstrap=0,
            precision=0.02) -> Tuned:  # fmt: skip
    curve = _curve(s, pd)
    if not reachable:
        return Tuned(parameter, target, metric, float(where), (math.nan, math.nan), math.nan,
                     False, (float(where), s.rate(where)), curve, s.games, integer,
                     precision=precision)  # fmt: skip
    a, b = where
    points = sorted(v for v in s.y if a <= v <= b)
    icpt, slope = _fit(points, s.y, None)
    fit = (float(icpt), float(slope))
    root, root_ci, _ = _crossing(points, s.y, target, bootstrap)
    closest = min(s.y, key=lambda v: abs(s.rate(v) - target))
    if not integer or math.isnan(root):
        value = float(root)
        return Tuned(parameter, target, metric, value, root_ci, value, True,
                     (float(closest), s.rate(closest)), curve, s.games, integer, fit,
                     root_ci, precision=precision)  # fmt: skip
    first = min(s.y[v].size for v in points)
    whole = _neighbours(s, root, target, precision, first, pd)
    hit = whole[whole["hits"]]
    pick = hit if len(hit) else whole[whole["n"] > 0]
    if len(pick):
        at = (pick["rate"] - target).abs().idxmin()
    else:  # neither neighbour could be played within the budget: the nearer one
        at = whole.index[int(root - whole["value"].iloc[0] > 0.5)]
    value = float(whole.loc[at, "value"])
    ci = (float(whole.loc[at, "lo"]), float(whole.loc[at, "hi"]))
    curve = _curve(s, pd)  # again: the neighbours may have played new points
    return Tuned(parameter, target, metric, value, ci, float(root), True,
                 (float(closest), s.rate(closest)), curve, s.games, integer, fit, root_ci,
                 whole, bool(len(hit)), precision)  # fmt: skip


def _verdict(y: np.ndarray, target: float, precision: float) -> str:
    """``"hit"`` when the rate's 95 % interval lies within ``target ± precision``, ``"off"``
    when it lies wholly outside it, ``"unsure"`` when it straddles an edge (or nothing was
    played): more games would tell."""
    if y.size == 0:
        return "unsure"
    lo, hi = map(float, wilson_interval(int(y.sum()), y.size))
    if target - precision <= lo and hi <= target + precision:
        return "hit"
    return "off" if lo > target + precision or hi < target - precision else "unsure"


def _whole_pair(s: _Search, root: float) -> list[int]:
    """The two whole values around the crossing, inside the range played (ints: balance ints
    stay ints)."""
    known = sorted(s.y)
    low = min(max(math.floor(root), int(known[0])), int(known[-1]) - 1)
    return [low, low + 1]


def _settle(s: _Search, values: list[int], target: float, precision: float, first: int) -> None:
    """Play each whole value until :func:`_verdict` decides it, in rounds that double every
    undecided value's games (from ``first``), until the seed list or the budget runs out."""
    empty = np.zeros(0, dtype=bool)
    want = {v: max(first, s.y.get(v, empty).size) for v in values}
    pending = list(values)
    while pending and s.left > 0:
        for v in pending:
            s.measure(v, want[v])
        pending = [v for v in pending if s.y.get(v, empty).size < s.seeds.size
                   and _verdict(s.y.get(v, empty), target, precision) == "unsure"]  # fmt: skip
        for v in pending:
            want[v] = min(s.seeds.size, max(first, 2 * s.y.get(v, empty).size))


def _neighbours(s: _Search, root: float, target: float, precision: float, first: int,
                pd: Any) -> Any:  # fmt: skip
    """The two whole values around the crossing, each measured until its verdict is decided
    (or the budget is spent): value, games, rate, 95 % interval, hits, verdict."""
    pair = _whole_pair(s, root)
    _settle(s, pair, target, precision, first)
    rows = []
    for v in pair:
        y = s.y.get(v, np.zeros(0, dtype=bool))
        if y.size == 0:  # the budget is spent: unmeasured, so it hits nothing
            rows.append((float(v), 0, math.nan, 0.0, 1.0, False, "unsure"))
            continue
        lo, hi = map(float, wilson_interval(int(y.sum()), y.size))
        verdict = _verdict(y, target, precision)
        rows.append((float(v), y.size, float(y.mean()), lo, hi, verdict == "hit", verdict))
    return pd.DataFrame(rows, columns=["value", "n", "rate", "lo", "hi", "hits", "verdict"])
