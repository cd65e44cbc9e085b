"""The estimators behind :func:`~labkit.encounter.importance` (issue 29): Sobol first order
(Saltelli 2010), knob-only total order (Jansen, the seed block's own part taken out), Morris
elementary effects, their bootstrap intervals and the tiers of a ranking with ties.

Examples
--------
>>> import numpy as np
>>> boot = np.array([[1.0, 0.9, 0.1], [1.1, 1.0, 0.0], [0.9, 1.05, 0.2]])  # 3 resamples
>>> _tiers(np.array([0, 1, 2]), boot).tolist()   # 0 and 1 cannot be told apart, 2 can
[1, 1, 2]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.sim.knobs import Knob

__all__ = ["sobol_estimates", "knob_totals"]


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


def knob_totals(f_a: np.ndarray, f_b: np.ndarray, f_ab: np.ndarray) -> np.ndarray:
    """Knob-only total-order indices ``(factors, ...)``: Jansen's estimate for each knob's
    matrix (the knob from B, the seed block from a third, independent column), less the seed
    block's own (its matrix, the last of ``f_ab``: A's knobs, B's seeds), over the variance of
    A and B as in :func:`sobol_estimates`. The last entry is the seed block's Jansen total
    (the noise share). ``f_a``, ``f_b`` ``(..., n)``, ``f_ab`` ``(factors, ..., n)``.

    A knob change that only *reshuffles the luck* (the same seeds playing out differently)
    moves the games as much as a new seed block does; with its matrix's seeds drawn afresh that
    part is exactly the seed block's own total, and the difference is what the knob does to the
    expected outcome, interactions with the other knobs included.

    Examples
    --------
    >>> import numpy as np
    >>> f_a, f_b = np.array([0.0, 1, 2, 3]), np.array([1.0, 3, 0, 2])
    >>> knob_totals(f_a, f_b, np.stack([f_b, f_a])).round(2).tolist()  # f = the first factor
    [1.0, 0.0]
    """
    var = np.var(np.concatenate([f_a, f_b], axis=-1), axis=-1)
    jansen = 0.5 * np.mean((f_a - f_ab) ** 2, axis=-1)  # centring would cancel here
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.concatenate([jansen[:-1] - jansen[-1:], jansen[-1:]]) / var
    return np.where(var > 0, out, 0.0)


def _tiers(order: np.ndarray, boot: np.ndarray) -> np.ndarray:
    """Tier per factor (1 = top): knobs next to each other in ``order`` share a tier while the
    95 % bootstrap interval of their *paired* difference (``boot`` ``(boots, factors)``, the
    same resamples for both) holds 0 — a tie the data cannot break."""
    tier = np.zeros(boot.shape[1], dtype=int)
    current = 1
    for pos, i in enumerate(order):
        if pos:
            diff = boot[:, order[pos - 1]] - boot[:, i]
            if np.nanpercentile(diff, 2.5) > 0:
                current += 1
        tier[i] = current
    return tier


def _sobol(knobs: list[Knob], blocks: np.ndarray, n: int, evaluate: Any, gen: Any,
           boots: int) -> tuple[list, int, np.ndarray]:  # fmt: skip
    from scipy.stats import qmc

    d = len(knobs) + 1  # n was checked by the caller (check_design), before any game
    # A, B and a third seed column C: a knob's matrix takes the knob from B and its seed block
    # from C (neither A's nor B's), so that its luck is new, as the seed block's matrix's is
    sample = qmc.Sobol(2 * d + 1, scramble=True, rng=gen).random_base2(int(math.log2(n)))
    a, b, c = sample[:, :d], sample[:, d : 2 * d], sample[:, 2 * d]
    ab = np.repeat(a[None], d, axis=0)
    for i in range(d):
        ab[i, :, i] = b[:, i]
        if i < d - 1:
            ab[i, :, d - 1] = c
    rows = np.concatenate([a, b, ab.reshape(-1, d)])
    f = evaluate(rows)
    f_a, f_b, f_ab = f[:n], f[n : 2 * n], f[2 * n :].reshape(d, n)

    def estimates(f_a: np.ndarray, f_b: np.ndarray, f_ab: np.ndarray) -> np.ndarray:
        return np.stack([sobol_estimates(f_a, f_b, f_ab)[0], knob_totals(f_a, f_b, f_ab)])

    est = estimates(f_a, f_b, f_ab)
    idx = gen.integers(0, n, (boots, n))
    boot = estimates(f_a[idx], f_b[idx], f_ab[:, idx])  # (2, d, boots)
    out = []
    for j, name in enumerate(("first", "total")):
        lo, hi = _interval(boot[j].T, est[j])
        out.append((name, est[j], lo, hi))
    return out, rows.shape[0], boot[1].T


def check_design(method: str, n: int, r: int, p: int) -> None:
    """The design's sizes, checked before any game is played: Sobol' base rows ``n``; Morris
    trajectories ``r`` and grid levels ``p``."""
    if method == "sobol":
        if isinstance(n, bool) or not isinstance(n, int) or n < 8 or n & (n - 1):
            raise ArgumentError("must be a power of two >= 8", argument="n", value=n)
        if n > 2**20:
            raise ArgumentError("must be at most 2^20 (1048576)", argument="n", value=n)
        return
    if isinstance(p, bool) or not isinstance(p, int) or p < 2 or p % 2:
        raise ArgumentError("must be an even integer >= 2", argument="levels", value=p)
    if isinstance(r, bool) or not isinstance(r, int) or r < 4:
        raise ArgumentError("must be an integer >= 4", argument="trajectories", value=r)
    if p > 1000 or r > 100_000:
        raise ArgumentError("levels must be at most 1000 and trajectories at most 100000",
                            argument="levels" if p > 1000 else "trajectories",
                            value=p if p > 1000 else r)  # fmt: skip


def _morris(knobs: list[Knob], r: int, p: int, gen: Any, boots: int, play: Any) -> tuple:
    d = len(knobs)  # r and p were checked by the caller (check_design), before any game
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
            # v1 != v0: a step (over half the unit range) is wider than a whole value's cell
            ee[t, i] = diff / ((v1 - v0) / (k.high - k.low))

    def stats(e: np.ndarray) -> np.ndarray:  # (..., r, d+1) -> (3, ..., d+1)
        return np.stack([np.nanmean(np.abs(e), axis=-2), np.nanmean(e, axis=-2),
                         np.nanstd(e, axis=-2, ddof=1)])  # fmt: skip

    est = stats(ee)
    boot = stats(ee[gen.integers(0, r, (boots, r))])  # (3, boots, d+1)
    out = []
    for j, name in enumerate(("mu_star", "mu", "sigma")):
        lo, hi = _interval(boot[j], est[j])
        out.append((name, est[j], lo, hi))
    return out, r * (d + 2), boot[0]
