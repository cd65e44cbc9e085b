"""Small towers drawn in ASCII for the map-turn tests."""

from __future__ import annotations

import copy

from labkit.mapturn import Actions, MapTurn, World, parse_tower

# A few enemy and skill definitions the tests share; each test may add its own.
ENEMIES = {
    "idler": {"hp": 10, "atk": 0, "def": 0, "timeCost": 1},
    "slow": {"hp": 10, "atk": 0, "def": 0, "timeCost": 2},
    "rock": {"hp": 10, "atk": 0, "def": 0, "timeCost": 0},
    "chaser": {"hp": 10, "atk": 5, "def": 0, "timeCost": 1, "actType": "chase"},
    "guard": {"hp": 10, "atk": 5, "def": 0, "timeCost": 0, "capture": True},
    "boss": {
        "hp": 30,
        "atk": 5,
        "def": 0,
        "timeCost": 0,
        "capture": True,
        "contactBattleOnly": True,
    },
    "titan": {"hp": 10, "atk": 999, "def": 999, "timeCost": 0},
}
SKILLS = {
    "focus": {"cls": "skillupdate", "durationBattles": 2, "battleTimeCost": 3},
    "wall": {
        "cls": "skillupdate",
        "durationBattles": 3,
        "battleTimeCost": 2,
        "stackPolicy": "stack",
    },
    "brief": {"cls": "skillupdate", "durationBattles": 1, "battleTimeCost": 3},
    "oath": {
        "cls": "skillupdate",
        "durationBattles": None,
        "canCancel": False,
        "stackPolicy": "replace",
        "exclusiveGroup": "aura",
    },
    "vow": {
        "cls": "skillupdate",
        "durationBattles": 2,
        "stackPolicy": "replace",
        "exclusiveGroup": "aura",
    },
    "strike": {"cls": "skillbattle", "timeCost": 2, "exclusiveGroup": "battleSkill"},
    "double": {"cls": "skillbattle", "timeCost": 4, "exclusiveGroup": "battleSkill"},
    "fireball": {"cls": "skillremote", "timeCost": 2, "effect": {"range": 3}},
    "heal": {"cls": "skillrecover", "timeCost": 3, "effect": {"hp": 50}},
    "bomb": {"cls": "tools", "timeCost": 1, "effect": {"bomb": True}},
    "bigKey": {"cls": "tools", "timeCost": 3},
    "potion": {"cls": "items", "effect": {"hp": 10}},
}
LETTERS = {"#": ("terrain", "wall"), "i": ("enemy", "idler"), "s": ("enemy", "slow"),
           "r": ("enemy", "rock"), "c": ("enemy", "chaser"), "g": ("enemy", "guard"),
           "B": ("enemy", "boss"), "T": ("enemy", "titan"), "p": ("item", "potion"),
           "^": ("terrain", "up"), "v": ("terrain", "down")}  # fmt: skip


def tower_doc(*floors: str, hero=None, enemies=None, name="test", letters=None) -> dict:
    """A tower document from ASCII floors ('H' marks the hero's start on the first floor).

    ``letters`` adds map letters, ``{letter: (kind, id)}``, to the shared :data:`LETTERS`.
    """
    table = {**LETTERS, **(letters or {})}
    numbers = {ch: 10 + i for i, ch in enumerate(table)}
    maps, start = {}, (0, 0)
    for f, art in enumerate(floors):
        rows = [r.strip() for r in art.strip().splitlines()]
        grid = []
        for y, row in enumerate(rows):
            line = []
            for x, ch in enumerate(row):
                if ch == "H" and f == 0:
                    start = (x, y)
                line.append(numbers.get(ch, 0))
            grid.append(line)
        maps[f"F{f + 1}"] = {"map": grid}
    hero_doc = {"floor": "F1", "x": start[0], "y": start[1], "hp": 100, "atk": 10, "def": 0,
                "items": {k: 1 for k, v in SKILLS.items() if v["cls"] != "items"}}  # fmt: skip
    hero_doc.update(hero or {})
    # deep copies: a test that mutates its document must not change the shared tables
    return copy.deepcopy(
        {
            "name": name,
            "enemies": {**ENEMIES, **(enemies or {})},
            "items": SKILLS,
            "terrain": {"wall": {"passable": False}, "up": {"stairs": 1}, "down": {"stairs": -1}},
            "legend": {str(numbers[ch]): {kind: ident} for ch, (kind, ident) in table.items()},
            "floors": maps,
            "hero": hero_doc,
        }
    )


def game(*floors: str, **kw):
    """(engine, actions) for an ASCII tower."""
    engine = MapTurn(World(parse_tower(tower_doc(*floors, **kw))))
    return engine, Actions(engine)


def number(world, letter: str) -> int:
    kind, ident = LETTERS[letter]
    return world.tower.number_of(kind, ident)
