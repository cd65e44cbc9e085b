"""Each kernel of ``labkit.pathfinding._kernels`` against a plain-Python reference.

The heap against ``heapq``; ``bfs_graph`` against the readable BFS of
``tests/kernel_references.py``;
``graph_search`` against a readable Dijkstra (its settled count included); ``grid_search`` and
the bucket queue against a readable Dijkstra with early stop at the target; ``trace_cells`` and
``small_integer_costs`` on hand-worked inputs. Small inputs: these run once per mutant.
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from labkit.pathfinding import _kernels
from tests import kernel_references

# -- heap -------------------------------------------------------------------------------------


def heap_ok(keys, nodes, pos, size, ref):
    """Heap order, the same (key, node) entries as the reference, and (indexed) slots."""
    for i in range(1, size):
        assert keys[(i - 1) // 2] <= keys[i], (i, keys[:size])
    assert sorted(zip(keys[:size].tolist(), nodes[:size].tolist())) == sorted(ref)
    if pos.size:
        for i in range(size):
            assert pos[nodes[i]] == i


@pytest.mark.parametrize("indexed", [False, True], ids=["lazy", "indexed"])
def test_heap_pops_in_heapq_order(indexed):
    rng = np.random.default_rng(41)
    for _ in range(8):
        cap = 40
        keys = np.empty(cap)
        nodes = np.empty(cap, dtype=np.int64)
        pos = np.full(cap, -1, dtype=np.int64) if indexed else np.empty(0, dtype=np.int64)
        size, ref, fresh = 0, [], 0
        for _ in range(60):
            op = rng.random()
            if (op < 0.5 or size == 0) and fresh < cap:
                k = float(rng.integers(0, 12))  # small integers: ties happen
                _kernels.heap_sift_up(keys, nodes, pos, size, k, fresh)
                heapq.heappush(ref, (k, fresh))
                size += 1
                fresh += 1
            elif op < 0.7 and indexed and size > 0:
                # decrease-key: a node in the heap gets a smaller key, sifted from its slot
                i = int(rng.integers(size))
                v, old = int(nodes[i]), float(keys[i])
                k = old - float(rng.integers(1, 6))
                assert pos[v] == i
                _kernels.heap_sift_up(keys, nodes, pos, i, k, v)
                ref.remove((old, v))
                ref.append((k, v))
                heapq.heapify(ref)
            elif size > 0:
                top_key, top_node = float(keys[0]), int(nodes[0])
                want_key = ref[0][0]
                assert top_key == want_key
                ref.remove((top_key, top_node))  # the root is one of the least entries
                heapq.heapify(ref)
                if indexed:
                    pos[top_node] = -1
                size -= 1
                if size > 0:
                    _kernels.heap_refill_root(keys, nodes, pos, size)
            heap_ok(keys, nodes, pos, size, ref)


def test_an_indexed_heap_of_one_node_records_its_slot():
    keys, nodes = np.empty(1), np.empty(1, dtype=np.int64)
    pos = np.full(1, -1, dtype=np.int64)
    _kernels.heap_sift_up(keys, nodes, pos, 0, 2.5, 0)
    assert pos.tolist() == [0] and keys.tolist() == [2.5] and nodes.tolist() == [0]


def test_heap_hand_worked_sift_down_picks_the_smaller_child():
    # heap of 4 after popping key 1: last entry (key 9) goes to the root and sinks
    keys = np.array([1.0, 3.0, 2.0, 9.0])
    nodes = np.array([10, 11, 12, 13], dtype=np.int64)
    pos = np.full(14, -1, dtype=np.int64)
    pos[10:14] = [0, 1, 2, 3]  # a consistent index before the pop
    _kernels.heap_refill_root(keys, nodes, pos, 3)
    assert keys[:3].tolist() == [2.0, 3.0, 9.0] and nodes[:3].tolist() == [12, 11, 13]
    assert pos[12] == 0 and pos[11] == 1 and pos[13] == 2
    # equal keys: the entry stays below its parent
    keys = np.array([5.0, 0.0, 0.0])
    nodes = np.array([1, 0, 0], dtype=np.int64)
    _kernels.heap_sift_up(keys, nodes, np.empty(0, dtype=np.int64), 1, 5.0, 2)
    assert nodes[:2].tolist() == [1, 2]


# -- trace_cells, small_integer_costs ---------------------------------------------------------


def test_trace_cells_walks_parents_back_to_the_start():
    # width 3: cell c is (c % 3, c // 3). Chain 4 <- 1 <- 0 (start), others unreached.
    parent = np.array([-1, 0, -1, -1, 1, -1], dtype=np.int64)
    assert _kernels.trace_cells(parent, 4, 3).tolist() == [[0, 0], [1, 0], [1, 1]]
    assert _kernels.trace_cells(parent, 0, 3).tolist() == [[0, 0]]
    parent = np.array([-1, 5, -1, 2, -1, 3], dtype=np.int64)  # 1 <- 5 <- 3 <- 2 (start)
    assert _kernels.trace_cells(parent, 1, 2).tolist() == [[0, 1], [1, 1], [1, 2], [1, 0]]


def test_small_integer_costs_bounds():
    f = _kernels.small_integer_costs
    assert f(np.array([[255.0, 1.0]])) == 255  # 255 is still small
    assert f(np.array([[255.5]])) == -1
    assert f(np.array([[256.0, 1.0]])) == -1
    assert f(np.array([[2.0, 7.0, 3.0]])) == 7  # the largest, not the last
    assert f(np.array([[0.0, -3.0, np.inf, np.nan]])) == 0  # all blocked: nothing to bound
    assert f(np.array([[0.5, 2.0]])) == -1  # a fraction below 1 is still a fraction
    assert f(np.array([[-2.5, 4.0]])) == 4  # blocked cells are not looked at
    assert isinstance(f(np.array([[3.0]])), int)


# -- grid searches ----------------------------------------------------------------------------

MOVES4 = [(0, -1), (1, 0), (0, 1), (-1, 0)]
MOVES8 = MOVES4 + [(1, -1), (1, 1), (-1, 1), (-1, -1)]


def is_open(cost, x, y):
    h, w = cost.shape
    return 0 <= x < w and 0 <= y < h and bool(cost[y, x] > 0 and cost[y, x] != np.inf)


def reference_grid(cost, start, diagonal):
    """Readable Dijkstra: entering a cell costs its value; diagonals need both sides open."""
    h, w = cost.shape
    dist = {start: 0.0}
    heap = [(0.0, start)]
    done = set()
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) in done:
            continue
        done.add((x, y))
        for dx, dy in MOVES8 if diagonal else MOVES4:
            nx, ny = x + dx, y + dy
            if not is_open(cost, nx, ny) or (nx, ny) in done:
                continue
            if dx and dy and not (is_open(cost, nx, y) and is_open(cost, x, ny)):
                continue
            nd = d + float(cost[ny, nx])
            if nd < dist.get((nx, ny), np.inf):
                dist[(nx, ny)] = nd
                heapq.heappush(heap, (nd, (nx, ny)))
    out = np.full((h, w), np.inf)
    for (x, y), d in dist.items():
        out[y, x] = d
    return out


def check_parents(cost, dist, parent, start, diagonal, reached):
    """Every reached cell's parent is one legal move away and explains its distance."""
    h, w = cost.shape
    for y in range(h):
        for x in range(w):
            c = y * w + x
            if (x, y) == start or not reached[y, x]:
                assert parent[c] == -1, (x, y)
                continue
            p = int(parent[c])
            px, py = p % w, p // w
            dx, dy = x - px, y - py
            assert (dx, dy) in (MOVES8 if diagonal else MOVES4)
            if dx and dy:
                assert is_open(cost, px + dx, py) and is_open(cost, px, py + dy)
            assert dist[y, x] == pytest.approx(dist[py, px] + cost[y, x])


