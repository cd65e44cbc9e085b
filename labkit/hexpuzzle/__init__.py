"""Hex track puzzle rules H1–H9: levels, rotation, swept-hexagon collision and game rules.

Tiles sit on a hexagonal board of track cells. Tapping a tile sends it along the tracks; it
leaves the board unless its swept hexagon touches another tile first. Rotating the board turns
the tracks beneath the tiles.

The board core: :mod:`.coords` (axial coordinates), :mod:`.level` (levels and rotation; the JSON
format in :mod:`.level_file`), :mod:`.geometry` (a tile's path), :mod:`.collision` /
:mod:`._kernels` (continuous collision), :mod:`.tap_trace` (judging a tap: ``trace_tap``),
:mod:`.game` (play, undo, restart), :mod:`.status` (the statuses), :mod:`.draw`
(``draw``/``update``, SVG) and :mod:`.animation`. On top of it, one way: :mod:`.solving` (contacts,
solver, hints, generator, levels to a target score, campaigns to a curve), then :mod:`.difficulty`
(scoring, telemetry, simulated players, calibration, the skill model and level ratings),
:mod:`.playthrough` (where players stop: ``funnel``, ``compare_funnels``, ``improve_campaign``,
``holdout_check``), :mod:`.campaign_file` (the campaign document), then :mod:`.shipped_campaign`
(the main line), :mod:`.draw_solver` and :mod:`.cli` (``labkit puzzle``). Import public names from
here, not from the subpackages.

Examples
--------
>>> from labkit.hexpuzzle import Level, PuzzleState, trace_tap
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
>>> trace_tap(lvl, "a").outcome
'blocked'
"""

from __future__ import annotations

from typing import Any

from labkit import _renamed
from labkit.hexpuzzle.animation import animate, collision_animation, save_animation
from labkit.hexpuzzle.campaign_file import Campaign
from labkit.hexpuzzle.collision import MINKOWSKI_RADIUS, TILE_RADIUS, first_contact, first_contacts
from labkit.hexpuzzle.coords import centre, hexagon_cells, hexagon_vertices
from labkit.hexpuzzle.difficulty.calibration import Calibration
from labkit.hexpuzzle.difficulty.fit import calibrate, example_difficulties, strengths
from labkit.hexpuzzle.difficulty.observed import (
    COMPONENTS,
    CalibrationError,
    ObservedIndex,
    observed_index,
)
from labkit.hexpuzzle.difficulty.players import (
    SKILL_GROUPS,
    Player,
    make_players,
    simulate_telemetry,
    skill_groups,
    telemetry_from_weights,
)
from labkit.hexpuzzle.difficulty.ratings import LevelRatings, glicko2
from labkit.hexpuzzle.difficulty.scoring import PARTS, WEIGHTS, Difficulty, score
from labkit.hexpuzzle.difficulty.skill import (
    SkillModel,
    SkillModelError,
    fit_skill_model,
    shipped_skill_model,
)
from labkit.hexpuzzle.difficulty.skill_compare import FitComparison, compare_fits
from labkit.hexpuzzle.difficulty.skill_quit import QuitModel
from labkit.hexpuzzle.difficulty.skill_report import SkillReport
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
from labkit.hexpuzzle.difficulty.skill_validate import validation_row, validation_table
from labkit.hexpuzzle.difficulty.telemetry import (
    TelemetryError,
    load_telemetry,
    parse_telemetry,
    save_telemetry,
)
from labkit.hexpuzzle.difficulty.telemetry_file import Telemetry
from labkit.hexpuzzle.draw import BoardPlot
from labkit.hexpuzzle.evaluation.draw_evaluation import draw_control_map, draw_expressive_range
from labkit.hexpuzzle.evaluation.evaluate import GeneratorReport, evaluate_generator
from labkit.hexpuzzle.game import PuzzleError, PuzzleState, Snapshot
from labkit.hexpuzzle.geometry import TilePath, tile_path
from labkit.hexpuzzle.level import (
    STRAIGHT,
    Board,
    Level,
    LevelError,
    Tile,
    TileError,
    all_matchings,
)
from labkit.hexpuzzle.playthrough.compare import FunnelComparison, compare_funnels
from labkit.hexpuzzle.playthrough.holdout import HoldoutCheck, holdout_check, observed_funnel
from labkit.hexpuzzle.playthrough.improve import FunnelGoal, Improvement, improve_campaign
from labkit.hexpuzzle.playthrough.model import funnel
from labkit.hexpuzzle.playthrough.simulate import Funnel, FunnelWorld
from labkit.hexpuzzle.playthrough.truth import TrueModel
from labkit.hexpuzzle.shipped_campaign import campaign
from labkit.hexpuzzle.solving.curve import campaign_from_curve, parse_curve
from labkit.hexpuzzle.solving.generator import (
    GeneratorError,
    GeneratorOptionError,
    generate,
    generate_many,
    place_backwards,
    random_board,
)
from labkit.hexpuzzle.solving.hints import Advice, advise, hint
from labkit.hexpuzzle.solving.solver import Action, Solution, play_actions, solve
from labkit.hexpuzzle.solving.targets import generate_to_target
from labkit.hexpuzzle.status import (
    AdviceStatus,
    DifficultyStatus,
    GameStatus,
    Outcome,
    SolutionStatus,
)
from labkit.hexpuzzle.tap_trace import TapTrace, trace_tap

