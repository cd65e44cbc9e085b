"""``FunnelView``: where players stop in a campaign, and what a new order would change.

The levels are tags in play order: drag one to another place (or use :meth:`move`) and the
funnel is redrawn: the reach curve with its 95 % band over the order you started from (grey),
the share who stop at each level, attempts per clear. The funnel of a new order reuses the
parameter draws and players of the first (common random numbers), so what changes is the order
alone; a redraw plays ``draws × players`` players again (2 × 10⁴ by default, well under a
second). **improve** runs :func:`~labkit.hexpuzzle.improve_campaign` for the goals on the
sliders and shows its order. Logic in plain methods (:meth:`set_order`, :meth:`move`,
:meth:`improve`, :meth:`rows`) that tests call without a browser.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from labkit.hexpuzzle import TrueModel
>>> view = FunnelView(["L01", "L02", "L03"], TrueModel([1.0, -1.0, 0.0], quit={"baseline": -2.0}))
>>> f = view.move("L02", 1)
>>> view.order, f.level_ids[0]
(['L02', 'L01', 'L03'], 'L02')
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from labkit.rng import make_rng
from labkit.widgets._busy import loading
from labkit.widgets._code import CodeError, CodeMixin, level_code, literal, path_code, source
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["FunnelView"]


class FunnelView(CodeMixin):
    """The funnel of a campaign under a fitted skill model, levels reorderable; ``.ui``.

    Parameters
    ----------
    campaign : sequence of Level or ids, optional
        Default: the shipped 24-level campaign.
    model : SkillModel or path of a model file, optional
        Default: the shipped skill model (while it has no quit model: one fitted with its quit
        model to the shipped progression telemetry, about ten seconds). It needs a quit model.
    players, draws, seed : int
        Each redraw plays ``draws`` cohorts of ``players`` (seeded by ``seed``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from labkit.hexpuzzle import TrueModel
    >>> truth = TrueModel([0.5, -0.5], quit={"baseline": -1.5})
    >>> view = FunnelView(["L01", "L02"], truth, players=500, draws=4)
    >>> view.set_order(["L02", "L01"]).level_ids
    ('L02', 'L01')
    >>> view.set_order(["L02"]) is None, "put back" in view.status.value
    (True, True)
    """

    def __init__(
        self,
        campaign: Sequence[Any] | None = None,
        model: Any = None,
        *,
        players: int = 1000,
        draws: int = 20,
        seed: int = 0,
    ) -> None:
        from labkit.hexpuzzle import SkillModel
        from labkit.hexpuzzle import campaign as main_line

        self._campaign_arg, self._model_arg = campaign, model
        # Building takes seconds (a fit on first use, the first funnel): say so at once.
        with loading("the funnel view") as say:
            self.levels = list(main_line() if campaign is None else campaign)
            if model is None:
                say("fitting the skill model to the shipped telemetry")
                model = _default_model(self.levels)
            elif isinstance(model, (str, os.PathLike)):
                model = SkillModel.load(model)
            self.model = model
            self.players, self.draws, self.seed = int(players), int(draws), int(seed)
            say(f"playing {self.draws} × {self.players:,} players")
            self._build()

    def _build(self) -> None:
        import ipywidgets as W

        # The cohorts' seed is the one improve_campaign(rng=seed) plays its before and after
        # funnels from, so the numbers improve reports are the ones on show (one screen, one
        # number per idea).
        self._rng = int(make_rng(self.seed).integers(2**62))
        self.by_id = {_id(lv): lv for lv in self.levels}
        self.start = [_id(lv) for lv in self.levels]
        self.fig, self.axes = new_figure(1, 3, figsize=(9.6, 3.2), width_ratios=[2.2, 1.4, 1.4],
                                         layout="constrained")  # fmt: skip
        self.pane = FigurePane(self.fig)
        self._artists: Any = None
        self.tags = W.TagsInput(value=list(self.start), allowed_tags=list(self.start),
                                allow_duplicates=False, layout=W.Layout(width="98%"))  # fmt: skip
        self.reach_goal = W.FloatSlider(value=0.6, min=0.0, max=1.0, step=0.05,
                                        description="reach last", readout_format=".0%")  # fmt: skip
        self.hazard_goal = W.FloatSlider(value=0.10, min=0.01, max=0.5, step=0.01,
                                         description="max stop", readout_format=".0%")  # fmt: skip
        self.improve_button = W.Button(description="improve", tooltip="reorder to meet the goals")
        self.reset_button = W.Button(description="reset order")
        self.status, self.table, self.advice = W.HTML(), W.HTML(), W.HTML()
        self.goals = W.HTML()
        self.baseline = self._funnel(self.start)
        self.funnel = self.baseline
        self._syncing = False
        self.tags.observe(self._dragged, names="value")
        # the sliders are goals: the line under them says whether the order on show meets them
        # (a goal slider that changed nothing on screen read as broken)
        for slider in (self.reach_goal, self.hazard_goal):
            slider.observe(lambda _: self._show_goals(), names="value")
        self.improve_button.on_click(lambda _: self.improve())
        self.reset_button.on_click(lambda _: self.set_order(self.start))
        self.ui = W.VBox([W.HTML("<b>play order</b> (drag a level to move it)"), self.tags,
                          W.HBox([self.reset_button, self.reach_goal, self.hazard_goal,
                                  self.improve_button]),
                          self.goals, self.status, self.pane.widget, self.advice,
                          self.table])  # fmt: skip
        self._draw()
        # lay the figure out once, then keep that layout: re-solving the constrained layout on
        # every redraw would cost more than playing the players. Laid out without rendering: a
        # canvas.draw() here sent a frame before the browser could take it, and the chart
        # stayed blank on some opens (issue 47); frames go when the browser asks for them.
        self.fig.draw_without_rendering()
        self.fig.set_layout_engine("none")
        self._add_code_button()

    def _dragged(self, change: dict) -> None:
        if not self._syncing:
            self.set_order(list(change["new"]))

    @property
    def order(self) -> list[str]:
        """The level ids in the current play order."""
        return list(self.funnel.level_ids)

    def _funnel(self, ids: Sequence[str]) -> Any:
        from labkit.hexpuzzle import funnel

        return funnel([self.by_id[i] for i in ids], self.model, players=self.players,
                      draws=self.draws, rng=self._rng)  # fmt: skip

    def set_order(self, ids: Sequence[str]) -> Any:
        """Play the levels in the order ``ids`` and redraw; returns the funnel (None, with a
        message, while the tags are not every level once)."""
        ids = [str(i) for i in ids]
        missing = [i for i in self.start if i not in ids]
        if missing or len(ids) != len(self.start):
            from html import escape

            gone = escape(", ".join(missing) or "none")
            self.status.value = (
                f"<b>put back every level once</b> to see the funnel (missing: {gone})"
            )
            return None
        self.funnel = self._funnel(ids)
        if list(self.tags.value) != ids:
            self._syncing = True  # a move made in code: show it on the tags, no second redraw
            try:
                self.tags.value = ids
            finally:
                self._syncing = False
        self._draw()
        return self.funnel

    def move(self, level_id: str, position: int) -> Any:
        """Move one level to ``position`` (1 = first) and redraw; returns the funnel."""
        order = [i for i in self.order if i != level_id]
        if len(order) == len(self.order):
            from labkit import ArgumentError

            raise ArgumentError("is not in the campaign", argument="level_id", value=level_id)
        order.insert(max(0, min(int(position) - 1, len(order))), level_id)
        return self.set_order(order)

    def improve(self) -> Any:
        """Reorder toward the slider goals (:func:`~labkit.hexpuzzle.improve_campaign`)."""
        from labkit.hexpuzzle import FunnelGoal, improve_campaign

        goal = FunnelGoal(reach_last=self.reach_goal.value, max_quit_hazard=self.hazard_goal.value)
        self.advice.value = "<i>searching for a better order…</i>"
        imp = improve_campaign([self.by_id[i] for i in self.order], self.model, goal,
                               players=self.players, draws=self.draws, rng=self.seed,
                               time_limit=10.0)  # fmt: skip
        self.set_order(imp.order)
        from html import escape

        lines = [escape(line) for line in imp.summary().splitlines()]
        self.advice.value = ("<b>improve</b> (before: the order when you pressed improve; after: "
                             "the order now on show)<br>" + "<br>".join(lines))  # fmt: skip
        return imp

    def rows(self) -> list[dict[str, Any]]:
        """The current funnel's rows (see :meth:`~labkit.hexpuzzle.Funnel.rows`)."""
        return self.funnel.rows()

    def _draw(self) -> None:
        same = self.order == self.start
        self._artists = self.funnel.draw(self._artists or self.axes,
                                         baseline=None if same else self.baseline)  # fmt: skip
        legend = self.axes[0].get_legend()
        if legend is not None:  # the chart names the two orders as the line above it does
            for text, said in zip(legend.get_texts(), ("first order", "this order")):
                text.set_text(said)
        self.pane.refresh()
        self.status.value = self.summary_html()
        self.table.value = self.table_html()
        self._show_goals()

    def _show_goals(self) -> None:
        self.goals.value = self.goals_html()

    def goals_html(self) -> str:
        """The goals on the sliders in words, each with whether the order on show meets it (as
        :func:`~labkit.hexpuzzle.improve_campaign` judges: the funnel's own estimate).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from labkit.hexpuzzle import TrueModel
        >>> view = FunnelView(["L01", "L02"], TrueModel([0.5, -0.5], quit={"baseline": -1.5}),
        ...                   players=500, draws=4)
        >>> view.reach_goal.value = 0.0
        >>> "at least 0 % reach the last level (this order: " in view.goals_html()
        True
        >>> view.goals_html().split("reach the last level (this order: ")[1].split(")")[0][-3:]
        'met'
        """
        from html import escape

        import numpy as np

        from labkit.hexpuzzle import FunnelGoal

        f = self.funnel
        goal = FunnelGoal(reach_last=self.reach_goal.value,
                          max_quit_hazard=self.hazard_goal.value, max_band_drop=None)  # fmt: skip
        reach_words, stop_words = goal.describe()
        reach = float(f.stats["reach"][-1, 0])
        met = "met" if reach >= self.reach_goal.value else "not met"
        parts = [f"{reach_words} (this order: {_pct(reach)}, {met})"]
        # the last level has no stop decision (0 or NaN): it never breaks the stop goal
        stops = np.nan_to_num(np.asarray(f.stats["quit_hazard"][:, 0], dtype=float))
        worst = int(np.argmax(stops))
        met = "met" if stops[worst] <= self.hazard_goal.value else "not met"
        parts.append(f"{stop_words} (this order: {escape(str(f.level_ids[worst]))} stops "
                     f"{_pct(float(stops[worst]))}, {met})")  # fmt: skip
        return "<b>goals</b> (for <b>improve</b>): " + " · ".join(parts)

    def summary_html(self) -> str:
        """The funnel's headline in words: reaching the last level and winning it (finishing)
        are two numbers, each named once; beside a changed order, the first order's."""
        from html import escape

        from labkit.hexpuzzle import compare_funnels

        f, base = self.funnel, self.baseline
        same = self.order == self.start

        def was(x: float) -> str:
            return "" if same else f" (first order {_pct(x)})"

        reach, finished = float(f.stats["reach"][-1, 0]), f.finished
        reach_was = was(float(base.stats["reach"][-1, 0]))
        lines = [
            f"<b>reach the last level: {_pct(reach)}</b>{reach_was}",
            f"<b>win the last level (finish the campaign): {_pct(finished)}</b>"
            f"{was(base.finished)}",
        ]
        if not same:
            c = compare_funnels(base, f, labels=("first order", "this order"))
            v, lo, hi = (100 * float(x) for x in c.reach_difference[-1])
            verdict = ("more players get there" if lo > 0 else "fewer players get there"
                       if hi < 0 else "no clear difference")  # fmt: skip
            lines.append(f"this order against the first, players reaching the last level: "
                         f"{v:+.1f} points (95 %: {lo:+.1f} to {hi:+.1f}): {verdict}")  # fmt: skip
        exits = ", ".join(f"{escape(lid)} ({_pct(share)})" for lid, share in f.exits(3))
        lines.append(f"where most players stop (share of those who start): {exits}")
        return " · ".join(lines)

    def table_html(self) -> str:
        """One row per level, each value with its 95 % interval, in a designer's words; the last
        level has no stop decision (the campaign ends there), so it says so."""
        from html import escape

        f = self.funnel
        checked = bool(getattr(f, "check", ()))
        timed = "seconds" in f.stats
        head = ["#", "level", "reach it", "win at the first try", "attempts per clear",
                "stop here (of those who reach it)"]  # fmt: skip
        head += ["seconds there"] if timed else []
        head += ["check against the data"] if checked else []
        rows = f.rows()
        body = []
        for r in rows:
            last = r["position"] == len(rows)
            stop = ("the campaign ends here" if last
                    else _cell(r, "quit_hazard", percent=True))  # fmt: skip
            cells = [str(r["position"]), escape(str(r["level"])),
                     _cell(r, "reach", percent=True), _cell(r, "first_try", percent=True),
                     _cell(r, "attempts_per_clear", percent=False), stop]  # fmt: skip
            if timed:
                cells.append(_cell(r, "seconds", percent=False, digits=0))
            if checked:
                cells.append(escape(str(r.get("check", ""))))
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        header = "".join(f"<th>{h}</th>" for h in head)
        return f"<table><tr>{header}</tr>{''.join(body)}</table>"

    def to_code(self) -> str:
        """Source rebuilding this view with its current order."""
        lines = ["from labkit.widgets import FunnelView"]
        if self._campaign_arg is None:
            lines.insert(0, "from labkit.hexpuzzle import campaign")
            camp = "campaign()"
        elif all(isinstance(lv, str) for lv in self.levels):
            camp = literal(self.start)
        else:
            lines.insert(0, "from labkit.hexpuzzle import Level")
            camp = "[" + ",\n ".join(level_code(lv) for lv in self.levels) + "]"
        if self._model_arg is None:
            model = "None"
        elif _is_shipped_model(self._model_arg):
            # named, not inlined: the shipped model written out is some 50 000 characters, and
            # its file path is this machine's only
            lines.insert(0, "from labkit.hexpuzzle import shipped_skill_model")
            model = "shipped_skill_model()"
        elif isinstance(self._model_arg, (str, os.PathLike)):
            model = path_code(self._model_arg)
        elif hasattr(self.model, "to_dict"):
            lines.insert(0, "from labkit.hexpuzzle import SkillModel")
            model = f"SkillModel.from_dict({literal(self.model.to_dict())})"
        else:
            raise CodeError("this model cannot be written as code: save it and pass its path")
        lines += ["", f"view = FunnelView({camp}, {model}, players={self.players}, "
                  f"draws={self.draws}, seed={self.seed})",
                  f"view.set_order({literal(self.order)})"]  # fmt: skip
        # the goals for improve, when moved from their defaults (the code button keeps every
        # control, issue 47)
        for name, default in (("reach_goal", 0.6), ("hazard_goal", 0.10)):
            value = getattr(self, name).value
            if value != default:
                lines.append(f"view.{name}.value = {value!r}")
        return source(lines, "view")

    def __repr__(self) -> str:
        return f"FunnelView({len(self.levels)} levels)"


def _default_model(levels: list[Any]) -> Any:
    """The shipped skill model, or (while it has no quit model) one fitted with its quit model
    to the shipped progression telemetry."""
    from labkit._data import data_path
    from labkit.hexpuzzle import fit_skill_model, load_telemetry, shipped_skill_model

    model = shipped_skill_model()
    if getattr(model, "quit_model", None) is not None:
        return model
    rows = load_telemetry(data_path("telemetry", "progression.csv"), frame=False)
    return fit_skill_model(rows, levels, dropout="model")


def _is_shipped_model(model: Any) -> bool:
    """Whether ``model`` (a path or a model) is the shipped skill model, so the code can name it."""
    from labkit._data import data_path
    from labkit.hexpuzzle import shipped_skill_model

    shipped = data_path("telemetry", "skill_model.json", must_exist=False)
    if isinstance(model, (str, os.PathLike)):
        return os.path.exists(model) and os.path.samefile(model, shipped)
    return (
        hasattr(model, "to_dict")
        and shipped.exists()
        and (model.to_dict() == shipped_skill_model().to_dict())
    )


def _pct(x: float) -> str:
    """A share as a designer reads it: ``0.324`` → ``"32 %"``."""
    return "–" if x != x else f"{100 * x:.0f} %"


def _cell(r: dict[str, Any], name: str, *, percent: bool, digits: int = 2) -> str:
    v, lo, hi = (float(r[k]) for k in (name, f"{name}_low", f"{name}_high"))  # type: ignore[arg-type]
    if v != v:
        return "nobody gets here" if name != "seconds" else "no time data"
    if percent:
        return f"{_pct(v)} <small>({_pct(lo)}–{_pct(hi)})</small>"
    return f"{v:.{digits}f} <small>({lo:.{digits}f}–{hi:.{digits}f})</small>"


def _id(level: Any) -> str:
    return level if isinstance(level, str) else str(level.id)
