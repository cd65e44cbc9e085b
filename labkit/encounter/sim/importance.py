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
  knob explains alone) and total-order (``total``, with every interaction) indices by the
  Saltelli (2010) / Jansen estimators that :func:`scipy.stats.sobol_indices` uses, on a
  scrambled Sobol' design of ``n`` base rows (``n * (knobs + 3)`` evaluations). The seed block's
  total-order index is the noise share.

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

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.sim.knobs import (
    OUTCOME_WORDS,
    OUTCOMES,
    GamePlayer,
    Knob,
    Response,
    knob_list,
)

__all__ = ["importance", "Importance", "SEED_BLOCK", "sobol_estimates"]

#: The name of the seed-block factor in the tables.
SEED_BLOCK = "seed block"
_COLUMNS = ["knob", "label", "unit", "low", "high", "index", "value", "lo", "hi", "matters",
            "rank"]  # fmt: skip


@dataclass
class Importance:
    """What :func:`importance` measured: a tidy ``table`` and the knobs that ``matters``.

    ``table`` has one row per (knob, index): ``knob``, ``label`` (words and unit), ``unit``,
    ``low``, ``high``, ``index`` (Morris ``mu_star``, ``mu``, ``sigma``; Sobol ``first``,
    ``total``), ``value``, ``lo``, ``hi`` (95 %), ``matters`` and ``rank`` (1 = the knob that
    moves the outcome most; the seed block has no rank). ``noise`` is the seed block's share of
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
        noise = (f"noise (the seed block, {self.games_per_evaluation} games an evaluation) "
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
    if outcome not in OUTCOMES:
        raise ArgumentError(f"unknown outcome, known: {', '.join(OUTCOMES)}", argument="outcome",
                            value=outcome)  # fmt: skip
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


def _interval(boot: np.ndarray, est: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Percentile 95 % intervals of bootstrap rows, widened to hold the estimate."""
    lo, hi = np.nanpercentile(boot, [2.5, 97.5], axis=0)
    return np.minimum(lo, est), np.maximum(hi, est)


