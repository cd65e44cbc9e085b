"""DifficultyWorkbench through its Python-side logic (no browser)."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.fit import example_difficulties
from labkit.hexpuzzle.difficulty.players import telemetry_from_weights

pytest.importorskip("ipywidgets")

TRUTH = {"size": 5.0, "turns": 10.0, "layers": 30.0, "blocking": 0.0, "rotation": 35.0,
         "pressure": 5.0}  # fmt: skip


@pytest.fixture(scope="module")
def bench():
    from labkit.widgets import DifficultyWorkbench

    levels = example_difficulties(14, rng=3)
    tele = telemetry_from_weights(levels, TRUTH, players=120, rng=4)
    return DifficultyWorkbench(levels, tele, n_boot=30)


def test_sliders_rescore_and_rerank_live(bench):
    before = bench.scores()
    table, offsets = bench.table.value, bench.points.get_offsets().copy()
    bench.weight_sliders["rotation"].value = 0.0
    after = bench.scores()
    assert after != before and bench.table.value != table
    assert not np.allclose(bench.points.get_offsets(), offsets)
    x = bench.x[:, list(bench.weights).index("rotation")]
    assert all(b - a == pytest.approx(20 * s, abs=1) for a, b, s in zip(after, before, x))
    ranks = [r["score"] for r in bench.ranking()]
    assert ranks == sorted(ranks)


def test_edges_move_bands(bench):
    bench.edge_sliders[0].value = 1
    assert bench.ranking()[0]["band"] != "easy" or bench.ranking()[0]["score"] < 1
    bench.edge_sliders[0].value = 30
    assert bench.edge_lines[0].get_xdata()[0] == 30


def test_calibrate_button_moves_sliders_to_the_fit(bench):
    r2_before, _ = bench.fit_stats()
    bench.button.click()
    cal = bench.calibration
    assert cal is not None and "R²" in bench.report.value
    for part, slider in bench.weight_sliders.items():
        assert slider.value == pytest.approx(cal.weights[part])
    assert bench.baseline.value == pytest.approx(cal.intercept)
    r2, rho = bench.fit_stats()
    assert r2 == pytest.approx(cal.r2) and r2 >= r2_before and rho > 0.9
    assert f"R² = {r2:.3f}" in bench.info.get_text()


def test_without_telemetry_compares_with_the_original_score():
    from labkit.widgets import DifficultyWorkbench

    wb = DifficultyWorkbench(example_difficulties(5, rng=1))
    assert wb.button.disabled and wb.observed is None
    r2, rho = wb.fit_stats()
    assert r2 == pytest.approx(1.0, abs=0.01) and rho == pytest.approx(1.0)
    assert wb.run_calibration() is None and "no telemetry" in wb.report.value
