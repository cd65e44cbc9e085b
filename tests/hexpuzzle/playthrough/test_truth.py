"""A known world as a skill model (``TrueModel``, ``TrueQuitModel``): the success and stop chances
written out from their logistic formulas, parameter draws, refusals, and telemetry whose
first-try win rate is the closed-form chance. Expected values are computed here by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough.truth import TrueModel, TrueQuitModel


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def test_success_is_the_logistic_of_ability_minus_difficulty_plus_learning():
    m = TrueModel([0.5, -1.0, 2.0], learning=0.4)
    assert m.level_ids == ("L01", "L02", "L03")
    assert m.difficulty_of("L03") == 2.0
    assert float(m.success("L01", 1.5)) == pytest.approx(sigmoid(1.0))
    assert float(m.success("L02", 0.0, attempt=3)) == pytest.approx(sigmoid(1.0 + 0.8))
    # learning stops growing after the sixth attempt
    assert float(m.success("L03", 0.0, attempt=9)) == pytest.approx(sigmoid(-2.0 + 5 * 0.4))
    np.testing.assert_allclose(m.success("L01", np.array([0.0, 0.5])), [sigmoid(-0.5), 0.5])


def test_an_unknown_level_is_refused_naming_it():
    with pytest.raises(ArgumentError) as err:
        TrueModel([0.0]).difficulty_of("L07")
    assert err.value.argument == "level" and "L07" in str(err.value)


def test_the_stop_chance_is_the_logistic_of_its_terms():
    coef = {"baseline": -2.0, "ability": -0.5, "won": -1.0, "run": 0.3, "attempts": 0.2,
            "position": 0.4}  # fmt: skip
    q = TrueQuitModel(coef)
    got = float(q.p_quit(1.0, position=5, won=False, attempt=3, run=2))
    assert got == pytest.approx(sigmoid(-2.0 - 0.5 + 0.3 * 2 + 0.2 * 2 + 0.4 * 5 / 10))
    won = float(q.p_quit(0.0, position=0, won=True, attempt=1))  # run 0 after a first-try win
    assert won == pytest.approx(sigmoid(-3.0))
    lost = float(q.p_quit(0.0, position=0, won=False, attempt=1))  # run defaults to 1
    assert lost == pytest.approx(sigmoid(-2.0 + 0.3))
    assert q.coefficients["ability"] == -0.5 and list(q.vector)[:2] == [-2.0, -0.5]


def test_a_world_without_quitting_has_no_quit_model():
    assert TrueModel([0.0, 1.0]).quit_model is None
    assert TrueModel([0.0], quit={"baseline": -1.0}).quit_model is not None


def test_parameter_draws_jitter_only_the_difficulties():
    m = TrueModel([0.0, 2.0], ability_sd=0.7, learning=0.3, difficulty_sd=0.5,
                  quit={"baseline": -1.5})  # fmt: skip
    d = m.parameter_draws(20_000, rng=3)
    assert d["difficulty"].shape == (20_000, 2)
    assert d["difficulty"].mean(axis=0) == pytest.approx([0.0, 2.0], abs=0.02)
    assert d["difficulty"].std(axis=0) == pytest.approx([0.5, 0.5], rel=0.03)
    assert set(d["ability_sd"].tolist()) == {0.7} and set(d["learning"].tolist()) == {0.3}
    assert d["quit"].shape == (20_000, 6) and set(d["quit"][:, 0].tolist()) == {-1.5}
    assert TrueModel([1.0]).parameter_draws(3, rng=0)["quit"] is None


def test_telemetry_first_tries_win_at_the_closed_form_rate():
    # ability sd 0: every player has ability 0, so a first try at β wins with σ(-β)
    m = TrueModel([-1.0, 1.0], ability_sd=0.0, max_attempts=2)
    rows = m.telemetry(4000, rng=1)
    for lid, beta in (("L01", -1.0), ("L02", 1.0)):
        first = rows[(rows["level"] == lid) & (rows["attempt"] == 1)]
        assert len(first) == 4000  # no quitting: everyone reaches every level
        assert first["won"].mean() == pytest.approx(sigmoid(-beta), abs=0.025)
    assert rows["attempt"].max() == 2 and set(rows["player"][:1].tolist()) == {"t00000"}
    second = rows[rows["attempt"] == 2]
    assert not second["first_try"].any()


def test_the_unknown_level_message_names_argument_and_value():
    with pytest.raises(ArgumentError) as err:
        TrueModel([0.0]).difficulty_of(7)  # not a string and no ``id``: the value itself
    assert str(err.value) == "level: no such level in the world (got 7)"


def test_a_level_object_is_looked_up_by_its_id():
    class Level:
        id = "L02"

    m = TrueModel([0.5, -1.0])
    assert m.difficulty_of(Level()) == -1.0
    assert m.difficulty_of("L02") == -1.0


def test_success_defaults_to_ability_zero_first_attempt():
    m = TrueModel([1.0], learning=2.0)
    assert float(m.success("L01")) == pytest.approx(sigmoid(-1.0))
    # learning counts up to the sixth attempt: the seventh is no easier
    assert float(m.success("L01", 0.0, attempt=7)) == pytest.approx(sigmoid(-1.0 + 5 * 2.0))


def test_max_attempts_is_the_worlds():
    assert TrueModel([0.0], max_attempts=2).max_attempts == 2


def test_parameter_draws_add_normal_jitter_from_the_given_generator():
    from labkit.rng import make_rng

    m = TrueModel([0.0, 2.0], difficulty_sd=0.5)
    d = m.parameter_draws(4, rng=11)
    z = make_rng(11).standard_normal((4, 2))
    np.testing.assert_allclose(d["difficulty"], np.array([0.0, 2.0]) + 0.5 * z)


def test_telemetry_replays_from_its_seed():
    m = TrueModel([0.0, 0.5], quit={"baseline": -1.0})
    a, b = m.telemetry(30, rng=5), m.telemetry(30, rng=5)
    assert a.tobytes() == b.tobytes()


def test_telemetry_one_attempt_follows_the_drawn_ability():
    # one player, one level, one attempt: ability mean + sd * z (z the first normal), then a
    # uniform u: the attempt is won when u < σ(ability - β)
    from labkit.rng import make_rng

    m = TrueModel([0.0], ability_mean=0.5, ability_sd=3.0, max_attempts=1)
    for seed in range(20):
        gen = make_rng(seed)
        z = gen.standard_normal(1)[0]
        u = gen.random()
        rows = m.telemetry(1, rng=seed)
        assert rows["won"].tolist() == [bool(u < sigmoid(0.5 + 3.0 * z))]


def test_telemetry_rows_have_zero_counts_and_seconds():
    rows = TrueModel([0.0, 1.0], max_attempts=3).telemetry(200, rng=2)
    for col in ("collisions", "hints", "rotations", "undos", "seconds"):
        assert (rows[col] == 0).all(), col


def test_telemetry_retries_learn():
    # ability 0, β 2, learning 3: a second try wins with σ(-2 + 3) (first try σ(-2))
    m = TrueModel([2.0], ability_sd=0.0, learning=3.0, max_attempts=2)
    rows = m.telemetry(4000, rng=4)
    second = rows[rows["attempt"] == 2]
    n = len(second)  # about 4000 * (1 - σ(-2)) = 3523
    assert second["won"].mean() == pytest.approx(sigmoid(1.0), abs=4 * 0.5 / math.sqrt(n))


def test_telemetry_without_moving_on_stops_at_a_lost_level_only():
    # every level always won: everyone reaches the last level
    easy = TrueModel([-50.0, -50.0, -50.0], moves_on=False).telemetry(50, rng=0)
    assert (easy["level"] == "L03").sum() == 50
    # first level always lost: nobody goes on
    hard = TrueModel([50.0, -50.0], moves_on=False, max_attempts=2).telemetry(50, rng=0)
    assert set(hard["level"].tolist()) == {"L01"} and len(hard) == 100


def test_telemetry_the_run_after_a_first_lost_level_is_one():
    # L01 always lost: the stop chance after it is σ(-3 + 3 * run) with run 1, i.e. 1/2
    m = TrueModel([50.0, 0.0], ability_sd=0.0, max_attempts=1, quit={"baseline": -3.0, "run": 3.0})
    rows = m.telemetry(2000, rng=6)
    reach = (rows["level"] == "L02").sum() / 2000
    assert reach == pytest.approx(0.5, abs=4 * 0.5 / math.sqrt(2000))
