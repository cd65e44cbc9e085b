"""Calibration of Bradley–Terry's 95 % intervals against known strengths (issue 45, fast).

Win matrices of 6 players with known mean-0 strengths, every pair meeting 50 times; the share of
(data set, player) intervals holding the true strength must be at least 0.92 over 150 data sets
(0.95 expected; the Monte-Carlo error is about 0.008). The full simulation at two numbers of
games is ``benchmarks/bench_calibration_funnel.py``.
"""

from __future__ import annotations

import numpy as np

from labkit.encounter.sim.ratings import bradley_terry

FLOOR = 0.92


def test_the_strength_intervals_hold_the_true_strengths():
    s_true = np.array([1.0, 0.6, 0.2, -0.2, -0.6, -1.0])
    p = 1.0 / (1.0 + np.exp(s_true[None, :] - s_true[:, None]))  # P(row beats column)
    names = [f"p{i}" for i in range(6)]
    gen = np.random.default_rng(7)
    held = []
    for _ in range(150):
        upper = gen.binomial(50, np.triu(p, 1))
        wins = np.triu(upper, 1) + np.tril(50 - upper.T, -1)
        r = bradley_terry(wins, names).set_index("player").loc[names]
        held.extend(((r["lo"] <= s_true) & (s_true <= r["hi"])).tolist())
    assert np.mean(held) >= FLOOR
