"""Targets of a multi-target tune: the three spellings, their bands, misses, slack and scales,
the sentences a designer reads, the text that parses back, refusals, and the estimate's
interval (Wilson for a rate, normal for a mean) computed here by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.encounter.sim.targets import Target, estimate, parse_target


@pytest.mark.parametrize(
    "text, low, high",
    [
        ("npc_win=0.5±0.02", 0.48, 0.52),
        ("npc_win=0.5+-0.02", 0.48, 0.52),
        ("npc_win = 0.5 +/- 0.1", 0.4, 0.6),
        ("steps=60:90", 60.0, 90.0),
        ("step_limit<0.05", -math.inf, 0.05),
        ("steps<=70", -math.inf, 70.0),
        ("steps>=40", 40.0, math.inf),
        ("steps>40", 40.0, math.inf),
    ],
)
def test_the_three_spellings_give_their_bands(text, low, high):
    t = parse_target(text)
    assert (t.low, t.high) == (low, high)
    assert parse_target(t.to_text()) == t
    assert parse_target(t) is t


def test_miss_slack_and_holds_inside_and_outside_the_band():
    t = Target("steps", 60, 90)
    assert t.scale == 15.0  # half the band
    assert (t.miss(50.0), t.miss(75.0), t.miss(100.0)) == (10.0, 0.0, 10.0)
    assert (t.slack(75.0), t.slack(65.0), t.slack(50.0)) == (15.0, 5.0, 0.0)
    assert t.holds(60.0) and t.holds(90.0) and not t.holds(90.5)


def test_a_one_sided_target_scales_by_its_bound():
    assert Target("steps", low=40.0).scale == 40.0
    assert Target("step_limit", high=0.05).scale == 0.05
    assert Target("step_limit", high=0.0).scale == 0.01  # a rate bounded at zero
    assert Target("step_limit", high=0.05).miss(0.08) == pytest.approx(0.03)


def test_sentences_say_the_target_in_words():
    assert parse_target("npc_win=0.5±0.02").sentence() == "the NPC side wins 48–52 % of games"
    assert parse_target("npc_win>=0.6").sentence() == "the NPC side wins at least 60 % of games"
    assert parse_target("monster_win<=0.3").sentence() == (
        "the monster side wins at most 30 % of games"
    )
    assert parse_target("steps=60:90").sentence() == "a game lasts 60–90 steps on average"
    assert parse_target("step_limit<0.05").sentence() == (
        "fewer than 5 % of games end at the step limit"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("wins=0.5", "unknown outcome"),
        ("npc_win~0.5", "write OUTCOME=VALUE±TOL"),
        ("npc_win=0.5±0", "bad numbers"),
        ("steps=90:60", "bad numbers"),
        ("steps=a:b", "bad numbers"),
    ],
)
def test_bad_targets_are_refused_naming_targets(text, message):
    with pytest.raises(ArgumentError, match=message) as err:
        parse_target(text)
    assert err.value.argument == "targets"


def test_a_band_needs_low_below_high_and_one_finite_end():
    with pytest.raises(ArgumentError, match="needs a band low < high"):
        Target("steps", 90, 60)
    with pytest.raises(ArgumentError, match="at least one finite end"):
        Target("steps")
    with pytest.raises(ArgumentError, match="unknown outcome"):
        Target("wins", 0, 1)


def test_a_rate_estimate_has_wilsons_interval():
    m, lo, hi = estimate("npc_win", np.array([1, 0, 1, 1.0]))
    z, n, k = 1.959963984540054, 4, 3
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    assert m == 0.75
    assert lo == pytest.approx(centre - half, abs=1e-3)
    assert hi == pytest.approx(centre + half, abs=1e-3)


def test_a_mean_estimate_has_the_normal_interval():
    values = np.array([50.0, 60.0, 70.0, 80.0])
    m, lo, hi = estimate("steps", values)
    sd = math.sqrt(((15**2) * 2 + (5**2) * 2) / 3)  # deviations ±15, ±5 around 65
    assert m == 65.0
    assert hi - m == pytest.approx(1.96 * sd / 2) and m - lo == pytest.approx(1.96 * sd / 2)
    one = estimate("steps", np.array([42.0]))
    assert one[0] == 42.0 and one[1] == -math.inf and one[2] == math.inf
