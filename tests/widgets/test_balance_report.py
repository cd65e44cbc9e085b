"""BalanceReport (issue 28) through widget values, without a browser."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from labkit.encounter.rules.balance import DEFAULT_PATH  # noqa: E402
from tests.widgets.test_to_code import check_rebuilds  # noqa: E402


def test_a_and_b_side_by_side_with_differences_a_forest_and_survival_bands():
    from labkit.widgets import BalanceReport

    app = BalanceReport(str(DEFAULT_PATH), {"/characters/monster/life": 2}, seeds=40)
    t = app.run()
    win = t.set_index("metric").loc["npc_win"]
    assert win["diff_lo"] > 0  # a 2-life monster loses more often, on the same seeds
    assert "40 seeds, each played by A and B" in app.text.value
    change = (f"{100 * win['diff']:+.1f} points [{100 * win['diff_lo']:+.1f}, "
              f"{100 * win['diff_hi']:+.1f}]")  # fmt: skip
    assert change in app.text.value
    labels = [x.get_text() for x in app.ax_forest.get_yticklabels()]
    assert labels[-1] == "NPC win rate" and "balance (1 - win-rate gap)" in labels
    assert len(app.ax_survival.get_lines()) == 2  # A and B
    rebuilt = check_rebuilds(app, BalanceReport)
    assert rebuilt.table.equals(app.table)


def test_every_policy_table_and_errors_shown_not_raised(tmp_path):
    from labkit.widgets import BalanceReport

    app = BalanceReport(seeds=20)
    p = app.run_policies()
    assert len(p) == 9 and "Does B stay balanced against every policy?" in app.policy_text.value
    assert (p["diff"] == 0).all()  # B is the shipped edition too
    app.path_b.value = str(tmp_path / "missing.json")
    assert app.run() is None and "missing.json" in app.text.value


def _said(value: str) -> str:
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def test_a_and_b_are_said_whatever_form_they_were_given_in():
    # issue 47: B given as a patch, and the field still read "balance file (empty: shipped)"
    from labkit.widgets import BalanceReport

    app = BalanceReport(b={"/characters/monster/life": 2})
    said = _said(app.versions.value)
    assert said == ("A is the shipped balance · B is the shipped balance with monster life "
                    "(wounds it takes) set to 2")  # fmt: skip
    assert app.path_b.disabled and "empty: shipped" not in app.path_b.placeholder
    # a shipped file by its bare name, from any folder (the README's path was "not found")
    app = BalanceReport("a_edition_monster_life4", str(DEFAULT_PATH))
    assert _said(app.versions.value) == ("A is the shipped file a_edition_monster_life4: "
                                         "monster life (wounds it takes) set to 4 · B is the "
                                         "shipped balance")  # fmt: skip


def test_a_shipped_balance_by_name_from_anywhere(tmp_path, monkeypatch):
    from labkit.encounter import compare, shipped_balance, version_patch

    monkeypatch.chdir(tmp_path)  # a notebook outside the checkout
    path = shipped_balance("a_edition_monster_life4")
    assert path.is_file() and path.name == "a_edition_monster_life4.json"
    assert version_patch("a_edition_monster_life4") == {"/characters/monster/life": 4}
    assert version_patch("data/balance/a_edition_monster_life4.json") == {
        "/characters/monster/life": 4
    }
    t = compare({}, "a_edition_monster_life4", range(10), metrics=["npc_win"])
    assert len(t) == 1


def test_the_comparison_ends_in_a_verdict_in_points():
    # issue 47: "balance +0.112 [−0.056, +0.228], p 0.19" was left for the designer to read
    from labkit.widgets import BalanceReport

    app = BalanceReport(b={"/characters/monster/life": 2}, seeds=60)
    t = app.run().set_index("metric")
    win = t.loc["npc_win"]
    assert win["diff_lo"] > 0  # 2-life monsters lose more often: B raises the NPC win rate
    text = _said(app.text.value)
    v = 100 * win["diff"]
    assert f"B raises the NPC win rate by {v:.0f} points (" in text, text[:400]
    assert re.search(r"balance( is (clearly|not clearly) (better|worse): [+−]\d|: cannot tell yet)",
                     text)  # fmt: skip
    # one unit: shares in % and their changes in points (the forest's unit), not 0.410
    for r in t[t["unit"] == "share"].itertuples():
        row = _said(app.table_html().split(f"<td>{r.label} (%)</td>")[1].split("</tr>")[0])
        assert row.startswith(f"{100 * r.a:.1f} % {100 * r.b:.1f} % ") and " points" in row
    assert app.ax_forest.get_xlabel() == "B − A (percentage points)"


def test_a_verdict_without_an_interval_says_how_many_seeds_it_needs():
    from labkit.widgets import BalanceReport

    app = BalanceReport(b={"/characters/monster/life": 2})
    row = {
        "unit": "share",
        "diff": 0.0,
        "diff_lo": math.nan,
        "diff_hi": math.nan,
        "p_value": 1.0,
        "seeds_needed": 1234,
        "note": "",
    }
    app.table = pd.DataFrame([{"metric": "npc_win", "label": "NPC win rate", **row},
                              {"metric": "balance", "label": "balance", **row,
                               "note": "A and B ended alike on all 20 seeds"}])  # fmt: skip
    assert app.verdict() == (
        "B's change to the NPC win rate: cannot tell yet: about 1,234 seeds needed; balance: "
        "cannot tell yet (A and B ended alike on all 20 seeds)."
    )


@pytest.mark.parametrize(
    "lo, hi, said",
    [
        (0.02, 0.2, "balance is clearly better: +11 points (+2 to +20)"),
        (-0.2, -0.02, "balance is clearly worse"),
        (-0.056, 0.228, "balance is not clearly better"),
    ],
)
def test_the_balance_clause(lo, hi, said):
    from labkit.widgets import BalanceReport

    app = BalanceReport()
    app.table = pd.DataFrame(
        [
            {
                "metric": "balance",
                "label": "balance",
                "unit": "share",
                "diff": 0.112,
                "diff_lo": lo,
                "diff_hi": hi,
                "p_value": 0.19,
            }
        ]
    )
    assert app.verdict().startswith(said)


def test_no_seed_count_for_a_row_without_difference_or_spread():
    # issue 47: "seeds for a 2-point change: 2" for a row where A and B never differ
    from labkit.widgets import BalanceReport

    app = BalanceReport(b={"/characters/monster/life": 2}, seeds=20)
    app.run()
    row = app.table.set_index("metric").loc["mutual_death"]
    assert row["a"] == row["b"] == 0  # nobody dies with the monster on these seeds
    both = app.table_html().split("share of games where both")[1].split("</tr>")[0]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", both)
    assert "(no interval)" in cells[2] and cells[5] in ("–", f"{int(row['seeds_needed']):,}")
    assert cells[5] != "2"


def test_the_policy_table_says_why_a_change_has_no_interval():
    from labkit.widgets import BalanceReport

    app = BalanceReport(seeds=12)
    why = "A: too close to even at 12 seeds to say which side leads"
    app.policies = pd.DataFrame([
        {"npc": "scavenger", "monster": "hunter", "balance_a": 1.0, "balance_a_lo": 0.6,
         "balance_a_hi": 1.0, "balance_b": 0.5, "balance_b_lo": 0.2, "balance_b_hi": 0.9,
         "diff": -0.5, "diff_lo": math.nan, "diff_hi": math.nan, "b_balanced": False,
         "games": 12, "note": why},
        {"npc": "random", "monster": "hunter", "balance_a": 0.9, "balance_a_lo": 0.8,
         "balance_a_hi": 1.0, "balance_b": 0.7, "balance_b_lo": 0.6, "balance_b_hi": 0.8,
         "diff": -0.2, "diff_lo": -0.3, "diff_hi": -0.1, "b_balanced": False, "games": 12,
         "note": ""}])  # fmt: skip
    said = _said(app.policy_html())
    assert "nan" not in said.lower()
    assert f"−50 points: cannot tell yet ({why})" in said
    assert "−20 points [−30, −10]" in said
