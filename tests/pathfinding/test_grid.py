"""Fast grid search (SPEC J1, P0): differential test against scipy's csgraph Dijkstra."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from labkit.pathfinding import _kernels, grid_costs, grid_path

CARDINAL = [(0, -1), (1, 0), (0, 1), (-1, 0)]
DIAGONAL = [(1, -1), (1, 1), (-1, 1), (-1, -1)]


def open_cell(cost: np.ndarray, x: int, y: int) -> bool:
    h, w = cost.shape
    return 0 <= x < w and 0 <= y < h and bool(np.isfinite(cost[y, x]) and cost[y, x] > 0)


def reference_costs(cost: np.ndarray, start: tuple[int, int], diagonal: bool) -> np.ndarray:
    """Readable reference: build the move graph explicitly and run scipy's Dijkstra."""
    h, w = cost.shape
    rows, cols, weights = [], [], []
    moves = CARDINAL + (DIAGONAL if diagonal else [])
    for y in range(h):
        for x in range(w):
            if not open_cell(cost, x, y) and (x, y) != tuple(start):
                continue  # blocked cells are never left (only the start is always usable)
            for dx, dy in moves:
                nx, ny = x + dx, y + dy
                if not open_cell(cost, nx, ny):
                    continue
                if dx and dy and not (open_cell(cost, nx, y) and open_cell(cost, x, ny)):
                    continue  # no corner cutting
                rows.append(y * w + x)
                cols.append(ny * w + nx)
                weights.append(float(cost[ny, nx]))
    graph = coo_matrix((weights, (rows, cols)), shape=(h * w, h * w)).tocsr()
    dist = dijkstra(graph, directed=True, indices=start[1] * w + start[0])
    return dist.reshape(h, w)


def random_grid(rng: np.random.Generator, h: int, w: int, blocked: float) -> np.ndarray:
    cost = rng.integers(1, 10, size=(h, w)).astype(float)
    if rng.random() < 0.5:
        cost = rng.uniform(0.1, 5.0, size=(h, w))
    mask = rng.random((h, w)) < blocked
    kinds = rng.choice([0.0, -1.0, np.inf, np.nan], size=(h, w))
    cost[mask] = kinds[mask]
    return cost


def check_path(cost, path, start, target, total, diagonal):
    assert tuple(path[0]) == tuple(start) and tuple(path[-1]) == tuple(target)
    entered = 0.0
    for (x0, y0), (x1, y1) in zip(path[:-1], path[1:]):
        dx, dy = int(x1 - x0), int(y1 - y0)
        assert (dx, dy) in CARDINAL + (DIAGONAL if diagonal else [])
        assert open_cell(cost, x1, y1)
        if dx and dy:
            assert open_cell(cost, x1, y0) and open_cell(cost, x0, y1)
        entered += cost[y1, x1]
    assert entered == pytest.approx(total)


@pytest.mark.parametrize("diagonal", [False, True])
def test_grid_matches_scipy_on_random_grids(diagonal):
    rng = np.random.default_rng(20240403)
    for case in range(60):
        h, w = rng.integers(1, 14, size=2)
        cost = random_grid(rng, int(h), int(w), blocked=rng.uniform(0.0, 0.5))
        start = (int(rng.integers(w)), int(rng.integers(h)))
        expected = reference_costs(cost, start, diagonal)
        got = grid_costs(cost, start, diagonal=diagonal)
        np.testing.assert_allclose(got, expected, err_msg=f"case {case}")
        for _ in range(3):
            target = (int(rng.integers(w)), int(rng.integers(h)))
            path, total = grid_path(cost, start, target, diagonal=diagonal)
            want = expected[target[1], target[0]]
            if np.isinf(want):
                assert total == np.inf and path.shape == (0, 2)
            else:
                assert total == pytest.approx(want)
                check_path(cost, path, start, target, total, diagonal)


