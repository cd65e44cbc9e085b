"""Several targets over several knobs at once (issue 29), searched with Optuna on paired seeds.

:func:`tune_many` looks for knob values (:mod:`~labkit.encounter.sim.knobs`) that put every
target (:mod:`~labkit.encounter.sim.targets`) in its band:

1. **Search.** Every trial plays the *same* ``games`` seeds (common random numbers: two trials
   differ by their knobs, not by their luck), so the response Optuna sees is smooth and repeats
   exactly; Optuna cannot repeat a noisy evaluation, and with paired seeds it need not. TPE
   (``sampler="tpe"``) minimises the summed misses (each over its target's scale) and, once
   every target is met, prefers the point deepest inside the bands; NSGA-II (``"nsga2"``)
   keeps one objective per target, for trade-offs. Whole-number knobs are suggested as
   integers and never take another value. Trials are asked ``batch`` at a time and their games
   played together.
2. **Choice.** Estimates chosen as the best of many noisy ones are too good (the winner's
   curse), so the candidates — up to ``recheck`` trials meeting every target on the search
   seeds, or the Pareto front of the misses when none does — are re-played on ``fresh`` seeds
   that the search never saw, and the one deepest inside every band (else the closest) is
   chosen. With ``refine`` trials kept and a choice not deep inside every band, a local
   refinement (:mod:`~labkit.encounter.sim.tune_refine`) moves it on those fresh seeds.
3. **Confirmation.** The choice was made on the fresh seeds, so its estimates there are too good
   as well: the chosen candidate alone is played again on seeds that no choice has seen, and a
   target is **met** only when its whole 95 % interval on those games lies inside its band
   (``unsure`` when the interval crosses an edge, ``NOT met`` when it lies outside). A setting
   whose true value lies outside a band is then reported met at most 2.5 % of the time (less
   when the truth is further out), however many candidates were tried, and with several targets
   too (every interval must lie inside). The confirmation's size is chosen from the fresh
   games before it is played (so that the interval would fit inside the bands nine times in
   ten if the fresh estimate were right), at least ``fresh`` games and at most ``confirm``
   (the fewest when a fresh estimate lies outside its band: it states the interval); when
   ``confirm`` is too small the summary says so and how many games would settle it.

With ``out=DIR`` the Optuna study is a journal file ``DIR/study.journal`` beside a manifest
(the call's knobs, targets, seeds and base); the same call again continues the study up to
``budget`` trials, keeping every finished one (a different call on the directory is a
:class:`~labkit.encounter.SweepError`).

Examples
--------
A made-up game whose NPC win rate is ``a / 10`` and whose length is ``5 b`` steps:

>>> import numpy as np
>>> u = np.random.default_rng(1).random(100_000)  # one per seed of the default range
>>> def response(point, seeds):
...     return {"npc_win": u[seeds] < point["a"] / 10, "steps": 5.0 * point["b"] + 0 * seeds}
>>> t = tune_many(None, {"a": (0.0, 10.0), "b": (0, 30)}, ["npc_win=0.5±0.05", "steps=40:60"],
...               budget=60, games=400, fresh=1000, response=response, progress=False)
>>> t.met, 4.0 < t.best["a"] < 6.0, isinstance(t.best["b"], int), 8 <= t.best["b"] <= 12
(True, True, True, True)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.sim.knobs import (
    GAME_OUTCOMES,
    OUTCOME_WORDS,
    RATES,
    GamePlayer,
    Knob,
    Response,
    knob_list,
)
from labkit.encounter.sim.targets import Target, estimate, parse_target

__all__ = ["tune_many", "TunedMany", "pareto_front"]

STUDY = "study.journal"
MANIFEST = "tune_many.json"
FORMAT = "labkit.tune_many"
#: The most games a confirmation plays by default (about 6 s of real games on two cores).
CONFIRM = 40_000
#: Most trials of one study, games per trial or check, and games of the search in all
#: (trials x games): each bounds one call's time before any game is played.
MAX_TRIALS = 10_000
MAX_GAMES = 1_000_000
MAX_SEARCH_GAMES = 100_000_000
# The confirmation is sized so that, were the fresh estimate the truth, its 95 % interval would
# clear the nearer edge about nine times in ten: z(97.5 %) for the interval, z(90 %) for power.
_Z, _POWER_Z = 1.959964, 1.281552
# Deep enough not to refine: every estimate half its band's half-width inside (refine's stop).
_DEEP = -0.5


@dataclass
class TunedMany:
    """What :func:`tune_many` found.

    ``best`` is the chosen candidate's knob values (whole knobs as ints) and ``trial``; ``met``
    is True only when, on its confirmation games (seeds no choice has seen), every target's
    whole 95 % interval lies inside its band. ``trials`` has one row per finished trial
    (``trial``, each knob, ``est:<outcome>`` and ``miss:<outcome>`` on the search seeds,
    ``feasible``, ``front``); ``checked`` one row per re-played candidate (``stage``
    ``"recheck"`` on the fresh seeds, where the choice is made, and one ``"confirm"`` row for
    the chosen candidate on the confirmation seeds; knobs, ``est:``/``lo:``/``hi:``/``miss:``
    per target, ``met:`` per target — the interval inside the band —, ``met``, ``score``): only
    the confirmation row's ``met`` is a verdict, the re-check's intervals belong to estimates
    that were chosen for looking good. ``refined`` holds the refinement's trials on the fresh
    seeds (None without one). ``confirm_games`` counts the confirmation's games and
    ``confirm_needed`` the games the fresh estimates said it would take (inf when a fresh
    estimate lay outside its band). ``games`` counts the games played in this call (a resumed
    study's earlier search games are not replayed; the re-check and refinement are played
    again, alike).

    Examples
    --------
    >>> t = tune_many(None, {"b": (0, 30)}, ["steps=40:60"], budget=12, games=10, fresh=10,
    ...               response=lambda p, s: {"steps": 5.0 * p["b"] + 0 * s}, progress=False)
    >>> t.met, 8 <= t.best["b"] <= 12, t.patch() == {"b": t.best["b"]}, t.confirm_games
    (True, True, True, 10)
    """

    knobs: list[Knob]
    targets: list[Target]
    trials: Any
    checked: Any
    best: dict[str, Any] | None
    met: bool
    games: int
    search_games: int
    fresh_games: int
    sampler: str
    refined: Any = None
    confirm_games: int = 0
    confirm_needed: float = 0.0

    def confirmation(self) -> Any:
        """The chosen candidate's confirmation row of ``checked`` (None without a candidate)."""
        if self.best is None:
            return None
        rows = self.checked[(self.checked["trial"] == self.best["trial"])
                            & (self.checked["stage"] == "confirm")]  # fmt: skip
        return rows.iloc[0] if len(rows) else None

    @staticmethod
    def verdict(rec: Mapping[str, Any], target: Target) -> str:
        """The word for ``target`` on a row ``rec`` of ``checked`` — the one wording of the
        summary, the table, the app and the command line: on the confirmation row ``"met"``,
        ``"unsure"`` or ``"NOT met"`` (:meth:`~labkit.encounter.sim.targets.Target.verdict` of
        its 95 % interval); on a row where the choice was made (re-check, refinement) only where
        the estimate lies, ``"in band"`` or ``"outside"``: those estimates were picked for looking
        good, so they are no verdict.

        Examples
        --------
        >>> from labkit.encounter.sim.targets import parse_target
        >>> t = parse_target("npc_win=0.5±0.02")
        >>> row = {"stage": "recheck", "est:npc_win": 0.51, "lo:npc_win": 0.49, "hi:npc_win": 0.53}
        >>> TunedMany.verdict(row, t), TunedMany.verdict({**row, "stage": "confirm"}, t)
        ('in band', 'unsure')
        """
        n = target.name
        if rec["stage"] == "confirm":
            return target.verdict(rec[f"lo:{n}"], rec[f"hi:{n}"])
        return "in band" if target.holds(rec[f"est:{n}"]) else "outside"

    def summary(self) -> str:
        """Sentences: the targets, the search, the choice, and whether the chosen candidate is
        met on its confirmation games (every 95 % interval inside its band)."""
        goals = "; ".join(t.sentence() for t in self.targets)
        head = f"Targets: {goals}. {len(self.trials)} trials on {self.search_games} paired seeds"
        row = self.confirmation()
        if row is None or self.best is None:
            return head + "; no candidate to re-check."
        replayed = int((self.checked["stage"] == "recheck").sum())
        best = "the best" if replayed == 1 else f"the best {replayed}"
        head += f", {best} re-played on {self.fresh_games} fresh seeds"
        if self.refined is not None:
            head += f", then {len(self.refined)} refinement trials around the closest on them"
        head += " to choose one"
        knobs = ", ".join(f"{k.label} = {k.text(self.best[k.name])}" for k in self.knobs)
        parts = []
        for t in self.targets:
            est, lo, hi = row[f"est:{t.name}"], row[f"lo:{t.name}"], row[f"hi:{t.name}"]
            fmt = (lambda v: f"{100 * v:.1f} %") if t.outcome in RATES else (lambda v: f"{v:.1f}")
            said, unit = OUTCOME_WORDS[t.outcome]  # designer words (every outcome has them)
            unit = f" {unit}" if unit else ""
            parts.append(f"{said} {fmt(est)} [{fmt(lo)}, {fmt(hi)}]{unit} "
                         f"{self.verdict(row, t)}")  # fmt: skip
        games = f"{self.confirm_games} confirmation games no choice has seen"
        if self.met:
            verdict = f"meets every target: each 95 % interval lies inside its band on {games}"
        else:
            verdict = ("is the closest found and is not shown to meet every target: not every "
                       f"95 % interval lies inside its band on {games}")  # fmt: skip
        text = (f"{head}. {knobs} {verdict} ({'; '.join(parts)}; "
                f"{self.games} games in all).")  # fmt: skip
        if not self.met and self.confirm_games < self.confirm_needed < math.inf:
            text += (f" {self.confirm_games} confirmation games were too few to settle it: the "
                     f"fresh games suggest about {int(self.confirm_needed)}.")  # fmt: skip
        return text

    def plot(self, ax: Any = None, **style: Any) -> Any:
        """The trials by their misses, the Pareto front and the re-played candidates
        (:func:`labkit.encounter.draw_search.draw_pareto`)."""
        from labkit.encounter.draw_search import draw_pareto

        return draw_pareto(self, ax=ax, **style)

    def patch(self) -> dict[str, Any]:
        """``best`` as a settings/balance patch ``{knob: value}`` (whole knobs whole)."""
        if self.best is None:
            return {}
        return {k.name: self.best[k.name] for k in self.knobs}

    def __repr__(self) -> str:
        return f"TunedMany({self.summary()})"


