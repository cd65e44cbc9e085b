"""Playing a level: taps, queued taps, rotation, undo and restart (rule H6).

Decisions the rules leave open
------------------------------
* An *action* is one :meth:`~PuzzleState.tap`, one :meth:`~PuzzleState.tap_queue` (the whole
  queue) or one :meth:`~PuzzleState.rotate`; :meth:`~PuzzleState.undo` reverts the last action
  exactly (board orientation, tiles, steps, rotation count). Restart is not an action: it
  returns to a freshly loaded state and clears the undo history.
* A queued tap on a tile that has already left (the same tile queued twice) is dropped without
  cost, like a tap on an empty cell. A queue also stops when the steps run out.
* When the game is over (won or lost) taps and rotations raise :class:`PuzzleError`; undo and
  restart still work.
* Rotating a level that cannot rotate (H3) raises :class:`PuzzleError`.

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=3)
>>> game = PuzzleState(lvl)
>>> game.tap("a").outcome, game.steps_left, game.status
('blocked', 2, 'playing')
>>> [t.outcome for t in game.tap_queue(["b", "a"])], game.status
(['exit', 'exit'], 'won')
>>> game.undo(); game.remaining
('a', 'b')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError, LabkitError
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.status import GameStatus
from labkit.hexpuzzle.tap_trace import TapTrace, trace_tap

__all__ = ["PuzzleError", "PuzzleState", "Snapshot"]


class PuzzleError(LabkitError):
    """An action the rules do not allow now (tap after the game ended, rotating a fixed board)."""


@dataclass(frozen=True)
class Snapshot:
    """Everything undo restores: orientation, rotations made, steps used, tiles left.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> game = PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 0)]))
    >>> snap = game.snapshot()
    >>> snap.remaining, snap == PuzzleState(game.original).snapshot()
    (('a',), True)
    """

    orientation: int
    rotations: int
    steps_used: int
    remaining: tuple[str, ...]


class PuzzleState:
    """A game in progress on ``level`` (the original level; never a rotated intermediate).

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> game = PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 0)], move_limit=3))
    >>> game.tap("a").outcome, game.status, game.steps_left
    ('exit', 'won', 2)
    >>> game.undo(); game.status, game.remaining
    ('playing', ('a',))
    """

    def __init__(self, level: Level) -> None:
        self.original = level
        self.hints_used = 0  # counted by labkit.hexpuzzle.solving.hints; restart sets it back to 0
        self._history: list[Snapshot] = []
        self._restore(Snapshot(0, 0, 0, tuple(t.id for t in level.tiles)))
        self.last_traces: list[TapTrace] = []

    def __setstate__(self, state: dict[str, object]) -> None:
        # copy and pickle rebuild arrays writeable: the copy hands its mask out read-only again
        self.__dict__.update(state)
        self._active.flags.writeable = False

    # --- state ----------------------------------------------------------------------------
    def _restore(self, snap: Snapshot) -> None:
        self.orientation = snap.orientation
        self.rotations = snap.rotations
        self.steps_used = snap.steps_used
        left = set(snap.remaining)
        self._active: NDArray[np.bool_] = np.array(
            [t.id in left for t in self.original.tiles], dtype=np.bool_
        )
        self._active.flags.writeable = False

    @property
    def active(self) -> NDArray[np.bool_]:
        """Which of the level's tiles are still on the board, in level order (read-only)."""
        return self._active

    def snapshot(self) -> Snapshot:
        """The current state as an immutable value (equal states give equal snapshots)."""
        return Snapshot(self.orientation, self.rotations, self.steps_used, self.remaining)

    @property
    def level(self) -> Level:
        """The level at the current orientation, with all original tiles (see ``remaining``)."""
        return self.original.rotated(self.orientation)

    @property
    def remaining(self) -> tuple[str, ...]:
        """Ids of the tiles still on the board, in level order."""
        return tuple(t.id for t, on in zip(self.original.tiles, self._active) if on)

    @property
    def steps_left(self) -> int:
        return self.original.move_limit - self.steps_used

    @property
    def status(self) -> GameStatus:
        """``"won"`` (no tile left), ``"lost"`` (no step left, tiles left) or ``"playing"``."""
        if not self._active.any():
            return GameStatus.WON
        if self.steps_left <= 0:
            return GameStatus.LOST
        return GameStatus.PLAYING

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    # --- actions --------------------------------------------------------------------------
    def _require_playing(self) -> None:
        if self.status != "playing":
            raise PuzzleError(f"the game is over ({self.status}); undo or restart")

    def _execute(self, tile_id: str) -> TapTrace:
        judged = trace_tap(self, tile_id)
        self.steps_used += 1
        if judged.outcome == "exit":
            active = self._active.copy()  # traces keep the mask they were judged on
            active[self.original.tile_index(tile_id)] = False
            active.flags.writeable = False
            self._active = active
        return judged

    def tap(self, tile_id: str) -> TapTrace:
        """Tap a tile: judge it, charge one step, remove it if it exits (H6).

        Returns the :class:`TapTrace` that decided the tap. Raises ``LevelError`` for a tile that
        is not on the board and :class:`PuzzleError` when the game is over.
        """
        return self.tap_queue([tile_id], strict=True)[0]

    def tap_queue(self, tile_ids: Iterable[str], *, strict: bool = False) -> list[TapTrace]:
        """Taps made while tiles are moving: run one at a time, each judged when it runs.

        A failed tap (blocked or loop) clears the rest of the queue. Taps on tiles that have
        already left are dropped without cost (unless ``strict``). Returns the traces of the
        taps that ran; the whole queue is one action for :meth:`undo`.
        """
        self._require_playing()
        queue = list(tile_ids)
        for tile_id in queue:  # unknown ids fail before anything moves
            self.original.tile_index(tile_id)
        before = self.snapshot()
        done: list[TapTrace] = []
        for tile_id in queue:
            if self.status != "playing":
                break
            if not strict and not self._active[self.original.tile_index(tile_id)]:
                continue
            judged = self._execute(tile_id)
            done.append(judged)
            if judged.outcome != "exit":
                break
        if done:
            self._history.append(before)
        self.last_traces = done
        return done

    def rotate(self, step: int = 1) -> None:
        """Turn the board one step: ``+1`` clockwise, ``-1`` counter-clockwise (costs no step)."""
        if step not in (1, -1):
            raise ArgumentError("rotate one step at a time: +1 or -1", argument="step", value=step)
        if not self.original.can_rotate:
            why = "disabled by the level" if self.original.board.symmetric else "not symmetric"
            raise PuzzleError(f"this board cannot rotate ({why})")
        self._require_playing()
        self._history.append(self.snapshot())
        self.orientation = (self.orientation + step) % 6
        self.rotations += 1

    def undo(self) -> None:
        """Revert the last action exactly; ``PuzzleError`` when there is nothing to undo."""
        if not self._history:
            raise PuzzleError("nothing to undo")
        self._restore(self._history.pop())

    def restart(self) -> None:
        """Back to the original level as freshly loaded (history cleared)."""
        PuzzleState.__init__(self, self.original)

    # --- display --------------------------------------------------------------------------
    def __repr__(self) -> str:
        return (
            f"PuzzleState(level={self.original.id!r}, status={self.status!r}, "
            f"remaining={len(self.remaining)}, steps_left={self.steps_left}, "
            f"orientation={self.orientation}, rotations={self.rotations})"
        )

    def _repr_svg_(self) -> str:
        from labkit.hexpuzzle import draw

        return draw.svg(self)
