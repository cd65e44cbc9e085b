"""Hex track puzzle (SPEC H): levels, rotation, swept-hexagon collision and game rules.

Tiles sit on a hexagonal board of track cells. Tapping a tile sends it along the tracks; it
leaves the board unless its swept hexagon touches another tile first. Rotating the board turns
the tracks beneath the tiles.

Modules: :mod:`.coords` (axial coordinates), :mod:`.level` (the JSON format and rotation),
:mod:`.geometry` (a tile's path), :mod:`.sweep` / :mod:`._kernels` (continuous collision),
:mod:`.trace` (tap outcome), :mod:`.game` (play, undo, restart), :mod:`.draw` (figures, SVG).

Examples
--------
>>> from labkit.hexpuzzle import Level, PuzzleState, trace
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
>>> trace(lvl, "a").outcome
'blocked'
"""

from __future__ import annotations

from labkit.hexpuzzle.campaign import campaign
from labkit.hexpuzzle.difficulty import Difficulty, score
from labkit.hexpuzzle.game import PuzzleError, PuzzleState, Snapshot
from labkit.hexpuzzle.generator import GeneratorError, generate, generate_many
from labkit.hexpuzzle.geometry import TilePath, tile_path
from labkit.hexpuzzle.hints import Advice, advise, hint
from labkit.hexpuzzle.level import STRAIGHT, Board, Level, LevelError, Tile, all_matchings
from labkit.hexpuzzle.solver import Action, Solution, replay, solve
from labkit.hexpuzzle.sweep import MINKOWSKI_RADIUS, TILE_RADIUS, first_contact, first_contacts
from labkit.hexpuzzle.trace import Trace, trace

__all__ = [
    "Action",
    "Advice",
    "Difficulty",
    "GeneratorError",
    "Solution",
    "advise",
    "campaign",
    "generate",
    "generate_many",
    "hint",
    "replay",
    "score",
    "solve",
    "Board",
    "Level",
    "LevelError",
    "MINKOWSKI_RADIUS",
    "PuzzleError",
    "PuzzleState",
    "STRAIGHT",
    "Snapshot",
    "TILE_RADIUS",
    "Tile",
    "TilePath",
    "Trace",
    "all_matchings",
    "first_contact",
    "first_contacts",
    "tile_path",
    "trace",
]
