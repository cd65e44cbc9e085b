"""Puzzle levels: the JSON format, its import limits, board shapes and rotation (rules H2, H3).

A :class:`Level` is immutable: a :class:`Board` (cells and their tracks), the tiles standing on
it, and the level's metadata. Rotating returns a new level whose board is turned beneath the
tiles; tiles keep their ``(q, r, dir)``.

Decisions the rules leave open
------------------------------
* ``id`` is a required non-empty string; ``name`` is optional and defaults to ``id``.
* Limits: at most :data:`MAX_CELLS` cells within hex radius :data:`MAX_RADIUS` (so at most
  61 tiles), moveLimit 1-999, ids and names up to :data:`MAX_ID` characters, files up to
  :data:`MAX_BYTES`. Solving is then bounded by the solver's ``max_states``.
* Keys the format does not know are ignored (editors may add their own); they are not re-exported.
* Version 1 files import with the same structure checks as version 2 and are written back as
  version 2; the level remembers ``source_version``. Solvability under today's collision rules
  is the solver's business (``validate`` reports it once the solver exists).
* An empty ``tiles`` list imports (an editor may save a bare board) but is reported by
  ``labkit puzzle validate`` as not a playable level.
* ``rotated(k)`` is defined for any board that is six-fold symmetric, even when the file says
  ``rotationEnabled: false`` (it is geometry); games check :attr:`Level.can_rotate` first. On an
  asymmetric board it raises :class:`LevelError` (tiles would hang over nothing).
* Rotation results are cached per board, so a solver turning the board back and forth reuses
  the same :class:`Board` objects and their cached tile paths.
* ``metadata`` is an optional JSON object saved under ``"metadata"`` (how a level was made:
  :func:`~labkit.hexpuzzle.solving.targets.generate_to_target` records its target there). Its
  ``"runtime"`` entry holds facts about one run (seconds taken) and is kept in memory only, so
  the same seed saves the same bytes and levels compare equal.

Examples
--------
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 3)])
>>> len(lvl.board), lvl.can_rotate
(19, True)
>>> lvl.rotated(6).board is lvl.board
True
>>> Level.from_json({"version": 2, "id": "x", "moveLimit": 0, "cells": [], "tiles": []})
Traceback (most recent call last):
...
labkit.hexpuzzle.level_file.LevelError: /moveLimit: must be between 1 and 999 (got 0)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit import io as lio
from labkit.hexpuzzle import coords
from labkit.hexpuzzle.level_file import MAX_BYTES as MAX_BYTES
from labkit.hexpuzzle.level_file import MAX_CELLS as MAX_CELLS  # the format's limits, re-exported
from labkit.hexpuzzle.level_file import MAX_ID as MAX_ID
from labkit.hexpuzzle.level_file import MAX_RADIUS, LevelError, is_matching, parse_level
from labkit.hexpuzzle.level_file import VERSIONS as VERSIONS

__all__ = [
    "LevelError",
    "STRAIGHT",
    "Tile",
    "Board",
    "Level",
    "is_matching",
    "all_matchings",
]

#: The matching in which every port leads straight across (rule H5 example).
STRAIGHT: tuple[int, ...] = (3, 4, 5, 0, 1, 2)


class TileError(ArgumentError, LevelError):
    """A tile id that is not on the level, or whose tile has already left the board.

    A bad argument (it names ``tile_id`` and the value), and a :class:`LevelError` as before, so
    callers that caught that still do.

    Examples
    --------
    >>> str(TileError("no tile with this id", argument="tile_id", value="zzz"))
    "tile_id: no tile with this id (got 'zzz')"
    """


def all_matchings() -> list[tuple[int, ...]]:
    """The 15 perfect matchings of six ports, as ``tracks`` tuples.

    Examples
    --------
    >>> len(all_matchings())
    15
    """
    out: list[tuple[int, ...]] = []

    def extend(tracks: list[int]) -> None:
        free = [i for i in range(6) if tracks[i] < 0]
        if not free:
            out.append(tuple(tracks))
            return
        a = free[0]
        for b in free[1:]:
            tracks[a], tracks[b] = b, a
            extend(tracks)
            tracks[a] = tracks[b] = -1

    extend([-1] * 6)
    return out


def _rotate_tracks(tracks: tuple[int, ...], k: int) -> tuple[int, ...]:
    """Turn a cell's tracks ``k`` clockwise steps: ``new[(i+k)%6] = (old[i]+k)%6``."""
    new = [0] * 6
    for i, e in enumerate(tracks):
        new[(i + k) % 6] = (e + k) % 6
    return tuple(new)


