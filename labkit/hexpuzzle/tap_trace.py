"""Judging a tap before anything moves (rules H5, H6): ``trace_tap(level_or_state, tile_id)``.

The tile's planned path (cached per board orientation, see :mod:`~labkit.hexpuzzle.geometry`)
is swept against the collision hexagons of every *other* tile still on the board. The first
contact along the path decides:

* ``blocked`` — a contact exists (even on a looping path: contact comes first);
* ``loop`` — the path repeats a ``(cell, entry)`` state and touches nothing over one full cycle;
* ``exit`` — the tile leaves the board.

Neighbouring tiles do not touch at rest (centres √3 R apart, collision apothem 1.524 R), but
a tile heading toward any neighbour, or sliding past a neighbour's side, touches it within a
fraction of a cell: rule H5's grazing rule.

``trace_tap`` is the solver's inner loop: it does one dict lookup for the cached path and one kernel
call over the tiles' centre array, with a mask for tiles already gone.

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> lvl = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5)])
>>> t = trace_tap(lvl, "mover")
>>> t.outcome, t.blocker, round(t.contact, 3)
('blocked', 'post', 2.148)
>>> trace_tap(lvl, "post").outcome
'exit'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import _renamed
from labkit.hexpuzzle import _kernels
from labkit.hexpuzzle.collision import MINKOWSKI_RADIUS
from labkit.hexpuzzle.geometry import TilePath, tile_path
from labkit.hexpuzzle.level import Level, TileError
from labkit.hexpuzzle.status import Outcome

__all__ = ["TapTrace", "trace_tap", "TAP_OUTCOMES"]

TAP_OUTCOMES = tuple(Outcome)


@dataclass(frozen=True, eq=False)
class TapTrace:
    """The judged outcome of tapping one tile.

    Attributes
    ----------
    tile : str
        The tapped tile's id.
    outcome : Outcome
        ``"exit"``, ``"blocked"`` or ``"loop"``.
    path : ndarray, shape (n, 2)
        The full planned path (even when blocked; see :meth:`travelled`).
    contact : float or None
        Arc length of the first contact when blocked, else ``None``.
    blocker : str or None
        Id of the tile touched first when blocked, else ``None``.
    point : tuple of float or None
        Where the moving centre is at contact.
    level : Level
        The board (at its orientation) and tiles the tap was judged on.
    active : ndarray of bool
        Which of ``level.tiles`` were still on the board.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> t = trace_tap(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)]), "a")
    >>> t.outcome, t.blocker, t.path.shape[1], t.length < t.planned.length
    ('blocked', 'b', 2, True)
    """

    tile: str
    outcome: Outcome
    contact: float | None
    blocker: str | None
    point: tuple[float, float] | None
    level: Level
    active: NDArray[np.bool_]
    planned: TilePath

    def __post_init__(self) -> None:
        # a plain string is accepted and checked (the outcome has one definition: status.py)
        object.__setattr__(self, "outcome", Outcome(self.outcome))

    @property
    def path(self) -> NDArray[np.float64]:
        return self.planned.points

    @property
    def length(self) -> float:
        """Arc length the tile actually travels before stopping or leaving."""
        return self.planned.length if self.contact is None else self.contact

    @property
    def visits(self) -> tuple:
        """``((q, r), entry, exit)`` of every cell the planned path passes through."""
        return self.planned.visits

    def travelled(self) -> NDArray[np.float64]:
        """The polyline the tile actually covers: up to the contact point, or all of it."""
        return self.planned.until(self.length)

    def position(self, s: float) -> NDArray[np.float64]:
        """The moving centre at arc length ``s`` (clamped to what is travelled)."""
        return self.planned.at(min(s, self.length))

    def __repr__(self) -> str:
        extra = ""
        if self.outcome == "blocked":
            extra = f", blocker={self.blocker!r}, contact={self.contact:.3f}"
        return f"TapTrace(tile={self.tile!r}, outcome={self.outcome!r}{extra})"

    def _repr_svg_(self) -> str:
        from labkit.hexpuzzle import draw

        return draw.svg(self)


def _view(level_or_state: Any) -> tuple[Level, NDArray[np.bool_]]:
    if isinstance(level_or_state, Level):
        return level_or_state, level_or_state.active
    try:  # a PuzzleState (duck-typed so that this module does not import game)
        return level_or_state.level, level_or_state.active
    except AttributeError:
        raise TypeError(
            f"trace_tap() needs a Level or a PuzzleState, got {type(level_or_state).__name__}"
        ) from None


def trace_tap(level_or_state: Level | Any, tile_id: str) -> TapTrace:
    """Judge a tap on ``tile_id``: where would it go, and what would it touch first?

    Parameters
    ----------
    level_or_state : Level or PuzzleState
        A level (all its tiles present, at its own orientation) or a game state (its current
        orientation and the tiles still on the board).
    tile_id : str
        The tile tapped.

    Returns
    -------
    TapTrace
        ``outcome`` is ``"exit"``, ``"blocked"`` (with ``contact``, ``point`` and ``blocker``)
        or ``"loop"``. Nothing is modified.

    Raises
    ------
    TileError
        If no tile ``tile_id`` is on the board (an :class:`~labkit.ArgumentError` naming
        ``tile_id``, and a ``LevelError``).

    Examples
    --------
    >>> from labkit.hexpuzzle.level import Level
    >>> lvl = Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 0, -1, 3)])
    >>> trace_tap(lvl, "a")
    TapTrace(tile='a', outcome='blocked', blocker='b', contact=0.208)
    """
    level, active = _view(level_or_state)
    i = level.tile_index(tile_id)
    if not active[i]:
        raise TileError("this tile has already left the board", argument="tile_id", value=tile_id)
    tile = level.tiles[i]
    planned = tile_path(level.board, tile.q, tile.r, tile.dir)
    s, j = _kernels.sweep(planned.points, level.tile_centres, active, i, MINKOWSKI_RADIUS)
    if j >= 0:
        x, y = planned.at(s)
        return TapTrace(
            tile_id,
            Outcome.BLOCKED,
            float(s),
            level.tiles[j].id,
            (float(x), float(y)),
            level,
            active,
            planned,
        )
    return TapTrace(tile_id, planned.outcome, None, None, None, level, active, planned)


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
