"""What a scheduled enemy does when its gauge fills (``performEnemyAction``, rule M5).

* ``idle`` — nothing.
* ``chase`` — one step along a shortest path to the hero (``labkit.pathfinding.grid_path`` on the
  floor's passability, 4-way); when the next cell is the hero's, a battle starts instead. With no
  path the chaser waits.
* ``patrol`` — one step toward its current waypoint (``actArgs.waypoints``, ``[[x, y], …]``,
  visited in a loop; x first, then y); a blocked step waits; stepping onto the hero is a battle.
  The index of the next waypoint is per-instance memory, saved and carried like the gauge.
* ``skill`` — calls the handler registered under ``actArgs.handler``.

Enemies move with :meth:`World.move_enemy_on_point`, so the cache migrates them (gauge kept).
Items, walls and other enemies block a walking enemy; the hero's cell is the goal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .cache import ActiveEnemy
from .state import MapTurnError

if TYPE_CHECKING:  # pragma: no cover
    from .scheduler import MapTurn

__all__ = ["perform", "chase_step", "BUILTIN_HANDLERS"]


def perform(engine: MapTurn, entry: ActiveEnemy) -> None:
    act = entry.definition.act_type
    engine.log.append((engine.state.map_turn, entry.runtime_id, act))
    if act == "chase":
        step = chase_step(engine, entry)
    elif act == "patrol":
        step = _patrol_step(engine, entry)
    elif act == "skill":
        name = entry.definition.act_args["handler"]
        handler = engine.handlers.get(name)
        if handler is None:
            raise MapTurnError(f"no skill handler registered as {name!r}", value=entry.runtime_id)
        handler(engine, entry)
        return
    else:
        return
    if step is not None:
        _walk(engine, entry, step)


def _walk(engine: MapTurn, entry: ActiveEnemy, step: tuple[int, int]) -> None:
    world, hero = engine.world, engine.world.hero
    floor = world.floor
    if step == (hero.x, hero.y):
        engine.log.append((engine.state.map_turn, entry.runtime_id, "reach"))
        engine.settle_battles([(entry.x, entry.y)], consume=False, reason="enemy")
        return
    if world.passable(floor)[step[1], step[0]]:
        world.move_enemy_on_point(floor, entry.x, entry.y, step[0], step[1])
        engine.log.append((engine.state.map_turn, entry.runtime_id, "at", step[0], step[1]))


def chase_step(engine: MapTurn, entry: ActiveEnemy) -> tuple[int, int] | None:
    """The next cell of ``entry``'s shortest path to the hero, or None (no path / not here)."""
    from labkit.pathfinding import grid_path

    world, hero = engine.world, engine.world.hero
    if hero.dead or hero.floor != world.floor:
        return None
    cost = np.where(world.passable(world.floor), 1.0, np.inf)
    cost[hero.y, hero.x] = 1.0
    cost[entry.y, entry.x] = 1.0
    path, _ = grid_path(cost, (entry.x, entry.y), (hero.x, hero.y))
    if len(path) < 2:
        return None
    return int(path[1][0]), int(path[1][1])


def _patrol_step(engine: MapTurn, entry: ActiveEnemy) -> tuple[int, int] | None:
    points = entry.definition.act_args["waypoints"]
    if not points:
        return None
    floor = engine.world.floor
    memory = engine.state.memory.setdefault(floor, {}).setdefault(entry.runtime_id, {})
    index = memory.get("waypoint", 0) % len(points)
    tx, ty = points[index]
    if (tx, ty) == (entry.x, entry.y):
        index = (index + 1) % len(points)
        tx, ty = points[index]
    memory["waypoint"] = index
    dx, dy = np.sign(tx - entry.x), np.sign(ty - entry.y)
    if dx == 0 and dy == 0:
        return None
    step = (entry.x + int(dx), entry.y) if dx != 0 else (entry.x, entry.y + int(dy))
    return step if engine.world.inside(floor, *step) else None


def _drain(engine: MapTurn, entry: ActiveEnemy) -> None:
    """Built-in skill: hurt the hero by ``actArgs.amount`` within Manhattan ``actArgs.range``."""
    args = entry.definition.act_args
    hero = engine.world.hero
    if hero.dead or abs(hero.x - entry.x) + abs(hero.y - entry.y) > int(args.get("range", 1)):
        return
    hero.hp -= int(args.get("amount", 1))
    engine.log.append((engine.state.map_turn, entry.runtime_id, "drain", hero.hp))
    if hero.hp <= 0:
        engine.die(f"drained by {entry.runtime_id}")


BUILTIN_HANDLERS = {"drain": _drain}
