"""Player actions and the time each one costs (the action matrix, seed §4, rule M4).

=========================================  ==========================================
action                                     time
=========================================  ==========================================
move one cell (``forced=True`` too)         +1 (``consume_time(1)``)
pick up an item next to the hero            +1
use a ``tools`` item                        its ``timeCost``
one battle                                  the settled battle time (max rule)
``skillremote`` / ``skillrecover``          its ``timeCost``, at once
``skillupdate`` (status skill)              0
``skillbattle`` toggle                      0 (counts after the next battle)
UI, manual, preview                         0
=========================================  ==========================================

Decisions the rules leave open:

* Moving into an enemy is a battle; the hero stays in place and the enemy is removed on a win.
* *Capture*: after the hero arrives on a cell, every adjacent enemy whose definition has
  ``capture: true`` and not ``contactBattleOnly`` fights, one battle at a time. A normal contact
  battle is followed by the same capture check (chained battles); a contact battle with a
  ``contactBattleOnly`` enemy is exactly one battle and nothing chains after it.
* Walls and the floor's edge refuse a move at no time cost. Stairs: the move costs its tick on the
  old floor, then the hero changes floor.
* Effects: ``items`` (on pick-up) and ``skillrecover`` heal ``effect.hp``; ``skillremote`` defeats
  the nearest enemy within ``effect.range`` without a battle; a ``tools`` item with
  ``effect.bomb`` removes the adjacent enemies in one batch (one cache rebuild). Tools are used up.
* A dead hero's actions are refused (``"dead"``, no time).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from labkit import ArgumentError

from .scheduler import MapTurn, MapTurnError
from .status import ActionKind
from .world import GRID_DIRECTIONS

__all__ = ["Actions", "ActionResult"]


@dataclass(frozen=True)
class ActionResult:
    """What an action did (``kind``) and how many time units it consumed (``time``).

    Examples
    --------
    >>> ActionResult(ActionKind.MOVED, 1).kind, ActionResult(ActionKind.BATTLE, 1, 2).battles
    ('moved', 2)
    """

    kind: ActionKind
    time: int
    battles: int = 0


def _check_direction(direction: str) -> None:
    if direction not in GRID_DIRECTIONS:
        raise ArgumentError("is one of U, D, L, R", argument="direction", value=direction)


class Actions:
    """The player-action layer over a :class:`MapTurn`.

    Examples
    --------
    >>> from labkit.mapturn import MapTurn, World, load_tower, example_tower_path
    >>> act = Actions(MapTurn(World(load_tower(example_tower_path()))))
    >>> act.move("R")
    ActionResult(kind='moved', time=1, battles=0)
    >>> act.ui("manual")
    ActionResult(kind='ui', time=0, battles=0)
    """

    def __init__(self, engine: MapTurn) -> None:
        self.engine = engine

    @property
    def world(self):
        return self.engine.world

    def _result(self, kind: str, clock0: int, battles: int = 0) -> ActionResult:
        return ActionResult(ActionKind(kind), self.engine.state.clock - clock0, battles)

    # -- movement ---------------------------------------------------------------------------------
    def move(self, direction: str, *, forced: bool = False) -> ActionResult:
        """Step one cell (U/D/L/R); contact with an enemy is a battle instead."""
        _check_direction(direction)
        engine, world, hero = self.engine, self.world, self.world.hero
        clock0 = engine.state.clock
        if hero.dead:
            return self._result("dead", clock0)
        floor = world.floor
        x, y = hero.x + GRID_DIRECTIONS[direction][0], hero.y + GRID_DIRECTIONS[direction][1]
        if not world.inside(floor, x, y):
            return self._result("blocked", clock0)
        kind = world.kind(floor, x, y)
        if kind is not None and kind[0] == "enemy":
            enemy = world.tower.enemies[kind[1]]
            fought = len(engine.settle_battles([(x, y)]))
            if not enemy.contact_battle_only and not hero.dead:
                fought += self._captures()
            return self._result("battle", clock0, fought)
        if kind is not None and kind[0] == "terrain" and not world.tower.terrain[kind[1]].passable:
            return self._result("blocked", clock0)
        hero.x, hero.y = x, y
        if kind is not None and kind[0] == "item":
            self._take(x, y, kind[1])
        engine.consume_time(1, "forced move" if forced else "move")
        if kind is not None and kind[0] == "terrain" and world.tower.terrain[kind[1]].stairs:
            if not hero.dead:
                self._stairs(world.tower.terrain[kind[1]].stairs)
                return self._result("stairs", clock0)
        fought = self._captures() if not hero.dead else 0
        return self._result("moved", clock0, fought)

    def _captures(self) -> int:
        """Battles with adjacent capture enemies, settled one by one (M7)."""
        world, hero = self.world, self.world.hero
        points = []
        for dx, dy in GRID_DIRECTIONS.values():
            x, y = hero.x + dx, hero.y + dy
            if world.inside(world.floor, x, y):
                enemy = world.enemy_at(world.floor, x, y)
                if enemy is not None and enemy.capture and not enemy.contact_battle_only:
                    points.append((x, y))
        return len(self.engine.settle_battles(points)) if points else 0

    def _stairs(self, step: int) -> None:
        world = self.world
        order = list(world.floors)
        target = order[order.index(world.floor) + step] if 0 <= order.index(world.floor) + step \
            < len(order) else None  # fmt: skip
        if target is None:
            return
        arrive = _find_stairs(world, target, -step) or (world.hero.x, world.hero.y)
        world.change_floor(target, *arrive)

    def pick_up(self, direction: str) -> ActionResult:
        """Take the item next to the hero without moving (+1)."""
        _check_direction(direction)
        world, hero = self.world, self.world.hero
        clock0 = self.engine.state.clock
        if hero.dead:
            return self._result("dead", clock0)
        x, y = hero.x + GRID_DIRECTIONS[direction][0], hero.y + GRID_DIRECTIONS[direction][1]
        kind = world.kind(world.floor, x, y) if world.inside(world.floor, x, y) else None
        if kind is None or kind[0] != "item":
            return self._result("nothing", clock0)
        self._take(x, y, kind[1])
        self.engine.consume_time(1, "pick up")
        return self._result("picked", clock0)

    def _take(self, x: int, y: int, item_id: str) -> None:
        item, hero = self.world.tower.items[item_id], self.world.hero
        self.world.remove_block(self.world.floor, x, y)
        if item.cls == "items":
            hero.hp += int(item.effect.get("hp", 0))
        else:
            hero.items[item_id] = hero.items.get(item_id, 0) + 1

    # -- items and skills ------------------------------------------------------------------------
    def use_item(self, item_id: str) -> ActionResult:
        """Use an owned tool or skill; the time follows the item's class (see the table)."""
        engine, world, hero = self.engine, self.world, self.world.hero
        clock0 = engine.state.clock
        item = world.tower.items.get(item_id)
        if item is None:
            raise MapTurnError("unknown item", value=item_id)
        if hero.dead:
            return self._result("dead", clock0)
        if hero.items.get(item_id, 0) <= 0:
            return self._result("not_owned", clock0)
        if item.cls == "skillupdate":
            engine.activate_status_skill(item_id)
            return self._result("status_on", clock0)
        if item.cls == "skillbattle":
            on = engine.toggle_battle_skill(item_id)
            return self._result("battle_skill_on" if on else "battle_skill_off", clock0)
        if item.cls == "tools":
            hero.items[item_id] -= 1
            if item.effect.get("bomb"):
                w = world.shape(world.floor)[1]
                near = [(hero.x + dx, hero.y + dy) for dx, dy in GRID_DIRECTIONS.values()]
                hits = [y * w + x for x, y in near if world.inside(world.floor, x, y)
                        and world.enemy_at(world.floor, x, y) is not None]  # fmt: skip
                if hits:
                    world.remove_blocks_by_indexes(world.floor, hits)
                    engine.log.append((engine.state.map_turn, "hero", item_id, len(hits)))
        elif item.cls == "skillrecover":
            hero.hp += int(item.effect.get("hp", 0))
        elif item.cls == "skillremote":
            target = self._nearest_enemy(int(item.effect.get("range", 1)))
            if target is not None:
                world.remove_block(world.floor, *target)
                engine.log.append((engine.state.map_turn, "hero", item_id, *target))
        else:
            return self._result("not_usable", clock0)
        engine.consume_time(int(item.time_cost), item.cls)
        return self._result(item.cls, clock0)

    def _nearest_enemy(self, reach: int) -> tuple[int, int] | None:
        world, hero = self.world, self.world.hero
        h, w = world.shape(world.floor)
        best = None
        for y in range(max(0, hero.y - reach), min(h, hero.y + reach + 1)):
            for x in range(max(0, hero.x - reach), min(w, hero.x + reach + 1)):
                d = abs(x - hero.x) + abs(y - hero.y)
                if 0 < d <= reach and world.enemy_at(world.floor, x, y) is not None:
                    if best is None or (d, y, x) < best:
                        best = (d, y, x)
        return None if best is None else (best[2], best[1])

    def toggle_status_skill(self, item_id: str) -> ActionResult:
        """Cancel an active status skill (if ``canCancel``) or start it; never costs time."""
        clock0 = self.engine.state.clock
        if item_id in self.engine.skills.active_status_skills:
            ok = self.engine.cancel_status_skill(item_id)
            return self._result("status_off" if ok else "cannot_cancel", clock0)
        return self.use_item(item_id)

    def activate_battle_skill(self, item_id: str) -> ActionResult:
        """Switch a battle skill on/off (exclusive per group); never costs time."""
        return self.use_item(item_id)

    def ui(self, what: str = "menu") -> ActionResult:
        """Menus, the manual, battle previews: no time passes."""
        return self._result("ui", self.engine.state.clock)

    # -- scripts ---------------------------------------------------------------------------------
    def run(self, script: str) -> list[ActionResult]:
        """Play a script: ``U D L R`` move, ``pU`` picks up upward, ``[id]`` uses an item or
        skill, ``~`` opens a menu; spaces are ignored."""
        out, i = [], 0
        while i < len(script):
            c = script[i]
            if c.isspace():
                i += 1
            elif c in GRID_DIRECTIONS:
                out.append(self.move(c))
                i += 1
            elif c == "p" and i + 1 < len(script):
                out.append(self.pick_up(script[i + 1]))
                i += 2
            elif c == "[":
                end = script.find("]", i)
                if end < 0:
                    raise MapTurnError("unclosed [ in the action script", value=script[i:])
                out.append(self.use_item(script[i + 1 : end]))
                i = end + 1
            elif c == "~":
                out.append(self.ui())
                i += 1
            else:
                raise MapTurnError("unknown action letter", value=c)
        return out


def _find_stairs(world, floor: str, step: int) -> tuple[int, int] | None:
    """The cell of ``floor``'s stairs going ``step`` (the arrival cell when changing floor)."""
    tower = world.tower
    numbers = [n for n, (k, i) in tower.legend.items()
               if k == "terrain" and tower.terrain[i].stairs == step]  # fmt: skip
    ys, xs = np.nonzero(np.isin(world.floors[floor], numbers))
    return (int(xs[0]), int(ys[0])) if len(xs) else None