def pareto_front(misses: np.ndarray) -> np.ndarray:
    """Mask of the rows no other row dominates (as small or smaller everywhere, smaller once).

    Examples
    --------
    >>> pareto_front(np.array([[0, 2], [1, 1], [2, 0], [2, 2]])).tolist()
    [True, True, True, False]
    """
    m = np.asarray(misses, dtype=float)
    keep = np.ones(len(m), dtype=bool)
    for i in range(len(m)):
        dominated = (m <= m[i]).all(axis=1) & (m < m[i]).any(axis=1)
        keep[i] = not dominated.any()
    return keep


def _score(targets: list[Target], est: Mapping[str, float]) -> tuple[float, list[float]]:
    misses = [t.miss(est[t.outcome]) / t.scale for t in targets]
    total = float(sum(misses))
    if total == 0:  # all met: deeper inside the bands is safer on fresh seeds
        total = -min(t.slack(est[t.outcome]) / t.scale for t in targets)
    return total, misses


def _open_study(out: Any, manifest: dict, sampler: Any, directions: list[Any],
                held: contextlib.ExitStack) -> Any:  # fmt: skip
    """The study, in memory or in ``out`` (its lock then held in ``held``: one process a folder)."""
    import optuna

    if out is None:
        return optuna.create_study(sampler=sampler, directions=directions)
    from labkit.encounter.sim.importance_parts import check_journal, open_run_folder, stamp_journal
    from labkit.encounter.sim.sweep_folder import hold, identity

    held.enter_context(hold(Path(out), "a tune"))  # before the manifest is read or written
    d = open_run_folder(out, manifest, MANIFEST, FORMAT, "tune",
                         leftovers=(STUDY, "a study journal"))  # fmt: skip
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    # every line checked before Optuna reads it (a torn last line dropped, any other bad line
    # refused naming it): Optuna would stop on it with a JSONDecodeError and append after it
    run = identity(manifest)
    stamped = check_journal(d / STUDY, "tune_many", list(manifest["knobs"]), run)
    storage = JournalStorage(JournalFileBackend(str(d / STUDY)))
    study = optuna.create_study(study_name="tune_many", storage=storage, sampler=sampler,
                                directions=directions, load_if_exists=True)  # fmt: skip
    if not stamped:
        stamp_journal(study, run)
    return study


