"""BalanceReport (issue 28) through widget values, without a browser."""

from __future__ import annotations

from labkit.encounter.rules.balance import DEFAULT_PATH  # noqa: E402
from tests.widgets.test_to_code import check_rebuilds  # noqa: E402


def test_a_and_b_side_by_side_with_differences_a_forest_and_survival_bands():
    from labkit.widgets import BalanceReport

    app = BalanceReport(str(DEFAULT_PATH), {"/characters/monster/life": 2}, seeds=40)
    t = app.run()
    win = t.set_index("metric").loc["npc_win"]
    assert win["diff_lo"] > 0  # a 2-life monster loses more often, on the same seeds
    assert "40 seeds, each played by A and B" in app.text.value
    assert f"{win['diff']:+.3f} [{win['diff_lo']:+.3f}, {win['diff_hi']:+.3f}]" in app.text.value
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
