"""Validation of level documents (SPEC H2): every import limit, each error naming its pointer.

Checks run on the raw document before any object is built, in document order, so the first
problem found is the one reported and nothing is half-loaded.
"""

from __future__ import annotations

from typing import Any

from labkit import io as lio
from labkit.hexpuzzle import coords
from labkit.hexpuzzle.level import (
    MAX_CELLS,
    MAX_ID,
    MAX_RADIUS,
    VERSIONS,
    Board,
    Level,
    LevelError,
    Tile,
    is_matching,
)


def _int(obj: dict, key: str, at: str, lo: int | None = None, hi: int | None = None) -> int:
    value = lio.field(obj, key, int, at, LevelError)
    return lio.as_int(value, f"{at}/{key}", lo, hi, LevelError)


def _tracks(cell: dict, at: str) -> tuple[int, ...]:
    tracks = lio.field(cell, "tracks", list, at, LevelError)
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


def parse_level(doc: Any) -> Level:
    """Validate ``doc`` completely, then build a :class:`Level`."""
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
    tiles: list[Tile] = []
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
        tiles.append(Tile(tile_id, q, r, direction, color))
    return Level(
        id=level_id,
        board=Board(table),
        tiles=tuple(tiles),
        move_limit=move_limit,
        name=name,
        rotation_enabled=rotation,
        source_version=version,
    )
