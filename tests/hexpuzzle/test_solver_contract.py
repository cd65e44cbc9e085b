"""Solver (SPEC H7) contract details: errors name the argument and value, texts, stages.

Expected values are worked by hand from the rules (and from ``trace_tap`` for which tile is free),
never read back from the solver.
"""

from __future__ import annotations

import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.contacts import contact_table
from labkit.hexpuzzle.solving.solver import (
    Action,
    Solution,
    Stage,
    _shipped,
    play_actions,
    search,
    solve,
)
from labkit.hexpuzzle.status import SolutionStatus
from labkit.hexpuzzle.tap_trace import trace_tap

# b (at the centre, heading down-left) is free; a's path grazes b, so a goes in a second layer.
TWO_LAYERS = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
# two straight tracks facing each other: they block each other at every orientation
MUTUAL = Level.hexagon(2, tiles=[("a", 0, 0, 3), ("b", 0, 1, 0)])


def test_action_text_says_tap_or_signed_rotation():
    assert str(Action("tap", "t1")) == "tap t1"
    assert str(Action("rotate", 1)) == "rotate +1"
    assert str(Action("rotate", -1)) == "rotate -1"


def test_solution_status_string_becomes_the_enum_and_a_bad_one_is_refused():
    sol = Solution("unsolvable", expanded=6)
    assert sol.status is SolutionStatus.UNSOLVABLE and not sol.solved
    assert str(sol) == "unsolvable after 6 states"
    with pytest.raises(ValueError, match="'won'"):
        Solution("won")


def test_solution_text_lists_rotations_taps_and_actions():
    sol = Solution("solved", (Action("rotate", -1), Action("tap", "x"), Action("tap", "y")), 1, 4)
    assert (sol.taps, sol.operations) == (2, 3)
    assert str(sol) == (
        "solved with 1 rotation(s), 2 taps (4 states expanded): rotate -1, tap x, tap y"
    )


def test_two_layers_at_the_start_orientation_are_the_stages():
    outcomes = (trace_tap(TWO_LAYERS, "a").outcome, trace_tap(TWO_LAYERS, "b").outcome)
    assert outcomes == ("blocked", "exit")
    sol = solve(TWO_LAYERS)
    assert (sol.status, sol.rotations, sol.expanded) == ("solved", 0, 0)
    assert sol.stages == (Stage(0, (("b",), ("a",))),)
    assert sol.layers == (("b",), ("a",))
    assert sol.actions == (Action("tap", "b"), Action("tap", "a"))


def test_orientation_is_taken_modulo_six():
    table = contact_table(Level.load(_shipped("02-one-turn.json")))
    # orientation -1 is orientation 5, and 6 is 0: the same search, the same stages
    for given, same in ((-1, 5), (6, 0), (11, 5)):
        got, want = search(table, given, table.full), search(table, same, table.full)
        assert got == want
        assert got.stages == want.stages
        assert got.stages[0].orientation == same


def test_solve_needs_a_level_or_a_game_and_names_what_it_got():
    with pytest.raises(TypeError, match=r"got str$"):
        solve("level.json")
    with pytest.raises(TypeError, match=r"got NoneType$"):
        solve(None)


@pytest.mark.parametrize("bad", [0, -3, True, False, 2.5, 1.0, "10"])
def test_max_states_must_be_a_positive_integer(bad):
    with pytest.raises(ArgumentError) as caught:
        solve(MUTUAL, max_states=bad)
    err = caught.value
    assert (err.argument, err.value) == ("max_states", bad)
    assert type(err.value) is type(bad)
    assert str(err) == f"max_states: must be a positive integer (got {bad!r})"


def test_max_states_one_is_allowed_and_stops_after_one_expansion():
    sol = solve(MUTUAL, max_states=1)
    assert (sol.status, sol.expanded, sol.actions) == ("exhausted", 1, ())
    # six states (one per orientation) make the whole space: a cap of 5 cuts it short, a cap
    # of 6 lets the queue run dry first, so the answer is determined
    assert (solve(MUTUAL, max_states=5).status, solve(MUTUAL, max_states=5).expanded) == (
        "exhausted",
        5,
    )
    assert (solve(MUTUAL, max_states=6).status, solve(MUTUAL, max_states=6).expanded) == (
        "unsolvable",
        6,
    )


def test_play_actions_refuses_an_unknown_action_kind_naming_it():
    with pytest.raises(ArgumentError) as caught:
        play_actions(TWO_LAYERS, [("tap", "b"), ("jump", 2)])
    err = caught.value
    assert (err.argument, err.value) == ("actions", "jump")
    assert str(err) == "actions: kind must be 'tap' or 'rotate' (got 'jump')"


def test_shipped_gives_the_path_even_of_a_missing_level():
    path = _shipped("no-such-level.json")
    assert path.name == "no-such-level.json" and path.parent.name == "levels"
    assert not path.exists()
    assert _shipped("02-one-turn.json").is_file()
