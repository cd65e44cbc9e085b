"""Drawing a balance comparison: the forest plot puts each metric's B − A (in percentage points
for shares) with its interval on its own row, first metric on top; the survival bands draw both
versions' step lines. Tables are hand-made, so every drawn number is known."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from labkit.encounter.draw_compare import draw_forest, draw_survival_bands


def _axes():
    return Figure().add_subplot()


TABLE = pd.DataFrame({
    "unit": ["share", "share", "turns"],
    "label": ["NPC win rate", "step limit rate", "game length"],
    "diff": [0.10, -0.02, 3.0], "diff_lo": [0.05, -0.04, 1.0], "diff_hi": [0.15, 0.0, 5.0],
})  # fmt: skip


def test_the_forest_plots_shares_in_points_first_metric_on_top():
    art = draw_forest(TABLE, ax=_axes())
    ax = art["ax"]
    line = art["points"].lines[0]
    # rows bottom to top: step limit rate (y=0), NPC win rate (y=1)
    assert np.allclose(line.get_xdata(), [-2.0, 10.0]) and np.allclose(line.get_ydata(), [0, 1])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["step limit rate", "NPC win rate"]
    assert ax.get_xlabel() == "B − A (percentage points)"
    assert list(art["zero"].get_xdata()) == [0.0, 0.0]


def test_a_unit_other_than_share_is_drawn_in_its_own_unit():
    art = draw_forest(TABLE, unit="turns", ax=_axes(), colour="#123456")
    assert np.allclose(art["points"].lines[0].get_xdata(), [3.0])
    assert art["ax"].get_xlabel() == "B − A (turns)"
    assert art["points"].lines[0].get_color() == "#123456"


def test_survival_bands_draw_both_versions_as_steps():
    bands = pd.DataFrame({"version": ["A", "A", "B", "B"], "turn": [0, 5, 0, 5],
                          "alive": [1, 0.5, 1, 0.7], "lo": [1, 0.4, 1, 0.6],
                          "hi": [1, 0.6, 1, 0.8]})  # fmt: skip
    art = draw_survival_bands(bands, ax=_axes(), colours=("#000000", "#ffffff"))
    assert list(art["A"].get_ydata()) == [1, 0.5] and list(art["B"].get_ydata()) == [1, 0.7]
    assert art["A"].get_drawstyle() == "steps-post"
    assert (art["A"].get_color(), art["B"].get_color()) == ("#000000", "#ffffff")
    assert art["ax"].get_ylim() == (-0.02, 1.02)
    assert [t.get_text() for t in art["ax"].get_legend().get_texts()] == ["version A",
                                                                           "version B"]  # fmt: skip
