"""Tiles and layers (P2): the pass bits' values; layers refuse unknown tile numbers and
mismatched sizes."""

from __future__ import annotations

import pytest

from labkit.pathfinding import (
    GameMap,
    MapLayer,
    PassBit,
    TileDef,
)


def test_pass_bit_values():
    assert (PassBit.UP, PassBit.RIGHT, PassBit.DOWN, PassBit.LEFT) == (1, 2, 4, 8)


def test_layers_reject_unknown_tile_numbers_and_mismatched_sizes():
    from labkit.pathfinding import MapError

    with pytest.raises(MapError, match="unknown tile numbers"):
        GameMap([], event=[[0, 7]])
    with pytest.raises(MapError, match="same size"):
        GameMap([], event=[[0, 0]], layers={"deco": [[0]]})
    with pytest.raises(MapError, match="pass bits"):
        TileDef(1, in_pass=16)
    with pytest.raises(MapError):
        MapLayer([[-1]])
