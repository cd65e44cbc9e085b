"""Pathfinding: grid_path against python-tcod and scipy; PathfindingSystem.find against the
``pathfinding`` package's Dijkstra (SPEC J1, issue 4 targets)."""

from __future__ import annotations

import warnings

import numpy as np

from benchmarks import benchmark, compare
from labkit.pathfinding import (
    FOUR_WAY,
    GameMap,
    HeroMover,
    PathfindingSystem,
    TileDef,
    grid_costs,
    grid_path,
)

N = 1024


def _cost_grid(n: int, seed: int = 1) -> tuple[np.ndarray, tuple[int, int], tuple[int, int]]:
    """Integer costs 1-9, 25% blocked; start in the middle, target the reachable cell farthest
    towards the bottom-right corner (so the search settles most of the map)."""
    rng = np.random.default_rng(seed)
    cost = rng.integers(1, 10, size=(n, n)).astype(np.int32)
    cost[rng.random((n, n)) < 0.25] = 0
    start = (n // 2, n // 2)
    cost[start[1], start[0]] = 1
    reach = np.argwhere(np.isfinite(grid_costs(cost, start)))
    ty, tx = reach[np.argmax(reach.sum(axis=1))]
    return cost, start, (int(tx), int(ty))


@benchmark("pathfinding grid_path 1024x1024 vs tcod.path.dijkstra2d")
def bench_grid_vs_tcod():
    import tcod.path

    cost, start, target = _cost_grid(N)
    fcost = cost.astype(np.float64)  # what an analyst's cost field usually is

    def tcod_path():
        dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
        dist[start[1], start[0]] = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
        return dist[target[1], target[0]], tcod.path.hillclimb2d(dist, target[::-1], True, False)

    ours = grid_path(fcost, start, target)
    assert tcod_path()[0] == ours[1]  # the same least total (routes may differ on ties)
    return compare(
        "grid_path 1024^2 25% blocked vs tcod dijkstra2d+hillclimb2d",
        lambda: grid_path(fcost, start, target),
        tcod_path,
        reference="python-tcod (C)",
        target=1.5,
        repeat=5,
        notes=f"total {ours[1]:g}, {len(ours[0])} cells",
    )


@benchmark("pathfinding grid_path 1024x1024 vs scipy csgraph")
def bench_grid_vs_scipy():
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    cost, start, target = _cost_grid(N)
    fcost = cost.astype(np.float64)
    h, w = cost.shape

    def scipy_path():
        # graph construction (4-way edges into open cells) is part of the work
        idx = np.arange(h * w).reshape(h, w)
        open_ = fcost > 0
        rows, cols, vals = [], [], []
        for a, b in (
            (idx[:, :-1], idx[:, 1:]),
            (idx[:, 1:], idx[:, :-1]),
            (idx[:-1, :], idx[1:, :]),
            (idx[1:, :], idx[:-1, :]),
        ):
            keep = open_.ravel()[b.ravel()] & (
                open_.ravel()[a.ravel()] | (a.ravel() == idx[start[1], start[0]])
            )
            rows.append(a.ravel()[keep])
            cols.append(b.ravel()[keep])
            vals.append(fcost.ravel()[b.ravel()[keep]])
        graph = csr_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(h * w,) * 2
        )
        s = start[1] * w + start[0]
        t = target[1] * w + target[0]
        dist, pred = dijkstra(graph, indices=s, return_predecessors=True)
        path = [t]
        while path[-1] != s:
            path.append(pred[path[-1]])
        return dist[t], path

    assert scipy_path()[0] == grid_path(fcost, start, target)[1]
    return compare(
        "grid_path 1024^2 vs scipy csgraph dijkstra (incl. graph construction)",
        lambda: grid_path(fcost, start, target),
        scipy_path,
        reference="scipy.sparse.csgraph",
        target=3.0,
        repeat=5,
        reference_repeat=3,
    )


def _maze_64(seed: int = 2) -> tuple[GameMap, np.ndarray]:
    rng = np.random.default_rng(seed)
    walls = rng.random((64, 64)) < 0.25
    walls[0, 0] = walls[63, 63] = False
    wall = TileDef(1, in_pass=0, out_pass=0, name="wall")
    return GameMap([wall], event=np.where(walls, 1, 0)), walls


@benchmark("pathfinding PathfindingSystem.find 64x64 vs pathfinding package")
def bench_system_vs_pathfinding_package():
    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid
    from pathfinding.finder.dijkstra import DijkstraFinder

    game_map, walls = _maze_64()
    system = PathfindingSystem(face=FOUR_WAY)
    system.use_map_layer(game_map.event_layer)
    system.use_mover(HeroMover(game_map.event_layer, (0, 0)))
    reach = np.argwhere(np.isfinite(grid_costs(np.where(walls, 0, 1), (0, 0))))
    ty, tx = reach[np.argmax(reach.sum(axis=1))]
    target = (int(tx), int(ty))
    matrix = (~walls).astype(int).tolist()  # the package: 1 = walkable

    def theirs():
        grid = Grid(matrix=matrix)
        finder = DijkstraFinder(diagonal_movement=DiagonalMovement.never)
        return finder.find_path(grid.node(0, 0), grid.node(*target), grid)

    ours = system.find((0, 0), target)
    path, _ = theirs()
    assert ours.ok and len(path) == len(ours.path)
    row = compare(
        "PathfindingSystem.find 64x64 (default predicate) vs pathfinding DijkstraFinder",
        lambda: system.find((0, 0), target),
        theirs,
        reference="pathfinding (PyPI)",
        target=10.0,
        repeat=20,
        reference_repeat=5,
    )
    row.notes = f"{1 / row.labkit_s:,.0f} queries/s (pathfinding: {1 / row.reference_s:,.1f}/s)"
    return row
