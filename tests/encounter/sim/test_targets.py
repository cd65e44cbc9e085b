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


def _said(call, *args):
    with pytest.raises(ArgumentError) as err:
        call(*args)
    return str(err.value)


KNOWN = "npc_win, monster_win, step_limit, mutual_death, steps, turns, encounters"


def test_each_refusal_is_one_exact_line():
    assert (
        _said(parse_target, "wins=0.5") == f"targets: unknown outcome, known: {KNOWN} (got 'wins')"
    )
    assert _said(Target, "wins", 0, 1) == f"targets: unknown outcome, known: {KNOWN} (got 'wins')"
    assert _said(parse_target, "npc_win~0.5") == (
        "targets: write OUTCOME=VALUE±TOL, OUTCOME=LOW:HIGH or OUTCOME<VALUE (got 'npc_win~0.5')"
    )
    assert _said(parse_target, 0.5) == (  # not text at all: the same line, not a TypeError
        "targets: write OUTCOME=VALUE±TOL, OUTCOME=LOW:HIGH or OUTCOME<VALUE (got 0.5)"
    )
    for text in ("steps=50±0", "steps=50±-1", "steps=a:b"):
        assert _said(parse_target, text) == (
            f"targets: bad numbers (VALUE±TOL with TOL > 0, or LOW:HIGH) (got {text!r})"
        )
    assert _said(Target, "steps", 60, 60) == (  # equal ends are no band
        "targets: needs a band low < high with at least one finite end (got (60, 60))"
    )
    assert _said(Target, "steps") == (
        "targets: needs a band low < high with at least one finite end (got (-inf, inf))"
    )


def test_slack_is_the_distance_to_the_nearer_end():
    t = Target("steps", 60, 90)  # scale 15
    assert (t.slack(85.0), t.slack(89.0), t.slack(61.0)) == (5.0, 1.0, 1.0)


def test_the_sentences_of_the_other_rates_and_lengths():
    said = {
        "step_limit>=0.1": "at least 10 % of games end at the step limit",
        "step_limit=0.1:0.2": "10–20 % of games end at the step limit",
        "mutual_death<=0.05": "fewer than 5 % of games end with both sides dead",
        "steps>=40": "a game lasts at least 40 steps on average",
        "turns<=12": "a game lasts at most 12 turns on average",
        "monster_win=0.2:0.4": "the monster side wins 20–40 % of games",
    }
    assert {text: parse_target(text).sentence() for text in said} == said


def test_two_games_have_a_normal_interval_one_has_none():
    m, lo, hi = estimate("steps", np.array([1.0, 3.0]))  # sd sqrt(2), half 1.96 sqrt(2)/sqrt(2)
    assert (m, lo, hi) == pytest.approx((2.0, 2.0 - 1.96, 2.0 + 1.96))


def test_a_confirmation_interval_touching_an_edge_is_unsure_not_a_miss():
    # an interval whose top is the band's low end (or whose bottom is its high end) still holds
    # a value inside the band: it cannot be called NOT met
    t = Target("npc_win", 0.48, 0.52)
    assert t.verdict(0.47, 0.48) == "unsure"
    assert t.verdict(0.52, 0.53) == "unsure"
    assert t.verdict(0.47, 0.4799) == "NOT met" and t.verdict(0.5201, 0.53) == "NOT met"
