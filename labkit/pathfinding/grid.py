"""Fast grid least-cost search for analysts' cost fields and the map-turn chase (rules J1, P0).

Decisions the rules leave open, recorded here:

* ``cost`` is indexed ``[y, x]``; a cell is *blocked* when its cost is <= 0, NaN or +inf; any
  other cost is the price of entering it (P0: a path's cost is the sum of the costs of the cells it
  enters, the start cell is free).
* The start cell is free and always usable, even if its own cost says blocked (an enemy standing
  on a cell its team marks as occupied can still leave it). The target must be enterable.
* ``diagonal=True`` adds the four diagonal moves, each costing the entered cell's cost like any
  other move, and forbids corner cutting: a diagonal step needs both orthogonal cells beside it
  open. The object-level search applies the same rule with the ``NoCornerCutting`` predicate;
  its default (rule P3) judges a diagonal on its two end cells only and may cut.
* A start outside the grid is a ``ValueError``; a target outside the grid is simply unreachable
  (empty path, ``inf``), as ``PathfindingSystem.find`` treats it as NO_PATH (P6).
* Ties between equal-cost paths are broken by queue order: deterministic for a given input.
* Small integer costs (every open cost an integer <= 255, the usual tile-map case) run Dial's
  bucket queue instead of the binary heap: the same totals, O(1) queue operations.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError
from labkit.pathfinding import _kernels

__all__ = ["grid_costs", "grid_path"]


def _as_cost(cost: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(cost)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ArgumentError(
            "must be a non-empty 2-D array [y, x]", argument="cost", value=arr.shape
        )
    if arr.dtype.kind not in "biuf":
        raise ArgumentError("must hold numbers", argument="cost", value=str(arr.dtype))
    return np.ascontiguousarray(arr, dtype=np.float64)


def _as_point(point: Sequence[int] | NDArray, name: str) -> tuple[int, int]:
    try:
        x, y = (int(v) for v in point)
    except (TypeError, ValueError):
        raise ArgumentError(
            "must be an (x, y) pair of integers", argument=name, value=point
        ) from None
    return x, y


def _start(cost: NDArray, start: Sequence[int]) -> tuple[int, int]:
    x, y = _as_point(start, "start")
    h, w = cost.shape
    if not (0 <= x < w and 0 <= y < h):
        raise ArgumentError(
            f"is outside the {w}x{h} grid (points are (x, y))", argument="start", value=(x, y)
        )
    return x, y


def _search(
    cost: NDArray[np.float64], sx: int, sy: int, tx: int, ty: int, diagonal: bool
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Pick the queue: buckets for small integer costs, the binary heap otherwise."""
    top = _kernels.small_integer_costs(cost)
    if top >= 0:
        return _kernels.grid_search_buckets(cost, sx, sy, tx, ty, diagonal, top)
    return _kernels.grid_search(cost, sx, sy, tx, ty, diagonal)


def grid_costs(
    cost: ArrayLike, start: Sequence[int], diagonal: bool = False
) -> NDArray[np.float64]:
    """Least total cost from ``start`` to every cell of a cost grid.

    Parameters
    ----------
    cost : array_like, shape (h, w)
        Entering price of each cell, indexed ``[y, x]``; <= 0, NaN or inf means blocked.
    start : (x, y)
        The start cell (free, usable even if its own cost says blocked).
    diagonal : bool
        Allow the four diagonal moves (no corner cutting).

    Returns
    -------
    ndarray of float64, shape (h, w)
        Total cost of the cheapest path to each cell; 0 at the start, ``inf`` where no path
        exists (blocked or walled-off cells).

    Examples
    --------
    >>> import numpy as np
    >>> cost = np.array([[1, 1, 1],
    ...                  [1, 0, 5],
    ...                  [1, 1, 1]])
    >>> grid_costs(cost, (0, 0))
    array([[ 0.,  1.,  2.],
           [ 1., inf,  7.],
           [ 2.,  3.,  4.]])
    """
    arr = _as_cost(cost)
    x, y = _start(arr, start)
    dist, _ = _search(arr, x, y, -1, -1, bool(diagonal))
    return dist


def grid_path(
    cost: ArrayLike, start: Sequence[int], target: Sequence[int], diagonal: bool = False
) -> tuple[NDArray[np.int64], float]:
    """Cheapest path from ``start`` to ``target`` on a cost grid.

    Parameters
    ----------
    cost : array_like, shape (h, w)
        Entering price of each cell, indexed ``[y, x]``; <= 0, NaN or inf means blocked.
    start, target : (x, y)
        Cells of the grid. ``start`` must lie inside it; a ``target`` outside it is unreachable.
    diagonal : bool
        Allow the four diagonal moves (no corner cutting).

    Returns
    -------
    path : ndarray of int64, shape (n, 2)
        The ``(x, y)`` cells from ``start`` to ``target``, both included (``n == 1`` when they
        are equal). When no path exists: an empty ``(0, 2)`` array.
    total : float
        Sum of the costs of the cells entered (the start is free); ``inf`` when no path exists.

    Examples
    --------
    >>> import numpy as np
    >>> cost = np.ones((3, 4))
    >>> cost[0:2, 1] = 0          # a wall in column 1, open at the bottom
    >>> path, total = grid_path(cost, (0, 0), (2, 0))
    >>> path.tolist(), total
    ([[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0]], 6.0)
    >>> grid_path(np.ones((3, 3)), (0, 0), (2, 2), diagonal=True)
    (array([[0, 0],
           [1, 1],
           [2, 2]]), 2.0)
    >>> grid_path(np.zeros((2, 2)), (0, 0), (1, 1))
    (array([], shape=(0, 2), dtype=int64), inf)
    """
    arr = _as_cost(cost)
    sx, sy = _start(arr, start)
    tx, ty = _as_point(target, "target")
    h, w = arr.shape
    empty = np.empty((0, 2), dtype=np.int64)
    if not (0 <= tx < w and 0 <= ty < h):
        return empty, float("inf")
    dist, parent = _search(arr, sx, sy, tx, ty, bool(diagonal))
    total = float(dist[ty, tx])
    if total == float("inf"):
        return empty, total
    return _kernels.trace_cells(parent, ty * w + tx, w), total
