"""CollisionViewer: pick a level, turn the board, choose a tile, scrub its sweep (rule J2).

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

from labkit import ArgumentError, _renamed
from labkit._data import data_path
from labkit._text import html_text
from labkit.hexpuzzle import TILE_RADIUS, BoardPlot, Level, TapTrace, centre, trace_tap
from labkit.hexpuzzle.draw import update as update_board
from labkit.widgets._code import CodeMixin, level_code, literal, path_code, source
from labkit.widgets._controls import WIDE, snapped, tip
from labkit.widgets._figure import FigurePane, name_fonts, new_figure

__all__ = ["CollisionViewer", "shipped_levels"]

LEVEL_DIR = data_path("levels", must_exist=False)


def shipped_levels(*, campaign: bool = True) -> list[Level]:
    """The example levels in ``data/levels`` (or rule H5's grazing example if absent), then the
    shipped campaign's 24 levels (``campaign=False``: the examples only).

    Examples
    --------
    >>> levels = shipped_levels()
    >>> levels[0].id, levels[-1].id, len(shipped_levels(campaign=False)) < len(levels)
    ('grazing', 'main-24', True)
    """
    files = sorted(LEVEL_DIR.glob("*.json")) if LEVEL_DIR.is_dir() else []
    levels = []
    for f in files:
        try:
            levels.append(Level.load(f))
        except Exception:  # a campaign or other file that is not a single level
            continue
    levels = levels or [
        Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    ]
    if campaign:
        from labkit.hexpuzzle import campaign as main_line

        levels += list(main_line())
    return levels


def _shipped_by_id() -> dict[str, Level]:
    return {lv.id: lv for lv in shipped_levels()}


class CollisionViewer(CodeMixin):
    """Interactive sweep viewer; ``viewer.ui`` is the ipywidgets container.

    ``levels``: Level objects, level files or shipped levels' ids (``"grazing"``, ``"main-06"``);
    default every shipped level, the example levels and the campaign.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> level = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    >>> viewer = CollisionViewer([level])
    >>> viewer.tile_box.value, viewer.trace.outcome, viewer.trace.blocker, viewer.slider.value
    ('mover', 'blocked', 'post', 1.0)
    >>> viewer.rotate(1)
    >>> viewer.orientation
    1
    """

    def __init__(self, levels: Sequence[Level | str | Path] | None = None) -> None:
        import ipywidgets as w

        self._levels_arg = None if levels is None else list(levels)
        self.fraction = 1.0
        self.levels = [_level(lv) for lv in (levels or shipped_levels())]
        if not self.levels:
            raise ArgumentError("CollisionViewer needs at least one level", argument="levels")
        self.fig, ax = new_figure(figsize=(6.4, 7.0), layout="constrained")
        self.plot = BoardPlot(ax)
        self.plot.legend()
        self.fig.canvas.mpl_connect("button_press_event", self._on_press)

        self.level_box = w.Dropdown(
            options=[(_label(lv), i) for i, lv in enumerate(self.levels)],
            description="level",
            layout=w.Layout(width="440px"),
        )
        self.ccw = w.Button(description="⟲ rotate", layout=w.Layout(width="90px"))
        self.cw = w.Button(description="rotate ⟳", layout=w.Layout(width="90px"))
        self.tile_box = w.Dropdown(options=[], description="tile")
        # The share of the tile's travel, shown as a percentage; the status line gives the same
        # point in board units (R = one cell's circumradius).
        self.slider = w.FloatSlider(0.0, min=0.0, max=1.0, step=0.01, readout_format=".0%",
                                    description="travelled", style=WIDE)  # fmt: skip
        tip(self.slider, "how far along its sweep the tile's top is drawn (0 % = where it sits)")
        self.status = w.HTML(layout=w.Layout(width="300px", margin="40px 0 0 12px"))
        self.pane = FigurePane(self.fig)

        self.level_box.observe(lambda ch: self.select_level(ch["new"]), names="value")
        self.tile_box.observe(lambda ch: self.select_tile(ch["new"]), names="value")
        self.slider.observe(lambda ch: self.scrub(snapped(self.slider)), names="value")
        self.ccw.on_click(lambda _: self.rotate(-1))
        self.cw.on_click(lambda _: self.rotate(+1))

        figure = self.pane.widget
        self.ui = w.VBox(
            [
                w.HBox([self.level_box, self.ccw, self.cw]),
                w.HBox([self.tile_box, self.slider]),
                # The answer beside the board (the board is taller than a laptop screen leaves
                # under a line above it), so the two are read together.
                w.HBox([figure, self.status]),
            ]
        )
        self.orientation = 0
        self.trace: TapTrace | None = None  # the selected tile's sweep (None: no tile selected)
        self.select_level(0)
        self._add_code_button()

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
        self.trace = None if tile_id is None else trace_tap(self.level, tile_id)
        self.plot.show_trace(self.trace)
        self._hold_view()
        self.status.value = self.describe()
        self.slider.value = 1.0
        self.scrub(1.0)

    def scrub(self, fraction: float) -> np.ndarray | None:
        """Move the tile's top to ``fraction`` of the distance it travels; returns its centre."""
        self.fraction = float(fraction)
        where = self.plot.scrub(fraction)
        if self.trace is not None:
            self.status.value = (
                f"{self.describe()} · drawn at {fraction * self.trace.length:.2f} of "
                f"{self.trace.length:.2f} cell radii (a cell's centre-to-corner distance)"
            )
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
        # R: one cell's circumradius, the board's unit of length
        if t.outcome == "blocked":
            return (
                f"{head} · tap <b>{html_text(t.tile)}</b>: "
                f"<span style='color:#c1121f'><b>blocked</b></span> "
                f"by <b>{html_text(t.blocker)}</b> after {t.contact:.2f} cell radii"
            )
        colour = "#2a9d8f" if t.outcome == "exit" else "#7b2cbf"
        return (
            f"{head} · tap <b>{html_text(t.tile)}</b>: "
            f"<span style='color:{colour}'><b>{t.outcome}</b></span>"
            f" after {t.length:.2f} cell radii through {len(t.visits)} cells"
        )

    def animation(self, *, frames: int = 30, interval: int = 60):
        """The selected tap's sweep scrubbed from start to end, as a ``matplotlib`` animation
        (see :func:`labkit.hexpuzzle.collision_animation`)."""
        from labkit.hexpuzzle import collision_animation

        if self.trace is None:
            from labkit import ArgumentError

            raise ArgumentError("no tile selected: nothing sweeps", argument="tile", value=None)
        return collision_animation(self.trace, frames=frames, interval=interval)

    def save(self, path: str | Path, *, frames: int = 30, fps: float = 15) -> None:
        """Write the sweep as ``path`` (``.gif``; ``.mp4`` when ffmpeg is present)."""
        from labkit.hexpuzzle import save_animation

        save_animation(self.animation(frames=frames), path, fps=fps)

    def to_code(self) -> str:
        """Source rebuilding this viewer: its levels, the selected level, orientation, tile and
        scrub position."""
        lines = ["from labkit.widgets import CollisionViewer"]
        if self._levels_arg is None:
            args = ""
        else:
            if any(isinstance(lv, Level) for lv in self._levels_arg):
                lines.append("from labkit.hexpuzzle import Level")
            # a shipped level by its id, not inlined (the campaign alone is 60,000 characters)
            shipped = _shipped_by_id()
            items = [(repr(lv.id) if _is_shipped(lv, shipped) else level_code(lv))
                     if isinstance(lv, Level) else path_code(lv)
                     for lv in self._levels_arg]  # fmt: skip
            if all(_is_shipped(lv, shipped) for lv in self._levels_arg):
                lines.pop()  # no Level written
            args = "[\n    " + ",\n    ".join(items) + ",\n]"
        lines += ["", f"viewer = CollisionViewer({args})"]
        if self.level_index:
            lines.append(f"viewer.select_level({self.level_index})")
        if self.orientation:
            lines.append(f"viewer.rotate({self.orientation})")
        if self.trace is not None:
            lines.append(f"viewer.select_tile({self.trace.tile!r})")
        lines.append(f"viewer.slider.value = {literal(self.slider.value)}")
        lines.append(f"viewer.scrub({literal(self.fraction)})")
        return source(lines, "viewer")

    # --- plumbing -------------------------------------------------------------------------
    def _redraw_board(self) -> None:
        level = self.level
        name = f" — {level.name}" if level.name and level.name != level.id else ""
        title = f"{level.id}{name} · orientation {self.orientation}"
        update_board(self.plot, level, title=title)
        self.plot.ax.title.set_fontfamily(name_fonts())  # names in any script, not boxes
        # One view for every tile of this board at this orientation: the board and every tile's
        # path, so choosing another tile never moves the board under the pointer.
        xy = [np.array([centre(q, r) for q, r in level.board.cells])]
        xy += [trace_tap(level, t.id).path for t in level.tiles]
        points = np.concatenate([p for p in xy if len(p)])
        self._view = (points.min(axis=0) - 1.25, points.max(axis=0) + 1.25)
        self._hold_view()
        # constrained layout settles over two draws after the board changes (the key under the
        # board moves with it): settle it now, so the first tile click does not move the board
        self.fig.draw_without_rendering()

    def _hold_view(self) -> None:
        (x0, y0), (x1, y1) = self._view
        self.plot.ax.set_xlim(x0, x1)
        self.plot.ax.set_ylim(y1, y0)  # logical y points down

    def _on_press(self, event: Any) -> None:
        if event.inaxes is self.plot.ax and event.xdata is not None:
            self.click(event.xdata, event.ydata)

    def _refresh(self) -> None:
        self.pane.refresh()


def _level(given: Level | str | Path) -> Level:
    """A level given to the viewer: itself, a shipped level's id, or a level file."""
    if isinstance(given, Level):
        return given
    if isinstance(given, str) and not Path(given).exists():
        shipped = _shipped_by_id()
        if given in shipped:
            return shipped[given]
    return Level.load(given)


def _is_shipped(level: Level | str | Path, shipped: dict[str, Level]) -> bool:
    return (
        isinstance(level, Level)
        and level.id in shipped
        and (shipped[level.id].to_dict() == level.to_dict())
    )


def _label(level: Level) -> str:
    """A level in the picker: its id and, when it has one, its name."""
    return level.id if not level.name or level.name == level.id else f"{level.id} — {level.name}"


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
