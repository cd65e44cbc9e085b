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
    assert "must be higher than the one to its left" in app.text.value and app.error
    assert app.balance is good
    assert app.pursuit[3].value == 10  # the slider snaps back to the last valid value
    app.pursuit[5].value = 25
    assert app.error is None and app.balance.pursuit_table[5] == 0.25
    app.pursuit[5].value = round(100 * good.pursuit_table[5])
    assert np.allclose(app.balance.pursuit_table, good.pursuit_table)


def test_error_is_in_the_apps_terms_and_blames_the_moved_slider(app):
    # The case: +3 moved from 60 to 80 while +4 is 75. Before: the message read
    # "/tables/hit_table/8: must be strictly increasing (got np.float64(0.75))", blaming +4.
    good = app.balance
    app.hit[7].value = 80
    assert app.error.startswith("hit % at +3 = 80 %"), app.error
    assert "+4 is 75 %" in app.error and "np." not in app.error and "/tables" not in app.error
    assert app.hit[7].value == 60 and app.balance is good
    assert app.curves["hit"].get_ydata()[7] == 60  # slider and curve agree


def test_curve_marks_the_current_matchup(app):
    a, b = app.fighters()
    i = max(-4, min(4, a.hit - b.agility))
    assert app.mark_a.get_xdata()[0] == i
    assert app.mark_a.get_ydata()[0] == 100 * app.balance.hit_table[i + 4]


def test_solve_for_agility_hit_level_and_table_entry():
    app = ProbabilityExplorer(n=500)
    app.side["a"]["weapon"].value = "revolver"  # A: hit 3 against B's agility 0 -> index +3
    a, b = app.fighters()
    table = [s.value for s in app.hit]  # 2 4 8 14 20 30 45 60 75
    r = app.solve_for(45, "agility")
    # 45 % sits at index +2: agility = hit level - 2
    assert r["exact"] and r["value"] == a.hit - 2 and table[r["index"] + 4] == 45
    r = app.solve_for(50, "agility")
    assert not r["exact"] and "45 %" in r["text"] and "60 %" in r["text"]
    r = app.solve_for(30, "hit level")
    assert r["exact"] and r["value"] == b.agility + 1
    r = app.solve_for(70, "table entry")  # index +3 lies between 45 and 75
    assert r["feasible"] and app.hit[7].value == 60  # shown, not yet applied
    app.apply_goal()
    assert app.hit[7].value == 70 and app.balance.hit_table[7] == 0.70
    r = app.solve_for(90, "table entry")
    assert not r["feasible"] and app.hit[7].value == 70 and "between" in app.goal.answer.value


def test_pin_shows_two_balance_versions_side_by_side():
    app = ProbabilityExplorer(n=500)
    app.pin()
    before = app.stats.outcomes
    app.hit[6].value = 59  # index +2, A's blow against the monster: 45 % -> 59 %
    assert "<th>pinned</th><th>now</th>" in app.text.value
    assert app.pinned_stats.outcomes == before and app.stats.outcomes != before
    assert list(app.pinned_line.get_ydata())[6] == 45
    app.unpin()
    assert "pinned" not in app.text.value and len(app.pinned_line.get_xdata()) == 0


def test_first_strike_share_is_shown(app):
    assert "A strikes first" in app.text.value
    # Knife first strike 2 ties the monster (1 + claws 1): agility 2 vs 0 decides, 90 %.
    assert 0.85 < app.stats.first_strike_a < 0.95


def test_solve_button_and_a_second_balance_version_given_up_front():
    from labkit.encounter.rules.balance import default_balance

    other = default_balance().replace(hit_table=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    app = ProbabilityExplorer(n=500, compare=other)
    assert "<th>pinned</th><th>now</th>" in app.text.value
    assert list(app.pinned_line.get_ydata()) == pytest.approx([10, 20, 30, 40, 50, 60, 70, 80, 90])
    app.goal.target.value, app.goal.what.value = 20, "hit level"
    app.goal.button.click()
    assert app.goal.answer.value.startswith("A hit level") and "20 %" in app.goal.answer.value


def test_goal_seek_refuses_an_unknown_quantity_naming_it():
    from labkit import ArgumentError
    from labkit.widgets._probability_goal import solve

    with pytest.raises(ArgumentError) as err:
        solve([5, 10, 20, 35, 50, 65, 80, 90, 95], 3, 3, 50.0, what="luck")
    assert err.value.argument == "what"
    assert str(err.value) == "what: must be 'agility', 'hit level' or 'table entry' (got 'luck')"
