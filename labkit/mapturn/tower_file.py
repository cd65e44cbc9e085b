"""Writing a :class:`~labkit.mapturn.defs.Tower` back to one self-contained tower document.

The inverse of :func:`~labkit.mapturn.defs.parse_tower`. Tables a tower file names as separate
files are written inline (a saved tower needs no files beside it); skills (items whose class
starts ``skill``) go under ``"skills"``, the rest under ``"items"``, as in the shipped example.
The ``empty`` terrain the reader always adds is written only if it was redefined.

Examples
--------
>>> from labkit.mapturn.defs import Tower, example_tower_path
>>> doc = tower_to_dict(Tower.load(example_tower_path()), "labkit.mapturn.tower", 1)
>>> doc["format"], sorted(doc["floors"]), doc["enemies"]["bat"]["timeCost"]
('labkit.mapturn.tower', ['F1', 'F2'], 2.0)
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labkit.mapturn.defs import EnemyDef, ItemDef, Tower

__all__ = ["tower_to_dict"]


def _enemy(e: EnemyDef) -> dict[str, Any]:
    doc: dict[str, Any] = {"name": e.name, "hp": e.hp, "atk": e.atk, "def": e.defense,
                           "timeCost": e.time_cost, "actType": e.act_type}  # fmt: skip
    if e.act_args:
        doc["actArgs"] = copy.deepcopy(e.act_args)
    if e.contact_battle_only:
        doc["contactBattleOnly"] = True
    if e.capture:
        doc["capture"] = True
    return doc


def _item(i: ItemDef) -> dict[str, Any]:
    return {
        "name": i.name,
        "cls": i.cls,
        "timeCost": i.time_cost,
        "canCancel": i.can_cancel,
        "exclusiveGroup": i.exclusive_group,
        "durationBattles": i.duration_battles,
        "battleTimeCost": i.battle_time_cost,
        "stackPolicy": i.stack_policy,
        "effect": copy.deepcopy(i.effect),
    }


def tower_to_dict(tower: Tower, format: str, version: int) -> dict[str, Any]:
    """The JSON-ready tower document under the header ``format`` / ``version``, tables inline."""
    terrain = {
        ident: {"passable": t.passable, "stairs": t.stairs}
        for ident, t in tower.terrain.items()
        if not (ident == "empty" and t.passable and t.stairs == 0)
    }
    return {
        "format": format,
        "version": version,
        "name": tower.name,
        "enemies": {ident: _enemy(e) for ident, e in tower.enemies.items()},
        "items": {ident: _item(i) for ident, i in tower.items.items() if not i.is_skill},
        "skills": {ident: _item(i) for ident, i in tower.items.items() if i.is_skill},
        "terrain": terrain,
        "legend": {str(n): {kind: ident} for n, (kind, ident) in tower.legend.items()},
        "hero": copy.deepcopy(tower.hero),
        "floors": {fid: {"map": grid.tolist()} for fid, grid in tower.floors.items()},
    }
