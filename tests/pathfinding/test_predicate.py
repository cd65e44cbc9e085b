"""P2–P3: pass bits and the default predicate, written from the SPEC."""

from __future__ import annotations

import numpy as np

from labkit.pathfinding import (
    EIGHT_WAY,
    FOUR_WAY,
    DefaultPassPredicate,
    Direction,
    GameMap,
    MapGraphBuilder,
    NoTilePassPredicate,
    PassBit,
    PassCheck,
    TileDef,
)

from .conftest import text_map

P = DefaultPassPredicate()


def check(m, curr, nxt, d=None):
    if d is None:
        d = Direction.from_offset(nxt[0] - curr[0], nxt[1] - curr[1])
    return PassCheck(curr, nxt, d, m)


def two_cells(tile_a: TileDef | None, tile_b: TileDef | None, vertical=False) -> GameMap:
    tiles = [t for t in (tile_a, tile_b) if t is not None]
    table = {t.number: t for t in tiles}
    nums = [0 if t is None else t.number for t in (tile_a, tile_b)]
    grid = [[nums[0]], [nums[1]]] if vertical else [nums]
    return GameMap(table, event=grid)


def test_out_pass_says_where_one_may_leave():
    m = two_cells(TileDef(1, out_pass=PassBit.RIGHT), None)
    assert P.can_pass(check(m, (0, 0), (1, 0)))
    m = two_cells(TileDef(1, out_pass=PassBit.LEFT | PassBit.UP | PassBit.DOWN), None)
    assert not P.can_pass(check(m, (0, 0), (1, 0)))


def test_moving_up_into_a_cell_checks_its_in_pass_down_bit():
    # cell (0,0) above, (0,1) below; the hero moves Up from (0,1) into (0,0).
    enter_from_below = TileDef(1, in_pass=PassBit.DOWN)
    enter_from_above = TileDef(2, in_pass=PassBit.UP)
    m = two_cells(enter_from_below, None, vertical=True)
    assert P.can_pass(check(m, (0, 1), (0, 0)))
    m = two_cells(enter_from_above, None, vertical=True)
    assert not P.can_pass(check(m, (0, 1), (0, 0)))


def test_pass_bits_are_tested_with_and_not_equality():
    many = TileDef(1, in_pass=PassBit.DOWN | PassBit.RIGHT, out_pass=PassBit.UP | PassBit.LEFT)
    m = two_cells(many, None, vertical=True)
    assert P.can_pass(check(m, (0, 1), (0, 0)))  # enter from below: DOWN bit among others
    # leaving (0,0) downwards needs the DOWN bit in out_pass, which is absent
    assert not P.can_pass(check(m, (0, 0), (0, 1)))


def test_event_pass_is_not_a_pass_bit():
    door = TileDef(1, event_pass=False)
    m = two_cells(None, door)
    c = check(m, (0, 0), (1, 0))
    assert P.can_pass(c) and P.should_hit(c)


def test_no_handler_or_unknown_direction_cannot_pass(open_3x3):
    assert not DefaultPassPredicate(face=None).can_pass(check(open_3x3, (1, 1), (1, 0)))
    assert not P.can_pass(PassCheck((1, 1), (1, 1), Direction.UNKNOWN, open_3x3))


def test_no_map_or_no_event_layer_cannot_pass():
    assert not P.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, None))
    m = GameMap([], event=None, layers={"ground": np.zeros((1, 2), dtype=int)})
    assert not P.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, m))
    assert not P.should_hit(PassCheck((0, 0), (1, 0), Direction.RIGHT, m))


def test_every_event_layer_tile_counts_flagged_or_not():
    for only in (False, True):
        wall = TileDef(1, in_pass=0, out_pass=0, only_events=only)
        m = two_cells(None, wall)
        assert not P.can_pass(check(m, (0, 0), (1, 0)))
        m = two_cells(wall, None)
        assert not P.can_pass(check(m, (0, 0), (1, 0)))  # leaving checks the current cell


def test_other_layers_count_only_only_events_tiles():
    painted_wall = TileDef(1, in_pass=0, out_pass=0)
    real_wall = TileDef(2, in_pass=0, out_pass=0, only_events=True)
    zeros = np.zeros((1, 2), dtype=int)
    for num, blocks in ((1, False), (2, True)):
        for cell in (0, 1):  # the flagged tile blocks on both the leave and the enter side
            deco = zeros.copy()
            deco[0, cell] = num
            m = GameMap([painted_wall, real_wall], event=zeros, layers={"deco": deco})
            assert P.can_pass(check(m, (0, 0), (1, 0))) is not blocks


