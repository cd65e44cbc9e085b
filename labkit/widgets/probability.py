"""ProbabilityExplorer: edit the combat curves live and watch two loadouts fight (rules J2, E2).

Sliders edit the 9 hit and 9 pursuit percentages, the priority slope (points per agility level)
and its clamp. Two loadout panels pick character, weapon, armour, stealth and retreat threshold.
The figure shows the curves (seed figures 2 and 3), the priority bars (table 3) and the fight
length distribution; the text shows win probability, escapes and first-strike share with 95 %
Wilson intervals from :func:`labkit.encounter.simulate_fights`, recomputed on every change with a
fixed seed (so a change in the numbers is the change in the rules, not noise).

An edit that breaks a table rule (9 strictly increasing probabilities) is shown as an error in
the app's terms (the slider's label, the value as shown, the rule) and the sliders snap back to
the last valid balance, which stays in force.

Goal seeking (:meth:`ProbabilityExplorer.solve_for`): which B agility, A hit level or table entry
gives a target hit % (exactly, at least, at most); "apply" (:meth:`~ProbabilityExplorer.apply_goal`)
puts the answer into the app — a table entry into its slider, an agility or hit level as the
loadout change that gives it, with one line for what only the balance file can change. The
curve marks the current matchup (A's blow ▼, B's ▲; the ambush bonus
of round 1 is not marked), and :meth:`~ProbabilityExplorer.pin` keeps one balance version for a
side-by-side comparison with the one being edited.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np

from labkit import LabkitError
from labkit.encounter import FightStats, Loadout, compose, draw, simulate_fights, wilson_interval
from labkit.encounter.rules.balance import Balance, PriorityRule, default_balance
from labkit.encounter.rules.tables import INDICES, table_index
from labkit.widgets._code import CodeError, CodeMixin, literal, path_code, source
from labkit.widgets._controls import tip
from labkit.widgets._figure import FigurePane, new_figure
from labkit.widgets._probability_goal import GoalSeek, table_problem

__all__ = ["ProbabilityExplorer"]


class ProbabilityExplorer(CodeMixin):
    """Interactive combat-curve explorer.

    Examples
    --------
    >>> app = ProbabilityExplorer(n=2000)
    >>> before = app.stats.win_a
    >>> app.hit[8].value = 95              # hit chance at index +4
    >>> app.side["a"]["weapon"].value = "revolver"
    >>> app.stats.win_a != before
    True
    """

    def __init__(
        self,
        a: Loadout | None = None,
        b: Loadout | None = None,
        *,
        balance: Balance | None = None,
        compare: Balance | None = None,
        n: int = 5000,
        seed: int = 20261129,
    ) -> None:
        import ipywidgets as W

        self.base = default_balance() if balance is None else balance
        self._default_base = balance is None
        self.balance = self.base
        self.pinned: Balance | None = compare
        self.pinned_stats: FightStats | None = None
        self.seed = seed
        self.error: str | None = None
        self.answer = ""
        self.goal_result: dict[str, Any] | None = None  # the last solve: answer and its row
        self.goal_choice: dict[str, Any] | None = None
        self.stats: FightStats | None = None
        a = a or Loadout(weapon="long_knife")
        b = b or Loadout(character="monster")
        self._updating = False

        def pct(v: float, i: int, what: str) -> Any:
            return tip(W.IntSlider(int(round(100 * v)), 0, 100, description=f"{i:+d}",
                                   orientation="vertical", layout=W.Layout(width="38px")),
                       f"{what} % at index {i:+d} (attacker level − target agility)")  # fmt: skip

        self.hit = [pct(v, int(i), "hit") for i, v in zip(INDICES, self.base.hit_table)]
        self.pursuit = [pct(v, int(i), "pursuit") for i, v in zip(INDICES, self.base.pursuit_table)]
        rule = self.base.priority
        WIDE = {"description_width": "150px"}  # noqa: N806 (one label column for these three)
        self.slope = W.IntSlider(int(round(100 * rule.per_agility)), 0, 50, style=WIDE,
                                 description="priority pts / agility",
                                 layout=W.Layout(width="350px"))  # fmt: skip
        clamp = (int(round(100 * rule.min)), int(round(100 * rule.max)))
        self.clamp = W.IntRangeSlider(value=clamp, min=0, max=100, style=WIDE,
                                      description="priority clamp %",
                                      layout=W.Layout(width="350px"))  # fmt: skip
        self.n = W.IntSlider(
            n,
            500,
            50_000,
            step=500,
            description="fights",
            style=WIDE,
            layout=W.Layout(width="350px"),
        )
        self.side = {"a": self._side_controls(W, a), "b": self._side_controls(W, b)}
        self.text = W.HTML(layout=W.Layout(width="250px"))
        self._build_goal_seek(W)
        self._build_figure(W)
        tables_box = W.VBox([
            W.HTML("<b>hit %</b> by index (attacker level − target agility)"), W.HBox(self.hit),
            W.HTML("<b>pursuit %</b> by index"), W.HBox(self.pursuit),
            self.slope, self.clamp, self.n,
        ])  # fmt: skip
        sides = W.VBox([W.HTML("<b>side A</b>"), *self.side["a"].values(),
                        W.HTML("<b>side B</b>"), *self.side["b"].values()])  # fmt: skip
        wrap = W.Layout(flex_flow="row wrap", width="100%")
        self.ui = W.VBox([W.HBox([tables_box, sides, self.text], layout=wrap),
                          self.goal_box, self.pane.widget])  # fmt: skip
        self.update()
        self._redraw()  # a static figure (report, docs) is shown from the start, not at 1st change
        for w in self.controls():
            w.observe(self._on_change, names="value")
        self._add_code_button()

    def _side_controls(self, W: Any, loadout: Loadout) -> dict[str, Any]:
        b = self.base
        # One label column (the longest label is "retreat at life ≤") so the boxes line up.
        style, box = {"description_width": "105px"}, W.Layout(width="240px")
        weapons = ["(natural)", *[n for n, w in b.weapons.items() if not w.natural]]
        return {
            "character": W.Dropdown(options=list(b.characters), value=loadout.character,
                                    description="character", style=style, layout=box),
            "weapon": W.Dropdown(options=[(w.replace("_", " "), w) for w in weapons],
                                 value=loadout.weapon or "(natural)",
                                 description="weapon", style=style, layout=box),
            "armour": W.Dropdown(options=[(a.replace("_", " "), a) for a in ["(none)", *b.armour]],
                                 value=loadout.armour or "(none)",
                                 description="armour", style=style, layout=box),
            "stealth": W.Checkbox(value=loadout.stealth, description="ambush (stealth)"),
            "retreat_at": W.IntSlider(loadout.retreat_at, 0, 5, description="retreat at life ≤",
                                      style=style, layout=box),
        }  # fmt: skip

    def controls(self) -> list[Any]:
        """Every input widget (the app recomputes when any of them changes)."""
        side = [w for s in self.side.values() for w in s.values()]
        return [*self.hit, *self.pursuit, self.slope, self.clamp, self.n, *side]

    # -- model -----------------------------------------------------------------------------------
    def loadout(self, side: str) -> Loadout:
        """The loadout currently chosen for side ``"a"`` or ``"b"``."""
        c = self.side[side]
        return Loadout(
            character=c["character"].value,
            weapon=None if c["weapon"].value == "(natural)" else c["weapon"].value,
            armour=None if c["armour"].value == "(none)" else c["armour"].value,
            stealth=c["stealth"].value,
            retreat_at=c["retreat_at"].value,
        )

    def edited_balance(self) -> Balance:
        """The base balance with the sliders' tables and priority rule (validated)."""
        lo, hi = self.clamp.value
        rule = PriorityRule(self.base.priority.base, self.slope.value / 100, lo / 100, hi / 100)
        return self.base.replace(
            hit_table=[s.value / 100 for s in self.hit],
            pursuit_table=[s.value / 100 for s in self.pursuit],
            priority=rule,
        )

    def fighters(self) -> tuple[Any, Any]:
        """Side A's and side B's composed fighters (hit level, agility, ...) under the balance."""
        return (compose(self.loadout("a"), self.balance), compose(self.loadout("b"), self.balance))

    def compute(self, changed: Any = None) -> FightStats:
        """Re-read the sliders and sample ``n`` fights with the fixed seed.

        A table that breaks its rule is reported in the app's terms (the slider's label, the
        value as shown, the rule) and every table slider snaps back to the last valid balance.
        """
        tables = {"hit": self.hit, "pursuit": self.pursuit}
        problem = table_problem({k: [s.value for s in v] for k, v in tables.items()},
                                changed=self._slider_name(changed))  # fmt: skip
        if problem is None:
            try:
                self.balance = self.edited_balance()
                self.error = None
            except LabkitError as exc:  # a rule the app does not check itself
                self.error = str(exc)
        else:
            self.error = problem
            self._updating = True  # the snap-back is not a new edit
            try:
                for name, sliders in tables.items():
                    valid = getattr(self.balance, f"{name}_table")
                    for slider, v in zip(sliders, valid):
                        slider.value = int(round(100 * v))
            finally:
                self._updating = False
        stats = simulate_fights(self.loadout("a"), self.loadout("b"), self.n.value,
                                rng=self.seed, balance=self.balance)  # fmt: skip
        if self.pinned is not None:
            self.pinned_stats = simulate_fights(self.loadout("a"), self.loadout("b"),
                                                self.n.value, rng=self.seed,
                                                balance=self.pinned)  # fmt: skip
        return stats

    def _slider_name(self, widget: Any) -> tuple[str, int] | None:
        for name, sliders in (("hit", self.hit), ("pursuit", self.pursuit)):
            for i, s in enumerate(sliders):
                if s is widget:
                    return name, i
        return None

    def _on_change(self, change: Any) -> None:
        if not self._updating:
            self.update(changed=change["owner"])

    def pin(self, balance: Balance | None = None) -> None:
        """Keep ``balance`` (default: the one in force now) as version 1 of a side-by-side
        comparison: the summary shows both versions' outcomes, the curves both tables."""
        self.pinned = self.balance if balance is None else balance
        self.update()

    def unpin(self) -> None:
        self.pinned = self.pinned_stats = None
        self.update()

    def solve_for(
        self, target: float, what: str = "agility", side: str = "a", how: str = "exactly"
    ) -> dict[str, Any]:
        """Goal seeking: which B agility / A hit level / table entry gives side ``side``'s blow
        ``how`` ("exactly", "at least", "at most") a ``target`` % hit chance (see
        :func:`labkit.widgets._probability_goal.solve`)."""
        from labkit.widgets._probability_goal import solve

        a, b = self.fighters()
        attacker, defender = (a, b) if side == "a" else (b, a)
        table = [s.value for s in self.hit]
        result = solve(table, attacker.hit, defender.agility, target, what, side, how)
        self.goal_result, self.goal_choice = result, dict(target=target, what=what, side=side,
                                                          how=how)  # fmt: skip
        self.goal.show(self.goal_choice)  # the row shows what was asked (to_code writes it)
        self.answer = result["text"]
        self.goal.answer.value = result["text"]
        self.goal.applied.value = ""
        return result

    def apply_goal(self) -> str:
        """Put the last goal-seek answer into the app: a table entry into its slider, an agility
        or hit level as the loadout change that gives it (see
        :mod:`labkit.widgets._probability_apply`). Returns the line saying what was applied and
        what could not be."""
        r, c = self.goal_result, self.goal_choice
        if r is None or c is None:
            text = "nothing to apply yet: press solve first"
        elif not r["feasible"]:
            text = f"nothing to apply: {r['text']}"
        elif c["what"] == "table entry":
            pct = int(round(c["target"]))
            self.hit[r["index"] + 4].value = pct  # observers update
            text = f"applied: hit % at {r['index']:+d} = {pct} %"
        else:
            from labkit.widgets._probability_apply import apply_loadout

            text = apply_loadout(self, r, c)
        self.goal.applied.value = html.escape(text, quote=False)
        return text

    def summary_html(self) -> str:
        s, p = self.stats, self.pinned_stats
        assert s is not None, "__init__ runs update(), which computes the statistics"
        rows = []
        for key, label in (("a_wins", "A wins"), ("b_wins", "B wins"), ("a_escaped", "A escapes"),
                           ("b_escaped", "B escapes"), ("parted", "both retreat"),
                           ("stalemate", "stalemate")):  # fmt: skip
            lo, hi = s.interval(key)
            old = f"<td>{100 * p.share(key):.1f} %</td>" if p is not None else ""
            rows.append(f"<tr><td>{label}</td>{old}<td>{100 * s.share(key):.1f} %</td>"
                        f"<td>[{100 * lo:.1f}, {100 * hi:.1f}]</td></tr>")  # fmt: skip
        struck = max(1, s.first_strikes[0] + s.first_strikes[1])
        first = s.first_strikes[0] / struck
        flo, fhi = wilson_interval(s.first_strikes[0], struck)
        err = f"<p style='color:#b00'>{html.escape(self.error)}</p>" if self.error else ""
        head = "<th>pinned</th><th>now</th>" if p is not None else "<th>share</th>"
        old_first = ""
        if p is not None:
            ps = max(1, p.first_strikes[0] + p.first_strikes[1])
            old_first = f"<td>{100 * p.first_strikes[0] / ps:.1f} %</td>"
        return (
            f"{err}<table><tr><th>n = {s.n}</th>{head}<th>95 % CI</th></tr>"
            + "".join(rows)
            + f"<tr><td>A strikes first</td>{old_first}<td>{100 * first:.1f} %</td>"
            f"<td>[{100 * flo:.1f}, {100 * fhi:.1f}]</td></tr></table>"
            f"<p>mean rounds {s.mean_rounds:.2f}<br>blows that hit: A {100 * s.hit_rate(0):.1f} %"
            f", B {100 * s.hit_rate(1):.1f} %</p>"
            f"<p>A: hit {s.a.hit}, agility {s.a.agility}, first strike {s.a.first_strike}<br>"
            f"B: hit {s.b.hit}, agility {s.b.agility}, first strike {s.b.first_strike}</p>"
        )

    def to_code(self) -> str:
        """Source rebuilding this explorer: loadouts, fights, seed, every edited slider and the
        goal-seek row's choices (with its answer, when one is shown)."""
        if self._default_base:
            balance = ""
        elif self.base.source:
            balance = f", balance=load_balance({path_code(self.base.source)})"
        else:
            raise CodeError("to_code needs the base balance loaded from a file (load_balance)")

        def side(key: str) -> str:
            lo = self.loadout(key)
            fields = {k: getattr(lo, k) for k in ("character", "weapon", "armour", "stealth",
                                                  "retreat_at")}  # fmt: skip
            return "Loadout(" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + ")"

        lines = [
            "from labkit.encounter import load_balance" if balance else None,
            "from labkit.encounter import Loadout",
            "from labkit.widgets import ProbabilityExplorer",
            "",
            f"app = ProbabilityExplorer({side('a')}, {side('b')}{balance}, "
            f"n={self.n.value}, seed={self.seed!r})",
        ]
        # only the sliders moved away from the base balance's values are written
        start = self._slider_values(self.base)
        now = {"hit": [s.value for s in self.hit], "pursuit": [s.value for s in self.pursuit],
               "slope": self.slope.value, "clamp": tuple(self.clamp.value)}  # fmt: skip
        if self.pinned is not None:  # the version kept for comparison, then the edits since
            pin, extra = self._pin_code(start)
            if extra is not None and extra not in lines:
                lines.insert(1, extra)
            lines += pin
            start = self._slider_values(self.pinned)
        lines += _slider_code(now, start)
        lines += self.goal.code_lines(solved=self.goal_result is not None)
        return source([line for line in lines if line is not None], "app")

    @staticmethod
    def _slider_values(balance: Balance) -> dict[str, Any]:
        """What the sliders show for ``balance``: whole percentages."""
        rule = balance.priority
        return {"hit": [int(round(100 * v)) for v in balance.hit_table],
                "pursuit": [int(round(100 * v)) for v in balance.pursuit_table],
                "slope": int(round(100 * rule.per_agility)),
                "clamp": (int(round(100 * rule.min)), int(round(100 * rule.max)))}  # fmt: skip

    def _pin_code(self, start: dict[str, Any]) -> tuple[list[str], str | None]:
        """Lines pinning :attr:`pinned` (and the import they need, if any): through the sliders
        when it is the base balance with other tables (what "pin" keeps), else by name."""
        pinned = self.pinned
        assert pinned is not None, "to_code asks only when a version is pinned"
        values = self._slider_values(pinned)
        try:
            lo, hi = values["clamp"]
            same = self.base.replace(
                hit_table=[v / 100 for v in values["hit"]],
                pursuit_table=[v / 100 for v in values["pursuit"]],
                priority=PriorityRule(self.base.priority.base, values["slope"] / 100, lo / 100,
                                      hi / 100),
            ).to_dict() == pinned.to_dict()  # fmt: skip
        except LabkitError:
            same = False
        if same:
            return [*_slider_code(values, start), "app.pin()"], None
        if pinned.to_dict() == default_balance().to_dict():
            return ["app.pin(default_balance())"], "from labkit.encounter import default_balance"
        if pinned.source:
            return [f"app.pin(load_balance({path_code(pinned.source)}))"], (
                "from labkit.encounter import load_balance"
            )
        raise CodeError("to_code needs the pinned version loaded from a file (load_balance) or "
                        "pinned from the sliders")  # fmt: skip

    # -- view ------------------------------------------------------------------------------------
    def _build_goal_seek(self, W: Any) -> None:
        self.goal = GoalSeek(W, self)
        self.goal_box = self.goal.box

    def _build_figure(self, W: Any) -> None:
        self.fig, (self.ax_curves, self.ax_prio, self.ax_rounds) = new_figure(
            1, 3, figsize=(9.2, 3.6), layout="constrained"
        )
        self.curves = draw.draw_curves(self.ax_curves, self.base, annotate=False)
        self.ax_curves.set_xlabel("index = attacker level − target agility", fontsize=9)
        (self.pinned_line,) = self.ax_curves.plot([], [], ":", color="#777777", lw=1.5,
                                                  label="hit (pinned)", zorder=1)  # fmt: skip
        (self.mark_a,) = self.ax_curves.plot([], [], "v", ms=10, color="tab:red",
                                             label="A hits B now")  # fmt: skip
        (self.mark_b,) = self.ax_curves.plot([], [], "^", ms=10, color="tab:purple",
                                             label="B hits A now")  # fmt: skip
        self.ax_curves.legend(loc="upper left", fontsize=7)
        self.ax_curves.set_title("hit and pursuit curves", fontsize=10)
        self.prio_bars = draw.draw_priority(self.ax_prio, self.base.priority)
        self.ax_prio.set_title("later-round priority", fontsize=10)
        self.round_bars = draw.draw_rounds(self.ax_rounds, np.zeros(2))
        self.ax_rounds.set_xlabel("rounds (last bar: 15+)")
        self.pane = FigurePane(self.fig)

    def update(self, changed: Any = None) -> None:
        """Recompute and refresh the curves, bars and text in place."""
        self.stats = self.compute(changed)
        b = self.balance
        draw.update_curves(self.curves, b)
        if self.pinned is not None:
            self.pinned_line.set_data(INDICES, 100 * np.asarray(self.pinned.hit_table))
        else:
            self.pinned_line.set_data([], [])
        a, d = self.fighters()
        for mark, att, dfn in ((self.mark_a, a, d), (self.mark_b, d, a)):
            i = int(table_index(att.hit, dfn.agility))
            mark.set_data([i], [100 * b.hit_table[i + 4]])
        draw.update_priority(self.prio_bars, b.priority)
        draw.update_rounds(self.round_bars, self.stats.rounds)
        self.ax_rounds.set_title(f"fight length (mean {self.stats.mean_rounds:.2f})",
                                 fontsize=10)  # fmt: skip
        self.text.value = self.summary_html()

    def _redraw(self) -> None:
        self.pane.refresh()


def _slider_code(values: dict[str, Any], start: dict[str, Any]) -> list[str]:
    """Lines moving the table and priority sliders from ``start`` to ``values``."""
    lines = []
    for name in ("hit", "pursuit"):
        if values[name] != start[name]:
            lines.append(f"for slider, pct in zip(app.{name}, {literal(values[name])}):")
            lines.append("    slider.value = pct")
    if values["slope"] != start["slope"]:
        lines.append(f"app.slope.value = {values['slope']!r}")
    if tuple(values["clamp"]) != tuple(start["clamp"]):
        lines.append(f"app.clamp.value = {tuple(values['clamp'])!r}")
    return lines
