"""Hex coordinates of the track puzzle (rule H1).

Flat-top hexagons in axial ``(q, r)`` coordinates with the logical y axis pointing down. A cell of
circumradius ``R`` has its centre at ``x = 1.5·q·R``, ``y = √3·(r + q/2)·R``. Directions (ports)
are numbered clockwise from "up":

=== ========== ================
dir heading    neighbour offset
=== ========== ================
0   up         (0, -1)
1   up-right   (1, -1)
2   down-right (1, 0)
3   down       (0, 1)
4   down-left  (-1, 1)
5   up-left    (-1, 0)
=== ========== ================

Port ``i`` of a cell is its edge facing direction ``i``; its midpoint lies halfway between the
cell's centre and the centre of neighbour ``i``.

Examples
--------
>>> centre(1, 1)
(1.5, 2.598076211353316)
>>> neighbour(0, 0, 1)
(1, -1)
>>> hex_distance((0, 0), (2, -1))
2
>>> rotate_cell(1, 0)
(0, 1)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labkit import _renamed

__all__ = [
    "SQRT3",
    "HEX_DIRECTIONS",
    "DIRECTION_NAMES",
    "opposite",
    "neighbour",
    "centre",
    "centres",
    "port_midpoint",
    "unit",
    "hex_radius",
    "hex_distance",
    "hexagon_cells",
    "rotate_cell",
    "hexagon_vertices",
]

SQRT3 = math.sqrt(3.0)

#: Neighbour offset ``(dq, dr)`` of each direction 0..5 (rule H1 table).
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES = ("up", "up-right", "down-right", "down", "down-left", "up-left")

Cell = tuple[int, int]


def opposite(port: int) -> int:
    """The port facing ``port`` across an edge: ``(port + 3) % 6``."""
    return (port + 3) % 6


def neighbour(q: int, r: int, direction: int) -> Cell:
    """Axial coordinates of the neighbour of ``(q, r)`` in ``direction``."""
    dq, dr = HEX_DIRECTIONS[direction]
    return (q + dq, r + dr)


def centre(q: float, r: float, radius: float = 1.0) -> tuple[float, float]:
    """Pixel centre ``(x, y)`` of cell ``(q, r)`` for cells of circumradius ``radius``.

    Examples
    --------
    >>> centre(2, -1)
    (3.0, 0.0)
    """
    return (1.5 * q * radius, SQRT3 * (r + q / 2.0) * radius)


def centres(cells: np.ndarray, radius: float = 1.0) -> np.ndarray:
    """Vectorised :func:`centre`: ``(n, 2)`` axial cells to ``(n, 2)`` float centres.

    Examples
    --------
    >>> centres(np.array([[0, 0], [2, -1]]))
    array([[0., 0.],
           [3., 0.]])
    """
    a = np.asarray(cells, dtype=np.float64).reshape(-1, 2)
    out = np.empty_like(a)
    out[:, 0] = 1.5 * a[:, 0] * radius
    out[:, 1] = SQRT3 * (a[:, 1] + a[:, 0] / 2.0) * radius
    return out


def unit(direction: int) -> tuple[float, float]:
    """Unit vector from a cell centre toward the centre of its neighbour in ``direction``."""
    dx, dy = centre(*HEX_DIRECTIONS[direction])
    n = math.hypot(dx, dy)
    return (dx / n, dy / n)


def port_midpoint(q: int, r: int, port: int, radius: float = 1.0) -> tuple[float, float]:
    """Midpoint of port ``port``'s edge: ``centre + ½·(neighbour_centre − centre)``."""
    cx, cy = centre(q, r, radius)
    dx, dy = centre(*HEX_DIRECTIONS[port], radius)
    return (cx + 0.5 * dx, cy + 0.5 * dy)


def hex_radius(q: int, r: int) -> int:
    """Hex distance of ``(q, r)`` from the origin: ``max(|q|, |r|, |q + r|)``."""
    return max(abs(q), abs(r), abs(q + r))


def hex_distance(a: Cell, b: Cell) -> int:
    """Number of cell steps between ``a`` and ``b``."""
    return hex_radius(a[0] - b[0], a[1] - b[1])


def hexagon_cells(radius: int) -> list[Cell]:
    """All cells within hex distance ``radius`` of the origin, sorted by ``(q, r)``.

    Radius 2 gives the 19-cell board, radius 3 the 37-cell board.

    Examples
    --------
    >>> len(hexagon_cells(2)), len(hexagon_cells(3))
    (19, 37)
    """
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if hex_radius(q, r) <= radius
    ]


def rotate_cell(q: int, r: int, k: int = 1) -> Cell:
    """Rotate a cell ``k`` clockwise steps about the origin: ``(q, r) → (−r, q + r)`` (rule H3).

    Negative ``k`` rotates counter-clockwise; six steps are the identity.
    """
    for _ in range(k % 6):
        q, r = -r, q + r
    return (q, r)


def hexagon_vertices(cx: float, cy: float, circumradius: float) -> np.ndarray:
    """The six vertices ``(6, 2)`` of a flat-top hexagon, clockwise from the right vertex.

    Examples
    --------
    >>> hexagon_vertices(0.0, 0.0, 1.0).round(3)[:2]
    array([[1.   , 0.   ],
           [0.5  , 0.866]])
    """
    angles = np.deg2rad(np.arange(6) * 60.0)
    return np.column_stack([cx + circumradius * np.cos(angles), cy + circumradius * np.sin(angles)])


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
