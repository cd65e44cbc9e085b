"""Drawing a funnel: draw_funnel makes the artists once, update_funnel moves them to a funnel
(reach in percent with its band, stop bars and their intervals, attempts per clear) and shows a
baseline only when given; plot_funnel does both on three axes. The funnels are hand-made
stand-ins, so every drawn number is known."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from matplotlib.figure import Figure

from labkit.hexpuzzle.playthrough.draw import draw_funnel, plot_funnel, update_funnel


def funnel(reach, hazard, attempts):
    """Stats rows (value, low, high) per level; the band is ±0.05 (±5 points) around reach."""

    def rows(v, half):
        v = np.asarray(v, dtype=float)
        return np.column_stack([v, v - half, v + half])

    return SimpleNamespace(level_ids=tuple(f"L{i}" for i in range(len(reach))),
                           stats={"reach": rows(reach, 0.05), "quit_hazard": rows(hazard, 0.01),
                                  "attempts_per_clear": rows(attempts, 0.5)})  # fmt: skip


def axes():
    fig = Figure()
    return [fig.add_subplot(1, 3, i) for i in (1, 2, 3)]


NOW = funnel([1.0, 0.8, 0.6], [0.2, 0.25, np.nan], [1.5, 2.0, 3.0])
BEFORE = funnel([1.0, 0.7, 0.4], [0.3, 0.4, np.nan], [1.0, 1.0, 1.0])


def test_the_artists_start_empty_on_three_titled_axes():
    art = draw_funnel(axes(), 3)
    assert art["x"].tolist() == [1, 2, 3]
    assert list(art["reach"].get_ydata()) == [0, 0, 0] and art["band"] is None
    assert not art["before"].get_visible()
    assert [a.get_title() for a in art["axes"]] == [
        "who reaches each level (95 % band)",
        "who stops there",
        "attempts per clear",
    ]


def test_update_moves_the_artists_to_the_funnel():
    art = draw_funnel(axes(), 3)
    update_funnel(art, NOW)
    assert list(art["reach"].get_ydata()) == pytest.approx([100.0, 80.0, 60.0])
    assert [r.get_height() for r in art["stop"].patches] == pytest.approx([20.0, 25.0, 0.0])
    assert [r.get_height() for r in art["tries"].patches] == pytest.approx([1.5, 2.0, 3.0])
    seg = art["stop_err"].get_segments()[1]
    assert np.allclose(seg, [[2.0, 24.0], [2.0, 26.0]])
    assert art["axes"][1].get_ylim()[1] == pytest.approx(26.0 * 1.1)  # the top interval, +10 %
    assert art["axes"][2].get_ylim()[1] == pytest.approx(3.5 * 1.1)
    band = art["band"].get_paths()[0].vertices
    assert band[:, 1].min() == pytest.approx(55.0) and band[:, 1].max() == pytest.approx(105.0)
    assert not art["before"].get_visible() and art["axes"][0].get_legend() is None


def test_a_baseline_is_drawn_beneath_and_goes_again():
    art = draw_funnel(axes(), 3)
    update_funnel(art, NOW, BEFORE)
    assert art["before"].get_visible()
    assert list(art["before"].get_ydata()) == pytest.approx([100.0, 70.0, 40.0])
    assert list(art["before_stop"].get_ydata()) == pytest.approx([30.0, 40.0, 0.0])
    assert art["axes"][1].get_ylim()[1] == pytest.approx(40.0 * 1.1)  # the baseline is higher
    assert art["axes"][0].get_legend() is not None
    update_funnel(art, NOW)
    assert not art["before"].get_visible() and art["axes"][0].get_legend() is None
    assert len(art["axes"][0].collections) == 1  # the old band was removed, not stacked


def test_plot_funnel_draws_on_given_axes_after_clearing_them():
    given = axes()
    given[0].plot([0, 1], [0, 1])
    out = plot_funnel(NOW, given)
    # "before", "now" and the check's rings, the old line gone
    assert out is given and len(given[0].lines) == 3
    assert list(given[0].lines[1].get_ydata()) == pytest.approx([100.0, 80.0, 60.0])


def test_levels_where_the_data_disagree_are_ringed_and_named_in_the_legend():
    from labkit.hexpuzzle.playthrough.model import CHECK

    check = (CHECK["fits"], CHECK["misses"], CHECK["fits"])
    checked = SimpleNamespace(**vars(NOW), check=check, widened=(False, True, False))
    art = draw_funnel(axes(), 3)
    update_funnel(art, checked)
    ring = art["missed"]
    assert ring.get_visible() and list(ring.get_xdata()) == [2]
    assert list(ring.get_ydata()) == pytest.approx([80.0])
    legend = art["axes"][0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [f"{CHECK['misses']} (at 1 level)"]
    update_funnel(art, checked, BEFORE)  # with a baseline: before, now and the rings
    texts = [t.get_text() for t in art["axes"][0].get_legend().get_texts()]
    assert texts == ["before", "now", f"{CHECK['misses']} (at 1 level)"]
    update_funnel(art, NOW)  # a funnel without a check: no rings, no legend
    assert not ring.get_visible() and art["axes"][0].get_legend() is None
