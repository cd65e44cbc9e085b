"""Which knob matters (issue 29): Morris screening and Sobol indices, noise measured as a factor.

:func:`importance` answers "which of these knobs moves the outcome at all, and how much" for
knobs with ranges (:mod:`~labkit.encounter.sim.knobs`). One *evaluation* is the mean outcome of
a block of ``games`` games at one knob setting; which block of seeds is played is itself a
factor, the **seed block**, so the share of the outcome's variance that is only the luck of the
draw is measured and reported (the noise share), not hidden in the knobs' indices.

* ``method="morris"`` (screening, cheap): ``trajectories`` one-at-a-time paths through a grid of
  ``levels`` levels per knob; per knob the elementary effects' mean absolute value ``mu_star``
  (the outcome's change over the knob's whole range), their mean ``mu`` and spread ``sigma``
  (large when the knob acts through others or non-linearly). Moving the seed block is one more
  step of each path: its ``mu_star`` is the difference two blocks make by luck alone. Every
  other step replays the same seeds (common random numbers), so a knob that changes nothing has
  effects of exactly 0.
* ``method="sobol"`` (the knobs that matter): first-order (``first``, the share of variance the
  knob explains alone) and total-order (``total``, with every interaction among the knobs)
  indices on a scrambled Sobol' design of ``n`` base rows (``n * (knobs + 3)`` evaluations):
  Saltelli (2010) first order as :func:`scipy.stats.sobol_indices`, and a *knob-only* Jansen
  total (:func:`~labkit.encounter.sim.importance_estimators.knob_totals`): a knob's matrix
  plays new seeds, and the seed block's own part is taken out, so a knob that only
  reshuffles the luck (a loot change: the same seeds play out differently, the expected
  outcome stays) has a total of 0 instead of the noise share. The seed block's total-order
  index is the noise share. Every index is a share of the variance of one evaluation.

Intervals are 95 % percentile bootstraps (over Morris paths, over Sobol base rows; streams of
:mod:`labkit.rng`), widened where needed so that each estimate lies inside its own interval.

A knob *matters* when its interval's low end clears ``threshold``: Sobol, the total-order
index's low end is above ``threshold`` (default 0.01 of the variance); Morris, ``mu_star``'s
low end is above ``threshold`` (default 0.05) times the largest ``mu_star`` (seed block
included).

Examples
--------
A made-up outcome: knob ``a`` moves it, ``b`` does not, and each game adds its own noise:

>>> import numpy as np
>>> noise = np.random.default_rng(0).normal(0, 0.1, 4096)
>>> def response(point, seeds):
...     return {"steps": 2.0 * point["a"] + noise[seeds]}
>>> imp = importance(None, {"a": (0.0, 1.0), "b": (0, 4)}, seeds=range(4096), games=4,
...                  method="sobol", n=256, outcome="steps", response=response, progress=False)
>>> imp.matters, bool(imp.noise[0] < 0.05)
(['a'], True)
>>> sorted(set(imp.table["index"]))
['first', 'total']
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.sim.importance_estimators import (
    _morris,
    _sobol,
    _tiers,
    check_design,
    knob_totals,
    sobol_estimates,
)
from labkit.encounter.sim.knobs import (
    GAME_OUTCOMES,
    OUTCOME_WORDS,
    GamePlayer,
    Response,
    knob_list,
)

__all__ = ["importance", "Importance", "SEED_BLOCK", "sobol_estimates", "knob_totals"]


def _games(n: int) -> str:
    return "1 game" if n == 1 else f"{n} games"


#: The name of the seed-block factor in the tables.
SEED_BLOCK = "seed block"
#: Most evaluations of a design (``n * (knobs + 3)`` or ``trajectories * (knobs + 2)``), games
#: per evaluation, games in all, and bootstrap resamples times evaluations (the bootstrap's
#: arrays): each bounds the time or memory of one call, checked before any game.
MAX_EVALUATIONS = 1_000_000
MAX_GAMES_PER_EVALUATION = 100_000
MAX_GAMES = 1_000_000_000
MAX_BOOTSTRAP = 10_000
MAX_BOOTSTRAP_CELLS = 50_000_000
_COLUMNS = ["knob", "label", "unit", "low", "high", "index", "value", "lo", "hi", "matters",
            "rank", "tier"]  # fmt: skip


@dataclass
class Importance:
    """What :func:`importance` measured: a tidy ``table`` and the knobs that ``matters``.

    ``table`` has one row per (knob, index): ``knob``, ``label`` (words and unit), ``unit``,
    ``low``, ``high``, ``index`` (Morris ``mu_star``, ``mu``, ``sigma``; Sobol ``first``,
    ``total``), ``value``, ``lo``, ``hi`` (95 %), ``matters``, ``rank`` (1 = the knob that
    moves the outcome most; the seed block has none) and ``tier`` (knobs in one tier are tied:
    :meth:`tiers`). ``noise`` is the seed block's share of
    variance (Sobol total-order) or its ``mu_star`` (Morris), with its interval.

    Examples
    --------
    >>> imp = importance(None, {"x": (0, 3), "y": (0, 3)}, seeds=range(100), games=1,
    ...                  outcome="steps", response=lambda p, s: {"steps": 2 * p["x"] + p["y"]},
    ...                  progress=False)
    >>> imp.ranking(), imp.main, imp.noise
    (['x', 'y'], 'mu_star', (0.0, 0.0, 0.0))
    """

    method: str
    outcome: str
    games_per_evaluation: int
    table: Any
    matters: list[str]
    noise: tuple[float, float, float]
    evaluations: int
    games: int
    threshold: float

    @property
    def main(self) -> str:
        """The index the ranking uses: ``"total"`` (Sobol) or ``"mu_star"`` (Morris)."""
        return "total" if self.method == "sobol" else "mu_star"

    def ranking(self) -> list[str]:
        """Knob names, the one that moves the outcome most first (seed block left out)."""
        t = self.table[(self.table["index"] == self.main) & (self.table["knob"] != SEED_BLOCK)]
        return list(t.sort_values("rank")["knob"])

    def tiers(self) -> list[list[str]]:
        """The ranking with its ties: knobs in one list are tied (next to each other in the
        ranking, the 95 % interval of their paired bootstrap difference holds 0).

        Examples
        --------
        >>> imp = importance(None, {"x": (0, 3), "y": (0, 3), "z": (0, 3)}, seeds=range(100),
        ...                  games=1, outcome="steps", progress=False,
        ...                  response=lambda p, s: {"steps": 2 * p["x"] + p["y"] + p["z"]})
        >>> imp.tiers()
        [['x'], ['y', 'z']]
        """
        t = self.table[(self.table["index"] == self.main) & (self.table["knob"] != SEED_BLOCK)]
        out: list[list[str]] = []
        for _, r in t.sort_values("rank").iterrows():
            if not out or int(r["tier"]) != len(out):
                out.append([])
            out[-1].append(str(r["knob"]))
        return out

    def summary(self) -> str:
        """One sentence naming the knobs that matter, with their main index and the noise."""
        t = self.table[self.table["index"] == self.main].set_index("knob")
        words = OUTCOME_WORDS[self.outcome][0]
        what = "share of variance" if self.method == "sobol" else "change over the range"
        if self.matters:
            names = "; ".join(f"{t.at[k, 'label']} {t.at[k, 'value']:.3f} "
                              f"[{t.at[k, 'lo']:.3f}, {t.at[k, 'hi']:.3f}]"
                              for k in self.matters)  # fmt: skip
            head = (f"{len(self.matters)} of {len(t) - 1} knobs matter for how {words} "
                    f"({self.main}, {what}): {names}")  # fmt: skip
        else:
            head = f"no knob stands out for how {words}"
        rest = len(t) - 1 - len(self.matters)
        if rest and self.matters:
            head += f"; the other {rest} do not"
        v, lo, hi = self.noise
        noise = (f"noise (the seed block, {_games(self.games_per_evaluation)} an evaluation) "
                 f"{v:.3f} [{lo:.3f}, {hi:.3f}]")  # fmt: skip
        return f"{head}; {noise} ({self.games} games)."

    def plot(self, ax: Any = None, **style: Any) -> Any:
        """Bars with 95 % intervals (:func:`labkit.encounter.draw_search.draw_importance`)."""
        from labkit.encounter.draw_search import draw_importance

        return draw_importance(self, ax=ax, **style)

    def __repr__(self) -> str:
        return f"Importance({self.summary()})"

    def _repr_html_(self) -> str:
        import html

        t = self.table[self.table["index"] == self.main].sort_values("rank", na_position="last")
        rows = "".join(
            f"<tr><td>{html.escape(str(r.label))}</td><td>{r.value:.3f}</td>"
            f"<td>{r.lo:.3f}–{r.hi:.3f}</td><td>{'yes' if r.matters else ''}</td></tr>"
            for r in t.itertuples()
        )
        return (
            f"<b>Importance</b>: {html.escape(self.summary())}<table><tr><th>knob</th>"
            f"<th>{self.main}</th><th>95% interval</th><th>matters</th></tr>{rows}</table>"
        )


def _check(outcome: str, games: int, seeds: Iterable[int], method: str) -> np.ndarray:
    if method not in ("morris", "sobol"):
        raise ArgumentError("must be 'morris' or 'sobol'", argument="method", value=method)
    if outcome not in GAME_OUTCOMES:
        raise ArgumentError(f"unknown outcome, known: {', '.join(GAME_OUTCOMES)}",
                            argument="outcome", value=outcome)  # fmt: skip
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ArgumentError("must be an integer >= 1", argument="games", value=games)
    if isinstance(seeds, range) and seeds.step > 0 and seeds.start >= 0:  # distinct, >= 0
        arr = np.arange(seeds.start, seeds.stop, seeds.step, dtype=np.int64)
        distinct = True
    else:
        arr = np.array(list(seeds), dtype=np.int64)
        distinct = np.unique(arr).size == arr.size and not (arr < 0).any()
    if arr.size < 2 * games or not distinct:
        raise ArgumentError(f"needs at least two blocks of {games} distinct seeds >= 0",
                            argument="seeds", value=arr.size)  # fmt: skip
    return arr[: arr.size // games * games].reshape(-1, games)


def _check_sizes(method: str, d: int, n: int, r: int, games: int, bootstrap: int) -> None:
    """Each size and the products of sizes, bounded before any game (``n`` and ``r`` were
    checked by ``check_design``)."""
    from labkit._args import check_int

    check_int(games, "games", 1, MAX_GAMES_PER_EVALUATION)
    check_int(bootstrap, "bootstrap", 1, MAX_BOOTSTRAP)
    size, what = (n, "n") if method == "sobol" else (r, "trajectories")
    evaluations = size * (d + (3 if method == "sobol" else 2))
    if evaluations > MAX_EVALUATIONS:
        raise ArgumentError(
            f"{what} x (knobs + {3 if method == 'sobol' else 2}) = {evaluations} "
            f"evaluations, over {MAX_EVALUATIONS}",
            argument=what,
            value=size,
        )
    if evaluations * games > MAX_GAMES:
        raise ArgumentError(
            f"{evaluations} evaluations x {games} games is over {MAX_GAMES} games",
            argument="games",
            value=games,
        )
    if evaluations * bootstrap > MAX_BOOTSTRAP_CELLS:
        raise ArgumentError(
            f"{bootstrap} resamples x {evaluations} evaluations is over {MAX_BOOTSTRAP_CELLS}",
            argument="bootstrap",
            value=bootstrap,
        )


def importance(
    base: Any,
    knobs: Mapping[str, Any],
    *,
    seeds: Iterable[int] = range(1_000_000),
    method: str = "morris",
    outcome: str = "npc_win",
    games: int = 20,
    n: int = 512,
    trajectories: int = 20,
    levels: int = 4,
    threshold: float | None = None,
    bootstrap: int = 500,
    rng: Any = 0,
    executor: Any = None,
    progress: Any = True,
    response: Response | None = None,
    out: Any = None,
) -> Importance:
    """How much each knob moves ``outcome``: Morris screening or Sobol indices, with noise.

    Parameters
    ----------
    base : SimulationSettings
        What every game shares (ignored with ``response``).
    knobs : mapping
        ``{settings field or balance pointer: (low, high)}``; int ends make whole-number knobs.
    seeds : iterable of int
        Cut into consecutive blocks of ``games`` seeds; the seed block is drawn as a factor.
    method : {"morris", "sobol"}
        Screening (``trajectories * (knobs + 2)`` evaluations) or indices
        (``n * (knobs + 3)`` evaluations).
    outcome : str
        One of :data:`~labkit.encounter.sim.knobs.GAME_OUTCOMES` (``"npc_win"``, ``"steps"``, ...).
    games : int
        Games per evaluation (the seed block's size): more games, a smaller noise share.
    n, trajectories, levels : int
        Sobol base rows (a power of two); Morris paths and grid levels (even).
    threshold : float, optional
        When a knob matters (module docs); default 0.01 (Sobol) or 0.05 (Morris).
    bootstrap : int
        Resamples for the intervals.
    rng : int or Generator
        Seeds the design and the bootstrap (:mod:`labkit.rng`); the games' seeds are ``seeds``.
    executor, progress
        Where the games run and a progress bar over games (as in :func:`~labkit.encounter.sweep`).
    response : callable, optional
        ``response(point, seeds) -> {outcome: per-game values}`` instead of the games.
    out : path, optional
        Directory for the evaluations, saved in parts: the same call again resumes
        (:mod:`~labkit.encounter.sim.importance_parts`; needs an int ``rng``).

    Returns
    -------
    Importance

    Examples
    --------
    >>> import numpy as np
    >>> def response(point, seeds):       # steps = 10 x, plus a seed-dependent 0/1
    ...     return {"steps": 10 * point["x"] + (seeds % 2)}
    >>> imp = importance(None, {"x": (0, 3), "y": (0.0, 1.0)}, seeds=range(400), games=1,
    ...                  outcome="steps", response=response, progress=False)
    >>> mu = imp.table.set_index(["knob", "index"])["value"]
    >>> float(mu["x", "mu_star"]), float(mu["y", "mu_star"]), imp.matters
    (30.0, 0.0, ['x'])
    """
    import pandas as pd

    from labkit import rng as lrng

    blocks = _check(outcome, games, seeds, method)
    check_design(method, n, trajectories, levels)  # before a process pool starts
    ks = knob_list(base if response is None else None, knobs)
    _check_sizes(method, len(ks), n, trajectories, games, bootstrap)
    if threshold is None:
        threshold = 0.01 if method == "sobol" else 0.05
    col = GAME_OUTCOMES.index(outcome)
    player = GamePlayer(base, executor=executor, response=response, progress=progress)
    gen = lrng.stream(rng, "importance")

    def evaluate(points: list[dict], which: list[int]) -> np.ndarray:
        got = player.play(points, [blocks[b] for b in which])
        return np.array([g[:, col].mean() for g in got])

    held = contextlib.ExitStack()  # the folder's lock while the run plays
    try:
        if out is not None:
            from labkit.encounter.sim.importance_parts import resumable, seeds_digest
            from labkit.encounter.sim.sweep_folder import hold

            if isinstance(rng, bool) or not isinstance(rng, int):
                raise ArgumentError("must be an int to resume from out", argument="rng", value=rng)
            held.enter_context(hold(Path(out), "an importance run"))  # one process a folder
            evaluate = resumable(evaluate, out, {  # type: ignore[assignment]
                "knobs": {k.name: [k.low, k.high] for k in ks}, "method": method,
                "outcome": outcome, "games": games, "seeds": seeds_digest(blocks),
                "n": n if method == "sobol" else None, "rng": rng,
                "trajectories": trajectories if method == "morris" else None,
                "levels": levels if method == "morris" else None,
                "base": None if base is None or response is not None else base.to_dict(),
            })  # fmt: skip
        if method == "sobol":

            def by_rows(rows: np.ndarray) -> np.ndarray:
                which = np.minimum(len(blocks) - 1, (rows[:, -1] * len(blocks)).astype(int))
                pts = [{k.name: k.value(u) for k, u in zip(ks, row)} for row in rows]
                return evaluate(pts, which.tolist())

            found, evaluations, boot = _sobol(ks, blocks, n, by_rows, gen, bootstrap)
        else:
            if 2 * trajectories > len(blocks):
                raise ArgumentError(f"needs {2 * trajectories} blocks of {games} seeds",
                                    argument="seeds", value=len(blocks))  # fmt: skip

            def by_path(path: list) -> np.ndarray:
                pts = [{k.name: k.value(u) for k, u in zip(ks, x)} for x, _ in path]
                return evaluate(pts, [b for _, b in path])

            found, evaluations, boot = _morris(ks, trajectories, levels, gen, bootstrap, by_path)
    finally:
        player.close()
        held.close()
    names = [k.name for k in ks] + [SEED_BLOCK]
    main = "total" if method == "sobol" else "mu_star"
    est = {name: (v, lo, hi) for name, v, lo, hi in found}
    v, lo, _ = est[main]
    scale = 1.0 if method == "sobol" else float(np.nanmax(v))
    matters_mask = lo[:-1] > threshold * scale
    # a knob with no estimate (NaN) ranks after every number, however negative (a noisy Sobol
    # total can be): numpy sorts NaN last
    order = np.argsort(-v[:-1], kind="stable")
    rank = np.empty(len(ks), dtype=int)
    rank[order] = np.arange(1, len(ks) + 1)
    tier = _tiers(order, boot[:, :-1])
    records = []
    for name, (vals, los, his) in est.items():
        for i, kname in enumerate(names):
            k = ks[i] if i < len(ks) else None
            records.append({
                "knob": kname,
                "label": k.label if k else f"{SEED_BLOCK} ({_games(games)})",
                "unit": k.unit if k else "games", "low": k.low if k else math.nan,
                "high": k.high if k else math.nan, "index": name, "value": float(vals[i]),
                "lo": float(los[i]), "hi": float(his[i]),
                "matters": bool(matters_mask[i]) if k else False,
                "rank": int(rank[i]) if k else pd.NA,
                "tier": int(tier[i]) if k else pd.NA,
            })  # fmt: skip
    table = pd.DataFrame(records, columns=_COLUMNS)
    table["rank"] = table["rank"].astype("Int64")
    table["tier"] = table["tier"].astype("Int64")
    matters = [ks[i].name for i in order if matters_mask[i]]
    noise = (float(est[main][0][-1]), float(est[main][1][-1]), float(est[main][2][-1]))
    return Importance(method, outcome, games, table, matters, noise, evaluations, player.games,
                      threshold)  # fmt: skip
