"""Solver (SPEC H7): contact table vs trace, kernels vs references, BFS vs a readable BFS, hints."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from labkit.hexpuzzle import _kernels
from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving import _kernels as _solver_kernels
from labkit.hexpuzzle.solving.contacts import contact_table
from labkit.hexpuzzle.solving.solver import Action, play_actions, solve
from labkit.hexpuzzle.tap_trace import trace_tap
from tests.hexpuzzle.helpers import random_level, ring_loop_level
from tests.hexpuzzle.solving.test_contacts import _exits_by_trace


def _closure_reference(exits, blockers, remaining):
    """Readable closure: repeat 'remove every tile that can exit now' until nothing changes."""
    layers = []
    while True:
        layer = [
            i
            for i in range(len(exits))
            if remaining >> i & 1 and exits[i] and not int(blockers[i]) & remaining
        ]
        if not layer:
            return remaining, layers
        layers.append(sum(1 << i for i in layer))
        remaining &= ~sum(1 << i for i in layer)


def test_closure_kernel_matches_reference_and_py_func():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        exits = rng.random(n) < 0.7
        blockers = np.array(
            [int(rng.integers(0, 1 << n)) & ~(1 << i) for i in range(n)], dtype=np.int64
        )
        start = int(rng.integers(0, 1 << n))
        want = _closure_reference(exits, blockers, start)
        for fn in (_solver_kernels.closure_layers, _solver_kernels.closure_layers.py_func):
            out = np.zeros(n + 1, dtype=np.int64)
            left, count = fn(exits, blockers, np.int64(start), out)
            assert (int(left), [int(x) for x in out[:count]]) == want


def test_path_blockers_kernel_matches_py_func_and_one_by_one_sweeps():
    level = random_level(3, radius=3, n_tiles=12)
    table = contact_table(level)
    for i, t in enumerate(level.tiles):
        path = trace_tap(level, t.id).path
        hits = set()
        for j in range(len(level.tiles)):
            only = np.zeros(len(level.tiles), dtype=np.bool_)
            only[j] = True
            if j != i and _kernels.sweep(path, level.tile_centres, only, i, 1.76)[1] >= 0:
                hits.add(j)
        assert {j for j in range(len(level.tiles)) if table.blockers[0, i] >> j & 1} == hits
        starts = np.array([0, len(path)], dtype=np.int64)
        skip = np.array([i], dtype=np.int64)
        py = _solver_kernels.path_blockers.py_func(path, starts, skip, level.tile_centres, 1.76)
        assert set(np.flatnonzero(py[0])) == hits


def _reference_bfs(level: Level, max_states: int = 20_000):
    """H7 spelled out with trace_tap(): returns (status, rotations, expanded)."""

    def close(o, mask):
        while True:
            now = _exits_by_trace(level, o, mask)
            if not now:
                return mask
            mask &= ~now

    start = (0, close(0, (1 << len(level.tiles)) - 1))
    depth = {start: 0}
    if start[1] == 0:
        return "solved", 0, 0
    queue, expanded = deque([start]), 0
    while queue:
        if expanded >= max_states:
            return "exhausted", None, expanded
        o, mask = queue.popleft()
        expanded += 1
        for step in (1, -1) if level.can_rotate else ():
            child = ((o + step) % 6, close((o + step) % 6, mask))
            if child in depth:
                continue
            depth[child] = depth[(o, mask)] + 1
            if child[1] == 0:
                return "solved", depth[child], expanded
            queue.append(child)
    return "unsolvable", None, expanded


@pytest.mark.parametrize("seed", range(10))
def test_solver_matches_readable_bfs_and_replays(seed):
    level = random_level(100 + seed, radius=2, n_tiles=4 + seed % 4, move_limit=20)
    sol = solve(level)
    assert (sol.status, sol.rotations, sol.expanded) == _reference_bfs(level)
    if sol.solved:
        assert sol.taps == len(level.tiles)
        assert sol.operations == len(level.tiles) + sol.rotations
        assert play_actions(level, sol.actions).status == "won"
    else:
        assert sol.actions == ()


def test_mutual_block_is_unsolvable_after_all_six_orientations():
    # Straight tracks stay straight when turned: the two tiles block each other forever.
    level = Level.hexagon(2, tiles=[("a", 0, 0, 3), ("b", 0, 1, 0)])
    sol = solve(level)
    assert (sol.status, sol.expanded, sol.rotations) == ("unsolvable", 6, None)
    cut = solve(level, max_states=3)
    assert (cut.status, cut.expanded) == ("exhausted", 3)
    fixed = Level.hexagon(2, tiles=[("a", 0, 0, 3), ("b", 0, 1, 0)], rotation_enabled=False)
    assert (solve(fixed).status, solve(fixed).expanded) == ("unsolvable", 1)


def test_a_looping_tile_is_released_by_turning_the_board():
    level = ring_loop_level()
    assert trace_tap(level, "spin").outcome == "loop"
    sol = solve(level)
    assert sol.actions == (Action("rotate", -1), Action("tap", "spin"))
    fixed = level.replace(rotation_enabled=False)
    assert (solve(fixed).status, solve(fixed).expanded) == ("unsolvable", 1)


def test_first_found_order_clockwise_first():
    level = Level.load("data/levels/02-one-turn.json")
    sol = solve(level)
    assert sol.rotations == 1 and sol.status == "solved"
    assert [a for a in sol.actions if a.kind == "rotate"] == [Action("rotate", 1)]
    assert [s.orientation for s in sol.stages] == [0, 1]


def test_solve_from_a_game_state_and_bad_inputs():
    level = Level.load("data/levels/03-two-turns.json")
    game = PuzzleState(level)
    game.rotate(1)
    sol = solve(game)
    assert sol.solved and play_actions(game, sol.actions).status == "won"
    with pytest.raises(ValueError, match="max_states"):
        solve(level, max_states=0)
    with pytest.raises(TypeError, match="Level or a PuzzleState"):
        solve("level.json")
