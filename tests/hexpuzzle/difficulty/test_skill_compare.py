"""Held-out comparison of fit options (k-fold by player): the counts are the telemetry's own,
on a world where weak players quit more the selection-aware fit predicts quitting better than
"missing at random", the best option is the one of lowest log-loss, and the text says so."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.skill_compare import FitComparison, compare_fits
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

IDS = [f"L{i}" for i in range(8)]


@pytest.fixture(scope="module")
def world():
    theta = np.random.default_rng(0).normal(0, 1.2, 400)
    rows = telemetry_from_skill(IDS, np.linspace(-1, 2, 8), theta, rng=1, quit_ability=1.5,
                                max_attempts=2)  # fmt: skip
    return rows, compare_fits(rows, IDS, features=False, folds=2)


def test_every_held_out_attempt_is_predicted_once(world):
    rows, rep = world
    assert (rep.folds, rep.n_players) == (2, 400)
    assert rep.n_responses == len(rows)  # first tries and retries alike
    for name in ("ignore", "model"):
        assert rep.metrics[name]["responses"]["n"] == len(rows)
        assert rep.metrics[name]["quitting"]["n"] == rep.n_decisions > 0
        assert rep.bins[name]["responses"][:, 2].sum() == len(rows)


def test_modelling_the_dropout_predicts_quitting_better(world):
    _, rep = world
    q = {name: rep.metrics[name]["quitting"] for name in ("ignore", "model")}
    assert q["model"]["log_loss"] < q["ignore"]["log_loss"]
    assert rep.best("quitting") == "model"
    assert all(0 < m["brier"] < 0.25 for m in q.values())


def test_best_and_the_text_of_a_comparison_made_by_hand():
    c = FitComparison(
        {"a": {"responses": {"log_loss": 0.6, "brier": 0.2, "n": 10}},
         "b": {"responses": {"log_loss": 0.5, "brier": 0.19, "n": 10},
               "quitting": {"log_loss": 0.3, "brier": 0.1, "n": 4}}},
        {"a": {}, "b": {}}, 2, 5, 10, 4,
    )  # fmt: skip
    assert c.best("responses") == "b" and c.best("quitting") == "b"
    lines = str(c).splitlines()
    assert lines[0] == "held-out, 2-fold by player: 5 players, 10 responses, 4 quit decisions"
    assert lines[2] == f"{'a':<20}{'0.6000':>20}{'0.2000':>8}{'-':>19}{'-':>8}"
    assert lines[3] == f"{'b':<20}{'0.5000':>20}{'0.1900':>8}{'0.3000':>19}{'0.1000':>8}"
