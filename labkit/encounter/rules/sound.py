"""Sound (rule E3): who hears what, how loud, and from which of 8 directions.

A source of exposure level N at (x, y) is heard by every cell within Chebyshev distance N − 1
(diagonal neighbours are at distance 1), with strength N − distance (so ≥ 1 wherever heard, N
at the source). Each cell keeps the strongest source; between equally strong sources the lower
source index wins. Its direction is the compass sector (45° each) nearest in angle to the vector
from the listener to the source, y down being south; integer offsets never fall on a sector
boundary (the boundary slope, 1 + √2, is irrational). At the source's own cell the direction is
``HERE``; where nothing is heard strength is 0 and the direction ``NONE`` (−1).

Decisions recorded here: a level ≤ 0 is silent; sources must lie on the grid (a sound from
outside a room grid is the session's business); the kernel also returns which source won each
cell (``propagate_sound(..., with_source=True)``), useful for journals and plots.

Examples
--------
>>> strength, direction = propagate_sound((3, 5), [(1, 1, 2)])
>>> strength
array([[1, 1, 1, 0, 0],
       [1, 2, 1, 0, 0],
       [1, 1, 1, 0, 0]], dtype=int32)
>>> [Compass(d).name for d in direction[0, :3]]
['SE', 'S', 'SW']
>>> Compass(direction[1, 1]).name, Compass(direction[1, 4]).name
('HERE', 'NONE')
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError, _renamed
from labkit.encounter import _kernels

__all__ = ["Compass", "SoundError", "propagate_sound", "heard_at", "COMPASS_VECTORS"]


class SoundError(ArgumentError):
    """Bad grid shape or sources (an :class:`~labkit.ArgumentError` naming the argument)."""


class Compass(IntEnum):
    """A compass point: where a sound is heard from (seed: SignalDirection), or a room move.

    Compass order, y down = south; ``HERE`` (at the source) and ``NONE`` (nothing heard) are the
    sound kernel's. (Formerly ``Direction``, which is pathfinding's move.)

    Examples
    --------
    >>> Compass.N, Compass(2).name, Compass.HERE > Compass.NW
    (<Compass.N: 0>, 'E', True)
    """

    NONE = -1
    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7
    HERE = 8


# Unit (dx, dy) per direction code 0..7, y down; for quiver plots of direction maps.
COMPASS_VECTORS = np.array(
    [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)], dtype=np.float64
)
COMPASS_VECTORS /= np.linalg.norm(COMPASS_VECTORS, axis=1)[:, None]


def _sources(sources: ArrayLike, height: int, width: int) -> NDArray[np.int64]:
    arr = np.asarray(sources)
    if len(arr) == 0:
        arr = np.empty((0, 3))
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise SoundError("must be rows of (x, y, level)", argument="sources", value=arr.shape)
    if arr.size and arr.dtype.kind not in "iu":
        if not np.all(np.mod(arr, 1) == 0):
            raise SoundError("must be integers", argument="sources", value=arr.tolist())
    arr = arr.astype(np.int64)
    off = (arr[:, 0] < 0) | (arr[:, 0] >= width) | (arr[:, 1] < 0) | (arr[:, 1] >= height)
    if off.any():
        k = int(np.argmax(off))
        raise SoundError(
            f"lies outside the {height}x{width} grid",
            argument=f"sources[{k}]",
            value=tuple(int(v) for v in arr[k]),
        )
    return arr


def propagate_sound(
    shape: tuple[int, int], sources: ArrayLike, *, with_source: bool = False
) -> tuple[np.ndarray, ...]:
    """The strongest audible source at every cell of a room grid (numba kernel).

    Parameters
    ----------
    shape : (height, width)
        Grid size; arrays are indexed ``[y, x]``.
    sources : array-like of (x, y, level) rows
        Sound sources in index order (the order breaks ties).
    with_source : bool
        Also return the index of the winning source per cell (−1 where silent).

    Returns
    -------
    strength : int32 array (height, width)
        ``level − Chebyshev distance`` of the winning source; 0 where nothing is heard.
    direction : int8 array (height, width)
        :class:`Compass` code from the listener toward the winning source.
    source : int32 array, only with ``with_source=True``.

    Raises
    ------
    SoundError
        Non-positive shape, malformed or off-grid sources.

    Examples
    --------
    >>> strength, direction = propagate_sound((3, 4), [(0, 0, 3)])
    >>> strength.tolist()
    [[3, 2, 1, 0], [2, 2, 1, 0], [1, 1, 1, 0]]
    >>> Compass(int(direction[1, 1])).name  # toward the source, up and left
    'NW'
    """
    try:
        height, width = (int(v) for v in shape)
    except (TypeError, ValueError):
        raise SoundError("must be (height, width)", argument="shape", value=shape) from None
    if height <= 0 or width <= 0:
        raise SoundError("must be positive", argument="shape", value=shape)
    src = _sources(sources, height, width)
    strength, direction, winner = _kernels.propagate_sound(
        height,
        width,
        np.ascontiguousarray(src[:, 0]),
        np.ascontiguousarray(src[:, 1]),
        np.ascontiguousarray(src[:, 2]),
    )
    return (strength, direction, winner) if with_source else (strength, direction)


def heard_at(position: tuple[int, int], source: tuple[int, int, int]) -> tuple[int, Compass]:
    """What a listener at ``position`` (x, y) hears of one source (x, y, level).

    Returns ``(strength, direction)``; ``(0, Compass.NONE)`` when out of earshot. The session
    uses this for one listener without building a whole map.

    Examples
    --------
    >>> heard_at((0, 0), (3, 1, 5))
    (2, <Compass.E: 2>)
    >>> heard_at((0, 0), (3, 1, 3))
    (0, <Compass.NONE: -1>)
    """
    x, y = position
    sx, sy, level = source
    strength = level - max(abs(sx - x), abs(sy - y))
    if strength < 1:
        return 0, Compass.NONE
    return int(strength), Compass(int(_kernels.compass(sx - x, sy - y)))


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
