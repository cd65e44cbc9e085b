"""Solver kernels (SPEC H7): ``path_blockers`` over several paths at once.

The contact table is memoised per level, so a test that goes through ``contact_table`` may
be served a table built before (by an earlier test); these tests call the kernel itself.
Expected blockers come from one-by-one sweeps: for each path and each other tile alone on the
board, does the sweep touch it (the very sweep ``trace_tap`` runs)?
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle import _kernels
from labkit.hexpuzzle.collision import MINKOWSKI_RADIUS
from labkit.hexpuzzle.solving import _kernels as _solver_kernels
from labkit.hexpuzzle.tap_trace import trace_tap
from tests.hexpuzzle.helpers import random_level


def _touches(path, centres, mover, other) -> bool:
    only = np.zeros(len(centres), dtype=np.bool_)
    only[other] = True
    return _kernels.sweep(path, centres, only, mover, MINKOWSKI_RADIUS)[1] >= 0


@pytest.mark.parametrize("fn", ["jit", "py_func"])
def test_path_blockers_of_many_paths_match_one_by_one_sweeps(fn):
    level = random_level(7, radius=3, n_tiles=9)
    centres = level.tile_centres
    n = len(level.tiles)
    paths = [trace_tap(level, t.id).path for t in level.tiles]
    starts = np.zeros(n + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(p) for p in paths])
    skip = np.arange(n, dtype=np.int64)
    kernel = _solver_kernels.path_blockers
    kernel = kernel.py_func if fn == "py_func" else kernel
    hit = kernel(np.ascontiguousarray(np.vstack(paths)), starts, skip, centres, MINKOWSKI_RADIUS)
    assert hit.dtype == np.bool_ and hit.shape == (n, n)
    want = np.array(
        [[j != i and _touches(paths[i], centres, i, j) for j in range(n)] for i in range(n)]
    )
    assert want.any(axis=1).sum() >= 3  # several paths have blockers: the rows are told apart
    assert np.array_equal(hit, want)
