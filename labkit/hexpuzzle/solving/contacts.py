"""Batch :func:`~labkit.hexpuzzle.tap_trace.trace_tap` for the solver, hints, difficulty, generator.

A tap's outcome depends only on the board orientation, the tapped tile and *which other tiles
are still on the board*. The tile's planned path is fixed per orientation, and whether its swept
hexagon touches tile ``j`` does not depend on any third tile. So for every orientation ``o`` and
tile ``i`` one table row holds

* ``exits[o, i]`` — the planned path leaves the board (not a loop), and
* ``blockers[o, i]`` — the bitmask of every tile the sweep touches anywhere along the path,

and ``trace_tap(...).outcome == "exit"`` holds exactly when ``exits[o, i]`` and no blocker is
still on the board. This is rule H7's "memoise trace results per (orientation, remaining set,
tile)", memoised once for *all* remaining sets: one row per (orientation, tile) instead of one
sweep per state. The rows are computed with the same cached :func:`tile_path` polylines and the
same sweep kernel as ``trace_tap`` (see :mod:`._solver_kernels`), and the tests check the table
against ``trace_tap`` on random boards and random remaining sets.

Decisions
---------
* Orientation ``o`` of a table means ``level.rotated(o)``; a :class:`PuzzleState` is looked up
  on its ``original`` level at its ``orientation``.
* Tables are cached per level (content-equal levels share one) in a small LRU of 256 entries.
* On a board that cannot rotate only orientation 0 is filled; the other rows stay "cannot exit".

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
>>> table = contact_table(lvl)
>>> table.names(table.exitable(0, table.full))
('b',)
>>> table.names(table.blockers[0, 0])  # tile a is grazed by b
('b',)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from labkit.hexpuzzle.collision import MINKOWSKI_RADIUS
from labkit.hexpuzzle.geometry import tile_path
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving import _kernels as _solver_kernels

__all__ = ["ContactTable", "contact_table", "mask_of"]

_CACHE: OrderedDict[Level, ContactTable] = OrderedDict()
_CACHE_SIZE = 256


@dataclass(frozen=True, eq=False)
class ContactTable:
    """Exit and blocker bitmasks of every tile at each of the six orientations of a level.

    Attributes
    ----------
    level : Level
        The level at orientation 0.
    exits : ndarray of bool, shape (6, n)
        Planned path leaves the board (it does not loop).
    blockers : ndarray of int64, shape (6, n)
        Bitmask of the tiles touched anywhere along the planned path.
    rotations : bool
        Whether the board may turn (``level.can_rotate``).
    """

    level: Level
    exits: NDArray[np.bool_]
    blockers: NDArray[np.int64]
    rotations: bool

    @property
    def n(self) -> int:
        return len(self.level.tiles)

    @property
    def full(self) -> int:
        """The bitmask with every tile on the board."""
        return (1 << self.n) - 1

    def exitable(self, orientation: int, remaining: int) -> int:
        """Bitmask of the tiles of ``remaining`` that would exit if tapped now."""
        o = orientation % 6
        out = 0
        for i in range(self.n):
            bit = 1 << i
            if remaining & bit and self.exits[o, i] and not int(self.blockers[o, i]) & remaining:
                out |= bit
        return out

    def layers(self, orientation: int, remaining: int) -> tuple[int, list[int]]:
        """Remove every tile that can exit, layer by layer: ``(remaining after, [layer masks])``."""
        o = orientation % 6
        out = np.zeros(self.n + 1, dtype=np.int64)
        left, count = _solver_kernels.closure_layers(
            self.exits[o], self.blockers[o], np.int64(remaining), out
        )
        return int(left), [int(x) for x in out[:count]]

    def names(self, mask: int) -> tuple[str, ...]:
        """Tile ids of a bitmask, in level order."""
        mask = int(mask)
        return tuple(t.id for i, t in enumerate(self.level.tiles) if mask >> i & 1)

    def mask(self, tile_ids) -> int:
        """Bitmask of some tile ids."""
        return mask_of(self.level, tile_ids)


def mask_of(level: Level, tile_ids) -> int:
    """Bitmask of ``tile_ids`` on ``level`` (bit i = ``level.tiles[i]``).

    Examples
    --------
    >>> from labkit.hexpuzzle.level import Level
    >>> mask_of(Level.hexagon(1, tiles=[("a", 0, 0, 0), ("b", 0, 1, 0)]), ["b"])
    2
    """
    out = 0
    for tile_id in tile_ids:
        out |= 1 << level.tile_index(tile_id)
    return out


def _build(level: Level) -> ContactTable:
    n = len(level.tiles)
    exits = np.zeros((6, n), dtype=np.bool_)
    blockers = np.zeros((6, n), dtype=np.int64)
    turns = range(6) if level.board.symmetric else range(1)
    paths = []
    for o in turns:
        board = level.board.rotated(o)
        for i, t in enumerate(level.tiles):
            planned = tile_path(board, t.q, t.r, t.dir)
            exits[o, i] = planned.outcome == "exit"
            paths.append(planned.points)
    if n:
        starts = np.zeros(len(paths) + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(p) for p in paths])
        skip = np.tile(np.arange(n, dtype=np.int64), len(turns))
        hit = _solver_kernels.path_blockers(
            np.ascontiguousarray(np.vstack(paths)),
            starts,
            skip,
            level.tile_centres,
            MINKOWSKI_RADIUS,
        )
        weights = np.left_shift(np.int64(1), np.arange(n, dtype=np.int64))
        masks = (hit.astype(np.int64) * weights).sum(axis=1)  # distinct bits: sum == OR
        blockers[: len(turns)] = masks.reshape(len(turns), n)
    return ContactTable(level, exits, blockers, level.can_rotate)


def contact_table(level: Level) -> ContactTable:
    """The (cached) exit and blocker table of ``level`` at its six orientations.

    Parameters
    ----------
    level : Level
        The level at orientation 0 (all tiles listed; which are present is a bitmask).

    Returns
    -------
    ContactTable
    """
    found = _CACHE.get(level)
    if found is not None:
        _CACHE.move_to_end(level)
        return found
    table = _build(level)
    _CACHE[level] = table
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return table
