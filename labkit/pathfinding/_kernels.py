"""Numba kernels of :mod:`labkit.pathfinding` (called through this module, never imported by name).

Two families:

* ``grid_search`` / ``trace_cells``: Dijkstra on a dense cost grid (cost <= 0, NaN or inf =
  blocked), with an *indexed* binary heap (decrease-key, so the heap never holds more than one
  entry per cell and its memory is bounded by the grid size).
* ``bfs_graph`` / ``graph_search``: the object-level graph of rule P5/P6 built from a pass table
  (``can[y, x, d]``, ``hit[y, x]``) and searched with a lazy binary heap that skips stale
  entries, as P6 describes.

Both heaps are the same code (``heap_refill_root`` / ``heap_sift_up``); only the slot index
differs.
"""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel

# Neighbour offsets: the four cardinal moves first, then the diagonals.
_DX = np.array([0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)
_DY = np.array([-1, 0, 1, 0, -1, 1, 1, -1], dtype=np.int64)


# One binary min-heap for both searches: ``keys[:size]`` with their ``nodes`` beside them (kept
# apart for locality). ``pos[node]`` is the node's slot when the heap is indexed (grid_search's
# decrease-key); an empty ``pos`` makes it the lazy heap P6 describes (graph_search).
def _heap_example():
    return (np.array([1.0, 2.0, 3.0]), np.array([0, 1, 2], dtype=np.int64), np.full(3, -1), 2)


_HEAP_STEP = Covered(
    "a heap step; pushes, pops and decrease-keys come out in heapq's order",
    "test_heap_pops_in_heapq_order",
)


_GRID_DIJKSTRA = Covered(
    "ties make parent trees differ: distances against a readable Dijkstra over the "
    "explicit move graph, parents checked as a shortest-path tree",
    "test_grid_kernels_match_a_readable_dijkstra",
)


@kernel(example=_heap_example, reference=_HEAP_STEP)
def heap_refill_root(keys, nodes, pos, size):
    """After popping the root of a heap of ``size + 1``, move its last entry to the root and
    sift it down, so that ``keys[:size]`` is a heap again."""
    kc = keys[size]
    c = nodes[size]
    indexed = pos.size > 0
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        best = left
        if left + 1 < size and keys[left + 1] < keys[left]:
            best = left + 1
        if keys[best] >= kc:
            break
        keys[i] = keys[best]
        nodes[i] = nodes[best]
        if indexed:
            pos[nodes[i]] = i
        i = best
    keys[i] = kc
    nodes[i] = c
    if indexed:
        pos[c] = i


@kernel(example=lambda: (*_heap_example()[:3], 2, 0.5, 2), reference=_HEAP_STEP)
def heap_sift_up(keys, nodes, pos, i, k, v):
    """Put ``v`` with key ``k`` at slot ``i`` (a new last slot, or ``v``'s own slot after its key
    dropped) and sift it up; equal keys stay below their parent."""
    indexed = pos.size > 0
    while i > 0:
        p = (i - 1) >> 1
        if keys[p] <= k:
            break
        keys[i] = keys[p]
        nodes[i] = nodes[p]
        if indexed:
            pos[nodes[i]] = i
        i = p
    keys[i] = k
    nodes[i] = v
    if indexed:
        pos[v] = i


def _grid_example():
    cost = np.ones((4, 5), dtype=np.float64)
    cost[1, 1:4] = 0.0
    return (cost, 0, 0, 4, 3, True)


@kernel(example=_grid_example, reference=_GRID_DIJKSTRA)
def grid_search(cost, sx, sy, tx, ty, diagonal):
    """Dijkstra from (sx, sy); stops when (tx, ty) is settled (tx < 0: settle everything).

    Returns (dist (h, w) float64 with inf where unreached, parent (h*w,) int64 with -1 at the
    start and at unreached cells).
    """
    h, w = cost.shape
    n = h * w
    flat = cost.ravel()
    dist = np.full(n, np.inf)
    parent = np.full(n, -1, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    # Indexed heap: heap[i] is a cell, pos[cell] its slot (-1 = not in heap).
    heap = np.empty(n, dtype=np.int64)
    key = np.empty(n, dtype=np.float64)  # key[i] is dist of heap[i] (kept beside it for locality)
    pos = np.full(n, -1, dtype=np.int64)
    ndir = 8 if diagonal else 4
    target = ty * w + tx if tx >= 0 else -1
    s = sy * w + sx
    dist[s] = 0.0
    heap[0] = s
    key[0] = 0.0
    pos[s] = 0
    size = 1
    while size > 0:
        u = heap[0]
        du = key[0]
        pos[u] = -1
        size -= 1
        if size > 0:
            heap_refill_root(key, heap, pos, size)
        done[u] = True
        if u == target:
            break
        uy = u // w
        ux = u - uy * w
        for d in range(ndir):
            nx = ux + _DX[d]
            ny = uy + _DY[d]
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            v = ny * w + nx
            if done[v]:
                continue
            cv = flat[v]
            if not (cv > 0.0) or cv == np.inf:
                continue
            if d >= 4:
                # No corner cutting: both orthogonal cells beside the diagonal must be open.
                ca = flat[uy * w + nx]
                cb = flat[ny * w + ux]
                if not (ca > 0.0) or ca == np.inf or not (cb > 0.0) or cb == np.inf:
                    continue
            nd = du + cv
            if nd < dist[v]:
                dist[v] = nd
                parent[v] = u
                i = pos[v]
                if i < 0:
                    i = size
                    size += 1
                heap_sift_up(key, heap, pos, i, nd, v)
    return dist.reshape(h, w), parent


@kernel(
    example=lambda: (np.array([-1, 0, 1], dtype=np.int64), 2, 3),
    reference="tests.kernel_references:trace_cells",
)
def trace_cells(parent, target, width):
    """Walk ``parent`` back from ``target``; return the (n, 2) int64 (x, y) cells start first."""
    n = 1
    c = target
    while parent[c] >= 0:
        c = parent[c]
        n += 1
    out = np.empty((n, 2), dtype=np.int64)
    c = target
    for i in range(n - 1, -1, -1):
        out[i, 0] = c % width
        out[i, 1] = c // width
        c = parent[c]
    return out


@kernel(
    example=lambda: (np.array([[1.0, 2.0], [0.0, np.inf]]),),
    reference="tests.kernel_references:small_integer_costs",
)
def small_integer_costs(cost):
    """Largest cost if every open cell's cost is an integer <= 255, else -1 (use the heap).

    The bound keeps the bucket scan (one look per distance unit) cheap next to the search.
    """
    top = 0.0
    for c in cost.ravel():
        if c > 0.0 and c != np.inf:
            if c != np.floor(c) or c > 255.0:
                return -1
            if c > top:
                top = c
    return int(top)


def _dial_example():
    return _grid_example() + (1,)


@kernel(example=_dial_example, reference=_GRID_DIJKSTRA)
def grid_search_buckets(cost, sx, sy, tx, ty, diagonal, top):
    """``grid_search`` for integer costs <= ``top``: Dial's bucket queue, same results.

    With integer entering costs every queued distance lies in [d, d + top], so ``top + 1``
    circular buckets (rounded up to a power of two; doubly linked lists through ``nxt`` and
    ``prv``) replace the heap: push, pop and decrease-key are O(1). The grid is copied into a
    padded int32 array with a blocked border so that neighbours need no bounds checks.
    """
    h, w = cost.shape
    pw = w + 2
    npad = (h + 2) * pw
    pc = np.zeros(npad, dtype=np.int32)  # padded cost, 0 = blocked
    for y in range(h):
        for x in range(w):
            c = cost[y, x]
            if c > 0.0 and c != np.inf:
                pc[(y + 1) * pw + x + 1] = np.int32(c)
    big = np.iinfo(np.int64).max
    dist = np.full(npad, big, dtype=np.int64)
    parent = np.full(npad, -1, dtype=np.int32)
    state = np.zeros(npad, dtype=np.uint8)  # 0 unseen, 1 queued, 2 settled
    nb = 1  # a power of two >= top + 1, so "mod nb" is a mask
    while nb < top + 1:
        nb *= 2
    mask = nb - 1
    head = np.full(nb, -1, dtype=np.int32)
    nxt = np.empty(npad, dtype=np.int32)
    prv = np.empty(npad, dtype=np.int32)
    offs = np.array([-pw, 1, pw, -1, 1 - pw, 1 + pw, pw - 1, -1 - pw], dtype=np.int64)
    # for diagonal k (4..7): the two orthogonal cells beside it, as offsets from u
    side_a = np.array([0, 0, 0, 0, 1, 1, -1, -1], dtype=np.int64)
    side_b = np.array([0, 0, 0, 0, -pw, pw, pw, -pw], dtype=np.int64)
    ndir = 8 if diagonal else 4
    target = (ty + 1) * pw + tx + 1 if tx >= 0 else -1
    s = (sy + 1) * pw + sx + 1
    dist[s] = 0
    head[0] = s
    nxt[s] = -1
    prv[s] = -1
    state[s] = 1
    count = 1
    cur = 0  # the distance whose bucket is being emptied
    while count > 0:
        b = cur & mask
        u = head[b]
        if u < 0:
            cur += 1
            continue
        head[b] = nxt[u]
        if nxt[u] >= 0:
            prv[nxt[u]] = -1
        state[u] = 2
        count -= 1
        if u == target:
            break
        du = dist[u]
        for d in range(ndir):
            v = u + offs[d]
            cv = pc[v]
            if cv == 0 or state[v] == 2:
                continue
            if d >= 4 and (pc[u + side_a[d]] == 0 or pc[u + side_b[d]] == 0):
                continue  # no corner cutting
            nd = du + cv
            if nd < dist[v]:
                if state[v] == 1:
                    if prv[v] >= 0:
                        nxt[prv[v]] = nxt[v]
                    else:
                        head[dist[v] & mask] = nxt[v]
                    if nxt[v] >= 0:
                        prv[nxt[v]] = prv[v]
                else:
                    state[v] = 1
                    count += 1
                dist[v] = nd
                parent[v] = u
                bv = nd & mask
                hv = head[bv]
                nxt[v] = hv
                prv[v] = -1
                if hv >= 0:
                    prv[hv] = v
                head[bv] = v
    out = np.empty((h, w), dtype=np.float64)
    par = np.empty(h * w, dtype=np.int64)
    for y in range(h):
        for x in range(w):
            p = (y + 1) * pw + x + 1
            dp = dist[p]
            out[y, x] = np.inf if dp == big else np.float64(dp)
            q = parent[p]
            par[y * w + x] = -1 if q < 0 else (q // pw - 1) * w + (q % pw - 1)
    return out, par


def _bfs_example():
    can = np.ones((3, 3, 4), dtype=np.bool_)
    hit = np.zeros((3, 3), dtype=np.bool_)
    return (can, hit, _DX[:4].copy(), _DY[:4].copy(), 1, 1, False)


@kernel(example=_bfs_example, reference="tests.kernel_references:bfs_graph")
def bfs_graph(can, hit, dxs, dys, sx, sy, start_terminal):
    """Reachable-only BFS of P5 over a pass table ``can[y, x, k]`` / ``hit[y, x]``.

    Returns ``(index (h, w), cells (n, 2) as (x, y), edges (n, k) node or -1, terminal (n,))``;
    node 0 is the start. A hit neighbour gets its edge and is marked terminal; terminals (the
    start too, when ``start_terminal``) are never expanded.
    """
    h, w, k = can.shape
    index = np.full((h, w), -1, dtype=np.int64)
    cells = np.empty((h * w, 2), dtype=np.int64)
    edges = np.full((h * w, k), -1, dtype=np.int64)
    terminal = np.zeros(h * w, dtype=np.bool_)
    index[sy, sx] = 0
    cells[0, 0] = sx
    cells[0, 1] = sy
    terminal[0] = start_terminal
    n = 1
    head = 0  # ``cells`` doubles as the BFS queue: nodes are numbered in discovery order
    while head < n:
        u = head
        head += 1
        if terminal[u]:
            continue
        ux = cells[u, 0]
        uy = cells[u, 1]
        for d in range(k):
            if not can[uy, ux, d]:
                continue
            nx = ux + dxs[d]
            ny = uy + dys[d]
            if nx < 0 or ny < 0 or nx >= w or ny >= h or (nx == ux and ny == uy):
                continue
            v = index[ny, nx]
            if v < 0:
                v = n
                n += 1
                index[ny, nx] = v
                cells[v, 0] = nx
                cells[v, 1] = ny
                terminal[v] = hit[ny, nx]
            edges[u, d] = v
    return index, cells[:n].copy(), edges[:n].copy(), terminal[:n].copy()


def _graph_search_example():
    edges = np.array([[1, -1], [-1, 0]], dtype=np.int64)
    return (edges, np.ones(2), np.zeros(2, dtype=np.bool_), 0, 1)


@kernel(
    example=_graph_search_example,
    reference=Covered(
        "the readable Dijkstra settles every node; the kernel stops at the target",
        "test_graph_search_matches_a_readable_dijkstra_and_counts_settled_nodes",
    ),
)
def graph_search(edges, cost, terminal, source, target):
    """Least-cost search of P6: lazy binary heap, stale entries skipped, terminals not expanded.

    Entering node v costs ``cost[v]``. ``target < 0`` settles every reachable node. Returns
    ``(dist (n,), parent (n,), expanded)`` where ``expanded`` counts nodes taken off the heap and
    settled (stale entries excluded).
    """
    n, k = edges.shape
    dist = np.full(n, np.inf)
    parent = np.full(n, -1, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    cap = n * k + 1  # at most one push per edge, plus the source
    keys = np.empty(cap, dtype=np.float64)
    nodes = np.empty(cap, dtype=np.int64)
    no_slots = np.empty(0, dtype=np.int64)  # a lazy heap keeps no slot index
    dist[source] = 0.0
    keys[0] = 0.0
    nodes[0] = source
    size = 1
    expanded = 0
    while size > 0:
        du = keys[0]
        u = nodes[0]
        size -= 1
        if size > 0:
            heap_refill_root(keys, nodes, no_slots, size)
        if done[u] or du > dist[u]:
            continue  # stale entry: u was settled through a cheaper push
        done[u] = True
        expanded += 1
        if u == target:
            break
        if terminal[u]:
            continue  # a terminal may end a path, never sit inside one
        for d in range(k):
            v = edges[u, d]
            if v < 0 or done[v]:
                continue
            nd = du + cost[v]
            # An unreached node is taken even at infinite cost (P5 accepts inf costs: the
            # path exists, its total is inf).
            if nd < dist[v] or (parent[v] < 0 and v != source):
                dist[v] = nd
                parent[v] = u
                heap_sift_up(keys, nodes, no_slots, size, nd, v)
                size += 1
    return dist, parent, expanded
