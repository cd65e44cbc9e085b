"""Least-cost search on a built graph and its result (rule P6).

Decisions the rules leave open, recorded here:

* ``PathResult.path`` is an ``(n, 2)`` array of ``(x, y)`` cells from the start to the target,
  both included (so SUCCESS means ``n >= 2``); ``steps`` gives the ``n - 1`` move directions.
  Any non-SUCCESS result has an empty ``(0, 2)`` path and cost ``inf``.
* ``expanded`` counts the nodes the search settled (stale heap entries are not counted).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit._status import Status
from labkit.pathfinding import _kernels
from labkit.pathfinding.graph import CostFunction, MapGraph, MapGraphBuilder
from labkit.pathfinding.predicate import PassPredicate
from labkit.pathfinding.tiles import Direction, DirectionHandler, MapLayer

__all__ = ["PathfindingStatus", "PathResult", "PathFinder"]


class PathfindingStatus(Status):
    """The four outcomes of ``find`` (P6).

    Examples
    --------
    >>> PathfindingStatus.NO_PATH == "no_path", PathfindingStatus("success")
    (True, 'success')
    """

    SUCCESS = "success"
    INVALID_INPUT = "invalid_input"
    NO_PATH = "no_path"
    TARGET_UNDER = "target_under"


def _no_cells() -> NDArray[np.int64]:
    return np.empty((0, 2), dtype=np.int64)


@dataclass
class PathResult:
    """What ``find`` returns: status, path (start and target included), total cost, work done.

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, DefaultPassPredicate, FOUR_WAY
    >>> m = GameMap([], event=np.zeros((1, 4), dtype=int))
    >>> r = PathFinder(m.event_layer, DefaultPassPredicate(), FOUR_WAY).find((0, 0), (3, 0))
    >>> r.status, r.path.tolist(), r.cost
    ('success', [[0, 0], [1, 0], [2, 0], [3, 0]], 3.0)
    """

    status: PathfindingStatus
    start: tuple[int, int]
    target: tuple[int, int]
    path: NDArray[np.int64] = field(default_factory=_no_cells)
    cost: float = float("inf")
    expanded: int = 0
    graph: MapGraph | None = None
    layer: MapLayer | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.status is PathfindingStatus.SUCCESS

    @property
    def steps(self) -> list[Direction]:
        """The move directions along the path (empty unless SUCCESS)."""
        diffs = np.diff(self.path, axis=0)
        return [Direction.from_offset(int(dx), int(dy)) for dx, dy in diffs]

    def _repr_svg_(self) -> str:
        from labkit.pathfinding import draw

        return draw.result_svg(self)


class PathFinder:
    """Builds a fresh graph for every query and searches it (nothing is cached, P5).

    Holds its own predicate: giving one to the finder does not change the mover's (P7).

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, TileDef, DefaultPassPredicate, FOUR_WAY
    >>> wall = TileDef(1, in_pass=0, out_pass=0)
    >>> m = GameMap.from_text(["...", ".#.", "..."], {".": None, "#": wall})
    >>> finder = PathFinder(m.event_layer, DefaultPassPredicate(), FOUR_WAY)
    >>> r = finder.find((0, 1), (2, 1))
    >>> r.status.name, r.cost, len(r.path)
    ('SUCCESS', 4.0, 5)
    >>> finder.find((0, 1), (0, 1)).status.name
    'TARGET_UNDER'
    """

    def __init__(
        self,
        layer: MapLayer | None = None,
        predicate: PassPredicate | None = None,
        face: DirectionHandler | None = None,
        cost: CostFunction = None,
        state: Any = None,
    ) -> None:
        self.builder = MapGraphBuilder(layer, predicate, face, cost, state)

    @property
    def predicate(self) -> PassPredicate | None:
        return self.builder.predicate

    def use_pass_predicate(self, predicate: PassPredicate | None) -> None:
        self.builder.predicate = predicate

    def search(self, graph: MapGraph, target: tuple[int, int]) -> tuple[NDArray, float, int]:
        """Least-cost path from the graph's start to ``target``: ``(path, cost, expanded)``.

        Reads only node costs and terminal flags. ``path`` is empty and ``cost`` inf when the
        target is not in the graph or not reachable (a terminal never sits inside a path).
        """
        t = graph.node(int(target[0]), int(target[1]))
        if t < 0:
            return _no_cells(), float("inf"), 0
        dist, parent, expanded = _kernels.graph_search(
            graph.edges, graph.cost, graph.terminal, 0, t
        )
        if parent[t] < 0 and t != 0:
            return _no_cells(), float("inf"), int(expanded)
        chain = [t]
        while parent[chain[-1]] >= 0:
            chain.append(int(parent[chain[-1]]))
        return graph.cells[chain[::-1]].copy(), float(dist[t]), int(expanded)

    def find(self, start: tuple[int, int], target: tuple[int, int]) -> PathResult:
        """Build and search; the status follows P6's precedence.

        TARGET_UNDER (start == target, before building) > INVALID_INPUT (no graph) > NO_PATH
        (target outside the map or unreachable) > SUCCESS.
        """
        start = (int(start[0]), int(start[1]))
        target = (int(target[0]), int(target[1]))
        layer = self.builder.layer
        if start == target:
            return PathResult(PathfindingStatus.TARGET_UNDER, start, target, layer=layer)
        graph = self.builder.build(start)
        if graph is None:
            return PathResult(PathfindingStatus.INVALID_INPUT, start, target, layer=layer)
        path, cost, expanded = self.search(graph, target)
        status = PathfindingStatus.SUCCESS if len(path) else PathfindingStatus.NO_PATH
        return PathResult(status, start, target, path, cost, expanded, graph, layer)
