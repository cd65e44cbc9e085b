"""BalanceReport: version A and version B side by side, on the same seeds.

Choose two balance files (or leave one empty for the shipped edition) and a number of seeds;
*Compare* plays both versions on every seed (:func:`labkit.encounter.compare`) and shows a
verdict sentence ("B raises the NPC win rate by 43 points (36 to 50); balance is clearly worse:
…"), the metric table (A, B, B − A with its 95 % interval, the p-value, what the pairing bought
and the seeds needed to see a 2-point change), a forest plot of the differences and both
survival curves with bands. Shares are percentages and their changes percentage points
everywhere in the app. Each version is said in words above the table (the shipped balance, a
file, or the changes a patch given in code makes); a shipped balance file may be named bare
(``a_edition_monster_life4``). *Every policy* adds "does B stay balanced against every policy?"
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
    """A value of the table in its unit: shares as percentages, their changes in points."""
    if isinstance(x, float) and math.isnan(x):
        return "–"
    if unit == "share":
        x = 100 * x
    f = ".1f" if unit in ("turns", "share") else ".2f"
    shown = f"{x:+{f}}" if sign else f"{x:{f}}"
    return shown.replace("-", "−") + (" %" if unit == "share" and not sign else "")


def _points(x: float) -> str:
    """A change of a share in percentage points, signed, as a designer says it."""
    v = 100 * x
    # whole points (what a designer says); a tenth only below one point, so it is not "+0"
    return (f"{v:+.0f}" if abs(v) >= 1 else f"{v:+.1f}").replace("-", "−")


def _p(p: float) -> str:
    if not p == p:  # NaN: no test possible
        return "–"
    return "&lt;0.001" if p < 0.001 else f"{p:.2g}"


def _nan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


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
        self.path_a, self.path_b = (
            W.Text("" if isinstance(v, dict) else str(v), description=f"version {side.upper()}",
                   placeholder="given in code (said below)" if isinstance(v, dict)
                   else "file or shipped name",
                   disabled=isinstance(v, dict))
            for side, v in (("a", a), ("b", b))
        )  # fmt: skip
        #: What A and B are, in words (the shipped balance, a file, or a patch's changes).
        self.versions = W.HTML()
        self.seeds = W.IntText(seeds, description="seeds")
        self.run_button = W.Button(description="Compare", button_style="primary")
        self.policy_button = W.Button(description="Every policy")
        self.text = W.HTML()
        self.policy_text = W.HTML()
        self.run_button.on_click(lambda _: self.run())
        for box in (self.path_a, self.path_b):
            box.observe(lambda _: self._say_versions(), names="value")
        self._say_versions()
        self.policy_button.on_click(lambda _: self.run_policies())
        # within the 964 px an output area gives a figure at the default layout, and short
        # enough that the table below it fits on the same screen (issue 24)
        self.fig, (self.ax_forest, self.ax_survival) = new_figure(1, 2, figsize=(9.4, 3.4))
        self.ax_forest.set_title("press Compare to play both versions")
        self.pane = FigurePane(self.fig)
        self.pane.refresh()
        controls = W.VBox([W.HBox([self.path_a, self.path_b]), self.versions,
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

    def describe(self, side: str) -> str:
        """What version ``"a"`` or ``"b"`` is, in words, whatever form it was given in.

        Examples
        --------
        >>> BalanceReport(b={"/characters/monster/life": 2}).describe("b")
        'the shipped balance with monster life (wounds it takes) set to 2'
        >>> BalanceReport(a="a_edition_monster_life4").describe("a")
        'the shipped file a_edition_monster_life4: monster life (wounds it takes) set to 4'
        """
        from pathlib import Path

        from labkit.encounter import shipped_balance, shipped_balances, version_patch
        from labkit.glossary import parameter_words

        version = self.version(side)
        if isinstance(version, dict):
            changes, head = version, "the shipped balance"
        else:
            path = Path(version)
            stem = path.name.removesuffix(".json")
            shipped = stem in shipped_balances() and (
                not path.exists() or path.resolve() == shipped_balance(stem).resolve()
            )
            if shipped and stem == "a_edition":
                return "the shipped balance"
            head = f"the shipped file {stem}" if shipped else f"the file {version}"
            try:
                changes = version_patch(version)
            except LabkitError as exc:
                return f"{head} (cannot be read: {exc})"
        said = [f"{parameter_words(k)} set to {v}" for k, v in list(changes.items())[:4]]
        if len(changes) > 4:
            said.append(f"{len(changes) - 4} more changes")
        if not said:
            return head if isinstance(version, dict) is False else "the shipped balance"
        joined = ", ".join(said)
        return f"{head} with {joined}" if isinstance(version, dict) else f"{head}: {joined}"

    def _say_versions(self) -> None:
        self.versions.value = (f"<b>A</b> is {html.escape(self.describe('a'))} · "
                               f"<b>B</b> is {html.escape(self.describe('b'))}")  # fmt: skip

    def verdict(self) -> str:
        """The comparison in one sentence, in points: what B does to the NPC win rate and
        whether balance is clearly better (or worse), each with its 95 % interval.

        Examples
        --------
        >>> import pandas as pd
        >>> app = BalanceReport(b={"/characters/monster/life": 2})
        >>> app.table = pd.DataFrame([
        ...     {"metric": "npc_win", "label": "NPC win rate", "unit": "share", "diff": 0.104,
        ...      "diff_lo": 0.08, "diff_hi": 0.13, "p_value": 0.0001},
        ...     {"metric": "balance", "label": "balance (1 - win-rate gap)", "unit": "share",
        ...      "diff": 0.112, "diff_lo": -0.056, "diff_hi": 0.228, "p_value": 0.19}])
        >>> for clause in app.verdict().split("; "):
        ...     print(clause)
        B raises the NPC win rate by 10 points (8 to 13)
        balance is not clearly better: +11 points (−6 to +23), p 0.19.
        """
        t = self.table.set_index("metric")
        parts = []
        if "npc_win" in t.index:
            parts.append(self._win_words(t.loc["npc_win"]))
        if "balance" in t.index:
            parts.append(self._balance_words(t.loc["balance"]))
        return "; ".join(parts) + "."

    @staticmethod
    def _unsure(r: Any) -> str | None:
        """Words for a row whose data cannot give an interval (None when it has one)."""
        if not (_nan(r["diff_lo"]) or _nan(r["diff_hi"])):
            return None
        note = str(r.get("note", "") or "")
        if note:  # the table's own words on why (and how many seeds would tell)
            return f"cannot tell yet ({note})"
        need = float(r.get("seeds_needed", -1))
        if need > 0:  # (NaN is not)
            return f"cannot tell yet: about {int(need):,} seeds needed"
        return "cannot tell yet"

    def _win_words(self, r: Any) -> str:
        unsure = self._unsure(r)
        if unsure:
            return f"B's change to the NPC win rate: {unsure}"
        v, lo, hi = r["diff"], r["diff_lo"], r["diff_hi"]
        inside = f"({_points(lo).lstrip('+')} to {_points(hi).lstrip('+')})"
        if lo > 0:
            return f"B raises the NPC win rate by {_points(v).lstrip('+')} points {inside}"
        if hi < 0:
            return f"B lowers the NPC win rate by {_points(-v).lstrip('+')} points {inside}"
        return (f"B does not clearly change the NPC win rate: {_points(v)} points "
                f"({_points(lo)} to {_points(hi)}), p {_p(r['p_value'])}")  # fmt: skip

    def _balance_words(self, r: Any) -> str:
        unsure = self._unsure(r)
        if unsure:
            return f"balance: {unsure}"
        v, lo, hi = r["diff"], r["diff_lo"], r["diff_hi"]
        if lo > 0:
            how = "clearly better"
        elif hi < 0:
            how = "clearly worse"
        else:
            how = "not clearly better" if v >= 0 else "not clearly worse"
        return (
            f"balance is {how}: {_points(v)} points ({_points(lo)} to {_points(hi)}), "
            f"p {_p(r['p_value'])}"
        ).replace("&lt;", "<")

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
        """The metric table as HTML (designer labels; shares in %, changes in points)."""
        t = self.table
        notes = "note" in t.columns and bool((t["note"].fillna("") != "").any())
        head = ("<tr><th>metric</th><th>A</th><th>B</th><th>B − A [95 %]</th><th>p</th>"
                "<th>pairing</th><th>seeds for a 2-point change</th>"
                + ("<th>note</th>" if notes else "") + "</tr>")  # fmt: skip
        rows = []
        for r in t.to_dict("records"):
            u = r["unit"]
            vr = r["variance_reduction"]
            pairing = f"×{vr:.1f}" if math.isfinite(vr) else "–"
            label = html.escape(r["label"] + {"turns": " (turns)", "per game": " (per game)",
                                              "share": " (%)"}.get(u, ""))  # fmt: skip
            unit = " points" if u == "share" else ""
            if self._unsure(r) is not None or r["diff_lo"] == r["diff_hi"]:
                # no interval, or one of zero width (no seed differed): nothing to size a run on
                change = f"{_fmt(r['diff'], u, True)}{unit} (no interval)"
                need = r["seeds_needed"]
                seeds = f"{int(need):,}" if self._unsure(r) and need > 0 else "–"
            else:
                change = (f"{_fmt(r['diff'], u, True)}{unit} [{_fmt(r['diff_lo'], u, True)}, "
                          f"{_fmt(r['diff_hi'], u, True)}]")  # fmt: skip
                seeds = f"{int(r['seeds_needed']):,}" if r["seeds_needed"] > 0 else "–"
            note = (f"<td style='font-size:smaller'>{html.escape(str(r.get('note') or ''))}</td>"
                    if notes else "")  # fmt: skip
            # numbers never break inside ("41.0 %" on two lines read as two numbers)
            nums = [_fmt(r["a"], u), _fmt(r["b"], u), change, _p(r["p_value"]), pairing, seeds]
            cells = "".join(f"<td style='white-space:nowrap'>{c}</td>" for c in nums)
            rows.append(f"<tr><td>{label}</td>{cells}{note}</tr>")
        return f"<table>{head}{''.join(rows)}</table>"

    def policy_html(self) -> str:
        """ "Does B stay balanced against every policy?" as HTML (a change without an
        interval says so, with the table's note: why, and how many seeds would settle it)."""

        def change(r: Any) -> str:
            if _nan(r.diff_lo) or _nan(r.diff_hi):
                why = html.escape(str(getattr(r, "note", "") or "no interval"))
                return f"{_points(r.diff)} points: cannot tell yet ({why})"
            return f"{_points(r.diff)} points [{_points(r.diff_lo)}, {_points(r.diff_hi)}]"

        rows = "".join(
            f"<tr><td>{html.escape(r.npc)}</td><td>{html.escape(r.monster)}</td>"
            f"<td>{_fmt(r.balance_a, 'share')} [{_fmt(r.balance_a_lo, 'share')}, "
            f"{_fmt(r.balance_a_hi, 'share')}]</td>"
            f"<td>{_fmt(r.balance_b, 'share')} [{_fmt(r.balance_b_lo, 'share')}, "
            f"{_fmt(r.balance_b_hi, 'share')}]</td>"
            f"<td>{change(r)}</td>"
            f"<td>{'yes' if r.b_balanced else '<b>no</b>'}</td></tr>"
            for r in self.policies.itertuples()
        )
        return ("<b>Does B stay balanced against every policy?</b> (balance = 100 % minus the "
                "win-rate gap; balanced: at least 80 %)<table><tr><th>NPC policy</th>"
                "<th>monster policy</th><th>balance A</th><th>balance B</th><th>B − A</th>"
                "<th>B balanced</th></tr>"
                f"{rows}</table>")  # fmt: skip

    def _show(self) -> None:
        from labkit.encounter import draw_forest, draw_survival_bands

        if self.table is None:
            self.text.value = f"<span style='color:#b00'>{html.escape(self.error or '')}</span>"
            return
        n = int(self.table["pairs"].iloc[0])
        self._say_versions()
        self.text.value = (
            f"<p style='font-size:1.1em'><b>{html.escape(self.verdict())}</b></p>"
            f"<b>{n} seeds, each played by A and B</b>{self.table_html()}"
        )
        self.ax_forest.cla()
        self.ax_survival.cla()
        draw_forest(self.table, ax=self.ax_forest)
        draw_survival_bands(self.bands, ax=self.ax_survival)
        from matplotlib.ticker import PercentFormatter

        # one unit in the whole app: shares in percent (the forest is in points)
        self.ax_survival.yaxis.set_major_formatter(PercentFormatter(1.0))
        self.ax_survival.set_ylabel("NPCs alive (%)")
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
