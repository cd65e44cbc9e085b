"""Pictures of a generator's evaluation: the expressive range counts each level once in its cell
(one bin per whole value when they fit, otherwise at most ``bins``), and the control map is
the mean of a column per asked-for cell, blank where nothing was asked, written in percent.
Tables are hand-made, so every count and share is known."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from labkit.hexpuzzle.evaluation.draw_evaluation import draw_control_map, draw_expressive_range


def _axes():
    return Figure().add_subplot()


TABLE = pd.DataFrame({
    "score": [30, 31, 31, 33, None], "tiles": [5, 5, 5, 7, 6],
    "score_target": [30, 30, 50, 50, 50], "rotations_target": [1, 1, 1, 2, None],
    "within": [True, False, True, True, False], "closed": [1.0, 0.5, 0.25, 0.75, 0.0],
})  # fmt: skip


def test_the_expressive_range_counts_each_level_in_its_whole_value_cell():
    art = draw_expressive_range(TABLE, ax=_axes())
    counts = art["counts"]  # rows: tiles 5, 6, 7; columns: scores 30 .. 33
    assert counts.shape == (3, 4)
    assert counts.tolist() == [[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]  # a level without
    assert art["colorbar"].ax.get_ylabel() == "share of levels"  # a score is left out
    ax = art["mesh"].axes
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("score (0-100)", "tiles")
    assert ax.get_title() == "expressive range: 4 levels"
    # shares: 1/4, 2/4, 1/4; empty cells masked
    shown = art["mesh"].get_array()
    assert sorted(shown.compressed().tolist()) == [0.25, 0.25, 0.5]


def test_wide_measures_get_at_most_bins_bins():
    t = pd.DataFrame({"score": np.arange(0, 100, 5), "tiles": np.arange(20) % 3 + 4})
    art = draw_expressive_range(SimpleNamespace(table=t), ax=_axes(), bins=4)
    assert art["counts"].shape == (3, 4)  # tiles 4-6 one bin each; scores in four bins
    assert art["counts"].sum(axis=0).tolist() == [5, 5, 5, 5]


def test_the_control_map_is_the_mean_per_asked_for_cell():
    art = draw_control_map(TABLE, ax=_axes())
    assert art["scores"] == [30, 50] and art["controls"] == [1.0, 2.0]
    v = art["values"]
    assert v[0, 0] == 0.5 and v[0, 1] == 1.0 and np.isnan(v[1, 0]) and v[1, 1] == 1.0
    ax = art["image"].axes
    assert sorted(t.get_text() for t in ax.texts) == ["100 %", "100 %", "50 %"]
    assert ax.get_ylabel() == "rotations asked for" and ax.get_title() == (
        "share within ±2 (control met)"
    )


def test_another_column_and_control():
    art = draw_control_map(TABLE, ax=_axes(), control="rotations", value="closed")
    assert art["values"][0].tolist() == [0.75, 0.25]  # (1.0 + 0.5) / 2 and 0.25
    assert art["image"].axes.get_title() == "share of the distance closed"
