"""Figures of boards, tiles and sweeps (matplotlib, imported lazily), and their SVG text.

:class:`BoardPlot` owns one Axes and a fixed set of artists that it updates in place, so the
collision-sweep viewer can rotate the board or scrub a tile without rebuilding the figure.
:func:`draw` is the house shape ``draw(obj, ax=None, **style) -> BoardPlot`` (``**style``: the
keys of :data:`BOARD_STYLE`) and :func:`update` redraws another Level, PuzzleState or TapTrace into
the same artists (the workshop and the sweep viewer redraw with it). :func:`svg` renders a
:class:`Level`, :class:`PuzzleState` or :class:`TapTrace` for notebooks (``_repr_svg_``) and for
``labkit puzzle show --svg``.

What is drawn: cells (pale hexagons) with their tracks (the same sampled Béziers the collision
uses); tiles as 0.88R tops coloured by ``color`` with an arrow for ``dir``; for a trace the
planned path (dotted), the part travelled (solid), the blocker's 1.76R Minkowski hexagon, the
contact point and the tile's top where it stops.

Examples
--------
>>> from labkit.hexpuzzle import Level, trace_tap
>>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
>>> text = svg(trace_tap(lvl, "a"))
>>> text.startswith("<?xml") and "</svg>" in text
True
>>> plot = draw(lvl, track_colour="black")
>>> update(plot, trace_tap(lvl, "a"))
>>> plot.trace.tile, plot.tracks.get_color()[0].tolist()
('a', [0.0, 0.0, 0.0, 1.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import styled
from labkit.hexpuzzle import coords
from labkit.hexpuzzle.collision import MINKOWSKI_RADIUS, TILE_RADIUS
from labkit.hexpuzzle.geometry import track_polyline
from labkit.hexpuzzle.level import Level

__all__ = ["TILE_COLOURS", "BOARD_STYLE", "BoardPlot", "draw", "update", "svg"]

#: Fill colours of tile colours 0-3 (cosmetic, as in the level format).
TILE_COLOURS = ("#d1495b", "#2e86ab", "#edae49", "#66a182")
#: The ``**style`` keys of :func:`draw` and :class:`BoardPlot`, with their defaults.
BOARD_STYLE: dict[str, Any] = {
    "labels": True,  # write each tile's id on it
    "cell_colour": "#f4f1ea",
    "cell_edge_colour": "#c9c2b3",
    "track_colour": "#8d99ae",
    "track_width": 2.2,
    "tile_colours": TILE_COLOURS,  # fills of tile colours 0-3
    "tile_edge_colour": "#222222",
}
OUTCOME_COLOURS = {"exit": "#2a9d8f", "blocked": "#c1121f", "loop": "#7b2cbf"}


def _title(level: Level) -> str:
    # matplotlib's default font has no CJK glyphs; fall back to the id rather than draw boxes.
    return level.name if level.name.isascii() else level.id


def _cell_polys(level: Level) -> list[np.ndarray]:
    return [
        coords.hexagon_vertices(*coords.centre(q, r), 0.97) for q, r in sorted(level.board.cells)
    ]


def _track_lines(level: Level) -> list[np.ndarray]:
    lines = []
    for (q, r), tracks in sorted(level.board.tracks.items()):
        lines += [track_polyline(q, r, a, b) for a, b in enumerate(tracks) if a < b]
    return lines


def _arrow(x: float, y: float, direction: int) -> np.ndarray:
    """A notch near the tile's edge pointing toward port ``direction``."""
    ux, uy = coords.unit(direction)
    px, py = -uy, ux
    return np.array(
        [
            (x + 0.8 * ux, y + 0.8 * uy),
            (x + 0.3 * ux + 0.17 * px, y + 0.3 * uy + 0.17 * py),
            (x + 0.3 * ux - 0.17 * px, y + 0.3 * uy - 0.17 * py),
        ]
    )


