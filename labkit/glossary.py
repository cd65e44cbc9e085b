"""The words labkit shows: one glossary from code names to a designer's words, with units.

Every app, summary and CLI line labels what it shows through this module (the apps through
:mod:`labkit.widgets.glossary`, the same objects; a knob through
:func:`labkit.encounter.sim.knobs.knob_label`), so a number reads the same everywhere:
``npc_win`` is "NPC win rate", the balance pointer ``/characters/monster/life`` is "monster
life (wounds it takes)", ``/tables/hit/0`` is "hit chance at index −4" (the table's own labels,
index = attacker level − target agility, −4 … +4), a settings field ``max_steps`` is "step limit
(steps)". Journal events become sentences ("npc-1 heard a sound to the north, strength 1",
"npc-2 picked up 7 bullets").

* :data:`GLOSSARY` — code name → ``(words, unit)`` (unit ``""`` when the number has none);
* :func:`words` — the words for a code name (with its unit in brackets), the name itself with
  ``_`` as spaces when the glossary lacks it;
* :func:`parameter_words` — a balance pointer or settings field in words;
* :func:`event_sentence` — one journal event as a sentence.

Examples
--------
>>> words("npc_win"), words("max_steps")
('NPC win rate', 'step limit (steps)')
>>> parameter_words("/tables/hit/0"), parameter_words("/characters/monster/life")
('hit chance at index −4', 'monster life (wounds it takes)')
>>> event_sentence({"actor": "npc-1", "category": "signal",
...                 "state": {"direction": "N", "strength": 1}})
'npc-1 heard a sound to the north, strength 1'
"""

from __future__ import annotations

from typing import Any

__all__ = ["GLOSSARY", "words", "parameter_words", "event_sentence", "count_words"]

#: Code name → (words shown, unit). Metrics, settings fields, balance leaves and outcomes.
GLOSSARY: dict[str, tuple[str, str]] = {
    # metrics of a balance sweep (labkit.encounter.sim.sweep.METRICS) and of a paired comparison
    "npc_win": ("NPC win rate", ""),
    "monster_win": ("monster win rate", ""),
    "step_limit": ("share of games stopped at the step limit", ""),
    "mutual_death": ("share of games where both sides die", ""),
    # the rest of a paired comparison's metrics (labkit.encounter.sim.paired.METRICS; its table
    # has its own unit column: "" here is a share, the others are the table's units)
    "balance": ("balance (1 - win-rate gap)", ""),
    "length_mean": ("game length, mean", "turns"),
    "length_sd": ("game length, spread (sd)", "turns"),
    "length_q10": ("game length, 10 % of games end by", "turns"),
    "length_q50": ("game length, 50 % of games end by", "turns"),
    "length_q90": ("game length, 90 % of games end by", "turns"),
    "npcs_alive": ("NPCs alive at the end", ""),
    "npcs_alive_after": ("NPCs alive after turn", ""),  # + the turn (compare's survival points)
    "lead_changes": ("lead changes", "per game"),
    "decided_at": ("decided at (share of the game)", ""),
    # game-length outcomes (labkit.encounter.sim.knobs.GAME_OUTCOMES)
    "steps": ("game length", "steps"),
    "turns": ("game length", "turns"),
    "encounters": ("encounters in a game", "encounters"),
    # sensitivity indices (labkit.encounter.importance)
    "mu_star": ("effect", "change over the knob's range"),
    "total": ("total share of variance", ""),
    "first": ("first-order share of variance", ""),
    # settings fields
    "npcs": ("NPCs in the game", "NPCs"),
    "monsters": ("monsters in the game", "monsters"),
    "width": ("map width", "rooms"),
    "height": ("map height", "rooms"),
    "max_steps": ("step limit", "steps"),
    # balance leaves (the last part of a pointer)
    "life": ("life", "wounds it takes"),
    "hit": ("hit bonus", "index steps"),
    "pursuit": ("pursuit bonus", "index steps"),
    "agility": ("agility", "index steps"),
    "first_strike": ("first strike", "points"),
    "hit_score": ("hit bonus", "index steps"),
    "damage": ("damage", "wounds"),
    "noise": ("noise", "rooms it carries"),
    "magazine": ("magazine", "bullets"),
    "protection": ("protection", "wounds blocked"),
    "stealth_hit_bonus": ("stealth hit bonus", "index steps"),
    "min_wound": ("least wound", "wounds"),
    "max_rounds": ("most fight rounds", "rounds"),
    "base": ("first-strike chance at equal agility", ""),
    "per_agility": ("first-strike chance per agility point", ""),
    "min": ("lowest first-strike chance", ""),
    "max": ("highest first-strike chance", ""),
    # what a scheduled enemy does when its gauge fills (mapturn actType, rule M5)
    "chase": ("chases you along a shortest path", ""),
    "patrol": ("walks its patrol route", ""),
    "idle": ("stands idle", ""),
    "skill": ("uses a skill where it stands", ""),
    # outcomes and end reasons
    "b_escaped": ("the second one escaped", ""),
    "a_escaped": ("the first one escaped", ""),
    "victory": ("victory", ""),
    # a level generator's evaluation (labkit.hexpuzzle.evaluate_generator's table)
    "score": ("score", "points"),
    "tiles": ("tiles on the board", "tiles"),
    "score_target": ("score asked for", "points"),
    "rotations_target": ("rotations asked for", "rotations"),
    "quality": ("playable and as asked", ""),
    "within": ("the score within ±2 points and the rotations asked for", ""),
    "diverse_solution": ("different puzzles by how they are solved", ""),
    "diverse_layout": ("different boards, even turned", ""),
}