@dataclass(frozen=True)
class Tile:
    """A tile: its id, cell, heading ``dir`` (0–5) and cosmetic ``color`` (0–3).

    Examples
    --------
    >>> t = Tile("a", 1, -1, 3)
    >>> t.cell, t.dir, t.color
    ((1, -1), 3, 0)
    """

    id: str
    q: int
    r: int
    dir: int
    color: int = 0

    @property
    def cell(self) -> tuple[int, int]:
        return (self.q, self.r)


class Board:
    """The cells of a level and their tracks, at one orientation.

    Boards are shared between levels that differ only in tiles, and cache their rotations and
    the tile paths computed on them (see :func:`labkit.hexpuzzle.geometry.tile_path`).

    Examples
    --------
    >>> b = Board({(0, 0): STRAIGHT})
    >>> len(b), (0, 0) in b, b.symmetric, b.rotated(1).tracks[(0, 0)]
    (1, True, True, (3, 4, 5, 0, 1, 2))
    """

    __slots__ = ("tracks", "cells", "symmetric", "_turns", "_paths")

    def __init__(self, tracks: Mapping[tuple[int, int], Sequence[int]]) -> None:
        self.tracks: dict[tuple[int, int], tuple[int, ...]] = {
            (int(q), int(r)): tuple(int(t) for t in tr) for (q, r), tr in tracks.items()
        }
        self.cells = frozenset(self.tracks)
        self.symmetric = {coords.rotate_cell(q, r) for q, r in self.cells} == set(self.cells)
        self._turns: dict[int, Board] = {0: self}
        self._paths: dict[tuple[int, int, int], Any] = {}

    def memo(self, key: tuple[int, int, int], make: Any) -> Any:
        """The tile path cached under ``key`` ``(q, r, dir)``, made by ``make()`` on first use.

        Boards are immutable, so a path computed once on a board holds for every level that
        shares it (:func:`labkit.hexpuzzle.geometry.tile_path` is the caller).
        """
        found = self._paths.get(key)
        if found is None:
            found = self._paths[key] = make()
        return found

    def __len__(self) -> int:
        return len(self.tracks)

    def __contains__(self, cell: object) -> bool:
        return cell in self.tracks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.tracks == other.tracks

    def __hash__(self) -> int:
        return hash(frozenset(self.tracks.items()))

    def rotated(self, k: int) -> Board:
        """This board turned ``k`` clockwise steps (negative: counter-clockwise); cached."""
        k %= 6
        if k not in self._turns:
            if not self.symmetric:
                raise LevelError("board is not six-fold symmetric; it cannot rotate", value=k)
            # Build the whole orbit once so every orientation reuses the same Board objects
            # (and therefore their cached tile paths).
            orbit = [self] + [
                Board(
                    {
                        coords.rotate_cell(q, r, j): _rotate_tracks(t, j)
                        for (q, r), t in self.tracks.items()
                    }
                )
                for j in range(1, 6)
            ]
            for i, b in enumerate(orbit):
                b._turns = {(j - i) % 6: orbit[j] for j in range(6)}
        return self._turns[k]


