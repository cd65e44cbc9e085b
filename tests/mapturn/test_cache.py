"""Active-enemy cache patches (M6) and a state machine: the cache always equals a fresh rebuild."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from labkit.mapturn.cache import runtime_id

from .helpers import game, number

ROOM = """
#######
#H.s..#
#..c.i#
#.r...#
#######
"""


def fresh(engine, floor):
    """What a rebuild would hold, computed without touching the engine's cache."""
    return sorted(
        (runtime_id(floor, x, y, e.id), x, y, e.id) for x, y, e in engine.world.scan_enemies(floor)
    )


def test_remove_and_sync_drop_the_gauge():
    engine, _ = game(ROOM)
    engine.consume_time(1)
    assert engine.gauge("F1", 3, 1) == 1.0
    engine.world.remove_block("F1", 3, 1)
    assert "F1:3:1:slow" not in engine.state.gauges["F1"]
    engine.world.set_block("F1", 3, 1, number(engine.world, "s"))
    assert ("F1:3:1:slow", 3, 1, "slow") in engine.cache.entries("F1")
    assert engine.gauge("F1", 3, 1) == 0.0  # sync: fresh gauge


def test_move_block_migrates_once_and_keeps_the_gauge():
    engine, _ = game(ROOM)
    engine.consume_time(1)
    v0 = engine.cache.version
    engine.world.move_block("F1", 3, 1, "RR")
    assert engine.gauge("F1", 5, 1) == 1.0 and engine.cache.version == v0 + 1
    assert engine.cache.depth == 0
    engine.world.jump_block("F1", 5, 1, 1, 3)
    assert engine.gauge("F1", 1, 3) == 1.0


def test_move_without_keep_ends_with_remove_cell():
    engine, _ = game(ROOM)
    engine.world.move_block("F1", 3, 1, "D", keep=False)
    assert "slow" not in [e[3] for e in engine.cache.entries("F1")]
    assert engine.world.block("F1", 3, 2) == number(engine.world, "c")  # landing cell untouched


def test_hide_and_show():
    engine, _ = game(ROOM)
    engine.world.hide_block("F1", 5, 2)
    assert "idler" not in [e[3] for e in engine.cache.entries("F1")]
    engine.world.show_block("F1", 5, 2)
    assert "idler" in [e[3] for e in engine.cache.entries("F1")]


def test_batch_removal_rebuilds_once():
    engine, _ = game(ROOM)
    scans = engine.world.scans
    engine.world.remove_blocks_by_indexes("F1", [1 * 7 + 3, 2 * 7 + 5])
    assert engine.world.scans == scans + 1
    assert [e[3] for e in engine.cache.entries("F1")] == ["chaser"]


def test_entering_a_floor_rebuilds_it():
    engine, _ = game(ROOM, "#####\n#.i.#\n#####")
    scans = engine.world.scans
    engine.world.change_floor("F2", 1, 1)
    assert engine.world.scans == scans + 1
    assert engine.cache.entries("F2") == [("F2:2:1:idler", 2, 1, "idler")]


class CacheMachine(RuleBasedStateMachine):
    """Random block operations and ticks; the cache must always match a rebuild."""

    def __init__(self):
        super().__init__()
        self.engine, _ = game(ROOM, "#####\n#.i.#\n#s..#\n#####")
        self.world = self.engine.world
        self.letters = ["s", "c", "i", "r", "#", "p"]

    def cell(self, data):
        floor = self.world.floor
        h, w = self.world.shape(floor)
        return floor, data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1))

    @rule(data=st.data())
    def remove(self, data):
        self.world.remove_block(*self.cell(data))

    @rule(data=st.data(), letter=st.sampled_from(["s", "c", "i", "r", "#", "p"]))
    def put(self, data, letter):
        floor, x, y = self.cell(data)
        if (x, y) != (self.world.hero.x, self.world.hero.y):
            self.world.set_block(floor, x, y, number(self.world, letter))

    @rule(data=st.data(), show=st.booleans())
    def hide_or_show(self, data, show):
        (self.world.show_block if show else self.world.hide_block)(*self.cell(data))

    @rule(data=st.data())
    def batch(self, data):
        floor, x, y = self.cell(data)
        _, x2, y2 = self.cell(data)
        w = self.world.shape(floor)[1]
        self.world.remove_blocks_by_indexes(floor, [y * w + x, y2 * w + x2])

    @rule(data=st.data(), keep=st.booleans(), jump=st.booleans())
    def move(self, data, keep, jump):
        floor, x, y = self.cell(data)
        _, tx, ty = self.cell(data)
        if (tx, ty) == (self.world.hero.x, self.world.hero.y):
            return
        if jump:
            self.world.jump_block(floor, x, y, tx, ty, keep=keep)
        elif tx != x:
            self.world.move_block(floor, x, y, ("R" if tx > x else "L") * abs(tx - x), keep=keep)

    @rule(data=st.data())
    def enemy_moves(self, data):
        floor, x, y = self.cell(data)
        _, tx, ty = self.cell(data)
        if (tx, ty) != (self.world.hero.x, self.world.hero.y) and self.world.enemy_at(floor, x, y):
            self.world.move_enemy_on_point(floor, x, y, tx, ty)

    @rule(n=st.integers(1, 3))
    def tick(self, n):
        self.engine.consume_time(n)

    @rule()
    def other_floor(self):
        target = "F2" if self.world.floor == "F1" else "F1"
        self.world.change_floor(target, 3 if target == "F2" else 1, 1)

    @invariant()
    def cache_equals_rebuild(self):
        for floor in self.engine.cache.by_floor:
            ours = sorted(self.engine.cache.entries(floor))
            assert ours == fresh(self.engine, floor)
            gauges = self.engine.state.gauges.get(floor, {})
            assert set(gauges) <= {e[0] for e in ours}  # gauges reset by design may be missing
        assert self.engine.cache.depth == 0


TestCacheMachine = CacheMachine.TestCase
TestCacheMachine.settings = settings(max_examples=60, stateful_step_count=25)


def test_every_move_patch_raises_the_version_even_back_to_its_origin():
    # M6: "a version counter rises on every rebuild or patch"; a move ends with one migrate.
    engine, _ = game(ROOM)
    engine.consume_time(1)
    v0 = engine.cache.version
    assert engine.world.move_block("F1", 3, 1, "RL")
    assert engine.cache.version == v0 + 1
    assert engine.gauge("F1", 3, 1) == 1.0  # the same instance: its gauge is carried
    engine.world.jump_block("F1", 3, 1, 3, 1)
    assert engine.cache.version == v0 + 2 and engine.gauge("F1", 3, 1) == 1.0
