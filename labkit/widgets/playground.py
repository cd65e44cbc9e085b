"""``PathfindingPlayground``: paint walls, one-way and hit tiles, pick start and target, switch
4/8-way and cost fields, and see status, path, cost and the nodes the search reached (rule J2).

All logic lives in plain methods (``click``, ``paint``, ``press``/``drag``/``release``,
``set_start``, ``set_target``, ``update``, ``reason``) that tests drive without a browser; the
matplotlib artists are updated in place. With the ipympl backend (``%matplotlib widget``)
clicking the map paints one cell and dragging paints every cell the pointer crosses.

8-way corner rule: by default the search uses rule P3, which judge a diagonal step
on its two end cells, so a path may squeeze past a wall's corner; the "corners" toggle switches to
:class:`~labkit.pathfinding.NoCornerCutting`, the rule :func:`~labkit.pathfinding.grid_path`
uses. The status line names the rule in force.
"""

from __future__ import annotations

import numpy as np

from labkit.pathfinding import (
    EIGHT_WAY,
    FOUR_WAY,
    DefaultPassPredicate,
    GameMap,
    MapLayer,
    NoCornerCutting,
    PassBit,
    PassPredicate,
    PathFinder,
    PathResult,
    TileDef,
)
from labkit.widgets._code import CodeMixin, literal, source
from labkit.widgets._figure import FigurePane, new_figure

WALL = TileDef(1, in_pass=0, out_pass=0, name="wall")
HIT = TileDef(2, event_pass=False, name="hit tile (door)")
ONE_WAY = TileDef(3, in_pass=PassBit.LEFT, out_pass=PassBit.RIGHT, name="one-way east")
TOOLS = {"wall": WALL.number, "one-way →": ONE_WAY.number, "hit tile": HIT.number, "erase": 0}
COLOURS = {0: (1.0, 1.0, 1.0), 1: (0.23, 0.23, 0.23), 2: (0.94, 0.63, 0.25), 3: (0.61, 0.78, 0.94)}
COST_FIELDS = ("uniform", "swamp in the middle", "random 1-5")
COST_TOP = 5.0  # the dearest cell of the shipped fields; the colour bar spans 1 to this
CORNERS = {"may cut corners (rule P3)": False, "no corner cutting (as the fast path finder)": True}
_SHADE = np.array([0.0, 0.45, 0.1])  # the green a cell tends to as its cost rises
BRUSHES = ("wall", "one-way →", "hit tile", "erase")  # tools a drag paints with


