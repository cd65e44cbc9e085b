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

from labkit.hexpuzzle.difficulty.fit import calibrate
from labkit.hexpuzzle.difficulty.calibration import Calibration
from labkit.hexpuzzle.difficulty.scoring import Difficulty, score
from labkit.hexpuzzle.game import PuzzleError, PuzzleState, Snapshot
from labkit.hexpuzzle.solving.generator import GeneratorError, generate, generate_many
from labkit.hexpuzzle.geometry import TilePath, tile_path
from labkit.hexpuzzle.solving.hints import Advice, advise, hint
from labkit.hexpuzzle.level import STRAIGHT, Board, Level, LevelError, Tile, all_matchings
from labkit.hexpuzzle.mainline import campaign
from labkit.hexpuzzle.difficulty.observed import CalibrationError, ObservedIndex, observed_index
from labkit.hexpuzzle.difficulty.players import (
    Player,
    make_players,
    simulate_telemetry,
    skill_groups,
    telemetry_from_weights,
)
from labkit.hexpuzzle.solving.solver import Action, Solution, replay, solve
from labkit.hexpuzzle.sweep import MINKOWSKI_RADIUS, TILE_RADIUS, first_contact, first_contacts
from labkit.hexpuzzle.difficulty.telemetry import (
    TelemetryError,
    load_telemetry,
    parse_telemetry,
    save_telemetry,
)
from labkit.hexpuzzle.trace import Trace, trace

__all__ = [
    "Action",
    "Advice",
    "Board",
    "Calibration",
    "CalibrationError",
    "Difficulty",
    "GeneratorError",
    "Level",
    "LevelError",
    "MINKOWSKI_RADIUS",
    "ObservedIndex",
    "Player",
    "PuzzleError",
    "PuzzleState",
    "STRAIGHT",
    "Snapshot",
    "Solution",
    "TILE_RADIUS",
    "TelemetryError",
    "Tile",
    "TilePath",
    "Trace",
    "advise",
    "all_matchings",
    "calibrate",
    "campaign",
    "first_contact",
    "first_contacts",
    "generate",
    "generate_many",
    "hint",
    "load_telemetry",
    "make_players",
    "observed_index",
    "parse_telemetry",
    "replay",
    "save_telemetry",
    "score",
    "simulate_telemetry",
    "skill_groups",
    "solve",
    "telemetry_from_weights",
    "tile_path",
    "trace",
]
