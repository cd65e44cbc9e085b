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