@dataclass(frozen=True, eq=False)
class Level:
    """A puzzle level (rule H2): board, tiles, move limit and rotation switch.

    Build one with :meth:`from_json` / :meth:`load`, or :meth:`hexagon` for the common
    radius-2 and radius-3 boards. Equality compares content (board, tiles, metadata).

    Examples
    --------
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=4)
    >>> len(lvl.board), [t.id for t in lvl.tiles], lvl.move_limit, lvl.can_rotate
    (19, ['a', 'b'], 4, True)
    >>> Level.from_dict(lvl.to_dict()) == lvl
    True
    """

    id: str
    board: Board
    tiles: tuple[Tile, ...]
    move_limit: int = 99
    name: str = ""
    rotation_enabled: bool = True
    source_version: int = 2
    metadata: Mapping[str, Any] = field(default_factory=dict, repr=False)
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    # set by __post_init__ (not arguments), read through the read-only properties below
    _centres: np.ndarray = field(init=False, repr=False, compare=False)
    _orbit: list = field(default_factory=list, repr=False, compare=False)
    _all: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # H2's moveLimit 1-999 holds for every level object, not only imported ones, so that
        # a generated or replaced level can always be saved and loaded back.
        lio.as_int(self.move_limit, "/moveLimit", 1, 999, LevelError)
        _check_tiles_on_board(self.board, self.tiles)
        object.__setattr__(self, "_index", {t.id: i for i, t in enumerate(self.tiles)})
        cells = np.array([[t.q, t.r] for t in self.tiles], dtype=np.float64).reshape(-1, 2)
        # cached arrays are handed out, so they are read-only: a caller cannot corrupt the level
        object.__setattr__(self, "_centres", _read_only(coords.centres(cells)))
        object.__setattr__(self, "_all", _read_only(np.ones(len(self.tiles), dtype=np.bool_)))
        if not self.name:
            object.__setattr__(self, "name", self.id)

    # --- identity -------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Level) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.id, self.board, self.tiles))

    def __setstate__(self, state: dict[str, Any]) -> None:
        # copy and pickle rebuild arrays writeable: the copy hands them out read-only again
        self.__dict__.update(state)
        _read_only(self._centres)
        _read_only(self._all)

    @property
    def can_rotate(self) -> bool:
        """Rotation allowed: the file enables it and the cell set is six-fold symmetric (H3)."""
        return self.rotation_enabled and self.board.symmetric

    def tile(self, tile_id: str) -> Tile:
        """The tile called ``tile_id`` (:class:`TileError` naming the id if there is none)."""
        try:
            return self.tiles[self._index[tile_id]]
        except KeyError:
            raise TileError("no tile with this id", argument="tile_id", value=tile_id) from None

    def tile_index(self, tile_id: str) -> int:
        """Position of ``tile_id`` in :attr:`tiles` (:class:`TileError` if absent)."""
        try:
            return self._index[tile_id]
        except KeyError:
            raise TileError("no tile with this id", argument="tile_id", value=tile_id) from None

    @property
    def active(self) -> np.ndarray:
        """Which tiles are on the board: all of them, for a level (read-only; compare
        :attr:`labkit.hexpuzzle.PuzzleState.active`)."""
        return self._all

    @property
    def tile_centres(self) -> np.ndarray:
        """``(n, 2)`` pixel centres of the tiles (R = 1), in :attr:`tiles` order (read-only)."""
        return self._centres

    # --- transformations ------------------------------------------------------------------
    def rotated(self, k: int) -> Level:
        """The level with its board turned ``k`` steps clockwise (negative: counter-clockwise).

        Tiles keep ``(q, r, dir)``; six steps give back an equal level (H3).

        Examples
        --------
        >>> lvl = Level.hexagon(2, tracks=(1, 0, 3, 2, 5, 4), tiles=[("a", 0, 0, 0)])
        >>> lvl.rotated(1).board.tracks[(0, 0)]
        (5, 2, 1, 4, 3, 0)
        >>> lvl.rotated(1).rotated(-1) == lvl
        True
        """
        if k % 6 == 0:
            return self
        if not self._orbit:
            # Build all six orientations at once and share them, so that turning back and
            # forth (the solver) always lands on the same objects and their cached paths.
            orbit = [self] + [self.replace(board=self.board.rotated(j)) for j in range(1, 6)]
            for j, lvl in enumerate(orbit):
                object.__setattr__(lvl, "_orbit", orbit[j:] + orbit[:j])
        return self._orbit[k % 6]

    def replace(self, **changes: Any) -> Level:
        """A copy with some fields changed (validated again)."""
        fields: dict[str, Any] = {
            "id": self.id,
            "board": self.board,
            "tiles": self.tiles,
            "move_limit": self.move_limit,
            "name": self.name,
            "rotation_enabled": self.rotation_enabled,
            "source_version": self.source_version,
            "metadata": self.metadata,
        }
        fields.update(changes)
        return Level(**fields)

    # --- constructors ---------------------------------------------------------------------
    @classmethod
    def hexagon(
        cls,
        radius: int = 2,
        *,
        tracks: Sequence[int] | Mapping[tuple[int, int], Sequence[int]] = STRAIGHT,
        tiles: Iterable[Tile | tuple] = (),
        move_limit: int | None = None,
        id: str = "",
        name: str = "",
        rotation_enabled: bool = True,
    ) -> Level:
        """A hexagonal board of hex ``radius`` (2: 19 cells, 3: 37 cells).

        ``tracks`` is one matching for every cell or a ``{(q, r): tracks}`` mapping; ``tiles``
        are :class:`Tile` objects or ``(id, q, r, dir[, color])`` tuples. ``move_limit``
        defaults to the number of tiles (at least 1).

        Examples
        --------
        >>> Level.hexagon(3, tiles=[("t0", 0, 0, 2, 1)]).tiles[0]
        Tile(id='t0', q=0, r=0, dir=2, color=1)
        """
        if radius not in range(0, MAX_RADIUS + 1):
            raise LevelError("board radius must be 0-4", pointer="", value=radius)
        cells = coords.hexagon_cells(radius)
        if isinstance(tracks, Mapping):
            table = {c: tuple(tracks[c]) for c in cells}
        else:
            table = {c: tuple(tracks) for c in cells}
        tile_list = tuple(t if isinstance(t, Tile) else Tile(*t) for t in tiles)
        doc = {
            "version": 2,
            "id": id or f"hexagon-{radius}",
            "name": name or id or f"hexagon-{radius}",
            "rotationEnabled": rotation_enabled,
            "moveLimit": move_limit if move_limit is not None else max(1, len(tile_list)),
            "cells": [{"q": q, "r": r, "tracks": list(t)} for (q, r), t in table.items()],
            "tiles": [
                {"id": t.id, "q": t.q, "r": t.r, "dir": t.dir, "color": t.color} for t in tile_list
            ],
        }
        return cls.from_json(doc)

    @classmethod
    def from_dict(cls, doc: Any, *, file: str | None = None) -> Level:
        """Validate a level document and build the level (H2); the inverse of :meth:`to_dict`.

        Raises
        ------
        LevelError
            Naming the JSON pointer and the bad value; nothing is half-built.

        Examples
        --------
        >>> lvl = Level.hexagon(1, tiles=[("a", 0, 0, 0)])
        >>> Level.from_dict(lvl.to_dict()) == lvl
        True
        """
        return cls.from_json(doc, file=file)

    @classmethod
    def from_json(cls, doc: Any, *, file: str | None = None) -> Level:
        """Validate a level document (dict or JSON text) and build the level (H2).

        Raises
        ------
        LevelError
            Naming the JSON pointer and the bad value; nothing is half-built.
        """
        try:
            if isinstance(doc, str):
                doc = lio.parse_json(doc, file=file, error=LevelError)
            fields = parse_level(doc)
            fields["board"] = Board(fields["board"])
            fields["tiles"] = tuple(Tile(*t) for t in fields["tiles"])
            return cls(**fields)
        except LevelError as exc:
            raise exc.with_file(file) if file else exc from None

    @classmethod
    def load(cls, path: str | os.PathLike) -> Level:
        """Read and validate a level file (version 1 or 2)."""
        doc = lio.load_json(path, error=LevelError, max_bytes=MAX_BYTES)
        return cls.from_json(doc, file=str(path))

    def to_json(self) -> str:
        """The exact JSON text :meth:`save` writes (:meth:`to_dict` gives the dict).

        Examples
        --------
        >>> lvl = Level.hexagon(1, tiles=[("a", 0, 0, 0)])
        >>> Level.from_json(lvl.to_json()) == lvl
        True
        """
        return lio.dumps(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The level as a version-2 document (cells sorted by ``(q, r)``, tiles in order)."""
        doc = {
            "version": 2,
            "id": self.id,
            "name": self.name,
            "rotationEnabled": self.rotation_enabled,
            "moveLimit": self.move_limit,
            "cells": [
                {"q": q, "r": r, "tracks": list(self.board.tracks[(q, r)])}
                for q, r in sorted(self.board.tracks)
            ],
            "tiles": [
                {"id": t.id, "q": t.q, "r": t.r, "dir": t.dir, "color": t.color} for t in self.tiles
            ],
        }
        saved = {k: v for k, v in self.metadata.items() if k != "runtime"}
        if saved:
            doc["metadata"] = saved
        return doc

    def save(self, path: str | os.PathLike) -> None:
        """Write the level atomically as version-2 JSON."""
        lio.save_json(path, self.to_dict())

    # --- notebook -------------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        from labkit.hexpuzzle import draw

        return draw.svg(self)

    def __repr__(self) -> str:
        return (
            f"Level(id={self.id!r}, cells={len(self.board)}, tiles={len(self.tiles)}, "
            f"moveLimit={self.move_limit}, can_rotate={self.can_rotate})"
        )


def _read_only(arr: np.ndarray) -> np.ndarray:
    arr.flags.writeable = False
    return arr


def _check_tiles_on_board(board: Board, tiles: tuple[Tile, ...]) -> None:
    # The generator builds a level for every candidate tile it tries (tens of thousands a
    # campaign): the common case, all well, is checked without building a pointer or message.
    cells = {t.cell for t in tiles}
    if (len({t.id for t in tiles}) == len(cells) == len(tiles)
            and all(c in board for c in cells)
            and all(0 <= t.dir < 6 and 0 <= t.color < 4 for t in tiles)):  # fmt: skip
        return
    seen_ids: set[str] = set()
    seen_cells: dict[tuple[int, int], str] = {}
    for i, t in enumerate(tiles):
        at = lio.pointer("tiles", i)
        lio.check(t.id not in seen_ids, "duplicate tile id", at + "/id", t.id, LevelError)
        lio.check(t.cell in board, "tile is not on a board cell", at, t.cell, LevelError)
        lio.check(
            t.cell not in seen_cells,
            f"cell already holds tile {seen_cells.get(t.cell)!r}",
            at,
            t.cell,
            LevelError,
        )
        lio.check(0 <= t.dir < 6, "dir must be 0-5", at + "/dir", t.dir, LevelError)
        lio.check(0 <= t.color < 4, "color must be 0-3", at + "/color", t.color, LevelError)
        seen_ids.add(t.id)
        seen_cells[t.cell] = t.id
