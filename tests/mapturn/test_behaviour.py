"""Enemy actions: chase (along labkit.pathfinding's shortest path), patrol, skill handlers."""

from __future__ import annotations

import pytest

from labkit.mapturn import MapTurnError
from labkit.pathfinding import grid_path

from .helpers import game

MAZE = """
#######
#H#...#
#.#.#.#
#...#c#
#######
"""


def test_chase_steps_along_the_shortest_path_and_keeps_its_gauge():
    engine, _ = game(MAZE)
    world = engine.world
    cost = world.passable("F1").astype(float)
    cost[1, 1] = cost[3, 5] = 1.0
    path, _ = grid_path(cost, (5, 3), (1, 1))
    trail = []
    for _ in range(len(path) - 2):
        engine.consume_time(1)
        trail.append(engine.cache.entries("F1")[0][1:3])
    assert trail == [tuple(p) for p in path[1:-1].tolist()]
    assert engine.world.scans == 1  # only the initial build


def test_the_cached_passable_grid_is_handed_out_read_only():
    engine, _ = game(MAZE)
    grid = engine.world.passable("F1")
    assert not grid[1, 2]  # a wall
    with pytest.raises(ValueError, match="read-only"):
        grid[1, 2] = True
    assert engine.world.passable("F1") is grid and not grid[1, 2]  # the cache is intact


def test_reaching_the_hero_starts_a_battle_without_extra_time():
    engine, _ = game("#####\n#Hc.#\n#####")
    engine.consume_time(1)
    assert [e[2] for e in engine.log] == ["chase", "reach", "battle"]
    assert engine.world.enemy_at("F1", 2, 1) is None and engine.state.clock == 1
    assert engine.world.hero.hp == 100  # hero hits first: 10 dmg kills the 10-hp chaser


def test_chaser_without_a_path_waits():
    engine, _ = game("######\n#H#.c#\n######")
    engine.consume_time(3)
    assert engine.cache.entries("F1")[0][1:3] == (4, 1)


def test_patrol_walks_its_waypoints_in_a_loop():
    patrol = {"hp": 5, "atk": 0, "def": 0, "timeCost": 1, "actType": "patrol",
              "actArgs": {"waypoints": [[3, 1], [3, 2], [1, 2]]}}  # fmt: skip
    engine, _ = game("#####\n#c..#\n#...#\n#H..#\n#####", enemies={"chaser": patrol})
    seen = []
    for _ in range(7):
        engine.consume_time(1)
        seen.append(engine.cache.entries("F1")[0][1:3])
    assert seen == [(2, 1), (3, 1), (3, 2), (2, 2), (1, 2), (2, 2), (3, 2)]
    assert engine.state.memory["F1"]  # the next waypoint is saved per instance


def test_skill_handler_is_called_and_missing_handlers_are_named():
    caster = {"hp": 5, "atk": 0, "def": 0, "timeCost": 2, "actType": "skill",
              "actArgs": {"handler": "shout"}}  # fmt: skip
    engine, _ = game("#####\n#Hc.#\n#####", enemies={"chaser": caster})
    with pytest.raises(MapTurnError, match="shout"):
        engine.consume_time(2)
    engine2, _ = game("#####\n#Hc.#\n#####", enemies={"chaser": caster})
    calls = []
    engine2.register_skill_handler("shout", lambda eng, entry: calls.append(entry.runtime_id))
    engine2.consume_time(4)
    assert calls == ["F1:2:1:chaser", "F1:2:1:chaser"]


def test_builtin_drain_can_kill():
    drain = {"hp": 5, "atk": 0, "def": 0, "timeCost": 1, "actType": "skill",
             "actArgs": {"handler": "drain", "range": 2, "amount": 60}}  # fmt: skip
    engine, act = game("######\n#H.c.#\n######", enemies={"chaser": drain})
    act.use_item("focus")
    engine.consume_time(1)
    assert engine.world.hero.hp == 40
    engine.consume_time(1)
    assert engine.world.hero.dead and engine.skills.active_status_skills == {}
    logged = len(engine.log)
    engine.consume_time(2)
    assert len(engine.log) == logged  # after death no enemy acts
