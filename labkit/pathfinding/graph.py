"""Graph building (rule P5): the nodes reachable from a start, their edges, costs and terminals.

Decisions the rules leave open, recorded here:

* The start is terminal (never expanded) when the predicate says entering it would hit:
  ``should_hit(PassCheck(start, start, UNKNOWN, ...))``.
* With a custom predicate whose ``should_hit`` depends on the move, a node other than the start
  is terminal when any edge into it says hit (the search then never passes through it, even if
  the builder had already expanded it). The start's flag comes only from the check above: it is
  expanded first, and a later edge bumping back into it cannot make it terminal.
* A cost function is ``cost(x, y) -> float``, a 2-D array indexed ``[y, x]`` or ``None`` (1 per
  cell). Cost 0 is allowed; NaN or negative warn (:class:`CostWarning`, once per node per build)
  and count as 1; +inf is accepted (the search then reports an infinite total).
* The default predicate's rules are evaluated for the whole layer at once (``pass_table``); any
  other predicate is asked once per edge. Both produce the same graph.
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.pathfinding import _kernels
from labkit.pathfinding.predicate import PassCheck, PassPredicate
from labkit.pathfinding.tiles import Direction, DirectionHandler, MapLayer

__all__ = ["CostWarning", "CostFunction", "MapGraph", "MapGraphBuilder"]

CostFunction = Union[Callable[[int, int], float], NDArray[np.floating], None]  # noqa: UP007


class CostWarning(UserWarning):
    """A cost function gave NaN or a negative cost; the cell counts as cost 1."""


@dataclass
class MapGraph:
    """The graph of one build: node 0 is the start; nodes are numbered in BFS order.

    Attributes
    ----------
    index : ndarray (h, w)
        Node number of each cell, -1 for cells not reachable (not in the graph).
    cells : ndarray (n, 2)
        ``(x, y)`` of each node.
    edges : ndarray (n, k)
        ``edges[u, j]`` is the node reached from ``u`` in ``directions[j]``, or -1.
    directions : tuple of Direction
    cost : ndarray (n,)
        Cost of entering each node.
    terminal : ndarray (n,) of bool
        Nodes that may end a path but never sit inside one.

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, DefaultPassPredicate, FOUR_WAY
    >>> m = GameMap([], event=np.zeros((2, 3), dtype=int))
    >>> g = MapGraphBuilder(m.event_layer, DefaultPassPredicate(), FOUR_WAY).build((0, 0))
    >>> isinstance(g, MapGraph), len(g), g.cells[0].tolist()
    (True, 6, [0, 0])
    """

    index: NDArray[np.int64]
    cells: NDArray[np.int64]
    edges: NDArray[np.int64]
    directions: tuple[Direction, ...]
    cost: NDArray[np.float64]
    terminal: NDArray[np.bool_]

    @property
    def start(self) -> tuple[int, int]:
        return int(self.cells[0, 0]), int(self.cells[0, 1])

    def __len__(self) -> int:
        return int(self.cells.shape[0])

    def node(self, x: int, y: int) -> int:
        """Node number of cell ``(x, y)``; -1 if it is outside the map or not in the graph."""
        h, w = self.index.shape
        return int(self.index[y, x]) if 0 <= x < w and 0 <= y < h else -1

    def edge_count(self) -> int:
        return int((self.edges >= 0).sum())


class MapGraphBuilder:
    """Builds the reachable graph from a start, asking the predicate for every edge (P5).

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, DefaultPassPredicate, EIGHT_WAY
    >>> m = GameMap([], event=np.zeros((3, 3), dtype=int))
    >>> g = MapGraphBuilder(m.event_layer, DefaultPassPredicate(), EIGHT_WAY).build((1, 1))
    >>> len(g), int((g.edges[0] >= 0).sum())
    (9, 8)
    >>> MapGraphBuilder(None, DefaultPassPredicate(), EIGHT_WAY).build((1, 1)) is None
    True
    """

    def __init__(
        self,
        layer: MapLayer | None = None,
        predicate: PassPredicate | None = None,
        face: DirectionHandler | None = None,
        cost: CostFunction = None,
        state: Any = None,
    ) -> None:
        self.layer = layer
        self.predicate = predicate
        self.face = face
        self.cost = cost
        self.state = state

    def build(self, start: tuple[int, int]) -> MapGraph | None:
        """The graph reachable from ``start``, or ``None`` if layer, predicate, direction
        handler are missing or ``start`` lies outside the layer."""
        layer, predicate, face = self.layer, self.predicate, self.face
        if layer is None or predicate is None or face is None:
            return None
        sx, sy = int(start[0]), int(start[1])
        if not layer.in_bounds(sx, sy):
            return None
        moves = [(d, off) for d, off in face.movements() if off != (0, 0)]
        directions = tuple(d for d, _ in moves)
        game_map = layer.game_map
        start_hit = bool(
            predicate.should_hit(
                PassCheck((sx, sy), (sx, sy), Direction.UNKNOWN, game_map, self.state)
            )
        )
        table_fn = getattr(predicate, "pass_table", None)
        table = table_fn(game_map, directions) if table_fn is not None else None
        if table is not None:
            can, hit = table
            dxs = np.array([off[0] for _, off in moves], dtype=np.int64)
            dys = np.array([off[1] for _, off in moves], dtype=np.int64)
            index, cells, edges, terminal = _kernels.bfs_graph(
                can, hit, dxs, dys, sx, sy, start_hit
            )
        else:
            index, cells, edges, terminal = self._bfs(layer, predicate, moves, (sx, sy), start_hit)
        return MapGraph(index, cells, edges, directions, self._costs(cells), terminal)

    def _bfs(
        self,
        layer: MapLayer,
        predicate: PassPredicate,
        moves: list[tuple[Direction, tuple[int, int]]],
        start: tuple[int, int],
        start_hit: bool,
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
        """Plain BFS asking ``predicate`` per edge (any predicate, stateful ones included)."""
        h, w = layer.height, layer.width
        index = np.full((h, w), -1, dtype=np.int64)
        index[start[1], start[0]] = 0
        cells: list[tuple[int, int]] = [start]
        edges: list[list[int]] = [[-1] * len(moves)]
        terminal = [start_hit]
        queue = deque([0])
        game_map = layer.game_map
        while queue:
            u = queue.popleft()
            if terminal[u]:
                continue
            ux, uy = cells[u]
            for j, (d, (dx, dy)) in enumerate(moves):
                nx, ny = ux + dx, uy + dy
                if not layer.in_bounds(nx, ny):
                    continue
                check = PassCheck((ux, uy), (nx, ny), d, game_map, self.state)
                if not predicate.can_pass(check):
                    continue  # no edge, no expansion
                hit = bool(predicate.should_hit(check))
                v = int(index[ny, nx])
                if v < 0:
                    v = len(cells)
                    index[ny, nx] = v
                    cells.append((nx, ny))
                    edges.append([-1] * len(moves))
                    terminal.append(hit)
                    queue.append(v)
                elif hit and v != 0:
                    # The start was expanded first: a bump back into it cannot end a path
                    # that begins there. Any other node stays terminal on any hit edge.
                    terminal[v] = True
                edges[u][j] = v
        return (
            index,
            np.array(cells, dtype=np.int64).reshape(-1, 2),
            np.array(edges, dtype=np.int64).reshape(len(cells), len(moves)),
            np.array(terminal, dtype=np.bool_),
        )

    def _costs(self, cells: NDArray[np.int64]) -> NDArray[np.float64]:
        cost = self.cost
        n = cells.shape[0]
        if cost is None:
            return np.ones(n)
        if callable(cost):
            values = np.array([float(cost(int(x), int(y))) for x, y in cells], dtype=np.float64)
        else:
            arr = np.asarray(cost, dtype=np.float64)
            if self.layer is not None and arr.shape != self.layer.tiles.shape:
                raise ArgumentError(
                    f"shape differs from the layer's {self.layer.tiles.shape}",
                    argument="cost",
                    value=arr.shape,
                )
            values = arr[cells[:, 1], cells[:, 0]].copy()
        bad = np.flatnonzero(np.isnan(values) | (values < 0))
        for i in bad:
            x, y = int(cells[i, 0]), int(cells[i, 1])
            warnings.warn(
                f"cost at ({x}, {y}) is {values[i]!r}; using 1", CostWarning, stacklevel=4
            )
        values[bad] = 1.0
        return values
