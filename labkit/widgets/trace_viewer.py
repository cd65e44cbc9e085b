"""``TraceViewer``: scrub through a format-3 encounter trace on its room map.

The viewer plays the trace back (:func:`labkit.encounter.playback` — no rule runs), then a
slider (and a play button) picks the step: actors (blue NPCs, red monsters, dashed when hiding),
the sound made during that step (yellow squares: the rooms it reaches, Chebyshev), corpses (×)
and loot counts move in place on one matplotlib figure, and a table lists that step's events.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from labkit.encounter.sim.runner import simulate
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> viewer = TraceViewer(simulate(SimulationSettings(seed=3, max_steps=40)))
>>> viewer.show(5)
>>> viewer.step.value
5
"""

from __future__ import annotations

import html
import os
from typing import Any

from labkit.encounter import SimulationTrace, playback
from labkit.widgets._code import CodeMixin, literal, path_code, source
from labkit.widgets._figure import FigurePane, new_figure
from labkit.widgets.glossary import event_sentence, words

__all__ = ["TraceViewer"]


def _events_table(events: list[dict], limit: int = 30) -> str:
    """The step's events as sentences (glossary words), at most ``limit`` of them."""
    rows = "".join(
        f"<tr><td>{e.get('turn', '')}</td><td>{html.escape(event_sentence(e))}</td></tr>"
        for e in events[:limit]
    )
    more = f"<p>… and {len(events) - limit} more</p>" if len(events) > limit else ""
    return f"<table><tr><th>turn</th><th>what happened</th></tr>{rows}</table>{more}"


