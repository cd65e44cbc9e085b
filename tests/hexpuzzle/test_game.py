"""The game rules (SPEC H6): steps, the queue, status, rotation, restart, undo; a state machine."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from labkit import ArgumentError
from labkit.hexpuzzle import Level, LevelError, PuzzleError, PuzzleState, trace_tap
from tests.hexpuzzle.helpers import random_level


def test_steps_queue_and_status():
    lvl = Level.hexagon(2, tiles=[("a", 0, 1, 0), ("b", 0, -2, 5), ("c", 2, 0, 2)], move_limit=3)
    game = PuzzleState(lvl)
    done = game.tap_queue(["a", "b", "c"])  # a is blocked by b: the queue is cleared
    assert [t.outcome for t in done] == ["blocked"] and game.steps_left == 2
    done = game.tap_queue(["b", "b", "a"])  # the second "b" is gone: dropped without cost
    assert [t.tile for t in done] == ["b", "a"] and game.steps_left == 0
    assert game.status == "lost" and game.remaining == ("c",)
    with pytest.raises(PuzzleError, match="over"):
        game.tap("c")
    game.undo()
    assert game.steps_left == 2 and game.remaining == ("a", "b", "c")
    game.undo()
    assert game.steps_left == 3 and not game.can_undo
    assert [t.outcome for t in game.tap_queue(["c", "b", "a"])] == ["exit"] * 3
    assert game.status == "won"


def test_unknown_tile_in_queue_fails_before_anything_moves():
    game = PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 0)]))
    with pytest.raises(LevelError):
        game.tap_queue(["a", "nope"])
    assert game.remaining == ("a",) and game.steps_used == 0


def test_rotation_costs_no_step_and_changes_the_rules():
    lvl = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 0, -1, 0)], tracks=[1, 0, 3, 2, 5, 4])
    game = PuzzleState(lvl)
    before = trace_tap(game, "b").visits
    game.rotate(+1)
    assert game.steps_left == lvl.move_limit and game.rotations == 1 and game.orientation == 1
    assert trace_tap(game, "b").visits != before
    game.rotate(-1)
    assert game.orientation == 0 and game.rotations == 2
    with pytest.raises(ArgumentError, match="step: rotate one step"):
        game.rotate(2)


def test_fixed_boards_refuse_rotation():
    with pytest.raises(PuzzleError, match="cannot rotate"):
        PuzzleState(Level.hexagon(2, rotation_enabled=False, tiles=[("a", 0, 0, 0)])).rotate(1)


def test_restart_is_a_fresh_load_and_undo_needs_history():
    lvl = random_level(4)
    game = PuzzleState(lvl)
    with pytest.raises(PuzzleError, match="nothing to undo"):
        game.undo()
    game.rotate(1)
    game.tap(lvl.tiles[0].id)
    game.restart()
    assert game.snapshot() == PuzzleState(lvl).snapshot() and not game.can_undo
    assert game.level is lvl


LEVELS = [random_level(s, n_tiles=n, move_limit=m) for s, n, m in [(0, 5, 7), (1, 7, 9), (2, 4, 4)]]


class GameMachine(RuleBasedStateMachine):
    """Undo restores exactly; restart equals a fresh load; six turns are the identity."""

    @initialize(level=st.sampled_from(LEVELS))
    def start(self, level):
        self.level = level
        self.game = PuzzleState(level)
        self.stack = []

    def _act(self, action):
        before = self.game.snapshot()
        acted = action()
        if acted:
            self.stack.append(before)

    @precondition(lambda self: self.game.status == "playing")
    @rule(data=st.data())
    def tap(self, data):
        tile = data.draw(st.sampled_from(self.game.remaining))
        used = self.game.steps_used
        self._act(lambda: self.game.tap(tile))
        assert self.game.steps_used == used + 1

    @precondition(lambda self: self.game.status == "playing")
    @rule(data=st.data())
    def queue(self, data):
        ids = data.draw(st.lists(st.sampled_from([t.id for t in self.level.tiles]), max_size=4))
        used = self.game.steps_used
        done = []
        self._act(lambda: done.extend(self.game.tap_queue(ids)) or done)
        assert self.game.steps_used == used + len(done)
        assert all(t.outcome == "exit" for t in done[:-1])

    @precondition(lambda self: self.game.status == "playing")
    @rule(step=st.sampled_from([1, -1]))
    def rotate(self, step):
        self._act(lambda: self.game.rotate(step) or True)

    @precondition(lambda self: self.game.status == "playing")
    @rule()
    def six_turns(self):
        snap = self.game.snapshot()
        outcomes = [trace_tap(self.game, t).outcome for t in self.game.remaining]
        for _ in range(6):
            self._act(lambda: self.game.rotate(1) or True)
        assert self.game.orientation == snap.orientation
        assert self.game.rotations == snap.rotations + 6
        assert [trace_tap(self.game, t).outcome for t in self.game.remaining] == outcomes

    @precondition(lambda self: self.stack)
    @rule()
    def undo(self):
        self.game.undo()
        assert self.game.snapshot() == self.stack.pop()

    @rule()
    def restart(self):
        self.game.restart()
        self.stack.clear()
        assert self.game.snapshot() == PuzzleState(self.level).snapshot()

    @invariant()
    def consistent(self):
        g = self.game
        assert 0 <= g.steps_used <= self.level.move_limit
        assert g.status == (
            "won" if not g.remaining else "lost" if g.steps_left == 0 else "playing"
        )
        assert g.can_undo == bool(self.stack)


TestGameMachine = GameMachine.TestCase


TestGameMachine.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
