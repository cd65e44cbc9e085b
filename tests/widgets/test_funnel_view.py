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
    space: dict = {}
    exec(view.to_code(), space)  # the code a user pastes into a cell
    again = space["view"]
    assert again.order == view.order
    assert np.array_equal(again.funnel.stats["reach"], view.funnel.stats["reach"])
