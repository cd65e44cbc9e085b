"""GaugeTuner: tune enemy timeCosts against the player's action mix (rules J2, M5).

Sliders set each scheduled enemy type's ``timeCost``, the player's repeating action mix (moves,
battles with a status battle time, ranged skills with their timeCost) and the number of ticks.
The app shows a raster of enemy actions against map turns (vertical lines mark the end of each
player action), how often each enemy acts per player action, and, for every enemy, how many
player actions pass before it first comes within N cells of where you stand ("you stand at"
x and y, the hero's start at first; N = 0: it steps onto you). A chaser walks a shortest path
from ``labkit.pathfinding``, a patroller its waypoint loop, both through the floor's walls only
(enemies and items in the way are taken as cleared); an idle or skill enemy does not walk. When
it never comes that close the table says why (walled off, its route stays N+ cells away, a wall
stops its patrol, it does not walk); see :mod:`labkit.widgets._gauge_approach`.

The schedule comes from :func:`labkit.mapturn.gauge_timeline`, i.e. the gauge rule alone: it
assumes enemies do not die or change floor in between, which is what a designer tunes against.

"How long until" answers are not limited to the ticks drawn: each is computed over exactly as
many ticks as it needs (a gauge gains 1 per tick, so an enemy of timeCost ``c`` performs its
``d``-th action by tick ``ceil(d * c)``). "never" means never: no path through the walls, or an
enemy that does not walk. Slider values are read on their step grid (``snapped``), so a value
the browser writes back as ``3.0000000000000004`` counts as the ``3.00`` it shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from labkit._text import html_text
from labkit.mapturn import World, example_tower_path, gauge_timeline, load_tower
from labkit.widgets._code import CodeError, CodeMixin, literal, path_code, shown, source
from labkit.widgets._controls import snapped, tip
from labkit.widgets._figure import FigurePane, new_figure
from labkit.widgets._gauge_approach import (
    Approach,
    chase_approach,
    patrol_approach,
    still_approach,
)
from labkit.widgets.glossary import words

if TYPE_CHECKING:
    from matplotlib.image import AxesImage

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
        # One label column wide enough for the longest label, so no description is cut.
        style = {"description_width": "190px"}
        layout = W.Layout(width="410px")

        def slider(kind: Any, *args: Any, description: str, **kw: Any) -> Any:
            return kind(*args, description=description, style=style, layout=layout, **kw)

        self.sliders = {
            e.id: tip(slider(W.FloatSlider, value=e.time_cost, min=0.5, max=8, step=0.5,
                             readout_format=".1f", description=f"{e.id} timeCost ({e.act_type})"),
                      f"{e.id}: map-turn ticks per action (its gauge gains 1 per tick and acts "
                      f"at timeCost); {e.act_type}")
            for e in types
        }  # fmt: skip
        self.moves = slider(W.IntSlider, 4, 0, 10, description="moves per cycle")
        self.battles = slider(W.IntSlider, 1, 0, 5, description="battles per cycle")
        self.battle_time = slider(W.IntSlider, 1, 1, 6, description="status battle time (ticks)")
        self.ranged = slider(W.IntSlider, 0, 0, 5, description="ranged skills per cycle")
        self.ranged_cost = slider(W.IntSlider, 2, 1, 6, description="ranged timeCost (ticks)")
        self.ticks = slider(W.IntSlider, ticks, 10, 400, step=10, description="ticks shown")
        tip(self.ticks, "how many map turns the raster draws; the table is not limited by it")
        hero = self.world.hero
        h, w = self.world.shape(self.floor)
        start = (hero.x, hero.y) if hero.floor == self.floor else (0, 0)
        self.you_x = slider(W.IntSlider, start[0], 0, w - 1, description="you stand at x")
        self.you_y = slider(W.IntSlider, start[1], 0, h - 1, description="you stand at y")
        self.within = slider(W.IntSlider, 0, 0, 10, description="within (cells)")
        tip(self.within, "how near an enemy must come: 4-way steps, walls ignored; 0 = it steps "
                         "onto your cell and a battle starts")  # fmt: skip
        self.text = W.HTML(layout=W.Layout(width="470px"))
        controls = [*self.sliders.values(), self.moves, self.battles, self.battle_time,
                    self.ranged, self.ranged_cost, self.ticks, self.you_x, self.you_y,
                    self.within]  # fmt: skip
        self._build_figure(W)
        self._build_map()
        # The floor map beside the sliders that set where you stand (issue 47: set blind before),
        # the table under it.
        top = W.HBox([W.VBox(controls), W.VBox([self.map_pane.widget, self.text])],
                     layout=W.Layout(flex_flow="row wrap"))  # fmt: skip
        self.ui = W.VBox([top, self.pane.widget])
        self.result: dict[str, Any] = {}
        self.update()
        for w in controls:
            w.observe(lambda change: self.update(), names="value")
        self._add_code_button()

    # -- model -----------------------------------------------------------------------------------
    def time_costs(self) -> list[float]:
        """Each enemy instance's timeCost as its slider shows it (snapped to the 0.5 grid)."""
        return [snapped(self.sliders[e.id]) for _, _, e in self.instances]

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

    def you(self) -> tuple[int, int]:
        """The cell you stand on (x, y), as the two sliders show it."""
        return int(self.you_x.value), int(self.you_y.value)

    def approaches(self) -> list[Approach]:
        """For each enemy instance: its own actions until it is first within ``within`` cells of
        you, or None and why (walls only; see :mod:`labkit.widgets._gauge_approach`)."""
        walls = self.world.walls(self.floor)
        you, n = self.you(), int(self.within.value)
        out = []
        for x, y, e in self.instances:
            if e.act_type == "chase":
                out.append(chase_approach((x, y), walls, you, n))
            elif e.act_type == "patrol":
                points = e.act_args.get("waypoints", [])
                out.append(patrol_approach((x, y), points, walls, you, n))
            else:
                out.append(still_approach((x, y), you, n, e.act_type))
        return out

    def until(self) -> dict[str, dict[str, Any]]:
        """For every enemy: tick of its first action, and the tick and player action on which it
        first comes within ``within`` cells of you (tick 0, player action 0: it is there at the
        start); ``None`` with the reason in ``never`` when it never does (see module notes)."""
        labels = [f"{e.id}@{x},{y}" for x, y, e in self.instances]
        costs = self.time_costs()
        near = self.approaches()
        need = [max(1, a.actions or 1) for a in near]
        # The k-th action of an enemy of timeCost c comes by tick ceil(k * c); +2 covers rounding.
        horizon = int(max((np.ceil(k * c) for k, c in zip(need, costs) if c > 0), default=1)) + 2
        timeline = gauge_timeline(costs, horizon)
        ends = self.action_ends(horizon + int(sum(self.player_times())))
        out: dict[str, dict[str, Any]] = {}
        for i, (label, a) in enumerate(zip(labels, near)):
            row: dict[str, Any] = {"first_action_tick": timeline.tick_of_action(i, 1)}
            if a.actions is None:
                tick, action = None, None
            elif a.actions == 0:
                tick, action = 0, 0
            else:
                tick = timeline.tick_of_action(i, a.actions)
                action = None if tick is None else int(np.searchsorted(ends, tick) + 1)
            row.update(reach_tick=tick, reach_action=action, never=a.reason or None)
            out[label] = row
        return out

    def compute(self) -> dict[str, Any]:
        """Timeline, actions per player action and when each enemy comes near you."""
        ticks = self.ticks.value
        labels = [f"{e.id}@{x},{y}" for x, y, e in self.instances]
        timeline = gauge_timeline(self.time_costs(), ticks)
        ends = self.action_ends(ticks)
        per_action = timeline.actions / max(1, len(ends))
        until = self.until()
        reach = {k: v["reach_action"] for k, v in until.items()}
        you = self.you()
        acts = {k: e.act_type for k, (_, _, e) in zip(labels, self.instances)}
        return {"timeline": timeline, "labels": labels, "ends": ends,
                "per_action": dict(zip(labels, per_action.round(3).tolist())),
                "reach": reach, "until": until, "within": int(self.within.value), "you": you,
                "you_in_wall": bool(self.world.walls(self.floor)[you[1], you[0]]),
                "acts": acts}  # fmt: skip

    def to_code(self) -> str:
        """Source rebuilding this tuner: tower, floor, every timeCost, the action mix, where you
        stand and how near counts."""
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
            lines.append(f"app.sliders[{key!r}].value = {literal(shown(slider))}")
        mix = ("moves", "battles", "battle_time", "ranged", "ranged_cost")
        for name in (*mix, "you_x", "you_y", "within"):
            lines.append(f"app.{name}.value = {getattr(self, name).value!r}")
        return source(lines, "app")

    # -- view ------------------------------------------------------------------------------------
    def _build_map(self) -> None:
        """A small map of the floor: walls, every enemy (patrols with their route) and you."""
        from matplotlib.colors import ListedColormap
        from matplotlib.lines import Line2D

        walls = self.world.walls(self.floor)
        h, w = walls.shape
        scale = 2.6 / max(h, w)
        self.map_fig, self.map_ax = new_figure(figsize=(max(2.0, w * scale + 0.9),
                                                        max(2.0, h * scale + 0.9)),
                                               layout="constrained")  # fmt: skip
        ax = self.map_ax
        shade = ListedColormap(["#f7f4ee", "#5a5a5a"])
        self.map_image = ax.imshow(walls.astype(int), cmap=shade, vmin=0, vmax=1,
                                   interpolation="nearest")  # fmt: skip
        self.routes: dict[str, Any] = {}
        for x, y, e in self.instances:
            label = f"{e.id}@{x},{y}"
            if e.act_type == "patrol":
                route = _patrol_route((x, y), e.act_args.get("waypoints", []), walls)
                xs, ys = [p[0] for p in route], [p[1] for p in route]
                (self.routes[label],) = ax.plot(xs, ys, "--", color="tab:purple", lw=1.2)
            ax.plot([x], [y], "o", color="tab:red", ms=6)
            ax.annotate(e.id, (x, y), xytext=(3, 3), textcoords="offset points", fontsize=6)
        (self.you_mark,) = ax.plot([], [], "*", color="tab:blue", ms=13, mec="white")
        ax.set_xticks(range(w))
        ax.set_yticks(range(h))
        ax.tick_params(labelsize=6)
        ax.set_title(f"floor {self.floor}: click to stand there", fontsize=8)
        self.map_fig.legend(handles=[Line2D([], [], marker="*", ls="none", color="tab:blue",
                                            label="you"),
                           Line2D([], [], marker="o", ls="none", color="tab:red", label="enemy"),
                           Line2D([], [], ls="--", color="tab:purple", label="patrol route")],
                  loc="outside lower center", ncol=3, fontsize=6, frameon=False)  # fmt: skip
        self.map_fig.canvas.mpl_connect("button_press_event", self._on_map_press)
        self.map_pane = FigurePane(self.map_fig)

    def map_click(self, x: float, y: float) -> None:
        """Stand on the cell under the map point ``(x, y)`` (a click on the map)."""
        h, w = self.world.walls(self.floor).shape
        cx, cy = int(round(x)), int(round(y))
        if 0 <= cx < w and 0 <= cy < h:
            self.you_x.value, self.you_y.value = cx, cy

    def _on_map_press(self, event: Any) -> None:
        if event.inaxes is self.map_ax and event.xdata is not None:
            self.map_click(event.xdata, event.ydata)

    def _build_figure(self, W: Any) -> None:
        from matplotlib import colormaps
        from matplotlib.collections import LineCollection
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        rows = max(1, len(self.instances))
        self.fig, self.ax = new_figure(figsize=(9.2, 1.9 + 0.4 * rows), layout="constrained")
        self.image: AxesImage | None = None  # the raster, drawn on the first update
        self.lines = LineCollection([], colors="tab:red", linewidths=1.0, alpha=0.8)
        self.ax.add_collection(self.lines)
        self.ax.set_ylabel("enemy (id@x,y)")
        blues = [colormaps["Blues"](0.5), colormaps["Blues"](1.0)]  # clim 0-2, see update
        self.fig.legend(
            handles=[Patch(fc=blues[0], ec="none", label="acts once in the tick"),
                     Patch(fc=blues[1], ec="none", label="acts 2+ times"),
                     Line2D([], [], color="tab:red", lw=1, label="a player action ends")],
            loc="outside lower center", ncol=3, fontsize=8, frameon=False,
        )  # fmt: skip
        self.pane = FigurePane(self.fig)

    def update(self) -> None:
        """Recompute and refresh the raster, the player-action marks and the text in place."""
        from labkit.mapturn.draw import draw_raster, update_raster

        self.result = r = self.compute()
        tl = r["timeline"]
        raster = tl.raster()
        if self.image is None:
            self.image = draw_raster(self.ax, tl, r["labels"])
        else:
            update_raster(self.image, tl, r["labels"])
        # Fixed colour scale (0, 1, 2+), so the legend's two blues always mean the same thing.
        self.image.set_clim(0, 2)
        self.ax.set_xlim(0.5, tl.ticks + 0.5)
        top, bottom = -0.5, raster.shape[0] - 0.5
        self.lines.set_segments([[(t + 0.5, top), (t + 0.5, bottom)] for t in r["ends"]])
        self.ax.set_title(f"enemy actions per map turn over {tl.ticks} ticks "
                          f"({len(r['ends'])} player actions)", fontsize=9)  # fmt: skip
        self.text.value = self._table_html(r)
        self.you_mark.set_data([r["you"][0]], [r["you"][1]])
        self.map_pane.refresh()
        self._redraw()

    def _table_html(self, r: dict[str, Any]) -> str:
        # Reads ``r`` alone (compute's result), so the table is what the result says.
        rows = []
        acts = r.get("acts", {})
        for k, v in r["per_action"].items():
            u = r["until"][k]
            if u.get("reach_tick") is None:
                reach = f"never — {u.get('never') or 'it does not act that often'}"
            elif u["reach_tick"] == 0:
                reach = "at the start"
            else:
                reach = f"{u['reach_action']} (tick {u['reach_tick']})"
            first = u["first_action_tick"]
            act = html_text(words(acts[k])) if k in acts else ""
            rows.append(f"<tr><td title='{act}'>{html_text(k)}</td>"
                        f"<td>{v:.2f}</td><td>{'never' if first is None else first}</td>"
                        f"<td>{html_text(reach)}</td></tr>")  # fmt: skip
        n, (x, y) = r.get("within", 0), r.get("you", ("?", "?"))
        near = "reaches you" if n == 0 else f"comes within {n} cell{'s' * (n != 1)} of you"
        wall = " (a wall: taken as open)" if r.get("you_in_wall") else ""
        head = ("<th>enemy</th><th title='enemy actions per player action over the ticks shown'>"
                "acts per<br>player action</th><th>first acts<br>at tick</th>"
                f"<th>{near}<br>(you at {x},{y}{wall}):<br>player action (tick)</th>")  # fmt: skip
        return f"<table><tr>{head}</tr>{''.join(rows)}</table>"

    def _redraw(self) -> None:
        self.pane.refresh()


