"""FunnelView's logic without a browser: reorder, move, improve, the code that rebuilds it."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import FunnelWorld, TrueModel, campaign, fit_skill_model
from labkit.widgets import FunnelView

matplotlib.use("Agg")

QUIT = {"baseline": -2.0, "won": -1.0, "run": 0.8}
BETA = [1.5, -1.0, 0.0, 0.8]


@pytest.fixture()
def view():
    return FunnelView(["L01", "L02", "L03", "L04"], TrueModel(BETA, quit=QUIT), players=4000,
                      draws=8, seed=1)  # fmt: skip


def test_dragging_the_tags_redraws_the_funnel_of_the_new_order(view):
    view.tags.value = ["L02", "L03", "L04", "L01"]  # what a drag in the browser does
    assert view.order == ["L02", "L03", "L04", "L01"]
    truth = FunnelWorld([BETA[i] for i in (1, 2, 3, 0)], quit=QUIT).funnel(100_000, draws=1,
                                                                            rng=2)  # fmt: skip
    assert np.max(np.abs(np.array(view.funnel.value("reach")) - truth.value("reach"))) < 0.03
    heights = [p.get_height() for p in view.axes[1].patches]
    assert heights == pytest.approx(np.nan_to_num(view.funnel.stats["quit_hazard"][:, 0]) * 100)
    assert "this order" in view.status.value and "L02" in view.table.value


def test_move_and_an_incomplete_order(view):
    view.move("L01", 4)
    assert view.order == ["L02", "L03", "L04", "L01"] and list(view.tags.value) == view.order
    assert view.set_order(["L02", "L03"]) is None and "missing: L01, L04" in view.status.value
    assert view.order == ["L02", "L03", "L04", "L01"]  # the funnel on show is still complete
    with pytest.raises(ArgumentError, match="level_id"):
        view.move("L09", 1)


def test_improve_puts_the_hard_level_later(view):
    imp = view.improve()
    assert view.order == imp.order and view.order.index("L01") > 0
    assert "difficulty never drops" in view.advice.value


def test_to_code_rebuilds_the_view_in_its_order(tmp_path):
    levels = campaign()[:4]
    from labkit._data import data_path
    from labkit.hexpuzzle import load_telemetry

    rows = load_telemetry(data_path("telemetry", "progression.csv"), frame=False)
    model = fit_skill_model(rows, campaign(), dropout="model")
    model.save(tmp_path / "m.json")
    view = FunnelView(levels, str(tmp_path / "m.json"), players=300, draws=3)
    view.move(levels[2].id, 1)
    view.reach_goal.value, view.hazard_goal.value = 0.8, 0.2  # the goals are kept too
    space: dict = {}
    exec(view.to_code(), space)  # the code a user pastes into a cell
    again = space["view"]
    assert again.order == view.order
    assert (again.reach_goal.value, again.hazard_goal.value) == (0.8, 0.2)
    assert again.goals.value == view.goals.value
    assert np.array_equal(again.funnel.stats["reach"], view.funnel.stats["reach"])


def _shown(value: str) -> str:
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def test_one_screen_one_number_per_idea(view):
    # issue 47: "32 % reach the last level", "22 % finish" and "before 0.35" on one screen
    f = view.funnel
    reach_last, finished = float(f.stats["reach"][-1, 0]), f.finished
    status = _shown(view.status.value)
    assert f"reach the last level: {_pct(reach_last)}" in status, status
    assert f"win the last level (finish the campaign): {_pct(finished)}" in status, status
    table = _shown(view.table.value)
    assert "finish" not in table and "Funnel(" not in table  # no second, unlabelled number
    # the last level has no stop decision: the table says so instead of "0 % (0 %–0 %)"
    last = view.table.value.split("<tr>")[-1]
    assert "campaign ends here" in last and "0% (0%–0%)" not in last
    view.move("L01", 4)
    status = _shown(view.status.value)
    moved = float(view.funnel.stats["reach"][-1, 0])
    assert f"reach the last level: {_pct(moved)} (first order {_pct(reach_last)})" in status
    assert status.count("reach the last level") == 1 and "of all players" not in status
    legend = [t.get_text() for t in view.axes[0].get_legend().get_texts()]
    assert legend == ["first order", "this order"]  # the chart's names are the line's


def test_improve_speaks_the_screens_numbers_and_words(view):
    before = float(view.funnel.stats["reach"][-1, 0])
    view.reach_goal.value = 0.95  # out of reach: the goal is missed and the answer says why
    imp = view.improve()
    advice = _shown(view.advice.value)
    after = float(view.funnel.stats["reach"][-1, 0])
    assert f"(before {_pct(before)}, after {_pct(after)})" in advice, advice
    assert imp.after.stats["reach"][-1, 0] == after  # the improve's funnel is the one on show
    assert "regenerate=True" not in advice and "before 0." not in advice


def test_the_view_says_loading_before_the_long_start(monkeypatch):
    # issue 47: nothing for 3–4 s while FunnelView starts; now "loading…" at once
    from labkit.widgets import _busy
    from labkit.widgets import funnel_view as fv

    said: list[str] = []
    monkeypatch.setattr(_busy, "_in_kernel", lambda: True)
    monkeypatch.setattr(_busy, "_show", lambda text: said.append(text))
    model = TrueModel(BETA[:3], quit=QUIT)
    monkeypatch.setattr(fv, "_default_model", lambda levels: said.append("fit") or model)
    FunnelView(["L01", "L02", "L03"], None, players=200, draws=2)
    assert said[0].startswith("loading the funnel") and said.index("fit") > 0 and said[-1] == ""


def test_the_goal_sliders_say_whether_the_order_on_show_meets_them(view):
    # a goal slider changed nothing on screen until improve was pressed (the browser suite's
    # "moving a control changes what the app shows" caught it in notebook 08)
    f = view.funnel
    reach = float(f.stats["reach"][-1, 0])
    stops = np.nan_to_num(f.stats["quit_hazard"][:, 0])
    view.reach_goal.value = 0.05
    view.hazard_goal.value = 0.5
    shown = _shown(view.goals.value)
    assert f"at least 5 % reach the last level (this order: {_pct(reach)}, met)" in shown, shown
    worst = f.level_ids[int(np.argmax(stops))]
    assert (f"no level stops more than 50 % of its players (this order: {worst} stops "
            f"{_pct(stops.max())}, met)") in shown, shown  # fmt: skip
    view.reach_goal.value = 0.95
    view.hazard_goal.value = 0.01
    shown = _shown(view.goals.value)
    assert f"at least 95 % reach the last level (this order: {_pct(reach)}, not met)" in shown
    assert f"{_pct(stops.max())}, not met)" in shown, shown
    view.move("L01", 4)  # a new order: the goals line speaks of it
    assert _pct(float(view.funnel.stats["reach"][-1, 0])) in _shown(view.goals.value)
