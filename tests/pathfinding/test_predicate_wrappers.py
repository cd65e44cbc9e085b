"""The two rule wrappers of ``labkit.pathfinding.predicate`` over any ``base`` predicate.

``NoTilePassPredicate(n, base)``: ``base``'s rules, and never enter tile number ``n``.
``NoCornerCutting(base)``: ``base``'s rules, and a diagonal step also needs both orthogonal
steps from the current cell to pass (grid_path's 8-way rule). Both keep ``base.should_hit``.
Expected values are worked by hand on 3x3 maps.
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit.pathfinding import (
    Direction,
    GameMap,
    NoCornerCutting,
    NoTilePassPredicate,
    PassCheck,
)

from .conftest import WALL

DIAGONALS = {(1, -1), (1, 1), (-1, 1), (-1, -1)}
NEIGHBOURS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


class Anything:
    """A permissive base: every step passes, whatever the map; hits where the state says."""

    def __init__(self):
        self.asked = []

    def can_pass(self, check):
        self.asked.append(check)
        return True

    def should_hit(self, check):
        return check.state == "bump"


class Refuse:
    def can_pass(self, check):
        return False

    def should_hit(self, check):
        return False


class ClosedByState:
    """A stateful base: the cells listed in ``check.state`` cannot be entered."""

    def can_pass(self, check):
        return check.next not in (check.state or ())

    def should_hit(self, check):
        return False


def step(m, dx, dy, state=None, start=(1, 1)):
    x, y = start
    return PassCheck(start, (x + dx, y + dy), Direction.from_offset(dx, dy), m, state)


def open_map():
    return GameMap([WALL], event=np.zeros((3, 3), dtype=int))


# -- NoTilePassPredicate ----------------------------------------------------------------------


def test_no_tile_asks_its_base_first():
    m = GameMap([WALL], event=[[0, 1, 0]])
    p = NoTilePassPredicate(30)  # the wall is not the forbidden number; the base refuses it
    assert not p.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, m))
    assert p.can_pass(PassCheck((1, 0), (0, 0), Direction.LEFT, GameMap([], event=[[0, 0]])))
    refused = NoTilePassPredicate(30, base=Refuse())
    assert not refused.can_pass(
        PassCheck((0, 0), (1, 0), Direction.RIGHT, GameMap([], event=[[0, 0]]))
    )


def test_no_tile_uses_the_given_base_and_its_hits():
    base = Anything()
    p = NoTilePassPredicate(WALL.number, base=base)
    m = GameMap([WALL], event=[[0, 0, 1]])
    assert p.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, m))
    assert base.asked  # the given base was consulted, not a fresh default
    assert not p.can_pass(PassCheck((1, 0), (2, 0), Direction.RIGHT, m))  # the forbidden number
    # the default rules would refuse to leave a wall: the permissive base allows it
    assert p.can_pass(PassCheck((2, 0), (1, 0), Direction.LEFT, m))
    assert p.should_hit(PassCheck((0, 0), (1, 0), Direction.RIGHT, m, "bump"))
    assert not p.should_hit(PassCheck((0, 0), (1, 0), Direction.RIGHT, m, None))


def test_no_tile_without_a_map_or_event_layer_cannot_pass_even_if_the_base_could():
    p = NoTilePassPredicate(30, base=Anything())
    assert p.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, None)) is False
    no_event = GameMap([], event=None, layers={"ground": np.zeros((1, 2), dtype=int)})
    assert p.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, no_event)) is False


# -- NoCornerCutting --------------------------------------------------------------------------


def test_open_map_every_step_passes():
    m = open_map()
    p = NoCornerCutting()
    for dx, dy in NEIGHBOURS:
        assert p.can_pass(step(m, dx, dy)) is True, (dx, dy)


@pytest.mark.parametrize("wall", NEIGHBOURS)
def test_a_wall_beside_the_centre_closes_exactly_the_steps_that_touch_it(wall):
    """Centre (1, 1); one wall among its eight neighbours. A step is refused when it enters
    the wall, or when it is diagonal and the wall is one of its two orthogonal side cells."""
    event = np.zeros((3, 3), dtype=int)
    event[1 + wall[1], 1 + wall[0]] = WALL.number
    m = GameMap([WALL], event=event)
    p = NoCornerCutting()
    for dx, dy in NEIGHBOURS:
        sides = {(dx, 0), (0, dy)} if (dx, dy) in DIAGONALS else set()
        want = (dx, dy) != wall and wall not in sides
        assert p.can_pass(step(m, dx, dy)) is want, (wall, (dx, dy))


def test_the_base_refusing_refuses_orthogonal_and_diagonal_steps():
    m = open_map()
    p = NoCornerCutting(base=Refuse())
    for dx, dy in NEIGHBOURS:
        assert p.can_pass(step(m, dx, dy)) is False


def test_the_given_base_judges_the_side_steps_with_the_same_map_and_state():
    m = open_map()
    base = Anything()
    p = NoCornerCutting(base=base)
    assert p.can_pass(step(m, 1, 1, state="s")) is True
    # the diagonal itself, then its two side steps, each with the caller's map and state
    assert [(c.next, c.direction) for c in base.asked] == [
        ((2, 2), Direction.DOWN_RIGHT),
        ((2, 1), Direction.RIGHT),
        ((1, 2), Direction.DOWN),
    ]
    assert all(c.map is m and c.state == "s" and c.curr == (1, 1) for c in base.asked)
    assert p.should_hit(step(m, 1, 1, state="bump"))
    assert not p.should_hit(step(m, 1, 1, state=None))


def test_a_stateful_base_closes_a_corner_through_the_state():
    m = open_map()
    p = NoCornerCutting(base=ClosedByState())
    assert p.can_pass(step(m, 1, 1, state=set())) is True
    assert p.can_pass(step(m, 1, 1, state={(2, 1)})) is False  # a side cell closed by state
    assert p.can_pass(step(m, 1, 1, state={(1, 2)})) is False
    assert p.can_pass(step(m, 1, 1, state={(0, 1)})) is True  # not beside this diagonal
