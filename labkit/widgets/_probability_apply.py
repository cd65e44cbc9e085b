"""Putting a goal-seek answer into the ProbabilityExplorer (its "apply" button).

The explorer edits the hit table and each side's loadout (character, weapon, armour); it does
not edit a character's agility or hit level, which come from the balance's character, weapon
and armour tables. So an answer in agility or hit level is applied as the loadout change that
meets the goal with the fewest changes (a new character counts as two: it is another fighter),
then the nearest value; when no loadout meets it, the nearest loadout that gets closer is
applied and one line says what is left for the balance file.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from labkit.encounter import Balance, Loadout, compose

_FIELDS = ("character", "weapon", "armour")


def _chance(table: Sequence[int], hit: int, agility: int) -> int:
    return int(table[int(np.clip(hit - agility, -4, 4)) + 4])


def _meets(chance: int, result: dict[str, Any], target: float, how: str) -> bool:
    if how == "at least":
        return chance >= target
    if how == "at most":
        return chance <= target
    return chance == result["chance"]


def plan_loadout(
    balance: Balance,
    loadouts: dict[str, Loadout],
    options: Mapping[str, Sequence[Any]],
    table: Sequence[int],
    result: dict[str, Any],
    choice: dict[str, Any],
) -> tuple[Loadout | None, bool]:
    """The loadout to give the side whose agility / hit level the answer is about.

    ``loadouts``: side ("a"/"b") → current loadout; ``options``: field → the values its
    dropdown offers (``None`` for natural weapon / no armour); ``choice``: the goal row's
    ``target``, ``what``, ``side``, ``how``. Returns (loadout, meets the goal), or (None, False)
    when no loadout gets closer than the current one.

    Examples
    --------
    >>> from labkit.encounter.rules.balance import default_balance
    >>> table = [2, 4, 8, 14, 20, 30, 45, 60, 75]
    >>> sides = {"a": Loadout(weapon="long_knife"), "b": Loadout(character="monster")}
    >>> options = {"character": ["npc", "monster"], "weapon": [None, "long_knife", "revolver"],
    ...            "armour": [None, "leather_coat"]}
    >>> choice = {"target": 50, "what": "agility", "side": "a", "how": "at least"}
    >>> result = {"value": -1, "chance": 60, "feasible": True}
    >>> new, ok = plan_loadout(default_balance(), sides, options, table, result, choice)
    >>> new.armour, ok
    ('leather_coat', True)
    """
    target, what, side, how = (choice[k] for k in ("target", "what", "side", "how"))
    other = "b" if side == "a" else "a"
    changed = other if what == "agility" else side
    fixed = compose(loadouts[side if what == "agility" else other], balance)
    now = loadouts[changed]

    def chance(lo: Loadout) -> tuple[int, int]:
        f = compose(lo, balance)
        if what == "agility":
            return _chance(table, fixed.hit, f.agility), f.agility
        return _chance(table, f.hit, fixed.agility), f.hit

    def cost(lo: Loadout) -> int:
        return sum((2 if k == "character" else 1) * (getattr(lo, k) != getattr(now, k))
                   for k in _FIELDS)  # fmt: skip

    cands = [replace(now, **dict(zip(_FIELDS, combo)))
             for combo in itertools.product(*(options[k] for k in _FIELDS))]  # fmt: skip
    wanted = result["value"]
    good = [lo for lo in cands if _meets(chance(lo)[0], result, target, how)]
    if good:
        return min(good, key=lambda lo: (cost(lo), abs(chance(lo)[1] - wanted))), True
    # None meets it: the loadout whose chance lies nearest the goal, if nearer than now.
    goal = result["chance"] if how == "exactly" else target
    best = min(cands, key=lambda lo: (abs(chance(lo)[0] - goal), cost(lo)))
    if abs(chance(best)[0] - goal) < abs(chance(now)[0] - goal):
        return best, False
    return None, False


def describe_change(old: Loadout, new: Loadout, who: str) -> str:
    """The loadout fields that differ, in words: "B armour → leather coat".

    Examples
    --------
    >>> describe_change(Loadout(), Loadout(armour="leather_coat"), "B")
    'B armour → leather coat'
    """
    parts = []
    for k in _FIELDS:
        a, b = getattr(old, k), getattr(new, k)
        if a != b:
            shown = (
                {"weapon": "natural weapon", "armour": "no armour"}.get(k, "") if b is None else b
            )
            parts.append(f"{who} {k} → {str(shown).replace('_', ' ')}")
    return ", ".join(parts)


def apply_loadout(app: Any, r: dict[str, Any], c: dict[str, Any]) -> str:
    """Give the side the answer is about the loadout :func:`plan_loadout` picks, in one
    recompute; returns the line saying what changed (and what is left for the balance file)."""

    def values(key: str) -> list[Any]:
        opts = app.side["a"][key].options
        raw = [o[1] if isinstance(o, tuple) else o for o in opts]
        return [None if v in ("(natural)", "(none)") else v for v in raw]

    sides = {k: app.loadout(k) for k in ("a", "b")}
    options = {k: values(k) for k in ("character", "weapon", "armour")}
    table = [s.value for s in app.hit]
    new, ok = plan_loadout(app.balance, sides, options, table, r, c)
    what, side = c["what"], c["side"]
    key = ("b" if side == "a" else "a") if what == "agility" else side
    who = key.upper()
    goal, blow = f"{c['how']} {c['target']:g} %", f"{side.upper()}'s blow"
    if new is None:
        return (f"could not apply: no character, weapon or armour of {who} brings {blow} nearer "
                f"to {goal}; {who}'s {what} comes from the balance file's character and "
                f"equipment tables, which the explorer does not edit")  # fmt: skip
    change = describe_change(sides[key], new, who)
    if not change:
        return f"nothing to change: {r['text']}"
    app._updating = True  # one recompute for the whole loadout, not one per dropdown
    try:
        w = app.side[key]
        w["character"].value = new.character
        w["weapon"].value = new.weapon or "(natural)"
        w["armour"].value = new.armour or "(none)"
    finally:
        app._updating = False
    app.update()
    app._redraw()
    a, b = app.fighters()
    att, dfn = (a, b) if side == "a" else (b, a)
    chance = table[int(np.clip(att.hit - dfn.agility, -4, 4)) + 4]
    level = dfn.agility if what == "agility" else att.hit
    now = f"{who} {what} {level} gives {side.upper()}'s blow {chance} %"
    if ok:
        return f"applied: {change} ({now})"
    return (
        f"applied what the loadouts allow: {change} ({now}); {goal} for {blow} needs {who}'s "
        f"{what} changed in the balance file, which the explorer does not edit"
    )