def tune_many(
    base: Any,
    knobs: Mapping[str, Any],
    targets: Sequence[Any],
    *,
    budget: int = 300,
    seeds: Iterable[int] = range(100_000),
    games: int = 400,
    fresh: int = 2000,
    confirm: int = CONFIRM,
    recheck: int = 5,
    refine: int = 0,
    enough: int | None = None,
    sampler: str = "tpe",
    batch: int = 4,
    rng: Any = 0,
    out: str | os.PathLike | None = None,
    executor: Any = None,
    progress: Any = True,
    response: Response | None = None,
) -> TunedMany:
    """Knob values that put every target in its band: chosen on fresh seeds, then confirmed
    (every 95 % interval inside its band) on seeds no choice has seen.

    Parameters
    ----------
    base : SimulationSettings
        What every game shares (ignored with ``response``).
    knobs : mapping
        ``{settings field or balance pointer: (low, high)}``; int ends make whole-number knobs.
    targets : sequence
        :class:`~labkit.encounter.sim.targets.Target` objects or their texts
        (``"npc_win=0.5±0.02"``, ``"steps=60:90"``, ``"step_limit<0.05"``).
    budget : int
        Trials in the study (a resumed study counts its finished trials).
    seeds : iterable of int
        The first ``games`` are the search's paired seeds, the next ``fresh`` the re-check's
        (and the refinement's), the rest the confirmation's (it plays the first of them; at
        least ``min(fresh, confirm)`` must be left).
    games, fresh : int
        Games per trial; games per re-checked candidate.
    confirm : int
        The most games the confirmation may play (it plays at least ``min(fresh, confirm)``,
        more when the fresh estimates lie in their bands but near an edge; never more than the
        seeds left).
    recheck : int
        Candidates re-played at most.
    refine : int
        Trials of ``budget`` kept for a local refinement when the chosen candidate is not deep
        inside every band on its fresh games (some estimate less than half its band's
        half-width inside, or outside, or too close to an edge to be confirmed within
        ``confirm`` games): :mod:`~labkit.encounter.sim.tune_refine`'s compass search on the
        re-check's fresh seeds from it, whose best point is then the one confirmed; 0: none.
    enough : int, optional
        Stop searching once this many trials meet every target on the search seeds (default:
        spend the whole ``budget``).
    sampler : {"tpe", "nsga2"}
        One summed objective (TPE) or one objective per target (NSGA-II).
    batch : int
        Trials asked and played together.
    rng : int
        Seeds the sampler (through :mod:`labkit.rng`).
    out : path, optional
        Directory for the study journal and manifest (resumable).
    executor, progress, response
        As for :func:`~labkit.encounter.importance`.

    Returns
    -------
    TunedMany

    Examples
    --------
    A length of ``5 b`` steps, to be 40 to 60 (b = 8 ... 12), and a win rate to stay above 20 %:

    >>> import numpy as np
    >>> def response(point, seeds):
    ...     return {"steps": 5.0 * point["b"] + 0 * seeds, "npc_win": (seeds % 4 > 0) * 1.0}
    >>> t = tune_many(None, {"b": (0, 30)}, ["steps=40:60", "npc_win>0.2"], budget=20,
    ...               games=20, fresh=40, response=response, progress=False)
    >>> t.met, sorted(t.checked.columns)[:4], t.checked["stage"].iloc[-1]
    (True, ['b', 'est:npc_win', 'est:steps', 'hi:npc_win'], 'confirm')
    """
    import optuna
    import pandas as pd

    from labkit import rng as lrng

    ks = knob_list(base if response is None else None, knobs)
    ts = [parse_target(t) for t in (targets if isinstance(targets, Sequence)
                                    and not isinstance(targets, str) else [targets])]  # fmt: skip
    if not ts:
        raise ArgumentError("names no target", argument="targets", value=targets)
    if len({t.outcome for t in ts}) != len(ts):
        raise ArgumentError(
            "one target per outcome", argument="targets", value=[t.outcome for t in ts]
        )
    if enough is not None and (
        isinstance(enough, bool) or not isinstance(enough, int) or enough < 1
    ):
        raise ArgumentError("must be an integer >= 1 or None", argument="enough", value=enough)
    for name, v, lo in (("budget", budget, 1), ("games", games, 2), ("fresh", fresh, 2),
                        ("confirm", confirm, 2), ("recheck", recheck, 1), ("batch", batch, 1),
                        ("refine", refine, 0)):  # fmt: skip
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise ArgumentError(f"must be an integer >= {lo}", argument=name, value=v)
    for name, v, hi in (("budget", budget, MAX_TRIALS), ("games", games, MAX_GAMES),
                        ("fresh", fresh, MAX_GAMES), ("confirm", confirm, MAX_GAMES),
                        ("recheck", recheck, MAX_TRIALS),
                        ("batch", batch, MAX_TRIALS)):  # fmt: skip
        if v > hi:
            raise ArgumentError(f"must be at most {hi}", argument=name, value=v)
    if budget * games > MAX_SEARCH_GAMES:  # every trial plays the search seeds
        raise ArgumentError(f"{budget} trials x {games} games is over {MAX_SEARCH_GAMES} games",
                            argument="budget", value=budget)  # fmt: skip
    if sampler not in ("tpe", "nsga2"):
        raise ArgumentError("must be 'tpe' or 'nsga2'", argument="sampler", value=sampler)
    if refine >= budget:
        raise ArgumentError(f"must leave trials of budget={budget} to the search",
                            argument="refine", value=refine)  # fmt: skip
    all_seeds = np.array(list(seeds), dtype=np.int64)
    floor = min(fresh, confirm)  # the confirmation's fewest games
    wanted = games + fresh + floor
    ordered = np.sort(all_seeds)  # (a sort finds a repeat in 100 000 seeds faster than unique)
    if all_seeds.size < wanted or bool((ordered[1:] == ordered[:-1]).any()):
        raise ArgumentError(f"needs {wanted} distinct seeds (search, fresh, confirmation)",
                            argument="seeds", value=all_seeds.size)  # fmt: skip
    search, fresh_seeds = all_seeds[:games], all_seeds[games : games + fresh]
    confirm_seeds = all_seeds[games + fresh : games + fresh + confirm]
    searching = budget - refine
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    seed = int(lrng.stream(rng, "tune_many").integers(2**31))
    # multivariate TPE sees how knobs act together (life against damage); a wider random start
    # keeps it from settling in the first basin that meets two targets of three
    start = max(10, 5 * len(ks))
    with warnings.catch_warnings():  # multivariate TPE is marked experimental
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        smp = (optuna.samplers.TPESampler(seed=seed, constant_liar=True, multivariate=True,
                                          n_startup_trials=start)
               if sampler == "tpe" else optuna.samplers.NSGAIISampler(seed=seed))  # fmt: skip
    directions: list[Any] = ["minimize"] * (1 if sampler == "tpe" else len(ts))
    manifest = json.loads(json.dumps({
        "knobs": {k.name: [k.low, k.high] for k in ks}, "targets": [t.to_text() for t in ts],
        "search_seeds": search.tolist(), "sampler": sampler,
        "base": None if base is None or response is not None else base.to_dict(),
        # the sampler's seed: a resumed study with another rng= would go on from trials a
        # fresh run never draws (None: a generator or fresh entropy, never the same twice)
        "rng": None if rng is None or isinstance(rng, np.random.Generator) else seed,
    }))  # fmt: skip
    held = contextlib.ExitStack()
    try:
        study = _open_study(out, manifest, smp, directions, held)
        player = GamePlayer(base, executor=executor, response=response, progress=False)
    except BaseException:
        held.close()
        raise
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=budget, desc="tune_many", unit="trial")
    col = {o: GAME_OUTCOMES.index(o) for o in {t.outcome for t in ts}}
    try:
        done = len([t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE])
        if bar is not None:
            bar.update(done)
        feasible = sum(1 for t in study.trials if t.user_attrs.get("feasible"))
        while done < searching and (enough is None or feasible < enough):
            asked = [study.ask() for _ in range(min(batch, searching - done))]
            points = [{k.name: (tr.suggest_int(k.name, int(k.low), int(k.high)) if k.integer
                                else tr.suggest_float(k.name, k.low, k.high)) for k in ks}
                      for tr in asked]  # fmt: skip
            for tr, got in zip(asked, player.play(points, [search] * len(points))):
                est = {o: float(np.mean(got[:, c])) for o, c in col.items()}
                total, misses = _score(ts, est)
                for o, value in est.items():
                    tr.set_user_attr(f"est:{o}", value)
                tr.set_user_attr("feasible", not any(misses))
                feasible += not any(misses)
                study.tell(tr, total if sampler == "tpe" else misses)
            done += len(asked)
            if bar is not None:
                bar.update(len(asked))
            elif callable(progress):
                progress(done, budget)
        trials = _trial_table(study, ks, ts, optuna)
        checked = _recheck(trials, ks, ts, player, fresh_seeds, recheck, pd)
        chosen = _pick(ks, checked)
        needed = math.inf if chosen is None else confirm_size(ts, chosen, fresh)
        refined = None
        if refine and chosen is not None and (needed > confirm_seeds.size
                                              or chosen["score"] > _DEEP):  # fmt: skip
            # outside a band, or too close to an edge to be confirmed surely (a choice is too
            # good on its own games): move it deeper on the same fresh seeds
            from labkit.encounter.sim.tune_refine import refine as compass

            count = [int(trials["trial"].max()) + 1]

            def score(pts: Sequence[dict]) -> list[tuple[float, dict]]:
                numbers = list(range(count[0], count[0] + len(pts)))
                count[0] += len(pts)
                recs = _judge(ts, list(pts), player.play(pts, [fresh_seeds] * len(pts)),
                              numbers, "refine")  # fmt: skip
                return [(float(r["score"]), r) for r in recs]

            centre = {k.name: chosen[k.name] for k in ks}
            refined = pd.DataFrame(compass(ks, centre, score, refine, deep=_DEEP))
            chosen = _pick(ks, refined)
            needed = math.inf if chosen is None else confirm_size(ts, chosen, fresh)
        best, n = None, 0
        if chosen is not None:
            # sized from the fresh games only, before any confirmation game is seen: one look.
            # A fresh estimate outside a band (inf) gets the fewest games, to state its interval:
            # more would rarely turn it into a met and would cost the most
            left = confirm_seeds.size
            n = (floor if needed == math.inf else left if needed > left
                 else max(floor, math.ceil(needed)))  # fmt: skip
            point = {k.name: chosen[k.name] for k in ks}
            played = player.play([point], [confirm_seeds[:n]])
            row = _judge(ts, [point], played, [int(chosen["trial"])], "confirm")
            checked = pd.concat([checked, pd.DataFrame(row)], ignore_index=True)
            best = {"trial": int(chosen["trial"]), **point}
    finally:
        if bar is not None:
            bar.close()
        player.close()
        held.close()
    met = bool(best is not None and checked["met"].iloc[-1])
    return TunedMany(ks, ts, trials, checked, best, met, player.games, games, fresh, sampler,
                     refined, n, needed)  # fmt: skip