class PathfindingPlayground(CodeMixin):
    """An interactive pathfinding sandbox on a small map.

    Parameters
    ----------
    width, height : int
        Map size in cells.
    seed : int
        Seed of the random cost field.

    Examples
    --------
    >>> app = PathfindingPlayground(8, 5)
    >>> app.result.status.name, app.result.cost
    ('SUCCESS', 11.0)
    >>> for y in range(5):
    ...     app.paint(4, y, "wall")
    >>> app.result.status.name
    'NO_PATH'
    """

    def __init__(self, width: int = 16, height: int = 10, seed: int = 0) -> None:
        import ipywidgets as W

        self.game_map = GameMap([WALL, HIT, ONE_WAY], event=np.zeros((height, width), dtype=int))
        layer = self.game_map.event_layer
        assert layer is not None, "the map was built with an event grid just above"
        self.layer: MapLayer = layer
        self.start = (0, 0)
        self.target = (width - 1, height - 1)
        self.seed = seed
        self._stroke: set[tuple[int, int]] | None = None
        self.tool = W.ToggleButtons(options=[*TOOLS, "start", "target"], value="wall",
                                    tooltips=["paint with it: " + t for t in TOOLS]
                                    + ["put the start here", "put the target here"],
                                    style={"button_width": "100px"})  # fmt: skip
        self.neighbourhood = W.ToggleButtons(options=["4-way", "8-way"], value="4-way",
                                             style={"button_width": "70px"})  # fmt: skip
        self.corners = W.Dropdown(options=list(CORNERS), description="8-way corners",
                                  style={"description_width": "initial"},
                                  layout=W.Layout(width="auto"))  # fmt: skip
        self.cost_field = W.Dropdown(options=COST_FIELDS, value="uniform", description="cost",
                                     layout=W.Layout(width="260px"))  # fmt: skip
        self.status = W.HTML()
        for control in (self.neighbourhood, self.corners, self.cost_field):
            control.observe(lambda _: self.update(), names="value")
        self._build_figure()
        row = W.HBox([self.neighbourhood, self.corners, self.cost_field],
                     layout=W.Layout(flex_flow="row wrap"))  # fmt: skip
        self.ui = W.VBox([self.tool, row, self.status])
        self.ui.children += (self._figure_widget(W),)
        self.update()
        self._add_code_button()

    # -- model -----------------------------------------------------------------------------
    def costs(self) -> np.ndarray | None:
        """The selected cost field, indexed [y, x] (``None`` = 1 per cell)."""
        h, w = self.layer.tiles.shape
        if self.cost_field.value == "uniform":
            return None
        if self.cost_field.value == "swamp in the middle":
            cost = np.ones((h, w))
            cost[h // 4 : h - h // 4, w // 4 : w - w // 4] = 4.0
            return cost
        rng = np.random.default_rng(self.seed)
        return rng.integers(1, 6, size=(h, w)).astype(float)

    def predicate(self) -> DefaultPassPredicate | NoCornerCutting:
        """The rules in force: the seed's, or grid_path's corner rule on top in 8-way mode."""
        if self.neighbourhood.value == "8-way" and CORNERS[self.corners.value]:
            return NoCornerCutting(DefaultPassPredicate())
        return DefaultPassPredicate()

    def search(self, predicate: PassPredicate | None = None) -> PathResult:
        face = EIGHT_WAY if self.neighbourhood.value == "8-way" else FOUR_WAY
        finder = PathFinder(self.layer, predicate or self.predicate(), face, self.costs())
        return finder.find(self.start, self.target)

    def reason(self, r: PathResult | None = None) -> str:
        """Why there is no path, in the map's terms ("" when there is one)."""
        r = r or self.result
        if r.status.name != "NO_PATH":
            return ""
        h, w = self.layer.tiles.shape
        tx, ty = self.target
        if not self.layer.in_bounds(tx, ty):
            return f"out of range: the target ({tx}, {ty}) lies outside the {w}×{h} map"
        if r.graph is not None and r.graph.node(tx, ty) >= 0:
            return (
                "blocked by a terminal: the target is reachable only through hit tiles "
                "(a walker stops at a hit tile, so a path may end on one, never cross it)"
            )
        if int(self.layer.tiles[ty, tx]) == WALL.number:
            return f"target unreachable: ({tx}, {ty}) is a wall"
        if self.search(_NoHits(self.predicate())).ok:
            return (
                "blocked by a terminal: every way to the target crosses a hit tile "
                "(a walker stops at a hit tile, so a path may end on one, never cross it)"
            )
        return (
            "target unreachable: walls and one-way tiles cut it off from the start "
            f"({len(r.graph) if r.graph is not None else 0} cells reachable)"
        )

    def paint(self, x: int, y: int, tool: str | None = None) -> None:
        """Apply a tool (default: the selected one) to cell ``(x, y)`` and update."""
        tool = tool or self.tool.value
        if not self.layer.in_bounds(x, y):
            return
        if tool == "start":
            self.start = (x, y)
        elif tool == "target":
            self.target = (x, y)
        else:
            self.layer.set_tile(x, y, TOOLS[tool])
        self.update()

    def set_start(self, x: int, y: int) -> None:
        self.paint(x, y, "start")

    def set_target(self, x: int, y: int) -> None:
        self.paint(x, y, "target")

    def click(self, xdata: float, ydata: float) -> None:
        """A click at data coordinates (cell centres are integers)."""
        self.paint(int(round(xdata)), int(round(ydata)))

    def press(self, xdata: float, ydata: float) -> None:
        """Mouse button down: paint the cell and, for a brush tool, start a stroke."""
        self._stroke = set() if self.tool.value in BRUSHES else None
        self.drag(xdata, ydata) if self._stroke is not None else self.click(xdata, ydata)

    def drag(self, xdata: float, ydata: float) -> None:
        """Pointer moved with the button down: paint the cell under it once per stroke."""
        if self._stroke is None:
            return
        cell = (int(round(xdata)), int(round(ydata)))
        if cell not in self._stroke and self.layer.in_bounds(*cell):
            self._stroke.add(cell)
            self.paint(*cell)

    def release(self, xdata: float | None = None, ydata: float | None = None) -> None:
        """Mouse button up (at a map point, if over the map): the cell under it is painted (the
        front end may drop the last moves of a quick drag), then the stroke ends."""
        if xdata is not None and ydata is not None:
            self.drag(xdata, ydata)
        self._stroke = None

    def to_code(self) -> str:
        """Source rebuilding this playground: painted tiles, start, target, tool and every option
        (the 8-way corner rule included)."""
        h, w = self.layer.tiles.shape
        ys, xs = np.nonzero(self.layer.tiles)
        painted = [(int(x), int(y), int(self.layer.tiles[y, x])) for y, x in zip(ys, xs)]
        lines = [
            "from labkit.widgets import PathfindingPlayground",
            "",
            f"app = PathfindingPlayground({w}, {h}, seed={self.seed!r})",
        ]
        if painted:
            lines.append(f"for x, y, tile in {literal(painted)}:")
            lines.append("    app.layer.set_tile(x, y, tile)")
        lines += [
            f"app.start, app.target = {literal(self.start)}, {literal(self.target)}",
            f"app.tool.value = {self.tool.value!r}",
            f"app.neighbourhood.value = {self.neighbourhood.value!r}",
            f"app.corners.value = {self.corners.value!r}",
            f"app.cost_field.value = {self.cost_field.value!r}",
            "app.update()",
        ]
        return source(lines, "app")

    # -- view ------------------------------------------------------------------------------
    def _build_figure(self) -> None:
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import LinearSegmentedColormap, Normalize
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        h, w = self.layer.tiles.shape
        self.fig, self.ax = new_figure(
            figsize=(min(9.2, 0.5 * w + 3.6), min(7.5, 0.5 * h + 1.6)), layout="constrained"
        )
        self.pane = FigurePane(self.fig)
        self.image = self.ax.imshow(np.ones((h, w, 3)), interpolation="nearest")
        (self.reached,) = self.ax.plot([], [], "s", ms=4, color="#e0c030", alpha=0.6)
        (self.terminals,) = self.ax.plot([], [], "o", ms=14, mfc="none", mec="#c0392b", mew=2)
        (self.arrows,) = self.ax.plot([], [], ">", ms=9, color="#1f4e79", ls="none")
        (self.path_line,) = self.ax.plot([], [], "-", lw=3, color="#8e44ad")
        (self.start_mark,) = self.ax.plot([], [], "o", ms=10, color="#27ae60")
        (self.target_mark,) = self.ax.plot([], [], "s", ms=10, color="#e74c3c")
        self.ax.set_xticks(range(w))
        self.ax.set_yticks(range(h))
        self.ax.tick_params(labelsize=7)
        self.ax.set_xlabel("x (cell column)")
        self.ax.set_ylabel("y (cell row)")
        darkest = tuple(float(c) for c in 0.55 + 0.45 * _SHADE)
        shade = LinearSegmentedColormap.from_list("cost", [(1.0, 1.0, 1.0), darkest])
        self.cost_norm = Normalize(1, COST_TOP)  # update() raises vmax to the field's maximum
        self.cost_scale = ScalarMappable(self.cost_norm, shade)
        self.colour_bar = self.fig.colorbar(self.cost_scale, ax=self.ax, shrink=0.8, pad=0.02)
        self.colour_bar.set_label("cost to enter an empty cell")
        handles = [
            Line2D([], [], marker="o", ms=8, ls="none", color="#27ae60", label="start"),
            Line2D([], [], marker="s", ms=8, ls="none", color="#e74c3c", label="target"),
            Line2D([], [], lw=3, color="#8e44ad", label="path"),
            Line2D([], [], marker="s", ms=4, ls="none", color="#e0c030", alpha=0.6,
                   label="reachable (graph node)"),
            Line2D([], [], marker="o", ms=9, ls="none", mfc="none", mec="#c0392b", mew=2,
                   label="terminal (stops a walker)"),
            Patch(fc=COLOURS[1], label="wall"),
            Patch(fc=COLOURS[3], label="one-way (pass eastward only)"),
            Line2D([], [], marker=">", ms=7, ls="none", color="#1f4e79", label="one-way arrow"),
            Patch(fc=COLOURS[2], label="hit tile (door)"),
        ]  # fmt: skip
        self.fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=8,
                        frameon=False)  # fmt: skip
        self.fig.canvas.mpl_connect("button_press_event", self._on_press)
        self.fig.canvas.mpl_connect("motion_notify_event", self._on_move)
        self.fig.canvas.mpl_connect("button_release_event", self._on_release)

    def _figure_widget(self, W):
        return self.pane.widget  # ipympl: the live, clickable canvas

    def _on_press(self, event) -> None:
        if event.inaxes is self.ax and event.xdata is not None:
            self.press(event.xdata, event.ydata)

    def _on_release(self, event) -> None:
        over = event.inaxes is self.ax and event.xdata is not None
        self.release(event.xdata, event.ydata) if over else self.release()

    def _on_move(self, event) -> None:
        if self._stroke is not None and event.inaxes is self.ax and event.xdata is not None:
            self.drag(event.xdata, event.ydata)

    def update(self) -> PathResult:
        """Search again and refresh every artist and the status line; returns the result."""
        self.result = r = self.search()
        tiles = self.layer.tiles
        rgb = np.array([COLOURS[int(t)] for t in tiles.ravel()]).reshape(*tiles.shape, 3)
        cost = self.costs()
        # One colour scale for every field (1 = white), so a colour means the same cost always.
        top = max(COST_TOP, 1.0 if cost is None else float(cost.max()))
        if cost is not None:
            shade = (cost - 1) / (top - 1)
            empty = tiles == 0
            rgb[empty] = rgb[empty] * (1 - 0.45 * shade[empty, None]) + _SHADE * (
                0.45 * shade[empty, None]
            )
        self.cost_norm.vmax = top
        self.colour_bar.update_normal(self.cost_scale)
        self.image.set_data(rgb)
        g = r.graph
        cells = g.cells if g is not None else np.empty((0, 2))
        self.reached.set_data(cells[:, 0], cells[:, 1])
        ends = g.cells[g.terminal] if g is not None else np.empty((0, 2))
        self.terminals.set_data(ends[:, 0], ends[:, 1])
        ys, xs = np.nonzero(tiles == ONE_WAY.number)
        self.arrows.set_data(xs, ys)
        self.path_line.set_data(r.path[:, 0], r.path[:, 1])
        self.start_mark.set_data([self.start[0]], [self.start[1]])
        self.target_mark.set_data([self.target[0]], [self.target[1]])
        cost_text = "∞" if r.cost == float("inf") else f"{r.cost:g}"
        why = self.reason(r)
        self.corners.disabled = self.neighbourhood.value != "8-way"  # the rule is 8-way only
        rule = ""
        if self.neighbourhood.value == "8-way":
            rule = (" · 8-way, no corner cutting (the fast path finder's rule)"
                    if CORNERS[self.corners.value]
                    else " · 8-way, may cut past wall corners (rule P3)")  # fmt: skip
        self.status.value = (
            f"<b>{r.status.name}</b>{': ' + why if why else ''} · cost {cost_text} · "
            f"steps {max(len(r.path) - 1, 0)} · expanded {r.expanded} · graph nodes "
            f"{len(g) if g is not None else 0}{rule}"
        )
        self.pane.refresh()
        return r


class _NoHits:
    """``base``'s passability with hit tiles walked through: tells "cut off" from "only through
    a terminal" when explaining NO_PATH."""

    def __init__(self, base) -> None:
        self.base = base

    def can_pass(self, check) -> bool:
        return self.base.can_pass(check)

    def should_hit(self, check) -> bool:
        return False
