"""Definitions read from data: enemies, items and skills, terrain, floors (a *tower*).

A tower file (``format: "labkit.mapturn.tower"``, version 1) names its enemy, item and skill
tables (separate JSON files beside it, or inline objects), a terrain table, a *legend* mapping
the numbers on each floor grid to an enemy, item or terrain id, the floors in order and the hero's
start. Everything is validated before any object is built; errors name the file, the JSON pointer
and the bad value.

Decisions the rules leave open:

* Skills are items (M3): one :class:`ItemDef` class covers ``tools``, ``items`` (used up on pick-up)
  and the four skill classes; ``SkillDef`` is the same class under the seed's name.
* ``timeCost`` of an enemy: ``0`` or ``null`` = not scheduled; a positive value must be at least
  ``0.01`` (an enemy acting more than a hundred times per tick is a data error, not a design).
* Limits (:data:`MAX_FLOORS`, :data:`MAX_SIDE`, :data:`MAX_ENTRIES`, :data:`MAX_STAT`,
  :data:`MAX_TIME_COST`, :data:`MAX_WAYPOINTS`) are checked on load, each error naming the
  limit and the value. A table file name is relative to the tower's folder and stays inside
  it (no absolute path, no ``..``).
* Stairs are terrain with ``"stairs": +1`` or ``-1`` (next / previous floor in the tower's order);
  the hero arrives on the opposite stairs of the target floor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from labkit.io import FormatError, check, load_json, pointer
from labkit.io import field as get

__all__ = [
    "TowerError",
    "EnemyDef",
    "ItemDef",
    "SkillDef",
    "TerrainDef",
    "Tower",
    "load_tower",
    "parse_tower",
    "example_tower_path",
]

ACT_TYPES = ("chase", "patrol", "skill", "idle")
ITEM_CLASSES = ("items", "tools", "skillbattle", "skillremote", "skillrecover", "skillupdate")
SKILL_CLASSES = ITEM_CLASSES[2:]
STACK_POLICIES = ("refresh", "stack", "replace")
MIN_TIME_COST = 0.01
TOWER_FORMAT = "labkit.mapturn.tower"
#: Limits of a tower (and of the tables it names), checked on load: floors, a floor's width and
#: height, entries per table, any stat (hp, atk, def, counts, battle costs), a timeCost, patrol
#: waypoints, and a file's size. A tick then costs O(scheduled enemies on the floor) and a
#: chase search O(MAX_SIDE²); a save holds O(MAX_FLOORS × MAX_SIDE²) cells.
MAX_FLOORS = 64
MAX_SIDE = 256
MAX_ENTRIES = 10_000
MAX_STAT = 1_000_000_000
MAX_TIME_COST = 1_000_000.0
MAX_WAYPOINTS = 1_000
MAX_BYTES = 64 * 1024 * 1024


class TowerError(FormatError):
    """A tower, enemy, item or skill definition that is malformed."""


@dataclass(frozen=True)
class EnemyDef:
    """One enemy type (``enemys.js`` entry in the seed).

    ``time_cost`` 0 means the enemy is never scheduled (never enters the active cache).

    Examples
    --------
    >>> slime = load_tower(example_tower_path()).enemies["slime"]
    >>> slime.hp, slime.act_type, slime.scheduled
    (30, 'idle', False)
    """

    id: str
    name: str
    hp: int
    atk: int
    defense: int
    time_cost: float = 0.0
    act_type: str = "idle"
    contact_battle_only: bool = False
    capture: bool = False
    act_args: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def scheduled(self) -> bool:
        """True when the enemy takes part in map-turn scheduling (timeCost > 0)."""
        return self.time_cost > 0


@dataclass(frozen=True)
class ItemDef:
    """An item or skill (``items.js`` entry; skills are items whose ``cls`` starts ``skill``).

    Examples
    --------
    >>> potion = load_tower(example_tower_path()).items["redPotion"]
    >>> potion.id, isinstance(potion, ItemDef)
    ('redPotion', True)
    """

    id: str
    name: str
    cls: str
    time_cost: float = 0.0
    can_cancel: bool = True
    exclusive_group: str | None = None
    duration_battles: int | None = None
    battle_time_cost: int = 0
    stack_policy: str = "refresh"
    effect: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def is_skill(self) -> bool:
        return self.cls in SKILL_CLASSES


SkillDef = ItemDef


@dataclass(frozen=True)
class TerrainDef:
    """One terrain of the tower's table: passable or not; ``stairs`` +1 up, -1 down, 0 none.

    Examples
    --------
    >>> terrain = Tower.load(example_tower_path()).terrain
    >>> terrain["wall"].passable, terrain["upstairs"].stairs, terrain["downstairs"].stairs
    (False, 1, -1)
    >>> TerrainDef("grass") == TerrainDef("grass", passable=True, stairs=0)
    True
    """

    id: str
    passable: bool = True
    stairs: int = 0


@dataclass
class Tower:
    """All static definitions of one game: tables, legend, floors (grids) and the hero's start.

    Examples
    --------
    >>> tower = Tower.load(example_tower_path())
    >>> tower.name, sorted(tower.floors), tower.floors["F1"].ndim
    ('example', ['F1', 'F2'], 2)
    """

    name: str
    enemies: dict[str, EnemyDef]
    items: dict[str, ItemDef]
    terrain: dict[str, TerrainDef]
    legend: dict[int, tuple[str, str]]  # block number -> ("enemy" | "item" | "terrain", id)
    floors: dict[str, np.ndarray]  # floor id -> int64 grid indexed [y, x]
    hero: dict[str, Any]
    source: str | None = None

    @classmethod
    def from_dict(cls, doc: dict, base: str | Path | None = None) -> Tower:
        """Validate a tower document (tables named relative to ``base``); see ``parse_tower``."""
        return parse_tower(doc, base=base)

    @classmethod
    def load(cls, path: str | Path) -> Tower:
        """Read and validate a tower file and the tables it names.

        The one loading path of the tower format; :func:`load_tower` is an alias.

        Raises
        ------
        TowerError
            Unreadable file, wrong format or version, or a broken rule (file, pointer, value).

        Examples
        --------
        >>> sorted(Tower.load(example_tower_path()).floors)
        ['F1', 'F2']
        """
        path = Path(path)
        doc = load_json(path, format=TOWER_FORMAT, versions=(1,), error=TowerError,
                        max_bytes=MAX_BYTES, check_text=_floor_sizes)  # fmt: skip
        try:
            return parse_tower(doc, base=path.parent, source=str(path))
        except TowerError as exc:
            if exc.file is None:
                exc.with_file(str(path))
            raise

    def to_dict(self) -> dict[str, Any]:
        """The tower document with every table inline; :meth:`from_dict` reads it back.

        Examples
        --------
        >>> tower = Tower.load(example_tower_path())
        >>> again = Tower.from_dict(tower.to_dict())
        >>> again.to_dict() == tower.to_dict(), sorted(again.floors)
        (True, ['F1', 'F2'])
        """
        from labkit.mapturn.tower_file import tower_to_dict

        return tower_to_dict(self, TOWER_FORMAT, 1)

    def save(self, path: str | Path) -> None:
        """Write the tower as one self-contained file, atomically; :meth:`load` reads it back.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "tower.json"
        >>> Tower.load(example_tower_path()).save(path)
        >>> Tower.load(path).enemies["bat"].time_cost
        2.0
        """
        from labkit.io import save_json

        save_json(path, self.to_dict(), format=TOWER_FORMAT, version=1)

    def kind(self, number: int) -> tuple[str, str] | None:
        """``("enemy", id)``, ``("item", id)``, ``("terrain", id)`` or None for an empty cell."""
        return self.legend.get(int(number))

    def enemy_at_number(self, number: int) -> EnemyDef | None:
        k = self.legend.get(int(number))
        return self.enemies[k[1]] if k is not None and k[0] == "enemy" else None

    def number_of(self, kind: str, ident: str) -> int:
        """The block number drawing ``kind``/``ident`` (first in the legend)."""
        for number, (k, i) in self.legend.items():
            if k == kind and i == ident:
                return number
        raise TowerError(f"no legend number draws {kind} {ident!r}", value=ident)

    def lookup_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Per block number: (blocks movement: bool, scheduled enemy time cost: float)."""
        size = max(self.legend, default=0) + 1
        blocked = np.zeros(size, dtype=bool)
        cost = np.zeros(size, dtype=np.float64)
        for number, (kind, ident) in self.legend.items():
            if kind == "terrain":
                blocked[number] = not self.terrain[ident].passable
            elif kind == "enemy":
                blocked[number] = True
                cost[number] = self.enemies[ident].time_cost
            else:
                blocked[number] = True  # items stop a walking enemy; the hero picks them up
        return blocked, cost


