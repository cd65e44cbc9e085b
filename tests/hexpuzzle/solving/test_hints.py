"""Hints: they follow a minimum-rotation solution to the end, and answer when there is none."""

from __future__ import annotations

from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.hints import advise, hint
from labkit.hexpuzzle.solving.solver import solve


def test_hints_follow_a_minimum_rotation_solution_to_the_end():
    level = Level.load("data/levels/03-two-turns.json")
    game = PuzzleState(level)
    best = solve(level).rotations
    while game.status == "playing":
        kind, arg = hint(game)
        game.tap(arg) if kind == "tap" else game.rotate(arg)
    assert game.status == "won" and game.rotations == best
    assert game.hints_used == len(level.tiles) + best
    assert advise(game).status == "won" and game.hints_used == len(level.tiles) + best + 1


def test_hint_answers_when_there_is_no_solution():
    stuck = PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 3), ("b", 0, 1, 0)], move_limit=5))
    advice = advise(stuck)
    assert (advice.status, advice.action) == ("unsolvable", None)
    assert "no solution from here" in advice.message
    assert advise(stuck, max_states=2).status == "undetermined"
    short = PuzzleState(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=2))
    short.tap("a")  # blocked: one step gone, two tiles left
    assert advise(short).status == "out_of_steps" and hint(short) is None
    assert short.hints_used == 2