def _patrol_route(start: tuple[int, int], waypoints: list, walls: np.ndarray) -> list:
    """The cells a patroller walks (as :func:`~labkit.widgets._gauge_approach.patrol_approach`
    moves it: x first, then y), until its loop repeats or a wall or the edge stops it.

    Examples
    --------
    >>> _patrol_route((0, 0), [[2, 1], [0, 0]], np.zeros((2, 3), dtype=bool))
    [[0, 0], [1, 0], [2, 0], [2, 1], [1, 1], [0, 1], [0, 0], [1, 0]]
    """
    pos, index, h, w = tuple(start), 0, *walls.shape
    route, seen = [list(pos)], set()
    while waypoints and (pos, index) not in seen:
        seen.add((pos, index))
        tx, ty = waypoints[index % len(waypoints)]
        if (tx, ty) == pos:
            index = (index + 1) % len(waypoints)
            tx, ty = waypoints[index]
        dx, dy = int(np.sign(tx - pos[0])), int(np.sign(ty - pos[1]))
        if dx == dy == 0:
            continue
        step = (pos[0] + dx, pos[1]) if dx else (pos[0], pos[1] + dy)
        if not (0 <= step[0] < w and 0 <= step[1] < h) or walls[step[1], step[0]]:
            break
        pos = step
        route.append(list(pos))
    return route