def _opt_number(obj: dict, key: str, at: str, default: float = 0.0) -> float:
    value = get(obj, key, (float, type(None)), at, TowerError, default)
    return default if value is None else float(value)


def _enemy(ident: str, obj: Any, at: str) -> EnemyDef:
    check(isinstance(obj, dict), "must be an object", at, obj, TowerError)
    time_cost = _opt_number(obj, "timeCost", at)
    check(
        time_cost == 0 or MIN_TIME_COST <= time_cost <= MAX_TIME_COST,
        f"timeCost must be 0 (not scheduled) or {MIN_TIME_COST}-{MAX_TIME_COST:g}",
        at + "/timeCost",
        time_cost,
        TowerError,
    )
    act = get(obj, "actType", str, at, TowerError, "idle")
    check(act in ACT_TYPES, f"actType must be one of {ACT_TYPES}", at + "/actType", act, TowerError)
    args = get(obj, "actArgs", (dict, type(None)), at, TowerError, None) or {}
    if act == "patrol":
        points = get(args, "waypoints", list, at + "/actArgs", TowerError)
        check(len(points) <= MAX_WAYPOINTS, f"at most {MAX_WAYPOINTS} waypoints",
              at + "/actArgs/waypoints", len(points), TowerError)  # fmt: skip
        for i, p in enumerate(points):
            ok = isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p)
            ok = ok and all(0 <= v < MAX_SIDE for v in p)
            check(ok, "a waypoint is [x, y]", f"{at}/actArgs/waypoints/{i}", p, TowerError)
    if act == "skill":
        get(args, "handler", str, at + "/actArgs", TowerError)
    stats = {k: get(obj, k, int, at, TowerError) for k in ("hp", "atk", "def")}
    for k, v in stats.items():
        check(0 <= v <= MAX_STAT, f"must be 0-{MAX_STAT}", f"{at}/{k}", v, TowerError)
    return EnemyDef(
        id=ident,
        name=get(obj, "name", str, at, TowerError, ident),
        hp=stats["hp"],
        atk=stats["atk"],
        defense=stats["def"],
        time_cost=time_cost,
        act_type=act,
        contact_battle_only=get(obj, "contactBattleOnly", bool, at, TowerError, False),
        capture=get(obj, "capture", bool, at, TowerError, False),
        act_args=args,
    )


