"""``PathfindingPlayground``: paint walls, one-way and hit tiles, pick start and target, switch
4/8-way and cost fields, and see status, path, cost and the nodes the search reached (SPEC J2).

All logic lives in plain methods (``click``, ``paint``, ``set_start``, ``set_target``,
``update``) that tests drive without a browser; the matplotlib artists are updated in place.
With the ipympl backend (``%matplotlib widget``) clicking the map calls ``click``.
"""

from __future__ import annotations

import numpy as np

from labkit.pathfinding import (
    EIGHT_WAY,
    FOUR_WAY,
    DefaultPassPredicate,
    GameMap,
    PassBit,
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
        self.layer = self.game_map.event_layer
        self.start = (0, 0)
        self.target = (width - 1, height - 1)
        self.seed = seed
        self.tool = W.ToggleButtons(options=[*TOOLS, "start", "target"], value="wall")
        self.neighbourhood = W.ToggleButtons(options=["4-way", "8-way"], value="4-way")
        self.cost_field = W.Dropdown(options=COST_FIELDS, value="uniform", description="cost")
        self.status = W.HTML()
        self.neighbourhood.observe(lambda _: self.update(), names="value")
        self.cost_field.observe(lambda _: self.update(), names="value")
        self._build_figure()
        self.ui = W.VBox([self.tool, W.HBox([self.neighbourhood, self.cost_field]), self.status])
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

    def search(self) -> PathResult:
        face = EIGHT_WAY if self.neighbourhood.value == "8-way" else FOUR_WAY
        finder = PathFinder(self.layer, DefaultPassPredicate(), face, self.costs())
        return finder.find(self.start, self.target)

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

    def to_code(self) -> str:
        """Source rebuilding this playground: painted tiles, start, target, tool and options."""
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
            f"app.cost_field.value = {self.cost_field.value!r}",
            "app.update()",
        ]
        return source(lines, "app")

    # -- view ------------------------------------------------------------------------------
    def _build_figure(self) -> None:
        h, w = self.layer.tiles.shape
        self.fig, self.ax = new_figure(figsize=(min(8, 0.45 * w + 1), min(6, 0.45 * h + 1)))
        self.pane = FigurePane(self.fig)
        self.image = self.ax.imshow(np.ones((h, w, 3)), interpolation="nearest")
        (self.reached,) = self.ax.plot([], [], "s", ms=4, color="#e0c030", alpha=0.6)
        (self.terminals,) = self.ax.plot([], [], "o", ms=14, mfc="none", mec="#c0392b", mew=2)
        (self.path_line,) = self.ax.plot([], [], "-", lw=3, color="#8e44ad")
        (self.start_mark,) = self.ax.plot([], [], "o", ms=10, color="#27ae60")
        (self.target_mark,) = self.ax.plot([], [], "s", ms=10, color="#e74c3c")
        self.ax.set_xticks(range(w))
        self.ax.set_yticks(range(h))
        self.ax.tick_params(labelsize=7)
        self.fig.canvas.mpl_connect("button_press_event", self._on_press)

    def _figure_widget(self, W):
        return self.pane.widget  # ipympl: the live, clickable canvas

    def _on_press(self, event) -> None:
        if event.inaxes is self.ax and event.xdata is not None:
            self.click(event.xdata, event.ydata)

    def update(self) -> PathResult:
        """Search again and refresh every artist and the status line; returns the result."""
        self.result = r = self.search()
        tiles = self.layer.tiles
        rgb = np.array([COLOURS[int(t)] for t in tiles.ravel()]).reshape(*tiles.shape, 3)
        cost = self.costs()
        if cost is not None:
            shade = (cost - 1) / max(float(cost.max()) - 1, 1.0)
            empty = tiles == 0
            rgb[empty] = rgb[empty] * (1 - 0.45 * shade[empty, None]) + [0, 0.45, 0.1] * (
                0.45 * shade[empty, None]
            )
        self.image.set_data(rgb)
        g = r.graph
        cells = g.cells if g is not None else np.empty((0, 2))
        self.reached.set_data(cells[:, 0], cells[:, 1])
        ends = g.cells[g.terminal] if g is not None else np.empty((0, 2))
        self.terminals.set_data(ends[:, 0], ends[:, 1])
        self.path_line.set_data(r.path[:, 0], r.path[:, 1])
        self.start_mark.set_data([self.start[0]], [self.start[1]])
        self.target_mark.set_data([self.target[0]], [self.target[1]])
        cost_text = "∞" if r.cost == float("inf") else f"{r.cost:g}"
        self.status.value = (
            f"<b>{r.status.name}</b> · cost {cost_text} · steps {max(len(r.path) - 1, 0)} · "
            f"expanded {r.expanded} · graph nodes {len(g) if g is not None else 0}"
        )
        self.pane.refresh()
        return r

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)
