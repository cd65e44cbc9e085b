"""improve_campaign: the gentle order found and judged by a large simulation, goals out of reach
said why, an evaluation budget that makes the search the same on any machine."""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    FunnelGoal,
    FunnelWorld,
    TrueModel,
    improve_campaign,
)


def test_improve_campaign_finds_the_gentle_order_and_keeps_the_band_rule():
    beta = np.array([1.8, -1.5, 0.4, -0.5, 1.0, 0.0])
    quit = {"baseline": -3.0, "won": -0.5, "run": 0.9}
    truth = TrueModel(beta, quit=quit)
    ids = list(truth.level_ids)
    imp = improve_campaign(ids, truth, FunnelGoal(reach_last=0.75, max_quit_hazard=0.08),
                           players=3000, draws=10, time_limit=20)  # fmt: skip
    order = [ids.index(i) for i in imp.order]
    # judged independently, by a large simulation of the true world
    before = FunnelWorld(list(beta), quit=quit).funnel(100_000, draws=1, rng=3)
    after = FunnelWorld(list(beta[order]), quit=quit).funnel(100_000, draws=1, rng=3)
    assert after.value("reach")[-1] > before.value("reach")[-1] + 0.03
    band = np.searchsorted([-0.85, -0.65, -0.45], -1 / (1 + np.exp(beta[order])), side="right")
    assert np.max(band[:-1] - band[1:]) <= 1 and imp.goals[2].met
    assert imp.goals[0].after == pytest.approx(after.value("reach")[-1], abs=0.03)


def test_improve_campaign_says_why_a_goal_cannot_be_met():
    truth = TrueModel([0.0, 0.5, 1.0], quit={"baseline": -0.5})  # 38 % stop after every level
    imp = improve_campaign(["L01", "L02", "L03"], truth, FunnelGoal(reach_last=0.6),
                           players=2000, draws=5, time_limit=5)  # fmt: skip
    reach = imp.goals[0]
    assert not reach.met and "even if every level were won at the first try" in reach.why
    floor = (1 - 1 / (1 + np.exp(0.5))) ** 2  # two stop decisions before the last level
    said = float(reach.why.split("lets only ")[1].split("%")[0]) / 100
    assert abs(said - floor) < 0.03


def test_regenerating_needs_levels_not_ids():
    truth = TrueModel([2.5, 0.0], quit={"baseline": -2.0, "won": -3.0})
    imp = improve_campaign(["L01", "L02"], truth, FunnelGoal(max_quit_hazard=0.05),
                           regenerate=True, players=1000, draws=3, time_limit=2)  # fmt: skip
    assert any("Level objects" in c for c in imp.changes)


def test_an_evaluation_budget_makes_the_search_the_same_on_any_machine(monkeypatch):
    # time_limit stops the order search wherever the machine has got to; evaluations does not.
    from labkit.hexpuzzle.playthrough import improve

    beta = np.array([1.8, -1.5, 0.4, -0.5, 1.0, 0.0])
    truth = TrueModel(beta, quit={"baseline": -3.0, "won": -0.5, "run": 0.9})
    ids = list(truth.level_ids)
    goal = FunnelGoal(reach_last=0.9, max_quit_hazard=0.01, max_band_drop=None)  # out of reach
    judged = []
    measure = improve._Judge.measure
    monkeypatch.setattr(improve._Judge, "measure", lambda j, t: judged.append(1) or measure(j, t))

    def search(evaluations):
        judged.clear()
        order = improve_campaign(ids, truth, goal, players=500, draws=2, time_limit=600,
                                 evaluations=evaluations).order  # fmt: skip
        return order, len(judged)

    (first, n7), (again, _) = search(7), search(7)
    assert first == again
    assert n7 == 1 + 2 + 7  # the floor, the two starting orders, then exactly the budget
    with pytest.raises(ArgumentError, match="evaluations"):
        improve_campaign(ids, truth, goal, evaluations=0)
    with pytest.raises(ArgumentError, match="time_limit"):
        improve_campaign(ids, truth, goal, time_limit=True)