def _item(ident: str, obj: Any, at: str) -> ItemDef:
    check(isinstance(obj, dict), "must be an object", at, obj, TowerError)
    cls = get(obj, "cls", str, at, TowerError)
    check(cls in ITEM_CLASSES, f"cls must be one of {ITEM_CLASSES}", at + "/cls", cls, TowerError)
    time_cost = _opt_number(obj, "timeCost", at)
    check(0 <= time_cost <= MAX_TIME_COST and time_cost == int(time_cost),
          f"timeCost must be a whole number 0-{MAX_TIME_COST:g}", at + "/timeCost", time_cost,
          TowerError)  # fmt: skip
    if cls == "skillupdate":
        # M3: status skills never advance time themselves.
        check(time_cost == 0, "a skillupdate's timeCost is 0", at + "/timeCost", time_cost,
              TowerError)  # fmt: skip
    duration = get(obj, "durationBattles", (int, type(None)), at, TowerError, None)
    if duration is not None:
        check(1 <= duration <= MAX_STAT, f"must be 1-{MAX_STAT} or null", at + "/durationBattles",
              duration, TowerError)  # fmt: skip
    policy = get(obj, "stackPolicy", str, at, TowerError, "refresh")
    check(policy in STACK_POLICIES, f"stackPolicy must be one of {STACK_POLICIES}",
          at + "/stackPolicy", policy, TowerError)  # fmt: skip
    btc = get(obj, "battleTimeCost", int, at, TowerError, 0)
    check(0 <= btc <= MAX_STAT, f"must be 0-{MAX_STAT}", at + "/battleTimeCost", btc, TowerError)
    return ItemDef(
        id=ident,
        name=get(obj, "name", str, at, TowerError, ident),
        cls=cls,
        time_cost=int(time_cost),
        can_cancel=get(obj, "canCancel", bool, at, TowerError, True),
        exclusive_group=get(obj, "exclusiveGroup", (str, type(None)), at, TowerError, None),
        duration_battles=duration,
        battle_time_cost=btc,
        stack_policy=policy,
        effect=get(obj, "effect", dict, at, TowerError, {}),
    )


