"""P0, P5, P6: graph building, search and statuses, with references for both kernels."""

from __future__ import annotations

import heapq
import warnings

import numpy as np
import pytest

from labkit.pathfinding import (
    EIGHT_WAY,
    FOUR_WAY,
    CostWarning,
    DefaultPassPredicate,
    Direction,
    DirectionHandler,
    GameMap,
    MapGraphBuilder,
    PathFinder,
    PathfindingStatus,
    TileDef,
    _kernels,
    grid_path,
)

from .conftest import WALL, text_map

P = DefaultPassPredicate()
S = PathfindingStatus


class PerEdge:
    """The default rules behind a plain object: forces the builder's per-edge path."""

    def __init__(self):
        self.base = DefaultPassPredicate()
        self.calls = 0

    def can_pass(self, check):
        self.calls += 1
        return self.base.can_pass(check)

    def should_hit(self, check):
        return self.base.should_hit(check)


def build(m, start, face=FOUR_WAY, predicate=P, cost=None):
    return MapGraphBuilder(m.event_layer, predicate, face, cost).build(start)


def test_build_needs_layer_predicate_handler_and_start_inside(open_3x3):
    layer = open_3x3.event_layer
    assert MapGraphBuilder(None, P, FOUR_WAY).build((0, 0)) is None
    assert MapGraphBuilder(layer, None, FOUR_WAY).build((0, 0)) is None
    assert MapGraphBuilder(layer, P, None).build((0, 0)) is None
    assert MapGraphBuilder(layer, P, FOUR_WAY).build((3, 0)) is None
    assert MapGraphBuilder(layer, P, FOUR_WAY).build((0, -1)) is None
    assert MapGraphBuilder(layer, P, FOUR_WAY).build((2, 2)) is not None


def test_builder_asks_the_predicate():
    spy = PerEdge()
    g = build(text_map("...", "..."), (0, 0), predicate=spy)
    assert spy.calls > 0 and len(g) == 6


def test_only_reachable_nodes_enter_the_graph():
    m = text_map("..#..", "..#..")
    g = build(m, (0, 0))
    assert len(g) == 4 and g.node(3, 0) == -1 and g.node(2, 0) == -1


def test_cannot_pass_means_no_edge_and_no_expansion():
    # ">" may be entered only from its left: from the right there is no edge.
    m = text_map(".>.")
    g = build(m, (2, 0))
    assert g.node(1, 0) == -1 and len(g) == 1
    g = build(m, (0, 0))
    assert g.node(2, 0) >= 0


def test_hit_neighbour_gets_an_edge_and_is_terminal_never_expanded():
    m = text_map(".D.")
    g = build(m, (0, 0))
    door = g.node(1, 0)
    assert door >= 0 and g.terminal[door]
    assert door in g.edges[g.node(0, 0)]
    assert g.node(2, 0) == -1  # behind the door: the terminal was not expanded
    assert np.all(g.edges[door] == -1)


def test_a_terminal_start_is_not_expanded():
    m = text_map("D..")
    g = build(m, (0, 0))
    assert len(g) == 1 and bool(g.terminal[0])
    assert PathFinder(m.event_layer, P, FOUR_WAY).find((0, 0), (2, 0)).status is S.NO_PATH


def test_zero_offsets_are_skipped():
    weird = DirectionHandler("with-stay", (Direction.RIGHT, Direction.UNKNOWN))
    assert (0, 0) in [off for _, off in weird.movements()]
    for pred in (P, PerEdge()):
        g = MapGraphBuilder(text_map("...").event_layer, pred, weird).build((0, 0))
        assert len(g) == 3 and all(g.edges[u, j] != u for u in range(3) for j in range(1))


def test_neighbourhood_comes_from_the_direction_handler(open_3x3):
    assert build(open_3x3, (0, 0), FOUR_WAY).edge_count() == 12 * 2
    assert build(open_3x3, (0, 0), EIGHT_WAY).edge_count() == 12 * 2 + 8 * 2
    r4 = PathFinder(open_3x3.event_layer, P, FOUR_WAY).find((0, 0), (2, 2))
    r8 = PathFinder(open_3x3.event_layer, P, EIGHT_WAY).find((0, 0), (2, 2))
    assert (r4.cost, r8.cost) == (4.0, 2.0)


def test_costs_default_to_one_and_path_cost_sums_entered_cells(open_3x3):
    assert np.all(build(open_3x3, (0, 0)).cost == 1)
    cost = np.arange(9, dtype=float).reshape(3, 3) + 1  # [y, x]
    cost[0, 0] = 1000  # the start cell is free
    r = PathFinder(open_3x3.event_layer, P, FOUR_WAY, cost=cost).find((0, 0), (2, 0))
    assert r.cost == cost[0, 1] + cost[0, 2]
    assert r.path.tolist() == [[0, 0], [1, 0], [2, 0]]  # (x, y) points


