"""A played-back game as an animation: one frame per step of a format-3 trace.

The frames are :func:`labkit.encounter.playback` of the trace (no rule runs), drawn by
:func:`labkit.encounter.draw_sim.draw_board` / ``update_board`` as the trace viewer does: actors
moving, the sound each step makes, corpses and loot. Write it with :func:`save_animation` (GIF
always, MP4 when ffmpeg is present); ``labkit sim animate TRACE --out game.gif`` does both.

Examples
--------
>>> from labkit.encounter.sim.runner import simulate
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> import tempfile, pathlib
>>> anim = animate(simulate(SimulationSettings(seed=3, max_steps=6)), size=3)
>>> gif = save_animation(anim, pathlib.Path(tempfile.mkdtemp()) / "game.gif", fps=4, dpi=40)
>>> len(anim.frames), gif.suffix
(7, '.gif')
"""

from __future__ import annotations

import os
from typing import Any

from labkit import ArgumentError
from labkit._animation import figure, save_animation
from labkit.encounter.records.playback import playback
from labkit.encounter.records.trace import SimulationTrace

__all__ = ["animate", "save_animation"]


def animate(
    trace: SimulationTrace | str | os.PathLike,
    *,
    interval: int = 300,
    size: float = 5.0,
    last: int | None = None,
) -> Any:
    """The game of ``trace`` (or a trace file), step by step.

    Parameters
    ----------
    trace : SimulationTrace or path
        A format-3 trace (it carries the room map).
    interval : int
        Milliseconds between frames when shown in a notebook.
    last : int, optional
        Stop after this step (default: the whole game).

    Returns
    -------
    matplotlib.animation.FuncAnimation
        With ``frames`` (the played-back :class:`~labkit.encounter.PlaybackFrame` s) and ``fig``.

    Examples
    --------
    >>> from labkit.encounter.sim.runner import simulate
    >>> from labkit.encounter.sim.settings import SimulationSettings
    >>> trace = simulate(SimulationSettings(seed=3, max_steps=6))
    >>> anim = animate(trace, size=2, last=2)
    >>> len(anim.frames), [f.step for f in anim.frames], anim.fig.get_size_inches()[0].item()
    (3, [0, 1, 2], 2.0)
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_animation(anim, pathlib.Path(tmp) / "game.gif", dpi=20).stat().st_size > 0
    True
    """
    from matplotlib.animation import FuncAnimation

    from labkit.encounter.draw_sim import draw_board, update_board

    if not isinstance(trace, SimulationTrace):
        trace = SimulationTrace.load(trace)
    if trace.map is None:
        raise ArgumentError("needs a format-3 trace (with its map)", argument="trace",
                            value=f"format {trace.version}")  # fmt: skip
    frames = list(playback(trace))
    if last is not None:
        if last < 0:
            raise ArgumentError("must be >= 0", argument="last", value=last)
        frames = frames[: last + 1]
    m = trace.map
    fig = figure(size, size * m["height"] / m["width"] + 0.4)
    ax = fig.add_subplot()
    art = draw_board(ax, m)
    fig.tight_layout()

    def draw(i: int) -> list:
        update_board(art, frames[i])
        return []

    # Any: the frames and figure ride along as extra attributes for callers and tests.
    anim: Any = FuncAnimation(fig, draw, frames=len(frames), interval=interval, repeat=True)
    anim.frames, anim.fig = frames, fig
    return anim
