"""The pathfinding system (rule P7): binds mover, layer, predicate, direction handler and costs.

Decisions the rules leave open, recorded here:

* Moves are driven synchronously: ``move_to(target)`` returns a :class:`Walk` that has already
  run (``run=False`` returns it unstarted; call ``advance()`` per animation tick). While a walk
  is unfinished, ``move_to``/``teleport_to`` return ``None`` (a listener reacting to an event
  mid-walk cannot take over), and ``interrupt()`` ends it.
* Walk steps are the hero's directional moves, so the mover records them. A walk ends at the
  first step that is not ``STEP`` (the mover stops), e.g. the final HIT on a terminal target.
* ``teleport_policy(system, result) -> bool`` decides; when it allows, the hero is put on the
  path's last cell without events, and ``teleport_hook(system, result)`` runs (to trigger what
  the skipped cells should). When the last cell is a terminal (a hit target) the hero lands
  beside it and the final step goes through the mover, so the hit still happens.
* The system belongs to ``state`` (taken from the first layer bound when not given); a layer
  of another state warns (:class:`LayerWarning`) and is ignored.
* Binding a layer (a floor change) also moves the bound mover onto it, so the walk is judged on
  the floor its path was searched on; ``use_mover`` leaves the mover's own layer as it is.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from labkit.pathfinding.finder import PathFinder, PathfindingStatus, PathResult
from labkit.pathfinding.graph import CostFunction
from labkit.pathfinding.mover import HeroMover, StepResult
from labkit.pathfinding.predicate import DefaultPassPredicate, PassPredicate
from labkit.pathfinding.tiles import FOUR_WAY, Direction, DirectionHandler, MapLayer

__all__ = ["LayerWarning", "Walk", "PathfindingSystem"]


class LayerWarning(UserWarning):
    """A layer of another map/state instance was offered to the system and ignored."""


@dataclass
class Walk:
    """One automatic move: the path searched, the steps taken and how it ended.

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, HeroMover, PathfindingSystem
    >>> m = GameMap.from_text(["...."], {".": None})
    >>> system = PathfindingSystem()
    >>> system.use_map_layer(m.event_layer)
    >>> system.use_mover(HeroMover(m.event_layer, (0, 0)))
    >>> walk = system.move_to((3, 0), run=False)  # unstarted: one step per animation tick
    >>> [d.name for d in walk.steps], walk.advance().name, system.mover.position
    (['RIGHT', 'RIGHT', 'RIGHT'], 'STEP', (1, 0))
    >>> system.move_to((0, 0)) is None          # a walk is running: no second one
    True
    >>> walk.run().finished, walk.arrived, len(walk.results)
    (True, True, 3)
    """

    system: PathfindingSystem = field(repr=False)
    result: PathResult
    steps: list[Direction]
    results: list[StepResult] = field(default_factory=list)
    finished: bool = False
    interrupted: bool = False
    teleported: bool = False

    @property
    def arrived(self) -> bool:
        mover = self.system.mover
        return mover is not None and mover.position == self.result.target

    def advance(self) -> StepResult | None:
        """Hand the next step to the mover; ``None`` once the walk is over."""
        mover = self.system.mover
        if self.finished or mover is None or len(self.results) >= len(self.steps):
            self.finished = True
            return None
        outcome = mover.step(self.steps[len(self.results)])
        self.results.append(outcome)
        if outcome is not StepResult.STEP or len(self.results) == len(self.steps):
            self.finished = True
        return outcome

    def run(self) -> Walk:
        while not self.finished:
            self.advance()
        return self


class PathfindingSystem:
    """The object API: ``find``, ``get_path``, ``move_to``, ``teleport_to``, ``interrupt``.

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, TileDef, HeroMover
    >>> wall = TileDef(1, in_pass=0, out_pass=0)
    >>> m = GameMap.from_text(["....", ".##.", "...."], {".": None, "#": wall})
    >>> system = PathfindingSystem()
    >>> system.get_path((3, 2)).status.name          # no layer bound yet
    'INVALID_INPUT'
    >>> system.use_map_layer(m.event_layer)
    >>> system.use_mover(HeroMover(m.event_layer, (0, 1)))
    >>> r = system.get_path((3, 1))
    >>> r.status.name, r.cost
    ('SUCCESS', 5.0)
    >>> walk = system.move_to((3, 1))
    >>> walk.arrived, system.mover.position
    (True, (3, 1))
    """

    def __init__(
        self,
        *,
        predicate: PassPredicate | None = None,
        face: DirectionHandler | None = FOUR_WAY,
        cost: CostFunction = None,
        state: Any = None,
    ) -> None:
        self.state = state
        self.finder = PathFinder(
            None, predicate if predicate is not None else DefaultPassPredicate(), face, cost
        )
        self.mover: HeroMover | None = None
        self.teleport_policy: Callable[[PathfindingSystem, PathResult], bool] | None = None
        self.teleport_hook: Callable[[PathfindingSystem, PathResult], None] | None = None
        self._walk: Walk | None = None

    # -- binding ---------------------------------------------------------------------------
    @property
    def layer(self) -> MapLayer | None:
        return self.finder.builder.layer

    @property
    def predicate(self) -> PassPredicate | None:
        return self.finder.predicate

    @property
    def face(self) -> DirectionHandler | None:
        return self.finder.builder.face

    def use_mover(self, mover: HeroMover | None) -> None:
        self.mover = mover

    def use_map_layer(self, layer: MapLayer | None) -> None:
        """Bind the layer to search (a floor change binds the new one); see module notes."""
        if layer is not None:
            owner = layer.game_map.state if layer.game_map is not None else None
            if self.state is not None and owner is not self.state:
                warnings.warn(
                    f"layer {layer.name!r} belongs to another map/state instance; ignored",
                    LayerWarning,
                    stacklevel=2,
                )
                return
            if self.state is None:
                self.state = owner
        self.finder.builder.layer = layer
        self.finder.builder.state = self.state
        if layer is not None and self.mover is not None:
            # The hero walks the floor the path was searched on: an old layer is never used.
            self.mover.layer = layer

    def use_predicate(self, predicate: PassPredicate | None) -> None:
        """The finder's predicate only: the mover keeps its own (give both the same one)."""
        self.finder.use_pass_predicate(predicate)

    def use_face_handler(self, face: DirectionHandler | None) -> None:
        self.finder.builder.face = face

    def use_cost(self, cost: CostFunction) -> None:
        self.finder.builder.cost = cost

    # -- queries ---------------------------------------------------------------------------
    def find(self, start: tuple[int, int], target: tuple[int, int]) -> PathResult:
        """Search from ``start`` to ``target`` on the bound layer (see :class:`PathFinder`)."""
        return self.finder.find(start, target)

    def get_path(self, target: tuple[int, int]) -> PathResult:
        """``find`` from the mover's cell; INVALID_INPUT without a mover."""
        if self.mover is None:
            target = (int(target[0]), int(target[1]))
            return PathResult(PathfindingStatus.INVALID_INPUT, (-1, -1), target)
        return self.find(self.mover.position, target)

    # -- moving ----------------------------------------------------------------------------
    @property
    def moving(self) -> bool:
        return self._walk is not None and not self._walk.finished

    def interrupt(self) -> None:
        """Stop the automatic move in progress (if any)."""
        walk = self._walk
        if walk is not None and not walk.finished:
            walk.interrupted = True
            walk.finished = True

    def _start(self, target: tuple[int, int]) -> Walk | None:
        if self.moving:
            return None
        result = self.get_path(target)
        walk = Walk(self, result, result.steps if result.ok else [])
        walk.finished = not result.ok
        self._walk = walk
        return walk

    def move_to(self, target: tuple[int, int], *, run: bool = True) -> Walk | None:
        """Walk to ``target`` step by step through the mover; ``None`` while a move runs."""
        walk = self._start(target)
        if walk is not None and run:
            walk.run()
        return walk

    def teleport_to(self, target: tuple[int, int], *, run: bool = True) -> Walk | None:
        """Jump to the path's end when ``teleport_policy`` allows, else walk like ``move_to``."""
        walk = self._start(target)
        if walk is None or walk.finished:
            return walk
        result = walk.result
        if self.teleport_policy is None or not self.teleport_policy(self, result):
            return walk.run() if run else walk
        graph = result.graph
        last = graph.node(*result.target) if graph is not None else -1
        hits_last = graph is not None and last >= 0 and bool(graph.terminal[last])
        land = result.path[-2] if hits_last else result.path[-1]
        # A walk that is not finished came from an ok search, and get_path only searches
        # (ok or not) when a mover is bound.
        assert self.mover is not None, "teleport without a mover: get_path should have failed"
        self.mover.teleport((int(land[0]), int(land[1])))
        walk.teleported = True
        # Only the final hit (if any) remains to be walked.
        walk.steps = walk.steps[-1:] if hits_last else []
        walk.finished = not hits_last
        if self.teleport_hook is not None:
            self.teleport_hook(self, result)
        return walk.run() if run else walk
