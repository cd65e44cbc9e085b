"""Numba kernels of the hex track puzzle: swept hexagon collision (rules H5, J1).

The moving tile's centre follows a polyline; every other tile is a flat-top hexagon of
circumradius ``radius`` (the Minkowski sum of two 0.88R tile tops, 1.76R by default) around its
centre. Each segment is clipped against each hexagon by Cyrus–Beck half-plane clipping, written
as three slabs ``|u_k·(p − c)| ≤ apothem`` with ``u_k`` the edge normals at 30°, 90° and 150°.
Segments are taken in path order and the first segment with any hit decides: its earliest entry
parameter among the hexagons gives the contact (ties go to the lower obstacle index). Because a
segment is clipped whole, no segment can tunnel, however long.

Touching the boundary counts as contact; a relative slack of ``1e-12`` on the apothem makes that
hold in floating point for points computed to lie exactly on an edge.

Speed (issue 3): :func:`sweep_many` first narrows each path's obstacles to *candidates*, the
hexagons whose bounding box meets the path's bounding box, then sweeps the path against those
only (no candidate, no sweep). The obstacles are sorted by x once per call, so a path's
candidates in x are one run found by two bisections, and only their y is tested. Every rejection
is the same exact comparison the segment loop would make (rounding is monotone, so the sorted
edges compare as the unsorted ones), hence the results are bit-for-bit those of sweeping every
obstacle; the candidates come in x order, so an exact tie of entry parameters is settled by the
index explicitly. A single :func:`sweep` (``trace_tap``, the solver) builds no candidate list: it
would allocate, and for one short path it saves less than it costs. Threads (``prange``) were
tried and left out: on a shared two-core machine a parallel call stalls for milliseconds
whenever the other core is busy.
"""

from __future__ import annotations

import math

import numpy as np

from labkit._jit import Covered, kernel

# Edge normals of a flat-top hexagon (one per pair of opposite edges).
_C30 = math.sqrt(3.0) / 2.0
SLACK = 1e-12


def _example_single():
    path = np.array([[0.0, 3.0], [0.0, 0.5], [2.0, -1.0]])
    centres = np.array([[1.5, 0.0], [9.0, 9.0]])
    return path, centres, np.ones(2, dtype=np.bool_), -1, 1.76


# Warm-up compiles the single-path form trace_tap() and the solver call; sweep_many's warm-up
# compiles the candidate-list form it calls.
@kernel(
    example=_example_single,
    reference=Covered(
        "the readable reference_first_contact takes one path and radius; thousands of random cases",
        "test_kernel_matches_reference_on_thousands_of_random_cases",
    ),
)
def sweep(path, centres, active, skip, radius, among=None, n_among=0):
    """Earliest contact of ``path`` (n, 2) with the hexagons at ``centres[j]`` for active j != skip.

    With ``among`` given, only the obstacles ``among[:n_among]`` are tried, in any order
    (``active`` and ``skip`` are then not consulted). numba compiles the ``among=None`` case
    apart, with the dead branches pruned. Returns ``(arc_length, j)``; ``(inf, -1)`` when nothing
    is touched.
    """
    apothem = radius * _C30 * (1.0 + SLACK)
    half_w = radius * (1.0 + SLACK)  # x half-extent of a flat-top hexagon (vertex to vertex)
    n = centres.shape[0] if among is None else n_among
    travelled = 0.0
    for i in range(path.shape[0] - 1):
        x0 = path[i, 0]
        y0 = path[i, 1]
        dx = path[i + 1, 0] - x0
        dy = path[i + 1, 1] - y0
        lo_x = min(x0, x0 + dx)
        hi_x = max(x0, x0 + dx)
        lo_y = min(y0, y0 + dy)
        hi_y = max(y0, y0 + dy)
        # Slab projections of the direction are the same for every hexagon.
        d1 = _C30 * dx + 0.5 * dy
        d2 = dy
        d3 = -_C30 * dx + 0.5 * dy
        best_t = 2.0
        best_j = -1
        for c in range(n):
            if among is None:
                j = c
                if j == skip or not active[j]:
                    continue
            else:
                j = among[c]
            cx = centres[j, 0]
            cy = centres[j, 1]
            # Cheap bounding-box rejection before clipping.
            if hi_x < cx - half_w or lo_x > cx + half_w:
                continue
            if hi_y < cy - apothem or lo_y > cy + apothem:
                continue
            rx = x0 - cx
            ry = y0 - cy
            t_in = 0.0
            t_out = 1.0
            for slab in range(3):
                if slab == 0:
                    s0 = _C30 * rx + 0.5 * ry
                    ds = d1
                elif slab == 1:
                    s0 = ry
                    ds = d2
                else:
                    s0 = -_C30 * rx + 0.5 * ry
                    ds = d3
                if ds == 0.0:
                    if s0 > apothem or s0 < -apothem:
                        t_in = 2.0
                        break
                    continue
                t1 = (-apothem - s0) / ds
                t2 = (apothem - s0) / ds
                if t1 > t2:
                    t1, t2 = t2, t1
                if t1 > t_in:
                    t_in = t1
                if t2 < t_out:
                    t_out = t2
                if t_in > t_out:
                    break
            # The earliest entry; an exact tie goes to the lower index (``among`` is unordered).
            if t_in <= t_out and (t_in < best_t or (t_in == best_t and j < best_j)):
                best_t = t_in
                best_j = j
        seg_len = math.sqrt(dx * dx + dy * dy)
        if best_j >= 0:
            return travelled + best_t * seg_len, best_j
        travelled += seg_len
    return math.inf, -1


