"""DifficultyWorkbench's "skill model" mode, without a browser."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.fit import example_difficulties
from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill


@pytest.fixture(scope="module")
def bench():
    from labkit.widgets import DifficultyWorkbench

    levels = example_difficulties(12, rng=3)
    beta = np.linspace(-2, 2, 12)
    theta = np.random.default_rng(0).normal(0, 1, 300)
    tele = telemetry_from_skill(levels, beta, theta, rng=1, quit_rate=0.1)
    return DifficultyWorkbench(levels, tele, n_boot=10), beta


def test_skill_mode_fits_and_draws_the_model(bench):
    wb, beta = bench
    assert wb.skill is None and wb.ui.children[1] is wb.index_view
    wb.mode.value = "skill model"
    panel = wb.skill
    assert wb.ui.children[1] is panel.ui
    model = panel.model
    assert np.corrcoef(model.difficulty, beta)[0, 1] > 0.9
    # the difficulty panel: one interval line and one point per level, at the fitted values
    points = panel.ax_beta.collections[-1].get_offsets()
    np.testing.assert_allclose(points[:, 1], model.difficulty)
    assert sum(p.get_height() for p in panel.ax_theta.patches) == len(model.player_ids)
    assert "calibrated index" in panel.summary.value and "<table" in panel.table.value
    assert [r["level"] for r in panel.rows()] == list(model.level_ids)
    wb.mode.value = "index calibration"
    assert wb.ui.children[1] is wb.index_view
    wb.mode.value = "skill model"
    assert wb.skill is panel  # fitted once
