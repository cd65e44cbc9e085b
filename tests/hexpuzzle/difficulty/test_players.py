"""Simulated players: reproducible, replayable through the real game, skill matters."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.observed import observed_index
from labkit.hexpuzzle.difficulty.players import (
    Player,
    make_players,
    play,
    simulate_telemetry,
    telemetry_from_weights,
)
from labkit.hexpuzzle.difficulty.telemetry import COLUMNS
from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.shipped_campaign import campaign
from labkit.hexpuzzle.solving.hints import hint


@pytest.fixture(scope="module")
def levels():
    main = campaign()
    return [main[i] for i in (0, 5, 11, 17, 23)]


def replay(level, game):
    """Play a recorded attempt through PuzzleState; return (state, collisions, hints_agree)."""
    state = PuzzleState(level)
    collisions, agree = 0, True
    actions = list(game.actions)
    for k, (kind, arg) in enumerate(actions):
        if kind == "tap":
            collisions += state.tap(arg).outcome != "exit"
        elif kind == "rotate":
            state.rotate(arg)
        elif kind == "undo":
            state.undo()
        elif kind == "hint":
            advice = hint(state)
            agree &= tuple(advice) == tuple(actions[k + 1])
    return state, collisions, agree


def test_recorded_games_replay_through_the_real_game(levels):
    checked = 0
    for level in levels:
        for skill in (0.05, 0.5, 0.95):
            for game in play(level, Player("x", skill), rng=int(skill * 100) + len(level.tiles)):
                state, collisions, agree = replay(level, game)
                assert collisions == game.collisions
                assert (state.status == "won") == game.won
                assert state.rotations >= 0 and agree
                kinds = [a[0] for a in game.actions]
                assert kinds.count("rotate") == game.rotations
                assert kinds.count("undo") == game.undos and kinds.count("hint") == game.hints
                checked += 1
    assert checked >= 15


def test_same_seed_same_telemetry_and_streams_are_per_game(levels):
    players = make_players(6, rng=1)
    a = simulate_telemetry(levels[:2], players, rng=7)
    b = simulate_telemetry(levels[:2], players, rng=7)
    assert a.tolist() == b.tolist() and a.dtype.names == tuple(COLUMNS)
    more = simulate_telemetry(levels[:2], players + make_players(2, rng=9, prefix="q"), rng=7)
    assert [r for r in more.tolist() if r[1].startswith("p")] == a.tolist()
    assert simulate_telemetry(levels[:2], players, rng=8).tolist() != a.tolist()


def test_rows_are_consistent_attempt_sequences(levels):
    table = simulate_telemetry(levels, 20, rng=3)
    for level in {r[0] for r in table.tolist()}:
        for player in set(table["player"].tolist()):
            rows = table[(table["level"] == level) & (table["player"] == player)]
            assert rows["attempt"].tolist() == list(range(1, len(rows) + 1))
            assert not rows["won"][:-1].any()  # only the last attempt can be won
            assert len(rows) == 3 or rows["won"][-1]


def test_skill_lowers_observed_difficulty(levels):
    novices = simulate_telemetry(levels, make_players(40, rng=1, skill=0.1, prefix="n"), rng=2)
    experts = simulate_telemetry(levels, make_players(40, rng=1, skill=0.9, prefix="e"), rng=2)
    easy = observed_index(experts, levels)
    hard = observed_index(novices, levels)
    assert (easy.index < hard.index).all()
    assert easy.first_try.mean() > hard.first_try.mean() + 0.15
    assert experts["collisions"].mean() < novices["collisions"].mean()


def test_less_slack_means_more_failures(levels):
    level = levels[3]
    tight = level.replace(move_limit=len(level.tiles), id="tight")
    loose = level.replace(move_limit=len(level.tiles) + 8, id="loose")
    players = make_players(80, rng=4, skill=(0.0, 0.6))
    t = simulate_telemetry([tight, loose], players, rng=5)
    obs = observed_index(t, [tight, loose])
    assert obs.first_try[0] < obs.first_try[1]


def test_player_and_input_validation(levels):
    with pytest.raises(ValueError, match="skill"):
        Player("z", 1.5)
    with pytest.raises(ValueError, match="unique"):
        simulate_telemetry([levels[0], levels[0]], 2, rng=0)
    with pytest.raises(ValueError, match="no tiles"):
        play(levels[0].replace(tiles=()), Player("z", 0.5), rng=0)
    assert [p.lookahead for p in (Player("a", 0), Player("b", 0.5), Player("c", 1))] == [1, 2, 3]


def test_weights_telemetry_has_the_promised_expected_index(levels):
    weights = {"rotation": 40, "layers": 30}
    table = telemetry_from_weights(levels, weights, players=4000, rng=11)
    obs = observed_index(table, levels)
    from labkit.hexpuzzle.difficulty.fit import strengths
    from labkit.hexpuzzle.difficulty.scoring import PARTS, score

    w = np.array([weights.get(p, 0) for p in PARTS])
    expected = np.array([strengths(score(lv)) @ w for lv in levels])
    assert np.allclose(obs.index, expected, atol=1.5)
    with pytest.raises(ValueError, match="unknown parts"):
        telemetry_from_weights(levels, {"speed": 3}, 2)
