"""Numba kernels of the hex puzzle solver (rule H7): who can block whom, and the BFS closure.

Both kernels are built on :func:`labkit.hexpuzzle._kernels.sweep`, the very sweep that
:func:`~labkit.hexpuzzle.tap_trace.trace_tap` runs, so the solver cannot disagree with a tap.

* :func:`path_blockers` finds, for each planned path, *every* tile its swept hexagon touches
  anywhere along the path (not only the first): it sweeps, drops the tile it hit, and sweeps
  again until nothing is hit. A tile can exit exactly when its path leaves the board and none of
  these blockers is still on the board, so the solver's "can this tile exit?" is one AND of
  bitmasks instead of a sweep.
* :func:`closure_layers` removes, layer by layer, every tile that can exit at one orientation
  (rule H7's closure; H9's removal layers).

Remaining-tile sets are ``int64`` bitmasks (bit ``i`` = tile ``i``); a level has at most 61
tiles (H2), so they fit.
"""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel
from labkit.hexpuzzle import _kernels


def _example_blockers():
    points = np.array([[0.0, 3.0], [0.0, 0.5], [2.0, -1.0], [0.0, 0.0], [0.0, -5.0]])
    starts = np.array([0, 3, 5], dtype=np.int64)
    skip = np.array([1, 0], dtype=np.int64)
    centres = np.array([[1.5, 0.0], [0.0, 0.0]])
    return points, starts, skip, centres, 1.76


@kernel(
    example=_example_blockers,
    reference=Covered(
        "blockers of many segments: equal to one sweep per segment",
        "test_path_blockers_of_many_paths_match_one_by_one_sweeps",
    ),
)
def path_blockers(points, starts, skip, centres, radius):
    """Every obstacle each path touches: ``hit[p, j]`` for path ``points[starts[p]:starts[p+1]]``.

    ``skip[p]`` is the moving tile's own index (never its own obstacle).
    """
    m = starts.shape[0] - 1
    k = centres.shape[0]
    hit = np.zeros((m, k), dtype=np.bool_)
    for p in range(m):
        active = np.ones(k, dtype=np.bool_)
        path = points[starts[p] : starts[p + 1]]
        while True:
            _, j = _kernels.sweep(path, centres, active, skip[p], radius)
            if j < 0:
                break
            hit[p, j] = True
            active[j] = False
    return hit


def _example_closure():
    exits = np.array([True, True, False])
    blockers = np.array([2, 0, 0], dtype=np.int64)
    return exits, blockers, np.int64(7), np.zeros(3, dtype=np.int64)


@kernel(
    example=_example_closure,
    reference=Covered(
        "the readable closure works on sets of tiles, not bit layers",
        "test_closure_kernel_matches_reference_and_py_func",
    ),
)
def closure_layers(exits, blockers, remaining, layers):
    """Remove every tile that can exit, layer by layer, at one orientation.

    ``exits[i]``: tile i's path leaves the board; ``blockers[i]``: bitmask of the tiles its
    sweep touches. Each layer is judged against the board at the start of the layer. Writes the
    bitmask of each non-empty layer into ``layers`` and returns ``(remaining, n_layers)``.
    """
    n = exits.shape[0]
    count = 0
    while remaining != 0:
        layer = np.int64(0)
        for i in range(n):
            bit = np.int64(1) << np.int64(i)
            if (remaining & bit) != 0 and exits[i] and (blockers[i] & remaining) == 0:
                layer |= bit
        if layer == 0:
            break
        layers[count] = layer
        count += 1
        remaining &= ~layer
    return remaining, count
