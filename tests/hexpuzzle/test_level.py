from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labkit.hexpuzzle import STRAIGHT, Level, LevelError, all_matchings
from labkit.hexpuzzle.coords import (
    HEX_DIRECTIONS,
    centre,
    hex_distance,
    hexagon_cells,
    neighbour,
    opposite,
    port_midpoint,
    rotate_cell,
)
from labkit.hexpuzzle.level import _rotate_tracks, is_matching

from .helpers import random_level

GOOD = {
    "version": 2,
    "id": "my-level",
    "name": "转个方向",
    "rotationEnabled": True,
    "moveLimit": 3,
    "cells": [{"q": 0, "r": 0, "tracks": [3, 4, 5, 0, 1, 2]}, {"q": 1, "r": 0, "tracks": STRAIGHT}],
    "tiles": [{"id": "t0", "q": 0, "r": 0, "dir": 1, "color": 0}],
}


def doc(**changes):
    d = copy.deepcopy(GOOD)
    d["cells"] = [dict(c, tracks=list(c["tracks"])) for c in d["cells"]]
    d.update(changes)
    return d


# --- coordinates -----------------------------------------------------------------------------


def test_centres_and_neighbours_follow_h1():
    assert centre(0, -1) == pytest.approx((0.0, -(3**0.5)))  # up is negative y
    for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
        assert neighbour(0, 0, d) == (dq, dr)
        assert hex_distance((0, 0), (dq, dr)) == 1
        mid = port_midpoint(0, 0, d)
        back = port_midpoint(dq, dr, opposite(d))
        assert mid == pytest.approx(back)  # both sides of an edge agree on its midpoint


def test_rotation_step_turns_directions_clockwise():
    for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
        assert rotate_cell(dq, dr) == HEX_DIRECTIONS[(d + 1) % 6]
    assert rotate_cell(2, -1, 6) == (2, -1)
    assert rotate_cell(*rotate_cell(2, -1, 1), -1) == (2, -1)


# --- import limits (H2) --------------------------------------------------------------------

CELL0 = "/cells/0"


def cells_doc(n):
    cells = [{"q": q, "r": r, "tracks": list(STRAIGHT)} for q, r in hexagon_cells(4)]
    return cells[:n]


BAD = [
    (
        "not a matching",
        doc(cells=[{"q": 0, "r": 0, "tracks": [1, 2, 0, 4, 5, 3]}]),
        "/cells/0/tracks",
    ),
    (
        "self-connected port",
        doc(cells=[{"q": 0, "r": 0, "tracks": [0, 2, 1, 4, 3, 5]}]),
        "/cells/0/tracks/0",
    ),
    (
        "port out of range",
        doc(cells=[{"q": 0, "r": 0, "tracks": [3, 4, 5, 0, 1, 6]}]),
        "/cells/0/tracks/5",
    ),
    ("five ports", doc(cells=[{"q": 0, "r": 0, "tracks": [3, 4, 5, 0, 1]}]), "/cells/0/tracks"),
    ("62 cells", doc(cells=cells_doc(61) + [{"q": 5, "r": 0, "tracks": list(STRAIGHT)}]), "/cells"),
    ("no cells", doc(cells=[]), "/cells"),
    ("radius 5", doc(cells=[{"q": 3, "r": 2, "tracks": list(STRAIGHT)}]), CELL0),
    ("moveLimit 0", doc(moveLimit=0), "/moveLimit"),
    ("moveLimit 1000", doc(moveLimit=1000), "/moveLimit"),
    ("moveLimit float", doc(moveLimit=3.5), "/moveLimit"),
    ("colour 4", doc(tiles=[{"id": "t0", "q": 0, "r": 0, "dir": 1, "color": 4}]), "/tiles/0/color"),
    ("dir 6", doc(tiles=[{"id": "t0", "q": 0, "r": 0, "dir": 6}]), "/tiles/0/dir"),
    (
        "duplicate id",
        doc(tiles=[{"id": "a", "q": 0, "r": 0, "dir": 1}, {"id": "a", "q": 1, "r": 0, "dir": 1}]),
        "/tiles/1/id",
    ),
    ("duplicate cell", doc(cells=[{"q": 0, "r": 0, "tracks": list(STRAIGHT)}] * 2), "/cells/1"),
    ("tile off board", doc(tiles=[{"id": "t0", "q": 2, "r": 0, "dir": 1}]), "/tiles/0"),
    (
        "two tiles one cell",
        doc(tiles=[{"id": "a", "q": 0, "r": 0, "dir": 1}, {"id": "b", "q": 0, "r": 0, "dir": 2}]),
        "/tiles/1",
    ),
    ("q is a string", doc(cells=[{"q": "0", "r": 0, "tracks": list(STRAIGHT)}]), "/cells/0/q"),
    ("q is a bool", doc(tiles=[{"id": "t0", "q": True, "r": 0, "dir": 1}]), "/tiles/0/q"),
    ("id is a number", doc(id=7), "/id"),
    ("rotationEnabled string", doc(rotationEnabled="yes"), "/rotationEnabled"),
    ("tiles not a list", doc(tiles={"id": "t0"}), "/tiles"),
    ("version 3", doc(version=3), "/version"),
]


