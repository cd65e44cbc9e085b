"""The JSON map format: bad documents name the field and value; round trips; the file named in
errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from labkit.pathfinding import (
    MapError,
)
from labkit.pathfinding.map_file import load_map, map_from_dict, save_map, shipped_map_path

GOOD = {
    "format": "labkit.pathmap",
    "version": 1,
    "tiles": [{"number": 1, "name": "wall", "in_pass": 0, "out_pass": 0}],
    "event": [[0, 1, 0], [0, 0, 0]],
}


def with_(**changes):
    doc = json.loads(json.dumps(GOOD))
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    "doc, where, bad",
    [
        (with_(format="other"), "/format", "other"),
        (with_(version=9), "/version", "9"),
        (with_(tiles=[{"number": 0}]), "/tiles/0/number", "0"),
        (with_(tiles=[{"number": 1, "in_pass": 16}]), "/tiles/0/in_pass", "16"),
        (with_(tiles=[{"number": 1, "event_pass": "no"}]), "/tiles/0/event_pass", "'no'"),
        (with_(tiles=[{"number": 1}, {"number": 1}]), "/tiles/1/number", "1"),
        (with_(event=[[0, 2, 0], [0, 0, 0]]), "/event/0/1", "2"),
        (with_(event=[[0, 1, 0], [0, 0]]), "/event/1", "2"),
        (with_(event=[[0, -1, 0], [0, 0, 0]]), "/event/0/1", "-1"),
        (with_(layers=[{"name": "d", "tiles": [[0, 0, 0]]}]), "/layers/0/tiles", "1"),
        (with_(cost=[[1, 1, 1], [1, "x", 1]]), "/cost/1/1", "'x'"),
        (with_(neighbourhood=6), "/neighbourhood", "6"),
    ],
)
def test_bad_map_documents_name_the_field_and_value(doc, where, bad):
    with pytest.raises(MapError) as info:
        map_from_dict(doc)
    assert info.value.pointer == where and bad in str(info.value)


def test_map_file_round_trip_and_file_named_in_errors(tmp_path):
    mf = load_map(shipped_map_path("corridors.json"))
    out = tmp_path / "copy.json"
    save_map(out, mf)
    again = load_map(out)
    np.testing.assert_array_equal(again.game_map.event_layer.tiles, mf.game_map.event_layer.tiles)
    np.testing.assert_array_equal(again.cost, mf.cost)
    assert again.game_map.tile_table == mf.game_map.tile_table and again.face is mf.face
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(with_(event=[[0, 9]])))
    with pytest.raises(MapError, match="broken.json"):
        load_map(broken)
