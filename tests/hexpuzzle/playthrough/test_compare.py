"""Comparing two funnels: two level orders against a large independent simulation."""

from __future__ import annotations

import numpy as np

from labkit.hexpuzzle import (
    FunnelWorld,
    TrueModel,
    compare_funnels,
    funnel,
)


def test_compare_two_orders_against_a_large_independent_simulation():
    quit = {"baseline": -2.0, "won": -1.0, "run": 0.6}
    easy_first, hard_first = [-1.5, -0.5, 0.5, 1.5], [1.5, 0.5, -0.5, -1.5]
    a = funnel(["L01", "L02", "L03", "L04"], TrueModel(easy_first, quit=quit), players=3000,
               draws=20, rng=5)  # fmt: skip
    b = funnel(["L01", "L02", "L03", "L04"], TrueModel(hard_first, quit=quit), players=3000,
               draws=20, rng=5)  # fmt: skip
    c = compare_funnels(a, b, labels=("easy first", "hard first"))
    big_a = FunnelWorld(easy_first, quit=quit).funnel(100_000, draws=1, rng=11)
    big_b = FunnelWorld(hard_first, quit=quit).funnel(100_000, draws=1, rng=12)
    truth = big_b.value("reach")[-1] - big_a.value("reach")[-1]
    v, lo, hi = c.reach_difference[-1]
    assert c.paired and lo - 0.005 <= truth <= hi + 0.005 and abs(v - truth) < 0.02
    assert c.summary().startswith("easy first brings more players to the last level")
    same = compare_funnels(a, a)
    assert np.all(same.reach_difference == 0.0)
