"""Issue 45 (part 1): do ``compare``'s 95 % intervals hold the truth 95 % of the time?

A simulation from a known truth, at the seed counts designers use (30 and 100 seeds a block):

* **monster life 5 -> 4** (real games): the truth is the table of 20,000 paired seeds
  (1,000,000 … 1,019,999), the blocks are disjoint runs of seeds 0 … 19,999 (200 of 30 seeds,
  200 of 100). Each row of a block's table either holds its truth or not; the share that does
  is the coverage, given with its Monte-Carlo standard error sqrt(p (1 − p) / blocks). A row
  that says it has no interval (too few seeds, no seed that ended differently, a leading side
  not settled) is counted apart ("none"), not as a hit or a miss.
* **A against A with independent luck**: A's games of the block seeds paired with A's games of
  the truth seeds (the same version, other dice): how often each row's interval misses 0 (it
  should be 5 %).
* **synthetic paired games** with an exact truth (``tests/encounter/sim/
  test_paired_calibration.py`` in fewer blocks): a paired yes/no with known cells (B − A =
  +0.125) and game lengths with a known mean change, 1,000 blocks each.
* **rates exactly** (``compare calibration exact rates``, ~15 s): the rate change's interval
  depends only on the seeds that went up and down, so its coverage is summed over every split
  weighted by its chance — over 144 truths (both rates 0.02 … 0.98, 2 … 50 % of seeds ending
  differently), at the monster-life change, the synthetic truth, and A against A with other
  luck; one version's rate (Wilson) over rates 0.02 … 0.98. No Monte-Carlo error.

Goals (issue 45): coverage within 93–97 % at 30 and 100 seeds; A against A rejects 5 % ± 1.5 %.
A row's notes list every metric; ``extra`` holds the numbers.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from benchmarks import Row, benchmark
from labkit.encounter.sim.batch import local_executor
from labkit.encounter.sim.compare import SURVIVAL_TURNS, _measures, play_pair
from labkit.encounter.sim.paired import METRICS, paired_table

B_VERSION = {"/characters/monster/life": 4}
TRUTH_SEEDS = range(1_000_000, 1_020_000)
BLOCK_SEEDS = range(0, 20_000)
_GAMES: dict[str, Any] = {}


def _games() -> dict[str, Any]:
    """Both sets of games, played once per process (2 workers: ~80,000 games, ~30 s)."""
    if not _GAMES:
        pool = local_executor(2)
        try:
            for name, seeds in (("truth", TRUTH_SEEDS), ("blocks", BLOCK_SEEDS)):
                g = play_pair({}, B_VERSION, seeds, executor=pool)
                _GAMES[name] = _measures(g, SURVIVAL_TURNS)
        finally:
            pool.shutdown()
    return _GAMES


def coverage(a: dict, b: dict, metrics: list, truth: Any, n: int,
             blocks: int) -> dict[str, dict[str, list[int]]]:  # fmt: skip
    """Per metric ``[held, given, none]`` over ``blocks`` disjoint blocks of ``n`` seeds, for
    ``diff`` (the change's interval holds ``truth["diff"]``), ``a`` (A's interval holds
    ``truth["a"]``) and ``reject`` (the change's interval misses 0), from one table a block."""
    out: dict[str, dict[str, list[int]]] = {"diff": {}, "a": {}, "reject": {}}
    for k in range(blocks):
        part = slice(k * n, (k + 1) * n)
        t = paired_table({c: v[part] for c, v in a.items()}, {c: v[part] for c, v in b.items()},
                         metrics=metrics, bootstrap=1000, rng=k)  # fmt: skip
        for r in t.to_dict("records"):
            key = r["metric"]
            for what, lo, hi in (("diff", "diff_lo", "diff_hi"), ("a", "a_lo", "a_hi"),
                                 ("reject", "diff_lo", "diff_hi")):  # fmt: skip
                h = out[what].setdefault(key, [0, 0, 0])
                if math.isnan(r[lo]):
                    h[2] += 1
                    continue
                h[1] += 1
                if what == "reject":
                    h[0] += not r[lo] <= 0 <= r[hi]
                else:
                    h[0] += r[lo] <= truth.loc[key, what] <= r[hi]
    return out


def _said(counts: dict[str, list[int]]) -> tuple[str, dict[str, Any]]:
    words, extra = [], {}
    for key, (held, given, none) in counts.items():
        if given == 0:
            words.append(f"{key} none in {none}")
            extra[key] = {"given": 0, "none": none}
            continue
        p = held / given
        se = math.sqrt(p * (1 - p) / given)
        words.append(f"{key} {100 * p:.1f}±{100 * se:.1f}" + (f" (none {none})" if none else ""))
        extra[key] = {"share": p, "se": se, "given": given, "none": none}
    return "; ".join(words), extra


def _row(name: str, seconds: float, counts: dict, goal: str) -> Row:
    notes, extra = _said(counts)
    return Row(name, seconds, None, f"no reference (goal: {goal})", None, notes=notes,
               extra=extra)  # fmt: skip


def _real(n: int, blocks: int = 200) -> list[Row]:
    start = time.perf_counter()
    g = _games()
    (ta, tb, extra), (ba, bb, _) = g["truth"], g["blocks"]
    metrics = [*METRICS.values(), *extra]
    truth = paired_table(ta, tb, metrics=metrics, bootstrap=2).set_index("metric")
    counts = coverage(ba, bb, metrics, truth, n, blocks)
    played = time.perf_counter() - start
    # A against A, other dice: A's games of the block seeds against A's of the truth seeds
    null = coverage(ba, ta, metrics, truth * 0, n, blocks)["reject"]
    return [
        _row(f"compare calibration: monster life 5->4, B - A, {n} seeds (coverage, %)", played,
             counts["diff"], "93-97 %"),
        _row(f"compare calibration: monster life 5->4, A's value, {n} seeds (coverage, %)",
             played, counts["a"], "93-97 %"),
        _row(f"compare calibration: A vs A, other luck, {n} seeds (misses 0, %)",
             time.perf_counter() - start - played, null, "5 % ± 1.5 %"),
    ]  # fmt: skip


@benchmark("compare calibration real 30")
def bench_real_30() -> list[Row]:
    return _real(30)


@benchmark("compare calibration real 100")
def bench_real_100() -> list[Row]:
    return _real(100)


# -- synthetic paired games with an exact truth ---------------------------------------------------

CELLS = (0.45, 0.025, 0.15, 0.375)  # both yes, A only, B only, neither: B − A = +0.125
LENGTH_CHANGE = -0.1 * (21 - 1 / 121)


def synthetic(g: np.random.Generator, n: int) -> tuple[dict, dict]:
    """A paired yes/no with cells ``CELLS`` and game lengths: A's 1 + NegBin(2, 1/11) turns
    (mean 21), B's cut to a uniform 1 … A − 1 on a fifth of the seeds (E[B − A] =
    −0.1 · (21 − 1/121))."""
    cell = g.choice(4, size=n, p=CELLS)
    a = 1 + g.negative_binomial(2, 2 / 22, n).astype(float)
    cut = (g.random(n) < 0.2) & (a >= 2)
    b = a.copy()
    b[cut] = [g.integers(1, x) for x in a[cut].astype(int)]
    return ({"npc_win": np.isin(cell, (0, 1)).astype(float), "turns": a},
            {"npc_win": np.isin(cell, (0, 2)).astype(float), "turns": b})  # fmt: skip


def _synthetic(n: int, blocks: int = 1000) -> Row:
    start = time.perf_counter()
    g = np.random.default_rng(4500 + n)
    counts: dict[str, list[int]] = {}
    for k in range(blocks):
        a, b = synthetic(g, n)
        t = paired_table(a, b, metrics=["npc_win", "length_mean"], bootstrap=1000, rng=k)
        for r, truth in zip(t.to_dict("records"), (0.125, LENGTH_CHANGE)):
            for key, lo, hi, want in ((r["metric"], "diff_lo", "diff_hi", truth),
                                      (r["metric"] + " A", "a_lo", "a_hi",
                                       CELLS[0] + CELLS[1] if r["metric"] == "npc_win"
                                       else 21.0)):  # fmt: skip
                h = counts.setdefault(key, [0, 0, 0])
                if math.isnan(r[lo]):
                    h[2] += 1
                else:
                    h[0] += r[lo] <= want <= r[hi]
                    h[1] += 1
    return _row(f"compare calibration: synthetic paired games, {n} seeds (coverage, %)",
                time.perf_counter() - start, counts, "93-97 %")  # fmt: skip


@benchmark("compare calibration synthetic 30")
def bench_synthetic_30() -> Row:
    return _synthetic(30)


@benchmark("compare calibration synthetic 100")
def bench_synthetic_100() -> Row:
    return _synthetic(100)


# -- rates, exactly: every split weighted by its chance (no Monte-Carlo error) ------------------


def _grid() -> list[tuple[float, float, float, float]]:
    """Truths of a paired yes/no (both yes, A only, B only, neither): both rates in
    0.02 … 0.98 and the share of seeds ending differently 2 … 50 % (144 feasible)."""
    rates, apart = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98), (
        0.02, 0.05, 0.1, 0.2, 0.3, 0.5)  # fmt: skip
    out = []
    for pa in rates:
        for pb in rates:
            for s in apart:
                up, down = (s + pb - pa) / 2, (s - pb + pa) / 2
                both = pa - down
                if min(up, down) < -1e-12 or both < -1e-12 or 1 - both - s < -1e-12:
                    continue
                out.append((max(both, 0.0), max(down, 0.0), max(up, 0.0), max(1 - both - s, 0.0)))
    return out


