"""Shared map builders for the pathfinding tests (the legend follows the SPEC's words)."""

from __future__ import annotations

import pytest

from labkit.pathfinding import GameMap, PassBit, TileDef

WALL = TileDef(1, in_pass=0, out_pass=0, name="wall")
DOOR = TileDef(2, event_pass=False, name="door")  # passable, but one bumps into it
ONLY_RIGHT_IN = TileDef(3, in_pass=PassBit.LEFT, name="enter from the left only")
LEGEND = {".": None, "#": WALL, "D": DOOR, ">": ONLY_RIGHT_IN}


def text_map(*rows: str, state=None) -> GameMap:
    return GameMap.from_text(list(rows), LEGEND, state=state)


@pytest.fixture
def open_3x3() -> GameMap:
    return text_map("...", "...", "...")
