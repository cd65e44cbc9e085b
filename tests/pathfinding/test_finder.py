"""PathFinder (P5, P6): searches prefer the cheaper detour, terminals end paths, the statuses
and their precedence."""

from __future__ import annotations

import numpy as np

from labkit.pathfinding import (
    FOUR_WAY,
    Direction,
    PathFinder,
)
from tests.pathfinding.conftest import text_map
from tests.pathfinding.test_graph_search import P, S


def test_search_prefers_cheaper_detour(open_3x3):
    cost = np.ones((3, 3))
    cost[0, 1] = 10
    r = PathFinder(open_3x3.event_layer, P, FOUR_WAY, cost=cost).find((0, 0), (2, 0))
    assert r.cost == 4.0 and [1, 0] not in r.path.tolist()


def test_terminals_end_paths_but_never_sit_inside():
    m = text_map(".D.")
    finder = PathFinder(m.event_layer, P, FOUR_WAY)
    assert finder.find((0, 0), (2, 0)).status is S.NO_PATH
    r = finder.find((0, 0), (1, 0))
    assert r.status is S.SUCCESS and r.path.tolist()[-1] == [1, 0]
    # a detour around the door is taken even if dearer
    m = text_map(".D.", "...")
    r = PathFinder(m.event_layer, P, FOUR_WAY).find((0, 0), (2, 0))
    assert r.ok and [1, 0] not in r.path.tolist() and r.cost == 4.0


def test_statuses_and_their_precedence(open_3x3):
    layer = open_3x3.event_layer
    # TARGET_UNDER before building: even with nothing bound, even outside the map
    assert PathFinder(None, None, None).find((5, 5), (5, 5)).status is S.TARGET_UNDER
    assert PathFinder(layer, P, FOUR_WAY).find((1, 1), (1, 1)).status is S.TARGET_UNDER
    assert PathFinder(None, P, FOUR_WAY).find((0, 0), (1, 1)).status is S.INVALID_INPUT
    assert PathFinder(layer, P, FOUR_WAY).find((7, 0), (1, 1)).status is S.INVALID_INPUT
    assert PathFinder(layer, P, FOUR_WAY).find((7, 0), (9, 9)).status is S.INVALID_INPUT
    r = PathFinder(layer, P, FOUR_WAY).find((0, 0), (9, 9))
    assert r.status is S.NO_PATH and r.path.shape == (0, 2)
    r = PathFinder(layer, P, FOUR_WAY).find((0, 0), (2, 1))
    assert r.status is S.SUCCESS and len(r.path) == 4
    assert len(r.steps) == 3 and set(r.steps) <= {Direction.RIGHT, Direction.DOWN}
