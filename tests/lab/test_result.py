"""A study's result: Wilson intervals against known values, the words, the plot, the view."""

from __future__ import annotations

import numpy as np

from labkit.lab import sweep
from labkit.lab.examples import dice_duel
from labkit.lab.result import wilson


def test_wilson_matches_the_textbook_values():
    # Newcombe (1998), 81 of 263: 0.2553-0.3662; 0 of 10 starts at 0
    assert wilson(81, 263) == (0.2553, 0.3662)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_summary_estimates_plot_and_view_speak_the_designer_s_words():
    res = sweep(dice_duel(), {"hp": [1, 20], "damage": [1, 10]}, range(50))
    est = res.estimates()
    assert len(est) == 4 and set(est["outcome"]) == {"attacker_win"}
    mine = res.table[(res.table["hp"] == 20) & (res.table["damage"] == 1)]["attacker_win"].mean()
    assert est.loc[(est["hp"] == 20) & (est["damage"] == 1), "estimate"].item() == mine
    text = res.summary()
    assert text.splitlines()[0].startswith("dice duel: sweep of 4 points x 50 seeds = 200 games")
    assert "At hit points 1 hp, damage per hit 1 hp: attacker win rate" in text
    ax = res.plot()
    assert ax.get_xlabel() == "hit points (hp)" and len(ax.lines) >= 2
    assert "<table>" in res._repr_html_() and np.isfinite(est["lo"]).all()
