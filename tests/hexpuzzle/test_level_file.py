"""The level file (SPEC H2): every import limit names its pointer and value; missing and optional
keys; round trips; version 1."""

from __future__ import annotations

import json

import pytest

from labkit.hexpuzzle import STRAIGHT, Level, LevelError
from labkit.hexpuzzle.coords import (
    hexagon_cells,
)
from tests.hexpuzzle.helpers import random_level
from tests.hexpuzzle.test_level import doc

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