def small_grid(rng, integer):
    h, w = (int(v) for v in rng.integers(2, 7, size=2))
    cost = rng.integers(1, 6, size=(h, w)).astype(float)
    if not integer:
        cost = rng.uniform(0.5, 4.0, size=(h, w))
    blocked = rng.random((h, w)) < 0.25
    cost[blocked] = rng.choice([0.0, -1.0, np.inf, np.nan], size=(h, w))[blocked]
    return cost


@pytest.mark.parametrize("diagonal", [False, True], ids=["4way", "8way"])
@pytest.mark.parametrize("queue", ["heap", "buckets"])
def test_grid_kernels_match_a_readable_dijkstra(queue, diagonal):
    rng = np.random.default_rng(43)
    for _ in range(12):
        cost = small_grid(rng, integer=queue == "buckets")
        h, w = cost.shape
        start = (int(rng.integers(w)), int(rng.integers(h)))
        want = reference_grid(cost, start, diagonal)
        for target in [(-1, -1), (int(rng.integers(w)), int(rng.integers(h)))]:
            if queue == "heap":
                dist, parent = _kernels.grid_search(cost, *start, *target, diagonal)
            else:
                dist, parent = _kernels.grid_search_buckets(cost, *start, *target, diagonal, 5)
            if target[0] < 0:
                np.testing.assert_array_equal(dist, want)
                check_parents(cost, dist, parent, start, diagonal, np.isfinite(want))
            else:
                tx, ty = target
                assert dist[ty, tx] == want[ty, tx]
                if np.isfinite(want[ty, tx]):
                    cells = _kernels.trace_cells(parent, ty * w + tx, w).tolist()
                    assert tuple(cells[0]) == start and tuple(cells[-1]) == target
                    entered = sum(cost[y, x] for x, y in cells[1:])
                    assert entered == pytest.approx(want[ty, tx])


