"""P3 in batch: ``DefaultPassPredicate.pass_table`` against a plain reference of the rules.

The reference below is written from the SPEC's words (P2 bits, P3 checks), not from the
predicate: masks come from the move's offset, layers are walked cell by cell.
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit.pathfinding import (
    EIGHT_WAY,
    FOUR_WAY,
    DefaultPassPredicate,
    Direction,
    DirectionHandler,
    GameMap,
    PassBit,
    PassCheck,
    TileDef,
)

ALL8 = (
    Direction.UP,
    Direction.RIGHT,
    Direction.DOWN,
    Direction.LEFT,
    Direction.UP_RIGHT,
    Direction.DOWN_RIGHT,
    Direction.DOWN_LEFT,
    Direction.UP_LEFT,
)
DIAGONALS = ALL8[4:]
HORIZONTAL = DirectionHandler("horizontal", (Direction.RIGHT, Direction.LEFT))


def bits_of(dx: int, dy: int) -> int:
    """P2: Up=1, Right=2, Down=4, Left=8; a diagonal is the union of its two components."""
    return (1 if dy < 0 else 0) | (4 if dy > 0 else 0) | (2 if dx > 0 else 0) | (8 if dx < 0 else 0)


def handled(face, d: Direction, dy: int) -> bool:
    """P3 step 1: no handler refuses; a direction the handler lacks falls back, if diagonal, to
    its vertical component (the seed's 4-way reduction), else is Unknown."""
    if face is None:
        return False
    if d in face.directions:
        return True
    vertical = Direction.UP if dy < 0 else Direction.DOWN
    return d in DIAGONALS and vertical in face.directions


def reference_can(m: GameMap, face, x: int, y: int, d: Direction) -> bool:
    dx, dy = {
        Direction.UP: (0, -1),
        Direction.RIGHT: (1, 0),
        Direction.DOWN: (0, 1),
        Direction.LEFT: (-1, 0),
        Direction.UP_RIGHT: (1, -1),
        Direction.DOWN_RIGHT: (1, 1),
        Direction.DOWN_LEFT: (-1, 1),
        Direction.UP_LEFT: (-1, -1),
    }[d]
    nx, ny = x + dx, y + dy
    if not (0 <= nx < m.width and 0 <= ny < m.height):
        return False  # pass_table: false where the neighbour lies outside
    if not handled(face, d, dy):
        return False
    leave, enter = bits_of(dx, dy), bits_of(-dx, -dy)
    layers = [(m.event_layer, True)] + [(layer, False) for layer in m.layers]
    for layer, is_event in layers:
        for (cx, cy), bits, attr in (((x, y), leave, "out_pass"), ((nx, ny), enter, "in_pass")):
            num = int(layer.tiles[cy, cx])
            if num == 0:
                continue  # no static tile: imposes nothing
            tile = m.tile_table[num]
            if (is_event or tile.only_events) and not (getattr(tile, attr) & bits):
                return False
    return True


def random_map(rng: np.random.Generator, h: int, w: int) -> GameMap:
    tiles = [
        TileDef(1, in_pass=0, out_pass=0),
        TileDef(2, event_pass=False),
        TileDef(3, in_pass=int(rng.integers(16)), out_pass=int(rng.integers(16))),
        TileDef(4, in_pass=int(rng.integers(16)), out_pass=int(rng.integers(16)), only_events=True),
        TileDef(5, in_pass=0, out_pass=0, event_pass=False),
    ]
    event = rng.choice([0, 0, 0, 1, 2, 3, 4, 5], size=(h, w))
    deco = rng.choice([0, 0, 1, 3, 4], size=(h, w))  # 1 and 3 are unflagged: ignored there
    return GameMap(tiles, event=event, layers={"deco": deco})


@pytest.mark.parametrize("face", [FOUR_WAY, EIGHT_WAY, HORIZONTAL, None], ids=str)
def test_pass_table_matches_the_rules_cell_by_cell(face):
    rng = np.random.default_rng(31)
    p = DefaultPassPredicate(face=face)
    for _ in range(12):
        h, w = (int(v) for v in rng.integers(1, 6, size=2))
        m = random_map(rng, h, w)
        can, hit = p.pass_table(m, ALL8)
        assert can.dtype == np.bool_ and can.shape == (h, w, 8)
        assert hit.dtype == np.bool_ and hit.shape == (h, w)
        for y in range(h):
            for x in range(w):
                num = int(m.event_layer.tiles[y, x])
                assert hit[y, x] == (num in (2, 5))  # event_pass false on the event layer
                for k, d in enumerate(ALL8):
                    assert can[y, x, k] == reference_can(m, face, x, y, d), (x, y, d, face)


def test_per_cell_can_pass_matches_the_same_reference():
    rng = np.random.default_rng(32)
    p = DefaultPassPredicate(face=HORIZONTAL)
    for _ in range(6):
        m = random_map(rng, 3, 4)
        for y in range(3):
            for x in range(4):
                for d in ALL8:
                    nx, ny = x + d.offset[0], y + d.offset[1]
                    if 0 <= nx < 4 and 0 <= ny < 3:
                        got = p.can_pass(PassCheck((x, y), (nx, ny), d, m))
                        assert got == reference_can(m, HORIZONTAL, x, y, d)


def test_each_layer_keeps_its_own_leave_and_enter_checks():
    """Hand-worked: an event tile or a flagged decoration closes a side; no layer reopens it."""
    right_only = TileDef(1, out_pass=PassBit.RIGHT)  # event layer, top left
    flagged = TileDef(2, in_pass=PassBit.LEFT, out_pass=PassBit.RIGHT, only_events=True)
    sealed = TileDef(3, in_pass=0)  # event layer, top right: cannot be entered
    m = GameMap(
        [right_only, flagged, sealed],
        event=[[1, 0, 3], [0, 0, 0]],
        layers={"deco": [[0, 2, 0], [0, 0, 0]]},
    )
    can, _ = DefaultPassPredicate().pass_table(m, (Direction.RIGHT, Direction.LEFT, Direction.DOWN))
    want = {  # (x, y): (right, left, down)
        (0, 0): (True, False, False),  # left is outside; down: the event tile leaves only right
        (1, 0): (False, False, False),  # right: sealed; left, down: the decoration leaves right
        (2, 0): (False, False, True),  # left: the decoration is entered from its left only
        (0, 1): (True, False, False),
        (1, 1): (True, True, False),
        (2, 1): (False, True, False),
    }
    for (x, y), row in want.items():
        assert tuple(can[y, x].tolist()) == row, (x, y)


def test_table_only_while_the_default_methods_are_in_place():
    m = GameMap([], event=np.zeros((2, 2), dtype=int))
    assert DefaultPassPredicate().pass_table(m, ALL8) is not None

    class Labelled(DefaultPassPredicate):  # overrides neither rule: still the default
        label = "mine"

    assert Labelled().pass_table(m, ALL8) is not None

    class OwnCan(DefaultPassPredicate):
        def can_pass(self, check):
            return False

    class OwnHit(DefaultPassPredicate):
        def should_hit(self, check):
            return True

    assert OwnCan().pass_table(m, ALL8) is None
    assert OwnHit().pass_table(m, ALL8) is None
    replaced_can = DefaultPassPredicate()
    replaced_can.can_pass = lambda check: False  # a plain function: no ``__func__``
    assert replaced_can.pass_table(m, ALL8) is None
    replaced_hit = DefaultPassPredicate()
    replaced_hit.should_hit = lambda check: True
    assert replaced_hit.pass_table(m, ALL8) is None


def test_no_table_without_a_map_or_an_event_layer():
    p = DefaultPassPredicate()
    assert p.pass_table(None, ALL8) is None
    no_event = GameMap([], event=None, layers={"ground": np.zeros((2, 2), dtype=int)})
    assert p.pass_table(no_event, ALL8) is None
