"""CollisionSweepViewer: pick a level, turn the board, choose a tile, scrub its sweep (SPEC J2).

The viewer shows the board at the chosen orientation, the chosen tile's planned path, how far
it gets, the Minkowski hexagon of the tile it touches first and the contact point. A slider
moves the tile's top along what it travels. Click a tile on the board (interactive ipympl
canvas) or choose it from the list.

All logic lives in plain methods (:meth:`select_level`, :meth:`rotate`, :meth:`select_tile`,
:meth:`scrub`, :meth:`click`) that tests call without a browser; widget callbacks only forward
to them. Plot artists are updated in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit._data import data_path
from labkit.hexpuzzle import Level, trace
from labkit.hexpuzzle.coords import centre
from labkit.hexpuzzle.draw import BoardPlot
from labkit.hexpuzzle.sweep import TILE_RADIUS
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["CollisionSweepViewer", "shipped_levels"]

LEVEL_DIR = data_path("levels", must_exist=False)


def shipped_levels() -> list[Level]:
    """The example levels in ``data/levels`` (or the seed's grazing example if absent)."""
    files = sorted(LEVEL_DIR.glob("*.json")) if LEVEL_DIR.is_dir() else []
    levels = []
    for f in files:
        try:
            levels.append(Level.load(f))
        except Exception:  # a campaign or other file that is not a single level
            continue
    return levels or [
        Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    ]


class CollisionSweepViewer:
    """Interactive sweep viewer; ``viewer.ui`` is the ipywidgets container."""

    def __init__(self, levels: Sequence[Level | str | Path] | None = None) -> None:
        import ipywidgets as w

        self.levels = [
            lv if isinstance(lv, Level) else Level.load(lv) for lv in (levels or shipped_levels())
        ]
        if not self.levels:
            raise ArgumentError("CollisionSweepViewer needs at least one level", argument="levels")
        self.fig, ax = new_figure(figsize=(5.5, 5.5))
        self.plot = BoardPlot(ax)
        self.fig.canvas.mpl_connect("button_press_event", self._on_press)

        self.level_box = w.Dropdown(
            options=[(lv.name, i) for i, lv in enumerate(self.levels)], description="level"
        )
        self.ccw = w.Button(description="⟲ rotate", layout=w.Layout(width="90px"))
        self.cw = w.Button(description="rotate ⟳", layout=w.Layout(width="90px"))
        self.tile_box = w.Dropdown(options=[], description="tile")
        self.slider = w.FloatSlider(0.0, min=0.0, max=1.0, step=0.01, description="scrub")
        self.status = w.HTML()
        self.pane = FigurePane(self.fig)

        self.level_box.observe(lambda ch: self.select_level(ch["new"]), names="value")
        self.tile_box.observe(lambda ch: self.select_tile(ch["new"]), names="value")
        self.slider.observe(lambda ch: self.scrub(ch["new"]), names="value")
        self.ccw.on_click(lambda _: self.rotate(-1))
        self.cw.on_click(lambda _: self.rotate(+1))

        figure = self.pane.widget
        self.ui = w.VBox(
            [
                w.HBox([self.level_box, self.ccw, self.cw]),
                w.HBox([self.tile_box, self.slider]),
                self.status,
                figure,
            ]
        )
        self.orientation = 0
        self.trace = None
        self.select_level(0)

    # --- logic ----------------------------------------------------------------------------
    @property
    def level(self) -> Level:
        """The selected level at the current orientation."""
        return self.levels[self.level_index].rotated(self.orientation)

    def select_level(self, index: int) -> None:
        self.level_index = int(index)
        self.orientation = 0
        base = self.levels[self.level_index]
        self.ccw.disabled = self.cw.disabled = not base.can_rotate
        if self.level_box.value != self.level_index:
            self.level_box.value = self.level_index
        ids = [t.id for t in base.tiles]
        self.tile_box.options = ids
        self._redraw_board()
        self.select_tile(ids[0] if ids else None)

    def rotate(self, step: int) -> None:
        if not self.levels[self.level_index].can_rotate:
            self.status.value = "<b>this board cannot rotate</b>"
            return
        self.orientation = (self.orientation + step) % 6
        self._redraw_board()
        self.select_tile(self.tile_box.value)

    def select_tile(self, tile_id: str | None) -> None:
        if tile_id is not None and self.tile_box.value != tile_id:
            self.tile_box.value = tile_id  # fires back into select_tile once
            return
        self.trace = None if tile_id is None else trace(self.level, tile_id)
        self.plot.show_trace(self.trace)
        self.status.value = self.describe()
        self.slider.value = 1.0
        self.scrub(1.0)

    def scrub(self, fraction: float) -> np.ndarray | None:
        """Move the tile's top to ``fraction`` of the distance it travels; returns its centre."""
        where = self.plot.scrub(fraction)
        self._refresh()
        return where

    def click(self, x: float, y: float) -> str | None:
        """Select the tile under the board point ``(x, y)``; returns its id (None: no tile)."""
        for t in self.level.tiles:
            if np.hypot(*(np.array(centre(t.q, t.r)) - (x, y))) <= TILE_RADIUS:
                self.select_tile(t.id)
                return t.id
        return None

    def describe(self) -> str:
        t = self.trace
        head = f"orientation {self.orientation}"
        if t is None:
            return f"{head}: no tile on this level"
        if t.outcome == "blocked":
            x, y = t.point
            return (
                f"{head} · tap <b>{t.tile}</b>: <span style='color:#c1121f'><b>blocked</b></span> "
                f"by <b>{t.blocker}</b> after {t.contact:.3f} R at ({x:.2f}, {y:.2f})"
            )
        colour = "#2a9d8f" if t.outcome == "exit" else "#7b2cbf"
        return (
            f"{head} · tap <b>{t.tile}</b>: <span style='color:{colour}'><b>{t.outcome}</b></span>"
            f" after {t.length:.2f} R through {len(t.visits)} cells"
        )

    # --- plumbing -------------------------------------------------------------------------
    def _redraw_board(self) -> None:
        self.plot.show_level(self.level, title=f"{self.level.id} · orientation {self.orientation}")

    def _on_press(self, event: Any) -> None:
        if event.inaxes is self.plot.ax and event.xdata is not None:
            self.click(event.xdata, event.ydata)

    def _refresh(self) -> None:
        self.pane.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)