@pytest.mark.parametrize("queue", ["heap", "buckets"])
def test_grid_search_stops_once_the_target_is_settled(queue):
    """A corridor from one end: with a target next to the start the far cells are never
    settled, so they stay unreached (the search stops) -- in a row and in a column (tx = 0)."""

    def search(cost, *args):
        if queue == "heap":
            return _kernels.grid_search(cost, *args)
        return _kernels.grid_search_buckets(cost, *args, 1)

    dist, _ = search(np.ones((1, 5)), 0, 0, 1, 0, False)
    assert dist[0, :2].tolist() == [0.0, 1.0] and np.isinf(dist[0, 3:]).all()
    dist, _ = search(np.ones((5, 1)), 0, 0, 0, 1, False)
    assert dist[:2, 0].tolist() == [0.0, 1.0] and np.isinf(dist[3:, 0]).all()
    # tx < 0 settles everything, whatever ty says
    dist, _ = search(np.ones((5, 1)), 0, 0, -1, 1, False)
    assert dist[:, 0].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("diagonal", [False, True], ids=["4way", "8way"])
def test_uniform_cost_one_distances_are_step_counts(diagonal):
    """All costs 1 (the bucket queue's smallest case, top = 1): the distance is the number of
    steps, Manhattan (4-way) or Chebyshev (8-way, nothing to cut around)."""
    h, w = 4, 5
    ys, xs = np.mgrid[0:h, 0:w]
    start = (1, 2)
    dx, dy = np.abs(xs - start[0]), np.abs(ys - start[1])
    want = np.maximum(dx, dy) if diagonal else dx + dy
    heap, _ = _kernels.grid_search(np.ones((h, w)), *start, -1, -1, diagonal)
    buckets, _ = _kernels.grid_search_buckets(np.ones((h, w)), *start, -1, -1, diagonal, 1)
    np.testing.assert_array_equal(heap, want)
    np.testing.assert_array_equal(buckets, want)


def test_an_all_blocked_grid_reaches_only_the_start():
    cost = np.zeros((2, 3))  # nothing open: small_integer_costs gives top = 0
    assert _kernels.small_integer_costs(cost) == 0
    for dist, parent in (
        _kernels.grid_search(cost, 1, 0, -1, -1, True),
        _kernels.grid_search_buckets(cost, 1, 0, -1, -1, True, 0),
    ):
        assert dist.tolist() == [[np.inf, 0.0, np.inf], [np.inf, np.inf, np.inf]]
        assert parent.tolist() == [-1] * 6


# -- object-level graph -----------------------------------------------------------------------


def test_bfs_graph_matches_a_readable_bfs():
    rng = np.random.default_rng(47)
    offsets = np.array([(0, -1), (1, 0), (0, 1), (-1, 0), (1, 1), (0, 0), (-1, -1)])
    for _ in range(30):
        h, w = (int(v) for v in rng.integers(1, 6, size=2))
        k = int(rng.integers(1, len(offsets) + 1))
        pick = rng.permutation(len(offsets))[:k]
        dxs, dys = offsets[pick, 0].copy(), offsets[pick, 1].copy()
        can = rng.random((h, w, k)) < 0.7
        hit = rng.random((h, w)) < 0.2
        sx, sy = int(rng.integers(w)), int(rng.integers(h))
        start_terminal = bool(rng.random() < 0.15)
        got = _kernels.bfs_graph(can, hit, dxs, dys, sx, sy, start_terminal)
        want = kernel_references.bfs_graph(can, hit, dxs, dys, sx, sy, start_terminal)
        # node numbers and cells are integers, terminal flags booleans (MapGraph's arrays)
        assert [a.dtype for a in got] == [np.int64, np.int64, np.int64, np.bool_]
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        np.testing.assert_array_equal(got[2], want[2])
        assert got[3].tolist() == want[3]