@kernel(
    example=lambda: (np.array([0.0, 1.0, 1.0, 2.0]), 1.0, True),
    reference="tests.kernel_references:count_below",
)
def count_below(sorted_values, v, or_equal):
    """How many entries of the increasing ``sorted_values`` are ``< v`` (``<= v`` if
    ``or_equal``). Branch-free bisection: the comparisons are unpredictable, and a mispredicted
    branch costs more than the select."""
    lo = 0
    hi = sorted_values.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        x = sorted_values[mid]
        below = (x < v) | (or_equal & (x == v))
        lo = mid + 1 if below else lo
        hi = hi if below else mid
    return lo


def _example_batch():
    path, centres, _, _, radius = _example_single()
    return np.stack([path, path[::-1].copy()]), centres, radius


@kernel(
    example=_example_batch,
    reference=Covered(
        "many paths: equal to the single-path sweep path by path",
        "test_batch_equals_one_by_one",
    ),
)
def sweep_many(paths, centres, radius):
    """:func:`sweep` for every path of ``paths`` (m, n, 2) against all ``centres``.

    Each path is swept against its candidates only: the hexagons whose bounding box meets the
    path's own bounding box (see the module notes).
    """
    m = paths.shape[0]
    k = centres.shape[0]
    apothem = radius * _C30 * (1.0 + SLACK)
    half_w = radius * (1.0 + SLACK)
    dist = np.full(m, math.inf)
    index = np.full(m, -1, dtype=np.int64)
    active = np.ones(k, dtype=np.bool_)
    cand = np.empty(k, dtype=np.int64)  # one scratch buffer for every path
    # Hexagon bounding boxes in x order; left and right are sorted since rounding is monotone.
    by_x = np.argsort(centres[:, 0])
    left = np.empty(k)
    right = np.empty(k)
    bottom = np.empty(k)
    top = np.empty(k)
    for s in range(k):
        cx = centres[by_x[s], 0]
        cy = centres[by_x[s], 1]
        left[s] = cx - half_w
        right[s] = cx + half_w
        bottom[s] = cy - apothem
        top[s] = cy + apothem
    for p in range(m):
        lo_x = hi_x = paths[p, 0, 0]
        lo_y = hi_y = paths[p, 0, 1]
        for i in range(1, paths.shape[1]):
            lo_x = min(lo_x, paths[p, i, 0])
            hi_x = max(hi_x, paths[p, i, 0])
            lo_y = min(lo_y, paths[p, i, 1])
            hi_y = max(hi_y, paths[p, i, 1])
        # The run with right >= lo_x and left <= hi_x: the x-overlap test of the segment loop.
        first = count_below(right, lo_x, False)
        last = count_below(left, hi_x, True)
        n_cand = 0
        for s in range(first, last):
            # Branch-free keep-or-overwrite: the y test is unpredictable too.
            cand[n_cand] = by_x[s]
            n_cand += (hi_y >= bottom[s]) & (lo_y <= top[s])
        if n_cand > 0:
            dist[p], index[p] = sweep(paths[p], centres, active, -1, radius, cand, n_cand)
    return dist, index
