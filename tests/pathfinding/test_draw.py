"""The SVG pictures of a layer and of a search result: tiles, terminals and the path."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from labkit.pathfinding import (
    FOUR_WAY,
    DefaultPassPredicate,
    GameMap,
    PathFinder,
    TileDef,
)
from labkit.pathfinding.map_file import MapFile
from tests.pathfinding.conftest import text_map


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
