"""Validation worlds: the selection-aware fit is right where the ignorable one is not, and never
worse."""

from __future__ import annotations

import pytest

from labkit.hexpuzzle.difficulty.skill_validate import validation_row


@pytest.fixture(scope="module")
def ability_world():
    return {d: validation_row("ability", 0, levels=30, players=700, dropout=d)
            for d in ("ignore", "model")}  # fmt: skip


def test_selection_aware_fit_is_right_where_the_ignorable_one_is_not(ability_world):
    ignore, model = ability_world["ignore"], ability_world["model"]
    assert ignore["location"] < -0.3 and ignore["spread"] < 0.88  # the failure issue 25 reports
    assert abs(model["location"]) <= 0.2 and abs(model["spread"] - 1) <= 0.1
    assert model["success"] <= 0.05 and model["target"] <= 0.05
    assert model["quit_ability"] == pytest.approx(-1.0, abs=0.35)  # the truth: c = 1
    assert model["learning"] == pytest.approx(0.5, abs=0.15)


@pytest.mark.parametrize("world", ["outcome", "complete"])
def test_no_world_gets_worse_than_the_ignorable_fit(world):
    rows = {
        d: validation_row(world, 1, levels=24, players=500, dropout=d) for d in ("ignore", "model")
    }
    model, ignore = rows["model"], rows["ignore"]
    assert abs(model["location"]) <= abs(ignore["location"]) + 0.1
    assert abs(model["spread"] - 1) <= abs(ignore["spread"] - 1) + 0.05
    assert model["success"] <= ignore["success"] + 0.02
