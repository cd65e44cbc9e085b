"""Numba kernels of the hex track puzzle: swept hexagon collision (SPEC H5, J1).

The moving tile's centre follows a polyline; every other tile is a flat-top hexagon of
circumradius ``radius`` (the Minkowski sum of two 0.88R tile tops, 1.76R by default) around its
centre. Each segment is clipped against each hexagon by Cyrus–Beck half-plane clipping, written
as three slabs ``|u_k·(p − c)| ≤ apothem`` with ``u_k`` the edge normals at 30°, 90° and 150°.
Segments are taken in path order and the first segment with any hit decides: its earliest entry
parameter among the hexagons gives the contact (ties go to the lower obstacle index). Because a
segment is clipped whole, no segment can tunnel, however long.

Touching the boundary counts as contact; a relative slack of ``1e-12`` on the apothem makes that
hold in floating point for points computed to lie exactly on an edge.
"""

from __future__ import annotations

import math

import numpy as np

from labkit._jit import kernel

# Edge normals of a flat-top hexagon (one per pair of opposite edges).
_C30 = math.sqrt(3.0) / 2.0
SLACK = 1e-12


def _example_single():
    path = np.array([[0.0, 3.0], [0.0, 0.5], [2.0, -1.0]])
    centres = np.array([[1.5, 0.0], [9.0, 9.0]])
    return path, centres, np.ones(2, dtype=np.bool_), -1, 1.76


@kernel(example=_example_single)
def sweep(path, centres, active, skip, radius):
    """Earliest contact of ``path`` (n, 2) with the hexagons at ``centres[j]`` for active j != skip.

    Returns ``(arc_length, j)``; ``(inf, -1)`` when nothing is touched.
    """
    apothem = radius * _C30 * (1.0 + SLACK)
    half_w = radius * (1.0 + SLACK)  # x half-extent of a flat-top hexagon (vertex to vertex)
    k = centres.shape[0]
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
        for j in range(k):
            if j == skip or not active[j]:
                continue
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
            if t_in <= t_out and t_in < best_t:
                best_t = t_in
                best_j = j
        seg_len = math.sqrt(dx * dx + dy * dy)
        if best_j >= 0:
            return travelled + best_t * seg_len, best_j
        travelled += seg_len
    return math.inf, -1


def _example_batch():
    path, centres, _, _, radius = _example_single()
    return np.stack([path, path[::-1].copy()]), centres, radius


@kernel(example=_example_batch)
def sweep_many(paths, centres, radius):
    """:func:`sweep` for every path of ``paths`` (m, n, 2) against all ``centres``."""
    m = paths.shape[0]
    dist = np.empty(m, dtype=np.float64)
    index = np.empty(m, dtype=np.int64)
    active = np.ones(centres.shape[0], dtype=np.bool_)
    for p in range(m):
        d, j = sweep(paths[p], centres, active, -1, radius)
        dist[p] = d
        index[p] = j
    return dist, index
