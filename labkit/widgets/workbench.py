"""DifficultyWorkbench: tune the score's part weights and band edges against telemetry (rule J2).

Sliders set the six part weights (points at full strength), the baseline and the three band
edges; the levels are re-scored and re-ranked live, and a scatter shows each level's score
under the sliders against its observed difficulty index
(:mod:`labkit.hexpuzzle.difficulty.observed`),
with R² and Spearman's ρ of the current weights. The **calibrate** button runs
:func:`~labkit.hexpuzzle.difficulty.fit.calibrate` and moves the sliders to the fitted weights and
edges; its fit report (with bootstrap intervals) is shown under the plot.

Without telemetry the scatter compares the slider scores with the uncalibrated score and the
calibrate button is disabled.

The **mode** toggle switches to the *skill model* (:mod:`labkit.widgets.skill_panel`): each
level's fitted difficulty with its interval, the players' abilities and the held-out
calibration plot (:func:`~labkit.hexpuzzle.fit_skill_model`, fitted when first shown).

Under the table, **generate like this** makes a level like the one chosen in "like" at the
difficulty its slider sets (board, rotations and tile count as chosen) and opens it in a
workshop below; "put into campaign and save" writes it into a chosen slot of a campaign file.
At the bottom, **How varied are generated levels?** (:mod:`labkit.widgets._variety_panel`) makes a
few levels per ask on a score × rotations grid and shows their expressive range and the control
map, with the answer in words.

The scatter labels each level with its campaign number (the table's "was" column) and keys the
band colours; :meth:`DifficultyWorkbench.warnings` flags an empty band and weights that rank the
levels worse than the uncalibrated score does. Slider values are read on their step grid, except
that a value set by code (the calibrated weights) is kept exactly while the slider still shows
it: the browser rounds 12.347 to the slider's 12.5 and writes that back, which must not move the
fit.

All logic lives in plain methods (:meth:`set_weights`, :meth:`scores`, :meth:`ranking`,
:meth:`fit_stats`, :meth:`run_calibration`) that tests call without a browser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from labkit._data import data_path
from labkit._text import html_text
from labkit.hexpuzzle import Level, calibrate, observed_index, strengths
from labkit.hexpuzzle.difficulty.calibration import BAND_NAMES, DEFAULT_EDGES, band_of
from labkit.hexpuzzle.difficulty.scoring import PARTS, WEIGHTS, Difficulty, js_round, score
from labkit.widgets._busy import busy, loading
from labkit.widgets._code import (
    CodeError,
    CodeMixin,
    level_code,
    literal,
    path_code,
    source,
    telemetry_code,
)
from labkit.widgets._controls import snapped
from labkit.widgets._figure import FigurePane, new_figure

if TYPE_CHECKING:  # both are imported when first shown (the workbench opens fast)
    from labkit.widgets.skill_panel import SkillPanel
    from labkit.widgets.workshop import LevelWorkshop

__all__ = ["DifficultyWorkbench", "sample_telemetry_path"]

BAND_COLOURS = {"easy": "#2a9d8f", "intermediate": "#e9c46a", "hard": "#f4a261",
                "challenge": "#c1121f", None: "#999999"}  # fmt: skip


def sample_telemetry_path() -> Path:
    """The shipped ``data/telemetry/sample.csv`` (simulated players on the campaign)."""
    return data_path("telemetry", "sample.csv")


class DifficultyWorkbench(CodeMixin):
    """Weights and band edges on sliders, the levels re-ranked live; ``.ui`` is the widget.

    Parameters
    ----------
    levels : sequence of Level or Difficulty, optional
        Default: the shipped campaign (with the sample telemetry when ``telemetry`` is None).
    telemetry : telemetry table, DataFrame or CSV path, optional
    n_boot : int
        Bootstrap resamples used by the calibrate button.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> level = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    >>> bench = DifficultyWorkbench([level])
    >>> bench.scores() == [score(level).total], bench.button.disabled  # no telemetry to fit
    (True, True)
    >>> bench.set_weights({p: 0.0 for p in PARTS}, baseline=5.0)
    >>> bench.scores(), bench.ranking()[0]["band"]
    ([5], 'easy')
    """

    level_labels: list[Any]  # one number per level on the scatter (built by _build_plot)

    def __init__(
        self,
        levels: Sequence[Level | Difficulty] | None = None,
        telemetry: Any = None,
        *,
        n_boot: int = 200,
    ) -> None:
        # Scoring the campaign and reading its telemetry take seconds: say so at once.
        with loading("the difficulty workbench"):
            self._setup(levels, telemetry, n_boot)

    def _setup(self, levels: Any, telemetry: Any, n_boot: int) -> None:
        import ipywidgets as w

        self._levels_arg = None if levels is None else list(levels)
        self._telemetry_arg = telemetry
        if levels is None:
            from labkit.hexpuzzle import campaign

            levels = campaign()
            if telemetry is None and sample_telemetry_path().is_file():
                telemetry = sample_telemetry_path()
        self.difficulties = [lv if isinstance(lv, Difficulty) else score(lv) for lv in levels]
        self.levels = [lv if isinstance(lv, Level) else None for lv in levels]
        self.ids = [d.level_id for d in self.difficulties]
        self.x = np.array([strengths(d) for d in self.difficulties]).reshape(-1, len(PARTS))
        self.original = np.array(
            [np.nan if d.total is None else d.total for d in self.difficulties]
        )
        self.telemetry = telemetry
        self.n_boot = n_boot
        self.observed = None if telemetry is None else observed_index(telemetry, self.difficulties)
        self.calibration = None

        self._exact: dict[int, float] = {}
        style = {"description_width": "100px"}
        self.weight_sliders = {
            p: w.FloatSlider(WEIGHTS[p], min=0, max=60, step=0.5, description=p, style=style,
                             continuous_update=False)
            for p in PARTS
        }  # fmt: skip
        self.baseline = w.FloatSlider(0.0, min=0, max=50, step=0.5, description="baseline",
                                      style=style, continuous_update=False)  # fmt: skip
        self.edge_sliders = [
            w.FloatSlider(e, min=0, max=100, step=1, description=f"{name} ≥", style=style,
                          continuous_update=False)
            for e, name in zip(DEFAULT_EDGES, BAND_NAMES[1:])
        ]  # fmt: skip
        self.button = w.Button(description="calibrate", icon="crosshairs",
                               disabled=self.observed is None)  # fmt: skip
        self.reset = w.Button(description="defaults")
        self.stats = w.HTML()
        self.table = w.HTML()
        self.report = w.HTML("<i>press calibrate to fit the weights to the telemetry</i>")
        self._hold = False
        for s in [*self.weight_sliders.values(), self.baseline, *self.edge_sliders]:
            s.observe(self._on_slider, names="value")
        self.button.on_click(lambda _: self.run_calibration())
        self.reset.on_click(lambda _: self.set_weights(WEIGHTS, 0.0, DEFAULT_EDGES))

        self.fig, self.ax = new_figure(figsize=(5.2, 4.4))
        self.pane = FigurePane(self.fig)
        self._build_plot()
        # The slider column keeps its natural width (label, track and value readout): squeezed
        # by the figure beside it, it became a scroll box hiding the values (issue 24).
        sliders = w.VBox([*self.weight_sliders.values(), self.baseline, *self.edge_sliders,
                          w.HBox([self.button, self.reset])],
                         layout=w.Layout(flex="0 0 auto", overflow="visible"))  # fmt: skip
        from labkit.widgets._target_panel import TargetPanel

        # "Generate a level like this at difficulty X": opens in a LevelWorkshop below.
        known = [(i, k) for k, i in enumerate(self.ids) if self.levels[k] is not None]
        self.like = w.Dropdown(options=known, description="like")
        self.target_panel = TargetPanel(lambda: self.liked(), self.open_in_workshop)
        self.workshop: LevelWorkshop | None = None
        self.workshop_box = w.VBox()
        from labkit.widgets._campaign_slot import CampaignSlot

        self.campaign = CampaignSlot(lambda: self.target_panel.level,
                                     [lv for lv in self.levels if lv is not None],
                                     on_saved=self._follow_saved)  # fmt: skip
        self._followed: str | None = None  # the campaign file the levels were last taken from
        from labkit.widgets._variety_panel import VarietyPanel

        # "How varied are generated levels?": expressive range and control map (issue 27).
        # at the difficulty "generate like this" shows (the one slider for a difficulty here)
        self.variety = VarietyPanel(difficulty=lambda: self.target_panel.target.value)
        self.index_view = w.VBox(
            [w.HBox([sliders, w.VBox([self.pane.widget, self.stats],
                                     layout=w.Layout(flex="1 1 auto", min_width="0"))]),
             self.report, self.table,
             w.HBox([self.like]), self.target_panel.ui, self.campaign.ui, self.workshop_box,
             self.variety.ui]
        )  # fmt: skip
        self.mode = w.ToggleButtons(options=["index calibration", "skill model"])
        self.skill: SkillPanel | None = None  # built when the mode is first chosen
        self.mode.observe(lambda _: self.show_mode(), names="value")
        #: What the workbench is doing while it fits (empty when idle).
        self.activity = w.HTML()
        self.top = w.HBox([self.mode, self.activity])
        self.ui = w.VBox([self.top, self.index_view])
        self.refresh()
        self._add_code_button()

    # --- logic ----------------------------------------------------------------------------
    def value(self, slider: Any) -> float:
        """What ``slider`` stands for: the exact value code gave it while the slider still shows
        that value (the browser writes back its rounded position), else its snapped value."""
        exact = self._exact.get(id(slider))
        if exact is not None and abs(float(slider.value) - exact) <= slider.step / 2 + 1e-9:
            return exact
        return snapped(slider)

    @property
    def weights(self) -> dict[str, float]:
        return {p: self.value(s) for p, s in self.weight_sliders.items()}

    @property
    def edges(self) -> tuple[float, ...]:
        return tuple(sorted(self.value(s) for s in self.edge_sliders))

    def set_weights(
        self,
        weights: Mapping[str, float],
        baseline: float | None = None,
        edges: Sequence[float] | None = None,
    ) -> None:
        """Move the sliders (widening their range when a value lies beyond it), refresh once."""
        self._hold = True
        try:
            for p, value in weights.items():
                slider = self.weight_sliders[p]
                slider.max = max(slider.max, float(np.ceil(value)))
                self._set(slider, value)
            if baseline is not None:
                self.baseline.max = max(self.baseline.max, float(np.ceil(baseline)))
                self._set(self.baseline, baseline)
            for slider, e in zip(self.edge_sliders, edges or ()):
                self._set(slider, e)
        finally:
            self._hold = False
        self.refresh()

    def _set(self, slider: Any, value: float) -> None:
        self._exact[id(slider)] = float(value)
        slider.value = float(value)

    def predicted(self) -> np.ndarray:
        """Unrounded scores (0–100) of every level under the sliders (NaN: unscored level)."""
        w = np.array([self.weights[p] for p in PARTS])
        return np.clip(self.x @ w + self.value(self.baseline), 0.0, 100.0)

    def scores(self) -> list[int | None]:
        return [None if np.isnan(v) else js_round(v) for v in self.predicted()]

    def target(self) -> np.ndarray:
        """What the scores are compared with: the observed index, else the original score."""
        return self.original if self.observed is None else self.observed.index

    def fit_stats(self) -> tuple[float, float]:
        """R² and Spearman's ρ of the slider scores against :meth:`target`."""
        from scipy.stats import spearmanr

        pred, y = self.predicted(), self.target()
        ok = np.isfinite(pred) & np.isfinite(y)
        if ok.sum() < 3:
            return float("nan"), float("nan")
        ss_tot = float(((y[ok] - y[ok].mean()) ** 2).sum())
        r2 = 1 - float(((y[ok] - pred[ok]) ** 2).sum()) / ss_tot if ss_tot else float("nan")
        rho = spearmanr(pred[ok], y[ok]).statistic if np.ptp(pred[ok]) else float("nan")
        return r2, float(rho)

    def baseline_rho(self) -> float:
        """Spearman's ρ of the uncalibrated score (the shipped weights, unrounded, as the
        sliders compute it) against the observed index (NaN without telemetry)."""
        from scipy.stats import spearmanr

        if self.observed is None:
            return float("nan")
        y = self.observed.index
        base = np.clip(self.x @ np.array([WEIGHTS[p] for p in PARTS]), 0.0, 100.0)
        ok = np.isfinite(base) & np.isfinite(y)
        if ok.sum() < 3 or not np.ptp(base[ok]):
            return float("nan")
        return float(spearmanr(base[ok], y[ok]).statistic)

    def warnings(self) -> list[str]:
        """What a designer should not miss: empty bands, and weights that rank the levels worse
        than the uncalibrated score does."""
        out = []
        pred = self.predicted()
        bands = [band_of(v, self.edges) for v in pred[np.isfinite(pred)]]
        bounds = [0.0, *self.edges, 100.0]
        for k, name in enumerate(BAND_NAMES):
            if name not in bands:
                out.append(f"band <b>{name}</b> is empty: no level scores from "
                           f"{bounds[k]:.0f} to below {bounds[k + 1]:.0f}")  # fmt: skip
        _, rho = self.fit_stats()
        base = self.baseline_rho()
        if np.isfinite(rho) and np.isfinite(base) and rho < base:
            out.append(f"these weights rank the levels worse than the uncalibrated score "
                       f"(Spearman ρ {rho:.3f} &lt; {base:.3f})")  # fmt: skip
        return out

    def ranking(self) -> list[dict[str, Any]]:
        """Levels ordered by the slider score (ties keep the input order)."""
        scores = self.scores()
        order = sorted(
            range(len(scores)), key=lambda i: (1e9 if scores[i] is None else scores[i], i)
        )
        target = self.target()
        return [
            {"rank": r + 1, "was": i + 1, "id": self.ids[i], "score": scores[i],
             "band": band_of(scores[i], self.edges),
             "target": None if np.isnan(target[i]) else round(float(target[i]), 1)}
            for r, i in enumerate(order)
        ]  # fmt: skip

    def run_calibration(self):
        """Fit the weights to the telemetry and move the sliders there; returns the result."""
        if self.telemetry is None:
            self.report.value = "<b>no telemetry: nothing to calibrate against</b>"
            return None
        doing = f"calibrating the weights to the telemetry ({self.n_boot} bootstrap resamples)"
        with busy(self._say, doing):
            self.calibration = calibrate(self.telemetry, self.difficulties, n_boot=self.n_boot)
        self.report.value = self.calibration._repr_html_()
        cal = self.calibration
        self.set_weights(cal.weights, cal.intercept, cal.edges)
        return cal

    def show_mode(self) -> None:
        """Show the view :attr:`mode` names (fits the skill model the first time)."""
        if self.mode.value == "skill model":
            if self.skill is None:
                from labkit.widgets.skill_panel import SkillPanel

                self.skill = SkillPanel(self.difficulties, self.telemetry)
                with busy(self._say, "fitting the skill model to the players' attempts"):
                    self.skill.fit()
            view = self.skill.ui
        else:
            view = self.index_view
        # the code box (added last by CodeMixin) stays under whichever view is shown
        self.ui.children = (self.top, view, *self.ui.children[2:])

    def _say(self, words: str) -> None:
        self.activity.value = f"<i>{words}</i>" if words else ""

    def liked(self) -> Level | None:
        """The level chosen in the "like" list (the new level keeps its board size)."""
        return None if self.like.value is None else self.levels[self.like.value]

    def follow(self, levels: Sequence[Level]) -> None:
        """Take ``levels`` (a campaign, as saved) as the workbench's levels: scored, ranked and
        compared with the telemetry again; the table, scatter and "like" list show them."""
        taken = list(levels)
        self.levels = list[Level | None](taken)
        self.difficulties = [score(lv) for lv in taken]
        self.ids = [d.level_id for d in self.difficulties]
        self.x = np.array([strengths(d) for d in self.difficulties]).reshape(-1, len(PARTS))
        self.original = np.array(
            [np.nan if d.total is None else d.total for d in self.difficulties]
        )
        if self.telemetry is not None:
            self.observed = observed_index(self.telemetry, self.difficulties)
        for text in self.level_labels:
            text.remove()
        self.level_labels = [
            self.ax.text(0, 0, str(i + 1), fontsize=7, color="#333333", zorder=4, visible=False)
            for i in range(len(self.ids))
        ]  # fmt: skip
        like = self.like.value
        self.like.options = [(i, k) for k, i in enumerate(self.ids)]
        self.like.value = like if like is not None and like < len(self.ids) else None
        self.campaign.start = taken
        self.refresh()

    def _follow_saved(self, campaign: Any) -> None:
        self._followed = self.campaign.path.value
        self.follow(list(campaign))

    def open_in_workshop(self, level: Level) -> None:
        """Show ``level`` in a :class:`~labkit.widgets.LevelWorkshop` under the workbench (without
        the workshop's own "generate like this": the target is the workbench's)."""
        from labkit.widgets.workshop import LevelWorkshop

        self.workshop = LevelWorkshop(level, generate=False)
        self.workshop_box.children = (self.workshop.ui,)

    def to_code(self) -> str:
        """Source rebuilding this workbench: levels, telemetry, calibration, weights, edges, and
        "generate like this": the liked level, target, seed, board, rotations, tiles, the
        campaign file and slot, the generated level (as made, with how it was made), and the
        variety evaluation when it was run."""
        lines = ["from labkit.widgets import DifficultyWorkbench"]
        args = []
        made = self.target_panel.level
        if self._levels_arg is not None or made is not None:
            lines.append("from labkit.hexpuzzle import Level")
        if self._levels_arg is not None:
            if not all(isinstance(lv, Level) for lv in self._levels_arg):
                raise CodeError("to_code needs the levels as Level objects (not scores)")
            args.append("[\n    " + ",\n    ".join(map(level_code, self._levels_arg)) + ",\n]")
        if self._telemetry_arg is not None:
            if not isinstance(self._telemetry_arg, (str, Path)):
                lines.append("from labkit.hexpuzzle import parse_telemetry")
            args.append(telemetry_code(self._telemetry_arg))
        args.append(f"n_boot={self.n_boot!r}")
        lines += ["", f"bench = DifficultyWorkbench({', '.join(args)})"]
        if self.calibration is not None:
            lines.append("bench.run_calibration()")
        if self.mode.value != self.mode.options[0]:
            lines.append(f"bench.mode.value = {self.mode.value!r}")
        edges = [s.value for s in self.edge_sliders]
        lines.append(
            f"bench.set_weights({literal(self.weights)}, {literal(self.baseline.value)}, "
            f"{literal(edges)})"
        )
        lines += self._like_this_code()
        if self._followed is not None:  # the levels as the campaign file holds them
            lines.insert(1, "from labkit.hexpuzzle import Campaign")
            lines.append(f"bench.follow(Campaign.load({path_code(self._followed)}))")
        if self.variety.report is not None:  # the variety pictures (at the slider set above)
            lines.append(f"bench.variety.levels = {self.variety.levels!r}")
            lines.append(f"bench.variety.run({self.variety.asked!r})")
        return source(lines, "bench")

    def _like_this_code(self) -> list[str]:
        panel, camp = self.target_panel, self.campaign
        lines = [f"bench.like.value = {self.like.value!r}",
                 *panel.code_lines("bench.target_panel")[:5],
                 f"bench.campaign.path.value = {camp.path.value!r}",
                 f"bench.campaign.slot.value = {camp.slot.value!r}",
                 # the level as made (its seed and recipe in its metadata)
                 *panel.code_lines("bench.target_panel")[5:]]  # fmt: skip
        if self.workshop is not None:  # the generated level as edited since (if it was)
            lines += self.workshop.state_code("bench.workshop")
        return lines

    # --- display --------------------------------------------------------------------------
    def _build_plot(self) -> None:
        ax = self.ax
        ax.plot([0, 100], [0, 100], color="#bbbbbb", lw=1, zorder=1)
        self.points = ax.scatter([], [], s=36, edgecolors="black", linewidths=0.5, zorder=3)
        self.edge_lines = [ax.axvline(e, color="#888888", ls=":", lw=1) for e in DEFAULT_EDGES]
        self.info = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize=9)
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
        ax.set_xlabel("score under the sliders")
        ax.set_ylabel("observed index" if self.observed is not None else "uncalibrated score")
        ax.set_title("predicted vs observed difficulty", fontsize=10)
        self.level_labels = [
            ax.text(0, 0, str(i + 1), fontsize=7, color="#333333", zorder=4, visible=False)
            for i in range(len(self.ids))
        ]
        self._band_legend()

    def _band_legend(self) -> None:
        from matplotlib.lines import Line2D

        bounds = [0, *self.edges, 100]
        handles = [
            Line2D([], [], marker="o", ls="none", mfc=BAND_COLOURS[n], mec="black", mew=0.5,
                   label=f"{n} ({bounds[k]:.0f}–{bounds[k + 1]:.0f})")
            for k, n in enumerate(BAND_NAMES)
        ]  # fmt: skip
        handles.append(Line2D([], [], color="#888888", ls=":", label="band edge"))
        self.ax.legend(handles=handles, loc="lower right", fontsize=7, title="band (score)",
                       title_fontsize=7)  # fmt: skip

    def _on_slider(self, change: Any) -> None:
        if not self._hold:
            self.refresh()

    def refresh(self) -> None:
        """Recompute scores, ranking and statistics and update the artists in place."""
        pred, y = self.predicted(), self.target()
        ok = np.isfinite(pred) & np.isfinite(y)
        self.points.set_offsets(np.column_stack([pred[ok], y[ok]]).reshape(-1, 2))
        bands = [band_of(s, self.edges) for s in pred[ok]]
        self.points.set_facecolors([BAND_COLOURS[b] for b in bands])
        for line, e in zip(self.edge_lines, self.edges):
            line.set_xdata([e, e])
        for i, text in enumerate(self.level_labels):
            text.set_visible(bool(ok[i]))
            if ok[i]:
                text.set_position((pred[i] + 1.2, y[i] + 1.2))  # number = campaign order
        self._band_legend()
        r2, rho = self.fit_stats()
        self.info.set_text(f"R² = {r2:.3f}\nSpearman ρ = {rho:.3f}\nlevels: {int(ok.sum())}")
        self.stats.value = (
            f"<b>current weights</b>: R² = {r2:.3f}, Spearman ρ = {rho:.3f} on {int(ok.sum())} "
            f"levels · bands from {', '.join(f'{e:.0f}' for e in self.edges)} · "
            f"point labels: level number (table column 'was')"
        )
        warn = self.warnings()
        if warn:
            self.stats.value += "".join(f"<br><b style='color:#c1121f'>⚠ {w}</b>" for w in warn)
        self.table.value = self._table_html()
        self.pane.refresh()

    def _table_html(self) -> str:
        what = "observed" if self.observed is not None else "original"
        rows = "".join(
            f"<tr><td>{r['rank']}</td><td>{r['was']}</td><td>{html_text(r['id'])}</td><td>{r['score']}</td>"
            f"<td style='color:{BAND_COLOURS[r['band']]}'>{r['band']}</td>"
            f"<td>{r['target']}</td></tr>"
            for r in self.ranking()
        )
        return (
            "<table><tr><th>rank</th><th>was</th><th>level</th><th>score</th><th>band</th>"
            f"<th>{what}</th></tr>{rows}</table>"
        )