_DIRECTIONS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south",
               "SW": "south-west", "W": "west", "NW": "north-west"}  # fmt: skip
_PLURAL = {"bullet": "bullets", "revolver": "revolvers", "silencer": "silencers",
           "long_knife": "long knives"}  # fmt: skip
# The probability tables are indexed by attacker level − target agility, −4 … +4.
_TABLE_OFFSET = 4


def words(name: str) -> str:
    """``name`` in words, with its unit in brackets when it has one.

    Examples
    --------
    >>> words("monster_win"), words("life"), words("some_new_field")
    ('monster win rate', 'life (wounds it takes)', 'some new field')
    """
    said, unit = GLOSSARY.get(name, (name.replace("_", " "), ""))
    return f"{said} ({unit})" if unit else said


def _thing(name: str) -> str:
    return name.replace("_", " ")


def parameter_words(pointer: str) -> str:
    """A balance document pointer (or a settings field) as a designer reads it.

    Examples
    --------
    >>> parameter_words("/tables/pursuit/8"), parameter_words("/weapons/long_knife/noise")
    ('pursuit chance at index +4', 'long knife noise (rooms it carries)')
    >>> parameter_words("/card_pool/stock/bullet"), parameter_words("npcs")
    ('bullets in the card pool', 'NPCs in the game (NPCs)')
    """
    if not pointer.startswith("/"):
        return words(pointer)
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    if len(parts) == 3 and parts[0] == "tables" and parts[2].isdigit():
        index = int(parts[2]) - _TABLE_OFFSET
        sign = "+" if index > 0 else "−" if index < 0 else ""
        return f"{_thing(parts[1])} chance at index {sign}{abs(index)}"
    if len(parts) == 3 and parts[:2] == ["card_pool", "stock"]:
        return f"{_PLURAL.get(parts[2], _thing(parts[2]))} in the card pool"
    if len(parts) == 3 and parts[0] in ("characters", "weapons", "armour", "attachments"):
        owner = "NPC" if parts[1] == "npc" else _thing(parts[1])
        return f"{owner} {words(parts[2])}"
    if parts[:1] == ["priority"] and len(parts) == 2:
        return words(parts[1])
    if parts[:1] == ["combat"] and len(parts) == 2:
        return words(parts[1])
    return " ".join(_thing(p) for p in parts)


def count_words(found: dict[str, int]) -> str:
    """``{"bullet": 7, "revolver": 1}`` as "7 bullets and a revolver" ("nothing" when empty).

    Examples
    --------
    >>> count_words({"bullet": 7, "revolver": 1, "silencer": 1}), count_words({})
    ('7 bullets, a revolver and a silencer', 'nothing')
    """
    items = [
        f"a {_thing(k)}" if n == 1 else f"{n} {_PLURAL.get(k, _thing(k) + 's')}"
        for k, n in found.items()
    ]
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _room(xy: Any) -> str:
    return f"room {xy[0]},{xy[1]}"


