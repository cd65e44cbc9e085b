"""BalanceTuner logic through widget values, without a browser."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit import LabkitError
from labkit.encounter.sim.settings import SimulationSettings
from labkit.widgets import BalanceTuner
from labkit.widgets.balance_tuner import numeric_parameters

U = np.random.default_rng(0).random(4000)  # one per seed of the default list


def falling(v, seeds):  # P(NPC win) = 0.5 at 4.3
    return U[seeds] < 1 / (1 + np.exp(1.5 * (v - 4.3)))


def test_the_dropdown_lists_numeric_leaves_and_settings_fields():
    app = BalanceTuner(response=falling)
    # the dropdown shows the designer's words; the values stay the pointers and field names
    labels = dict(app.parameter.options)
    opts = list(labels.values())
    assert labels["monster life (wounds it takes)"] == "/characters/monster/life"
    assert "/characters/monster/life" in opts and "/weapons/revolver/magazine" in opts
    assert "/priority/base" in opts and "npcs" in opts and "/version" not in opts
    assert not any(o.endswith("/natural") or o == "/edition" for o in opts)
    app.parameter.value = "/priority/base"  # a real number: a real range
    assert not app.integer and (app.low.value, app.high.value) == (0.25, 1.0)
    assert numeric_parameters()["/combat/max_rounds"] == 30


def test_run_draws_the_curve_and_saves_the_patch_atomically(tmp_path):
    app = BalanceTuner(response=falling)
    app.parameter.value = "/characters/monster/life"
    t = app.run()
    assert t.value == 4.0 and t.integer and t.root_ci[0] < 4.3 < t.root_ci[1]
    assert app.progress.value == min(t.games, app.progress.max) and app.progress.value > 0
    # the answer line names both whole values with their measured rates (in per cent, in the
    # glossary's words), the games each was measured on, and the crossing
    for r in t.whole.itertuples():
        span = f"{100 * r.lo:.1f}–{100 * r.hi:.1f} %"
        assert (f"{int(r.value)} gives {100 * r.rate:.1f} % (95 % interval {span}, {r.n:,} games)"
                in app.text.value)  # fmt: skip
    assert f"crosses 50 % at {t.root:.2f}" in app.text.value and not app.save_button.disabled
    # 4 gives 61 % and 5 gives 27 % (the truth): both are measured to lie outside 48-52 %
    assert t.whole["verdict"].tolist() == ["off", "off"] and not t.hits
    said = ("no whole value of monster life (wounds it takes) gives NPC win rate within ±2 "
            "points of 50 %: 4 gives")  # fmt: skip
    assert said in app.text.value
    assert "/characters" not in app.text.value and "npc_win" not in app.text.value
    xs = [line.get_xdata()[0] for line in app.ax.lines if len(line.get_xdata()) == 2]
    assert 4.0 in xs  # the chosen value's line
    path = app.save(tmp_path / "patch.json")
    doc = json.loads(path.read_text())
    assert doc["format"] == "labkit.balance_patch" and doc["balance"] == {
        "/characters/monster/life": 4}  # fmt: skip
    assert [w["value"] for w in doc["whole"]] == [4, 5] and doc["hits"] == t.hits
    assert [w["verdict"] for w in doc["whole"]] == ["off", "off"] and doc["precision"] == 0.02
    assert doc["ci"] == list(t.ci) and doc["ci"][0] <= doc["whole"][0]["rate"] <= doc["ci"][1]
    assert [p.name for p in tmp_path.iterdir()] == ["patch.json"]
    s = SimulationSettings(balance=doc["balance"])  # the patch plays as is
    assert s.resolved_balance().characters["monster"].life == 4


def test_unreachable_target_and_errors_are_shown_not_raised():
    app = BalanceTuner(response=falling)
    app.target.value = 0.95
    app.low.value, app.high.value = 5, 9
    t = app.run()
    assert not t.reachable and "out of reach" in app.text.value and app.save_button.disabled
    with pytest.raises(LabkitError, match="nothing tuned"):
        app.patch()
    app.low.value = 12  # low > high
    assert app.run() is None and "bounds" in app.text.value


def test_real_games_and_to_code_rebuild_the_state():
    with ThreadPoolExecutor(2) as pool:
        app = BalanceTuner(SimulationSettings(max_steps=150), seeds=range(60), start=30,
                           executor=pool)  # fmt: skip
        app.parameter.value = "npcs"
        app.low.value, app.high.value = 1, 6
        app.metric.value = "monster_win"
        app.budget.value = 300
        t = app.run()
    assert t is not None and t.games <= 300 + 3 * 60 and t.parameter == "npcs"
    code = app.to_code()
    ns: dict = {}
    exec(code, ns)  # noqa: S102 - our own generated source
    again = ns["app"]
    assert (again.parameter.value, again.low.value, again.high.value) == ("npcs", 1.0, 6.0)
    assert again.metric.value == "monster_win" and again.seeds == list(range(60))


def test_the_target_line_follows_its_slider_before_and_after_a_tune():
    app = BalanceTuner(response=falling, budget=3000)
    app.target.value = 0.3
    assert list(app.target_line.get_ydata()) == [0.3, 0.3]  # drawn before any tune
    app.run()
    assert list(app.target_line.get_ydata()) == [0.3, 0.3]  # the tuned curve's own target line
    app.target.value = 0.7
    assert list(app.target_line.get_ydata()) == [0.7, 0.7]
