"""Map model: pass bits, directions, direction handlers, tiles, layers and maps (rules P0, P2).

Decisions the rules leave open, recorded here:

* Tile number 0 means "no static tile" (the cell imposes nothing, P3). Every other number used by
  a layer must be in the map's tile table; a layer naming an unknown number is an error.
* A direction handler maps every direction it knows to a movement offset, ``UNKNOWN`` included
  as ``(0, 0)`` (the graph builder skips that offset, P5). The 4-way handler reduces a diagonal to
  its vertical component (``UP_LEFT`` -> ``UP``); the reduction only tells whether a valid
  direction exists, masks always use the actual move direction (P3).
* ``MapLayer.dynamic`` holds dynamic tiles (NPCs, moving blocks) by ``(x, y)``; the default
  predicate never reads it (P3: only static tiles are read).
* A map belongs to a ``state`` (any object standing for one game/data instance); the
  pathfinding system refuses layers of another state (P7).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit.io import FormatError

__all__ = [
    "MapError",
    "PassBit",
    "Direction",
    "DirectionHandler",
    "FOUR_WAY",
    "EIGHT_WAY",
    "TileDef",
    "MapLayer",
    "GameMap",
]


class MapError(FormatError):
    """A map, layer or tile definition that is not valid."""


class PassBit(enum.IntFlag):
    """Pass bits (P2): Up=1, Right=2, Down=4, Left=8. Test with ``&``, never ``==``.

    Examples
    --------
    >>> bool((PassBit.UP | PassBit.RIGHT) & PassBit.RIGHT)
    True
    """

    NONE = 0
    UP = 1
    RIGHT = 2
    DOWN = 4
    LEFT = 8
    ALL = 15


class Direction(enum.Enum):
    """A move direction with its offset ``(dx, dy)`` (y grows downward) and pass-bit mask.

    A diagonal's mask is the union of its two component bits (P3).

    Examples
    --------
    >>> Direction.UP_LEFT.mask == PassBit.UP | PassBit.LEFT
    True
    >>> Direction.UP.opposite, Direction.from_offset(1, 1)
    (<Direction.DOWN: 2>, <Direction.DOWN_RIGHT: 5>)
    """

    # Values are the kernels' neighbour order: cardinals first, then diagonals.
    UP = 0
    RIGHT = 1
    DOWN = 2
    LEFT = 3
    UP_RIGHT = 4
    DOWN_RIGHT = 5
    DOWN_LEFT = 6
    UP_LEFT = 7
    UNKNOWN = 8

    @property
    def offset(self) -> tuple[int, int]:
        return _OFFSETS[self.value]

    @property
    def dx(self) -> int:
        return _OFFSETS[self.value][0]

    @property
    def dy(self) -> int:
        return _OFFSETS[self.value][1]

    @property
    def mask(self) -> PassBit:
        return PassBit(_MASKS[self.value])

    @property
    def opposite(self) -> Direction:
        dx, dy = self.offset
        return Direction.from_offset(-dx, -dy)

    @property
    def is_diagonal(self) -> bool:
        return self.value in (4, 5, 6, 7)

    @staticmethod
    def from_offset(dx: int, dy: int) -> Direction:
        """The direction of a unit offset; ``UNKNOWN`` for (0, 0) or anything longer."""
        return _BY_OFFSET.get((int(dx), int(dy)), Direction.UNKNOWN)


_OFFSETS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1), (0, 0))
_MASKS = (1, 2, 4, 8, 1 | 2, 4 | 2, 4 | 8, 1 | 8, 0)
_BY_OFFSET = {off: Direction(i) for i, off in enumerate(_OFFSETS[:8])}
CARDINALS = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)
DIAGONALS = (Direction.UP_RIGHT, Direction.DOWN_RIGHT, Direction.DOWN_LEFT, Direction.UP_LEFT)


@dataclass(frozen=True)
class DirectionHandler:
    """A neighbourhood: which directions exist, how input reduces to them, their offsets.

    Use the shared instances ``FOUR_WAY`` and ``EIGHT_WAY``.

    Examples
    --------
    >>> FOUR_WAY.reduce(Direction.UP_LEFT), EIGHT_WAY.reduce(Direction.UP_LEFT)
    (<Direction.UP: 0>, <Direction.UP_LEFT: 7>)
    >>> len([d for d, off in EIGHT_WAY.movements() if off != (0, 0)])
    8
    """

    name: str
    directions: tuple[Direction, ...]

    def reduce(self, direction: Direction) -> Direction:
        """The handler's own direction for ``direction`` (``UNKNOWN`` if there is none)."""
        if direction in self.directions:
            return direction
        if direction.is_diagonal and direction.dy != 0:
            vertical = Direction.from_offset(0, direction.dy)
            if vertical in self.directions:
                return vertical
        return Direction.UNKNOWN

    def movements(self) -> list[tuple[Direction, tuple[int, int]]]:
        """Every direction with its offset, ``UNKNOWN -> (0, 0)`` included (builders skip it)."""
        return [(d, d.offset) for d in self.directions] + [(Direction.UNKNOWN, (0, 0))]

    def from_offset(self, dx: int, dy: int) -> Direction:
        d = Direction.from_offset(dx, dy)
        return d if d in self.directions else Direction.UNKNOWN


