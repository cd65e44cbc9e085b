"""DifficultyWorkbench through its Python-side logic (no browser)."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.fit import example_difficulties
from labkit.hexpuzzle.difficulty.players import telemetry_from_weights

TRUTH = {"size": 5.0, "turns": 10.0, "layers": 30.0, "blocking": 0.0, "rotation": 35.0,
         "pressure": 5.0}  # fmt: skip


@pytest.fixture(scope="module")
def data():
    """Levels and telemetry: read-only inputs, shared by the module."""
    levels = example_difficulties(14, rng=3)
    return levels, telemetry_from_weights(levels, TRUTH, players=120, rng=4)


@pytest.fixture
def bench(data):
    """A fresh workbench per test: tests move its sliders, and no test may see another's."""
    from labkit.widgets import DifficultyWorkbench

    return DifficultyWorkbench(*data, n_boot=30)


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


def test_scatter_numbers_the_levels_and_keys_the_bands(bench):
    pred, y = bench.predicted(), bench.target()
    label = bench.level_labels[3]
    assert label.get_text() == "4" and label.get_visible()
    assert label.get_position() == pytest.approx((pred[3] + 1.2, y[3] + 1.2))
    texts = [t.get_text() for t in bench.ax.get_legend().get_texts()]
    lo, mid, hi = (f"{e:.0f}" for e in bench.edges)
    assert texts[:4] == [f"easy (0–{lo})", f"intermediate ({lo}–{mid})", f"hard ({mid}–{hi})",
                         f"challenge ({hi}–100)"]  # fmt: skip


def test_warns_when_a_band_is_empty_or_the_weights_rank_worse():
    from labkit.widgets import DifficultyWorkbench

    levels = example_difficulties(14, rng=3)
    tele = telemetry_from_weights(levels, TRUTH, players=120, rng=4)
    b = DifficultyWorkbench(levels, tele, n_boot=10)
    assert not any("rank" in w for w in b.warnings())  # the shipped weights are the reference
    top = max(s for s in b.scores() if s is not None)
    b.set_weights(b.weights, edges=(top + 1, top + 2, top + 3))  # every level below them
    assert [w.split("</b>")[0] for w in b.warnings()] == [
        "band <b>intermediate",
        "band <b>hard",
        "band <b>challenge",
    ]
    assert "⚠ band <b>hard</b> is empty" in b.stats.value
    ranks = {p: 0.0 for p in b.weights}
    ranks["pressure"] = 60.0  # score by one weak part: a worse ordering than the shipped score
    b.set_weights(ranks, edges=(25, 38, 51))
    rho = b.fit_stats()[1]
    assert rho < b.baseline_rho()
    assert any(f"Spearman ρ {rho:.3f}" in w for w in b.warnings())


def test_calibrated_weights_survive_the_browser_rounding_the_sliders(bench):
    cal = bench.run_calibration()
    r2, rho = bench.fit_stats()
    # The front end snaps each slider to its step and writes that back.
    for s in [*bench.weight_sliders.values(), bench.baseline, *bench.edge_sliders]:
        s.value = round(s.value / s.step) * s.step + 4e-16
    assert bench.fit_stats() == (r2, rho)
    assert bench.weights == pytest.approx(cal.weights)
    slider = bench.weight_sliders["size"]
    slider.value = slider.value + 3.0000000000000004  # a real move counts as shown
    assert bench.weights["size"] == round(slider.value * 2) / 2
