"""ProbabilityExplorer driven through its widgets' values, no browser."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.widgets import ProbabilityExplorer


@pytest.fixture
def app():
    """A fresh explorer per test: tests move its sliders, and no test may see another's."""
    return ProbabilityExplorer(n=1500)


def test_table_slider_moves_the_curve_and_the_estimate(app):
    before_line = app.curves["hit"].get_ydata().copy()
    before = app.stats.outcomes
    app.hit[5].value = 40  # index +1: 30 % -> 40 %
    assert app.curves["hit"].get_ydata()[5] == 40 and before_line[5] == 30
    assert app.balance.hit_table[5] == 0.40
    assert app.stats.outcomes != before


def test_priority_slope_and_clamp_move_the_bars(app):
    app.slope.value = 10
    app.clamp.value = (30, 70)
    heights = [b.get_height() for b in app.prio_bars]
    assert heights == pytest.approx([30, 30, 40, 50, 60, 70, 70])
    app.slope.value, app.clamp.value = 20, (10, 90)
    assert [b.get_height() for b in app.prio_bars] == pytest.approx([10, 10, 30, 50, 70, 90, 90])


def test_loadout_change_updates_text_and_rounds(app):
    app.side["a"]["weapon"].value = "revolver"
    text = app.text.value
    heights = [b.get_height() for b in app.round_bars]
    assert "A: hit 3" in text and sum(heights) == pytest.approx(1.0)
    app.side["b"]["retreat_at"].value = 3
    assert app.stats.outcomes["b_escaped"] + app.stats.outcomes["a_wins"] > 0
    assert app.text.value != text


def test_broken_table_shows_an_error_and_keeps_the_last_valid_one(app):
    good = app.balance
    app.pursuit[3].value = 2  # 10 % -> 2 %: no longer increasing
    assert "increasing" in app.text.value and app.error
    assert app.balance is good
    app.pursuit[3].value = 10
    assert app.error is None and np.allclose(app.balance.pursuit_table, good.pursuit_table)


def test_first_strike_share_is_shown(app):
    assert "A strikes first" in app.text.value
    # Knife first strike 2 ties the monster (1 + claws 1): agility 2 vs 0 decides, 90 %.
    assert 0.85 < app.stats.first_strike_a < 0.95