FOUR_WAY = DirectionHandler("4-way", CARDINALS)
EIGHT_WAY = DirectionHandler("8-way", CARDINALS + DIAGONALS)


@dataclass(frozen=True)
class TileDef:
    """A static tile kind (P2).

    Parameters
    ----------
    number : int
        The tile number used in layers (> 0; 0 means "no tile").
    in_pass, out_pass : int
        Pass bits: sides from which one may enter / directions in which one may leave.
    event_pass : bool
        True: walking onto it triggers its event; False: one bumps into it (hit) without entering.
    only_events : bool
        On layers other than the event layer only tiles with this flag take part in passability.
    name : str
        A label for people.

    Examples
    --------
    >>> door = TileDef(2, event_pass=False, name="door")
    >>> door.number, door.name, door.in_pass == PassBit.ALL
    (2, 'door', True)
    """

    number: int
    in_pass: int = 15
    out_pass: int = 15
    event_pass: bool = True
    only_events: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.number, bool) or not isinstance(self.number, (int, np.integer)):
            raise MapError("tile number must be an integer", value=self.number)
        if self.number <= 0:
            raise MapError("tile number must be > 0 (0 means no tile)", value=self.number)
        for key in ("in_pass", "out_pass"):
            bits = getattr(self, key)
            if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)):
                raise MapError(f"tile {self.number}: {key} must be pass bits 0-15", value=bits)
            if not 0 <= int(bits) <= 15:
                raise MapError(f"tile {self.number}: {key} must be pass bits 0-15", value=bits)


class MapLayer:
    """A width x height grid of static tile numbers (indexed ``[y, x]``), 0 = no tile.

    A layer is attached to one :class:`GameMap` (``layer.game_map``), whose tile table gives the
    numbers their meaning. ``dynamic`` holds dynamic tiles by ``(x, y)``; the default predicate
    ignores them.

    Examples
    --------
    >>> layer = MapLayer([[0, 1], [0, 0]], name="event")
    >>> layer.width, layer.height, int(layer.number_at(1, 0))
    (2, 2, 1)
    """

    def __init__(self, tiles: ArrayLike, name: str = "layer") -> None:
        arr = np.asarray(tiles)
        if arr.ndim != 2 or arr.size == 0:
            raise MapError(f"layer {name!r}: tiles must be a non-empty 2-D grid", value=arr.shape)
        if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "f" and np.all(arr % 1 == 0)):
            raise MapError(f"layer {name!r}: tile numbers must be integers", value=arr.dtype)
        if arr.min() < 0:
            raise MapError(f"layer {name!r}: tile numbers must be >= 0", value=int(arr.min()))
        self.tiles: NDArray[np.int64] = np.array(arr, dtype=np.int64)
        self.name = name
        self.game_map: GameMap | None = None
        self.dynamic: dict[tuple[int, int], int] = {}

    @property
    def width(self) -> int:
        return int(self.tiles.shape[1])

    @property
    def height(self) -> int:
        return int(self.tiles.shape[0])

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.tiles.shape[1] and 0 <= y < self.tiles.shape[0]

    def number_at(self, x: int, y: int) -> int:
        """The static tile number at ``(x, y)``; 0 for no tile or outside the layer."""
        if not self.in_bounds(x, y):
            return 0
        return int(self.tiles[y, x])

    def tile_at(self, x: int, y: int) -> TileDef | None:
        """The static tile at ``(x, y)`` or ``None`` (no tile, outside, or layer unattached)."""
        num = self.number_at(x, y)
        if num == 0 or self.game_map is None:
            return None
        return self.game_map.tile_table.get(num)

    def set_tile(self, x: int, y: int, number: int) -> None:
        """Paint a static tile (0 clears it); the number must be in the map's tile table."""
        if not self.in_bounds(x, y):
            raise MapError(f"layer {self.name!r}: ({x}, {y}) is outside the layer")
        if number != 0 and self.game_map is not None and number not in self.game_map.tile_table:
            raise MapError(f"layer {self.name!r}: unknown tile number", value=number)
        self.tiles[y, x] = number

    def _repr_svg_(self) -> str:
        from labkit.pathfinding import draw

        return draw.layer_svg(self)


