"""The JSON map format (``"format": "labkit.pathmap"``, version 1).

Example::

    {"format": "labkit.pathmap", "version": 1,
     "tiles": [{"number": 1, "name": "wall", "in_pass": 0, "out_pass": 0}],
     "event": [[0, 1, 0], [0, 0, 0]],
     "layers": [{"name": "deco", "tiles": [[0, 0, 0], [0, 0, 0]]}],
     "cost": [[1, 1, 1], [1, 5, 1]],
     "neighbourhood": 4}

``tiles`` entries take ``number`` (> 0) and optionally ``name``, ``in_pass``/``out_pass``
(0–15, default 15), ``event_pass`` (default true), ``only_events`` (default false). Grids are
lists of rows (``[y][x]``); ``layers``, ``cost`` (entering costs, default 1) and
``neighbourhood`` (4 or 8, default 4) are optional. Everything is validated before anything is
built; errors name the JSON pointer and the bad value.

Limits (checked on load, each error naming the limit and the value): a grid is at most
:data:`MAX_SIDE` cells wide or high and :data:`MAX_CELLS` cells in all; at most
:data:`MAX_LAYERS` extra layers and :data:`MAX_TILES` tile definitions; tile numbers are
1 … :data:`MAX_TILE_NUMBER`; a cost is a finite number 0 … :data:`MAX_COST` (no NaN, no
infinity, no negative cost: a cell that cannot be entered is a wall tile, not a cost); the file is
at most :data:`MAX_BYTES`. Memory is then O(cells × layers) and a search O(cells log cells).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import _renamed, io
from labkit.pathfinding.tiles import (
    EIGHT_WAY,
    FOUR_WAY,
    DirectionHandler,
    GameMap,
    MapError,
    TileDef,
)

__all__ = ["MapFile", "map_from_dict", "map_to_dict", "load_map", "save_map"]

FORMAT = "labkit.pathmap"
VERSIONS = (1,)
MAX_SIDE = 4096
MAX_CELLS = 1_000_000
MAX_LAYERS = 16
MAX_TILES = 4096
MAX_TILE_NUMBER = 2**31 - 1
MAX_COST = 1e9
MAX_BYTES = 128 * 1024 * 1024


@dataclass
class MapFile:
    """A loaded map file: the map, its cost field (or None) and its direction handler.

    Examples
    --------
    >>> mf = MapFile.load(shipped_map_path("swamp.json"))
    >>> mf.cost is not None, mf.face.name
    (True, '8-way')
    """

    game_map: GameMap
    cost: NDArray[np.float64] | None
    face: DirectionHandler

    def to_dict(self) -> dict:
        """The map document (see :func:`map_to_dict`)."""
        return map_to_dict(self.game_map, self.cost, self.face)

    @classmethod
    def from_dict(cls, doc: Any, state: Any = None) -> MapFile:
        """Validate a map document and build the map (see :func:`map_from_dict`)."""
        return map_from_dict(doc, state)

    def save(self, path: str | os.PathLike) -> None:
        """Write the map file atomically (the one saving path; :func:`save_map` is an alias)."""
        doc = map_to_dict(self.game_map, self.cost, self.face)
        io.save_json(path, doc, format=FORMAT, version=VERSIONS[-1])

    @classmethod
    def load(cls, path: str | os.PathLike, state: Any = None) -> MapFile:
        """Read and validate a map file; errors name the file, the JSON pointer and the value.

        The one loading path of the map format; :func:`load_map` is an alias.

        Examples
        --------
        >>> MapFile.load(shipped_map_path("corridors.json")).game_map.width
        12
        """
        doc = io.load_json(path, format=FORMAT, versions=VERSIONS, error=MapError,
                           max_bytes=MAX_BYTES, check_text=_grid_sizes)  # fmt: skip
        try:
            return map_from_dict(doc, state)
        except MapError as exc:
            raise exc.with_file(str(path)) from None


def _grid(value: Any, at: str, kind: type, shape: tuple[int, int] | None) -> np.ndarray:
    """A list of rows of ints (tile numbers >= 0) or numbers (costs), checked cell by cell."""
    ok = isinstance(value, list) and len(value) > 0
    io.check(ok, "must be a non-empty list of rows", at, value, MapError)
    wide = max((len(r) for r in value if isinstance(r, list)), default=0)
    io.check(len(value) <= MAX_SIDE and wide <= MAX_SIDE,
             f"a grid is at most {MAX_SIDE} cells wide and high", at, f"{wide}x{len(value)}",
             MapError)  # fmt: skip
    io.check(len(value) * wide <= MAX_CELLS, f"a grid has at most {MAX_CELLS} cells", at,
             f"{wide}x{len(value)}", MapError)  # fmt: skip
    if shape is not None:
        io.check(len(value) == shape[0], f"must have {shape[0]} rows", at, len(value), MapError)
    width = shape[1] if shape else None
    for y, row in enumerate(value):
        io.check(isinstance(row, list), "must be a list of cells", f"{at}/{y}", row, MapError)
        width = len(row) if width is None else width
        ok = len(row) == width and width > 0
        io.check(ok, f"row must have {width} cells", f"{at}/{y}", len(row), MapError)
        for x, cell in enumerate(row):
            if kind is int:
                io.as_int(cell, f"{at}/{y}/{x}", 0, MAX_TILE_NUMBER, MapError)
            else:
                ok = isinstance(cell, (int, float)) and not isinstance(cell, bool)
                ok = ok and math.isfinite(cell) and 0 <= cell <= MAX_COST
                io.check(ok, f"must be a number 0-{MAX_COST:g}", f"{at}/{y}/{x}", cell, MapError)
    return np.array(value, dtype=np.int64 if kind is int else np.float64)


def _known(grid: np.ndarray, at: str, numbers: set[int]) -> None:
    for y, x in zip(*np.nonzero(grid)):
        num = int(grid[y, x])
        io.check(num in numbers, "unknown tile number", f"{at}/{y}/{x}", num, MapError)


def map_from_dict(doc: Any, state: Any = None) -> MapFile:
    """Validate a map document (already parsed) and build it."""
    doc = io.check_header(doc, format=FORMAT, versions=VERSIONS, error=MapError)
    tiles = []
    raw_tiles = io.field(doc, "tiles", list, "", MapError)
    io.check(len(raw_tiles) <= MAX_TILES, f"at most {MAX_TILES} tile definitions", "/tiles",
             len(raw_tiles), MapError)  # fmt: skip
    seen: set[int] = set()
    for i, t in enumerate(raw_tiles):
        at = f"/tiles/{i}"
        number = io.field(t, "number", int, at, MapError)
        io.as_int(number, f"{at}/number", 1, MAX_TILE_NUMBER, MapError)
        io.check(number not in seen, "tile number defined twice", f"{at}/number", number, MapError)
        seen.add(number)
        bits = {}
        for key in ("in_pass", "out_pass"):
            value = io.field(t, key, int, at, MapError, 15)
            bits[key] = io.as_int(value, f"{at}/{key}", 0, 15, MapError)
        tiles.append(
            TileDef(
                number,
                event_pass=io.field(t, "event_pass", bool, at, MapError, True),
                only_events=io.field(t, "only_events", bool, at, MapError, False),
                name=io.field(t, "name", str, at, MapError, ""),
                **bits,
            )
        )
    event = _grid(io.field(doc, "event", list, "", MapError), "/event", int, None)
    _known(event, "/event", seen)
    layers = {}
    raw_layers = io.field(doc, "layers", list, "", MapError, [])
    io.check(len(raw_layers) <= MAX_LAYERS, f"at most {MAX_LAYERS} layers", "/layers",
             len(raw_layers), MapError)  # fmt: skip
    for i, layer in enumerate(raw_layers):
        at = f"/layers/{i}"
        name = io.field(layer, "name", str, at, MapError)
        grid = _grid(io.field(layer, "tiles", list, at, MapError), f"{at}/tiles", int, event.shape)
        _known(grid, f"{at}/tiles", seen)
        io.check(name not in layers, "layer name used twice", f"{at}/name", name, MapError)
        layers[name] = grid
    cost = None
    if "cost" in doc:
        cost = _grid(doc["cost"], "/cost", float, event.shape)
    hood = io.field(doc, "neighbourhood", int, "", MapError, 4)
    io.check(hood in (4, 8), "must be 4 or 8", "/neighbourhood", hood, MapError)
    game_map = GameMap(tiles, event=event, layers=layers, state=state)
    return MapFile(game_map, cost, FOUR_WAY if hood == 4 else EIGHT_WAY)


def map_to_dict(
    game_map: GameMap, cost: NDArray | None = None, face: DirectionHandler = FOUR_WAY
) -> dict:
    """The document for a map (the inverse of :func:`map_from_dict`)."""
    if game_map.event_layer is None:
        raise MapError("the map format needs an event layer")
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSIONS[-1],
        "tiles": [
            {
                "number": t.number,
                "name": t.name,
                "in_pass": int(t.in_pass),
                "out_pass": int(t.out_pass),
                "event_pass": t.event_pass,
                "only_events": t.only_events,
            }
            for t in game_map.tile_table.values()
        ],
        "event": game_map.event_layer.tiles.tolist(),
        "layers": [
            {"name": layer.name, "tiles": layer.tiles.tolist()} for layer in game_map.layers
        ],
        "neighbourhood": 8 if face is EIGHT_WAY else 4,
    }
    if cost is not None:
        doc["cost"] = np.asarray(cost, dtype=float).tolist()
    return doc


def _grid_sizes(data: bytes) -> None:
    """Refuse a grid over MAX_SIDE / MAX_CELLS from the file's text, before its cells are built."""
    from labkit._json_grids import grids

    for grid in grids(data, side=MAX_SIDE, cells=MAX_CELLS):
        if grid.parts in (("event",), ("cost",)) or (
            len(grid.parts) == 3 and grid.parts[0] == "layers" and grid.parts[2] == "tiles"
        ):
            at, size = io.pointer(*grid.parts), f"{grid.widest}x{grid.rows}"
            io.check(
                grid.rows <= MAX_SIDE and grid.widest <= MAX_SIDE,
                f"a grid is at most {MAX_SIDE} cells wide and high",
                at,
                size,
                MapError,
            )
            io.check(False, f"a grid has at most {MAX_CELLS} cells", at, size, MapError)


def load_map(path: str | os.PathLike, state: Any = None) -> MapFile:
    """Read and validate a map file: an alias of :meth:`MapFile.load`.

    Examples
    --------
    >>> from labkit.pathfinding.map_file import load_map, shipped_map_path
    >>> mf = load_map(shipped_map_path("corridors.json"))
    >>> mf.game_map.width, mf.face.name
    (12, '4-way')
    """
    return MapFile.load(path, state)


def save_map(path: str | os.PathLike, map_file: MapFile) -> None:
    """Write a map file atomically: an alias of :meth:`MapFile.save` (argument order kept).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "copy.json")
    >>> save_map(path, load_map(shipped_map_path("corridors.json")))
    >>> load_map(path).game_map.width
    12
    """
    map_file.save(path)


def shipped_map_path(name: str) -> str:
    """Path of a shipped example map in ``data/maps``.

    Examples
    --------
    >>> shipped_map_path("corridors.json").endswith("corridors.json")
    True
    """
    from labkit._data import data_path as shipped

    return str(shipped("maps", name))


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
