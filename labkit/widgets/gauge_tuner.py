"""GaugeTuner: tune enemy timeCosts against the player's action mix (SPEC J2, M5).

Sliders set each scheduled enemy type's ``timeCost``, the player's repeating action mix (moves,
battles with a status battle time, ranged skills with their timeCost) and the number of ticks.
The app shows a raster of enemy actions against map turns (vertical lines mark the end of each
player action), how often each enemy acts per player action, and, for each chaser, how many
player actions pass before it reaches the hero's start on the chosen floor (shortest path from
``labkit.pathfinding`` through the floor's walls only — enemies and items in the way are taken
as cleared; a chaser reaches the hero on its ``d``-th action, ``d`` = path steps).

The schedule comes from :func:`labkit.mapturn.gauge_timeline`, i.e. the gauge rule alone: it
assumes enemies do not die or change floor in between, which is what a designer tunes against.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit.mapturn import World, example_tower_path, gauge_timeline, load_tower
from labkit.widgets._code import CodeError, CodeMixin, literal, path_code, source
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["GaugeTuner"]


class GaugeTuner(CodeMixin):
    """Interactive gauge tuner over one floor of a tower.

    Examples
    --------
    >>> app = GaugeTuner(ticks=30)
    >>> app.sliders["bat"].value = 1.0
    >>> app.result["reach"]["bat@9,5"] is not None
    True
    """

    def __init__(self, tower: Any = None, floor: str | None = None, ticks: int = 60) -> None:
        import ipywidgets as W

        self._tower_arg = tower
        tower = load_tower(tower or example_tower_path()) if not hasattr(tower, "floors") else tower
        self.world = World(tower)
        self.floor = floor or self.world.floor
        self.instances = self.world.scan_enemies(self.floor)  # (x, y, EnemyDef)
        types = sorted({e.id: e for _, _, e in self.instances}.values(), key=lambda e: e.id)
        style = {"description_width": "150px"}
        layout = W.Layout(width="420px")
        self.sliders = {
            e.id: W.FloatSlider(value=e.time_cost, min=0.5, max=8, step=0.5, style=style,
                                layout=layout, description=f"{e.id} timeCost ({e.act_type})")
            for e in types
        }  # fmt: skip
        self.moves = W.IntSlider(4, 0, 10, description="moves per cycle", style=style,
                                 layout=layout)  # fmt: skip
        self.battles = W.IntSlider(1, 0, 5, description="battles per cycle", style=style,
                                   layout=layout)  # fmt: skip
        self.battle_time = W.IntSlider(1, 1, 6, description="status battle time", style=style,
                                       layout=layout)  # fmt: skip
        self.ranged = W.IntSlider(0, 0, 5, description="ranged skills per cycle", style=style,
                                  layout=layout)  # fmt: skip
        self.ranged_cost = W.IntSlider(2, 1, 6, description="ranged timeCost", style=style,
                                       layout=layout)  # fmt: skip
        self.ticks = W.IntSlider(ticks, 10, 400, step=10, description="ticks", style=style,
                                 layout=layout)  # fmt: skip
        self.text = W.HTML()
        controls = [*self.sliders.values(), self.moves, self.battles, self.battle_time,
                    self.ranged, self.ranged_cost, self.ticks]  # fmt: skip
        self._build_figure(W)
        self.ui = W.VBox([W.HBox([W.VBox(controls), self.text]), self.pane.widget])
        self.result: dict[str, Any] = {}
        self.update()
        for w in controls:
            w.observe(lambda change: self.update(), names="value")
        self._add_code_button()

    # -- model -----------------------------------------------------------------------------------
    def player_times(self) -> list[int]:
        """Time of each player action in one cycle of the mix (M4: move 1, battle = battle time,
        ranged = its timeCost)."""
        cycle = ([1] * self.moves.value + [self.battle_time.value] * self.battles.value
                 + [self.ranged_cost.value] * self.ranged.value)  # fmt: skip
        return cycle or [1]

    def action_ends(self, ticks: int) -> np.ndarray:
        """Tick at which each player action ends, for as many actions as fit in ``ticks``."""
        cycle = np.array(self.player_times())
        reps = ticks // int(cycle.sum()) + 1
        ends = np.cumsum(np.tile(cycle, reps))
        return ends[ends <= ticks]

    def compute(self) -> dict[str, Any]:
        """Timeline, actions per player action and chaser reach, for the current sliders."""
        from labkit.pathfinding import grid_path

        ticks = self.ticks.value
        labels = [f"{e.id}@{x},{y}" for x, y, e in self.instances]
        costs = [self.sliders[e.id].value for _, _, e in self.instances]
        timeline = gauge_timeline(costs, ticks)
        ends = self.action_ends(ticks)
        per_action = timeline.actions / max(1, len(ends))
        reach = {}
        hero = self.world.hero
        open_cells = ~self.world.walls(self.floor)
        for i, (x, y, e) in enumerate(self.instances):
            if e.act_type != "chase":
                continue
            cost = np.where(open_cells, 1.0, np.inf)
            cost[y, x] = cost[hero.y, hero.x] = 1.0
            path, _ = grid_path(cost, (x, y), (hero.x, hero.y))
            tick = timeline.tick_of_action(i, len(path) - 1) if len(path) > 1 else None
            reach[labels[i]] = None if tick is None else int(np.searchsorted(ends, tick) + 1)
        return {"timeline": timeline, "labels": labels, "ends": ends,
                "per_action": dict(zip(labels, per_action.round(3).tolist())),
                "reach": reach}  # fmt: skip

    def to_code(self) -> str:
        """Source rebuilding this tuner: tower, floor, every timeCost and the action mix."""
        if self._tower_arg is None:
            tower = ""
        elif hasattr(self._tower_arg, "floors"):
            raise CodeError("to_code needs the tower given as a path (GaugeTuner(path))")
        else:
            tower = path_code(self._tower_arg) + ", "
        lines = [
            "from labkit.widgets import GaugeTuner",
            "",
            f"app = GaugeTuner({tower}floor={self.floor!r}, ticks={self.ticks.value})",
        ]
        for key, slider in self.sliders.items():
            lines.append(f"app.sliders[{key!r}].value = {literal(slider.value)}")
        for name in ("moves", "battles", "battle_time", "ranged", "ranged_cost"):
            lines.append(f"app.{name}.value = {getattr(self, name).value!r}")
        return source(lines, "app")

    # -- view ------------------------------------------------------------------------------------
    def _build_figure(self, W: Any) -> None:
        from matplotlib.collections import LineCollection

        self.fig, self.ax = new_figure(figsize=(8, 0.5 + 0.45 * max(1, len(self.instances))))
        self.image = None
        self.lines = LineCollection([], colors="tab:red", linewidths=1.0, alpha=0.8)
        self.ax.add_collection(self.lines)
        self.pane = FigurePane(self.fig)

    def update(self) -> None:
        """Recompute and refresh the raster, the player-action marks and the text in place."""
        from labkit.mapturn.draw import draw_raster

        self.result = r = self.compute()
        tl = r["timeline"]
        raster = tl.raster()
        if self.image is None:
            self.image = draw_raster(self.ax, tl, r["labels"])
        else:
            self.image.set_data(raster)
            self.image.set_extent((0.5, tl.ticks + 0.5, raster.shape[0] - 0.5, -0.5))
            self.image.set_clim(0, max(2, int(raster.max(initial=0))))
        self.ax.set_xlim(0.5, tl.ticks + 0.5)
        top, bottom = -0.5, raster.shape[0] - 0.5
        self.lines.set_segments([[(t + 0.5, top), (t + 0.5, bottom)] for t in r["ends"]])
        self.ax.set_title(f"enemy actions per map turn; red lines end each player action "
                          f"({len(r['ends'])} actions)", fontsize=9)  # fmt: skip
        rows = "".join(
            f"<tr><td>{k}</td><td>{v:.2f}</td><td>{r['reach'].get(k, '—') or 'never'}</td></tr>"
            for k, v in r["per_action"].items()
        )
        head = "<th>enemy</th><th>acts / player action</th><th>player actions to reach you</th>"
        self.text.value = f"<table><tr>{head}</tr>{rows}</table>"
        self._redraw()

    def _redraw(self) -> None:
        self.pane.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)
