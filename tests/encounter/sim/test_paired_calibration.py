"""Intervals that keep their promise (issue 45): compare's rows checked by simulation from a
known truth, at the seed counts designers use (30 and 100).

The fast version of ``benchmarks/bench_calibration_compare.py``: synthetic paired games whose
truth is exact (a paired yes/no with its four cells, game lengths with a known mean change),
plus 40 blocks of 30 real games of the monster-life change. Each block's interval either holds
the truth or not; the share that does must reach the floor (95 % promised; with 300 blocks a
share below 92 % is 2.4 Monte-Carlo errors short). Rows whose data cannot carry an interval
must say so (NaN and a note), never print a zero-width one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.encounter.sim.compare import compare, play_pair
from labkit.encounter.sim.paired import mcnemar_exact, paired_table

FLOOR = 0.92
BLOCKS = 300

# The NPC win-rate change of the monster life 5 -> 4 on 20,000 paired seeds (1,000,000 to
# 1,019,999), from: compare({}, {"/characters/monster/life": 4}, range(1_000_000, 1_020_000),
# metrics=["npc_win"]) -> diff 0.12265 (its own Monte-Carlo error about 0.0023).
NPC_WIN_CHANGE = 0.12265

# yes/no cells of a seed: both yes, A only, B only, neither (B − A = 0.15 − 0.025 = +0.125,
# A's rate 0.475: close to the monster-life change's)
CELLS = (0.45, 0.025, 0.15, 0.375)


def _yes_no(g: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    cell = g.choice(4, size=n, p=CELLS)
    return np.isin(cell, (0, 1)).astype(float), np.isin(cell, (0, 2)).astype(float)


def _lengths(g: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A's game lasts 1 + NegBin(2, 1/11) turns (mean 21); on a fifth of the seeds B's ends
    earlier, after a uniform 1 … A − 1 turns: most seeds play alike, a few change a lot (as
    the monster-life change does). E[B − A] = −0.1 · (21 − P(A = 1)) = −0.1 · (21 − 1/121)."""
    a = 1 + g.negative_binomial(2, 2 / 22, n).astype(float)
    cut = (g.random(n) < 0.2) & (a >= 2)
    b = a.copy()
    b[cut] = [g.integers(1, x) for x in a[cut].astype(int)]
    return a, b


LENGTH_CHANGE = -0.1 * (21 - 1 / 121)


@pytest.mark.parametrize("n", [30, 100])
def test_paired_rates_and_means_hold_the_truth_at_the_promised_rate(n):
    g = np.random.default_rng(45 + n)
    held = {"npc_win": 0, "npc_win_a": 0, "length_mean": 0}
    for k in range(BLOCKS):
        wa, wb = _yes_no(g, n)
        ta, tb = _lengths(g, n)
        t = paired_table({"npc_win": wa, "turns": ta}, {"npc_win": wb, "turns": tb},
                         metrics=["npc_win", "length_mean"], bootstrap=400, rng=k)  # fmt: skip
        win, length = t.iloc[0], t.iloc[1]
        if math.isnan(win["diff_lo"]):  # no seed ended differently: said so, not a miss
            assert "ended alike" in win["note"] and win["seeds_needed"] > n
        else:
            held["npc_win"] += win["diff_lo"] <= 0.125 <= win["diff_hi"]
        held["npc_win_a"] += win["a_lo"] <= CELLS[0] + CELLS[1] <= win["a_hi"]
        held["length_mean"] += length["diff_lo"] <= LENGTH_CHANGE <= length["diff_hi"]
    for key, k in held.items():
        assert k / BLOCKS >= FLOOR, (key, n, k / BLOCKS)
        assert k / BLOCKS <= 0.995, (key, n, k / BLOCKS)  # not an interval of everything


def test_a_rate_interval_agrees_with_the_exact_mcnemar_test_and_is_never_zero_wide():
    g = np.random.default_rng(7)
    for k in range(200):
        wa, wb = _yes_no(g, 40)
        t = paired_table({"npc_win": wa}, {"npc_win": wb}, metrics=["npc_win"], bootstrap=20)
        r = t.iloc[0]
        assert r["p_value"] == mcnemar_exact(wa, wb)
        if math.isnan(r["diff_lo"]):
            assert (wa == wb).all() and r["note"]
            continue
        assert r["diff_lo"] < r["diff_hi"] and r["diff_lo"] <= r["diff"] <= r["diff_hi"]
        changed = not r["diff_lo"] <= 0 <= r["diff_hi"]
        assert changed == (r["p_value"] < 0.05), (k, r.to_dict())


def test_no_seed_ending_differently_gives_no_interval_and_the_seeds_needed():
    # the case: 30 seeds, the same winner in A and B on every one
    same = {"npc_win": np.r_[np.ones(12), np.zeros(18)]}
    r = paired_table(same, same, metrics=["npc_win"], bootstrap=10).iloc[0]
    assert math.isnan(r["diff_lo"]) and math.isnan(r["diff_hi"]) and r["p_value"] == 1.0
    assert r["note"].startswith("A and B ended alike on all 30 seeds")
    # the change could be up to about 3 seeds in 30 each way (the rule of three): sd 0.316 per
    # seed, (2.80 · 0.316 / 0.02)² seeds to tell 2 points
    assert r["seeds_needed"] == math.ceil((2.8015852 * math.sqrt(0.1) / 0.02) ** 2)
    assert f"about {r['seeds_needed']} seeds" in r["note"]


def test_spreads_and_tail_points_at_30_seeds_say_they_need_more():
    g = np.random.default_rng(3)
    ta, tb = _lengths(g, 30)
    t = paired_table({"turns": ta}, {"turns": tb}, metrics=["length_sd", "length_q90",
                     "length_q50"], bootstrap=200).set_index("metric")  # fmt: skip
    for key, fewest in (("length_sd", 1000), ("length_q90", 150)):
        r = t.loc[key]
        assert math.isnan(r["diff_lo"]) and math.isnan(r["diff_hi"]), key
        assert f"needs at least {fewest} seeds" in r["note"], key
    assert t.loc["length_q50", "note"] == "" and t.loc["length_q50", "diff_lo"] < 0


def test_real_blocks_of_the_monster_life_change():
    games = play_pair({}, {"/characters/monster/life": 4}, range(1200))
    held = given = 0
    for k in range(40):
        block = games[(games["seed"] >= 30 * k) & (games["seed"] < 30 * (k + 1))]
        t = compare({}, {"/characters/monster/life": 4}, range(30 * k, 30 * (k + 1)), games=block,
                    bootstrap=300)  # fmt: skip
        for r in t.to_dict("records"):
            if math.isnan(r["diff_lo"]):
                assert r["note"], r  # no interval: the row says why
                continue
            assert r["diff_lo"] < r["diff_hi"], r  # never zero-wide
            assert r["diff_lo"] <= r["diff"] <= r["diff_hi"], r
            if not math.isnan(r["p_value"]):  # the interval and p agree at the 5 % level
                assert (r["p_value"] < 0.05) == (not r["diff_lo"] <= 0 <= r["diff_hi"]), r
        win = t.set_index("metric").loc["npc_win"]
        if not math.isnan(win["diff_lo"]):
            given += 1
            held += win["diff_lo"] <= NPC_WIN_CHANGE <= win["diff_hi"]
    assert given >= 36 and held / given >= 0.9, (held, given)
