"""Calibration of tune's intervals against a known truth (issue 45), the fast version.

Each run draws a crossing ``c`` and plays a synthetic game whose NPC win chance is
``logistic(-1.5 (v - c))`` (one fixed uniform per seed, so the points share their luck as real
games on common seeds do). The truth is known exactly, so every run can be scored:

* the crossing's 95 % interval (``root_ci``) holds ``c``;
* the reported whole value's 95 % interval (``ci``) holds that value's true win chance;
* a whole value declared a hit has a true win chance within 0.03 of the target.

Sixty runs at a small budget (600 games) and sixty at a large one (6,000); the coverage floors
apply to the 120 runs pooled, whose Monte-Carlo error is about 0.02: 0.91 for the crossing (two
errors below the nominal 95 %; the code before issue 45 held it in 0.90 of these runs, this code
in 0.95) and 0.88 for the value's interval (the code before held the true rate in none: its
``ci`` was a range of values, not of rates), and no hit may be off (before: 22 of 30 "hits"
at 600 games were more than 0.03 off). A real knob on 600 games has its own floor: the crossing
held in 0.93 of 300 runs (this code 0.95, the code before issue 45 0.92). The runs are fixed, so
the test is deterministic. The full version, with more runs, three shapes of curve, real
parameters and the real monster-life knob, is ``benchmarks/bench_calibration_tune.py``.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from labkit.encounter.sim.tune import tune

STEEP, TARGET = 1.5, 0.5


def _runs(count, budget, seed, integer=True, bootstrap=100):
    """``count`` tunes of whole-number (or real) knobs against known logistic truths."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        crossing = rng.uniform(3.0, 7.0)
        u = rng.random(4000)

        def truth(v, c=crossing):
            return 1 / (1 + np.exp(STEEP * (v - c)))

        def response(v, seeds, u=u, truth=truth):
            return u[seeds] < truth(v)

        t = tune(None, "/x", TARGET, bounds=(1, 9) if integer else (1.0, 9.0),
                 seeds=range(4000), start=100, budget=budget, bootstrap=bootstrap,
                 response=response, progress=False)  # fmt: skip
        out.append((crossing, t, float(truth(t.value))))
    return out


@functools.cache
def _all_runs():
    return {budget: _runs(60, budget, seed=budget) for budget in (600, 6000)}


@pytest.mark.parametrize("budget", [600, 6000])
def test_no_whole_value_called_a_hit_is_off_target(budget):
    off = [(t.value, p) for _, t, p in _all_runs()[budget] if t.hits and abs(p - TARGET) > 0.03]
    assert off == [], f"whole values called hits whose true rate is off by > 0.03: {off}"


def test_the_crossing_interval_holds_the_true_crossing():
    runs = [r for rs in _all_runs().values() for r in rs]
    held = np.mean([t.root_ci[0] <= c <= t.root_ci[1] for c, t, _ in runs])
    assert held >= 0.91, f"the crossing's interval held it in {held:.3f} of {len(runs)} runs"


def test_the_reported_value_interval_holds_its_true_rate():
    runs = [r for rs in _all_runs().values() for r in rs]
    held = np.mean([t.ci[0] <= p <= t.ci[1] for _, t, p in runs])
    assert held >= 0.88, f"the value's interval held its true rate in {held:.3f} of {len(runs)}"


def test_a_real_knob_on_few_games_holds_the_true_crossing():
    # 600 games: the bisection spends nearly all of them choosing the bracket, so the fit has
    # no games of its own. 300 runs (Monte-Carlo error about 0.013) with tune's own number of
    # resamples: this code holds the crossing in 0.95 of them, the code before issue 45 in 0.92
    runs = _runs(300, 600, seed=46, integer=False, bootstrap=400)
    held = np.mean([t.root_ci[0] <= c <= t.root_ci[1] for c, t, _ in runs])
    assert held >= 0.93, f"the crossing's interval held it in {held:.3f} of {len(runs)} runs"
