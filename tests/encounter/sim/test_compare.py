"""Paired comparison of two versions (issue 28): synthetic outcomes with a known difference, the
null (A against A) and the game comparison on common seeds."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.rules.balance import DEFAULT_PATH
from labkit.encounter.sim.compare import compare, play_pair, survival_bands, version_patch
from labkit.encounter.sim.paired import mcnemar_exact, paired_table

Z = 1.959963984540054 + 0.8416212335729143


def _known(seed, n=1000, shift=0.1, extra_turns=3.0):
    """A wins when u < 0.5, B when u < 0.5 + shift (the same u: common random numbers); B's
    games last ``extra_turns`` longer. The true differences are shift and extra_turns."""
    g = np.random.default_rng(seed)
    u = g.random(n)
    turns = g.poisson(20, n).astype(float)
    a = {"npc_win": (u < 0.5).astype(float), "turns": turns}
    b = {"npc_win": (u < 0.5 + shift).astype(float), "turns": turns + extra_turns}
    return a, b


def test_a_known_difference_is_covered_and_measured_with_the_pairing_it_bought():
    covered_win = covered_len = 0
    for seed in range(30):
        a, b = _known(seed)
        t = paired_table(a, b, metrics=["npc_win", "length_mean"], bootstrap=400, rng=seed)
        win, length = t.iloc[0], t.iloc[1]
        covered_win += win["diff_lo"] <= 0.1 <= win["diff_hi"]
        # every seed 3 turns longer: no spread to draw an interval from, and the row says so
        covered_len += math.isnan(length["diff_lo"]) and "came out +3 " in length["note"]
        assert win["a_lo"] <= win["a"] <= win["a_hi"] and win["test"] == "McNemar mid-p"
    assert covered_win >= 25 and covered_len == 30  # 95 % intervals: ~28.5 of 30 expected
    a, b = _known(99, n=4000)
    t = paired_table(a, b, metrics=["npc_win"], bootstrap=1000).iloc[0]
    # Var(unpaired) = 2 p(1-p) ~ 2*0.2475, Var(paired) = 0.1*0.9 = 0.09: pairing buys ~5.5x
    assert 4.5 < t["variance_reduction"] < 6.5
    # one seed's difference is 1 with probability 0.1: sd 0.3, so (2.80 * 0.3 / 0.02)^2 seeds
    assert abs(t["seeds_needed"] / (Z * 0.3 / 0.02) ** 2 - 1) < 0.15
    assert abs(t["seeds_unpaired"] / (Z * math.sqrt(2 * 0.2475) / 0.02) ** 2 - 1) < 0.15
    assert t["p_value"] < 1e-6


def test_independent_versions_gain_nothing_from_pairing():
    g = np.random.default_rng(5)
    a = {"npc_win": (g.random(4000) < 0.5).astype(float)}
    b = {"npc_win": (g.random(4000) < 0.5).astype(float)}
    vr = paired_table(a, b, metrics=["npc_win"], bootstrap=1000).iloc[0]["variance_reduction"]
    assert 0.8 < vr < 1.25


def test_a_against_itself_every_interval_holds_zero_and_mcnemar_p_is_uniform():
    """The null: B has A's rates, pairs correlated (80 % of seeds play alike)."""
    ps, holds = [], 0
    for seed in range(200):
        g = np.random.default_rng(1000 + seed)
        a = g.random(800) < 0.45
        b = np.where(g.random(800) < 0.8, a, g.random(800) < 0.45)
        ps.append(mcnemar_exact(a, b))
        if seed < 20:
            t = paired_table({"npc_win": a, "monster_win": ~a}, {"npc_win": b, "monster_win": ~b},
                             metrics=["npc_win", "balance"], bootstrap=300, rng=seed)  # fmt: skip
            # a row too close to even for a balance interval says so (NaN): it claims nothing
            none = t["diff_lo"].isna() & (t["note"] != "")
            holds += bool((((t["diff_lo"] <= 0) & (0 <= t["diff_hi"])) | none).all())
    ps = np.array(ps)
    assert holds >= 17
    # uniform: P(p <= alpha) ~ alpha (an exact test on counts is discrete and never above it
    # by more than chance; its p = 1 when both ways are equal piles a little mass at the top)
    for alpha in (0.05, 0.1, 0.25, 0.5, 0.75):
        assert np.mean(ps <= alpha) <= alpha + 0.04, alpha
        assert np.mean(ps <= alpha) >= alpha - 0.08, alpha


def test_the_shipped_edition_against_itself_plays_the_same_games():
    assert version_patch(DEFAULT_PATH) == {}
    t = compare(DEFAULT_PATH, {}, range(30), bootstrap=100)
    # the same games: no change, and no interval (no seed tells the versions apart: a zero-wide
    # interval would read as certainty), each row saying so in words
    assert (t["diff"] == 0).all() and t["diff_lo"].isna().all() and t["diff_hi"].isna().all()
    assert (t["note"] != "").all()
    assert (t[t["test"] == "McNemar mid-p"]["p_value"] == 1).all()
    assert {"balance", "length_q50", "npcs_alive_after_20", "lead_changes"} <= set(t["metric"])


def test_a_weaker_monster_wins_less_and_the_games_resume_from_parquet(tmp_path):
    a, b = {"/characters/monster/life": 5}, {"/characters/monster/life": 2}
    g = play_pair(a, b, range(60), out=tmp_path / "ab")
    again = play_pair(a, b, range(60), out=tmp_path / "ab")  # resumed: nothing to play
    pd.testing.assert_frame_equal(g, again)
    t = compare(a, b, range(60), games=g, metrics=["npc_win", "monster_win"], bootstrap=300)
    npc = t.set_index("metric").loc["npc_win"]
    assert npc["diff_lo"] > 0 and npc["p_value"] < 0.01 and t.attrs["b"] == b
    s = survival_bands(g)
    assert s[s["version"] == "B"]["alive"].iloc[-1] > s[s["version"] == "A"]["alive"].iloc[-1]


def test_bad_versions_and_metrics_are_named(tmp_path):
    with pytest.raises(ArgumentError, match="version"):
        version_patch(3)
    with pytest.raises(ArgumentError, match="metrics"):
        compare({}, {}, range(3), metrics=["fun"])
    bad = tmp_path / "b.json"
    bad.write_text('{"format": "labkit.balance", "version": 1, "dragons": 3}')
    with pytest.raises(Exception, match="dragons"):
        version_patch(bad)
