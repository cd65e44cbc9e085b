"""The level file format (rule H2): its limits, its error, and validation of a document.

Checks run on the raw document before any object is built, in document order, so the first
problem found is the one reported and nothing is half-loaded. The reader returns plain validated
fields; :meth:`labkit.hexpuzzle.Level.from_json` builds the level from them, so this module never
imports the model (the model depends on its reader, not the other way round).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from labkit import io as lio
from labkit.hexpuzzle import coords
from labkit.io import FormatError

MAX_CELLS = 61
MAX_RADIUS = 4
VERSIONS = (1, 2)
#: Largest level file read (one level is a few kilobytes; lists and campaigns hold hundreds).
MAX_BYTES = 16 * 1024 * 1024
#: Longest level id, name or tile id.
MAX_ID = 200


class LevelError(FormatError):
    """A level file or level object that breaks the format or its import limits (rule H2)."""


def is_matching(tracks: Sequence[int]) -> bool:
    """True when ``tracks`` pairs the six ports perfectly: ``t[t[i]] == i`` and ``t[i] != i``.

    Examples
    --------
    >>> is_matching([3, 4, 5, 0, 1, 2]), is_matching([1, 0, 3, 2, 5, 5])
    (True, False)
    """
    return (
        len(tracks) == 6
        and all(isinstance(t, int) and 0 <= t < 6 for t in tracks)
        and all(tracks[i] != i and tracks[tracks[i]] == i for i in range(6))
    )


def _int(obj: dict, key: str, at: str, lo: int | None = None, hi: int | None = None) -> int:
    value = lio.field(obj, key, int, at, LevelError)
    return lio.as_int(value, f"{at}/{key}", lo, hi, LevelError)


def _tracks(cell: dict, at: str) -> tuple[int, ...]:
    tracks = lio.field(cell, "tracks", list, at, LevelError)
    if all(type(t) is int for t in tracks) and is_matching(tracks):
        return tuple(tracks)  # the common case; the checks below only say what is wrong
    where = f"{at}/tracks"
    lio.check(len(tracks) == 6, "tracks must list 6 exit ports", where, tracks, LevelError)
    for i, t in enumerate(tracks):
        lio.as_int(t, f"{where}/{i}", 0, 5, LevelError)
    for i, t in enumerate(tracks):
        lio.check(t != i, f"port {i} is connected to itself", f"{where}/{i}", tracks, LevelError)
    lio.check(
        is_matching(tracks),
        "tracks must be a perfect matching (tracks[tracks[i]] == i)",
        where,
        tracks,
        LevelError,
    )
    return tuple(tracks)


def parse_level(doc: Any) -> dict[str, Any]:
    """Validate ``doc`` completely; the fields of a :class:`~labkit.hexpuzzle.Level`.

    ``board`` is the ``{(q, r): tracks}`` table and ``tiles`` a list of ``(id, q, r, dir,
    color)`` tuples, both ready for ``Board(...)`` and ``Tile(*t)``.
    """
    lio.check(
        isinstance(doc, dict), "a level must be a JSON object", "", type(doc).__name__, LevelError
    )
    version = lio.field(doc, "version", int, "", LevelError)
    lio.check(
        version in VERSIONS,
        f"unsupported version, expected one of {list(VERSIONS)}",
        "/version",
        version,
        LevelError,
    )
    level_id = lio.field(doc, "id", str, "", LevelError)
    lio.check(bool(level_id.strip()), "id must not be empty", "/id", level_id, LevelError)
    lio.check(len(level_id) <= MAX_ID, f"id longer than {MAX_ID} characters", "/id", level_id,
              LevelError)  # fmt: skip
    name = lio.field(doc, "name", str, "", LevelError, default=level_id)
    lio.check(len(name) <= MAX_ID, f"name longer than {MAX_ID} characters", "/name", name,
              LevelError)  # fmt: skip
    rotation = lio.field(doc, "rotationEnabled", bool, "", LevelError, default=True)
    move_limit = _int(doc, "moveLimit", "", 1, 999)

    cells = lio.field(doc, "cells", list, "", LevelError)
    lio.check(
        1 <= len(cells) <= MAX_CELLS,
        f"a level has 1-{MAX_CELLS} cells",
        "/cells",
        f"{len(cells)} cells",
        LevelError,
    )
    table: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, cell in enumerate(cells):
        at = lio.pointer("cells", i)
        lio.check(isinstance(cell, dict), "a cell must be an object", at, cell, LevelError)
        q = _int(cell, "q", at)
        r = _int(cell, "r", at)
        lio.check(
            coords.hex_radius(q, r) <= MAX_RADIUS,
            f"cell lies outside hex radius {MAX_RADIUS} (radius {coords.hex_radius(q, r)})",
            at,
            {"q": q, "r": r},
            LevelError,
        )
        lio.check(
            (q, r) not in table, "duplicate cell coordinates", at, {"q": q, "r": r}, LevelError
        )
        table[(q, r)] = _tracks(cell, at)

    raw_tiles = lio.field(doc, "tiles", list, "", LevelError)
    lio.check(len(raw_tiles) <= MAX_CELLS, f"at most {MAX_CELLS} tiles (one per cell)", "/tiles",
              len(raw_tiles), LevelError)  # fmt: skip
    tiles: list[tuple[str, int, int, int, int]] = []
    for i, tile in enumerate(raw_tiles):
        at = lio.pointer("tiles", i)
        lio.check(isinstance(tile, dict), "a tile must be an object", at, tile, LevelError)
        tile_id = lio.field(tile, "id", str, at, LevelError)
        lio.check(bool(tile_id), "tile id must not be empty", f"{at}/id", tile_id, LevelError)
        lio.check(len(tile_id) <= MAX_ID, f"tile id longer than {MAX_ID} characters", f"{at}/id",
                  tile_id, LevelError)  # fmt: skip
        q = _int(tile, "q", at)
        r = _int(tile, "r", at)
        direction = _int(tile, "dir", at, 0, 5)
        color = lio.as_int(
            lio.field(tile, "color", int, at, LevelError, default=0),
            f"{at}/color",
            0,
            3,
            LevelError,
        )
        tiles.append((tile_id, q, r, direction, color))
    metadata = lio.field(doc, "metadata", dict, "", LevelError, default={})
    return {
        "id": level_id,
        "board": table,
        "tiles": tiles,
        "move_limit": move_limit,
        "name": name,
        "rotation_enabled": rotation,
        "source_version": version,
        "metadata": metadata,
    }
