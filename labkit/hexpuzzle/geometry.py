"""A tapped tile's path: the one polyline that drawing, collision and the solver share (rule H4).

All geometry is in units of the cell circumradius R (R = 1). A tile leaves its centre in a
straight line to the midpoint of port ``dir``, enters the neighbour through the opposite port and
follows each cell's track — the cubic Bézier ``mid(a) → mid(a)+½(c−mid(a)) → mid(b)+½(c−mid(b))
→ mid(b)`` sampled at 20 equal parameter steps — until the next cell does not exist; it then
runs ``2R`` straight on, off the board. If a ``(cell, entry port)`` state repeats, the path is a
loop and stops where the cycle closes, so it covers the lead-in and exactly one cycle.

Paths depend only on the board and the tile's ``(q, r, dir)`` — never on other tiles — so they
are computed once per board orientation and cached on the :class:`~labkit.hexpuzzle.level.Board`.

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> lvl = Level.hexagon(2)
>>> p = tile_path(lvl.board, 0, 2, 0)
>>> p.outcome, [v[0] for v in p.visits]
('exit', [(0, 1), (0, 0), (0, -1), (0, -2)])
>>> p.points.shape, round(p.length, 3)
((83, 2), 9.794)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from labkit.hexpuzzle import coords
from labkit.hexpuzzle.level import Board
from labkit.hexpuzzle.status import Outcome

__all__ = ["BEZIER_SEGMENTS", "EXIT_RUN", "TilePath", "tile_path", "track_polyline"]

BEZIER_SEGMENTS = 20
#: Length of the straight run off the board after the last edge, in R.
EXIT_RUN = 2.0

_T = np.linspace(0.0, 1.0, BEZIER_SEGMENTS + 1)
# Bernstein basis of the cubic, one row per sample: points = _BASIS @ [P0, P1, P2, P3].
_BASIS = np.column_stack([(1 - _T) ** 3, 3 * (1 - _T) ** 2 * _T, 3 * (1 - _T) * _T**2, _T**3])
# Port midpoints relative to a cell centre.
_MID = np.array([coords.port_midpoint(0, 0, p) for p in range(6)])


def _local_track(a: int, b: int) -> NDArray[np.float64]:
    p0, p3 = _MID[a], _MID[b]
    control = np.array([p0, 0.5 * p0, 0.5 * p3, p3])  # P1 = mid + ½(centre − mid), centre = 0
    return _BASIS @ control


# The 30 ordered port pairs, sampled once around a cell centred at the origin.
_TRACKS = {(a, b): _local_track(a, b) for a in range(6) for b in range(6) if a != b}


def track_polyline(q: int, r: int, entry: int, exit: int) -> NDArray[np.float64]:
    """The 21 sampled points of the track from port ``entry`` to port ``exit`` of cell (q, r).

    Examples
    --------
    >>> track_polyline(0, 0, 3, 0)[[0, 10, 20]].round(3)
    array([[ 0.   ,  0.866],
           [ 0.   ,  0.   ],
           [ 0.   , -0.866]])
    """
    return _TRACKS[(entry, exit)] + np.array(coords.centre(q, r))


@dataclass(frozen=True)
class TilePath:
    """The planned path of one tile on one board orientation.

    Attributes
    ----------
    points : ndarray, shape (n, 2)
        The polyline of the moving centre (read-only).
    cumulative : ndarray, shape (n,)
        Arc length at each point; ``cumulative[-1]`` is the path length.
    visits : tuple of ((q, r), entry, exit)
        Cells passed through after the start cell, in order.
    outcome : str
        ``"exit"`` (leaves the board) or ``"loop"`` (a ``(cell, entry)`` state repeats).
    turns : int
        Cells passed through by non-opposite ports (the start leg is never a turn).

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> p = tile_path(Level.hexagon(1).board, 0, 0, 0)
    >>> p.start, p.outcome, round(p.length, 3) == round(float(p.cumulative[-1]), 3)
    ((0, 0), 'exit', True)
    """

    start: tuple[int, int]
    dir: int
    points: NDArray[np.float64]
    cumulative: NDArray[np.float64]
    visits: tuple[tuple[tuple[int, int], int, int], ...]
    outcome: Outcome
    turns: int

    @property
    def length(self) -> float:
        return float(self.cumulative[-1])

    def at(self, s: float) -> NDArray[np.float64]:
        """The point at arc length ``s`` (clamped to the path)."""
        s = min(max(float(s), 0.0), self.length)
        i = int(np.searchsorted(self.cumulative, s, side="right")) - 1
        i = min(max(i, 0), len(self.points) - 2)
        seg = self.cumulative[i + 1] - self.cumulative[i]
        f = 0.0 if seg == 0 else (s - self.cumulative[i]) / seg
        return self.points[i] + f * (self.points[i + 1] - self.points[i])

    def until(self, s: float) -> NDArray[np.float64]:
        """The polyline from the start to arc length ``s`` (the part actually travelled)."""
        s = min(max(float(s), 0.0), self.length)
        k = int(np.searchsorted(self.cumulative, s, side="left"))
        return np.vstack([self.points[:k], self.at(s)[None, :]])


def _build(board: Board, q: int, r: int, direction: int) -> TilePath:
    pieces = [np.array([coords.centre(q, r)])]
    visits: list[tuple[tuple[int, int], int, int]] = []
    seen: set[tuple[tuple[int, int], int]] = set()
    cell, entry, last_exit = (
        coords.neighbour(q, r, direction),
        coords.opposite(direction),
        direction,
    )
    last_mid = np.array(coords.port_midpoint(q, r, direction))
    pieces.append(last_mid[None, :])
    outcome = Outcome.EXIT
    while cell in board.tracks:
        if (cell, entry) in seen:
            outcome = Outcome.LOOP
            break
        seen.add((cell, entry))
        exit = board.tracks[cell][entry]
        visits.append((cell, entry, exit))
        pieces.append(track_polyline(cell[0], cell[1], entry, exit)[1:])
        last_exit = exit
        cell, entry = coords.neighbour(*cell, exit), coords.opposite(exit)
    if outcome == "exit":
        end = pieces[-1][-1] + EXIT_RUN * np.array(coords.unit(last_exit))
        pieces.append(end[None, :])
    points = np.ascontiguousarray(np.vstack(pieces))
    cumulative = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    points.flags.writeable = False
    cumulative.flags.writeable = False
    turns = sum(1 for _, a, b in visits if b != coords.opposite(a))
    return TilePath((q, r), direction, points, cumulative, tuple(visits), outcome, turns)


def tile_path(board: Board, q: int, r: int, direction: int) -> TilePath:
    """The path of a tile at ``(q, r)`` heading ``direction`` on ``board`` (cached per board).

    Other tiles play no part: occupancy is the collision sweep's business.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> lvl = Level.hexagon(1)
    >>> p = tile_path(lvl.board, 0, 0, 0)
    >>> p.outcome, p.points.shape[1], tile_path(lvl.board, 0, 0, 0) is p  # cached per board
    ('exit', 2, True)
    """
    return board.memo((q, r, direction), lambda: _build(board, q, r, direction))