def test_only_events_tile_on_other_layer_checks_both_directions():
    one_way = TileDef(1, in_pass=PassBit.LEFT, out_pass=PassBit.RIGHT, only_events=True)
    zeros = np.zeros((1, 3), dtype=int)
    deco = np.array([[0, 1, 0]])
    m = GameMap([one_way], event=zeros, layers={"deco": deco})
    assert P.can_pass(check(m, (0, 0), (1, 0)))  # enter from its left
    assert not P.can_pass(check(m, (2, 0), (1, 0)))  # enter from its right
    assert P.can_pass(check(m, (1, 0), (2, 0)))  # leave rightwards
    assert not P.can_pass(check(m, (1, 0), (0, 0)))  # leave leftwards


def test_cell_without_static_tile_imposes_nothing():
    m = GameMap([], event=np.zeros((2, 2), dtype=int))
    for d in (Direction.RIGHT, Direction.DOWN, Direction.DOWN_RIGHT):
        assert P.can_pass(PassCheck((0, 0), d.offset, d, m))


def test_diagonal_mask_is_union_of_components_and_not_the_reduced_direction():
    # Leaving up-left: mask UP|LEFT. A tile allowing only LEFT passes (reduced direction UP
    # would have refused), a tile allowing only DOWN|RIGHT does not.
    left_only = TileDef(1, out_pass=PassBit.LEFT)
    down_right = TileDef(2, out_pass=PassBit.DOWN | PassBit.RIGHT)
    for tile, ok in ((left_only, True), (down_right, False)):
        m = GameMap([tile], event=[[0, 0], [0, tile.number]])
        c = PassCheck((1, 1), (0, 0), Direction.UP_LEFT, m)
        assert P.can_pass(c) is ok
    assert FOUR_WAY.reduce(Direction.UP_LEFT) is Direction.UP
    # entering: the next cell's in_pass is tested against the opposite union DOWN|RIGHT
    enter_right = TileDef(3, in_pass=PassBit.RIGHT)
    m = GameMap([enter_right], event=[[3, 0], [0, 0]])
    assert P.can_pass(PassCheck((1, 1), (0, 0), Direction.UP_LEFT, m))


def test_eight_way_open_3x3_gives_centre_eight_edges(open_3x3):
    g = MapGraphBuilder(open_3x3.event_layer, P, EIGHT_WAY).build((1, 1))
    assert int((g.edges[g.node(1, 1)] >= 0).sum()) == 8
    g4 = MapGraphBuilder(open_3x3.event_layer, P, FOUR_WAY).build((1, 1))
    assert int((g4.edges[g4.node(1, 1)] >= 0).sum()) == 4


def test_should_hit_reads_the_next_cell_on_the_event_layer_only():
    door = TileDef(1, event_pass=False, only_events=True)
    m = two_cells(None, door)
    assert P.should_hit(check(m, (0, 0), (1, 0)))
    assert not P.should_hit(check(m, (1, 0), (0, 0)))  # the current cell does not matter
    zeros = np.zeros((1, 2), dtype=int)
    m = GameMap([door], event=zeros, layers={"deco": [[0, 1]]})
    assert not P.should_hit(check(m, (0, 0), (1, 0)))


def test_only_static_tiles_are_read():
    wall = TileDef(1, in_pass=0, out_pass=0, event_pass=False)
    m = GameMap([wall], event=np.zeros((1, 2), dtype=int))
    m.event_layer.dynamic[(1, 0)] = 1  # an NPC standing there as a dynamic tile
    c = check(m, (0, 0), (1, 0))
    assert P.can_pass(c) and not P.should_hit(c)


def test_default_predicate_is_stateless():
    m = text_map(".#D", "...")
    cases = [check(m, (0, 0), (1, 0)), check(m, (1, 1), (2, 0)), check(m, (0, 1), (0, 0))]
    a, b = DefaultPassPredicate(), DefaultPassPredicate()
    first = [(a.can_pass(c), a.should_hit(c)) for c in cases]
    again = [(a.can_pass(c), a.should_hit(c)) for c in reversed(cases)][::-1]
    other = [(b.can_pass(c), b.should_hit(c)) for c in cases]
    assert first == again == other
    assert vars(a) == vars(b)


def test_custom_predicate_forbids_one_tile_number_keeps_hits():
    lava = TileDef(30, name="lava")
    door = TileDef(2, event_pass=False)
    m = GameMap([lava, door], event=[[0, 30, 2]])
    p = NoTilePassPredicate(30)
    assert P.can_pass(check(m, (0, 0), (1, 0)))
    assert not p.can_pass(check(m, (0, 0), (1, 0)))
    assert p.can_pass(check(m, (1, 0), (2, 0))) and p.should_hit(check(m, (1, 0), (2, 0)))
