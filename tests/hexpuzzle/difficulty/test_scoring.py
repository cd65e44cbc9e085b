"""Difficulty score (SPEC H9): every part computed by hand on small levels, statuses, rounding."""

from __future__ import annotations

import pytest

from labkit.hexpuzzle.difficulty.scoring import band, js_round, parts_from, score
from labkit.hexpuzzle.level import STRAIGHT, Level
from labkit.hexpuzzle.tap_trace import trace_tap
from tests.hexpuzzle.helpers import complete


def test_js_round_is_half_up_unlike_python_round():
    assert [js_round(x) for x in (0.5, 1.5, 2.5, 20.5, 20.49999, -0.5, -1.5)] == [
        1,
        2,
        3,
        21,
        20,
        0,
        -1,
    ]
    assert round(2.5) == 2  # Python's banker's rounding would be wrong here


def test_band_edges():
    assert [band(t) for t in (29, 30, 49, 50, 69, 70)] == [
        "easy",
        "intermediate",
        "intermediate",
        "hard",
        "hard",
        "challenge",
    ]


def test_two_tiles_one_grazing_the_other_by_hand():
    # a at (1,1) heading up grazes b at (0,0) (SPEC H5); b leaves at once.
    d = score(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=2))
    assert (d.N, d.T, d.W, d.F, d.R, d.K, d.M) == (2, 0.0, 2, 1, 0, 2, 2)
    assert d.parts["size"] == pytest.approx(2 / 37 * 15)  # 0.8108
    assert d.parts["turns"] == 0.0
    assert d.parts["layers"] == pytest.approx(1 / 9 * 20)  # W-1 = 1 layer beyond the first
    assert d.parts["blocking"] == pytest.approx(7.5)  # half the tiles cannot leave at first
    assert d.parts["rotation"] == 0.0
    assert d.parts["pressure"] == pytest.approx(10.0)  # M - K = 0: full pressure
    assert d.total == 21  # 0.811 + 2.222 + 7.5 + 10 = 20.53
    assert d.display == {
        "size": 1,
        "turns": 0,
        "layers": 2,
        "blocking": 8,
        "rotation": 0,
        "pressure": 10,
    }
    assert (d.status, d.band) == ("ok", "easy")


def test_one_turning_track_by_hand():
    # Cell (0,-1) turns port 3 to port 1, so tile a passes one turn; b leaves straight away.
    tracks = {c: STRAIGHT for c in Level.hexagon(2).board.cells}
    tracks[(0, -1)] = tuple(complete({3: 1}))
    level = Level.hexagon(2, tracks=tracks, tiles=[("a", 0, 0, 0), ("b", -2, 2, 3)], move_limit=4)
    assert trace_tap(level, "a").planned.turns == 1 and trace_tap(level, "b").planned.turns == 0
    d = score(level)
    assert (d.N, d.T, d.W, d.F, d.R, d.K, d.M) == (2, 0.5, 1, 2, 0, 2, 4)
    assert d.parts["turns"] == pytest.approx(0.5 / 5 * 20)  # 2.0
    assert d.parts["layers"] == 0.0 and d.parts["blocking"] == 0.0
    assert d.parts["pressure"] == 0.0  # 1 - 2/max(1, 0.8) < 0, clamped
    assert d.total == 3  # 0.811 + 2.0


def test_shipped_one_turn_level_by_hand():
    d = score(Level.load("data/levels/02-one-turn.json"))
    # Tiles t0, t2 leave at once (F = 2); one clockwise turn releases t1, t3 then t4: W = 3.
    assert (d.N, d.W, d.F, d.R, d.K, d.M) == (5, 3, 2, 1, 5, 6)
    assert d.T == pytest.approx((0 + 2 + 0 + 2 + 7) / 5)
    expected = {
        "size": 5 / 37 * 15,
        "turns": 2.2 / 5 * 20,
        "layers": 2 / 9 * 20,
        "blocking": (1 - 2 / 5) * 15,
        "rotation": 1 / 4 * 20,
        "pressure": (1 - 1 / 2) * 10,
    }
    assert d.parts == pytest.approx(expected)
    assert d.total == js_round(sum(expected.values())) == 34
    assert d.band == "intermediate"


def test_display_parts_may_not_add_up_to_the_total():
    # N=1, T=1.1, W=1, F=0, R=1, M=K+1: 0.405 + 4.4 + 0 + 15 + 5 + 0 = 24.8 -> 25, shown 0+4+15+5.
    parts = parts_from(1, 1.1, 1, 0, 1, 1, 2)
    assert parts == pytest.approx(
        {"size": 15 / 37, "turns": 4.4, "layers": 0, "blocking": 15, "rotation": 5, "pressure": 0}
    )
    assert js_round(sum(parts.values())) == 25
    assert sum(js_round(v) for v in parts.values()) == 24


def test_statuses():
    empty = score(Level.hexagon(2))
    assert (empty.status, empty.total, empty.band, empty.parts) == ("invalid_empty", 0, None, {})
    stuck = Level.hexagon(2, tiles=[("a", 0, 0, 3), ("b", 0, 1, 0)], move_limit=2)
    d = score(stuck)
    assert (d.status, d.total, d.band, d.W, d.R) == ("unsolvable", None, None, None, None)
    assert d.parts["layers"] is None and d.parts["blocking"] == pytest.approx(15.0)
    assert score(stuck, max_states=2).status == "undetermined"
    short = score(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=1))
    assert (short.status, short.parts["pressure"]) == ("too_few_steps", 10.0)
    assert short.total == 21


def test_difficulty_renders_as_html_table_and_dict():
    d = score(Level.load("data/levels/02-one-turn.json"))
    html = d._repr_html_()
    assert "<table>" in html and "intermediate" in html and "rotation" in html
    assert d.to_dict()["parts"]["rotation"] == 5.0
    assert str(d).startswith("one-turn: 34 (intermediate)")
