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
2. **Re-check.** Estimates chosen as the best of many noisy ones are too good (the winner's
   curse), so the candidates — up to ``recheck`` trials meeting every target on the search
   seeds, or the Pareto front of the misses when none does — are re-played on ``fresh`` seeds
   that the search never saw. Only a target whose fresh estimate lies in its band is reported
   as met, beside its 95 % interval (``sure`` when the whole interval lies inside).

With ``out=DIR`` the Optuna study is a journal file ``DIR/study.journal`` beside a manifest
(the call's knobs, targets, seeds and base); the same call again continues the study up to
``budget`` trials, keeping every finished one (a different call on the directory is a
:class:`~labkit.encounter.SweepError`).

Examples
--------
A made-up game whose NPC win rate is ``a / 10`` and whose length is ``5 b`` steps:

>>> import numpy as np
>>> u = np.random.default_rng(1).random(3000)
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


@dataclass
class TunedMany:
    """What :func:`tune_many` found.

    ``met`` is True when a candidate still meets every target on fresh seeds; ``best`` is then
    its knob values (whole knobs as ints), else the re-checked candidate with the smallest
    summed miss. ``trials`` has one row per finished trial (``trial``, each knob, ``est:<outcome>``
    and ``miss:<outcome>`` on the search seeds, ``feasible``, ``front``); ``checked`` one row per
    re-played candidate (``stage`` ``"recheck"`` on the fresh seeds, ``"confirm"`` on the
    confirmation seeds after a refinement; knobs, ``est:``/``lo:``/``hi:``/``miss:`` per target,
    ``met:`` per target, ``met``, ``sure``); ``refined`` the refinement's trials on the fresh
    seeds (None without one); after a refinement only the confirmation decides ``met``.
    ``games`` counts the games played in this call (a resumed study's earlier search games
    are not replayed; the re-check and refinement are played again, alike).

    Examples
    --------
    >>> t = tune_many(None, {"b": (0, 30)}, ["steps=40:60"], budget=12, games=10, fresh=10,
    ...               response=lambda p, s: {"steps": 5.0 * p["b"] + 0 * s}, progress=False)
    >>> t.met, 8 <= t.best["b"] <= 12, t.patch() == {"b": t.best["b"]}
    (True, True, True)
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

    def summary(self) -> str:
        """Sentences: the targets, what was found and whether it held on fresh seeds."""
        goals = "; ".join(t.sentence() for t in self.targets)
        head = f"Targets: {goals}. {len(self.trials)} trials on {self.search_games} paired seeds"
        if self.best is None:
            return head + "; no candidate to re-check."
        where = f"{self.fresh_games} fresh games"
        if self.refined is not None:
            head += (f", then {len(self.refined)} refinement trials around the closest "
                     f"re-checked candidate on its {self.fresh_games} fresh seeds")  # fmt: skip
            where = f"{self.fresh_games} confirmation games, seeds no choice has seen"
        knobs = ", ".join(f"{k.label} = {k.text(self.best[k.name])}" for k in self.knobs)
        row = self.checked[self.checked["trial"] == self.best["trial"]].iloc[0]
        parts = []
        for t in self.targets:
            est, lo, hi = row[f"est:{t.name}"], row[f"lo:{t.name}"], row[f"hi:{t.name}"]
            fmt = (lambda v: f"{100 * v:.1f} %") if t.outcome in RATES else (lambda v: f"{v:.1f}")
            said, unit = OUTCOME_WORDS[t.outcome]  # designer words (every outcome has them)
            unit = f" {unit}" if unit else ""
            parts.append(f"{said} {fmt(est)} [{fmt(lo)}, {fmt(hi)}]{unit} "
                         f"{'met' if row[f'met:{t.name}'] else 'NOT met'}")  # fmt: skip
        verdict = ("meets every target on fresh seeds" if self.met else
                   "is the closest found; not every target holds on fresh seeds")  # fmt: skip
        return (f"{head}. {knobs} {verdict} ({where}: "
                f"{'; '.join(parts)}; {self.games} games in all).")  # fmt: skip

    def plot(self, ax: Any = None, **style: Any) -> Any:
        """The trials by their misses, the Pareto front and the re-checked candidates
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
    """Knob values that put every target in its band, re-checked on fresh seeds.

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
        (and the refinement's), the ``fresh`` after those the confirmation's.
    games, fresh : int
        Games per trial; games per re-checked candidate.
    recheck : int
        Candidates re-played at most.
    refine : int
        Trials of ``budget`` kept for a local refinement when no re-checked candidate holds
        (:mod:`~labkit.encounter.sim.tune_refine`: a compass search on the re-check's fresh
        seeds from the closest candidate, its best points confirmed on the ``fresh`` seeds
        after those); 0: none.
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
    >>> t.met, sorted(t.checked.columns)[:4]
    (True, ['b', 'est:npc_win', 'est:steps', 'hi:npc_win'])
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
                        ("recheck", recheck, 1), ("batch", batch, 1),
                        ("refine", refine, 0)):  # fmt: skip
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise ArgumentError(f"must be an integer >= {lo}", argument=name, value=v)
    if sampler not in ("tpe", "nsga2"):
        raise ArgumentError("must be 'tpe' or 'nsga2'", argument="sampler", value=sampler)
    if refine >= budget:
        raise ArgumentError(f"must leave trials of budget={budget} to the search",
                            argument="refine", value=refine)  # fmt: skip
    all_seeds = np.array(list(seeds), dtype=np.int64)
    wanted = games + fresh * (2 if refine else 1)
    if all_seeds.size < wanted or np.unique(all_seeds).size != all_seeds.size:
        raise ArgumentError(f"needs {wanted} distinct seeds (search, fresh"
                            f"{', confirmation' if refine else ''})", argument="seeds",
                            value=all_seeds.size)  # fmt: skip
    search, fresh_seeds = all_seeds[:games], all_seeds[games : games + fresh]
    confirm_seeds = all_seeds[games + fresh : games + 2 * fresh]
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
        checked, best, met = _recheck(trials, ks, ts, player, fresh_seeds, recheck, pd)
        refined = None
        if refine and not met and best is not None:
            from labkit.encounter.sim.tune_refine import refine_and_confirm

            refined, confirmed = refine_and_confirm(
                ks, best, refine, int(trials["trial"].max()) + 1,
                lambda pts, seeds, trial, stage: _judge(ts, pts, player.play(pts, [seeds] * len(
                    pts)), trial, stage), fresh_seeds, confirm_seeds, recheck)  # fmt: skip
            checked = pd.concat([checked, pd.DataFrame(confirmed)], ignore_index=True)
            best, met = _pick(ks, checked[checked["stage"] == "confirm"])
    finally:
        if bar is not None:
            bar.close()
        player.close()
        held.close()
    return TunedMany(ks, ts, trials, checked, best, met, player.games, games, fresh, sampler,
                     refined)  # fmt: skip


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
    """One record per re-played point: estimate, 95 % interval, miss and verdict per target."""
    rows = []
    for trial, point, g in zip(trials, points, got):
        rec: dict[str, Any] = {"trial": trial, "stage": stage, **point}
        met = sure = True
        for t in ts:
            est, lo, hi = estimate(t.outcome, g[:, GAME_OUTCOMES.index(t.outcome)])
            ok = t.holds(est)
            rec.update({f"est:{t.name}": est, f"lo:{t.name}": lo, f"hi:{t.name}": hi,
                        f"miss:{t.name}": t.miss(est), f"met:{t.name}": ok})  # fmt: skip
            met, sure = met and ok, sure and t.holds(lo) and t.holds(hi)
        rec["met"], rec["sure"] = met, sure
        rec["score"] = _score(ts, {t.outcome: rec[f"est:{t.name}"] for t in ts})[0]
        rows.append(rec)
    return rows


def _pick(ks: list[Knob], checked: Any) -> tuple[dict | None, bool]:
    """The best re-played candidate that holds, else the closest; and whether one holds."""
    if checked.empty:
        return None, False
    held = checked[checked["met"]]
    pick = (held if len(held) else checked).sort_values(["score", "trial"]).iloc[0]
    best: dict[str, Any] = {"trial": int(pick["trial"])}
    best.update({k.name: (int(pick[k.name]) if k.integer else float(pick[k.name])) for k in ks})
    return best, bool(len(held))


def _recheck(trials, ks, ts, player, fresh_seeds, recheck, pd) -> tuple:
    """Re-play the candidates on fresh seeds; the best one that still holds, else the closest."""
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
    checked = pd.DataFrame(rows)
    return (checked, *_pick(ks, checked))