def _table(doc: dict, key: str, base: Path | None) -> tuple[dict, str]:
    """A definition table given inline or as a file name relative to the tower file."""
    value = doc.get(key, {})
    if isinstance(value, str):
        if base is None:
            raise TowerError("a table file needs the tower's own path", pointer=pointer(key))
        parts = Path(value).parts
        ok = bool(value) and "\0" not in value
        ok = ok and not Path(value).is_absolute() and ".." not in parts
        check(ok, "a table file name is relative to the tower's folder, without '..'",
              pointer(key), value, TowerError)  # fmt: skip
        path = base / value
        table = load_json(path, format=f"labkit.mapturn.{key}", versions=(1,), error=TowerError,
                          max_bytes=MAX_BYTES)  # fmt: skip
        entries = get(table, key, dict, "", TowerError)
        check(len(entries) <= MAX_ENTRIES, f"at most {MAX_ENTRIES} entries", pointer(key),
              len(entries), TowerError)  # fmt: skip
        return entries, str(path)
    check(isinstance(value, dict), "must be an object or a file name", pointer(key), value,
          TowerError)  # fmt: skip
    check(len(value) <= MAX_ENTRIES, f"at most {MAX_ENTRIES} entries", pointer(key), len(value),
          TowerError)  # fmt: skip
    return value, ""


