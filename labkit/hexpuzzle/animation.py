"""Animations of the puzzle: a solution played tap by tap, and one tap's collision.

:func:`animate` plays a sequence of actions (default: the solver's solution) on a fresh
:class:`~labkit.hexpuzzle.PuzzleState`: each tap shows the tile's planned path and moves its
swept hexagon along it up to where it leaves, loops or first touches another tile (the
Minkowski hexagon and the contact point appear when it is blocked); each rotation turns the
board. :func:`collision_animation` scrubs one :class:`~labkit.hexpuzzle.TapTrace` from start to end
(what the collision viewer's slider does). Both return a ``matplotlib.animation.Animation``;
write it with :func:`labkit.hexpuzzle.save_animation` (GIF always, MP4 when ffmpeg is present).

Examples
--------
>>> from labkit.hexpuzzle import Level
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
>>> frames = plan(lvl, frames_per_tap=4)  # what animate(lvl, frames_per_tap=4) draws
>>> len(frames) > 4, frames[-1].title.endswith("won")
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import ArgumentError, _renamed
from labkit._animation import figure, save_animation
from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.solver import Action, solve
from labkit.hexpuzzle.tap_trace import TapTrace

__all__ = ["animate", "collision_animation", "save_animation", "plan", "AnimationFrame"]

HOLD = 4  # frames a board stays still before and after each action, so the eye can follow


@dataclass(frozen=True)
class AnimationFrame:
    """One frame: the board (orientation applied), the tiles on it, the tap being played (or
    None) with how far along it the tile is (0–1), and the title."""

    level: Level
    active: np.ndarray
    trace: TapTrace | None
    fraction: float
    title: str


def _actions(level: Level, actions: Iterable[Any] | None) -> list[Action]:
    if actions is None:
        solution = solve(level)
        if not solution.solved:
            raise ArgumentError(f"the solver found no solution ({solution.status}); pass actions",
                                argument="actions", value=None)  # fmt: skip
        return list(solution.actions)
    out = []
    for i, a in enumerate(actions):
        if isinstance(a, str):
            a = Action("tap", a)
        elif not isinstance(a, Action):
            a = Action(*a)
        if a.kind not in ("tap", "rotate"):
            raise ArgumentError("must be ('tap', tile_id) or ('rotate', +1 | -1)",
                                argument=f"actions[{i}]", value=tuple(a))  # fmt: skip
        out.append(a)
    return out


def _title(state: PuzzleState, doing: str) -> str:
    return (f"{state.original.id} · {doing} · steps left {state.steps_left} · "
            f"orientation {state.orientation} · {state.status}")  # fmt: skip


def plan(level: Level, actions: Iterable[Any] | None = None, frames_per_tap: int = 12) -> list:
    """The frames :func:`animate` draws (plain data, for tests and other renderers)."""
    if frames_per_tap < 2:
        raise ArgumentError("must be >= 2", argument="frames_per_tap", value=frames_per_tap)
    state = PuzzleState(level)
    frames = [
        AnimationFrame(state.level, state.active.copy(), None, 0.0, _title(state, "start"))
    ] * HOLD
    for n, action in enumerate(_actions(level, actions), start=1):
        if state.status != "playing":
            break
        if action.kind == "rotate":
            state.rotate(int(action.arg))
            still = AnimationFrame(state.level, state.active.copy(), None, 0.0,
                                   _title(state, f"{n}: rotate {int(action.arg):+d}"))  # fmt: skip
            frames += [still] * HOLD
            continue
        before_level, before_active = state.level, state.active.copy()
        judged = state.tap(str(action.arg))
        # the tapped tile is drawn as the moving hexagon, not also at its start cell
        before_active[level.tile_index(judged.tile)] = False
        doing = f"{n}: tap {action.arg} → {judged.outcome}"
        for k in range(frames_per_tap):
            fraction = k / (frames_per_tap - 1)
            frames.append(AnimationFrame(before_level, before_active, judged, fraction,
                                         _title(state, doing)))  # fmt: skip
        frames += [frames[-1]] * (HOLD // 2)
        frames += [
            AnimationFrame(state.level, state.active.copy(), None, 0.0, _title(state, doing))
        ] * HOLD
    return frames


def _player(frames: Sequence[AnimationFrame], size: float, interval: int) -> Any:
    from matplotlib.animation import FuncAnimation

    from labkit.hexpuzzle.draw import TILE_COLOURS, BoardPlot

    fig = figure(size, size)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.9))
    board = BoardPlot(ax)
    shown: dict[str, Any] = {}

    def draw(i: int) -> list:
        f = frames[i]
        key = (id(f.level), f.active.tobytes())
        if shown.get("board") != key:  # redraw tiles only when the board changed
            board.show_level(f.level, f.active, title=f.title)
            shown["board"], shown["trace"] = key, None
        ax.set_title(f.title, fontsize=8)
        if shown.get("trace") is not f.trace:
            board.show_trace(f.trace)
            shown["trace"] = f.trace
        board.scrub(f.fraction)
        if f.trace is not None:  # the path covered so far, and the tile itself moving
            covered = f.trace.planned.until(f.fraction * f.trace.length)
            board.swept.set_data(covered[:, 0], covered[:, 1])
            colour = TILE_COLOURS[f.trace.level.tile(f.trace.tile).color]
            board.mover.set_facecolor(colour)
            blocked = f.trace.outcome == "blocked" and f.fraction >= 1.0
            board.contact.set_visible(blocked)  # the contact point once it is reached
        return []

    # Any: the frame plan and figure ride along as extra attributes for callers and tests.
    anim: Any = FuncAnimation(fig, draw, frames=len(frames), interval=interval, repeat=True)
    anim.plan = list(frames)
    anim.fig = fig
    return anim


def animate(
    level: Level,
    actions: Iterable[Any] | None = None,
    *,
    frames_per_tap: int = 12,
    interval: int = 80,
    size: float = 5.0,
) -> Any:
    """A solution played tap by tap, the swept hexagon moving (see the module docstring).

    Parameters
    ----------
    level : Level
    actions : iterable, optional
        :class:`~labkit.hexpuzzle.Action` s, ``("tap", id)`` / ``("rotate", ±1)`` tuples or tile
        ids (taps). Default: :func:`~labkit.hexpuzzle.solve`'s solution. Actions after the game
        ends are not played.
    frames_per_tap : int
        Frames of one tile's sweep.
    interval : int
        Milliseconds between frames when shown in a notebook.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        With ``plan`` (the list of :class:`AnimationFrame`) and ``fig``. Show it in a notebook with
        ``IPython.display.HTML(anim.to_jshtml())``; save it with :func:`save_animation`.

    Raises
    ------
    ArgumentError
        No actions given and the solver finds no solution; a malformed action.

    Examples
    --------
    The solver's two taps, four frames each, with the board held still around every action:

    >>> import tempfile, pathlib
    >>> from labkit.hexpuzzle import Level
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    >>> anim = animate(lvl, frames_per_tap=4, size=2)
    >>> len(anim.plan), anim.plan[0].title.endswith("playing"), anim.plan[-1].title.endswith("won")
    (24, True, True)
    >>> [f.fraction for f in anim.plan if f.trace is not None][:4]  # tap b sweeps out
    [0.0, 0.333..., 0.666..., 1.0]
    >>> len(plan(lvl, ["b"], frames_per_tap=4))  # what animate(lvl, ["b"], ...) plays: one tap
    14
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_animation(anim, pathlib.Path(tmp) / "solve.gif", dpi=20).stat().st_size > 0
    True
    """
    if not isinstance(level, Level):
        raise ArgumentError("must be a Level", argument="level", value=type(level).__name__)
    return _player(plan(level, actions, frames_per_tap), size, interval)


def collision_animation(
    trace: TapTrace, *, frames: int = 30, interval: int = 60, size: float = 5.0
):
    """One tap's collision (its swept hexagon) scrubbed from start to end (the collision
    viewer's slider, played).

    ``frames`` steps from 0 to 1 along the trace, then the last frame held. Returns a
    ``FuncAnimation`` with ``plan`` and ``fig``, as :func:`animate` does.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from labkit.hexpuzzle import Level, trace_tap
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    >>> anim = collision_animation(trace_tap(lvl, "a"), frames=5, size=2)
    >>> [f.fraction for f in anim.plan]
    [0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0]
    >>> anim.plan[0].title
    'hexagon-2: tap a → blocked'
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_animation(anim, pathlib.Path(tmp) / "sweep.gif", dpi=20).suffix
    '.gif'
    >>> collision_animation(trace_tap(lvl, "a"), frames=1)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: frames: must be >= 2 (got 1)
    """
    if frames < 2:
        raise ArgumentError("must be >= 2", argument="frames", value=frames)
    title = f"{trace.level.id}: tap {trace.tile} → {trace.outcome}"
    steps = [AnimationFrame(trace.level, trace.active, trace, k / (frames - 1), title)
             for k in range(frames)]  # fmt: skip
    return _player(steps + [steps[-1]] * HOLD, size, interval)


# re-exported so that hexpuzzle users save without importing a private module
save_animation = save_animation


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
