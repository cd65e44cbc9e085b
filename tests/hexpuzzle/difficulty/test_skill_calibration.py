"""Calibration of the skill model's difficulty intervals against a known truth (issue 45, fast).

Telemetry from known difficulties β and normal abilities (quitting after runs of failures), the
model fitted, and each level's 95 % interval compared with β on the model's scale (β minus the
players' mean ability: the model's 0 is its players' mean). The floor is 0.85 over 8 data sets ×
10 levels (a calibrated interval gives 0.95, about 0.03 of binomial error at 80 intervals). The
full simulation at two sample sizes is ``benchmarks/bench_calibration_funnel.py``.
"""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle.difficulty.skill import fit_skill_model
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

FLOOR = 0.85


def test_the_difficulty_intervals_hold_the_true_difficulties():
    ids = [f"L{i}" for i in range(10)]
    beta = np.linspace(-1.5, 1.5, 10)
    held = []
    for s in range(8):
        theta = np.random.default_rng(1000 + s).normal(0, 1, 400)
        rows = telemetry_from_skill(ids, beta, theta, rng=s, quit_rate=0.1)
        m = fit_skill_model(rows, ids, features=False, dropout="ignore", retries=False)
        lo, hi = m.difficulty_ci.T
        b = beta - theta.mean()
        held.extend(((lo <= b) & (b <= hi)).tolist())
    assert np.mean(held) >= FLOOR


def test_the_easy_end_and_the_spread_from_a_known_truth():
    """Issue 49: a success target of 0.85 or 0.9 is met for a median player (±0.05) and the
    ability spread is within 5 % of the truth, at a small and a large spread, with retries and
    weaker players quitting more (the benchmarks' world, 30 levels reaching down to easy)."""
    from scipy.special import expit

    ids = [f"L{i:02d}" for i in range(30)]
    beta = np.linspace(-3.0, 2.5, 30)
    for sd, seed in ((1.0, 1), (2.0, 2)):
        theta = np.random.default_rng(seed).normal(0, sd, 8000)
        rows = telemetry_from_skill(ids, beta, theta, rng=seed, max_attempts=3, learning=0.5,
                                    quit_ability=1.0, quit_rate=0.1)  # fmt: skip
        m = fit_skill_model(rows, ids, features=False)
        assert abs(m.ability_sd / theta.std() - 1) <= 0.05, (sd, m.ability_sd)
        median = float(np.median(theta))
        # what generate_to_target(success=p) asks of the model: its success at ability 0
        said = np.array([m.success(i) for i in ids])
        true = expit(median - beta)  # a median player's true first-try success
        for p in (0.85, 0.9):
            assert abs(np.interp(p, said[::-1], true[::-1]) - p) <= 0.05, (sd, p)
