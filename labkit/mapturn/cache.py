"""The active-enemy cache (``activeEnemiesByFloor``, seed §6.3, rule M6).

Per floor, only enemies whose definition has ``timeCost > 0``. Built by one full-floor scan when
a floor is entered (:meth:`ActiveCache.rebuild`); afterwards *patched* as blocks change, never
rebuilt per tick:

* ``remove_cell`` — drop the entry at a cell and its gauge (and per-instance memory);
* ``sync_cell`` — drop, then re-add from the current block with a fresh gauge;
* ``migrate_point`` — the same instance moved: update position and runtime id, carry its gauge;
* ``rebuild`` — rescan the floor, keep gauges of runtime ids still present, prune the rest.

While a block move or jump is in flight (depth counter > 0) the remove/set patches it causes are
suppressed; the move ends with one ``migrate_point`` (``keep=True``) or one ``remove_cell`` at the
origin (``keep=False``). A batch removal rebuilds once. ``version`` rises on every rebuild/patch.

Tick order (a decision the rules leave open): enemies act in row-major ``(y, x)`` order of their
positions at the start of the tick. The order depends only on the map, so a game loaded from a save
(whose cache is rebuilt) acts exactly like the game that kept running.
"""

from __future__ import annotations

from dataclasses import dataclass

from .defs import EnemyDef
from .world import World, WorldEvent

__all__ = ["ActiveEnemy", "ActiveCache", "runtime_id"]


def runtime_id(floor: str, x: int, y: int, enemy_id: str) -> str:
    """The seed's runtime id ``floorId:x:y:enemyId``."""
    return f"{floor}:{x}:{y}:{enemy_id}"


@dataclass(eq=False)
class ActiveEnemy:
    """One scheduled enemy instance. ``alive`` turns False when the cache drops it.

    Examples
    --------
    >>> from labkit.mapturn import load_tower, example_tower_path, World, ActiveCache
    >>> cache = ActiveCache(World(load_tower(example_tower_path())), {}, {})
    >>> skeleton = cache.order("F1")[0]
    >>> skeleton.key(), skeleton.definition.id, skeleton.alive
    (('F1:5:5:skeleton', 5, 5, 'skeleton'), 'skeleton', True)
    >>> cache.remove_cell("F1", 5, 5)
    >>> skeleton.alive
    False
    """

    runtime_id: str
    x: int
    y: int
    enemy_id: str
    definition: EnemyDef
    alive: bool = True

    def key(self) -> tuple[str, int, int, str]:
        return (self.runtime_id, self.x, self.y, self.enemy_id)