@pytest.mark.parametrize("case, bad, where", BAD, ids=[b[0] for b in BAD])
def test_every_import_limit_names_pointer_and_value(case, bad, where):
    with pytest.raises(LevelError) as err:
        Level.from_json(bad)
    assert err.value.pointer == where, str(err.value)
    assert err.value.has_value or "missing" in err.value.message
    assert "got" in str(err.value)


@pytest.mark.parametrize("key", ["version", "id", "moveLimit", "cells", "tiles"])
def test_missing_top_level_key(key):
    bad = doc()
    del bad[key]
    with pytest.raises(LevelError, match=f"missing key '{key}'") as err:
        Level.from_json(bad)
    assert err.value.pointer == f"/{key}"


@pytest.mark.parametrize("key", ["id", "q", "r", "dir"])
def test_missing_tile_key(key):
    bad = doc()
    del bad["tiles"][0][key]
    with pytest.raises(LevelError) as err:
        Level.from_json(bad)
    assert err.value.pointer == f"/tiles/0/{key}"


def test_optional_keys_default():
    d = doc()
    del d["name"], d["rotationEnabled"], d["tiles"][0]["color"]
    lvl = Level.from_json(d)
    assert lvl.name == "my-level" and lvl.rotation_enabled and lvl.tiles[0].color == 0


def test_limits_at_the_edges_are_accepted():
    lvl = Level.from_json(doc(cells=cells_doc(61), moveLimit=999))
    assert len(lvl.board) == 61 and lvl.move_limit == 999
    assert Level.from_json(doc(moveLimit=1)).move_limit == 1


def test_round_trip_json_and_file(tmp_path):
    lvl = random_level(3)
    again = Level.from_json(json.loads(json.dumps(lvl.to_dict())))
    assert again == lvl
    path = tmp_path / "lvl.json"
    lvl.save(path)
    assert Level.load(path) == lvl
    assert Level.from_json(path.read_text()) == lvl


def test_version_1_imports_and_is_written_as_version_2():
    lvl = Level.from_json(doc(version=1))
    assert lvl.source_version == 1 and lvl.to_dict()["version"] == 2


def test_bad_file_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"version": 2, ')
    with pytest.raises(LevelError, match="broken.json.*not valid JSON"):
        Level.load(path)
    path.write_text(json.dumps(doc(moveLimit=0)))
    with pytest.raises(LevelError, match=r"broken.json: /moveLimit"):
        Level.load(path)


# --- matchings and rotation (H3) -----------------------------------------------------------


def test_fifteen_matchings():
    ms = all_matchings()
    assert len(set(ms)) == 15 and all(is_matching(m) for m in ms)


@given(st.sampled_from(all_matchings()), st.integers(-12, 12))
def test_rotating_tracks_keeps_a_matching(tracks, k):
    turned = _rotate_tracks(tracks, k % 6)
    assert is_matching(turned)
    assert _rotate_tracks(turned, (-k) % 6) == tracks


def test_rotation_rule_of_h3():
    lvl = random_level(5)
    one = lvl.rotated(1)
    for (q, r), old in lvl.board.tracks.items():
        new = one.board.tracks[rotate_cell(q, r)]
        for i in range(6):
            assert new[(i + 1) % 6] == (old[i] + 1) % 6
    assert one.tiles == lvl.tiles  # the board turns beneath the tiles


@given(st.integers(0, 40), st.integers(-7, 7))
def test_six_rotations_are_identity_and_inverse(seed, k):
    lvl = random_level(seed % 5, radius=2 + seed % 2, n_tiles=3)
    assert lvl.rotated(6) == lvl
    assert lvl.rotated(k).rotated(-k) == lvl
    assert lvl.rotated(k) == lvl.rotated(k + 6)
    assert lvl.rotated(1).rotated(1) is lvl.rotated(2)  # orbit shared (cached paths survive)


def test_asymmetric_board_cannot_rotate():
    lvl = Level.from_json(doc())  # two cells: not six-fold symmetric
    assert not lvl.can_rotate
    with pytest.raises(LevelError, match="symmetric"):
        lvl.rotated(1)


def test_rotation_enabled_false_disables_rotation():
    lvl = Level.hexagon(2, rotation_enabled=False)
    assert lvl.board.symmetric and not lvl.can_rotate


def test_board_constructors():
    assert len(Level.hexagon(2).board) == 19
    assert len(Level.hexagon(3).board) == 37
    assert Level.hexagon(3).can_rotate


@pytest.mark.parametrize("bad", [0, 1000, True, 2.5])
def test_a_level_object_keeps_the_move_limit_of_h2(bad):
    # Level.replace says "validated again": a level that could not be loaded back must not exist.
    level = Level.hexagon(2, tiles=[("a", 0, 0, 0)])
    with pytest.raises(LevelError) as err:
        level.replace(move_limit=bad)
    assert err.value.pointer == "/moveLimit"
