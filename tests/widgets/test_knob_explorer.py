"""KnobExplorer: the importance and Pareto views read without code, and to_code rebuilds it."""

from __future__ import annotations

import pytest


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
    rows = app.tune_rows()
    # the choice's rows say where the estimate lies; only the confirmation says met (the
    # length is 5 b steps without luck: its interval is the one value 5 b, inside 40-60)
    assert [r["games"] for r in rows] == ["choice (400 fresh games)"] * (len(rows) - 1) + [
        f"confirmation ({t.confirm_games} new games)"]  # fmt: skip
    assert all(r["a game lasts 40–60 steps on average"].endswith((" in band", " outside"))
               for r in rows[:-1])  # fmt: skip
    row = rows[-1]
    assert row["a game lasts 40–60 steps on average"].endswith(" met")
    assert row["the NPC side wins 45–55 % of games"].endswith(" met")
    assert 8 <= int(row["b"]) <= 12
    shown = app.text.value.replace("&#x27;", "'")
    # the domain's sentence with its index in words; the table's flags as yes / no
    assert imp.summary().replace("(mu_star, ", "(effect, ") in shown and "mu_star" not in shown
    assert "<th>effect</th>" in shown and "<td>yes</td>" in shown and "True" not in shown
    assert dict(app.outcome.options)["game length (steps)"] == "steps"
    assert app.ax_importance.get_title() == "what moves the game length (steps)"
    assert len(app.ax_importance.patches) >= 3 and len(app.ax_pareto.collections) >= 2
    # a response function at a module's top level is imported by name (issue 47)
    assert f"from {__name__} import response" in app.to_code()


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


def _watch(widget):
    seen = []
    widget.observe(lambda ch: seen.append(ch["new"]), names="value")
    return seen


@pytest.mark.parametrize("method", ["sobol", "morris"])
def test_importance_says_its_progress_hides_the_old_answer_and_counts_agree(method):
    # issue 47: an 11 s Sobol run showed nothing while the old result stayed up, and announced
    # 30,720 games then reported 30,200 (a game the design repeats is played once)
    from labkit.encounter import SimulationSettings
    from labkit.widgets import KnobExplorer

    app = KnobExplorer({"/characters/monster/life": (2, 4)}, ["npc_win=0.5±0.2"], method=method,
                       base=SimulationSettings(max_steps=40), games=2, n=8,
                       trajectories=4)  # fmt: skip
    app.run_importance()
    first = app.importance
    activity, bar, text = _watch(app.activity), _watch(app.bar), _watch(app.text)
    app.run_importance()
    said = [a for a in activity if a]
    assert said and all("which knob matters" in a for a in said)
    assert any(" of " in a and "games" in a for a in said)  # played so far of the total
    assert max(bar) == pytest.approx(1.0) and activity[-1] == ""
    # while it ran, the old answer was not shown as if it were the new one
    assert "running" in text[0] and first.summary()[:40] not in text[0]
    imp = app.importance
    k = 1
    announced = (8 * (k + 3) if method == "sobol" else 4 * (k + 2)) * 2
    shown = app.text.value.replace(",", "")
    assert f"{announced} games" in shown
    assert f"played {imp.games} games" in shown
    if method == "sobol":  # life 2–4 in whole points: the design repeats games
        assert imp.games < announced and f"{announced - imp.games} repeated" in shown
    else:
        assert imp.games == announced and "repeated" not in shown


def test_tune_says_its_progress_and_hides_the_old_answer():
    from labkit.widgets import KnobExplorer

    app = KnobExplorer({"a": (0.0, 10.0), "b": (0, 30)}, ["npc_win=0.5±0.05", "steps=40:60"],
                       response=response, games=4, budget=30, tune_games=200,
                       fresh=400)  # fmt: skip
    app.run_tune()
    activity, text = _watch(app.activity), _watch(app.text)
    app.run_tune()
    said = [a for a in activity if a]
    assert any("trial" in a and "of 30" in a for a in said), said
    assert activity[-1] == "" and "running" in text[0]