class BoardPlot:
    """A board drawn on ``ax`` with artists kept for in-place updates.

    ``style`` takes the keys of :data:`BOARD_STYLE` (``labels`` among them).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> BoardPlot(ax, labels=False).labels
    False
    >>> plt.close(fig)
    """

    def __init__(self, ax: Any, **style: Any) -> None:
        from matplotlib.collections import LineCollection, PolyCollection
        from matplotlib.patches import Polygon

        self.ax = ax
        self.style = st = styled(BOARD_STYLE, style)
        self.labels = bool(st["labels"])
        self.cells = PolyCollection(
            [], facecolors=st["cell_colour"], edgecolors=st["cell_edge_colour"], lw=0.8, zorder=1
        )
        self.tracks = LineCollection(
            [], colors=st["track_colour"], lw=st["track_width"], capstyle="round", zorder=2
        )
        self.tiles = PolyCollection([], edgecolors=st["tile_edge_colour"], lw=1.0, zorder=5)
        self.arrows = PolyCollection([], facecolors="white", edgecolors="none", zorder=6)
        (self.planned,) = ax.plot([], [], ls=":", lw=1.6, color="#555555", zorder=7)
        (self.swept,) = ax.plot([], [], lw=2.6, color=OUTCOME_COLOURS["exit"], zorder=8)
        self.minkowski = Polygon(
            np.zeros((6, 2)),
            closed=True,
            fill=False,
            ls="--",
            lw=1.6,
            ec=OUTCOME_COLOURS["blocked"],
            zorder=9,
            visible=False,
        )
        self.mover = Polygon(
            np.zeros((6, 2)), closed=True, fc="none", ec="black", lw=2.0, zorder=10, visible=False
        )
        (self.contact,) = ax.plot(
            [],
            [],
            marker="X",
            ms=11,
            color=OUTCOME_COLOURS["blocked"],
            mec="white",
            ls="none",
            zorder=11,
        )
        for artist in (self.cells, self.tracks, self.tiles, self.arrows):
            ax.add_collection(artist)
        ax.add_patch(self.minkowski)
        ax.add_patch(self.mover)
        self._texts: list[Any] = []
        ax.set_aspect("equal")
        ax.set_axis_off()
        self.level: Level | None = None
        self.trace: Any = None

    # --- board and tiles ------------------------------------------------------------------
    def show_level(self, level: Level, active: np.ndarray | None = None, title: str = "") -> None:
        """Draw ``level``'s board and its tiles (only those with ``active`` true)."""
        self.level = level
        active = level.active if active is None else active
        self.cells.set_verts(_cell_polys(level))
        self.tracks.set_segments(_track_lines(level))
        tiles = [t for t, on in zip(level.tiles, active) if on]
        centres = [coords.centre(t.q, t.r) for t in tiles]
        self.tiles.set_verts([coords.hexagon_vertices(x, y, TILE_RADIUS) for x, y in centres])
        self.tiles.set_facecolor([self.style["tile_colours"][t.color] for t in tiles])
        self.arrows.set_verts([_arrow(x, y, t.dir) for (x, y), t in zip(centres, tiles)])
        for text in self._texts:
            text.remove()
        self._texts = []
        if self.labels:
            # Below the centre, on a pale box: readable over the tracks, and clear of the
            # contact cross and the arrow, which sit on the tile's centre line.
            self._texts = [
                self.ax.text(x, y + 0.5 * TILE_RADIUS, t.id, ha="center", va="center",
                             fontsize=9, zorder=12, color="black",
                             parse_math=False,  # an id from a file is text, never mathtext
                             bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                   "alpha": 0.75})
                for (x, y), t in zip(centres, tiles)
            ]  # fmt: skip
        xy = np.array([coords.centre(q, r) for q, r in level.board.cells])
        self._board_box = (xy.min(axis=0), xy.max(axis=0))
        self._fit(None)
        self.ax.set_title(title or _title(level), fontsize=10, parse_math=False)
        self.show_trace(None)

    def _fit(self, path: np.ndarray | None) -> None:
        """Limits that hold the board (and a path leaving it) with a small margin: the board
        fills its figure and an exit path is not cut at the plot edge."""
        lo, hi = self._board_box
        if path is not None and len(path):
            lo, hi = np.minimum(lo, path.min(axis=0)), np.maximum(hi, path.max(axis=0))
        pad = 1.25
        self.ax.set_xlim(lo[0] - pad, hi[0] + pad)
        self.ax.set_ylim(hi[1] + pad, lo[1] - pad)  # logical y points down

    def legend(self, **kwargs: Any) -> Any:
        """A key for everything a sweep draws (placed by ``kwargs``, default below the board)."""
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        hexagon: dict[str, Any] = {"marker": "H", "ms": 11, "ls": "none"}
        handles = [
            Line2D([], [], ls=":", lw=1.6, color="#555555", label="planned path"),
            Line2D([], [], lw=2.6, color=OUTCOME_COLOURS["exit"], label="travelled: exits"),
            Line2D([], [], lw=2.6, color=OUTCOME_COLOURS["blocked"], label="travelled: blocked"),
            Line2D([], [], lw=2.6, color=OUTCOME_COLOURS["loop"], label="travelled: loops"),
            Line2D([], [], mfc="none", mec="black", mew=2, label="tile at the scrub point",
                   **hexagon),
            Patch(fill=False, ls="--", ec=OUTCOME_COLOURS["blocked"],
                  label=f"contact zone ({MINKOWSKI_RADIUS:g} R round the blocker)"),
            Line2D([], [], marker="X", ms=9, ls="none", color=OUTCOME_COLOURS["blocked"],
                   mec="white", label="first contact"),
        ]  # fmt: skip
        options = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0), "ncol": 2,
                   "fontsize": 8, "frameon": False}  # fmt: skip
        return self.ax.legend(handles=handles, **{**options, **kwargs})

    # --- a sweep --------------------------------------------------------------------------
    def show_trace(self, trace: Any) -> None:
        """Overlay a :class:`~labkit.hexpuzzle.tap_trace.TapTrace` (``None`` clears the overlay)."""
        self.trace = trace
        if self.level is not None:
            self._fit(None if trace is None else trace.path)
        blocked = trace is not None and trace.outcome == "blocked"
        if trace is None:
            for line in (self.planned, self.swept, self.contact):
                line.set_data([], [])
            self.minkowski.set_visible(False)
            self.mover.set_visible(False)
            return
        self.planned.set_data(trace.path[:, 0], trace.path[:, 1])
        travelled = trace.travelled()
        self.swept.set_data(travelled[:, 0], travelled[:, 1])
        self.swept.set_color(OUTCOME_COLOURS[trace.outcome])
        if blocked:
            blocker = trace.level.tile(trace.blocker)
            self.minkowski.set_xy(
                coords.hexagon_vertices(*coords.centre(blocker.q, blocker.r), MINKOWSKI_RADIUS)
            )
            self.contact.set_data([trace.point[0]], [trace.point[1]])
        else:
            self.contact.set_data([], [])
        self.minkowski.set_visible(blocked)
        self.scrub(1.0)

    def scrub(self, fraction: float) -> np.ndarray | None:
        """Put the moving tile's top at ``fraction`` (0–1) of the distance it travels."""
        if self.trace is None:
            self.mover.set_visible(False)
            return None
        where = self.trace.position(float(np.clip(fraction, 0, 1)) * self.trace.length)
        self.mover.set_xy(coords.hexagon_vertices(where[0], where[1], TILE_RADIUS))
        self.mover.set_visible(True)
        return where