class TraceViewer(CodeMixin):
    """Step-by-step view of a :class:`~labkit.encounter.SimulationTrace` (format 3).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from labkit.encounter import SimulationSettings, simulate
    >>> viewer = TraceViewer(simulate(SimulationSettings(seed=3, max_steps=10)))
    >>> len(viewer.frames) == viewer.trace.steps + 1 == viewer.step.max + 1  # step 0: spawned
    True
    >>> viewer.show(99)  # clamped to the last step
    >>> viewer.step.value == viewer.step.max, viewer.frame.step == viewer.trace.steps
    (True, True)
    """

    def __init__(self, trace: SimulationTrace | str, *, size: float = 5.0) -> None:
        import ipywidgets as W

        from labkit.encounter.draw_sim import draw_board

        self._trace_arg = trace
        self._size = size
        self.trace = SimulationTrace.load(trace) if isinstance(trace, str) else trace
        self.frames = list(playback(self.trace))
        m = self.trace.map
        assert m is not None, "playback (just above) rejects a trace without a map"
        aspect = m["height"] / m["width"]
        self.fig, self.ax = new_figure(figsize=(size, size * aspect + 1.2), layout="constrained")
        self.artists = draw_board(self.ax, m)
        self.ax.set_xlabel("room x")
        self.ax.set_ylabel("room y")
        self._legend()
        self.pane = FigurePane(self.fig)
        last = len(self.frames) - 1
        self.step = W.IntSlider(value=0, min=0, max=last, description="step",
                                continuous_update=True, layout=W.Layout(width="400px"))  # fmt: skip
        self.play = W.Play(value=0, min=0, max=last, interval=300, description="play")
        W.jslink((self.play, "value"), (self.step, "value"))
        self.events = W.HTML()
        self.status = W.HTML()
        self.step.observe(lambda change: self.show(change["new"]), names="value")
        # The journal (what happened, what was heard) right under the step slider, the board
        # beside them: both on one screen while stepping (issue 47: it sat below the board).
        journal = W.VBox([W.HBox([self.play, self.step]), self.status, self.events],
                         layout=W.Layout(width="440px"))  # fmt: skip
        self.ui = W.VBox([W.HBox([journal, self.pane.widget],
                                 layout=W.Layout(flex_flow="row wrap"))])  # fmt: skip
        self.show(0)
        self._add_code_button()

    def _legend(self) -> None:
        """A key for the board's marks (room kinds are written in each room)."""
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        from labkit.encounter.draw_sim import SIDE_COLOURS

        dot: dict[str, Any] = {"marker": "o", "ls": "none", "ms": 9, "mec": "k"}
        handles = [
            Line2D([], [], mfc=SIDE_COLOURS["npc"], label="NPC", **dot),
            Line2D([], [], mfc=SIDE_COLOURS["monster"], label="monster", **dot),
            Line2D([], [], mfc="white", label="dashed edge: hiding", **{**dot, "mec": "#555"}),
            Line2D([], [], marker="x", ls="none", ms=9, mew=2.5, color="#444", label="corpse"),
            Patch(fc="#fc0", ec="#e90", alpha=0.4, label="rooms this step's sound reaches"),
            Line2D([], [], ls="none", label="green text: loot / dropped items"),
        ]  # fmt: skip
        self.fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=7,
                        frameon=False)  # fmt: skip

    @property
    def frame(self):
        """The frame on display."""
        return self.frames[self.step.value]

    def show(self, step: int) -> None:
        """Display ``step`` (0 = after spawning); moves the artists in place."""
        from labkit.encounter.draw_sim import update_board

        step = max(0, min(int(step), len(self.frames) - 1))
        if self.step.value != step:
            self.step.value = step  # the observer calls back into show()
            return
        f = self.frames[step]
        update_board(self.artists, f)
        alive = [a for a, st in f.actors.items() if st["alive"]]
        t = self.trace
        winner = {"npc": "the NPCs won", "monster": "the monsters won"}.get(
            str(t.winner), "nobody won"
        )
        self.status.value = html.escape(
            f"{winner} ({words(str(t.end_reason))}) · step {f.step} of {t.steps} · "
            f"turn {f.turn} · alive: {', '.join(alive) or 'nobody'}"
        )
        self.events.value = _events_table(f.events) if f.events else "<i>nothing happened</i>"
        self.pane.refresh()

    def animation(self, *, interval: int = 300):
        """The whole game as a ``matplotlib`` animation (see :func:`labkit.encounter.animation`)."""
        from labkit.encounter import animate

        return animate(self.trace, interval=interval, size=self._size)

    def save(self, path: str | os.PathLike, *, fps: float = 4) -> None:
        """Write the game as ``path`` (``.gif``; ``.mp4`` when ffmpeg is present)."""
        from labkit.encounter.animation import save_animation

        save_animation(self.animation(), path, fps=fps)

    def to_code(self) -> str:
        """Source rebuilding this viewer at its step: the trace file, else the simulation that
        makes the trace (when re-simulating gives it back), else the trace document itself."""
        lines = ["from labkit.widgets import TraceViewer"]
        if isinstance(self._trace_arg, str):
            trace = path_code(self._trace_arg)
        elif self._resimulates():
            lines.insert(0, "from labkit.encounter import simulate")
            lines.insert(1, "from labkit.encounter import SimulationSettings")
            settings = literal(self.trace.settings.to_dict())
            trace = f"simulate(SimulationSettings.from_dict({settings}))"
        else:
            lines.insert(0, "from labkit.encounter import SimulationTrace")
            trace = f"SimulationTrace.from_dict({literal(self.trace.to_dict())})"
        size = "" if self._size == 5.0 else f", size={self._size!r}"
        lines += ["", f"viewer = TraceViewer({trace}{size})", f"viewer.show({self.step.value})"]
        return source(lines, "viewer")

    def _resimulates(self) -> bool:
        if not hasattr(self, "_same_as_simulated"):
            from labkit.encounter import simulate

            try:
                again = simulate(self.trace.settings, version=self.trace.version)
                self._same_as_simulated = again.to_dict() == self.trace.to_dict()
            except Exception:  # settings another labkit wrote: fall back to the document
                self._same_as_simulated = False
        return self._same_as_simulated

    def __repr__(self) -> str:
        return f"TraceViewer({len(self.frames)} frames)"
