"""The seeded room map of an encounter game: room kinds, loot, the card pool and spawn rooms.

The map is a ``width × height`` grid of rooms addressed ``(x, y)`` (y down = south, the
convention of :mod:`labkit.encounter.rules.sound`). Everything here is drawn from the *map* stream
only (``labkit.rng.stream(map_seed, "map")``), so policies and fights never move a room.

Decisions the rules leave open, recorded here:

* Room kinds are ``hall``, ``store``, ``armory``, ``cellar`` and ``ward``; only stores and
  armouries may yield the quota item (bullets). A map without one gets an armoury.
* The whole A-edition card pool is dealt at map time: each card goes to a random room (bullets
  only to rooms that may yield them, within each room's quota, through
  :meth:`~labkit.encounter.Room.stock_from`), so ``loot`` is part of the initial map that a
  format-3 trace stores and a viewer shows.
* Actors spawn in distinct rooms, drawn after the loot.
* Rooms are neighbours when they touch, diagonals included (8 moves, like the 8 sound
  directions); a move names its compass direction, e.g. ``"move:NE"``.

Examples
--------
>>> w = RoomMap.generate(4, 3, ["npc-0", "monster-0"], rng=5)
>>> w.shape, len(w.rooms)
((3, 4), 12)
>>> sorted(w.spawns) == ["monster-0", "npc-0"]
True
>>> [d.name for d, _ in w.neighbours((0, 0))]
['E', 'SE', 'S']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from labkit import _renamed
from labkit.encounter.rules.balance import Balance, default_balance
from labkit.encounter.rules.cards import CardPool, Room
from labkit.encounter.rules.sound import Compass
from labkit.rng import RngLike, make_rng

__all__ = ["ROOM_KINDS", "YIELDS_QUOTA", "STEPS", "RoomMap", "room_id"]

ROOM_KINDS = ("hall", "store", "armory", "cellar", "ward")
KIND_WEIGHTS = (0.35, 0.15, 0.1, 0.2, 0.2)
YIELDS_QUOTA = frozenset({"store", "armory"})

# (dx, dy) per compass direction 0..7 (y down = south).
STEPS = {
    Compass.N: (0, -1),
    Compass.NE: (1, -1),
    Compass.E: (1, 0),
    Compass.SE: (1, 1),
    Compass.S: (0, 1),
    Compass.SW: (-1, 1),
    Compass.W: (-1, 0),
    Compass.NW: (-1, -1),
}

Position = tuple[int, int]


def room_id(pos: Position) -> str:
    """The room's id in the card pool and in traces: ``"x,y"``."""
    return f"{pos[0]},{pos[1]}"


class RoomMap:
    """Rooms (``cards.Room`` per cell), their kinds, the card pool and the spawn rooms.

    Examples
    --------
    >>> w = RoomMap.generate(4, 3, ["npc-0", "monster-0"], rng=1)
    >>> w.shape, w.width, sorted(w.spawns)
    ((3, 4), 4, ['monster-0', 'npc-0'])
    """

    def __init__(
        self,
        kinds: np.ndarray,
        pool: CardPool,
        rooms: dict[Position, Room],
        spawns: dict[str, Position],
        balance: Balance | None = None,
    ) -> None:
        self.kinds = kinds
        self.pool = pool
        self.rooms = rooms
        self.spawns = spawns
        self.balance = default_balance() if balance is None else balance
        h, w = kinds.shape
        self._neighbours = {
            (x, y): [
                (d, (x + dx, y + dy))
                for d, (dx, dy) in STEPS.items()
                if 0 <= x + dx < w and 0 <= y + dy < h
            ]
            for y in range(h)
            for x in range(w)
        }
        self._by_name = {p: {d.name: q for d, q in n} for p, n in self._neighbours.items()}

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``, as :func:`~labkit.encounter.propagate_sound` takes it."""
        return self.kinds.shape

    @property
    def width(self) -> int:
        return self.kinds.shape[1]

    @property
    def height(self) -> int:
        return self.kinds.shape[0]

    @classmethod
    def generate(
        cls,
        width: int,
        height: int,
        actors: Sequence[str],
        rng: RngLike,
        balance: Balance | None = None,
    ) -> RoomMap:
        """Draw a map: kinds, dealt loot and one spawn room per actor (map stream only)."""
        g = make_rng(rng)
        bal = default_balance() if balance is None else balance
        kinds = g.choice(len(ROOM_KINDS), size=(height, width), p=KIND_WEIGHTS).astype(np.int8)
        quota_kinds = [ROOM_KINDS.index(k) for k in YIELDS_QUOTA]
        if not np.isin(kinds, quota_kinds).any():
            kinds[g.integers(height), g.integers(width)] = ROOM_KINDS.index("armory")
        cells = [(x, y) for y in range(height) for x in range(width)]
        rooms = {p: Room(room_id(p)) for p in cells}
        yielding = [p for p in cells if ROOM_KINDS[kinds[p[1], p[0]]] in YIELDS_QUOTA]
        pool = CardPool.a_edition([room_id(p) for p in yielding], balance=bal)
        for item in sorted(bal.pool_stock):
            for _ in range(pool.remaining(item)):
                if item == pool.quota_item:
                    open_rooms = [p for p in yielding if pool.quota(room_id(p)) > 0]
                    if not open_rooms:
                        break
                    target = open_rooms[int(g.integers(len(open_rooms)))]
                else:
                    target = cells[int(g.integers(len(cells)))]
                rooms[target].stock_from(pool, item)
        order = g.permutation(len(cells))
        spawns = {a: cells[int(order[i])] for i, a in enumerate(actors)}
        return cls(kinds, pool, rooms, spawns, bal)

    def kind(self, pos: Position) -> str:
        return ROOM_KINDS[int(self.kinds[pos[1], pos[0]])]

    def inside(self, pos: Position) -> bool:
        return 0 <= pos[0] < self.width and 0 <= pos[1] < self.height

    def neighbours(self, pos: Position) -> list[tuple[Compass, Position]]:
        """Touching rooms in compass order (N, NE, … NW), diagonals included."""
        return list(self._neighbours[pos])

    def step_to(self, pos: Position, direction: str) -> Position:
        """The room one move in compass ``direction`` (a name such as ``"NE"``) from ``pos``."""
        return self._by_name[pos][direction]

    def room(self, pos: Position) -> Room:
        return self.rooms[(int(pos[0]), int(pos[1]))]

    def to_dict(self) -> dict:
        """The map as a format-3 trace stores it (kinds, loot, dropped loot, quotas, spawns)."""
        return {
            "width": self.width,
            "height": self.height,
            "kinds": [[ROOM_KINDS[k] for k in row] for row in self.kinds.tolist()],
            "loot": {r.id: r.loot.as_dict() for r in self.rooms.values() if r.loot.total()},
            "dropped_loot": {
                r.id: r.dropped_loot.as_dict()
                for r in self.rooms.values()
                if r.dropped_loot.total()
            },
            "pool": self.pool.as_dict(),
            "spawns": {a: list(p) for a, p in self.spawns.items()},
        }


def parse_room(rid: str) -> Position:
    """``"x,y"`` back to ``(x, y)``."""
    x, y = rid.split(",")
    return int(x), int(y)


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
