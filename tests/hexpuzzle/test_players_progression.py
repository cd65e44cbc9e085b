"""simulate_telemetry's progression mode: levels in order, quitting after runs of failures."""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import campaign, make_players, simulate_telemetry


@pytest.fixture(scope="module")
def runs():
    levels = campaign()[8:20]
    players = make_players(40, rng=5)
    full = simulate_telemetry(levels, players, rng=9)
    prog = simulate_telemetry(levels, players, rng=9, mode="progression", quit_rate=0.5)
    return levels, players, full, prog


def test_progression_plays_the_same_games_as_all_mode(runs):
    _, _, full, prog = runs
    assert 0 < len(prog) < len(full)
    rows = set(map(tuple, full.tolist()))
    assert all(tuple(r) in rows for r in prog.tolist())


def test_players_meet_levels_in_order_and_only_quit_after_a_failure(runs):
    levels, players, _, prog = runs
    ids = [lv.id for lv in levels]
    first = prog[prog["attempt"] == 1]
    for p in players:
        mine = first[first["player"] == p.id]
        played = mine["level"].tolist()
        assert played == ids[: len(played)]  # a prefix of the campaign, in order
        if len(played) < len(ids):
            assert not mine["won"][-1]  # the last level played before quitting was failed


def test_weaker_players_quit_sooner(runs):
    levels, players, _, prog = runs
    first = prog[prog["attempt"] == 1]
    reached = np.array([(first["player"] == p.id).sum() for p in players])
    skill = np.array([p.skill for p in players])
    assert np.corrcoef(skill, reached)[0, 1] > 0.3
    assert reached.min() < len(levels) and reached.max() == len(levels)


def test_bad_mode_and_quit_rate_are_argument_errors(runs):
    levels, players, _, _ = runs
    with pytest.raises(ArgumentError, match="mode"):
        simulate_telemetry(levels[:1], players[:1], mode="campaign")
    with pytest.raises(ArgumentError, match="quit_rate"):
        simulate_telemetry(levels[:1], players[:1], mode="progression", quit_rate=-0.1)