def _trial_table(study: Any, ks: list[Knob], ts: list[Target], optuna: Any) -> Any:
    import pandas as pd

    rows = []
    for tr in study.trials:
        if tr.state != optuna.trial.TrialState.COMPLETE:
            continue
        rec: dict[str, Any] = {"trial": tr.number}
        rec.update({k.name: tr.params[k.name] for k in ks})
        for t in ts:
            v = tr.user_attrs[f"est:{t.outcome}"]
            rec[f"est:{t.name}"] = v
            rec[f"miss:{t.name}"] = t.miss(v)
        rec["score"] = _score(ts, {t.outcome: rec[f"est:{t.name}"] for t in ts})[0]
        rows.append(rec)
    frame = pd.DataFrame(rows)
    # (dominance does not depend on the targets' scales: the misses are compared as they are)
    misses = frame[[f"miss:{t.name}" for t in ts]].to_numpy()
    frame["feasible"] = (misses == 0).all(axis=1)
    frame["front"] = pareto_front(misses)
    for k in ks:
        if k.integer:
            frame[k.name] = frame[k.name].astype(int)
    return frame


def _judge(ts: list[Target], points: list[dict], got: list[np.ndarray], trials: list[int],
           stage: str) -> list[dict]:  # fmt: skip
    """One record per re-played point: estimate, 95 % interval, miss and verdict per target
    (``met:`` the interval inside the band; ``met`` every target's)."""
    rows = []
    for trial, point, g in zip(trials, points, got):
        rec: dict[str, Any] = {"trial": trial, "stage": stage, **point}
        met = True
        for t in ts:
            est, lo, hi = estimate(t.outcome, g[:, GAME_OUTCOMES.index(t.outcome)])
            ok = t.verdict(lo, hi) == "met"
            rec.update({f"est:{t.name}": est, f"lo:{t.name}": lo, f"hi:{t.name}": hi,
                        f"miss:{t.name}": t.miss(est), f"met:{t.name}": ok})  # fmt: skip
            met = met and ok
        rec["met"] = met
        rec["score"] = _score(ts, {t.outcome: rec[f"est:{t.name}"] for t in ts})[0]
        rows.append(rec)
    return rows


