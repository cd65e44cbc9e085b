"""The saved runtime state (rule M8): ``mapTurnState`` and ``skillState`` round-trip through
their documents, and every corrupt field is refused as a SaveError naming its pointer, before
anything is built. Items and floors are the shipped example tower's."""

from __future__ import annotations

import copy

import pytest

from labkit import LabkitError
from labkit.io import FormatError
from labkit.mapturn.defs import Tower, example_tower_path
from labkit.mapturn.state import (
    MAX_CLOCK,
    SAVE_FORMAT,
    SAVE_VERSION,
    MapTurnError,
    MapTurnState,
    SaveError,
    SkillState,
)

ITEMS = Tower.load(example_tower_path()).items
FLOORS = {"F1", "F2"}

TURN = MapTurnState(clock=7, map_turn=5, gauges={"F1": {"F1:3:1:bat": 1.5}},
                    memory={"F1": {"F1:5:5:skeleton": {"next": 2}}})  # fmt: skip
SKILLS = SkillState(
    active_status_skills={"focus": {"remainBattles": 2, "battleTimeCost": 3,
                                    "sourceItemId": "focus"}},
    active_battle_skills={"battleSkill": "powerStrike"},
    temp={"note": 1},
)  # fmt: skip


def test_the_errors_and_the_save_header():
    assert issubclass(SaveError, FormatError) and issubclass(MapTurnError, LabkitError)
    assert (SAVE_FORMAT, SAVE_VERSION, MAX_CLOCK) == ("labkit.mapturn.save", 1, 2**53)


def test_map_turn_state_round_trips_under_the_seeds_names():
    doc = TURN.to_dict()
    assert doc == {"clock": 7, "mapTurn": 5, "enemyActionGauge": {"F1": {"F1:3:1:bat": 1.5}},
                   "enemyMemory": {"F1": {"F1:5:5:skeleton": {"next": 2}}}}  # fmt: skip
    assert MapTurnState.parse(doc, "/mapTurnState", FLOORS) == TURN
    doc["enemyMemory"]["F1"]["F1:5:5:skeleton"]["next"] = 9  # a copy, not the state's
    assert TURN.memory["F1"]["F1:5:5:skeleton"] == {"next": 2}


def test_skill_state_round_trips_and_names_the_seeds_single_battle_skill():
    doc = SKILLS.to_dict()
    assert SkillState.parse(doc, "/skillState", ITEMS) == SKILLS
    assert SKILLS.active_battle_skill_id == "powerStrike"
    assert SkillState().active_battle_skill_id is None


def _broken(doc, path, value):
    bad = copy.deepcopy(doc)
    at = bad
    for key in path[:-1]:
        at = at[key]
    if value is KeyError:
        del at[path[-1]]
    else:
        at[path[-1]] = value
    return bad


@pytest.mark.parametrize(
    "path, value, where",
    [
        (("clock",), -1, "/mapTurnState/clock"),
        (("mapTurn",), MAX_CLOCK + 1, "/mapTurnState/mapTurn"),
        (("clock",), KeyError, "/mapTurnState/clock"),
        (("enemyActionGauge", "F9"), {}, "/mapTurnState/enemyActionGauge/F9"),
        (
            ("enemyActionGauge", "F1", "F1:3:1:bat"),
            -0.5,
            "/mapTurnState/enemyActionGauge/F1/F1:3:1:bat",
        ),
        (
            ("enemyActionGauge", "F1", "F2:3:1:bat"),
            1.0,
            "/mapTurnState/enemyActionGauge/F1/F2:3:1:bat",
        ),
        (("enemyMemory", "F1"), [], "/mapTurnState/enemyMemory/F1"),
    ],
    ids=lambda v: "/".join(v) if isinstance(v, tuple) else None,
)
def test_a_corrupt_map_turn_state_names_the_field(path, value, where):
    with pytest.raises(SaveError) as err:
        MapTurnState.parse(_broken(TURN.to_dict(), path, value), "/mapTurnState", FLOORS)
    assert err.value.pointer == where, str(err.value)


@pytest.mark.parametrize(
    "path, value, where",
    [
        (
            ("activeStatusSkills", "powerStrike"),
            {"remainBattles": 1, "battleTimeCost": 0, "sourceItemId": "x"},
            "/skillState/activeStatusSkills/powerStrike",
        ),
        (
            ("activeStatusSkills", "focus", "remainBattles"),
            0,
            "/skillState/activeStatusSkills/focus/remainBattles",
        ),
        (
            ("activeStatusSkills", "focus", "battleTimeCost"),
            10**10,
            "/skillState/activeStatusSkills/focus/battleTimeCost",
        ),
        (
            ("activeStatusSkills", "focus", "sourceItemId"),
            3,
            "/skillState/activeStatusSkills/focus/sourceItemId",
        ),
        (
            ("activeBattleSkills", "battleSkill"),
            "focus",
            "/skillState/activeBattleSkills/battleSkill",
        ),
        (("activeBattleSkills", "battleSkill"), KeyError, None),
        (("activeBattleSkills", "other"), "doubleStrike", "/skillState/activeBattleSkills/other"),
        (("temp",), [], "/skillState/temp"),
    ],
    ids=lambda v: "/".join(v) if isinstance(v, tuple) else None,
)
def test_a_corrupt_skill_state_names_the_field(path, value, where):
    bad = _broken(SKILLS.to_dict(), path, value)
    if where is None:  # no battle skill held is a valid state
        assert SkillState.parse(bad, "/skillState", ITEMS).active_battle_skill_id is None
        return
    with pytest.raises(SaveError) as err:
        SkillState.parse(bad, "/skillState", ITEMS)
    assert err.value.pointer == where, str(err.value)


def test_a_state_that_is_not_an_object_is_refused():
    with pytest.raises(SaveError, match="must be an object"):
        MapTurnState.parse([], "/mapTurnState", FLOORS)
    with pytest.raises(SaveError, match="must be an object"):
        SkillState.parse("x", "/skillState", ITEMS)
