"""The DifficultyWorkbench's "skill model" mode: what the skill model says about the levels.

Three panels: each level's fitted difficulty (the model's own scale, on which the players'
abilities lie too; higher is harder) with its 95 % interval (levels in campaign order,
coloured by band), the players' ability histogram, and the held-out calibration plot (predicted
vs observed first-try success). A table lists the levels with their first-try success for an
average player, calibrated score and band. Logic in plain methods (:meth:`fit`, :meth:`rows`)
that tests call without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np

from labkit.hexpuzzle import Difficulty
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["SkillPanel"]

BAND_COLOURS = {"easy": "#2a9d8f", "intermediate": "#e9c46a", "hard": "#f4a261",
                "challenge": "#c1121f"}  # fmt: skip


def _chance(p: float) -> str:
    """A probability as a designer reads it (issue 47): a whole percentage, never a bare decimal.

    The ends say "over 99 %" / "under 1 %" rather than round to a certainty the normal
    approximation behind it cannot give.

    >>> _chance(0.35), _chance(0.7602), _chance(0.9996), _chance(0.004)
    ('35 %', '76 %', 'over 99 %', 'under 1 %')
    """
    if p > 0.99:
        return "over 99 %"
    if p < 0.01:
        return "under 1 %"
    return f"{100 * p:.0f} %"


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
        from labkit.hexpuzzle import fit_skill_model

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

    def out_of_order(self) -> list[dict[str, Any]]:
        """Neighbours in campaign order whose fitted difficulty goes down, with the probability
        that their order is wrong (normal approximation from the 95 % intervals).

        ``p_wrong`` is P(the later level is truly easier): Φ(Δβ / √(se₁² + se₂²)).
        """
        from scipy.stats import norm

        m = self.model
        if m is None:
            return []
        beta = np.asarray(m.difficulty, dtype=float)
        lo, hi = np.asarray(m.difficulty_ci, dtype=float).T
        se = (hi - lo) / (2 * 1.959964)
        out = []
        for i in range(len(beta) - 1):
            drop = beta[i] - beta[i + 1]
            if drop <= 0:
                continue
            spread = float(np.hypot(se[i], se[i + 1])) or 1e-12
            out.append({"earlier": m.level_ids[i], "later": m.level_ids[i + 1],
                        "at": i + 1, "drop": float(drop),
                        "p_wrong": float(norm.cdf(drop / spread))})  # fmt: skip
        return out

    def draw(self) -> None:
        m = self.model
        ax = self.ax_beta
        ax.clear()
        x = np.arange(len(m.level_ids))
        lo, hi = m.difficulty_ci.T
        colours = [BAND_COLOURS.get(r["band"], "#cccccc") for r in m.table()]  # grey: unplayed
        ax.vlines(x, lo, hi, color="#777777", lw=1)
        flagged = self.out_of_order()
        if flagged:
            at = [f["at"] for f in flagged]
            ax.scatter(at, np.asarray(m.difficulty)[at], s=90, facecolors="none",
                       edgecolors="#c1121f", linewidths=1.4, zorder=4,
                       label="easier than the level before it")  # fmt: skip
            ax.legend(fontsize=7, loc="upper left")
        # the levels' points last (tests and readers find them as the axes' last collection)
        ax.scatter(x, m.difficulty, c=colours, s=22, edgecolors="black", linewidths=0.4, zorder=3)
        ax.set_xticks(x, [str(i) for i in m.level_ids], rotation=90, fontsize=6)
        ax.set(xlabel="level (campaign order)", ylabel="difficulty (higher is harder)",
               title="fitted difficulty, 95 % interval")  # fmt: skip
        ax = self.ax_theta
        ax.clear()
        ax.hist(m.ability, bins=30, color="#4c78a8")
        ax.set(xlabel="ability (0 = average player, same scale as difficulty)", ylabel="players",
               title="abilities")  # fmt: skip
        ax = self.ax_cal
        ax.clear()
        self.report.figure(ax=ax)
        ax.set_title(f"held out ({self.report.folds}-fold by player)")
        self.pane.refresh()
        metrics = self.report.metrics
        self.summary.value = (
            f"<b>{len(m.level_ids)} levels, {len(m.player_ids)} players</b> · spread of "
            f"abilities (standard deviation) {m.ability_sd:.2f} on the difficulty scale · held-out "
            f"log-loss "
            f"(lower predicts better): skill model {metrics['skill model']['log_loss']:.3f}, "
            f"structural score {metrics['structural score']['log_loss']:.3f}, calibrated index "
            f"{metrics['calibrate index']['log_loss']:.3f}"
            f"<br>model in use: {html.escape(m.describe())}"
        )
        self.summary.value += "".join(
            f"<br><b style='color:#c1121f'>⚠ {html.escape(str(f['later']))} looks easier than "
            f"{html.escape(str(f['earlier']))} (by {f['drop']:.2f} on the difficulty scale): "
            f"{_chance(f['p_wrong'])} chance the order is wrong</b>"
            for f in flagged
        )
        self.table.value = self._table_html()

    @staticmethod
    def _fitted_cells(r: dict[str, Any]) -> str:
        if r["difficulty"] is None:  # nobody played it and no parts predict it
            return f"<td>—</td><td>nobody played it</td><td>{r['n']}</td><td>—</td><td>—</td>"
        return (f"<td>{r['difficulty']:+.2f}</td><td>{r['low']:+.2f} to {r['high']:+.2f}</td>"
                f"<td>{r['n']}</td><td>{r['success']:.0%}</td><td>{r['score']}</td>")  # fmt: skip

    def _table_html(self) -> str:
        """The per-level table in words: the skill model's own 0–100 scale is named as such."""
        structural = {d.level_id: d.total for d in self.levels}
        rows = "".join(
            f"<tr><td>{html.escape(str(r['level']))}</td>{self._fitted_cells(r)}"
            f"<td>{structural.get(r['level'], '')}</td><td>{r['band']}</td></tr>"
            for r in self.rows()
        )
        head = ("level", "difficulty (higher is harder)", "95 % interval", "attempts",
                "first-try success (average player)", "skill-model score (0–100, own scale)",
                "structural score (0–100)", "band")  # fmt: skip
        return "<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + f"</tr>{rows}</table>"
