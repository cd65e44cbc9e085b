"""Glicko-2 level ratings: the published worked example, the kernel against the plain algorithm,
and the puzzle-site rules (first attempts, capped changes, provisional players)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import LevelRatings, glicko2, telemetry_from_skill
from labkit.hexpuzzle.difficulty._rating_kernels import rate_games
from labkit.hexpuzzle.difficulty.ratings import SCALE


def row(level, player, won, attempt=1):
    return (level, player, attempt, won and attempt == 1, 0, 0, 0, 0, 1.0, won)


def test_glickmans_worked_example():
    # Glickman, "Example of the Glicko-2 system" (2012), steps 7-8: mu' = -0.2069, phi' = 0.8722,
    # sigma' = 0.05999, hence r' = 1464.06 and RD' = 151.52. The paper converts its rounded
    # mu' (exactly -0.20694...); unrounded, r' = 1464.0507.
    r, rd, vol = glicko2(1500, 200, 0.06, [(1400, 30), (1550, 100), (1700, 300)], [1, 0, 0])
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    assert (round(mu, 4), round(phi, 4)) == (-0.2069, 0.8722)
    assert 0.05999 <= vol < 0.06  # the paper prints 0.05999 (exactly 0.0599960)
    assert round(1500 + SCALE * round(mu, 4), 2) == 1464.06
    assert round(rd, 2) == 151.52
    assert r == pytest.approx(1464.06, abs=0.01)
    # no games in the period: only the deviation grows (step 6)
    assert glicko2(1500, 200, 0.06, [], []) == (
        1500,
        pytest.approx(SCALE * math.hypot(200 / SCALE, 0.06)),
        0.06,
    )


def one_game_reference(games, players, levels, tau, cap, provisional):
    """The kernel's rules written with the plain Glicko-2 of the paper, game by game."""
    for p, lv, s in games:
        pr, prd, pv = players[p]
        lr, lrd, lvv = levels[lv]
        r2, rd2, v2 = glicko2(pr, prd, pv, [(lr, lrd)], [s], tau=tau)
        players[p] = (pr + max(-cap, min(cap, r2 - pr)), rd2, v2)
        if prd <= provisional:
            r2, rd2, v2 = glicko2(lr, lrd, lvv, [(pr, prd)], [1 - s], tau=tau)
            levels[lv] = (lr + max(-cap, min(cap, r2 - lr)), rd2, v2)
    return players, levels


@pytest.mark.parametrize("seed", range(4))
def test_kernel_matches_the_plain_algorithm(seed):
    gen = np.random.default_rng(seed)
    P, L, G = 6, 4, 60
    players = {i: (1500 + gen.normal(0, 200), gen.uniform(40, 350), 0.06) for i in range(P)}
    levels = {i: (1500 + gen.normal(0, 200), gen.uniform(40, 350), 0.06) for i in range(L)}
    games = [
        (int(gen.integers(P)), int(gen.integers(L)), float(gen.random() < 0.5)) for _ in range(G)
    ]
    cap, prov = 60.0, 150.0
    ref_p, ref_l = one_game_reference(games, dict(players), dict(levels), 0.5, cap, prov)
    arr = lambda d, k: np.array([d[i][k] for i in range(len(d))])  # noqa: E731
    p_mu, p_phi, p_sig = (arr(players, 0) - 1500) / SCALE, arr(players, 1) / SCALE, arr(players, 2)
    l_mu, l_phi, l_sig = (arr(levels, 0) - 1500) / SCALE, arr(levels, 1) / SCALE, arr(levels, 2)
    g = np.array(games)
    moved = rate_games(g[:, 0].astype(np.int64), g[:, 1].astype(np.int64), g[:, 2].copy(),
                       p_mu, p_phi, p_sig, np.zeros(P, np.int64), l_mu, l_phi, l_sig,
                       np.zeros(L, np.int64), 0.5, cap / SCALE, prov / SCALE)  # fmt: skip
    assert 0 < moved < G
    np.testing.assert_allclose(1500 + SCALE * p_mu, arr(ref_p, 0), atol=1e-6)
    np.testing.assert_allclose(SCALE * p_phi, arr(ref_p, 1), atol=1e-6)
    np.testing.assert_allclose(1500 + SCALE * l_mu, arr(ref_l, 0), atol=1e-6)
    np.testing.assert_allclose(l_sig, arr(ref_l, 2), atol=1e-9)


def test_only_first_attempts_rate_and_provisional_players_leave_levels_alone():
    r = LevelRatings()  # players start provisional (RD 350 > 200)
    assert r.update([row("L1", "new", False)]) == 0
    assert r.level("L1") == (1500.0, 350.0, 0)
    assert r.player("new")[0] < 1500  # the player still learns
    known = LevelRatings(player_start=(1500, 50, 0.06))
    assert known.update([row("L1", "p", False, attempt=2), row("L1", "p", True, attempt=3)]) == 0
    assert known.skipped == 2
    with pytest.raises(ArgumentError, match="level: no such level"):
        known.level("L1")
    assert known.update([row("L1", "p", False)]) == 1
    assert known.level("L1")[0] > 1500 and known.level("L1")[2] == 1


def test_changes_are_capped():
    r = LevelRatings(player_start=(2500, 30, 0.06), level_start=(1500, 350, 0.06), max_change=25)
    r.update([row("L", "strong", False)])  # a strong player failing: a big surprise
    assert r.level("L")[0] == pytest.approx(1525.0)
    free = LevelRatings(player_start=(2500, 30, 0.06), max_change=1000)
    free.update([row("L", "strong", False)])
    assert free.level("L")[0] > 1700


def test_ratings_rank_levels_from_established_players():
    ids = [f"L{i:02d}" for i in range(12)]
    beta = np.linspace(-2, 2, 12)
    theta = np.random.default_rng(0).normal(0, 1, 600)
    r = LevelRatings(player_start=(1500, 100, 0.06))
    r.update(telemetry_from_skill(ids, beta, theta, rng=1, progression=False))
    t = r.table().set_index("level").loc[ids]
    assert np.corrcoef(t["rating"], beta)[0, 1] > 0.97
    assert (t["n"] == 600).all() and list(r.table()["level"])[-1] == "L11"
    # a rating gap of 400/ln(10) · Δβ: one logit is 173.7 points
    slope = np.polyfit(beta, t["rating"], 1)[0]
    assert 120 < slope < 230
    assert 0.3 < r.success("L06") < 0.7 and "<table" in r._repr_html_()


@pytest.mark.parametrize("bad", [{"tau": 0}, {"max_change": -1}, {"provisional_rd": float("nan")},
                                 {"level_start": (1500, 0, 0.06)}])  # fmt: skip
def test_bad_options(bad):
    with pytest.raises(ArgumentError, match=next(iter(bad))):
        LevelRatings(**bad)