def test_points_are_x_column_y_row():
    m = text_map("....", "...#")  # 4 columns, 2 rows; wall at x=3, y=1
    g = build(m, (0, 0))
    assert g.index.shape == (2, 4) and g.node(3, 1) == -1 and g.node(3, 0) >= 0


def test_nan_and_negative_costs_warn_once_per_node_per_build_and_count_as_one(open_3x3):
    cost = np.ones((3, 3))
    cost[0, 1] = np.nan
    cost[0, 2] = -5
    finder = PathFinder(open_3x3.event_layer, P, FOUR_WAY, cost=cost)
    for _ in range(2):  # rebuilt per query: the warnings come again
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = finder.find((0, 0), (2, 0))
        assert r.cost == 2.0
        got = sorted(str(w.message) for w in caught if w.category is CostWarning)
        assert len(got) == 2 and "(1, 0)" in got[0] and "(2, 0)" in got[1]


def test_callable_cost_and_infinite_cost_is_accepted(open_3x3):
    finder = PathFinder(open_3x3.event_layer, P, FOUR_WAY, cost=lambda x, y: 3.0 if x == 1 else 1)
    assert finder.find((0, 0), (2, 0)).cost == 4.0
    m = text_map("...")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = PathFinder(m.event_layer, P, FOUR_WAY, cost=np.array([[1, np.inf, 1]])).find(
            (0, 0), (2, 0)
        )
    assert r.status is S.SUCCESS and r.cost == np.inf  # not a passability tool


def test_graph_is_rebuilt_for_every_query():
    m = text_map("...")
    finder = PathFinder(m.event_layer, P, FOUR_WAY)
    assert finder.find((0, 0), (2, 0)).status is S.SUCCESS
    m.event_layer.set_tile(1, 0, WALL.number)
    assert finder.find((0, 0), (2, 0)).status is S.NO_PATH

    class Toggle(PerEdge):
        open = True

        def can_pass(self, check):
            return self.open and super().can_pass(check)

    toggle = Toggle()
    finder = PathFinder(text_map("..").event_layer, toggle, FOUR_WAY)
    assert finder.find((0, 0), (1, 0)).ok
    toggle.open = False
    assert finder.find((0, 0), (1, 0)).status is S.NO_PATH


# -- references -----------------------------------------------------------------------------


def reference_search(edges, cost, terminal, source, target):
    """Readable Dijkstra with heapq and stale-entry skipping."""
    dist = {source: 0.0}
    heap = [(0.0, source)]
    done = set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u == target:
            return d
        if terminal[u]:
            continue
        for v in edges[u]:
            if v >= 0 and v not in done and d + cost[v] < dist.get(v, np.inf):
                dist[v] = d + cost[v]
                heapq.heappush(heap, (dist[v], v))
    return np.inf


def random_map(rng, h, w):
    one_way = TileDef(3, in_pass=int(rng.integers(0, 16)), out_pass=int(rng.integers(0, 16)))
    bg = TileDef(4, in_pass=0, out_pass=0, only_events=bool(rng.integers(2)))
    tiles = [WALL, TileDef(2, event_pass=False), one_way, bg]
    event = rng.choice([0, 0, 0, 0, 1, 2, 3], size=(h, w))
    deco = rng.choice([0, 0, 0, 4], size=(h, w))
    return GameMap(tiles, event=event, layers={"deco": deco})


@pytest.mark.parametrize("face", [FOUR_WAY, EIGHT_WAY], ids=["4way", "8way"])
def test_table_and_per_edge_builders_agree_and_search_matches_reference(face):
    rng = np.random.default_rng(5)
    for _ in range(25):
        h, w = (int(v) for v in rng.integers(1, 9, size=2))
        m = random_map(rng, h, w)
        start = (int(rng.integers(w)), int(rng.integers(h)))
        fast = build(m, start, face)
        slow = build(m, start, face, predicate=PerEdge())
        for name in ("index", "cells", "edges", "terminal"):
            np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name))
        cost = rng.uniform(0.5, 3.0, size=len(fast))
        for t in range(len(fast)):
            dist, _, _ = _kernels.graph_search(fast.edges, cost, fast.terminal, 0, t)
            assert dist[t] == pytest.approx(reference_search(fast.edges, cost, fast.terminal, 0, t))
        full = _kernels.graph_search.py_func(fast.edges, cost, fast.terminal, 0, -1)[0]
        np.testing.assert_allclose(
            _kernels.graph_search(fast.edges, cost, fast.terminal, 0, -1)[0], full
        )


