"""The world of a map-turn tower: reading cells (hidden ones read empty), the enemy scan in
row-major order of scheduled enemies only, passability and walls, every block operation with its
event, moves and jumps, floor changes, and the snapshot of blocks and hero. Towers are drawn in
ASCII (``helpers``), so every cell is known."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.mapturn import World, parse_tower
from labkit.mapturn.defs import TowerError
from tests.mapturn.helpers import number, tower_doc

FLOOR = """
#####
#H.s#
#i.r#
#.p.#
#####
"""  # s: slow (cost 2), i: idler (cost 1), r: rock (cost 0, never scheduled), p: a potion


def world(*floors: str) -> tuple[World, list]:
    w = World(parse_tower(tower_doc(*(floors or (FLOOR,)))))
    events: list = []
    w.subscribe(events.append)
    return w, events


def test_reading_cells_kinds_and_enemies():
    w, _ = world()
    assert w.shape("F1") == (5, 5) and w.floor == "F1"
    assert (w.hero.x, w.hero.y) == (1, 1)
    assert w.inside("F1", 4, 4) and not w.inside("F1", 5, 0) and not w.inside("F1", 0, -1)
    assert w.kind("F1", 0, 0) == ("terrain", "wall")
    assert w.kind("F1", 3, 1) == ("enemy", "slow") and w.enemy_at("F1", 3, 1).id == "slow"
    assert w.kind("F1", 2, 1) is None and w.block("F1", 2, 1) == 0
    assert w.enemy_at("F1", 2, 3) is None  # the potion is no enemy


def test_the_scan_finds_scheduled_enemies_in_row_major_order_once():
    w, _ = world()
    found = [(x, y, e.id) for x, y, e in w.scan_enemies("F1")]
    assert found == [(3, 1, "slow"), (1, 2, "idler")]  # the rock (time cost 0) is not scheduled
    assert w.scans == 1


def test_passable_and_walls():
    w, _ = world()
    walk = w.passable("F1")
    assert walk.tolist() == [[False] * 5,
                             [False, True, True, False, False],
                             [False, False, True, False, False],
                             [False, True, False, True, False],
                             [False] * 5]  # fmt: skip
    assert not walk.flags.writeable and w.passable("F1") is walk  # cached while unchanged
    walls = w.walls("F1")
    assert walls[0].all() and not walls[1, 3] and not walls[3, 2]  # enemies, items: no walls
    w.remove_block("F1", 3, 1)
    assert w.passable("F1")[1, 3] and w.passable("F1") is not walk


def test_block_operations_notify_once_each():
    w, events = world()
    w.hide_block("F1", 1, 2)
    assert w.block("F1", 1, 2) == 0 and w.scan_enemies("F1")[-1][2].id == "slow"
    w.show_block("F1", 1, 2)
    w.set_block("F1", 2, 1, number(w, "i"))
    w.remove_block("F1", 3, 2)
    w.remove_blocks_by_indexes("F1", [1 * 5 + 3, 2 * 5 + 1])
    assert [e.kind for e in events] == ["hide", "show", "set", "remove", "remove_many"]
    assert events[2].x == 2 and events[2].y == 1
    assert events[-1].points == ((3, 1), (1, 2))
    assert [(x, y) for x, y, _ in w.scan_enemies("F1")] == [(2, 1)]
    with pytest.raises(TowerError, match="not in the legend"):
        w.set_block("F1", 2, 1, 9999)
    with pytest.raises(TowerError, match="outside floor F1"):
        w.remove_block("F1", 9, 9)
    with pytest.raises(TowerError, match="unknown floor"):
        w.remove_block("F7", 1, 1)


def test_moves_and_jumps_land_or_vanish_between_begin_and_end():
    w, events = world()
    slow = w.block("F1", 3, 1)
    assert w.move_block("F1", 3, 1, "LD")  # left then down: to (2, 2)
    assert w.block("F1", 2, 2) == slow and w.block("F1", 3, 1) == 0
    assert [e.kind for e in events] == ["move_begin", "remove", "set", "move_end"]
    assert (events[0].to_x, events[0].to_y) == (2, 2)
    events.clear()
    assert w.jump_block("F1", 2, 2, 3, 3, keep=False)  # vanishes: no "set"
    assert [e.kind for e in events] == ["move_begin", "remove", "move_end"]
    assert w.block("F1", 3, 3) == 0
    assert not w.move_block("F1", 2, 1, "R")  # an empty cell moves nothing
    with pytest.raises(TowerError, match="one of U, D, L, R"):
        w.move_block("F1", 1, 2, "X")


def test_an_enemy_moves_at_once_and_the_hero_changes_floor():
    w, events = world(FLOOR, "###\n#.#\n###")
    idler = w.block("F1", 1, 2)
    w.move_enemy_on_point("F1", 1, 2, 2, 2)
    assert (w.block("F1", 1, 2), w.block("F1", 2, 2)) == (0, idler)
    w.change_floor("F2", 1, 1, by_load=True)
    assert [e.kind for e in events] == ["enemy_moved", "floor_changed"]
    assert events[-1].by_load and w.floor == "F2" and (w.hero.x, w.hero.y) == (1, 1)
    w.unsubscribe(events.append)
    w.change_floor("F1", 1, 1)
    assert len(events) == 2


def test_the_snapshot_holds_every_floor_hidden_cells_and_the_hero():
    w, _ = world()
    w.hide_block("F1", 3, 2)
    doc = w.to_dict()
    assert doc["floors"]["F1"]["hidden"] == [[3, 2]]
    assert np.array_equal(np.array(doc["floors"]["F1"]["map"]), w.floors["F1"])
    assert doc["hero"] | {"items": None} == {"floor": "F1", "x": 1, "y": 1, "hp": 100, "atk": 10,
                                             "def": 0, "items": None, "dead": False}  # fmt: skip
