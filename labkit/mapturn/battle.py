"""Skill states and battles (seed §6.4–§6.6, §7; rules M1, M3, M7).

Functions here act on a :class:`~labkit.mapturn.state.SkillState` and never touch the clock;
:class:`~labkit.mapturn.scheduler.MapTurn` wraps them and decides when time passes.

Decisions the rules leave open:

* Stack policies when a status skill that is already active is used again: ``refresh`` resets
  ``remainBattles`` to ``durationBattles``; ``stack`` adds ``durationBattles`` and keeps the larger
  ``battleTimeCost``; ``replace`` removes every active status skill of the same ``exclusiveGroup``
  (or the same id) and starts afresh. ``durationBattles: null`` lasts until cancelled or death.
* Cancelling a status skill with ``canCancel: false`` is refused (returns False).
* A battle skill's ``timeCost`` joins the post-battle max (seed §3.1) while it is active.
* The default battle resolver is the classic magic-tower rule: the hero strikes first for
  ``atk − enemy def`` per turn; the enemy strikes back ``max(0, enemy atk − def)`` each turn it
  survives; the battle fails (death) when the hero cannot hurt the enemy or the damage taken is at
  least the hero's HP.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from labkit.mapturn.defs import EnemyDef, ItemDef
from labkit.mapturn.state import SkillState
from labkit.mapturn.world import Hero

__all__ = [
    "BattleOutcome",
    "BattleResolver",
    "classic_battle",
    "settle_battle_time_cost",
    "apply_status_after_battle",
    "clear_on_death",
    "activate_status_skill",
    "cancel_status_skill",
    "toggle_battle_skill",
    "BASE_BATTLE_TIME_COST",
]

BASE_BATTLE_TIME_COST = 1


@dataclass(frozen=True)
class BattleOutcome:
    """``won``; ``damage`` the hero takes (``math.inf`` when the enemy cannot be hurt).

    Examples
    --------
    >>> BattleOutcome(won=True, damage=12.0)
    BattleOutcome(won=True, damage=12.0)
    """

    won: bool
    damage: float


class BattleResolver(Protocol):
    def __call__(self, hero: Hero, enemy: EnemyDef) -> BattleOutcome: ...


def classic_battle(hero: Hero, enemy: EnemyDef) -> BattleOutcome:
    """Magic-tower battle: turns to kill from ATK−DEF, damage from enemy ATK − hero DEF.

    Examples
    --------
    >>> from labkit.mapturn.defs import EnemyDef
    >>> hero = Hero("F1", 0, 0, hp=100, atk=10, defense=2)
    >>> classic_battle(hero, EnemyDef("slime", "slime", hp=25, atk=7, defense=5))
    BattleOutcome(won=True, damage=20)
    >>> classic_battle(hero, EnemyDef("golem", "golem", hp=5, atk=1, defense=10)).won
    False
    """
    per_hit = hero.atk - enemy.defense
    if per_hit <= 0:
        return BattleOutcome(False, math.inf)
    turns = -(-enemy.hp // per_hit)
    damage = (turns - 1) * max(0, enemy.atk - hero.defense)
    return BattleOutcome(damage < hero.hp, damage)


def settle_battle_time_cost(skills: SkillState, items: dict[str, ItemDef]) -> int:
    """``max(base 1, max status battleTimeCost, max active battle-skill timeCost)`` — never a sum.

    Examples
    --------
    >>> s = SkillState({"a": {"remainBattles": 2, "battleTimeCost": 3, "sourceItemId": "a"},
    ...                 "b": {"remainBattles": 1, "battleTimeCost": 2, "sourceItemId": "b"}})
    >>> settle_battle_time_cost(s, {})
    3
    """
    cost = BASE_BATTLE_TIME_COST
    for state in skills.active_status_skills.values():
        cost = max(cost, int(state.get("battleTimeCost") or 0))
    for sid in skills.active_battle_skills.values():
        cost = max(cost, int(items[sid].time_cost))
    return cost


def apply_status_after_battle(skills: SkillState, result: str) -> list[str]:
    """After a *successful* battle, every status with ``remainBattles`` loses one layer; those at
    0 are deleted. Any other result changes nothing (failure goes to death). Returns the ids
    that ended."""
    if result != "success":
        return []
    ended = []
    for sid, state in list(skills.active_status_skills.items()):
        if isinstance(state.get("remainBattles"), int):
            state["remainBattles"] -= 1
            if state["remainBattles"] <= 0:
                del skills.active_status_skills[sid]
                ended.append(sid)
    return ended


def clear_on_death(skills: SkillState) -> None:
    """Empty temporary state, the active battle skills and every status skill."""
    skills.temp = {}
    skills.active_battle_skills = {}
    skills.active_status_skills = {}


def activate_status_skill(skills: SkillState, item: ItemDef, items: dict[str, ItemDef]) -> None:
    """Start (or re-apply, by the skill's stack policy) a status skill. Costs no time."""
    active = skills.active_status_skills
    fresh = {"remainBattles": item.duration_battles, "battleTimeCost": item.battle_time_cost,
             "sourceItemId": item.id}  # fmt: skip
    current = active.get(item.id)
    if item.stack_policy == "replace" or current is None:
        if item.stack_policy == "replace":
            group = item.exclusive_group
            for sid in list(active):
                if sid == item.id or (group is not None and items[sid].exclusive_group == group):
                    del active[sid]
        active[item.id] = fresh
    elif item.stack_policy == "refresh":
        current["remainBattles"] = item.duration_battles
        current["battleTimeCost"] = item.battle_time_cost
    else:  # stack
        if current["remainBattles"] is not None and item.duration_battles is not None:
            current["remainBattles"] += item.duration_battles
        current["battleTimeCost"] = max(current["battleTimeCost"], item.battle_time_cost)


def cancel_status_skill(skills: SkillState, item: ItemDef) -> bool:
    """End an active status skill; refused (False) when it is not active or ``canCancel`` is off."""
    if item.id not in skills.active_status_skills or not item.can_cancel:
        return False
    del skills.active_status_skills[item.id]
    return True


def toggle_battle_skill(skills: SkillState, item: ItemDef) -> bool:
    """Switch a battle skill on (replacing the one in its exclusive group) or off. Returns the
    new on/off state. Costs no time; its timeCost counts after the next battle."""
    group = item.exclusive_group or item.id
    if skills.active_battle_skills.get(group) == item.id:
        del skills.active_battle_skills[group]
        return False
    skills.active_battle_skills[group] = item.id
    return True