def _pick(ks: list[Knob], rows: Any) -> dict | None:
    """The candidate to confirm: the smallest score — deepest inside every band when some
    estimates lie in every band (their scores are <= 0, the others' > 0), else the closest —
    the lower trial on a tie; its record with whole knobs as ints."""
    if rows is None or rows.empty:
        return None
    pick = rows.sort_values(["score", "trial"]).iloc[0].to_dict()
    pick["trial"] = int(pick["trial"])
    pick.update({k.name: (int(pick[k.name]) if k.integer else float(pick[k.name])) for k in ks})
    return pick


def confirm_size(ts: Sequence[Target], rec: Mapping[str, Any], n: int) -> float:
    """Games a confirmation needs so that, were the estimates in ``rec`` (from ``n`` games)
    the truth, every 95 % interval would clear its band's nearer edge about nine times in ten:
    ``((1.96 + 1.28) s / d)²`` for the largest per-game spread ``s`` over slack ``d``; inf
    when an estimate lies outside its band (or on its edge, unless it has no spread: a length
    without luck needs no games beyond the fewest).

    A rate's spread is ``sqrt(p (1 - p))`` with ``p`` pulled towards 1/2 by two games of each
    kind (so no games of a kind is no proof of none); a mean's is read back from its interval.

    Examples
    --------
    >>> t = Target("npc_win", 0.48, 0.52)
    >>> round(confirm_size([t], {"est:npc_win": 0.5}, 2000))  # (3.24 × 0.5 / 0.02)²
    6567
    >>> confirm_size([t], {"est:npc_win": 0.53}, 2000)
    inf
    """
    need = 0.0
    for t in ts:
        est = float(rec[f"est:{t.name}"])
        if not t.holds(est):
            return math.inf
        if t.outcome in RATES:
            p = (est * n + 2) / (n + 4)
            spread = math.sqrt(p * (1 - p))
        else:
            spread = (float(rec[f"hi:{t.name}"]) - float(rec[f"lo:{t.name}"])) / (2 * _Z)
            spread *= math.sqrt(n)
        if spread == 0:  # a length without luck: any number of games gives the same value
            continue
        slack = min(est - t.low, t.high - est)
        if slack == 0:
            return math.inf
        need = max(need, ((_Z + _POWER_Z) * spread / slack) ** 2)
    return need


def _recheck(trials: Any, ks: list[Knob], ts: list[Target], player: Any, fresh_seeds: Any,
             recheck: int, pd: Any) -> Any:  # fmt: skip
    """Re-play the candidates on the fresh seeds (where the choice is made): their records."""
    pool = trials[trials["feasible"]] if trials["feasible"].any() else trials[trials["front"]]
    # the same knob values found twice are one candidate, and so are trials whose search games
    # all came out alike (a knob that barely acts, such as a step limit no game reaches): the
    # re-check spends its games on candidates that differ
    est_cols = [f"est:{t.name}" for t in ts]
    pool = pool.sort_values(["score", "trial"]).drop_duplicates([k.name for k in ks])
    pool = pool.loc[pool[est_cols].round(6).drop_duplicates().index]
    pool = pool.head(recheck)
    points = [{k.name: (int(r[k.name]) if k.integer else float(r[k.name])) for k in ks}
              for _, r in pool.iterrows()]  # fmt: skip
    got = player.play(points, [fresh_seeds] * len(points))
    rows = _judge(ts, points, got, [int(r["trial"]) for _, r in pool.iterrows()], "recheck")
    return pd.DataFrame(rows)
