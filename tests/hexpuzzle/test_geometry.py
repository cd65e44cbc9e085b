"""Tile paths over a board (SPEC H4): legs, the exit run, the Bézier track, loops, caching."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit.hexpuzzle import Level, tile_path, trace_tap
from labkit.hexpuzzle.coords import centre, port_midpoint
from tests.hexpuzzle.helpers import random_level, ring_loop_level


def test_path_shape_straight_legs_and_exit_run():
    lvl = Level.hexagon(2)
    p = tile_path(lvl.board, 0, 0, 2)  # down-right: (1,0), (2,0), then off the board
    assert [v[0] for v in p.visits] == [(1, 0), (2, 0)]
    assert p.points.shape == (1 + 1 + 2 * 20 + 1, 2)
    assert np.allclose(p.points[0], centre(0, 0))
    assert np.allclose(p.points[1], port_midpoint(0, 0, 2))
    exit_mid = port_midpoint(2, 0, 2)
    assert np.allclose(p.points[-2], exit_mid)
    assert math.dist(p.points[-1], exit_mid) == pytest.approx(2.0)
    assert p.turns == 0 and p.outcome == "exit"


def test_tile_at_the_rim_heading_out_leaves_directly():
    p = tile_path(Level.hexagon(2).board, 0, -2, 0)
    assert (
        p.visits == ()
        and p.points.shape == (3, 2)
        and p.length == pytest.approx(0.866 + 2, abs=1e-3)
    )


def test_bezier_track_follows_h4_control_points():
    lvl = Level.hexagon(1, tracks={c: [1, 0, 3, 2, 5, 4] for c in Level.hexagon(1).board.cells})
    p = tile_path(lvl.board, 0, 0, 3)  # enters (0,1) through port 0, leaves through port 1
    (cell, entry, exit) = p.visits[0]
    assert (cell, entry, exit) == ((0, 1), 0, 1)
    assert p.outcome == "loop" and p.turns == 3  # three sharp turns close a small loop
    c = np.array(centre(0, 1))
    m0, m1 = np.array(port_midpoint(0, 1, 0)), np.array(port_midpoint(0, 1, 1))
    ctrl = [m0, m0 + 0.5 * (c - m0), m1 + 0.5 * (c - m1), m1]
    t = 0.35  # sample 7 of 20
    want = sum(
        w * q for w, q in zip([(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3], ctrl)
    )
    assert np.allclose(p.points[1 + 7], want)


def test_loop_is_detected_and_covers_one_cycle():
    lvl = ring_loop_level()
    p = tile_path(lvl.board, 0, 0, 0)
    assert p.outcome == "loop"
    assert [v[0] for v in p.visits] == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, 0)]
    assert np.allclose(p.points[-1], port_midpoint(0, -1, 3))  # closes where the cycle began
    assert trace_tap(lvl, "spin").outcome == "loop"


def test_loop_that_touches_a_tile_is_blocked():
    lvl = ring_loop_level(tiles=(("spin", 0, 0, 0), ("rock", 1, 0, 0)))
    t = trace_tap(lvl, "spin")
    assert t.outcome == "blocked" and t.blocker == "rock"


def test_paths_are_cached_per_board_and_read_only():
    lvl = random_level(1)
    t = lvl.tiles[0]
    a = tile_path(lvl.board, t.q, t.r, t.dir)
    assert tile_path(lvl.rotated(6).board, t.q, t.r, t.dir) is a
    with pytest.raises(ValueError):
        a.points[0, 0] = 1.0
