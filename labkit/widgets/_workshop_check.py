"""The LevelWorkshop's explanations and key: why a level cannot be solved, what the board shows.

Both work on the version-2 level document the workshop edits, so they can be tested (and reused)
without widgets.
"""

from __future__ import annotations

from typing import Any

from labkit.hexpuzzle import Level, trace_tap


def _tiles(ids: list[str]) -> str:
    return ("tile " if len(ids) == 1 else "tiles ") + ", ".join(ids)


def _with_tiles(doc: dict[str, Any], keep: list[str]) -> Level:
    return Level.from_json({**doc, "tiles": [t for t in doc["tiles"] if t["id"] in keep]})


def stuck_tiles(doc: dict[str, Any]) -> list[str]:
    """Tiles that can never leave: those still on the board after tapping every tile that can
    exit, at every orientation the board may turn to, until nothing more leaves (tapping a tile
    that exits never hurts, so this is the least that must stay).

    Examples
    --------
    >>> facing = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 0, -1, 3)], rotation_enabled=False)
    >>> stuck_tiles(facing.to_dict())
    ['a', 'b']
    """
    left = [t["id"] for t in doc["tiles"]]
    turns = range(6) if Level.from_json(doc).can_rotate else range(1)
    progress = True
    while left and progress:
        progress = False
        for k in turns:
            board = _with_tiles(doc, left).rotated(k)
            gone = [i for i in left if trace_tap(board, i).outcome == "exit"]
            if gone:
                left = [i for i in left if i not in gone]
                progress = True
    return left


def why_unsolvable(doc: dict[str, Any]) -> str:
    """One line saying which tiles can never leave, and how they are held."""
    stuck = stuck_tiles(doc)
    if not stuck:
        return "no tile is stuck alone, but no order of taps and turns clears the board"
    alone = []
    for i in stuck:
        one = _with_tiles(doc, [i])
        turns = range(6) if one.can_rotate else range(1)
        if all(trace_tap(one.rotated(k), i).outcome != "exit" for k in turns):
            alone.append(i)
    turn = "" if Level.from_json(doc).can_rotate else " (the board cannot turn)"
    if alone:
        return (f"{_tiles(alone)} can never leave: even alone on the board their "
                f"track never reaches the edge{turn}")  # fmt: skip
    return (f"{_tiles(stuck)} can never leave: they block each other at every "
            f"orientation once the rest are gone{turn}")  # fmt: skip


def board_key() -> list[Any]:
    """Legend handles for what the workshop's board shows."""
    from matplotlib.lines import Line2D

    from labkit.hexpuzzle.draw import TILE_COLOURS

    return [
        Line2D([], [], marker="H", ms=12, ls="none", mfc="none", mec="#c9c2b3",
               label="dotted: a spot the cell tool can add"),
        Line2D([], [], color="#8d99ae", lw=2.2, label="track (the cell's matching)"),
        *[Line2D([], [], marker="H", ms=11, ls="none", mfc=c, mec="#222222",
                 label=f"tile, colour {i}") for i, c in enumerate(TILE_COLOURS)],
        Line2D([], [], marker="^", ms=8, ls="none", mfc="white", mec="#222222",
               label="white notch: the tile's heading"),
    ]  # fmt: skip
