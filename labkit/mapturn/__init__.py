"""Map-turn clock, enemy action gauges and skill states (rules M1–M9, rules M1–M9).

A tower (:func:`load_tower`) gives a :class:`World`; a :class:`MapTurn` engine schedules the
world's enemies on a discrete map-turn clock; :class:`Actions` is the player's layer that spends
time by the action matrix; :func:`gauge_timeline` is the numba-backed batch form of the gauge
rule for tuning.

Examples
--------
>>> from labkit.mapturn import Actions, MapTurn, World, load_tower, example_tower_path
>>> engine = MapTurn(World(load_tower(example_tower_path())))
>>> act = Actions(engine)
>>> [r.time for r in act.run("RR[focus]")]
[1, 1, 0]
>>> engine.state.map_turn
2
"""

from __future__ import annotations

from .actions import ActionResult, Actions
from .battle import BattleOutcome, classic_battle
from .cache import ActiveCache, ActiveEnemy
from .defs import (
    EnemyDef,
    ItemDef,
    SkillDef,
    TerrainDef,
    Tower,
    TowerError,
    example_tower_path,
    load_tower,
    parse_tower,
)
from .draw import draw_raster
from .scheduler import MapTurn, MapTurnError
from .state import MapTurnState, SaveError, SkillState
from .status import ActionKind
from .timeline import GaugeTimeline, gauge_timeline
from .world import Hero, World, WorldEvent

__all__ = [
    "ActionKind",
    "ActionResult",
    "Actions",
    "ActiveCache",
    "ActiveEnemy",
    "BattleOutcome",
    "EnemyDef",
    "GaugeTimeline",
    "Hero",
    "ItemDef",
    "MapTurn",
    "MapTurnError",
    "MapTurnState",
    "SaveError",
    "SkillDef",
    "SkillState",
    "TerrainDef",
    "Tower",
    "TowerError",
    "World",
    "WorldEvent",
    "classic_battle",
    "example_tower_path",
    "gauge_timeline",
    "load_tower",
    "parse_tower",
    "draw_raster",
]
