"""Passability and pathfinding (rules P0–P7, rules P0–P7).

Three levels of one API, as in python-tcod: the fast grid kernels (:func:`grid_path`,
:func:`grid_costs`) for analysts' cost fields; the graph builder and finder
(:class:`MapGraphBuilder`, :class:`PathFinder`); and the object API that binds mover, layer,
predicate and direction handler (:class:`PathfindingSystem`).
"""

from __future__ import annotations

from typing import Any

from labkit import _renamed
from labkit.pathfinding.draw import layer_svg
from labkit.pathfinding.finder import PathFinder, PathfindingStatus, PathResult
from labkit.pathfinding.graph import CostWarning, MapGraph, MapGraphBuilder
from labkit.pathfinding.grid import grid_costs, grid_path
from labkit.pathfinding.map_file import MapFile, load_map, save_map, shipped_map_path
from labkit.pathfinding.mover import HeroMover, StepResult
from labkit.pathfinding.predicate import (
    DefaultPassPredicate,
    NoCornerCutting,
    NoTilePassPredicate,
    PassCheck,
    PassPredicate,
)
from labkit.pathfinding.system import LayerWarning, PathfindingSystem, Walk
from labkit.pathfinding.tiles import (
    EIGHT_WAY,
    FOUR_WAY,
    Direction,
    DirectionHandler,
    GameMap,
    MapError,
    MapLayer,
    PassBit,
    TileDef,
)

__all__ = [
    "grid_costs",
    "grid_path",
    "PassBit",
    "Direction",
    "DirectionHandler",
    "FOUR_WAY",
    "EIGHT_WAY",
    "TileDef",
    "MapLayer",
    "GameMap",
    "MapError",
    "PassCheck",
    "PassPredicate",
    "DefaultPassPredicate",
    "NoTilePassPredicate",
    "NoCornerCutting",
    "CostWarning",
    "MapGraph",
    "MapGraphBuilder",
    "PathFinder",
    "PathfindingStatus",
    "PathResult",
    "HeroMover",
    "StepResult",
    "PathfindingSystem",
    "LayerWarning",
    "Walk",
    "MapFile",
    "shipped_map_path",
    "load_map",
    "save_map",
    "layer_svg",
]


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
