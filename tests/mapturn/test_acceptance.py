"""The ten acceptance items of SPEC M9 (seed §10), one named test each."""

from __future__ import annotations

import json

from labkit.mapturn import MapTurn

from .helpers import game, number, tower_doc

OPEN = """
#########
#H......#
#.......#
#.......#
#########
"""


def test_m9_01_status_skill_costs_no_time_and_a_won_battle_drops_one_layer():
    engine, act = game("#####\n#Hi.#\n#...#\n#####")
    result = act.use_item("focus")
    assert result.time == 0 and engine.state.clock == 0 and engine.state.map_turn == 0
    assert engine.skills.active_status_skills["focus"]["remainBattles"] == 2
    fight = act.move("R")
    assert fight.kind == "battle" and fight.battles == 1
    assert engine.skills.active_status_skills["focus"]["remainBattles"] == 1


def test_m9_02_ranged_and_recover_skills_advance_time_and_enemies_respond():
    engine, act = game("#######\n#H....#\n#....s#\n#....c#\n#######")
    chaser_before = engine.cache.entries("F1")[-1]
    ranged = act.use_item("fireball")  # nothing in range 3 of the hero: still costs its time
    assert ranged.time == 2 and engine.state.map_turn == 2
    slow_acts = [e for e in engine.log if e[1].endswith(":slow") and e[2] == "idle"]
    assert [e[0] for e in slow_acts] == [2]  # timeCost 2: acts on the second tick
    assert engine.cache.entries("F1")[-1] != chaser_before  # the chaser walked
    recover = act.use_item("heal")
    assert recover.time == 3 and engine.state.clock == 5 and engine.world.hero.hp == 150


def test_m9_03_battle_time_is_the_max_not_the_sum():
    engine, act = game("#####\n#Hi.#\n#####")
    act.use_item("focus")  # battleTimeCost 3
    act.use_item("wall")  # battleTimeCost 2
    act.activate_battle_skill("strike")  # timeCost 2
    assert engine.settle_battle_time_cost() == 3
    assert act.move("R").time == 3  # not 1 + 3 + 2 + 2


def test_m9_04_multi_capture_drops_layers_battle_by_battle():
    engine, act = game("#####\n#g.g#\n#.H.#\n#####")
    act.use_item("wall")  # 3 layers, battleTimeCost 2
    act.use_item("brief")  # 1 layer, battleTimeCost 3
    result = act.move("U")  # arrives between two capture guards
    battles = [e for e in engine.log if e[2] == "battle"]
    assert result.battles == 2 and len(battles) == 2
    # the first battle is settled with "brief" still active (3), the second after it dropped (2)
    assert [e[4] for e in battles] == [3, 2]
    assert engine.skills.active_status_skills["wall"]["remainBattles"] == 1
    assert "brief" not in engine.skills.active_status_skills
    assert result.time == 1 + 3 + 2


def test_m9_05_contact_battle_only_settles_exactly_one_battle():
    engine, act = game("#####\n#gB.#\n#.H.#\n#####")
    engine.world.remove_block("F1", 1, 1)
    engine.world.set_block("F1", 1, 1, number(engine.world, "g"))  # a guard beside the hero
    engine.world.move_enemy_on_point("F1", 1, 1, 1, 2)
    boss = act.move("U")
    assert boss.battles == 1 and engine.world.enemy_at("F1", 1, 2) is not None
    # the same contact with an ordinary enemy chains the capture battle
    engine2, act2 = game("#####\n#gi.#\n#.H.#\n#####")
    engine2.world.move_enemy_on_point("F1", 1, 1, 1, 2)
    assert act2.move("U").battles == 2


def test_m9_06_death_clears_statuses_battle_skill_and_temp_state():
    engine, act = game("#####\n#HT.#\n#####")
    act.use_item("focus")
    act.use_item("oath")
    act.activate_battle_skill("strike")
    engine.skills.temp["inBattle"] = True
    result = act.move("R")
    hero = engine.world.hero
    assert result.kind == "battle" and hero.dead and hero.hp == 0
    assert engine.skills.active_status_skills == {}
    assert engine.skills.active_battle_skills == {} and engine.skills.temp == {}
    assert engine.skills.active_battle_skill_id is None
    assert act.move("D").kind == "dead" and act.move("D").time == 0


def test_m9_07_save_load_keeps_layers_and_the_clock_continuous():
    engine, act = game(
        OPEN.replace("H......", "H...i.s").replace("#.......#\n#....", "#.....c.#\n#....")
    )
    act.use_item("wall")
    act.run("RRR")  # the chaser reaches the hero on the way: one battle, one layer
    assert engine.skills.active_status_skills["wall"]["remainBattles"] == 2
    doc = json.loads(json.dumps(engine.to_dict()))
    loaded = MapTurn.from_dict(doc, engine.tower)
    assert loaded.state.clock == engine.state.clock == 3
    assert loaded.state.map_turn == engine.state.map_turn
    assert loaded.skills.to_dict() == engine.skills.to_dict()
    assert loaded.state.gauges == engine.state.gauges
    for e in (engine, loaded):
        e.consume_time(2, "after")
    assert loaded.to_dict() == engine.to_dict()
    assert loaded.state.clock == 5


def test_m9_08_time_cost_zero_enemies_are_not_scheduled_and_cost_nothing():
    rocks = OPEN.replace("#.......#", "#rrrrrrr#")
    engine, act = game(rocks)
    assert engine.cache.entries("F1") == []
    engine.consume_time(10, "wait")
    assert engine.log == [] and engine.state.gauges.get("F1", {}) == {}
    # adding rocks never lengthens the tick: the walked list stays empty
    engine.world.set_block("F1", 1, 1, number(engine.world, "r"))
    assert engine.cache.entries("F1") == []


def test_m9_09_consume_time_3_runs_advance_one_exactly_three_times():
    engine, _ = game("#####\n#Hs.#\n#####")
    seen = []
    original = engine.advance_one

    def spy(reason=""):
        original(reason)
        seen.append((engine.state.map_turn, engine.gauge("F1", 2, 1)))

    engine.advance_one = spy
    assert engine.consume_time(3, "tool") == 3
    # three separate ticks, each settling the gauge once: 1, 2->0 (acts), 1
    assert seen == [(1, 1.0), (2, 0.0), (3, 1.0)]
    assert engine.state.clock == 3
    assert [e[0] for e in engine.log] == [2]


def test_m9_10_ticks_never_scan_the_floor():
    engine, act = game(OPEN.replace("#.......#\n#.......#", "#..c..s.#\n#.r..i..#"))
    scans = engine.world.scans
    version = engine.cache.version
    engine.consume_time(20, "wait")
    act.run("RRDRR")
    assert engine.world.scans == scans  # every change was patched, not rescanned
    assert engine.cache.version > version  # ...and patched it was (the chaser moved)
    assert all(e[3] != "rock" for e in engine.cache.entries("F1"))


def test_tower_doc_helper_places_the_hero():
    doc = tower_doc("###\n#H#\n###")
    assert (doc["hero"]["x"], doc["hero"]["y"]) == (1, 1)
