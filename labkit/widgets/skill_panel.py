"""The DifficultyWorkbench's "skill model" mode: what the skill model says about the levels.

Three panels: each level's fitted difficulty with its 95 % interval (levels in campaign order,
coloured by band), the players' ability histogram, and the held-out calibration plot (predicted
vs observed first-try success). A table lists the levels with their first-try success for an
average player, calibrated score and band. Logic in plain methods (:meth:`fit`, :meth:`rows`)
that tests call without a browser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from labkit.hexpuzzle.difficulty.scoring import Difficulty
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["SkillPanel"]

BAND_COLOURS = {"easy": "#2a9d8f", "intermediate": "#e9c46a", "hard": "#f4a261",
                "challenge": "#c1121f"}  # fmt: skip


class SkillPanel:
    """Fit :func:`~labkit.hexpuzzle.fit_skill_model` and show it; ``.ui`` is the widget."""

    def __init__(self, levels: Sequence[Difficulty], telemetry: Any, *, folds: int = 3) -> None:
        import ipywidgets as w

        self.levels, self.telemetry, self.folds = list(levels), telemetry, int(folds)
        self.model: Any = None
        self.report: Any = None
        self.fig, (self.ax_beta, self.ax_theta, self.ax_cal) = new_figure(
            1, 3, figsize=(9.6, 3.0), width_ratios=[2.2, 1, 1], layout="constrained"
        )
        self.pane = FigurePane(self.fig)
        self.summary = w.HTML()
        self.table = w.HTML()
        self.ui = w.VBox([self.pane.widget, self.summary, self.table])

    def fit(self) -> Any:
        """Fit the model and its held-out report, then redraw; returns the model."""
        from labkit.hexpuzzle.difficulty.skill import fit_skill_model

        if self.telemetry is None:
            self.summary.value = "<b>no telemetry: nothing to fit the skill model to</b>"
            return None
        self.model = fit_skill_model(self.telemetry, self.levels)
        self.report = self.model.report(folds=self.folds)
        self.draw()
        return self.model

    def rows(self) -> list[dict[str, Any]]:
        """The model's per-level table (see :meth:`SkillModel.table`)."""
        return [] if self.model is None else self.model.table()

    def draw(self) -> None:
        from html import escape

        m = self.model
        ax = self.ax_beta
        ax.clear()
        x = np.arange(len(m.level_ids))
        lo, hi = m.difficulty_ci.T
        colours = [BAND_COLOURS.get(r["band"], "#cccccc") for r in m.table()]  # grey: unplayed
        ax.vlines(x, lo, hi, color="#777777", lw=1)
        ax.scatter(x, m.difficulty, c=colours, s=22, edgecolors="black", linewidths=0.4, zorder=3)
        ax.set(xlabel="level (campaign order)", ylabel="difficulty β (logits)",
               title="fitted difficulty, 95 % interval")  # fmt: skip
        ax = self.ax_theta
        ax.clear()
        ax.hist(m.ability, bins=30, color="#4c78a8")
        ax.set(xlabel="ability θ (0 = average player)", ylabel="players", title="abilities")
        ax = self.ax_cal
        ax.clear()
        self.report.figure(ax=ax)
        ax.set_title(f"held out ({self.report.folds}-fold by player)")
        self.pane.refresh()
        metrics = self.report.metrics
        self.summary.value = (
            f"<b>{m!r}</b> · held-out log-loss: skill model "
            f"{metrics['skill model']['log_loss']:.3f}, structural score "
            f"{metrics['structural score']['log_loss']:.3f}, calibrate index "
            f"{metrics['calibrate index']['log_loss']:.3f}<br>model in use: {escape(m.describe())}"
        )
        self.table.value = m._repr_html_()
