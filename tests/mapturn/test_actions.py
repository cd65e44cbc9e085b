"""The action matrix (M4): each player action advances exactly the time the matrix says."""

from __future__ import annotations

import pytest

from labkit import ArgumentError
from labkit.mapturn import MapTurnError

from .helpers import game

ROOM = """
#######
#H.p..#
#..i..#
#.....#
#######
"""


@pytest.mark.parametrize(
    "script, time",
    [
        ("R", 1),  # move
        ("pD", 0),  # nothing to pick up below
        ("L", 0),  # walking into a wall
        ("~", 0),  # UI
        ("[focus]", 0),  # status skill
        ("[strike]", 0),  # battle skill toggle
        ("[bigKey]", 3),  # tools: the item's timeCost
        ("[fireball]", 2),  # ranged
        ("[heal]", 3),  # recover
    ],
)
def test_action_matrix(script, time):
    engine, act = game(ROOM)
    (result,) = act.run(script)
    assert result.time == time == engine.state.clock == engine.advance_calls


def test_pick_up_without_moving_and_forced_moves():
    engine, act = game(ROOM)
    act.move("R")
    result = act.pick_up("R")
    assert result.kind == "picked" and result.time == 1 and engine.world.hero.hp == 110
    assert (engine.world.hero.x, engine.world.hero.y) == (2, 1)
    assert act.move("D", forced=True).time == 1


def test_ranged_skill_defeats_the_nearest_enemy_and_bomb_is_one_batch():
    engine, act = game(ROOM)
    act.use_item("fireball")
    assert engine.world.enemy_at("F1", 3, 2) is None
    engine2, act2 = game("#####\n#iHi#\n#.i.#\n#####")
    scans = engine2.world.scans
    result = act2.use_item("bomb")
    assert result.time == 1 and engine2.cache.entries("F1") == []
    assert engine2.world.scans == scans + 1 and engine2.world.hero.items["bomb"] == 0
    assert act2.use_item("bomb").kind == "not_owned"


def test_stack_policies():
    engine, act = game(ROOM)
    status = engine.skills.active_status_skills
    act.use_item("focus")
    status["focus"]["remainBattles"] = 1
    act.use_item("focus")  # refresh
    assert status["focus"]["remainBattles"] == 2
    act.use_item("wall")
    act.use_item("wall")  # stack
    assert status["wall"]["remainBattles"] == 6
    act.use_item("vow")
    act.use_item("oath")  # replace: same exclusive group goes
    assert "vow" not in status and status["oath"]["remainBattles"] is None


def test_cancel_rules_and_toggle_costs_no_time():
    engine, act = game(ROOM)
    act.toggle_status_skill("focus")
    assert act.toggle_status_skill("focus").kind == "status_off"
    act.toggle_status_skill("oath")
    assert act.toggle_status_skill("oath").kind == "cannot_cancel"
    assert "oath" in engine.skills.active_status_skills and engine.state.clock == 0


def test_battle_skills_are_exclusive_per_group():
    engine, act = game(ROOM)
    act.activate_battle_skill("strike")
    act.activate_battle_skill("double")
    assert engine.skills.active_battle_skills == {"battleSkill": "double"}
    assert engine.skills.active_battle_skill_id == "double"
    assert engine.settle_battle_time_cost() == 4
    assert act.activate_battle_skill("double").kind == "battle_skill_off"
    assert engine.settle_battle_time_cost() == 1


def test_stairs_change_floor_and_reset_the_map_turn():
    engine, act = game("#####\n#H^.#\n#####", "#####\n#v.i#\n#####")
    engine.consume_time(2)
    result = act.move("R")
    assert result.kind == "stairs" and engine.world.floor == "F2"
    assert (engine.world.hero.x, engine.world.hero.y) == (1, 1)
    assert engine.state.map_turn == 0 and engine.state.clock == 3
    act.move("R")
    assert act.move("L").kind == "stairs" and engine.world.floor == "F1"
    assert (engine.world.hero.x, engine.world.hero.y) == (2, 1)  # arrives on F1's upstairs


def test_disabled_engine_spends_no_time():
    engine, act = game(ROOM)
    engine.enabled = False
    assert act.move("R").time == 0 and engine.state.map_turn == 0 and engine.log == []


def test_bad_input():
    _, act = game(ROOM)
    with pytest.raises(ArgumentError, match="direction: is one of"):
        act.move("X")
    with pytest.raises(MapTurnError):
        act.run("?")
    with pytest.raises(MapTurnError):
        act.use_item("nothing")


def test_pluggable_battle_resolver_and_failure_keeps_layers_until_death():
    from labkit.mapturn import BattleOutcome

    engine, act = game(ROOM)
    engine.resolver = lambda hero, enemy: BattleOutcome(True, 7)
    act.use_item("focus")
    assert engine.apply_status_after_battle("failure") == []
    assert engine.skills.active_status_skills["focus"]["remainBattles"] == 2
    act.run("RRD")  # picks the potion (+10), then bumps into the idler at (3, 2)
    assert engine.world.hero.hp == 100 + 10 - 7
    assert engine.skills.active_status_skills["focus"]["remainBattles"] == 1


def test_pick_up_names_a_bad_direction():
    # house rule: bad input is a LabkitError naming the value, not a KeyError
    engine, act = game(ROOM)
    with pytest.raises(ArgumentError, match="direction: .*'X'"):
        act.pick_up("X")
    with pytest.raises(ArgumentError, match="direction: .*'X'"):
        act.run("pX")
    assert engine.state.clock == 0
