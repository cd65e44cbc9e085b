"""A designer's game: knobs, outcomes and the checks on a play function's results (issue 48).

Every bad input is one line naming the game, the knob or outcome and the value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.lab import Game, Knob, Outcome, PlayError
from labkit.lab.examples import KNOBS, OUTCOMES, dice_duel, play_duel

P = {"hp": np.array([3, 5]), "damage": np.array([1, 2])}


def _game(play, outcomes=None, **kw):
    return Game.from_function("duel", play, knobs={"hp": (1, 20), "damage": (1, 5)},
                              outcomes=outcomes or {"win": "rate"}, **kw)  # fmt: skip


def _one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text
    return text


@pytest.mark.parametrize(
    ("knobs", "outcomes", "said"),
    [
        ({"hp": (1, 9)}, {"hp": "rate"}, "outcome 'hp' clashes with the knob"),
        ({"seed": (1, 9)}, {"win": "rate"}, "knob 'seed' clashes with a study column"),
        ({"hp": (9, 1)}, {"win": "rate"}, "knob hp's low is above its high"),
        ({"hp": (1, math.inf)}, {"win": "rate"}, "range must be finite"),
        ({"hp": (1, 9)}, {"win": "median"}, "outcome win must be a 'rate' or a 'mean'"),
        ({" ": (1, 9)}, {"win": "rate"}, "a knob name must be printable text"),
        ({"hp": (1, 9)}, {"win\n": "rate"}, "an outcome name must be printable text"),
    ],
)
def test_a_bad_knob_or_outcome_is_one_line_naming_the_game(knobs, outcomes, said):
    def play(hp=1, seed=0, **kw):
        return 0.0

    with pytest.raises(ArgumentError) as err:
        Game.from_function("duel", play, knobs=knobs, outcomes=outcomes)
    assert said in _one_line(err.value) and "game 'duel'" in str(err.value)


def test_a_knob_outside_its_range_names_game_knob_and_value():
    g = _game(lambda hp, damage, seed: 0.0)
    with pytest.raises(ArgumentError, match=r"grid\['hp'\]: game 'duel': knob hp must be "
                       r"between 1 and 20 \(got 21\)"):  # fmt: skip
        g.point({"hp": 21, "damage": 1})
    with pytest.raises(ArgumentError, match="knob damage takes whole numbers"):
        g.point({"hp": 2, "damage": 1.5})
    with pytest.raises(ArgumentError, match="has no knob 'armour'"):
        g.point({"armour": 2})


def test_a_play_function_missing_a_knob_parameter_is_refused():
    with pytest.raises(ArgumentError, match="play has no parameter 'damage'"):
        _game(lambda hp, seed: 0.0)


def test_parameter_defaults_become_knob_defaults():
    g = _game(lambda hp, damage=2, seed=0: 0.0)
    assert g.knob("damage").default == 2 and g.point({"hp": 4}) == {"hp": 4, "damage": 2}
    with pytest.raises(ArgumentError, match="knob hp has no default"):
        g.point({"damage": 1})


def test_a_raise_inside_play_names_game_knob_values_and_seed():
    def play(hp, damage, seed):
        if seed == 2 and hp == 5:
            raise ZeroDivisionError("division by zero")
        return 0.0

    with pytest.raises(PlayError) as err:
        _game(play).play_block(P, np.arange(4))
    assert _one_line(err.value) == ("game 'duel': play raised ZeroDivisionError: division by "
                                    "zero at hp=5, damage=2, seed=2")  # fmt: skip


@pytest.mark.parametrize(
    ("ret", "said"),
    [
        ("win", "play returned a str, not a number or a mapping of outcomes, at hp=3"),
        ({"win": 1.0, "loss": 0.0}, "play returned an unknown outcome 'loss' at hp=3"),
        ({"loss": 1.0}, "play returned no outcome 'win' at hp=3"),
        (math.nan, "outcome 'win' = nan (not a number) at hp=3, damage=1, seed=0"),
        (0.5, "outcome 'win' = 0.5 (a rate must be 0 or 1) at hp=3, damage=1, seed=0"),
        ((1.0, 0.0), "play returned 2 values for 1 outcomes at hp=3"),
        ({"win": "yes"}, "outcome 'win' is a str, not a number, at hp=3"),
    ],
)
def test_a_wrong_result_is_one_line_naming_game_outcome_and_value(ret, said):
    with pytest.raises(PlayError) as err:
        _game(lambda hp, damage, seed: ret).play_block(P, np.arange(3))
    assert said in _one_line(err.value) and str(err.value).startswith("game 'duel': ")


@pytest.mark.parametrize(
    ("ret", "said"),
    [
        (lambda n_p, n_s: {"win": np.zeros((n_s, n_p))}, "has shape (3, 2), not (points, seeds)"),
        (lambda n_p, n_s: [np.zeros((n_p, n_s))], "returned a list, not a dict of outcomes"),
        (lambda n_p, n_s: {"win": np.full((n_p, n_s), "x")}, "holds <U1 values, not numbers"),
        (lambda n_p, n_s: {"win": np.full((n_p, n_s), 2.0)}, "= 2.0 (a rate must be 0 or 1)"),
    ],
)
def test_a_vectorised_play_with_the_wrong_shape_or_type_is_refused(ret, said):
    def play(points, seeds):
        return ret(len(points["hp"]), len(seeds))

    with pytest.raises(PlayError, match="game 'duel': ") as err:
        _game(play, vectorised=True).play_block(P, np.arange(3))
    assert said in _one_line(err.value)


def test_a_mean_outcome_takes_any_finite_number_and_a_mapping():
    turns = Outcome("turns", "mean", unit="turns")
    g = _game(lambda hp, damage, seed: {"win": 1.0, "turns": hp * 1.5 + seed},
              outcomes={"win": "rate", "turns": turns})  # fmt: skip
    got = g.play_block(P, np.arange(2))
    assert got["turns"].tolist() == [[4.5, 5.5], [7.5, 8.5]] and got["win"].all()


def test_the_numba_path_plays_the_python_path_s_games():
    seeds = np.arange(500)
    points = {"hp": np.array([1, 7, 20]), "damage": np.array([1, 3, 2])}
    fast = dice_duel(jit=True).play_block(points, seeds)["attacker_win"]
    slow = dice_duel().play_block(points, seeds)["attacker_win"]
    by_hand = [[play_duel(int(h), int(d), int(s)) for s in seeds]
               for h, d in zip(points["hp"], points["damage"])]  # fmt: skip
    assert (fast == slow).all() and (slow == np.array(by_hand)).all()
    assert 0.2 < slow.mean() < 0.9  # a duel, not a constant


def test_a_raise_inside_a_numba_play_names_the_game_that_raised():
    import numba

    @numba.njit
    def play(hp, damage, seed):
        if seed == 3 and hp == 5:
            raise ValueError("bad roll")
        return 1.0

    with pytest.raises(PlayError) as err:
        _game(play).play_block(P, np.arange(5))
    assert _one_line(err.value) == ("game 'duel': play raised ValueError: bad roll at hp=5, "
                                    "damage=2, seed=3")  # fmt: skip


def test_a_numba_play_with_two_outcomes_returns_a_tuple():
    import numba

    @numba.njit
    def play(hp, damage, seed):
        return 1.0, float(hp + seed)

    g = _game(play, outcomes={"win": "rate", "mean_hp": "mean"})
    assert g.play_block(P, np.arange(2))["mean_hp"].tolist() == [[3.0, 4.0], [5.0, 6.0]]


def test_knobs_take_knob_objects_and_dicts():
    g = Game.from_function("dice duel", play_duel, knobs=KNOBS, outcomes=OUTCOMES)
    assert g.knob("hp") == Knob("hp", 1, 50, True, "hit points", "hp")
    assert g.code and g.code == dice_duel().code


def test_a_vectorised_game_may_name_its_knobs_by_json_pointer():
    def play(points, seeds):
        life = points["/characters/monster/life"]
        return {"npc_win": (life[:, None] + seeds[None, :]) % 2 == 0}

    g = Game.from_function("rooms", play, knobs={"/characters/monster/life": (1, 9)},
                           outcomes={"npc_win": "rate"}, vectorised=True)  # fmt: skip
    got = g.play_block({"/characters/monster/life": np.array([2, 3])}, np.arange(3))
    assert got["npc_win"].tolist() == [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
