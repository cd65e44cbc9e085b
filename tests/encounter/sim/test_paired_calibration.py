"""Intervals that keep their promise (issue 45): compare's rows checked by simulation from a
known truth, at the seed counts designers use (30 and 100).

The fast version of ``benchmarks/bench_calibration_compare.py``: synthetic paired games whose
truth is exact (a paired yes/no with its four cells, game lengths with a known mean change),
sparse changes of a share of NPCs alive and of lead changes like the monster-life change's),
plus 40 blocks of 30 real games of the monster-life change. Each block's interval either holds
the truth or not; the share that does must reach the floor (95 % promised; with 300 blocks a
share below 92 % is 2.4 Monte-Carlo errors short) and stay below 98.5 % (an interval far wider
than it needs is a promise not kept either). The rate change's interval depends only on the
seeds that ended differently, so its coverage and A against A's rejection rate are summed
exactly over every split. Rows whose data cannot carry an interval must say so (NaN and a note),
never print a zero-width one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.encounter.sim.compare import compare, play_pair
from labkit.encounter.sim.paired import mcnemar_midp, paired_table

FLOOR, CEILING = 0.92, 0.985
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

# NPCs alive (of 3): A's 0, 1, 2, 3 with ALIVE; on 12 % of seeds B keeps 1, 2 or 3 more (capped
# at 3), as a weaker monster does: most seeds alike, the change one-sided and lumpy.
ALIVE, MORE = (0.55, 0.1, 0.15, 0.2), (0.88, 0.05, 0.04, 0.03)
ALIVE_A = sum(ALIVE[u] * u / 3 for u in range(4))
ALIVE_CHANGE = sum(ALIVE[u] * MORE[j] * (min(u + j, 3) - u) / 3 for u in range(4) for j in range(4))
# lead changes: A's Poisson(0.8); B one more on 6 % of seeds, one fewer on 5 % (if A had any)
LEAD_CHANGE = 0.06 - 0.05 * (1 - math.exp(-0.8))


def _alive_and_leads(g: np.random.Generator, n: int) -> tuple[dict, dict]:
    u, j = g.choice(4, size=n, p=ALIVE), g.choice(4, size=n, p=MORE)
    la, r = g.poisson(0.8, n).astype(float), g.random(n)
    lb = np.where(r < 0.06, la + 1, np.where((r < 0.11) & (la >= 1), la - 1, la))
    return ({"npcs_alive": u / 3, "lead_changes": la},
            {"npcs_alive": np.minimum(u + j, 3) / 3, "lead_changes": lb})  # fmt: skip


# (row's key, "_a" for A's value; the interval's column; the truth)
TRUTHS = [("npc_win", "diff", 0.125), ("npc_win_a", "a", CELLS[0] + CELLS[1]),
          ("length_mean", "diff", LENGTH_CHANGE), ("npcs_alive", "diff", ALIVE_CHANGE),
          ("npcs_alive_a", "a", ALIVE_A), ("lead_changes", "diff", LEAD_CHANGE),
          ("lead_changes_a", "a", 0.8)]  # fmt: skip


@pytest.mark.parametrize("n", [30, 100])
def test_paired_rates_and_means_hold_the_truth_at_the_promised_rate(n):
    g = np.random.default_rng(45 + n)
    held = dict.fromkeys(["npc_win", "npc_win_a", "length_mean", "npcs_alive", "npcs_alive_a",
                          "lead_changes", "lead_changes_a"], 0)  # fmt: skip
    given = dict.fromkeys(held, 0)
    for k in range(BLOCKS):
        wa, wb = _yes_no(g, n)
        ta, tb = _lengths(g, n)
        sa, sb = _alive_and_leads(g, n)
        t = paired_table({"npc_win": wa, "turns": ta, **sa}, {"npc_win": wb, "turns": tb, **sb},
                         metrics=["npc_win", "length_mean", "npcs_alive", "lead_changes"],
                         bootstrap=400, rng=k).set_index("metric")  # fmt: skip
        for key, col, truth in TRUTHS:
            r = t.loc[key.removesuffix("_a")]
            if math.isnan(r[f"{col}_lo"]):  # no seed ended differently: said so, not a miss
                assert r["note"], (key, r.to_dict())
                continue
            given[key] += 1
            held[key] += r[f"{col}_lo"] <= truth <= r[f"{col}_hi"]
    for key, k in held.items():
        assert given[key] >= 0.9 * BLOCKS, (key, n, given[key])
        assert k / given[key] >= FLOOR, (key, n, k / given[key])
        assert k / given[key] <= CEILING, (key, n, k / given[key])  # not wider than it needs


def test_a_rate_interval_agrees_with_the_mid_p_mcnemar_test_and_is_never_zero_wide():
    g = np.random.default_rng(7)
    for k in range(200):
        wa, wb = _yes_no(g, 40)
        t = paired_table({"npc_win": wa}, {"npc_win": wb}, metrics=["npc_win"], bootstrap=20)
        r = t.iloc[0]
        assert r["p_value"] == mcnemar_midp(wa, wb) and r["test"] == "McNemar mid-p"
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


def _split_chances(n: int, cells: tuple[float, float, float, float]):
    """Each split of ``n`` seeds (up: only B yes, down: only A yes) with its exact chance."""
    for up in range(n + 1):
        for down in range(n + 1 - up):
            rest = n - up - down
            chance = (math.comb(n, up) * math.comb(n - up, down) * cells[2] ** up
                      * cells[1] ** down * (cells[0] + cells[3]) ** rest)  # fmt: skip
            yield up, down, chance


def _rate_row(up: int, down: int, n: int):
    a = np.r_[np.zeros(up), np.ones(down), np.zeros(n - up - down)]
    b = np.r_[np.ones(up), np.zeros(down), np.zeros(n - up - down)]
    return paired_table({"npc_win": a}, {"npc_win": b}, metrics=["npc_win"], bootstrap=2).iloc[0]


def test_the_rate_change_holds_the_truth_and_a_against_a_rejects_at_5_percent_exactly():
    # 30 seeds, every split weighted by its exact chance (no Monte-Carlo error): the synthetic
    # truth (97.0 %), the monster-life change (no seed goes down: 97.5 %), and A against A with
    # other luck at the monster-life rate 0.42, where each seed ends differently with chance
    # 2 · 0.42 · 0.58: the 5 % test must reject near 5 % (the exact McNemar: 2.7 %).
    pa = 0.4197
    truths = {"synthetic": CELLS, "monster life": (0.4197, 0.0, 0.12265, 0.45765),
              "A vs A": (pa * pa, pa * (1 - pa), pa * (1 - pa), (1 - pa) ** 2)}  # fmt: skip
    rows = {(u, d): _rate_row(u, d, 30) for u in range(31) for d in range(31 - u) if u + d}
    for name, cells in truths.items():
        truth = cells[2] - cells[1]
        held = given = 0.0
        for up, down, chance in _split_chances(30, cells):
            if up + down == 0:
                continue  # no interval, and said so (test above)
            r = rows[(up, down)]
            given += chance
            held += chance * (r["diff_lo"] <= truth <= r["diff_hi"])
        if name == "A vs A":
            assert 0.035 <= 1 - held / given <= 0.065, (name, 1 - held / given)
        else:
            assert 0.93 <= held / given <= CEILING, (name, held / given)