def _exact_rates(n: int) -> Row:
    """The rate change's interval (through ``paired_table``: Tango's, reaching 0 when the
    mid-p McNemar p is 5 % or more) depends only on the seeds that went up and down, so its
    coverage is a sum over the splits; one version's (Wilson's) over the yes counts."""
    from scipy.special import gammaln
    from scipy.stats import binom

    from labkit.encounter.sim.paired import rate_interval

    start = time.perf_counter()
    splits = [(u, d) for u in range(n + 1) for d in range(n + 1 - u)]
    held_at: dict[tuple[int, int], tuple[float, float]] = {}
    for u, d in splits:
        if u + d:
            a = np.r_[np.zeros(u), np.ones(d), np.zeros(n - u - d)]
            b = np.r_[np.ones(u), np.zeros(d), np.zeros(n - u - d)]
            r = paired_table({"npc_win": a}, {"npc_win": b}, metrics=["npc_win"], bootstrap=2)
            held_at[(u, d)] = (float(r.loc[0, "diff_lo"]), float(r.loc[0, "diff_hi"]))
    up = np.array([u for u, _ in splits])
    down = np.array([d for _, d in splits])
    lo = np.array([held_at.get(s, (np.nan, np.nan))[0] for s in splits])
    hi = np.array([held_at.get(s, (np.nan, np.nan))[1] for s in splits])
    given = up + down > 0
    log_ways = gammaln(n + 1) - gammaln(up + 1) - gammaln(down + 1) - gammaln(n - up - down + 1)

    def cover(cells: tuple[float, float, float, float]) -> float:
        with np.errstate(divide="ignore", invalid="ignore"):
            counts = ((up, cells[2]), (down, cells[1]), (n - up - down, cells[0] + cells[3]))
            logs = [np.where(k > 0, k * np.log(c), 0.0) for k, c in counts]
        w = np.exp(log_ways + sum(logs))
        d = cells[2] - cells[1]
        ok = given & (lo <= d + 1e-12) & (d - 1e-12 <= hi)
        return float(w[ok].sum() / w[given].sum())

    pa = 0.4197
    grid = np.array([cover(c) for c in _grid()])
    change = {
        "grid mean": float(grid.mean()), "grid min": float(grid.min()),
        "monster life": cover((0.4197, 0.0, 0.12265, 0.45765)), "synthetic": cover(CELLS),
        "A vs A rejects": 1 - cover((pa * pa, pa * (1 - pa), pa * (1 - pa), (1 - pa) ** 2)),
    }  # fmt: skip
    k = np.arange(n + 1)
    ends = [rate_interval(int(x), n) for x in k]
    w_lo, w_hi = np.array([e[0] for e in ends]), np.array([e[1] for e in ends])
    one = np.array([binom.pmf(k, n, p) @ ((w_lo <= p) & (p <= w_hi))
                    for p in np.linspace(0.02, 0.98, 97)])  # fmt: skip
    at = float(binom.pmf(k, n, pa) @ ((w_lo <= pa) & (pa <= w_hi)))
    said = "; ".join(f"{key} {100 * v:.1f}" for key, v in change.items())
    notes = (f"rate change (Tango, mid-p rule): {said} · one rate (Wilson): grid mean "
             f"{100 * one.mean():.1f}, min {100 * one.min():.1f}; "
             f"at 0.4197 {100 * at:.1f}")  # fmt: skip
    extra = {"change": change, "one rate": {"grid mean": float(one.mean()),
             "grid min": float(one.min()), "at 0.4197": at}}  # fmt: skip
    return Row(f"compare calibration: rates exactly, {n} seeds (coverage, %)",
               time.perf_counter() - start, None, "no reference (goal: 93-97 %; A vs A 5 ± 1.5 %)",
               None, notes=notes, extra=extra)  # fmt: skip


@benchmark("compare calibration exact rates")
def bench_exact_rates() -> list[Row]:
    return [_exact_rates(30), _exact_rates(100)]
