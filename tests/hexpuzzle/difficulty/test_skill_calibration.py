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
