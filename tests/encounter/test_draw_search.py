"""Drawing the balance search: importance bars sorted by rank with the seed block in grey and
the knobs that matter in red; Sobol results with first-order bars beside; the Pareto plot of a
multi-target tune with its front and the re-played candidates. The results are hand-made
stand-ins, so every drawn number is known."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from labkit.encounter.draw_search import draw_importance, draw_pareto
from labkit.encounter.sim.targets import parse_target


def _axes():
    return Figure().add_subplot()


def _importance(method: str):
    rows = [("total", "b", 1, 0.6, 0.5, 0.7, "knob b", True),
            ("total", "a", 2, 0.2, 0.1, 0.3, "knob a", False),
            ("total", "seed block", None, 0.1, 0.05, 0.15, "seed block", False),
            ("first", "b", None, 0.5, 0.4, 0.6, "knob b", False),
            ("first", "a", None, 0.15, 0.1, 0.2, "knob a", False),
            ("first", "seed block", None, 0.05, 0.0, 0.1, "seed block", False)]  # fmt: skip
    table = pd.DataFrame(rows, columns=["index", "knob", "rank", "value", "lo", "hi", "label",
                                        "matters"])  # fmt: skip
    return SimpleNamespace(table=table, main="total", method=method, outcome="steps")


def test_importance_bars_largest_on_top_noise_grey_and_what_matters_red():
    art = draw_importance(_importance("morris"), ax=_axes(), colour="#0000ff")
    bars = art["bars"].patches
    assert [b.get_width() for b in bars] == [0.6, 0.2, 0.1]  # rank 1, rank 2, the seed block
    assert [b.get_y() + b.get_height() / 2 for b in bars] == [2.0, 1.0, 0.0]  # rank 1 on top
    assert bars[0].get_facecolor() == to_rgba("#0000ff") and bars[2].get_facecolor() == to_rgba(
        "#999"
    )
    ticks = art["ax"].get_yticklabels()
    assert [t.get_text() for t in ticks] == ["knob b", "knob a", "seed block"]  # at y 2, 1, 0
    assert [t.get_position()[1] for t in ticks] == [2.0, 1.0, 0.0]
    assert to_rgba(ticks[0].get_color()) == to_rgba("#d0021b")  # knob b matters
    assert to_rgba(ticks[1].get_color()) != to_rgba("#d0021b")
    assert art["ax"].get_title() == "what moves steps" and "first" not in art


def test_sobol_draws_first_order_bars_beside_the_total():
    art = draw_importance(_importance("sobol"), ax=_axes())
    assert [b.get_width() for b in art["first"].patches] == [0.5, 0.15, 0.05]
    total_y = [b.get_y() for b in art["bars"].patches]
    first_y = [b.get_y() for b in art["first"].patches]
    assert np.allclose(np.array(total_y) - np.array(first_y), 0.4)  # side by side
    assert "share of variance" in art["ax"].get_xlabel()


def test_the_pareto_plot_shows_trials_front_and_replayed_candidates():
    trials = pd.DataFrame({"trial": [0, 1, 2, 3], "miss:npc_win": [0.0, 0.1, 0.05, 0.2],
                           "miss:steps": [10.0, 0.0, 2.0, 8.0],
                           "front": [True, True, True, False]})  # fmt: skip
    # the choice's row (met on its own games, but chosen on them: no verdict), the confirmation
    # met, the confirmation not met
    checked = pd.DataFrame({"trial": [2, 2, 2], "miss:npc_win": [0.05, 0.0, 0.05],
                            "miss:steps": [2.0, 0.0, 2.0],
                            "stage": ["recheck", "confirm", "confirm"],
                            "met": [True, True, False]})  # fmt: skip
    tuned = SimpleNamespace(trials=trials, checked=checked,
                            targets=[parse_target("npc_win=0.5±0.02"),
                                     parse_target("steps=60:90")])  # fmt: skip
    art = draw_pareto(tuned, ax=_axes())
    assert art["trials"].get_offsets().tolist() == [[0.0, 10.0], [0.1, 0.0], [0.05, 2.0],
                                                    [0.2, 8.0]]  # fmt: skip
    # the front, joined in order of the x miss
    assert list(art["front"].get_xdata()) == [0.0, 0.05, 0.1]
    assert list(art["front"].get_ydata()) == [10.0, 2.0, 0.0]
    red, green = list(to_rgba("#d0021b")), list(to_rgba("#2ca02c"))
    assert [c.tolist() for c in art["checked"].get_edgecolors()] == [red, green, red]
    assert art["ax"].get_xlabel() == "miss: the NPC side wins 48–52 % of games"
    assert art["ax"].get_ylabel() == "miss: a game lasts 60–90 steps on average"


def test_one_target_puts_the_trial_number_on_the_x_axis():
    trials = pd.DataFrame({"trial": [0, 1], "miss:steps": [3.0, 1.0], "front": [False, True]})
    tuned = SimpleNamespace(trials=trials, checked=None, targets=[parse_target("steps>=40")])
    art = draw_pareto(tuned, ax=_axes())
    assert art["trials"].get_offsets().tolist() == [[0.0, 3.0], [1.0, 1.0]]
    assert art["ax"].get_xlabel() == "trial" and "checked" not in art


def test_a_share_of_variance_below_zero_is_drawn_as_about_zero():
    # issue 47: the seed block's first-order bar went below 0 (a share of variance cannot); its
    # estimate is noise around 0: the bar and its interval stop at 0 and the label says so
    imp = _importance("sobol")
    imp.table.loc[5, ["value", "lo", "hi"]] = [-0.04, -0.09, 0.02]
    art = draw_importance(imp, ax=_axes())
    widths = [b.get_width() for b in art["first"].patches]
    assert widths == [0.5, 0.15, 0.0]
    ends = [seg[:, 0].tolist() for seg in art["first"].errorbar.lines[2][0].get_segments()]
    assert ends[2] == [0.0, 0.02] and min(min(e) for e in ends) >= 0
    assert [t.get_text() for t in art["ax"].texts] == ["about 0"]
    labels = [t.get_text() for t in art["ax"].get_legend().get_texts()]
    assert labels == ["total share of variance", "first-order share of variance"]
    assert art["ax"].get_xlabel() == "share of variance (95 % interval)"


def test_morris_bars_are_labelled_in_words():
    imp = _importance("morris")
    imp.main = "mu_star"
    art = draw_importance(imp, ax=_axes())
    assert art["ax"].get_xlabel() == "effect (change over the knob's range; 95 % interval)"
