"""Tick order (cache.py's module rule): enemies act in row-major ``(y, x)`` order of their
positions at the start of the tick; only ``timeCost > 0`` enemies are scheduled (M6).

Written from the rule, not from a run: the expected order is sorted here from the drawn map.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import game

W, H = 6, 5  # inner room; a wall ring around it


def room(cells: dict[tuple[int, int], str]) -> str:
    rows = ["#" * (W + 2)]
    for y in range(1, H + 1):
        row = "#"
        for x in range(1, W + 1):
            row += "H" if (x, y) == (1, 1) else cells.get((x, y), ".")
        rows.append(row + "#")
    rows.append("#" * (W + 2))
    return "\n".join(rows)


spots = st.dictionaries(
    st.tuples(st.integers(1, W), st.integers(1, H)).filter(lambda p: p != (1, 1)),
    st.sampled_from("iir"),  # idlers (timeCost 1) and rocks (timeCost 0, never scheduled)
    min_size=1,
    max_size=10,
)


@settings(max_examples=25, deadline=None)
@given(spots)
def test_enemies_act_in_row_major_order_of_their_cells(cells):
    engine, _ = game(room(cells))
    engine.consume_time(1)
    acted = [who for turn, who, what in engine.log if what == "idle"]
    idlers = sorted((y, x) for (x, y), ch in cells.items() if ch == "i")
    assert acted == [f"F1:{x}:{y}:idler" for y, x in idlers]  # rocks never act, y before x
    assert engine.cache.entries("F1") == [(f"F1:{x}:{y}:idler", x, y, "idler") for y, x in idlers]


def test_a_moved_enemy_takes_its_place_in_the_order_of_its_new_cell():
    # (4,1) acts before (2,2) until it is moved below it, to (3,3): then (2,2) comes first
    engine, _ = game(room({(4, 1): "i", (2, 2): "i"}))
    engine.consume_time(1)
    assert [w for _, w, _ in engine.log] == ["F1:4:1:idler", "F1:2:2:idler"]
    engine.world.move_block("F1", 4, 1, "DDL")
    engine.log.clear()
    engine.consume_time(1)
    assert [w for _, w, _ in engine.log] == ["F1:2:2:idler", "F1:3:3:idler"]


def test_same_row_goes_left_to_right_whatever_the_scan_found_first():
    engine, _ = game(room({(6, 3): "i", (1, 3): "i", (3, 3): "i"}))
    engine.consume_time(1)
    assert [w for _, w, _ in engine.log] == ["F1:1:3:idler", "F1:3:3:idler", "F1:6:3:idler"]


def test_a_dropped_instance_loses_its_gauge_and_memory_and_no_other():
    # remove_cell: "drop the entry at a cell and its gauge (and per-instance memory)"
    engine, _ = game(room({(2, 2): "i", (4, 2): "i"}))
    engine.consume_time(1)
    engine.state.memory["F1"] = {"F1:2:2:idler": {"next": 1}, "F1:4:2:idler": {"next": 2}}
    engine.world.remove_block("F1", 2, 2)
    assert engine.state.memory["F1"] == {"F1:4:2:idler": {"next": 2}}
    assert list(engine.state.gauges["F1"]) == ["F1:4:2:idler"]


def test_a_rebuild_marks_every_old_entry_of_the_floor_dropped():
    # alive "turns False when the cache drops it"; a batch removal rebuilds the floor
    engine, _ = game(room({(2, 2): "i", (4, 2): "i"}))
    old = engine.cache.order("F1")
    engine.world.remove_blocks_by_indexes("F1", [2 * (W + 2) + 2])
    assert [e.alive for e in old] == [False, False]  # both old objects, the kept one too
    assert [e.alive for e in engine.cache.order("F1")] == [True]


def test_a_block_moved_onto_an_enemy_overwrites_it_and_its_gauge():
    # migrate_point: the instance at the landing cell is "overwritten by the arriving block"
    engine, _ = game(room({(2, 2): "i", (3, 2): "i"}))
    engine.consume_time(1)
    landed = engine.cache.by_floor["F1"][(3, 2)]
    engine.world.move_block("F1", 2, 2, "R")
    assert landed.alive is False
    assert engine.cache.entries("F1") == [("F1:3:2:idler", 3, 2, "idler")]
    assert engine.cache.by_floor["F1"][(3, 2)] is not landed  # the mover, carried over
    assert engine.state.gauges["F1"] == {"F1:3:2:idler": 0.0}  # the mover's gauge, not both


def test_moves_in_flight_are_counted_so_the_outer_one_still_suppresses_patches():
    from labkit.mapturn.world import WorldEvent

    engine, _ = game(room({(2, 2): "i", (4, 2): "i"}))
    cache = engine.cache
    cache.order("F1")
    begin = WorldEvent("move_begin", "F1", 2, 2, 2, 2, True)
    cache.handle(begin)
    cache.handle(begin)
    cache.handle(WorldEvent("move_end", "F1", 2, 2, 2, 2, True))
    assert cache.depth == 1
    cache.handle(WorldEvent("remove", "F1", 4, 2))  # inside the outer move: suppressed
    assert ("F1:4:2:idler", 4, 2, "idler") in cache.entries("F1")