def test_system_level_and_grid_kernel_agree_on_cost():
    """Maps expressible in both: walls as tiles / as blocked cells, a cost field."""
    rng = np.random.default_rng(9)
    for _ in range(20):
        h, w = (int(v) for v in rng.integers(2, 12, size=2))
        walls = rng.random((h, w)) < 0.25
        cost = rng.integers(1, 6, size=(h, w)).astype(float)
        start = (int(rng.integers(w)), int(rng.integers(h)))
        target = (int(rng.integers(w)), int(rng.integers(h)))
        walls[start[1], start[0]] = False
        m = GameMap([WALL], event=np.where(walls, WALL.number, 0))
        r = PathFinder(m.event_layer, P, FOUR_WAY, cost=cost).find(start, target)
        _, total = grid_path(np.where(walls, 0, cost), start, target)
        if start == target:
            assert r.status is S.TARGET_UNDER and total == 0
        elif np.isinf(total):
            assert r.status is S.NO_PATH
        else:
            assert r.status is S.SUCCESS and r.cost == total
        # 8-way without walls: no corner cutting question arises
        r8 = PathFinder(
            GameMap([], event=np.zeros((h, w), int)).event_layer, P, EIGHT_WAY, cost=cost
        ).find(start, target)
        if start != target:
            assert r8.cost == grid_path(cost, start, target, diagonal=True)[1]


def test_builder_asks_a_predicate_whose_methods_are_replaced_on_the_instance():
    """P1: the finder asks the predicate. A default predicate whose ``can_pass`` or
    ``should_hit`` was replaced on the instance (not in a subclass) must be asked too, so the
    finder and a mover holding the same instance agree (P7)."""
    m = text_map("...")
    closed = DefaultPassPredicate()
    closed.can_pass = lambda check: False
    assert PathFinder(m.event_layer, closed, FOUR_WAY).find((0, 0), (2, 0)).status is S.NO_PATH
    bumpy = DefaultPassPredicate()
    bumpy.should_hit = lambda check: check.next == (1, 0)
    g = build(m, (0, 0), predicate=bumpy)
    assert bool(g.terminal[g.node(1, 0)]) and g.node(2, 0) == -1


def test_a_hit_edge_back_into_the_expanded_start_does_not_make_it_terminal():
    """P5/P6: the start is expanded first; a later edge that would bump back into it (a
    custom predicate whose hits depend on the move) cannot turn it into a terminal, or every
    search from it would end with NO_PATH although each step away from it is a plain step."""

    class BumpBackWest(PerEdge):
        def should_hit(self, check):
            return check.next == (0, 0) and check.direction is Direction.LEFT

    m = text_map("...")
    g = build(m, (0, 0), predicate=BumpBackWest())
    assert not bool(g.terminal[0])
    r = PathFinder(m.event_layer, BumpBackWest(), FOUR_WAY).find((0, 0), (2, 0))
    assert r.status is S.SUCCESS and r.path.tolist() == [[0, 0], [1, 0], [2, 0]]


def test_one_corner_rule_for_grid_path_and_the_object_level_search():
    """8-way: the seed's predicate judges a diagonal on its end cells (it may squeeze past a
    wall corner); NoCornerCutting applies grid_path's rule, and then the two agree."""
    from labkit.pathfinding import NoCornerCutting

    # The case in small: a wall at (1, 0); (0, 0) -> (1, 1) diagonally grazes its corner.
    m = GameMap([WALL], event=[[0, WALL.number, 0], [0, 0, 0], [0, 0, 0]])
    seed_rule = PathFinder(m.event_layer, P, EIGHT_WAY).find((0, 0), (1, 1))
    grid_rule = PathFinder(m.event_layer, NoCornerCutting(P), EIGHT_WAY).find((0, 0), (1, 1))
    assert seed_rule.cost == 1 and grid_rule.cost == 2
    walls = np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], bool)
    assert grid_path(np.where(walls, 0, 1.0), (0, 0), (1, 1), diagonal=True)[1] == 2
    rng = np.random.default_rng(18)
    for _ in range(40):
        h, w = (int(v) for v in rng.integers(2, 9, size=2))
        walls = rng.random((h, w)) < 0.3
        cost = rng.integers(1, 6, size=(h, w)).astype(float)
        start = (int(rng.integers(w)), int(rng.integers(h)))
        target = (int(rng.integers(w)), int(rng.integers(h)))
        walls[start[1], start[0]] = False
        if start == target:
            continue
        m = GameMap([WALL], event=np.where(walls, WALL.number, 0))
        r = PathFinder(m.event_layer, NoCornerCutting(P), EIGHT_WAY, cost=cost).find(start, target)
        assert r.cost == grid_path(np.where(walls, 0, cost), start, target, diagonal=True)[1]
