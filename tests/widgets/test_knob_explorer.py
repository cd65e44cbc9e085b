"""KnobExplorer: the importance and Pareto views read without code, and to_code rebuilds it."""

from __future__ import annotations

import pytest

from labkit.widgets._code import CodeError


def response(point, seeds):  # win rate a / 10 (one uniform per seed), length 5 b steps
    return {"npc_win": ((seeds * 0.6180339887) % 1.0 < point["a"] / 10) * 1.0,
            "steps": 5.0 * point["b"] + 0 * seeds}  # fmt: skip


def test_views_name_knobs_and_targets_in_words():
    from labkit.widgets import KnobExplorer

    app = KnobExplorer({"a": (0.0, 10.0), "b": (0, 30)}, ["npc_win=0.5±0.05", "steps=40:60"],
                       response=response, games=4, trajectories=6, budget=40, tune_games=200,
                       fresh=400)  # fmt: skip
    assert "the NPC side wins 45–55 % of games" in app.text.value
    assert app.importance_rows() == [] and app.tune_rows() == []
    app.outcome.value = "steps"
    imp = app.run_importance()
    rows = app.importance_rows()
    assert [r["knob"] for r in rows] == ["b", "a", "seed block (4 games)"]
    assert rows[0]["matters"] and rows[0]["mu_star"] == pytest.approx(150.0)
    t = app.run_tune()
    assert t.met
    row = app.tune_rows()[0]
    assert row["a length in words" if False else "a game lasts 40–60 steps on average"].endswith(
        " met"
    )
    assert 8 <= int(row["b"]) <= 12
    shown = app.text.value.replace("&#x27;", "'")
    # the domain's sentence with its index in words; the table's flags as yes / no
    assert imp.summary().replace("(mu_star, ", "(effect, ") in shown and "mu_star" not in shown
    assert "<th>effect</th>" in shown and "<td>yes</td>" in shown and "True" not in shown
    assert dict(app.outcome.options)["game length (steps)"] == "steps"
    assert app.ax_importance.get_title() == "what moves the game length (steps)"
    assert len(app.ax_importance.patches) >= 3 and len(app.ax_pareto.collections) >= 2
    with pytest.raises(CodeError, match="response"):
        app.to_code()


def test_to_code_rebuilds_with_real_games():
    from labkit.widgets import KnobExplorer

    from .test_to_code import check_rebuilds

    app = KnobExplorer({"/characters/monster/life": (2, 8)}, ["npc_win=0.5±0.2"],
                       games=2, trajectories=4)  # fmt: skip
    app.games.value = 3
    app.method.value = "morris"
    code = app.to_code()
    assert "knobs = {'/characters/monster/life': (2, 8)}" in code
    assert "targets = ['npc_win=0.5±0.2']" in code  # as written (issue 47)
    check_rebuilds(app, KnobExplorer)
