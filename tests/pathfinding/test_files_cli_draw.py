"""The JSON map format, the ``labkit path find`` command and the SVG pictures."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from labkit.cli import main
from labkit.pathfinding import (
    FOUR_WAY,
    DefaultPassPredicate,
    GameMap,
    MapError,
    PathFinder,
    TileDef,
)
from labkit.pathfinding.map_file import MapFile, load_map, map_from_dict, save_map, shipped_map_path

from .conftest import text_map

CORRIDORS = shipped_map_path("corridors.json")

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
    mf = load_map(CORRIDORS)
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


def test_cli_find_prints_status_cost_and_path(capsys, tmp_path):
    svg = tmp_path / "p.svg"
    rc = main(
        [
            "path",
            "find",
            CORRIDORS,
            "--from",
            "0,0",
            "--to",
            "11,9",
            "--svg",
            str(svg),
        ]
    )
    out = capsys.readouterr().out
    mf = load_map(CORRIDORS)
    want = PathFinder(mf.game_map.event_layer, DefaultPassPredicate(), FOUR_WAY, mf.cost).find(
        (0, 0), (11, 9)
    )
    assert rc == 0 and "SUCCESS" in out and f"cost      {want.cost:g}" in out
    assert out.split("path")[1].split()[0] == "0,0" and "11,9" in out
    ET.fromstring(svg.read_text())  # well-formed
    assert main(["path", "find", CORRIDORS, "--from", "0,0", "--to", "40,1"]) == 0
    assert "NO_PATH" in capsys.readouterr().out
    assert main(["path", "find", CORRIDORS, "--from=-1,0", "--to", "1,1"]) == 2


def test_cli_diagonal_switches_to_eight_way(capsys):
    main(["path", "find", CORRIDORS, "--from", "0,0", "--to", "11,9"])
    four = capsys.readouterr().out
    main(["path", "find", CORRIDORS, "--from", "0,0", "--to", "11,9", "--diagonal"])
    eight = capsys.readouterr().out
    cost = [float(o.split("cost")[1].split()[0]) for o in (four, eight)]
    assert cost[1] < cost[0]


def test_cli_bad_file_is_an_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_(neighbourhood=5)))
    assert main(["path", "find", str(bad), "--from", "0,0", "--to", "1,1"]) == 1
    assert "/neighbourhood" in capsys.readouterr().err


def test_layer_and_result_svgs_show_tiles_terminals_and_path():
    m = text_map("..D", ".#.", ".>.")
    svg = m.event_layer._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and "#3b3b3b" in svg and "#f0a040" in svg
    assert svg.count("no entry from this side") == 3  # ">" may be entered from the left only
    one_way_out = GameMap([TileDef(7, out_pass=2)], event=[[7, 0]])
    assert one_way_out.event_layer._repr_svg_().count("marker-end") == 1  # leave rightwards
    r = PathFinder(m.event_layer, DefaultPassPredicate(), FOUR_WAY).find((0, 0), (2, 0))
    svg = r._repr_svg_()
    ET.fromstring(svg)
    assert "polyline" in svg and "terminal" in svg and "SUCCESS" in svg
    assert (
        "<polyline"
        not in PathFinder(m.event_layer, DefaultPassPredicate(), FOUR_WAY)
        .find((0, 0), (9, 9))
        ._repr_svg_()
    )
    assert isinstance(MapFile(m, None, FOUR_WAY).game_map, type(m))