class ActiveCache:
    """Scheduled enemies per floor, kept in step with a :class:`World` by patches.

    ``gauges`` and ``memory`` are the persisted per-floor dicts ``{floor: {runtime_id: value}}``
    of the engine's state; the cache drops, carries and prunes their keys as instances change.

    Examples
    --------
    The slime and guard of the example tower's first floor have ``timeCost`` 0, so only the
    skeleton and the bat are scheduled, in row-major order:

    >>> from labkit.mapturn import load_tower, example_tower_path, World
    >>> gauges = {"F1": {"F1:5:5:skeleton": 1.5, "F1:9:5:bat": 0.5}}
    >>> cache = ActiveCache(World(load_tower(example_tower_path())), gauges, {})
    >>> [rid for rid, x, y, enemy in cache.entries("F1")]
    ['F1:5:5:skeleton', 'F1:9:5:bat']
    >>> cache.remove_cell("F1", 5, 5)  # a patch, not a rescan: the gauge goes with the entry
    >>> cache.entries("F1"), gauges
    ([('F1:9:5:bat', 9, 5, 'bat')], {'F1': {'F1:9:5:bat': 0.5}})
    """

    def __init__(self, world: World, gauges: dict, memory: dict) -> None:
        self.world = world
        self.gauges = gauges
        self.memory = memory
        self.by_floor: dict[str, dict[tuple[int, int], ActiveEnemy]] = {}
        self._order: dict[str, list[ActiveEnemy]] = {}
        self.version = 0
        self.depth = 0  # block moves/jumps in flight

    # -- reading ---------------------------------------------------------------------------------
    def order(self, floor: str) -> list[ActiveEnemy]:
        """The floor's entries in tick order (row-major); a floor never entered is built first."""
        if floor not in self.by_floor:
            self.rebuild(floor)
        order = self._order.get(floor)
        if order is None:
            order = sorted(self.by_floor[floor].values(), key=lambda e: (e.y, e.x))
            self._order[floor] = order
        return order

    def entries(self, floor: str) -> list[tuple[str, int, int, str]]:
        """Plain ``(runtime_id, x, y, enemy_id)`` tuples in tick order (for tests and display)."""
        return [e.key() for e in self.order(floor)]

    # -- patches ---------------------------------------------------------------------------------
    def _touch(self, floor: str) -> None:
        self.version += 1
        self._order.pop(floor, None)

    def _drop(self, floor: str, entry: ActiveEnemy) -> None:
        entry.alive = False
        del self.by_floor[floor][(entry.x, entry.y)]
        self.gauges.get(floor, {}).pop(entry.runtime_id, None)
        self.memory.get(floor, {}).pop(entry.runtime_id, None)

    def rebuild(self, floor: str) -> None:
        """Rescan ``floor`` (one full-floor scan); keep gauges of instances still present."""
        for entry in self.by_floor.get(floor, {}).values():
            entry.alive = False
        table = {}
        for x, y, enemy in self.world.scan_enemies(floor):
            table[(x, y)] = ActiveEnemy(runtime_id(floor, x, y, enemy.id), x, y, enemy.id, enemy)
        self.by_floor[floor] = table
        present = {e.runtime_id for e in table.values()}
        for store in (self.gauges, self.memory):
            values = store.get(floor, {})
            for k in [k for k in values if k not in present]:
                del values[k]  # in place: a tick in progress holds this dict
        self._touch(floor)

    def remove_cell(self, floor: str, x: int, y: int) -> None:
        table = self.by_floor.get(floor)
        if table is None:
            return  # never entered: the entry rebuild will see the change
        entry = table.get((x, y))
        if entry is not None:
            self._drop(floor, entry)
        self._touch(floor)

    def sync_cell(self, floor: str, x: int, y: int) -> None:
        table = self.by_floor.get(floor)
        if table is None:
            return
        entry = table.get((x, y))
        if entry is not None:
            self._drop(floor, entry)
        enemy = self.world.enemy_at(floor, x, y)
        if enemy is not None and enemy.scheduled:
            table[(x, y)] = ActiveEnemy(runtime_id(floor, x, y, enemy.id), x, y, enemy.id, enemy)
        self._touch(floor)

    def migrate_point(self, floor: str, x: int, y: int, to_x: int, to_y: int) -> None:
        """The instance at (x, y) now stands at (to_x, to_y); its gauge and memory follow it."""
        table = self.by_floor.get(floor)
        if table is None:
            return
        if (x, y) == (to_x, to_y):
            self._touch(floor)  # still a patch (M6: the version rises); the instance stays
            return
        entry = table.get((x, y))
        landed = table.get((to_x, to_y))
        if landed is not None:
            self._drop(floor, landed)  # overwritten by the arriving block
        if entry is None:
            self.sync_cell(floor, to_x, to_y)
            return
        del table[(x, y)]
        new_id = runtime_id(floor, to_x, to_y, entry.enemy_id)
        for store in (self.gauges, self.memory):
            values = store.get(floor)
            if values is not None and entry.runtime_id in values:
                values[new_id] = values.pop(entry.runtime_id)
        entry.x, entry.y, entry.runtime_id = to_x, to_y, new_id
        table[(to_x, to_y)] = entry
        self._touch(floor)

    # -- world events ----------------------------------------------------------------------------
    def handle(self, event: WorldEvent) -> None:
        """Patch the cache for one world event (the seed's prototype hooks)."""
        kind, floor = event.kind, event.floor
        if kind == "move_begin":
            self.depth += 1
        elif kind == "move_end":
            self.depth -= 1
            if event.keep:
                self.migrate_point(floor, event.x, event.y, event.to_x, event.to_y)
            else:
                self.remove_cell(floor, event.x, event.y)
        elif kind in ("remove", "hide"):
            if self.depth == 0:
                self.remove_cell(floor, event.x, event.y)
        elif kind in ("set", "show"):
            if self.depth == 0:
                self.sync_cell(floor, event.x, event.y)
        elif kind == "remove_many":
            if floor in self.by_floor:
                self.rebuild(floor)
        elif kind == "enemy_moved":
            self.migrate_point(floor, event.x, event.y, event.to_x, event.to_y)
        elif kind == "floor_changed":
            self.rebuild(floor)
