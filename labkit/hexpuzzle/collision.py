"""Swept hexagon collision, the public face of the kernels (rule H5).

:func:`first_contact` sweeps one polyline, :func:`first_contacts` many at once. Both validate
their arguments and call :mod:`labkit.hexpuzzle._kernels`.

Examples
--------
Rule H5's grazing example: a tile moving straight up past a tile one column to the left.

>>> import numpy as np
>>> path = np.array([[1.5, 2.598], [1.5, -2.598]])
>>> first_contact(path, np.array([[0.0, 0.0]]))
(2.1476..., 0)
>>> first_contact(path, np.array([[-1.5, 0.0]]))
(inf, -1)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError
from labkit.hexpuzzle import _kernels

__all__ = ["MINKOWSKI_RADIUS", "TILE_RADIUS", "first_contact", "first_contacts"]

#: Circumradius of a tile's top face, in cell radii R.
TILE_RADIUS = 0.88
#: Circumradius of the Minkowski sum of two tile tops: the collision hexagon around a tile.
MINKOWSKI_RADIUS = 2 * TILE_RADIUS


def _points(a: ArrayLike, name: str, ndim: int) -> NDArray[np.float64]:
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim != ndim or arr.shape[-1] != 2:
        shape = "(n, 2)" if ndim == 2 else "(m, n, 2)"
        raise ArgumentError(f"must have shape {shape}", argument=name, value=arr.shape)
    if not np.isfinite(arr).all():
        raise ArgumentError("must hold finite numbers only", argument=name)
    return np.ascontiguousarray(arr)


def _radius(radius: float) -> float:
    r = float(radius)
    if not np.isfinite(r) or r <= 0:
        raise ArgumentError("must be a positive finite number", argument="radius", value=radius)
    return r


def first_contact(
    path: ArrayLike, centres: ArrayLike, radius: float = MINKOWSKI_RADIUS
) -> tuple[float, int]:
    """Earliest contact of a moving centre with the collision hexagons around ``centres``.

    Parameters
    ----------
    path : array_like, shape (n, 2)
        The moving centre's polyline, n >= 1 points (one point: a stationary check).
    centres : array_like, shape (k, 2)
        Centres of the obstacles; each is a flat-top hexagon of circumradius ``radius``.
    radius : float
        Circumradius of the collision hexagon (default 1.76, two 0.88 tile tops).

    Returns
    -------
    distance : float
        Arc length along ``path`` of the first contact; ``inf`` when nothing is touched.
    index : int
        Row of ``centres`` touched first (lowest index on a tie); ``-1`` when nothing is touched.

    Examples
    --------
    >>> first_contact([[0.0, 0.0], [4.0, 0.0]], [[4.0, 0.0]], radius=1.0)
    (3.0, 0)
    >>> first_contact([[0.0, 0.0], [4.0, 0.0]], np.empty((0, 2)))
    (inf, -1)
    """
    p = _points(path, "path", 2)
    c = _points(np.asarray(centres, dtype=np.float64).reshape(-1, 2), "centres", 2)
    if p.shape[0] < 1:
        raise ArgumentError("must have at least one point", argument="path", value=p.shape)
    if p.shape[0] == 1:
        p = np.repeat(p, 2, axis=0)
    active = np.ones(c.shape[0], dtype=np.bool_)
    dist, index = _kernels.sweep(p, c, active, -1, _radius(radius))
    return float(dist), int(index)


def first_contacts(
    paths: ArrayLike, centres: ArrayLike, radius: float = MINKOWSKI_RADIUS
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """:func:`first_contact` for many paths of equal point count at once.

    Parameters
    ----------
    paths : array_like, shape (m, n, 2)
        ``m`` polylines of ``n >= 2`` points. Pad a shorter path by repeating its last point:
        zero-length segments change nothing.
    centres : array_like, shape (k, 2)
        Obstacle centres, shared by every path.
    radius : float
        Collision hexagon circumradius.

    Returns
    -------
    distances : ndarray of float, shape (m,)
        Arc length of each path's first contact, ``inf`` where none.
    indices : ndarray of int, shape (m,)
        Obstacle touched first, ``-1`` where none.

    Examples
    --------
    >>> paths = np.array([[[0.0, 0.0], [4.0, 0.0]], [[0.0, 5.0], [4.0, 5.0]]])
    >>> first_contacts(paths, [[4.0, 0.0]], radius=1.0)
    (array([ 3., inf]), array([ 0, -1]))
    """
    p = _points(paths, "paths", 3)
    c = _points(np.asarray(centres, dtype=np.float64).reshape(-1, 2), "centres", 2)
    if p.shape[1] < 2:
        raise ArgumentError("each path needs at least 2 points", argument="paths", value=p.shape)
    return _kernels.sweep_many(p, c, _radius(radius))
