"""Paired measures (issue 28): McNemar's exact test by hand, quantiles that are played games,
lead changes and the turn a game was decided."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.sim.paired import game_measures, mcnemar_exact, paired_table
from tests.encounter.sim.test_compare import _known


def test_mcnemar_exact_against_the_binomial_by_hand():
    a = [1] * 7 + [0] * 2 + [1] * 5
    b = [0] * 7 + [1] * 2 + [1] * 5  # 7 one way, 2 the other: P(X<=2 | 9, 1/2) * 2
    assert mcnemar_exact(a, b) == pytest.approx(2 * (1 + 9 + 36) / 512)
    with pytest.raises(ArgumentError, match="detect"):
        paired_table(*_known(0, n=50), metrics=["npc_win"], detect={"share": 0})


def test_the_quantiles_are_games_that_were_played():
    a, b = _known(3, n=501)
    t = paired_table(a, b, metrics=["length_q10", "length_q50", "length_q90", "length_sd"],
                     bootstrap=200).set_index("metric")  # fmt: skip
    for q in (10, 50, 90):
        want = np.quantile(a["turns"], q / 100, method="inverted_cdf")
        assert t.loc[f"length_q{q}", "a"] == want
        assert t.loc[f"length_q{q}", "diff"] == 3.0
    assert t.loc["length_sd", "a"] == pytest.approx(np.std(a["turns"], ddof=1))


def test_lead_changes_and_decided_at_read_from_the_turns_actors_died():
    f = pd.DataFrame({
        "winner": ["npc", "npc", ""], "end_reason": ["victory", "victory", "step_limit"],
        "turns": [6, 10, 30],
        "alive_npc-0": [False, True, True], "survival_npc-0": [2, 10, 30],
        "alive_npc-1": [True, True, True], "survival_npc-1": [6, 10, 30],
        "alive_monster-0": [False, False, True], "survival_monster-0": [6, 4, 30],
    })  # fmt: skip
    m = game_measures(f)
    # game 0: an NPC dies at 2 (monster ahead), the monster at 6 (NPCs ahead): one change,
    # decided at the last turn; game 1: the monster dies first, at 4 of 10; game 2: no winner
    assert m["lead_changes"].tolist() == [1, 0, 0]
    assert m["decided_at"][:2].tolist() == [1.0, 0.4] and math.isnan(m["decided_at"][2])
    assert m["npcs_alive"].tolist() == [0.5, 1.0, 1.0] and m["step_limit"].tolist() == [0, 0, 1]