def test_bfs_graph_hand_worked_row_with_a_door():
    # 1x4 row, moves right/left; (2, 0) is a hit cell: edge to it, never expanded past it
    can = np.ones((1, 4, 2), dtype=np.bool_)
    hit = np.array([[False, False, True, False]])
    dxs, dys = np.array([1, -1]), np.array([0, 0])
    index, cells, edges, terminal = _kernels.bfs_graph(can, hit, dxs, dys, 0, 0, False)
    assert index.tolist() == [[0, 1, 2, -1]]
    assert cells.tolist() == [[0, 0], [1, 0], [2, 0]]
    assert edges.tolist() == [[1, -1], [2, 0], [-1, -1]]
    assert terminal.tolist() == [False, False, True]
    index, cells, edges, terminal = _kernels.bfs_graph(can, hit, dxs, dys, 0, 0, True)
    assert (
        cells.tolist() == [[0, 0]] and edges.tolist() == [[-1, -1]] and terminal.tolist() == [True]
    )


def reference_dijkstra(edges, cost, terminal, source):
    """Every reachable node's least cost (terminals end paths, never sit inside them)."""
    dist = {source: 0.0}
    heap, done = [(0.0, source)], set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if terminal[u]:
            continue
        for v in edges[u]:
            v = int(v)
            if v >= 0 and v not in done and (d + cost[v] < dist.get(v, np.inf) or v not in dist):
                dist[v] = d + cost[v]
                heapq.heappush(heap, (dist[v], v))
    return dist


def random_graph(rng):
    n, k = int(rng.integers(1, 12)), int(rng.integers(1, 5))
    edges = np.where(rng.random((n, k)) < 0.6, rng.integers(0, n, size=(n, k)), -1)
    terminal = rng.random(n) < 0.2
    terminal[0] = False
    return edges.astype(np.int64), terminal


def test_graph_search_matches_a_readable_dijkstra_and_counts_settled_nodes():
    rng = np.random.default_rng(53)
    for _ in range(40):
        edges, terminal = random_graph(rng)
        n = len(edges)
        cost = rng.uniform(0.5, 3.0, size=n)  # continuous: no ties between totals
        want = reference_dijkstra(edges, cost, terminal, 0)
        dist, parent, expanded = _kernels.graph_search(edges, cost, terminal, 0, -1)
        assert expanded == len(want)  # settle everything: each reachable node once
        for v in range(n):
            if v in want:
                assert dist[v] == pytest.approx(want[v])
                if v != 0:
                    p = int(parent[v])
                    assert v in edges[p].tolist() and not terminal[p]
                    assert dist[v] == pytest.approx(dist[p] + cost[v])
            else:
                assert dist[v] == np.inf and parent[v] == -1
        assert parent[0] == -1
        for t in want:
            dist, parent, expanded = _kernels.graph_search(edges, cost, terminal, 0, t)
            assert dist[t] == pytest.approx(want[t])
            # nodes cheaper than the target are settled first, then the target itself
            assert expanded == 1 + sum(1 for d in want.values() if d < want[t])


def test_graph_search_reaches_nodes_of_infinite_cost():
    # 0 -> 1 (cost inf) -> 2: both reached, their totals inf, the chain kept in parent
    edges = np.array([[1], [2], [-1]], dtype=np.int64)
    cost = np.array([1.0, np.inf, 2.0])
    dist, parent, expanded = _kernels.graph_search(edges, cost, np.zeros(3, np.bool_), 0, 2)
    assert dist.tolist() == [0.0, np.inf, np.inf] and parent.tolist() == [-1, 0, 1]
    assert expanded == 3
    # an edge back into the source never re-parents it
    edges = np.array([[1], [0]], dtype=np.int64)
    dist, parent, _ = _kernels.graph_search(
        edges, np.array([np.inf, 1.0]), np.zeros(2, np.bool_), 0, -1
    )
    assert parent.tolist() == [-1, 0] and dist.tolist() == [0.0, 1.0]


def test_graph_search_from_another_source_and_on_a_single_node():
    # 2 -> 1 -> 0: searching from node 2 reaches node 0 too
    edges = np.array([[-1], [0], [1]], dtype=np.int64)
    dist, parent, expanded = _kernels.graph_search(
        edges, np.array([1.0, 2.0, 4.0]), np.zeros(3, np.bool_), 2, -1
    )
    assert dist.tolist() == [3.0, 2.0, 0.0] and parent.tolist() == [1, 2, -1] and expanded == 3
    # one node, one (empty) neighbour slot: the source alone
    dist, parent, expanded = _kernels.graph_search(
        np.array([[-1]], dtype=np.int64), np.ones(1), np.zeros(1, np.bool_), 0, -1
    )
    assert dist.tolist() == [0.0] and parent.tolist() == [-1] and expanded == 1
