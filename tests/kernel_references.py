"""Plain-Python references of the kernels, each with its kernel's arguments and results.

``labkit._jit.kernel(reference="tests.kernel_references:NAME")`` ties a kernel to one of these;
``tests/test_kernel_registry.py`` runs both on the kernel's example arguments and compares. Each
is written from the rule (see ``docs/rules/``), not from the kernel's code: the loops here are
the obvious ones, without the kernels' bounding boxes, bisection or in-place queues.
"""

from __future__ import annotations

import bisect
import math
from collections import deque

import numpy as np

from tests.encounter import reference as encounter


def chebyshev_rings(height, width, y, x):
    """King-move distance from (x, y) to every cell."""
    return np.array(
        [[max(abs(i - y), abs(j - x)) for j in range(width)] for i in range(height)],
        dtype=np.int64,
    ).reshape(height, width)


def count_below(sorted_values, v, or_equal):
    """How many entries are < v (<= v with ``or_equal``), by the standard library's bisect."""
    values = list(sorted_values)
    return bisect.bisect_right(values, v) if or_equal else bisect.bisect_left(values, v)


def trace_cells(parent, target, width):
    """Follow parents back from the target, then list the cells (x, y) start first."""
    chain = [int(target)]
    while parent[chain[-1]] >= 0:
        chain.append(int(parent[chain[-1]]))
    return np.array([(c % width, c // width) for c in reversed(chain)], dtype=np.int64)


def small_integer_costs(cost):
    """The largest open cost when every open cost is a whole number up to 255, else -1."""
    open_costs = [float(c) for c in np.ravel(cost) if 0.0 < c < math.inf]
    if any(c != int(c) or c > 255 for c in open_costs):
        return -1
    return int(max(open_costs, default=0))


def bfs_graph(can, hit, dxs, dys, sx, sy, start_terminal):
    """Breadth-first from the start over allowed moves; hit cells get an edge but no expansion."""
    h, w, k = can.shape
    index = np.full((h, w), -1)
    index[sy, sx] = 0
    cells, edges, terminal = [(sx, sy)], [[-1] * k], [start_terminal]
    queue = deque([0])
    while queue:
        u = queue.popleft()
        if terminal[u]:
            continue
        ux, uy = cells[u]
        for d in range(k):
            nx, ny = ux + int(dxs[d]), uy + int(dys[d])
            if not can[uy, ux, d] or not (0 <= nx < w and 0 <= ny < h) or (nx, ny) == (ux, uy):
                continue
            if index[ny, nx] < 0:
                index[ny, nx] = len(cells)
                cells.append((nx, ny))
                edges.append([-1] * k)
                terminal.append(bool(hit[ny, nx]))
                queue.append(index[ny, nx])
            edges[u][d] = index[ny, nx]
    return index, np.array(cells).reshape(-1, 2), np.array(edges).reshape(-1, k), terminal


def chance(table, level, agility):
    """The table entry for level minus agility, clamped to the table's -4..+4."""
    return encounter.chance(table, level, agility)


def compass(dx, dy):
    """Compass code (0 N, 1 NE ... 7 NW, 8 HERE) of the nearest sector by angle (atan2)."""
    name = encounter.compass(dx, dy)
    return 8 if name == "HERE" else encounter.SECTORS.index(name)


def propagate_sound(height, width, xs, ys, levels):
    """Every cell tries every source: (strength, direction code or -1, source index or -1)."""
    sources = [(int(x), int(y), int(level)) for x, y, level in zip(xs, ys, levels)]
    strength, names, source = encounter.sound_sources((height, width), sources)
    codes = {"NONE": -1, "HERE": 8, **{s: i for i, s in enumerate(encounter.SECTORS)}}
    return strength, np.vectorize(codes.__getitem__, otypes=[np.int64])(names), source
