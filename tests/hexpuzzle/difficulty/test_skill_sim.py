"""The fast skill simulator: today's tables player by player, retries on the learning step,
quitting that depends on ability."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from labkit.hexpuzzle import (
    telemetry_from_skill,
)
from labkit.hexpuzzle.difficulty.players import quits
from labkit.rng import make_rng, stream

IDS = [f"L{i:02d}" for i in range(12)]
BETA = np.linspace(-1.5, 2.0, 12)


def _legacy(ids, beta, theta, seed, quit_rate, progression=True):
    """Today's simulator, player by player (the rows the fast one must reproduce)."""
    root, rows = make_rng(seed), []
    for i, t in enumerate(theta):
        gen = stream(root, f"player/{i}")
        won = gen.random(len(ids)) < 1.0 / (1.0 + np.exp(beta - t))
        draw = gen.random(len(ids))
        run = 0
        for j, level in enumerate(ids):
            rows.append((level, f"r{i:04d}", int(won[j])))
            run = 0 if won[j] else run + 1
            if progression and draw[j] < min(1.0, quit_rate * run):
                break
    return rows


@pytest.mark.parametrize("progression", [True, False])
def test_fast_simulator_reproduces_todays_tables(progression):
    theta = np.random.default_rng(4).normal(0, 1, 150)
    t = telemetry_from_skill(IDS, BETA, theta, rng=5, quit_rate=0.3, progression=progression)
    got = list(zip(t["level"].tolist(), t["player"].tolist(), t["won"].astype(int).tolist()))
    assert got == _legacy(IDS, BETA, theta, 5, 0.3, progression)
    assert (t["attempt"] == 1).all() and (t["first_try"] == t["won"]).all()


def test_retries_follow_the_learning_step():
    theta = np.zeros(20000)
    t = telemetry_from_skill(["a"], [1.0], theta, rng=0, max_attempts=3, learning=0.8)
    for k in (1, 2, 3):
        rate = t["won"][t["attempt"] == k].mean()
        assert rate == pytest.approx(expit(-1.0 + 0.8 * (k - 1)), abs=0.015)
    # only the last attempt at a level is won, and attempts stop at the first win
    per = {}
    for p, a, w in zip(t["player"].tolist(), t["attempt"].tolist(), t["won"].tolist()):
        per.setdefault(p, []).append((a, w))
    assert all([a for a, _ in v] == list(range(1, len(v) + 1)) for v in per.values())
    assert all(not any(w for _, w in v[:-1]) for v in per.values())


def test_weaker_players_quit_more_after_the_same_failure():
    theta = np.r_[np.full(4000, -1.0), np.full(4000, 1.0)]
    t = telemetry_from_skill(["a", "b"], [9.0, 0.0], theta, rng=1, quit_ability=1.0, quit_rate=0.5)
    reached = {
        side: np.isin([f"r{i:04d}" for i in idx], t["player"][t["level"] == "b"]).mean()
        for side, idx in (("weak", range(4000)), ("strong", range(4000, 8000)))
    }
    # everyone fails level a (β = 9): quit with σ(logit(0.5) ∓ 1) = 0.73 / 0.27
    assert 1 - reached["weak"] == pytest.approx(expit(1.0), abs=0.025)
    assert 1 - reached["strong"] == pytest.approx(expit(-1.0), abs=0.025)
    gen = np.random.default_rng(0)
    assert np.mean([quits(1, 0.5, gen, ability=-1.0, c=1.0) for _ in range(4000)]) > 0.68
