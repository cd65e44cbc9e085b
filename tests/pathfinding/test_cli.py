"""The ``labkit path find`` command: status, cost and path; eight-way moves; bad files."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from labkit.cli import main
from labkit.pathfinding import (
    FOUR_WAY,
    DefaultPassPredicate,
    PathFinder,
)
from labkit.pathfinding.map_file import load_map, shipped_map_path
from tests.pathfinding.test_map_file import with_


def test_cli_find_prints_status_cost_and_path(capsys, tmp_path):
    svg = tmp_path / "p.svg"
    rc = main(
        [
            "path",
            "find",
            shipped_map_path("corridors.json"),
            "--from",
            "0,0",
            "--to",
            "11,9",
            "--svg",
            str(svg),
        ]
    )
    out = capsys.readouterr().out
    mf = load_map(shipped_map_path("corridors.json"))
    want = PathFinder(mf.game_map.event_layer, DefaultPassPredicate(), FOUR_WAY, mf.cost).find(
        (0, 0), (11, 9)
    )
    assert rc == 0 and "SUCCESS" in out and f"cost      {want.cost:g}" in out
    assert out.split("path")[1].split()[0] == "0,0" and "11,9" in out
    ET.fromstring(svg.read_text())  # well-formed
    assert (
        main(["path", "find", shipped_map_path("corridors.json"), "--from", "0,0", "--to", "40,1"])
        == 0
    )
    assert "NO_PATH" in capsys.readouterr().out
    assert (
        main(["path", "find", shipped_map_path("corridors.json"), "--from=-1,0", "--to", "1,1"])
        == 2
    )


def test_cli_diagonal_switches_to_eight_way(capsys):
    main(["path", "find", shipped_map_path("corridors.json"), "--from", "0,0", "--to", "11,9"])
    four = capsys.readouterr().out
    main(
        [
            "path",
            "find",
            shipped_map_path("corridors.json"),
            "--from",
            "0,0",
            "--to",
            "11,9",
            "--diagonal",
        ]
    )
    eight = capsys.readouterr().out
    cost = [float(o.split("cost")[1].split()[0]) for o in (four, eight)]
    assert cost[1] < cost[0]


def test_cli_bad_file_is_an_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_(neighbourhood=5)))
    assert main(["path", "find", str(bad), "--from", "0,0", "--to", "1,1"]) == 1
    assert "/neighbourhood" in capsys.readouterr().err
