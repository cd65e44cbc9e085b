"""Calibration of tune's intervals against a known truth (issue 45), the fast version.

Each run draws a crossing ``c`` and plays a synthetic game whose NPC win chance is
``logistic(-1.5 (v - c))`` (one fixed uniform per seed, so the points share their luck as real
games on common seeds do). The truth is known exactly, so every run can be scored:

* the crossing's 95 % interval (``root_ci``) holds ``c``;
* the reported whole value's 95 % interval (``ci``) holds that value's true win chance;
* a whole value declared a hit has a true win chance within 0.03 of the target.

The floors are below the nominal 95 % by about two Monte-Carlo errors of these run counts (a
fixed set of runs: the test is deterministic). The full version, at more budgets and with the
real monster-life knob, is the ``make bench`` row in ``benchmarks/bench_calibration_tune.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit.encounter.sim.tune import tune

STEEP, TARGET = 1.5, 0.5


def _runs(count, budget, seed):
    """``count`` tunes of whole-number knobs against known logistic truths."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        crossing = rng.uniform(3.0, 7.0)
        u = rng.random(4000)

        def truth(v, c=crossing):
            return 1 / (1 + np.exp(STEEP * (v - c)))

        def response(v, seeds, u=u, truth=truth):
            return u[seeds] < truth(v)

        t = tune(None, "/x", TARGET, bounds=(1, 9), seeds=range(4000), start=100,
                 budget=budget, bootstrap=100, response=response, progress=False)  # fmt: skip
        out.append((crossing, t, float(truth(t.value))))
    return out


@pytest.mark.parametrize("budget, count", [(600, 60), (6000, 60)])
def test_the_intervals_hold_the_truth_and_no_hit_is_off_target(budget, count):
    runs = _runs(count, budget, seed=budget)
    crossing = np.mean([t.root_ci[0] <= c <= t.root_ci[1] for c, t, _ in runs])
    value = np.mean([t.ci[0] <= p <= t.ci[1] for _, t, p in runs])
    off = [(t.value, p) for _, t, p in runs if t.hits and abs(p - TARGET) > 0.03]
    assert off == [], f"whole values called hits whose true rate is off by > 0.03: {off}"
    assert value >= 0.90, f"the reported value's interval held its true rate in {value:.3f}"
    assert crossing >= 0.90, f"the crossing's interval held it in {crossing:.3f}"