def draw(obj: Any, ax: Any = None, **style: Any) -> BoardPlot:
    """Draw a Level, PuzzleState or TapTrace on ``ax`` (a new pyplot figure when ``None``).

    ``style`` takes the keys of :data:`BOARD_STYLE`; an unknown key raises
    :class:`labkit.ArgumentError`. Returns the :class:`BoardPlot`, for :func:`update`.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0)])
    >>> ax = Figure().add_subplot()
    >>> plot = draw(lvl, ax, tile_colours=("black",) * 4, labels=False)
    >>> plot.ax is ax, plot.tiles.get_facecolor()[0].tolist(), ax.texts[:]
    (True, [0.0, 0.0, 0.0, 1.0], [])
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5.5, 5.5))
    plot = BoardPlot(ax, **style)
    _fill(plot, obj)
    return plot


def update(plot: BoardPlot, obj: Any, *, title: str | None = None) -> None:
    """Redraw ``plot``'s artists for another Level, PuzzleState or TapTrace (no new figure).

    ``title`` replaces the title :func:`draw` would give ``obj``.

    Examples
    --------
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    >>> plot = draw(lvl)
    >>> update(plot, lvl.rotated(1), title="turned")
    >>> plot.level == lvl.rotated(1), plot.ax.get_title(), plot.trace is None
    (True, 'turned', True)
    """
    _fill(plot, obj)
    if title is not None:
        plot.ax.set_title(title, fontsize=10, parse_math=False)


def _fill(plot: BoardPlot, obj: Any) -> None:
    if isinstance(obj, Level):
        plot.show_level(obj)
    elif hasattr(obj, "planned"):  # TapTrace
        extra = f" → blocked by {obj.blocker}" if obj.outcome == "blocked" else f" → {obj.outcome}"
        plot.show_level(obj.level, obj.active, title=f"{_title(obj.level)}: tap {obj.tile}{extra}")
        plot.show_trace(obj)
    elif hasattr(obj, "original"):  # PuzzleState
        title = (
            f"{_title(obj.original)} · {obj.status} · steps left {obj.steps_left} · "
            f"orientation {obj.orientation}"
        )
        plot.show_level(obj.level, obj.active, title=title)
    else:
        raise TypeError(f"cannot draw a {type(obj).__name__}")


def svg(obj: Any, size: float = 5.0) -> str:
    """SVG text of a Level, PuzzleState or TapTrace (no pyplot state is touched)."""
    from matplotlib.figure import Figure

    from labkit._svg import figure_svg

    fig = Figure(figsize=(size, size))
    _fill(BoardPlot(fig.add_subplot()), obj)
    fig.tight_layout()
    return figure_svg(fig)


def png(obj: Any, path: str, size: float = 5.0, dpi: int = 110) -> None:
    """Save a PNG of a Level, PuzzleState or TapTrace (for reports and for looking at figures)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(size, size))
    _fill(BoardPlot(fig.add_subplot()), obj)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
