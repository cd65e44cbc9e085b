"""BalanceReport: version A and version B side by side, on the same seeds.

Choose two balance files (or leave one empty for the shipped edition) and a number of seeds;
*Compare* plays both versions on every seed (:func:`labkit.encounter.compare`) and shows the
metric table (A, B, B − A with its 95 % interval, the p-value, what the pairing bought and the
seeds needed to see a 2-point change), a forest plot of the differences and both survival
curves with bands. *Every policy* adds "does B stay balanced against every policy?"
(:func:`labkit.encounter.policy_balance`).

Logic lives in plain methods (:meth:`BalanceReport.run`, :meth:`BalanceReport.run_policies`,
:meth:`BalanceReport.table_html`, :meth:`BalanceReport.to_code`) that tests call without a
browser.
"""

from __future__ import annotations

import html
import math
from typing import Any

from labkit import LabkitError
from labkit.encounter import SimulationSettings
from labkit.widgets._code import CodeMixin, literal, source
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["BalanceReport"]


def _fmt(x: float, unit: str, sign: bool = False) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "–"
    f = ".1f" if unit == "turns" else ".3f"
    return f"{x:+{f}}" if sign else f"{x:{f}}"


class BalanceReport(CodeMixin):
    """Compare two balance versions on common seeds.

    Examples
    --------
    >>> app = BalanceReport(b={"/characters/monster/life": 2}, seeds=30)
    >>> t = app.run()
    >>> "NPC win rate" in app.text.value, len(t) > 10
    (True, True)
    """

    def __init__(
        self,
        a: Any = "",
        b: Any = "",
        *,
        base: SimulationSettings | None = None,
        seeds: int = 500,
        executor: Any = None,
    ) -> None:
        import ipywidgets as W

        self.base = SimulationSettings() if base is None else base
        self.executor = executor
        self.table: Any = None
        self.policies: Any = None
        self.error: str | None = None
        # a version is a file path (text box) or a {pointer: value} patch given in code
        self.patches = {"a": a if isinstance(a, dict) else None,
                        "b": b if isinstance(b, dict) else None}  # fmt: skip
        self.path_a = W.Text("" if isinstance(a, dict) else str(a), description="version A",
                             placeholder="balance file (empty: shipped)")  # fmt: skip
        self.path_b = W.Text("" if isinstance(b, dict) else str(b), description="version B",
                             placeholder="balance file (empty: shipped)")  # fmt: skip
        self.seeds = W.IntText(seeds, description="seeds")
        self.run_button = W.Button(description="Compare", button_style="primary")
        self.policy_button = W.Button(description="Every policy")
        self.text = W.HTML()
        self.policy_text = W.HTML()
        self.run_button.on_click(lambda _: self.run())
        self.policy_button.on_click(lambda _: self.run_policies())
        # within the 964 px an output area gives a figure at the default layout, and short
        # enough that the table below it fits on the same screen (issue 24)
        self.fig, (self.ax_forest, self.ax_survival) = new_figure(1, 2, figsize=(9.4, 3.4))
        self.ax_forest.set_title("press Compare to play both versions")
        self.pane = FigurePane(self.fig)
        self.pane.refresh()
        controls = W.VBox([W.HBox([self.path_a, self.path_b]),
                           W.HBox([self.seeds, self.run_button, self.policy_button])])  # fmt: skip
        # The figure right above the table it draws (B − A per metric): both on one screen.
        self.ui = W.VBox([controls, self.pane.widget, self.text, self.policy_text],
                         layout=W.Layout(max_width="1100px"))  # fmt: skip
        self._add_code_button()

    def version(self, side: str) -> Any:
        """Version ``"a"`` or ``"b"``: the patch given in code, the file path, or ``{}``."""
        patch = self.patches[side]
        if patch is not None:
            return patch
        path = (self.path_a if side == "a" else self.path_b).value.strip()
        return path or {}

    def run(self) -> Any:
        """Play both versions on the seeds; updates the table and the figure."""
        from labkit.encounter import compare, play_pair, survival_bands

        try:
            seeds = range(max(1, int(self.seeds.value)))
            games = play_pair(self.version("a"), self.version("b"), seeds, base=self.base,
                              executor=self.executor)  # fmt: skip
            self.table = compare(self.version("a"), self.version("b"), seeds, games=games)
            self.bands = survival_bands(games)
            self.error = None
        except LabkitError as exc:
            self.table, self.error = None, str(exc)
        self._show()
        return self.table

    def run_policies(self) -> Any:
        """Every NPC policy against every monster policy in both versions (one table)."""
        from labkit.encounter import policy_balance

        try:
            self.policies = policy_balance(self.version("a"), self.version("b"),
                                           range(max(1, int(self.seeds.value))), base=self.base,
                                           executor=self.executor)  # fmt: skip
        except LabkitError as exc:
            self.policies = None
            self.policy_text.value = f"<span style='color:#b00'>{html.escape(str(exc))}</span>"
            return None
        self.policy_text.value = self.policy_html()
        return self.policies

    def table_html(self) -> str:
        """The metric table as HTML (designer labels; B − A with its 95 % interval)."""
        t = self.table
        head = ("<tr><th>metric</th><th>A</th><th>B</th><th>B − A [95 %]</th><th>p</th>"
                "<th>pairing</th><th>seeds for a 2-point change</th></tr>")  # fmt: skip
        rows = []
        for r in t.itertuples():
            u = r.unit
            vr = f"×{r.variance_reduction:.1f}" if math.isfinite(r.variance_reduction) else "–"
            p = "&lt;0.001" if r.p_value < 0.001 else f"{r.p_value:.3g}"
            label = html.escape(r.label + (" (turns)" if u == "turns" else ""))
            rows.append(
                f"<tr><td>{label}</td><td>{_fmt(r.a, u)}</td><td>{_fmt(r.b, u)}</td>"
                f"<td>{_fmt(r.diff, u, True)} [{_fmt(r.diff_lo, u, True)}, "
                f"{_fmt(r.diff_hi, u, True)}]</td><td>{p}</td><td>{vr}</td>"
                f"<td>{r.seeds_needed}</td></tr>"
            )
        return f"<table>{head}{''.join(rows)}</table>"

    def policy_html(self) -> str:
        """ "Does B stay balanced against every policy?" as HTML."""
        rows = "".join(
            f"<tr><td>{html.escape(r.npc)}</td><td>{html.escape(r.monster)}</td>"
            f"<td>{r.balance_a:.3f} [{r.balance_a_lo:.3f}, {r.balance_a_hi:.3f}]</td>"
            f"<td>{r.balance_b:.3f} [{r.balance_b_lo:.3f}, {r.balance_b_hi:.3f}]</td>"
            f"<td>{r.diff:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]</td>"
            f"<td>{'yes' if r.b_balanced else '<b>no</b>'}</td></tr>"
            for r in self.policies.itertuples()
        )
        return ("<b>Does B stay balanced against every policy?</b> (balance = 1 − win-rate gap; "
                "balanced: at least 0.8)<table><tr><th>NPC policy</th><th>monster policy</th>"
                "<th>balance A</th><th>balance B</th><th>B − A</th><th>B balanced</th></tr>"
                f"{rows}</table>")  # fmt: skip

    def _show(self) -> None:
        from labkit.encounter import draw_forest, draw_survival_bands

        if self.table is None:
            self.text.value = f"<span style='color:#b00'>{html.escape(self.error or '')}</span>"
            return
        n = int(self.table["pairs"].iloc[0])
        self.text.value = f"<b>{n} seeds, each played by A and B</b>{self.table_html()}"
        self.ax_forest.cla()
        self.ax_survival.cla()
        draw_forest(self.table, ax=self.ax_forest)
        draw_survival_bands(self.bands, ax=self.ax_survival)
        self.fig.tight_layout()
        self.pane.refresh()

    def to_code(self) -> str:
        """Python source that rebuilds this app's current state (and re-runs what ran)."""
        lines = [
            "from labkit.encounter import SimulationSettings",
            "from labkit.widgets import BalanceReport",
            "",
            f"settings = {literal(self.base.to_dict())}",
            f"app = BalanceReport({literal(self.version('a'))}, {literal(self.version('b'))},",
            f"                    base=SimulationSettings.from_dict(settings), "
            f"seeds={int(self.seeds.value)})",
        ]
        if self.table is not None or self.error is not None:
            lines.append("app.run()")
        if self.policies is not None:
            lines.append("app.run_policies()")
        return source(lines, "app")
