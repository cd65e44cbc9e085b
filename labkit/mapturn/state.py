"""Runtime state that is saved: ``mapTurnState`` and ``skillState`` (seed §3.3, rule M8).

Everything here is plain JSON. The active-enemy cache is *not* state: it is derived from the map
and rebuilt after a load. Parsing validates every field before anything is built, so a corrupt
save raises :class:`SaveError` and leaves the running game untouched.

Decisions the rules leave open:

* ``clock`` grows by ``n`` at once in ``consume_time`` (seed §2.1, first variant); ``mapTurn``
  grows by one per tick.
* ``enemyMemory`` holds per-instance action memory (the patrol's next waypoint), keyed like the
  gauges and carried with them when an instance moves.
* Battle skills are held per exclusive group: ``activeBattleSkills = {group: skillId}`` (a skill
  without a group is its own group). ``activeBattleSkillId`` in the seed is the single-group case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from labkit import LabkitError
from labkit.io import FormatError, check, pointer
from labkit.io import field as get

from .defs import MAX_STAT

__all__ = ["SaveError", "MapTurnState", "SkillState", "SAVE_FORMAT", "SAVE_VERSION"]

SAVE_FORMAT = "labkit.mapturn.save"
SAVE_VERSION = 1
#: Limits of a save besides the tower's own (:mod:`.defs`): the clock, map turn and a gauge
#: stay below 2**53 (exact in a float64 and in JSON readers of other languages).
MAX_CLOCK = 2**53


class MapTurnError(LabkitError):
    """Misuse of the map-turn engine (e.g. a bad time amount).

    Defined here, below the scheduler and the enemy behaviours, so both raise it without
    importing each other.
    """


class SaveError(FormatError):
    """A save file or save document that is corrupt, of another format, version or tower."""


@dataclass
class MapTurnState:
    """``flags.mapTurnState``: clock, map turn, gauges and per-instance memory.

    Examples
    --------
    >>> s = MapTurnState(clock=3, map_turn=3)
    >>> MapTurnState.parse(s.to_dict(), "", set()) == s
    True
    """

    clock: int = 0
    map_turn: int = 0
    gauges: dict[str, dict[str, float]] = field(default_factory=dict)
    memory: dict[str, dict[str, dict]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "clock": self.clock,
            "mapTurn": self.map_turn,
            "enemyActionGauge": {f: dict(g) for f, g in self.gauges.items()},
            "enemyMemory": {f: {k: dict(v) for k, v in m.items()} for f, m in self.memory.items()},
        }

    @classmethod
    def parse(cls, doc: Any, at: str, floors: set[str]) -> MapTurnState:
        check(isinstance(doc, dict), "must be an object", at, doc, SaveError)
        clock = get(doc, "clock", int, at, SaveError)
        turn = get(doc, "mapTurn", int, at, SaveError)
        check(0 <= clock <= MAX_CLOCK, f"must be 0-{MAX_CLOCK}", at + "/clock", clock, SaveError)
        check(0 <= turn <= MAX_CLOCK, f"must be 0-{MAX_CLOCK}", at + "/mapTurn", turn, SaveError)
        stores = []
        for key, kind in (("enemyActionGauge", float), ("enemyMemory", dict)):
            out: dict[str, dict] = {}
            for fid, values in get(doc, key, dict, at, SaveError).items():
                fat = at + pointer(key, fid)
                check(fid in floors, "unknown floor", fat, fid, SaveError)
                check(isinstance(values, dict), "must be an object", fat, values, SaveError)
                for rid in values:
                    value = get(values, rid, kind, fat, SaveError)
                    if kind is float:  # M5: a gauge only drops while >= timeCost
                        check(0 <= value <= MAX_CLOCK, f"a gauge is 0-{MAX_CLOCK}",
                              fat + pointer(rid), value, SaveError)  # fmt: skip
                    check(rid.startswith(fid + ":"), "runtime id of another floor",
                          fat + pointer(rid), rid, SaveError)  # fmt: skip
                out[fid] = {k: (float(v) if kind is float else dict(v)) for k, v in values.items()}
            stores.append(out)
        return cls(clock, turn, stores[0], stores[1])


@dataclass
class SkillState:
    """``flags.skillState``: active status skills, active battle skills, temporary state.

    Examples
    --------
    >>> s = SkillState(active_battle_skills={"battleSkill": "fireball"})
    >>> s.active_battle_skill_id, SkillState().active_battle_skill_id
    ('fireball', None)
    >>> s.to_dict()
    {'activeStatusSkills': {}, 'activeBattleSkills': {'battleSkill': 'fireball'}, 'temp': {}}
    """

    active_status_skills: dict[str, dict[str, Any]] = field(default_factory=dict)
    active_battle_skills: dict[str, str] = field(default_factory=dict)
    temp: dict[str, Any] = field(default_factory=dict)

    @property
    def active_battle_skill_id(self) -> str | None:
        """The seed's single ``activeBattleSkillId``: the skill of group ``battleSkill``."""
        return self.active_battle_skills.get("battleSkill")

    def to_dict(self) -> dict[str, Any]:
        return {
            "activeStatusSkills": {k: dict(v) for k, v in self.active_status_skills.items()},
            "activeBattleSkills": dict(self.active_battle_skills),
            "temp": dict(self.temp),
        }

    @classmethod
    def parse(cls, doc: Any, at: str, items: dict) -> SkillState:
        check(isinstance(doc, dict), "must be an object", at, doc, SaveError)
        status = {}
        for sid, s in get(doc, "activeStatusSkills", dict, at, SaveError).items():
            sat = at + pointer("activeStatusSkills", sid)
            check(sid in items and items[sid].cls == "skillupdate", "not a status skill", sat, sid,
                  SaveError)  # fmt: skip
            check(isinstance(s, dict), "must be an object", sat, s, SaveError)
            remain = get(s, "remainBattles", (int, type(None)), sat, SaveError)
            check(remain is None or 0 < remain <= MAX_STAT, f"must be 1-{MAX_STAT} or null",
                  sat + "/remainBattles", remain, SaveError)  # fmt: skip
            btc = get(s, "battleTimeCost", int, sat, SaveError)
            check(0 <= btc <= MAX_STAT, f"must be 0-{MAX_STAT}", sat + "/battleTimeCost", btc,
                  SaveError)  # fmt: skip
            src = get(s, "sourceItemId", str, sat, SaveError)
            status[sid] = {"remainBattles": remain, "battleTimeCost": btc, "sourceItemId": src}
        battle = {}
        for group, sid in get(doc, "activeBattleSkills", dict, at, SaveError).items():
            gat = at + pointer("activeBattleSkills", group)
            ok = isinstance(sid, str) and sid in items and items[sid].cls == "skillbattle"
            check(ok, "not a battle skill", gat, sid, SaveError)
            # M3: one skill per exclusive group, held under its group (or its own id)
            home = items[sid].exclusive_group or sid
            check(group == home, f"held under its group {home!r}", gat, sid, SaveError)
            battle[group] = sid
        temp = get(doc, "temp", dict, at, SaveError)
        return cls(status, battle, dict(temp))