def event_sentence(event: dict[str, Any]) -> str:
    """One journal event as a sentence (the viewer's "what happened" column).

    Examples
    --------
    >>> event_sentence({"actor": "npc-2", "category": "pickup",
    ...                 "state": {"room": [1, 1], "taken": {"bullet": 7}}})
    'npc-2 picked up 7 bullets in room 1,1'
    >>> event_sentence({"actor": None, "category": "encounter_end",
    ...                 "state": {"outcome": "b_escaped", "a": "monster-0", "b": "npc-0"}})
    'npc-0 escaped from monster-0'
    """
    s, who, cat = event.get("state") or {}, event.get("actor") or "", event.get("category")
    try:
        return _sentence(cat, who, s)
    except (KeyError, IndexError, TypeError, ValueError):
        return f"{who} {_thing(str(cat))}".strip()  # a hand-edited event: its kind at least


def _sentence(cat: Any, who: str, s: dict[str, Any]) -> str:
    if cat == "spawn":
        return f"{who} ({s['side']}, life {s['life']}) starts in {_room(s['position'])}"
    if cat == "visit":
        return f"{who} enters {_room(s['position'])}"
    if cat == "decision":
        action = str(s["action"])
        if action.startswith("move:"):
            return f"{who} decides to move {_DIRECTIONS.get(action[5:], action[5:])}"
        return f"{who} decides to {_thing(action)}"
    if cat == "illegal":
        return f"{who} tried to {_thing(str(s['action']))}, which the rules do not allow"
    if cat == "move":
        how = "" if s.get("cause") == "policy" else f" ({_thing(str(s.get('cause')))})"
        return f"{who} moves from {_room(s['from'])} to {_room(s['to'])}{how}"
    if cat == "explore":
        return f"{who} explores {_room(s['room'])} and finds {count_words(s['found'])}"
    if cat == "pickup":
        return f"{who} picked up {count_words(s['taken'])} in {_room(s['room'])}"
    if cat == "equip":
        return f"{who} {'equips' if s['ok'] else 'cannot equip'} the {_thing(s['item'])}"
    if cat == "reload":
        return f"{who} reloads: {s['loaded']} bullets in the magazine"
    if cat in ("hide", "wait"):
        return f"{who} {'hides' if cat == 'hide' else 'waits'}"
    if cat == "encounter":
        return f"{s['a']} meets {s['b']} in {_room(s['room'])} ({_thing(str(s['cause']))})"
    if cat == "fight":
        life = " and ".join(str(v) for v in s["life"])
        outcome = "" if s["outcome"] == "continue" else f", {_thing(str(s['outcome']))}"
        return f"fight round {s['round']}: {' and '.join(s['actions'])}, life left {life}{outcome}"
    if cat == "encounter_end":
        outcome = str(s["outcome"])
        if outcome == "b_escaped":
            return f"{s['b']} escaped from {s['a']}"
        if outcome == "a_escaped":
            return f"{s['a']} escaped from {s['b']}"
        return f"the encounter of {s['a']} and {s['b']} ends: {_thing(outcome)}"
    if cat == "death":
        return f"{who} was killed by {s['by']} in {_room(s['position'])}, dropping " + count_words(
            s["drops"]
        )
    if cat == "sound":
        heard = ", ".join(f"{x[3]} in {_room(x)} (loudness {x[2]})" for x in s["sources"])
        return f"sounds: {heard}"
    if cat == "signal":
        where = _DIRECTIONS.get(str(s["direction"]), str(s["direction"]))
        return f"{who} heard a sound to the {where}, strength {s['strength']}"
    if cat == "end":
        survivors = ", ".join(s["survivors"]) or "nobody"
        return (
            f"the game ends: {s['winner']} side wins ({_thing(str(s['reason']))}); "
            f"survivors: {survivors}"
        )
    return f"{who} {_thing(str(cat))}".strip()