def test_kernels_match_their_py_func():
    rng = np.random.default_rng(7)
    cost = random_grid(rng, 9, 11, 0.3)
    icost = rng.integers(1, 6, size=(9, 11)).astype(float)
    icost[rng.random((9, 11)) < 0.3] = 0
    for diagonal in (False, True):
        fast = _kernels.grid_search(cost, 2, 3, -1, -1, diagonal)
        slow = _kernels.grid_search.py_func(cost, 2, 3, -1, -1, diagonal)
        np.testing.assert_array_equal(fast[0], slow[0])
        np.testing.assert_array_equal(fast[1], slow[1])
        fast = _kernels.grid_search_buckets(icost, 2, 3, -1, -1, diagonal, 5)
        slow = _kernels.grid_search_buckets.py_func(icost, 2, 3, -1, -1, diagonal, 5)
        np.testing.assert_array_equal(fast[0], slow[0])
        np.testing.assert_array_equal(fast[1], slow[1])


def test_integer_and_float_queues_agree():
    """Small integer costs take the bucket queue; the heap must give the same totals."""
    rng = np.random.default_rng(11)
    for _ in range(20):
        cost = rng.integers(1, 200, size=(12, 9)).astype(float)
        cost[rng.random(cost.shape) < 0.25] = 0
        assert _kernels.small_integer_costs(cost) >= 0
        for diagonal in (False, True):
            heap = _kernels.grid_search(cost, 4, 6, -1, -1, diagonal)[0]
            buckets = _kernels.grid_search_buckets(cost, 4, 6, -1, -1, diagonal, 199)[0]
            np.testing.assert_array_equal(heap, buckets)
    assert _kernels.small_integer_costs(np.array([[1.0, 1.5]])) == -1
    assert _kernels.small_integer_costs(np.array([[1.0, 256.0]])) == -1
    assert _kernels.small_integer_costs(np.array([[3.0, np.inf, -2.0, np.nan]])) == 3


def test_start_is_free_and_usable_even_if_blocked():
    cost = np.array([[0.0, 2.0, 3.0]])
    path, total = grid_path(cost, (0, 0), (2, 0))
    assert total == 5.0 and path.tolist() == [[0, 0], [1, 0], [2, 0]]


def test_same_cell_is_a_one_point_path_of_cost_zero():
    path, total = grid_path(np.ones((2, 2)), (1, 1), (1, 1))
    assert path.tolist() == [[1, 1]] and total == 0.0


def test_no_path_and_out_of_bounds_target_give_empty_path_and_inf():
    cost = np.ones((3, 3))
    cost[:, 1] = np.inf
    for target in [(2, 2), (5, 0), (-1, 0)]:
        path, total = grid_path(cost, (0, 0), target)
        assert path.shape == (0, 2) and path.dtype == np.int64 and total == np.inf


def test_blocked_target_is_unreachable():
    cost = np.ones((1, 3))
    cost[0, 2] = -4
    assert grid_path(cost, (0, 0), (2, 0))[1] == np.inf


def test_diagonal_does_not_cut_corners():
    cost = np.ones((2, 2))
    cost[0, 1] = 0  # one of the two cells beside the diagonal is a wall
    path, total = grid_path(cost, (0, 0), (1, 1), diagonal=True)
    assert total == 2.0 and len(path) == 3
    assert grid_path(np.ones((2, 2)), (0, 0), (1, 1), diagonal=True)[1] == 1.0


def test_points_are_x_then_y():
    cost = np.ones((2, 5))  # 2 rows, 5 columns
    path, total = grid_path(cost, (0, 0), (4, 1))
    assert total == 5.0 and tuple(path[-1]) == (4, 1)


@pytest.mark.parametrize(
    "cost, start, message",
    [
        (np.ones(3), (0, 0), "2-D"),
        (np.ones((0, 3)), (0, 0), "non-empty"),
        (np.array([["a"]]), (0, 0), "numbers"),
        (np.ones((2, 2)), (2, 0), "outside"),
        (np.ones((2, 2)), (0,), "pair"),
    ],
)
def test_bad_input_is_named(cost, start, message):
    with pytest.raises(ValueError, match=message):
        grid_path(cost, start, (0, 0))


def test_every_kernel_example_runs_like_its_reference():
    """``labkit warmup`` calls each kernel on its example: they must be valid inputs."""
    from labkit import _jit

    for k in _jit.REGISTRY.values():
        if k.module != "labkit.pathfinding._kernels":
            continue
        args = k.example()
        fast, slow = k.dispatcher(*args), k.dispatcher.py_func(*k.example())
        for a, b in zip(
            fast if isinstance(fast, tuple) else (fast,),
            slow if isinstance(slow, tuple) else (slow,),
        ):
            np.testing.assert_array_equal(a, b)