def sobol_estimates(f_a: np.ndarray, f_b: np.ndarray, f_ab: np.ndarray) -> np.ndarray:
    """First- and total-order indices ``(2, factors, ...)`` from the evaluations of A, B and
    AB_i (Saltelli 2010 first order, Jansen total order: the estimators of
    :func:`scipy.stats.sobol_indices`, on outputs centred the same way); ``f_a``, ``f_b``
    ``(..., n)``, ``f_ab`` ``(factors, ..., n)``.

    Examples
    --------
    >>> import numpy as np
    >>> a, b = np.array([0.0, 1, 2, 3]), np.array([1.0, 3, 0, 2])
    >>> sobol_estimates(a, b, np.stack([b, a])).round(2).tolist()   # f = the first factor
    [[1.0, 0.0], [1.0, 0.0]]
    """
    # centred on the mean of A and B first, as scipy does (Sobol' & Levitan 1999: less bias)
    mean = np.mean(np.concatenate([f_a, f_b], axis=-1), axis=-1, keepdims=True)
    f_a, f_b, f_ab = f_a - mean, f_b - mean, f_ab - mean
    var = np.var(np.concatenate([f_a, f_b], axis=-1), axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.mean(f_b * (f_ab - f_a), axis=-1) / var
        total = 0.5 * np.mean((f_a - f_ab) ** 2, axis=-1) / var
    # an outcome that never changes: no knob explains any of it
    first, total = np.where(var > 0, first, 0.0), np.where(var > 0, total, 0.0)
    return np.stack([first, total])


def _sobol(knobs: list[Knob], blocks: np.ndarray, n: int, evaluate: Any, gen: Any,
           boots: int) -> tuple[list, int]:  # fmt: skip
    from scipy.stats import qmc

    d = len(knobs) + 1
    if n < 8 or n & (n - 1):
        raise ArgumentError("must be a power of two >= 8", argument="n", value=n)
    sample = qmc.Sobol(2 * d, scramble=True, rng=gen).random_base2(int(math.log2(n)))
    a, b = sample[:, :d], sample[:, d:]
    ab = np.repeat(a[None], d, axis=0)
    for i in range(d):
        ab[i, :, i] = b[:, i]
    rows = np.concatenate([a, b, ab.reshape(-1, d)])
    f = evaluate(rows)
    f_a, f_b, f_ab = f[:n], f[n : 2 * n], f[2 * n :].reshape(d, n)
    est = sobol_estimates(f_a, f_b, f_ab)
    idx = gen.integers(0, n, (boots, n))
    boot = sobol_estimates(f_a[idx], f_b[idx], f_ab[:, idx])  # (2, d, boots)
    out = []
    for j, name in enumerate(("first", "total")):
        lo, hi = _interval(boot[j].T, est[j])
        out.append((name, est[j], lo, hi))
    return out, rows.shape[0]


def _morris(knobs: list[Knob], r: int, p: int, gen: Any, boots: int, play: Any) -> tuple:
    d = len(knobs)
    if isinstance(p, bool) or not isinstance(p, int) or p < 2 or p % 2:
        raise ArgumentError("must be an even integer >= 2", argument="levels", value=p)
    if isinstance(r, bool) or not isinstance(r, int) or r < 4:
        raise ArgumentError("must be an integer >= 4", argument="trajectories", value=r)
    delta = p / (2 * (p - 1))
    paths, moved = [], []
    for t in range(r):
        start = gen.integers(0, p // 2, d) / (p - 1)
        up = gen.random(d) < 0.5
        x = np.where(up, start, start + delta)
        block = 2 * t
        order = gen.permutation(d + 1)  # d = the seed block's turn
        path = [(x.copy(), block)]
        for i in order:
            if i == d:
                block += 1
            else:
                x[i] = x[i] + delta if up[i] else x[i] - delta
            path.append((x.copy(), block))
        paths.append(path)
        moved.append(order)
    f = play([u for path in paths for u in path]).reshape(r, d + 2)
    ee = np.zeros((r, d + 1))
    for t, (path, order) in enumerate(zip(paths, moved)):
        for step, i in enumerate(order):
            diff = f[t, step + 1] - f[t, step]
            if i == d:
                ee[t, i] = diff  # a new block: the whole change is luck
                continue
            k = knobs[i]
            v0, v1 = k.value(path[step][0][i]), k.value(path[step + 1][0][i])
            ee[t, i] = diff / ((v1 - v0) / (k.high - k.low)) if v1 != v0 else math.nan

    def stats(e: np.ndarray) -> np.ndarray:  # (..., r, d+1) -> (3, ..., d+1)
        return np.stack([np.nanmean(np.abs(e), axis=-2), np.nanmean(e, axis=-2),
                         np.nanstd(e, axis=-2, ddof=1)])  # fmt: skip

    est = stats(ee)
    boot = stats(ee[gen.integers(0, r, (boots, r))])  # (3, boots, d+1)
    out = []
    for j, name in enumerate(("mu_star", "mu", "sigma")):
        lo, hi = _interval(boot[j], est[j])
        out.append((name, est[j], lo, hi))
    return out, r * (d + 2)


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
        One of :data:`~labkit.encounter.sim.knobs.OUTCOMES` (``"npc_win"``, ``"steps"``, ...).
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
    ks = knob_list(base if response is None else None, knobs)
    if threshold is None:
        threshold = 0.01 if method == "sobol" else 0.05
    col = OUTCOMES.index(outcome)
    player = GamePlayer(base, executor=executor, response=response, progress=progress)
    gen = lrng.stream(rng, "importance")

    def evaluate(points: list[dict], which: list[int]) -> np.ndarray:
        got = player.play(points, [blocks[b] for b in which])
        return np.array([g[:, col].mean() for g in got])

    try:
        if method == "sobol":

            def by_rows(rows: np.ndarray) -> np.ndarray:
                which = np.minimum(len(blocks) - 1, (rows[:, -1] * len(blocks)).astype(int))
                pts = [{k.name: k.value(u) for k, u in zip(ks, row)} for row in rows]
                return evaluate(pts, which.tolist())

            found, evaluations = _sobol(ks, blocks, n, by_rows, gen, bootstrap)
        else:
            if 2 * trajectories > len(blocks):
                raise ArgumentError(f"needs {2 * trajectories} blocks of {games} seeds",
                                    argument="seeds", value=len(blocks))  # fmt: skip

            def by_path(path: list) -> np.ndarray:
                pts = [{k.name: k.value(u) for k, u in zip(ks, x)} for x, _ in path]
                return evaluate(pts, [b for _, b in path])

            found, evaluations = _morris(ks, trajectories, levels, gen, bootstrap, by_path)
    finally:
        player.close()
    names = [k.name for k in ks] + [SEED_BLOCK]
    main = "total" if method == "sobol" else "mu_star"
    est = {name: (v, lo, hi) for name, v, lo, hi in found}
    v, lo, _ = est[main]
    scale = 1.0 if method == "sobol" else float(np.nanmax(v))
    matters_mask = lo[:-1] > threshold * scale
    order = np.argsort(-np.nan_to_num(v[:-1], nan=-1.0), kind="stable")
    rank = np.empty(len(ks), dtype=int)
    rank[order] = np.arange(1, len(ks) + 1)
    records = []
    for name, (vals, los, his) in est.items():
        for i, kname in enumerate(names):
            k = ks[i] if i < len(ks) else None
            records.append({
                "knob": kname,
                "label": k.label if k else f"{SEED_BLOCK} ({games} games)",
                "unit": k.unit if k else "games", "low": k.low if k else math.nan,
                "high": k.high if k else math.nan, "index": name, "value": float(vals[i]),
                "lo": float(los[i]), "hi": float(his[i]),
                "matters": bool(matters_mask[i]) if k else False,
                "rank": int(rank[i]) if k else pd.NA,
            })  # fmt: skip
    table = pd.DataFrame(records, columns=_COLUMNS)
    table["rank"] = table["rank"].astype("Int64")
    matters = [ks[i].name for i in order if matters_mask[i]]
    noise = (float(est[main][0][-1]), float(est[main][1][-1]), float(est[main][2][-1]))
    return Importance(method, outcome, games, table, matters, noise, evaluations, player.games,
                      threshold)  # fmt: skip
