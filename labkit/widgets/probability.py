"""ProbabilityExplorer: edit the combat curves live and watch two loadouts fight (SPEC J2, E2).

Sliders edit the 9 hit and 9 pursuit percentages, the priority slope (points per agility level)
and its clamp. Two loadout panels pick character, weapon, armour, stealth and retreat threshold.
The figure shows the curves (seed figures 2 and 3), the priority bars (table 3) and the fight
length distribution; the text shows win probability, escapes and first-strike share with 95 %
Wilson intervals from :func:`labkit.encounter.simulate_fights`, recomputed on every change with a
fixed seed (so a change in the numbers is the change in the rules, not noise).

An edit that breaks a table rule (9 strictly increasing probabilities) is shown as an error and
the last valid balance stays in force.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np

from labkit import LabkitError
from labkit.encounter import draw
from labkit.encounter.rules.balance import Balance, PriorityRule, default_balance
from labkit.encounter.rules.combat import FightStats, Loadout, simulate_fights, wilson_interval
from labkit.encounter.rules.tables import INDICES, priority_chance
from labkit.widgets._figure import FigurePane, new_figure

__all__ = ["ProbabilityExplorer"]


class ProbabilityExplorer:
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
        n: int = 5000,
        seed: int = 20261129,
    ) -> None:
        import ipywidgets as W

        self.base = default_balance() if balance is None else balance
        self.balance = self.base
        self.seed = seed
        self.error: str | None = None
        self.stats: FightStats | None = None
        a = a or Loadout(weapon="long_knife")
        b = b or Loadout(character="monster")
        self._updating = False

        def pct(v: float, label: str) -> Any:
            return W.IntSlider(int(round(100 * v)), 0, 100, description=label,
                               orientation="vertical", layout=W.Layout(width="46px"))  # fmt: skip

        self.hit = [pct(v, f"{i:+d}") for i, v in zip(INDICES, self.base.hit_table)]
        self.pursuit = [pct(v, f"{i:+d}") for i, v in zip(INDICES, self.base.pursuit_table)]
        rule = self.base.priority
        self.slope = W.IntSlider(int(round(100 * rule.per_agility)), 0, 50,
                                 description="priority pts / agility")  # fmt: skip
        clamp = (int(round(100 * rule.min)), int(round(100 * rule.max)))
        self.clamp = W.IntRangeSlider(value=clamp, min=0, max=100,
                                      description="priority clamp %")  # fmt: skip
        self.n = W.IntSlider(n, 500, 50_000, step=500, description="fights")
        self.side = {"a": self._side_controls(W, a), "b": self._side_controls(W, b)}
        self.text = W.HTML()
        self._build_figure(W)
        tables_box = W.VBox([
            W.HTML("<b>hit %</b> by index"), W.HBox(self.hit),
            W.HTML("<b>pursuit %</b> by index"), W.HBox(self.pursuit),
            self.slope, self.clamp, self.n,
        ])  # fmt: skip
        sides = W.VBox([W.HTML("<b>side A</b>"), *self.side["a"].values(),
                        W.HTML("<b>side B</b>"), *self.side["b"].values()])  # fmt: skip
        self.ui = W.VBox([W.HBox([tables_box, sides, self.text]), self.pane.widget])
        self.update()
        for w in self.controls():
            w.observe(lambda change: self.update(), names="value")

    def _side_controls(self, W: Any, loadout: Loadout) -> dict[str, Any]:
        b = self.base
        weapons = ["(natural)", *[n for n, w in b.weapons.items() if not w.natural]]
        return {
            "character": W.Dropdown(options=list(b.characters), value=loadout.character,
                                    description="character"),
            "weapon": W.Dropdown(options=weapons, value=loadout.weapon or "(natural)",
                                 description="weapon"),
            "armour": W.Dropdown(options=["(none)", *b.armour], value=loadout.armour or "(none)",
                                 description="armour"),
            "stealth": W.Checkbox(value=loadout.stealth, description="ambush (stealth)"),
            "retreat_at": W.IntSlider(loadout.retreat_at, 0, 5, description="retreat at life ≤"),
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

    def compute(self) -> FightStats:
        """Re-read the sliders and sample ``n`` fights with the fixed seed."""
        try:
            self.balance = self.edited_balance()
            self.error = None
        except LabkitError as exc:
            self.error = str(exc)  # keep the last valid balance in force
        return simulate_fights(self.loadout("a"), self.loadout("b"), self.n.value,
                               rng=self.seed, balance=self.balance)  # fmt: skip

    def summary_html(self) -> str:
        s = self.stats
        rows = []
        for key, label in (("a_wins", "A wins"), ("b_wins", "B wins"), ("a_escaped", "A escapes"),
                           ("b_escaped", "B escapes"), ("parted", "both retreat"),
                           ("stalemate", "stalemate")):  # fmt: skip
            lo, hi = s.interval(key)
            rows.append(f"<tr><td>{label}</td><td>{100 * s.share(key):.1f} %</td>"
                        f"<td>[{100 * lo:.1f}, {100 * hi:.1f}]</td></tr>")  # fmt: skip
        struck = max(1, s.first_strikes[0] + s.first_strikes[1])
        first = s.first_strikes[0] / struck
        flo, fhi = wilson_interval(s.first_strikes[0], struck)
        err = f"<p style='color:#b00'>{html.escape(self.error)}</p>" if self.error else ""
        return (
            f"{err}<table><tr><th>n = {s.n}</th><th>share</th><th>95 % CI</th></tr>"
            + "".join(rows)
            + f"<tr><td>A strikes first</td><td>{100 * first:.1f} %</td>"
            f"<td>[{100 * flo:.1f}, {100 * fhi:.1f}]</td></tr></table>"
            f"<p>mean rounds {s.mean_rounds:.2f} · A hits {100 * s.hit_rate(0):.1f} %"
            f" · B hits {100 * s.hit_rate(1):.1f} % of blows</p>"
            f"<p>A: hit {s.a.hit}, agility {s.a.agility}, first strike {s.a.first_strike}; "
            f"B: hit {s.b.hit}, agility {s.b.agility}, first strike {s.b.first_strike}</p>"
        )

    # -- view ------------------------------------------------------------------------------------
    def _build_figure(self, W: Any) -> None:
        self.fig, (self.ax_curves, self.ax_prio, self.ax_rounds) = new_figure(
            1, 3, figsize=(12, 3.4), layout="constrained"
        )
        self.curves = draw.draw_curves(self.ax_curves, self.base, annotate=False)
        self.prio_bars = draw.draw_priority(self.ax_prio, self.base.priority)
        self.round_bars = draw.draw_rounds(self.ax_rounds, np.zeros(2))
        self.pane = FigurePane(self.fig)

    def update(self) -> None:
        """Recompute and refresh the curves, bars and text in place."""
        self.stats = self.compute()
        b = self.balance
        self.curves["hit"].set_ydata(100 * b.hit_table)
        self.curves["pursuit"].set_ydata(100 * b.pursuit_table)
        p = 100 * np.asarray(priority_chance(draw.DIFFS, rule=b.priority))
        for bar, h in zip(self.prio_bars, p):
            bar.set_height(h)
        draw.update_rounds(self.round_bars, self.stats.rounds)
        self.ax_rounds.set_title(f"fight length (mean {self.stats.mean_rounds:.2f} rounds)")
        self.text.value = self.summary_html()
        self._redraw()

    def _redraw(self) -> None:
        self.pane.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)
