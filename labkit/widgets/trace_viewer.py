"""``TraceViewer``: scrub through a format-3 encounter trace on its room map.

The viewer plays the trace back (:func:`labkit.encounter.records.replay.playback` — no rule runs), then a
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

from labkit.encounter.records.journal import events_html
from labkit.encounter.records.replay import playback
from labkit.encounter.records.trace import SimulationTrace
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["TraceViewer"]


class TraceViewer:
    """Step-by-step view of a :class:`~labkit.encounter.records.trace.SimulationTrace` (format 3)."""

    def __init__(self, trace: SimulationTrace | str, *, size: float = 5.0) -> None:
        import ipywidgets as W

        from labkit.encounter.sim_draw import draw_board

        self.trace = SimulationTrace.load(trace) if isinstance(trace, str) else trace
        self.frames = list(playback(self.trace))
        m = self.trace.map
        aspect = m["height"] / m["width"]
        self.fig, self.ax = new_figure(figsize=(size, size * aspect + 0.4))
        self.artists = draw_board(self.ax, m)
        self.fig.tight_layout()
        self.pane = FigurePane(self.fig)
        last = len(self.frames) - 1
        self.step = W.IntSlider(value=0, min=0, max=last, description="step",
                                continuous_update=True, layout=W.Layout(width="420px"))  # fmt: skip
        self.play = W.Play(value=0, min=0, max=last, interval=300, description="play")
        W.jslink((self.play, "value"), (self.step, "value"))
        self.events = W.HTML()
        self.status = W.HTML()
        self.step.observe(lambda change: self.show(change["new"]), names="value")
        self.ui = W.VBox([W.HBox([self.play, self.step]), self.status, self.pane.widget,
                          self.events])  # fmt: skip
        self.show(0)

    @property
    def frame(self):
        """The frame on display."""
        return self.frames[self.step.value]

    def show(self, step: int) -> None:
        """Display ``step`` (0 = after spawning); moves the artists in place."""
        from labkit.encounter.sim_draw import update_board

        step = max(0, min(int(step), len(self.frames) - 1))
        if self.step.value != step:
            self.step.value = step  # the observer calls back into show()
            return
        f = self.frames[step]
        update_board(self.artists, f)
        alive = [a for a, st in f.actors.items() if st["alive"]]
        t = self.trace
        self.status.value = (
            f"<b>{t.end_reason}</b> (winner {t.winner}) · step {f.step}/{t.steps} · "
            f"turn {f.turn} · alive: {', '.join(alive)}"
        )
        self.events.value = events_html(f.events, limit=30) if f.events else "<i>no events</i>"
        self.pane.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)

    def __repr__(self) -> str:
        return f"TraceViewer({len(self.frames)} frames)"