class GameMap:
    """One floor: a tile table, an event layer and any number of other layers (same size).

    Parameters
    ----------
    tile_table : iterable of TileDef or mapping number -> TileDef
    event : MapLayer or array_like or None
        The event layer (``None``: a map without one, through which nothing passes, P3).
    layers : iterable of MapLayer or mapping name -> array_like
        The other layers (backgrounds, decorations); only ``only_events`` tiles on them count.
    state : object, optional
        The game/data instance this map belongs to (see ``PathfindingSystem.use_map_layer``).

    Examples
    --------
    >>> wall = TileDef(1, in_pass=0, out_pass=0, name="wall")
    >>> m = GameMap([wall], event=[[0, 1, 0]])
    >>> m.event_layer.tile_at(1, 0).name, m.width, m.height
    ('wall', 3, 1)
    """

    def __init__(
        self,
        tile_table: Iterable[TileDef] | Mapping[int, TileDef],
        event: MapLayer | ArrayLike | None = None,
        layers: Iterable[MapLayer] | Mapping[str, ArrayLike] = (),
        state: Any = None,
    ) -> None:
        tiles = list(tile_table.values()) if isinstance(tile_table, Mapping) else list(tile_table)
        self.tile_table: dict[int, TileDef] = {}
        for t in tiles:
            if not isinstance(t, TileDef):
                raise MapError("tile table entries must be TileDef", value=t)
            if t.number in self.tile_table:
                raise MapError("tile number defined twice", value=t.number)
            self.tile_table[t.number] = t
        if isinstance(layers, Mapping):
            layers = [MapLayer(v, name=k) for k, v in layers.items()]
        self.layers: list[MapLayer] = [self._adopt(x, "layer") for x in layers]
        self.event_layer: MapLayer | None = None if event is None else self._adopt(event, "event")
        self.state = state
        shapes = {layer.tiles.shape for layer in self.all_layers()}
        if len(shapes) > 1:
            raise MapError("all layers must have the same size", value=sorted(shapes))

    def _adopt(self, layer: MapLayer | ArrayLike, name: str) -> MapLayer:
        if not isinstance(layer, MapLayer):
            layer = MapLayer(layer, name=name)
        if layer.game_map is not None and layer.game_map is not self:
            raise MapError(f"layer {layer.name!r} already belongs to another map")
        unknown = set(np.unique(layer.tiles).tolist()) - set(self.tile_table) - {0}
        if unknown:
            raise MapError(f"layer {layer.name!r}: unknown tile numbers", value=sorted(unknown))
        layer.game_map = self
        return layer

    def all_layers(self) -> list[MapLayer]:
        return ([self.event_layer] if self.event_layer is not None else []) + self.layers

    @property
    def width(self) -> int:
        return self.all_layers()[0].width

    @property
    def height(self) -> int:
        return self.all_layers()[0].height

    def pass_grids(self, layer: MapLayer) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``(out_pass, in_pass)`` per cell of ``layer`` as it counts for passability.

        Cells without a static tile get all bits (they impose nothing); on layers other than
        the event layer so do tiles not flagged ``only_events``.
        """
        top = max(self.tile_table, default=0) + 1
        out_lut = np.full(top, 15, dtype=np.int64)
        in_lut = np.full(top, 15, dtype=np.int64)
        for num, t in self.tile_table.items():
            if layer is self.event_layer or t.only_events:
                out_lut[num] = t.out_pass
                in_lut[num] = t.in_pass
        return out_lut[layer.tiles], in_lut[layer.tiles]

    def hit_grid(self) -> NDArray[np.bool_]:
        """True where the event layer has a static tile with ``event_pass`` false."""
        if self.event_layer is None:
            return np.zeros((self.height, self.width), dtype=np.bool_)
        lut = np.zeros(max(self.tile_table, default=0) + 1, dtype=np.bool_)
        for num, t in self.tile_table.items():
            lut[num] = not t.event_pass
        return lut[self.event_layer.tiles]

    @classmethod
    def from_text(
        cls, text: str | list[str], legend: Mapping[str, TileDef | None], state: Any = None
    ) -> GameMap:
        """An event-layer map from rows of characters; ``legend`` maps a character to a tile.

        Examples
        --------
        >>> wall = TileDef(1, in_pass=0, out_pass=0)
        >>> m = GameMap.from_text(["..#", "..."], {".": None, "#": wall})
        >>> m.event_layer.tiles.tolist()
        [[0, 0, 1], [0, 0, 0]]
        """
        rows = text.strip("\n").splitlines() if isinstance(text, str) else list(text)
        rows = [r.strip() for r in rows]
        grid = np.zeros((len(rows), len(rows[0]) if rows else 0), dtype=np.int64)
        for y, row in enumerate(rows):
            if len(row) != grid.shape[1]:
                raise MapError(f"row {y} has {len(row)} cells, expected {grid.shape[1]}")
            for x, ch in enumerate(row):
                if ch not in legend:
                    raise MapError(f"row {y} column {x}: character not in legend", value=ch)
                tile = legend[ch]
                grid[y, x] = 0 if tile is None else tile.number
        table = {t.number: t for t in legend.values() if t is not None}
        return cls(table, event=grid, state=state)
