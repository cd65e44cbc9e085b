"""LevelWorkshop: the original's level editor, with live validation, solve status and score.

Start from a radius-2 or radius-3 board (or a level file / :class:`Level`), then click cells with
one of the tools:

* **cell** — add or remove a board cell (within hex radius 4, the import limit); removing a
  cell removes its tile;
* **tracks** — give the cell the matching chosen in the list (15 matchings);
* **tile** — place a tile (heading up, colour 0) or remove the one there;
* **turn** — turn the tile's heading one port clockwise;
* **colour** — cycle the tile's colour 0–3.

A slider sets the move limit; it changes only when the user moves it (or loads a level), never
because a tile was added or removed. **undo** / **redo** step through every edit (move limit
included). When a level cannot be solved the status says why: which tiles can never leave (they
stay after every turn and every tap that works), or that the move limit is below the operations
the solution needs. After every edit the level is rebuilt through
:meth:`Level.from_json` (the import limits of rule H2), solved (H7) and scored (H9); the status
line shows what is wrong, or the solve status, minimum rotations, score, band and parts. Save
writes version-2 JSON atomically; load reads it back.

Decisions
---------
* New tiles get the first free id ``t0, t1, …`` and go last; existing tiles keep their ids
  and order, so a level loaded and saved unchanged is equal to the original.
* Rotation is left enabled (the game disables it on asymmetric boards; the status says so).
* All logic is in plain methods (:meth:`paint_cell`, :meth:`set_tracks`, :meth:`toggle_tile`,
  :meth:`turn_tile`, :meth:`colour_tile`, :meth:`click`, :meth:`new_board`, :meth:`save`,
  :meth:`load`) that tests call without a browser.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from labkit._text import html_text
from labkit.hexpuzzle import BoardPlot, coords, score
from labkit.hexpuzzle.draw import update as update_board
from labkit.hexpuzzle.level import MAX_RADIUS, STRAIGHT, Level, LevelError, all_matchings
from labkit.widgets._code import CodeMixin, literal, source
from labkit.widgets._figure import FigurePane, new_figure
from labkit.widgets._workshop_check import board_key, stuck_tiles, why_unsolvable

__all__ = ["LevelWorkshop"]

TOOLS = ("cell", "tracks", "tile", "turn", "colour")
_SPOTS = coords.hexagon_cells(MAX_RADIUS)
_SPOT_XY = np.array([coords.centre(q, r) for q, r in _SPOTS])


def _edit(method: Callable[..., Any]) -> Callable[..., Any]:
    """An editing method: one undo step when it changes the level (none when it changes nothing,
    e.g. a refused cell, or while the workshop is being built)."""

    @functools.wraps(method)
    def wrapper(self: LevelWorkshop, *args: Any, **kwargs: Any) -> Any:
        if not hasattr(self, "meta"):
            return method(self, *args, **kwargs)
        before = self._snapshot()
        try:
            return method(self, *args, **kwargs)
        finally:
            if self._snapshot() != before:
                self._push(before)

    return wrapper


def _label(tracks: tuple[int, ...]) -> str:
    return " ".join(f"{a}-{b}" for a, b in enumerate(tracks) if a < b)


class LevelWorkshop(CodeMixin):
    """A level editor; ``workshop.ui`` is the ipywidgets container.

    Parameters
    ----------
    level : Level, path or None
        Start from this level (or file); default a bare radius-``radius`` board.
    radius : {2, 3}
        Board of a new level.
    generate : bool
        Show the "generate like this" panel (a workbench showing its generated level turns it
        off: the target is the workbench's, not a second slider).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> workshop = LevelWorkshop(radius=2)
    >>> len(workshop.cells), workshop.move_limit.value
    (19, 10)
    >>> workshop.paint_cell(0, 0), len(workshop.cells)  # the centre cell is removed
    (True, 18)
    >>> workshop.undo(), len(workshop.cells)
    (True, 19)
    """

    def __init__(
        self,
        level: Level | str | os.PathLike | None = None,
        radius: int = 2,
        *,
        generate: bool = True,
    ) -> None:
        import ipywidgets as w

        self.tool = w.ToggleButtons(
            options=TOOLS,
            value="tile",
            style={"button_width": "100px"},
            tooltips=[f"click a cell to apply: {t}" for t in TOOLS],
        )
        self.matching = w.Dropdown(
            options=[(_label(m), m) for m in all_matchings()], value=STRAIGHT, description="tracks"
        )
        self.move_limit = w.IntSlider(10, min=1, max=60, description="move limit")
        self.radius = w.Dropdown(options=[2, 3], value=radius if radius in (2, 3) else 2,
                                 description="board")  # fmt: skip
        self.new = w.Button(description="new board")
        self.path = w.Text(value="my-level.json", description="file")
        self.save_button = w.Button(description="save")
        self.load_button = w.Button(description="load")
        self.undo_button = w.Button(description="undo", icon="undo", layout=w.Layout(width="80px"))
        self.redo_button = w.Button(description="redo", icon="repeat",
                                    layout=w.Layout(width="80px"))  # fmt: skip
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self._undo: list[tuple] = []
        self._redo: list[tuple] = []
        self.status = w.HTML()
        self.new.on_click(lambda _: self.new_board(self.radius.value))
        self.save_button.on_click(lambda _: self._guard(self.save, self.path.value))
        self.load_button.on_click(lambda _: self._guard(self.load, self.path.value))
        self.move_limit.observe(self._on_limit, names="value")

        self.fig, ax = new_figure(figsize=(6.0, 6.6), layout="constrained")
        self.pane = FigurePane(self.fig)
        self._spots(ax)
        self.plot = BoardPlot(ax)
        self._legend()
        self.fig.canvas.mpl_connect("button_press_event", self._on_press)
        from labkit.widgets._target_panel import TargetPanel

        # "Generate a level like this at difficulty X": the result opens here.
        self.target_panel = TargetPanel(lambda: self.level, self._take)
        like_this = [self.target_panel.ui] if generate else []
        self.ui = w.VBox(
            [
                w.HBox(
                    [self.radius, self.new, self.path, self.load_button, self.save_button],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                w.HBox(
                    [self.tool, self.undo_button, self.redo_button],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                w.HBox([self.matching, self.move_limit]),
                self.status,
                self.pane.widget,
                *like_this,
            ]
        )
        self.level: Level | None = None
        self.message = ""
        if level is None:
            self.new_board(self.radius.value)
        elif isinstance(level, Level):
            self._take(level)
        else:
            self.load(level)
        self._add_code_button()

    # --- editing --------------------------------------------------------------------------
    @_edit
    def new_board(self, radius: int = 2) -> None:
        """A bare board of hex ``radius`` with straight tracks and no tiles."""
        self.meta = {"id": f"workshop-r{radius}", "name": "", "rotationEnabled": True}
        self.cells = {c: STRAIGHT for c in coords.hexagon_cells(int(radius))}
        self.tiles: dict[tuple[int, int], list] = {}
        self.refresh()

    @_edit
    def paint_cell(self, q: int, r: int) -> bool:
        """Add the cell (with the chosen tracks) or remove it and its tile; False if refused."""
        if coords.hex_radius(q, r) > MAX_RADIUS:
            self.message = f"({q}, {r}) is outside hex radius {MAX_RADIUS} (import limit)"
            self.refresh()
            return False
        if (q, r) in self.cells:
            del self.cells[(q, r)]
            self.tiles.pop((q, r), None)
        else:
            self.cells[(q, r)] = tuple(self.matching.value)
        self.refresh()
        return True

    @_edit
    def set_tracks(self, q: int, r: int, tracks: tuple[int, ...] | None = None) -> None:
        """Give cell ``(q, r)`` a matching (default: the one chosen in the list)."""
        if (q, r) in self.cells:
            self.cells[(q, r)] = tuple(self.matching.value if tracks is None else tracks)
        self.refresh()

    @_edit
    def toggle_tile(self, q: int, r: int) -> None:
        """Place a tile on cell ``(q, r)`` (heading up, colour 0) or remove the tile there."""
        if (q, r) in self.tiles:
            del self.tiles[(q, r)]
        elif (q, r) in self.cells:
            used = {t[0] for t in self.tiles.values()}
            new_id = next(f"t{i}" for i in range(len(used) + 1) if f"t{i}" not in used)
            self.tiles[(q, r)] = [new_id, 0, 0]
        self.refresh()

    @_edit
    def turn_tile(self, q: int, r: int, step: int = 1) -> None:
        if (q, r) in self.tiles:
            self.tiles[(q, r)][1] = (self.tiles[(q, r)][1] + step) % 6
        self.refresh()

    @_edit
    def colour_tile(self, q: int, r: int) -> None:
        if (q, r) in self.tiles:
            self.tiles[(q, r)][2] = (self.tiles[(q, r)][2] + 1) % 4
        self.refresh()

    @_edit
    def apply(self, q: int, r: int) -> None:
        """Use the current tool on cell ``(q, r)``."""
        tool = self.tool.value
        if tool == "cell":
            self.paint_cell(q, r)
        elif tool == "tracks":
            self.set_tracks(q, r)
        elif tool == "tile":
            self.toggle_tile(q, r)
        elif tool == "turn":
            self.turn_tile(q, r)
        else:
            self.colour_tile(q, r)

    def click(self, x: float, y: float) -> tuple[int, int] | None:
        """Apply the tool to the cell spot under the board point ``(x, y)``; returns it."""
        d = np.hypot(*(_SPOT_XY - (x, y)).T)
        k = int(np.argmin(d))
        if d[k] > 1.0:
            return None
        self.apply(*_SPOTS[k])
        return _SPOTS[k]

    # --- files ----------------------------------------------------------------------------
    def document(self) -> dict[str, Any]:
        """The level being edited as a version-2 JSON document (may break the limits)."""
        return {
            "version": 2,
            "id": self.meta["id"],
            "name": self.meta["name"] or self.meta["id"],
            "rotationEnabled": self.meta["rotationEnabled"],
            "moveLimit": int(self.move_limit.value),
            "cells": [{"q": q, "r": r, "tracks": list(t)}
                      for (q, r), t in sorted(self.cells.items())],
            "tiles": [{"id": i, "q": q, "r": r, "dir": d, "color": c}
                      for (q, r), (i, d, c) in self.tiles.items()],
        }  # fmt: skip

    def save(self, path: str | os.PathLike) -> None:
        """Write the level (only a valid one) as version-2 JSON."""
        if self.level is None:
            raise LevelError(f"not saved: {self.message}", file=str(path))
        self.level.save(path)
        self.message = f"saved {path}"
        self.refresh()

    @_edit
    def load(self, path: str | os.PathLike) -> None:
        """Read a level file (validated) into the workshop."""
        self._take(Level.load(path))
        self.message = f"loaded {path}"
        self.refresh()

    def _take(self, level: Level) -> None:
        self.meta = {"id": level.id, "name": level.name, "rotationEnabled": level.rotation_enabled}
        self.cells = dict(level.board.tracks)
        self.tiles = {t.cell: [t.id, t.dir, t.color] for t in level.tiles}
        self._set_limit(level.move_limit)
        self.refresh()

    def to_code(self) -> str:
        """Source rebuilding this workshop: the edited document (even an invalid one), the move
        limit, the tool, the chosen tracks, the file name and "generate like this" (difficulty,
        seed, board, rotations, tiles and the level it made)."""
        made = self.target_panel.level is not None
        lines = [
            "from labkit.hexpuzzle import Level" if made else None,
            "from labkit.widgets import LevelWorkshop",
            "",
            f"ws = LevelWorkshop(radius={self.radius.value!r})",
            *self.target_panel.code_lines("ws.target_panel"),  # before the edits made since
            *self.state_code("ws"),
        ]
        return source([line for line in lines if line is not None], "ws")

    def state_code(self, name: str) -> list[str]:
        """Lines setting the workshop called ``name`` to this one's document and controls (a
        workbench writes its generated level's workshop with them, edits included)."""
        return [
            f"{name}.meta = {literal(self.meta)}",
            f"{name}.cells = {literal(self.cells)}",
            f"{name}.tiles = {literal(self.tiles)}",
            f"{name}.move_limit.max = {self.move_limit.max!r}",
            f"{name}.move_limit.value = {self.move_limit.value!r}",
            f"{name}.tool.value = {self.tool.value!r}",
            f"{name}.matching.value = {literal(tuple(self.matching.value))}",
            f"{name}.path.value = {self.path.value!r}",
            f"{name}.refresh()",
        ]

    # --- analysis and display -------------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild and check the level, solve and score it, redraw."""
        try:
            self.level = Level.from_json(self.document())
        except LevelError as exc:
            self.level = None
            self.difficulty = None
            self.status.value = f"<b style='color:#c1121f'>invalid</b>: {html_text(exc)}"
            self.plot.show_trace(None)
            self.pane.refresh()
            return
        self.difficulty = score(self.level)
        self.status.value = self.describe()
        update_board(self.plot, self.level, title=self.level.id)
        pad = 1.2  # show every spot a cell may be painted on, not just the board
        self.plot.ax.set_xlim(_SPOT_XY[:, 0].min() - pad, _SPOT_XY[:, 0].max() + pad)
        self.plot.ax.set_ylim(_SPOT_XY[:, 1].max() + pad, _SPOT_XY[:, 1].min() - pad)
        self.pane.refresh()

    def describe(self) -> str:
        lvl, d = self.level, self.difficulty
        assert lvl is not None and d is not None, "refresh() describes a built, scored level"
        head = f"{len(lvl.board)} cells, {len(lvl.tiles)} tiles, move limit {lvl.move_limit}"
        if not lvl.can_rotate:
            head += ", rotation off (board not six-fold symmetric)"
        note = f" · <i>{html_text(self.message)}</i>" if self.message else ""  # names a file
        self.message = ""
        if d.status == "invalid_empty":
            return f"{head} · <b>no tiles</b>: not a playable level{note}"
        sol = d.solution
        assert sol is not None, "score() solves every level that has tiles"
        solve = f"solve: <b>{sol.status}</b>"
        if sol.solved:
            solve += f", {sol.rotations} rotation(s) minimum, {sol.operations} operations"
        elif sol.status == "unsolvable":
            solve += f" — {html_text(self.why_unsolvable())}"  # names tiles
        if d.total is None:
            return f"{head} · {solve} · score: {d.status}{note}"
        parts = " ".join(f"{k}={v}" for k, v in d.display.items())
        warn = ""
        if d.status == "too_few_steps":
            warn = (f" · <b style='color:#c1121f'>too few steps</b>: move limit {lvl.move_limit}"
                    f" is below the {sol.operations} operations the shortest solution needs "
                    f"({sol.taps} taps + {sol.rotations} rotations)")  # fmt: skip
        return f"{head} · {solve} · score <b>{d.total}</b> ({d.band}) {parts}{warn}{note}"

    def stuck_tiles(self) -> list[str]:
        """Tiles that can never leave (see :func:`~labkit.widgets._workshop_check.stuck_tiles`)."""
        return [] if self.level is None else stuck_tiles(self.document())

    def why_unsolvable(self) -> str:
        """One line saying which tiles can never leave, and how they are held."""
        return why_unsolvable(self.document())

    def _legend(self) -> None:
        self.fig.legend(handles=board_key(), loc="outside lower center", ncol=3, fontsize=7,
                        frameon=False)  # fmt: skip

    def _spots(self, ax: Any) -> None:
        from matplotlib.collections import PolyCollection

        ghosts = [coords.hexagon_vertices(x, y, 0.97) for x, y in _SPOT_XY]
        ax.add_collection(PolyCollection(ghosts, facecolors="none", edgecolors="#e4e0d8",
                                         lw=0.6, linestyles=":", zorder=0))  # fmt: skip

    def _set_limit(self, value: int) -> None:
        self.move_limit.max = max(self.move_limit.max, int(value))
        self._quiet = True
        self.move_limit.value = int(value)
        self._quiet = False

    def _on_limit(self, change: Any) -> None:
        if not getattr(self, "_quiet", False):
            # The user moved the slider: the state before had the old limit.
            self._push(self._snapshot(limit=change["old"]))
            self.refresh()

    # --- undo / redo ----------------------------------------------------------------------
    def _snapshot(self, limit: int | None = None) -> tuple:
        tiles = tuple(sorted((c, tuple(t)) for c, t in self.tiles.items()))
        # Tiles keep their insertion order in the document: store it too.
        order = tuple(self.tiles)
        return (dict(self.meta), dict(self.cells), tiles, order,
                int(self.move_limit.value if limit is None else limit))  # fmt: skip

    def _restore(self, snap: tuple) -> None:
        meta, cells, tiles, order, limit = snap
        by_cell = dict(tiles)
        self.meta, self.cells = dict(meta), dict(cells)
        self.tiles = {c: list(by_cell[c]) for c in order}
        self._set_limit(limit)
        self.refresh()

    def _push(self, snap: tuple) -> None:
        if not self._undo or self._undo[-1] != snap:
            self._undo.append(snap)
            self._redo.clear()

    def undo(self) -> bool:
        """Go back one edit; False when there is nothing to undo."""
        if not self._undo:
            return False
        self._redo.append(self._snapshot())
        self._restore(self._undo.pop())
        return True

    def redo(self) -> bool:
        """Redo the edit last undone; False when there is nothing to redo."""
        if not self._redo:
            return False
        self._undo.append(self._snapshot())
        self._restore(self._redo.pop())
        return True

    def _guard(self, action: Any, *args: Any) -> None:
        try:
            action(*args)
        except LevelError as exc:
            self.status.value = f"<b style='color:#c1121f'>{html_text(exc)}</b>"  # names a file

    def _on_press(self, event: Any) -> None:
        if event.inaxes is self.plot.ax and event.xdata is not None:
            self.click(event.xdata, event.ydata)
