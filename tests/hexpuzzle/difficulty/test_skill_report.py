"""The skill model's held-out report: on telemetry simulated from the skill model itself, the
model that reads a player's earlier first attempts predicts better than the same model without
the player's history, and better than the structural score; the counts are the telemetry's own;
the text and HTML name every model."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.skill import fit_skill_model
from labkit.hexpuzzle.difficulty.skill_report import MODELS, SkillReport
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

IDS = [f"L{i}" for i in range(6)]


@pytest.fixture(scope="module")
def world():
    theta = np.random.default_rng(0).normal(0, 1.5, 300)  # a wide spread: history matters
    rows = telemetry_from_skill(IDS, np.linspace(-1.5, 1.5, 6), theta, rng=1)
    return rows, fit_skill_model(rows, IDS, features=False).report(folds=3)


def test_the_counts_are_the_telemetrys_first_attempts_and_players(world):
    rows, report = world
    assert report.folds == 3
    assert report.n_players == len(set(rows["player"].tolist())) == 300
    assert report.n_attempts == int((rows["attempt"] == 1).sum())
    assert report.bins.shape[1] == 3 and report.bins[:, 2].sum() == report.n_attempts


def test_a_players_history_improves_the_prediction(world):
    _, report = world
    m = report.metrics
    assert m["skill model"]["log_loss"] < m["skill model, player unknown"]["log_loss"] - 0.02
    assert m["skill model"]["log_loss"] < m["structural score"]["log_loss"]
    assert m["skill model"]["brier"] < m["skill model, player unknown"]["brier"]
    # levels ordered by difficulty: the mean predictions rank the observed rates
    assert m["skill model"]["spearman"] > 0.9
    assert all(0 < v["brier"] < 0.25 + 1e-9 for v in m.values())


def test_the_text_and_html_name_every_model(world):
    _, report = world
    lines = str(report).splitlines()
    assert (
        lines[0] == f"held-out first attempts: {report.n_attempts} by 300 players, 3-fold by player"
    )
    for name in report.metrics:
        assert name in MODELS and any(line.startswith(name) for line in lines[2:])
    html = report._repr_html_()
    assert html.count("<tr><td>") == len(report.metrics) and "<svg" in html


def test_a_report_made_by_hand_prints_its_numbers():
    r = SkillReport({"skill model": {"log_loss": 0.5, "brier": 0.17, "spearman": 0.9}},
                    np.zeros((0, 3)), 2, 10, 4, notes=["a note"])  # fmt: skip
    assert str(r).splitlines() == [
        "held-out first attempts: 10 by 4 players, 2-fold by player",
        f"{'model':<30}{'log-loss':>10}{'Brier':>9}{'Spearman':>10}",
        f"{'skill model':<30}{'0.5000':>10}{'0.1700':>9}{'0.900':>10}",
        "a note",
    ]
