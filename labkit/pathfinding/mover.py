"""The hero mover (rule P4): one step, its three results, trigger dispatch, recording, replay.

The mover never judges passability itself: it asks its predicate and translates the answer.

Decisions the rules leave open, recorded here:

* Triggers are dispatched as ``(kind, cell)`` with ``kind`` in ``"touch" | "leave" | "enter"``
  to every callable in ``listeners`` and appended to ``events``; a game maps them to the tile's
  OnTouch / OnLeave / OnEnter.
* The settle phase (OnLeave old cell, OnEnter new cell, then the ``on_settle`` hook) runs after
  every step whatever its result, the bounds ``STOP`` included; with ``ignore_terrain`` only
  the hook runs (no enter/leave events).
* ``replay`` steps the recorded directions without recording them again (a replay is not new
  player input).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from labkit._status import Status
from labkit.pathfinding.predicate import DefaultPassPredicate, PassCheck, PassPredicate
from labkit.pathfinding.tiles import Direction, MapLayer

__all__ = ["StepResult", "HeroMover"]

Listener = Callable[[str, tuple[int, int]], None]


class StepResult(Status):
    """Result of one step (P4); ``STOP`` is the internal stop for leaving the map.

    Examples
    --------
    >>> StepResult.HIT == "hit", sorted(StepResult)
    (True, ['cannot_move', 'hit', 'step', 'stop'])
    """

    CANNOT_MOVE = "cannot_move"
    HIT = "hit"
    STEP = "step"
    STOP = "stop"


class HeroMover:
    """Moves the hero one cell at a time on a layer, asking its own predicate.

    Parameters
    ----------
    layer : MapLayer or None
        The layer walked on (its map is handed to the predicate).
    position : (x, y)
    predicate : PassPredicate, optional
        Defaults to a fresh :class:`DefaultPassPredicate` (the mover's own instance).
    ignore_terrain : bool
        Skip the predicate and the touch/leave/enter events (bounds still apply).
    allow_out_bound : bool
        Skip the bounds check too.
    state : object, optional
        Handed to the predicate in every :class:`PassCheck`.

    Examples
    --------
    >>> from labkit.pathfinding import GameMap, TileDef, Direction
    >>> door = TileDef(2, event_pass=False, name="door")
    >>> m = GameMap.from_text(["..D"], {".": None, "D": door})
    >>> hero = HeroMover(m.event_layer, (0, 0))
    >>> hero.step(Direction.RIGHT), hero.step(Direction.RIGHT), hero.position
    ('step', 'hit', (1, 0))
    >>> hero.events[-3:]
    [('touch', (2, 0)), ('leave', (1, 0)), ('enter', (1, 0))]
    """

    def __init__(
        self,
        layer: MapLayer | None = None,
        position: tuple[int, int] = (0, 0),
        *,
        predicate: PassPredicate | None = None,
        ignore_terrain: bool = False,
        allow_out_bound: bool = False,
        state: Any = None,
    ) -> None:
        self.layer = layer
        self.x, self.y = int(position[0]), int(position[1])
        self.predicate: PassPredicate = (
            predicate if predicate is not None else DefaultPassPredicate()
        )
        self.ignore_terrain = ignore_terrain
        self.allow_out_bound = allow_out_bound
        self.state = state
        self.recording: list[Direction] = []
        self.recording_enabled = True
        self.listeners: list[Listener] = []
        self.events: list[tuple[str, tuple[int, int]]] = []
        self.on_settle: Callable[[HeroMover, tuple[int, int], StepResult], None] | None = None

    @property
    def position(self) -> tuple[int, int]:
        return self.x, self.y

    def cannot_enter(self, check: PassCheck) -> None:
        """Hook for the CANNOT_MOVE branch; the default does nothing (no event)."""

    def _fire(self, kind: str, cell: tuple[int, int]) -> None:
        self.events.append((kind, cell))
        for listener in list(self.listeners):
            listener(kind, cell)

    def step(self, direction: Direction, *, record: bool = True) -> StepResult:
        """Try one directional move; see :class:`StepResult`. Recorded before judging."""
        if record and self.recording_enabled:
            self.recording.append(direction)
        before = self.position
        nx, ny = self.x + direction.dx, self.y + direction.dy
        inside = self.layer is not None and self.layer.in_bounds(nx, ny)
        if not inside and not self.allow_out_bound:
            result = StepResult.STOP
        elif self.ignore_terrain:
            self.x, self.y = nx, ny
            result = StepResult.STEP
        else:
            game_map = self.layer.game_map if self.layer is not None else None
            check = PassCheck(before, (nx, ny), direction, game_map, self.state)
            if not self.predicate.can_pass(check):
                self.cannot_enter(check)
                result = StepResult.CANNOT_MOVE
            elif self.predicate.should_hit(check):
                self._fire("touch", (nx, ny))
                result = StepResult.HIT
            else:
                self.x, self.y = nx, ny
                result = StepResult.STEP
        self._settle(before, result)
        return result

    def _settle(self, before: tuple[int, int], result: StepResult) -> None:
        # Runs after every step: "did it move" must be read from the position, not the events.
        if not self.ignore_terrain:
            self._fire("leave", before)
            self._fire("enter", self.position)
        if self.on_settle is not None:
            self.on_settle(self, before, result)

    def script_step(self, direction: Direction) -> StepResult:
        """A move driven by an event script: judged like any step, never recorded."""
        return self.step(direction, record=False)

    def teleport(self, position: tuple[int, int]) -> None:
        """Put the hero on ``position`` directly: no judgement, no events, no recording."""
        self.x, self.y = int(position[0]), int(position[1])

    def replay(self, recording: Iterable[Direction]) -> list[StepResult]:
        """Repeat recorded directional moves (failed attempts included) and return the results."""
        return [self.step(d, record=False) for d in list(recording)]