def parse_tower(doc: dict, base: str | Path | None = None, source: str | None = None) -> Tower:
    """Validate a tower document (already parsed JSON) and build a :class:`Tower`.

    ``base`` is the folder that file names of separate tables are relative to.

    Examples
    --------
    >>> import json
    >>> path = example_tower_path()
    >>> tower = parse_tower(json.loads(path.read_text()), base=path.parent)
    >>> sorted(tower.floors) == sorted(load_tower(path).floors)
    True
    """
    base = None if base is None else Path(base)
    enemies: dict[str, EnemyDef] = {}
    items: dict[str, ItemDef] = {}
    # Each table is paired with the builder of its own type.
    readers: list[tuple[str, Callable[[str, Any, str], object], dict[str, Any]]] = [
        ("enemies", _enemy, enemies),
        ("items", _item, items),
        ("skills", _item, items),
    ]
    for key, build, out in readers:
        entries, file = _table(doc, key, base)
        try:
            for ident, obj in entries.items():
                check(ident not in out, "id defined twice", pointer(key, ident), ident, TowerError)
                check(isinstance(obj, dict), "must be an object", pointer(key, ident), obj,
                      TowerError)  # fmt: skip
                out[ident] = build(ident, obj, pointer(key, ident))
        except TowerError as exc:
            raise exc.with_file(file) if file else exc from None
    terrain = {"empty": TerrainDef("empty")}
    for ident, obj in get(doc, "terrain", dict, "", TowerError, {}).items():
        at = pointer("terrain", ident)
        check(isinstance(obj, dict), "must be an object", at, obj, TowerError)
        stairs = get(obj, "stairs", int, at, TowerError, 0)
        check(stairs in (-1, 0, 1), "stairs must be -1, 0 or 1", at + "/stairs", stairs, TowerError)
        terrain[ident] = TerrainDef(ident, get(obj, "passable", bool, at, TowerError, True), stairs)
    legend: dict[int, tuple[str, str]] = {}
    tables: dict[str, Mapping[str, object]] = {"enemy": enemies, "item": items, "terrain": terrain}
    for number, ref in get(doc, "legend", dict, "", TowerError).items():
        at = pointer("legend", number)
        check(number.isdigit() and 0 < int(number) < 100_000, "a legend key is a number 1-99999",
              at, number, TowerError)  # fmt: skip
        ok = isinstance(ref, dict) and len(ref) == 1 and next(iter(ref)) in tables
        check(ok, 'must be {"enemy"|"item"|"terrain": id}', at, ref, TowerError)
        kind, ident = next(iter(ref.items()))
        check(isinstance(ident, str) and ident in tables[kind], f"unknown {kind} id",
              f"{at}/{kind}", ident, TowerError)  # fmt: skip
        legend[int(number)] = (kind, ident)
    floors: dict[str, np.ndarray] = {}
    floor_docs = get(doc, "floors", dict, "", TowerError)
    check(len(floor_docs) <= MAX_FLOORS, f"at most {MAX_FLOORS} floors", "/floors",
          len(floor_docs), TowerError)  # fmt: skip
    for fid, obj in floor_docs.items():
        at = pointer("floors", fid)
        check(":" not in fid and fid != "", "a floor id is non-empty without ':'", at, fid,
              TowerError)  # fmt: skip
        rows = get(obj, "map", list, at, TowerError)
        wide = max((len(r) for r in rows if isinstance(r, list)), default=0)
        check(len(rows) <= MAX_SIDE and wide <= MAX_SIDE,
              f"a floor is at most {MAX_SIDE}x{MAX_SIDE} cells", at + "/map",
              f"{wide}x{len(rows)}", TowerError)  # fmt: skip
        check(rows and all(isinstance(r, list) and len(r) == len(rows[0]) for r in rows)
              and len(rows[0]) > 0, "map must be a non-empty rectangle of rows", at + "/map",
              None, TowerError)  # fmt: skip
        for y, row in enumerate(rows):
            for x, v in enumerate(row):
                ok = type(v) is int and (v == 0 or v in legend)
                check(ok, "not 0 or a legend number", pointer("floors", fid, "map", y, x), v,
                      TowerError)  # fmt: skip
        floors[fid] = np.array(rows, dtype=np.int64)
    check(bool(floors), "a tower needs at least one floor", "/floors", None, TowerError)
    hero = get(doc, "hero", dict, "", TowerError)
    start = get(hero, "floor", str, "/hero", TowerError)
    check(start in floors, "unknown floor", "/hero/floor", start, TowerError)
    h, w = floors[start].shape
    hx = get(hero, "x", int, "/hero", TowerError)
    hy = get(hero, "y", int, "/hero", TowerError)
    check(0 <= hx < w and 0 <= hy < h, "hero outside the floor", "/hero", [hx, hy], TowerError)
    for k in ("hp", "atk", "def"):
        check(0 <= get(hero, k, int, "/hero", TowerError) <= MAX_STAT, f"must be 0-{MAX_STAT}",
              f"/hero/{k}", hero[k], TowerError)  # fmt: skip
    owned = get(hero, "items", dict, "/hero", TowerError, {})
    for ident, n in owned.items():
        check(ident in items, "unknown item id", pointer("hero", "items", ident), ident, TowerError)
        check(type(n) is int and 0 <= n <= MAX_STAT, f"a count 0-{MAX_STAT}",
              pointer("hero", "items", ident), n, TowerError)  # fmt: skip
    return Tower(
        name=get(doc, "name", str, "", TowerError, "tower"),
        enemies=enemies,
        items=items,
        terrain=terrain,
        legend=legend,
        floors=floors,
        hero=dict(hero),
        source=source,
    )


def _floor_sizes(data: bytes) -> None:
    """Refuse a floor over MAX_SIDE from the file's text, before nine million cells are built."""
    from labkit._json_grids import grids

    for grid in grids(data, side=MAX_SIDE):
        if len(grid.parts) == 3 and grid.parts[0] == "floors" and grid.parts[2] == "map":
            check(False, f"a floor is at most {MAX_SIDE}x{MAX_SIDE} cells",
                  pointer(*grid.parts), f"{grid.widest}x{grid.rows}", TowerError)  # fmt: skip


def load_tower(path: str | Path) -> Tower:
    """Load and validate a tower file (and the tables it names): an alias of :meth:`Tower.load`.

    Examples
    --------
    >>> tower = load_tower(example_tower_path())
    >>> sorted(tower.floors)
    ['F1', 'F2']
    >>> tower.enemies["bat"].time_cost
    2.0
    """
    return Tower.load(path)


def example_tower_path() -> Path:
    """The small example tower shipped in ``data/mapturn/tower.json``.

    Examples
    --------
    >>> example_tower_path().name
    'tower.json'
    """
    from labkit._data import data_path

    return data_path("mapturn", "tower.json")