__all__ = [
    "Action",
    "Advice",
    "AdviceStatus",
    "Board",
    "Calibration",
    "Campaign",
    "CalibrationError",
    "Difficulty",
    "DifficultyStatus",
    "Funnel",
    "FunnelComparison",
    "FunnelGoal",
    "FunnelWorld",
    "GeneratorError",
    "GeneratorReport",
    "GeneratorOptionError",
    "GameStatus",
    "HoldoutCheck",
    "Improvement",
    "Level",
    "LevelError",
    "TileError",
    "LevelRatings",
    "MINKOWSKI_RADIUS",
    "ObservedIndex",
    "Outcome",
    "Player",
    "PuzzleError",
    "PuzzleState",
    "STRAIGHT",
    "SkillModel",
    "SkillModelError",
    "SkillReport",
    "Snapshot",
    "Solution",
    "SolutionStatus",
    "TILE_RADIUS",
    "Telemetry",
    "TelemetryError",
    "Tile",
    "TilePath",
    "TapTrace",
    "TrueModel",
    "advise",
    "all_matchings",
    "animate",
    "calibrate",
    "compare_funnels",
    "campaign",
    "campaign_from_curve",
    "draw_control_map",
    "draw_expressive_range",
    "evaluate_generator",
    "first_contact",
    "first_contacts",
    "funnel",
    "fit_skill_model",
    "generate",
    "generate_many",
    "generate_to_target",
    "glicko2",
    "hint",
    "holdout_check",
    "improve_campaign",
    "load_telemetry",
    "make_players",
    "observed_index",
    "observed_funnel",
    "parse_curve",
    "parse_telemetry",
    "play_actions",
    "save_telemetry",
    "score",
    "shipped_skill_model",
    "QuitModel",
    "FitComparison",
    "compare_fits",
    "validation_table",
    "simulate_telemetry",
    "skill_groups",
    "solve",
    "telemetry_from_skill",
    "telemetry_from_weights",
    "save_animation",
    "collision_animation",
    "tile_path",
    "trace_tap",
    "BoardPlot",
    "centre",
    "hexagon_cells",
    "hexagon_vertices",
    "place_backwards",
    "random_board",
    "example_difficulties",
    "strengths",
    "PARTS",
    "WEIGHTS",
    "COMPONENTS",
    "SKILL_GROUPS",
    "validation_row",
]


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
