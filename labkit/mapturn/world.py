"""The map-turn world: floors of numbered blocks, the hero, block operations that notify listeners.

The original plugin patched the game engine's prototypes (``removeBlock``, ``moveBlock``…) to keep
its enemy cache in step. Here the :class:`World` owns the blocks and tells every subscribed
listener what changed, as a :class:`WorldEvent`; :class:`~labkit.mapturn.scheduler.MapTurn`
subscribes and patches its active-enemy cache.

Coordinates follow rule P0: points are ``(x, y)``, grids are indexed ``[y, x]``.

Decisions the rules leave open:

* A hidden block keeps its number but counts as empty until shown; ``set_block`` shows the cell.
* ``move_block``/``jump_block`` emit ``move_begin``, then (suppressed) ``remove`` at the origin and
  ``set`` at the landing cell when ``keep``, then ``move_end``; the landing cell is overwritten.
* :meth:`World.scan_enemies` is the one full-floor enemy scan (``extractBlocks`` in the seed);
  it increments :attr:`World.scans` so that tests can assert a tick never scans. Building the
  passability grid for a chase is a vectorised table look-up, cached per world revision, and is
  not an enemy scan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labkit import _renamed
from labkit.io import check, pointer
from labkit.io import field as get

from .defs import MAX_STAT, EnemyDef, Tower, TowerError

__all__ = ["Hero", "WorldEvent", "World", "GRID_DIRECTIONS"]

# Screen directions (y grows downward, rule P0).
GRID_DIRECTIONS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


@dataclass
class Hero:
    """The hero: floor, position, stats, owned items (id -> count) and whether it is dead.

    Examples
    --------
    >>> from labkit.mapturn import World, load_tower, example_tower_path
    >>> hero = World(load_tower(example_tower_path())).hero
    >>> hero.floor, (hero.x, hero.y), hero.dead
    ('F1', (1, 1), False)
    """

    floor: str
    x: int
    y: int
    hp: int
    atk: int
    defense: int
    items: dict[str, int] = field(default_factory=dict)
    dead: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"floor": self.floor, "x": self.x, "y": self.y, "hp": self.hp, "atk": self.atk,
                "def": self.defense, "items": dict(self.items), "dead": self.dead}  # fmt: skip


@dataclass(frozen=True)
class WorldEvent:
    """What a block operation did. ``kind`` is one of ``remove``, ``set``, ``hide``, ``show``,
    ``remove_many``, ``move_begin``, ``move_end``, ``enemy_moved``, ``floor_changed``.

    Examples
    --------
    >>> from labkit.mapturn import load_tower, example_tower_path
    >>> world = World(load_tower(example_tower_path()))
    >>> events = []
    >>> world.subscribe(events.append)
    >>> world.remove_blocks_by_indexes("F1", [1 * 11 + 5, 5 * 11 + 9])  # one event, two cells
    >>> [(e.kind, e.floor, e.points) for e in events]
    [('remove_many', 'F1', ((5, 1), (9, 5)))]
    """

    kind: str
    floor: str
    x: int = -1
    y: int = -1
    to_x: int = -1
    to_y: int = -1
    keep: bool = True
    points: tuple[tuple[int, int], ...] = ()
    by_load: bool = False


class World:
    """Floors, blocks and the hero of one tower, with listener notification.

    Examples
    --------
    >>> from labkit.mapturn import load_tower, example_tower_path
    >>> world = World(load_tower(example_tower_path()))
    >>> seen = []
    >>> world.subscribe(lambda event: seen.append(event.kind))
    >>> world.remove_block("F1", 5, 1)
    >>> seen
    ['remove']
    """

    def __init__(self, tower: Tower) -> None:
        self.tower = tower
        self.floors = {fid: grid.copy() for fid, grid in tower.floors.items()}
        self.hidden = {fid: np.zeros(grid.shape, dtype=bool) for fid, grid in self.floors.items()}
        h = tower.hero
        self.hero = Hero(h["floor"], h["x"], h["y"], h["hp"], h["atk"], h["def"],
                         dict(h.get("items", {})))  # fmt: skip
        self.listeners: list[Callable[[WorldEvent], None]] = []
        self.scans = 0  # full-floor enemy scans (extractBlocks); ticks must never add to it
        self.revision = 0  # bumps on every block change; keys the passability cache
        self._blocked_table, self._cost_table = tower.lookup_tables()
        self._passable_cache: tuple[tuple[str, int], np.ndarray] | None = None

    # -- reading ---------------------------------------------------------------------------------
    @property
    def floor(self) -> str:
        """The current floor id (the hero's floor)."""
        return self.hero.floor

    def shape(self, floor: str) -> tuple[int, int]:
        return self.floors[floor].shape

    def inside(self, floor: str, x: int, y: int) -> bool:
        h, w = self.floors[floor].shape
        return 0 <= x < w and 0 <= y < h

    def block(self, floor: str, x: int, y: int) -> int:
        """The block number at (x, y); 0 for an empty or hidden cell."""
        if self.hidden[floor][y, x]:
            return 0
        return int(self.floors[floor][y, x])

    def kind(self, floor: str, x: int, y: int) -> tuple[str, str] | None:
        return self.tower.kind(self.block(floor, x, y))

    def enemy_at(self, floor: str, x: int, y: int) -> EnemyDef | None:
        return self.tower.enemy_at_number(self.block(floor, x, y))

    def scan_enemies(self, floor: str) -> list[tuple[int, int, EnemyDef]]:
        """Every *scheduled* enemy on a floor in row-major order — the one full-floor scan."""
        self.scans += 1
        grid = np.where(self.hidden[floor], 0, self.floors[floor])
        scheduled = self._cost_table[np.minimum(grid, len(self._cost_table) - 1)] > 0
        ys, xs = np.nonzero(scheduled)
        out = []
        for y, x in zip(ys, xs):
            enemy = self.tower.enemy_at_number(grid[y, x])
            # lookup_tables gives a time cost to enemy numbers only.
            assert enemy is not None, f"block {grid[y, x]} is scheduled but not an enemy"
            out.append((int(x), int(y), enemy))
        return out

    def passable(self, floor: str) -> np.ndarray:
        """Boolean grid [y, x]: True where a walker may stand (no wall, enemy or item).

        Read-only: it is cached until the floor changes (copy it to edit)."""
        key = (floor, self.revision)
        if self._passable_cache is None or self._passable_cache[0] != key:
            grid = np.where(self.hidden[floor], 0, self.floors[floor])
            passable = ~self._blocked_table[grid]
            passable.flags.writeable = False
            self._passable_cache = (key, passable)
        return self._passable_cache[1]

    def walls(self, floor: str) -> np.ndarray:
        """Boolean grid [y, x]: True where impassable *terrain* stands (enemies, items ignored)."""
        grid = np.where(self.hidden[floor], 0, self.floors[floor])
        wall = np.zeros(len(self._blocked_table), dtype=bool)
        for number, (kind, ident) in self.tower.legend.items():
            wall[number] = kind == "terrain" and not self.tower.terrain[ident].passable
        return wall[grid]

    # -- listeners -------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[WorldEvent], None]) -> None:
        """Call ``listener(event)`` after every block operation and floor change."""
        self.listeners.append(listener)

    def unsubscribe(self, listener: Callable[[WorldEvent], None]) -> None:
        self.listeners.remove(listener)

    def _emit(self, event: WorldEvent) -> None:
        for listener in list(self.listeners):
            listener(event)

    def _check(self, floor: str, x: int, y: int) -> None:
        if floor not in self.floors:
            raise TowerError("unknown floor", value=floor)
        if not self.inside(floor, x, y):
            raise TowerError(f"cell outside floor {floor}", value=(x, y))

    def _write(self, floor: str, x: int, y: int, number: int) -> None:
        self.floors[floor][y, x] = number
        self.hidden[floor][y, x] = False
        self.revision += 1

    # -- block operations (each notifies) --------------------------------------------------------
    def remove_block(self, floor: str, x: int, y: int) -> None:
        """Empty a cell (``removeBlock``)."""
        self._check(floor, x, y)
        self._write(floor, x, y, 0)
        self._emit(WorldEvent("remove", floor, x, y))

    def set_block(self, floor: str, x: int, y: int, number: int) -> None:
        """Put block ``number`` on a cell (``setBlock``); 0 empties it."""
        self._check(floor, x, y)
        if number != 0 and self.tower.kind(number) is None:
            raise TowerError("block number not in the legend", value=number)
        self._write(floor, x, y, int(number))
        self._emit(WorldEvent("set", floor, x, y))

    def hide_block(self, floor: str, x: int, y: int) -> None:
        self._check(floor, x, y)
        self.hidden[floor][y, x] = True
        self.revision += 1
        self._emit(WorldEvent("hide", floor, x, y))

    def show_block(self, floor: str, x: int, y: int) -> None:
        self._check(floor, x, y)
        self.hidden[floor][y, x] = False
        self.revision += 1
        self._emit(WorldEvent("show", floor, x, y))

    def remove_blocks_by_indexes(self, floor: str, indexes: Iterable[int]) -> None:
        """Empty several cells given as flat indexes ``y * width + x`` (one notification)."""
        w = self.floors[floor].shape[1]
        points = tuple((int(i) % w, int(i) // w) for i in indexes)
        for x, y in points:
            self._check(floor, x, y)
        for x, y in points:
            self._write(floor, x, y, 0)
        self._emit(WorldEvent("remove_many", floor, points=points))

    def move_block(self, floor: str, x: int, y: int, steps: str, keep: bool = True) -> bool:
        """Slide the block at (x, y) along ``steps`` (letters U/D/L/R); ``keep=False`` makes it
        vanish at the end instead of landing. Returns False when the cell was empty."""
        tx, ty = x, y
        for s in steps:
            if s not in GRID_DIRECTIONS:
                raise TowerError("a step is one of U, D, L, R", value=s)
            tx, ty = tx + GRID_DIRECTIONS[s][0], ty + GRID_DIRECTIONS[s][1]
        return self._relocate(floor, x, y, tx, ty, keep)

    def jump_block(self, floor: str, x: int, y: int, to_x: int, to_y: int, keep: bool = True):
        """Jump the block at (x, y) to (to_x, to_y) (``jumpBlock``); see :meth:`move_block`."""
        return self._relocate(floor, x, y, to_x, to_y, keep)

    def _relocate(self, floor: str, x: int, y: int, tx: int, ty: int, keep: bool) -> bool:
        self._check(floor, x, y)
        if keep:
            self._check(floor, tx, ty)
        number = self.block(floor, x, y)
        if number == 0:
            return False
        self._emit(WorldEvent("move_begin", floor, x, y, tx, ty, keep))
        try:
            self.remove_block(floor, x, y)
            if keep:
                self.set_block(floor, tx, ty, number)
        finally:
            self._emit(WorldEvent("move_end", floor, x, y, tx, ty, keep))
        return True

    def move_enemy_on_point(self, floor: str, x: int, y: int, to_x: int, to_y: int) -> None:
        """Move the enemy at (x, y) to (to_x, to_y) at once (``moveEnemyOnPoint``)."""
        self._check(floor, x, y)
        self._check(floor, to_x, to_y)
        number = self.block(floor, x, y)
        self.floors[floor][y, x] = 0
        self.hidden[floor][y, x] = False
        self._write(floor, to_x, to_y, number)
        self._emit(WorldEvent("enemy_moved", floor, x, y, to_x, to_y))

    def change_floor(self, floor: str, x: int, y: int, *, by_load: bool = False) -> None:
        """Put the hero on ``floor`` at (x, y) and notify (``changeFloor``)."""
        self._check(floor, x, y)
        self.hero.floor, self.hero.x, self.hero.y = floor, int(x), int(y)
        self._emit(WorldEvent("floor_changed", floor, x, y, by_load=by_load))

    # -- persistence -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Blocks (with hidden cells) of every floor and the hero, as plain JSON."""
        floors = {}
        for fid, grid in self.floors.items():
            ys, xs = np.nonzero(self.hidden[fid])
            floors[fid] = {"map": grid.tolist(),
                           "hidden": [[int(a), int(b)] for a, b in zip(xs, ys)]}  # fmt: skip
        return {"hero": self.hero.to_dict(), "floors": floors}

    def parse_snapshot(self, doc: Any, at: str, error: type) -> tuple[dict, dict, Hero]:
        """Validate a :meth:`to_dict` document against this tower; build nothing in place."""
        check(isinstance(doc, dict), "must be an object", at, doc, error)
        fdoc = get(doc, "floors", dict, at, error)
        check(set(fdoc) == set(self.floors), "must list exactly the tower's floors",
              at + "/floors", sorted(fdoc), error)  # fmt: skip
        floors, hidden = {}, {}
        for fid, f in fdoc.items():
            fat = at + pointer("floors", fid)
            rows = get(f, "map", list, fat, error)
            h, w = self.floors[fid].shape
            shape = f"{h} rows of {w} integers"
            check(len(rows) == h, f"map must be {shape}", fat + "/map", len(rows), error)
            for y, row in enumerate(rows):
                check(isinstance(row, list) and len(row) == w, f"map must be {shape}",
                      f"{fat}/map/{y}", None if isinstance(row, list) else row, error)  # fmt: skip
                for x, v in enumerate(row):
                    # No coercion: "1", 1.9 or true are not block numbers (numpy would take them).
                    check(type(v) is int, "a block number is an integer", f"{fat}/map/{y}/{x}",
                          v, error)  # fmt: skip
            grid = np.array(rows, dtype=object)
            known = np.isin(grid, [0, *self.tower.legend])
            check(bool(known.all()), "a block number not in the legend", fat + "/map",
                  None if known.all() else grid[~known][0], error)  # fmt: skip
            grid = grid.astype(np.int64)
            mask = np.zeros(grid.shape, dtype=bool)
            hidden_list = get(f, "hidden", list, fat, error)
            check(len(hidden_list) <= h * w, "more hidden cells than the floor has",
                  fat + "/hidden", len(hidden_list), error)  # fmt: skip
            for i, p in enumerate(hidden_list):
                ok = isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p)
                ok = ok and 0 <= p[0] < grid.shape[1] and 0 <= p[1] < grid.shape[0]
                check(ok, "a hidden cell is [x, y] on the floor", f"{fat}/hidden/{i}", p, error)
                mask[p[1], p[0]] = True
            floors[fid], hidden[fid] = grid, mask
        h = get(doc, "hero", dict, at, error)
        hat = at + "/hero"
        fid = get(h, "floor", str, hat, error)
        check(fid in floors, "unknown floor", hat + "/floor", fid, error)
        vals = {k: get(h, k, int, hat, error) for k in ("x", "y", "hp", "atk", "def")}
        for k in ("hp", "atk", "def"):
            check(0 <= vals[k] <= MAX_STAT, f"must be 0-{MAX_STAT}", f"{hat}/{k}", vals[k], error)
        check(0 <= vals["x"] < floors[fid].shape[1] and 0 <= vals["y"] < floors[fid].shape[0],
              "hero outside its floor", hat, [vals["x"], vals["y"]], error)  # fmt: skip
        items = get(h, "items", dict, hat, error)
        for k, n in items.items():
            check(k in self.tower.items, "unknown item", hat + pointer("items", k), k, error)
            check(type(n) is int and 0 <= n <= MAX_STAT, f"a count 0-{MAX_STAT}",
                  hat + pointer("items", k), n, error)  # fmt: skip
        hero = Hero(fid, vals["x"], vals["y"], vals["hp"], vals["atk"], vals["def"], dict(items),
                    get(h, "dead", bool, hat, error))  # fmt: skip
        return floors, hidden, hero

    def restore(self, floors: dict, hidden: dict, hero: Hero) -> None:
        """Adopt a validated snapshot and announce the floor as entered *by load*."""
        self.floors, self.hidden, self.hero = floors, hidden, hero
        self.revision += 1
        self._emit(WorldEvent("floor_changed", hero.floor, hero.x, hero.y, by_load=True))


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
