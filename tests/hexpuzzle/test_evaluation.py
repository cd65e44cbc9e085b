"""Generator evaluation (issue 27): constraints, the two distances, diversity, the evaluation
pipeline on known-truth generators, the baselines' budget, and the CLI."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    Level,
    campaign,
    campaign_from_curve,
    evaluate_generator,
    generate_to_target,
    score,
)
from labkit.hexpuzzle.cli.solver import register_solver_commands
from labkit.hexpuzzle.evaluation.baselines import BASELINES, gated_fitness
from labkit.hexpuzzle.evaluation.measures import (
    distances,
    diversity,
    layout_distance,
    solution_distance,
    solution_string,
    turn_picture,
)
from labkit.hexpuzzle.solving.constraints import constraints, score_bounds
from labkit.hexpuzzle.solving.solver import solver_calls
from labkit.rng import make_rng
from tests.hexpuzzle.solving.test_curve import turned_picture

#: A hand-made radius-2 level: straight tracks, three tiles, one blocking another.
TRACKS = (3, 4, 5, 0, 1, 2)  # every port to its opposite


def _level(dirs=(0, 3, 1)) -> Level:
    tiles = [("a", 0, 0, dirs[0]), ("b", 1, 0, dirs[1]), ("c", -1, 1, dirs[2])]
    return Level.hexagon(2, tracks=TRACKS, tiles=tiles, move_limit=5)


# --- the measures on hand-made pairs -----------------------------------------------------
def test_identical_levels_are_at_distance_zero_by_both_measures():
    a, b = _level(), _level()
    assert layout_distance(a, b) == 0.0
    assert solution_distance(solution_string(a), solution_string(b)) == 0.0


def test_a_rotated_level_is_the_same_layout_and_the_same_solution():
    a = _level()
    by_hand = turned_picture(a, 2)  # the picture turned cell by cell (test_curve's helper)
    assert layout_distance(a, by_hand) == 0.0
    assert layout_distance(a, a.rotated(1)) == 0.0  # the board turned beneath the tiles
    assert solution_string(a) == solution_string(by_hand) == solution_string(turn_picture(a, 4))


def test_one_tap_different_is_one_cell_of_nineteen_and_not_distinct():
    a, b = _level(), _level(dirs=(0, 3, 4))  # tile c heads the other way
    assert layout_distance(a, b) == pytest.approx(1 / 19)
    d = solution_distance(solution_string(a), solution_string(b))
    assert 0 < d < 0.5  # alike by their solutions too


def test_solution_distance_is_difflib_over_moves():
    # "as r bg" vs "as r cs": 2 of 3 moves match, ratio = 2*2/6
    assert solution_distance("as r bg", "as r cs") == pytest.approx(1 / 3)
    assert solution_distance("as", "") == 1.0


def test_diversity_is_pcg_benchmarks_greedy_pass():
    three_same = np.zeros((3, 3))
    assert diversity(three_same).tolist() == pytest.approx([1 / 3, 1 / 2, 1.0])
    apart = np.ones((4, 4)) - np.eye(4)
    assert diversity(apart).tolist() == [1.0] * 4
    # a pair at 0.25 (half-similar): the first gets 1 - 0.5/2
    half = np.array([[0, 0.25], [0.25, 0]])
    assert diversity(half).tolist() == [0.75, 1.0]


def test_the_shipped_main_line_is_pairwise_distinct_by_both_measures():
    levels = campaign()
    for measure in ("solution", "layout"):
        d = distances(levels, measure)
        off = d[np.triu_indices(len(levels), 1)]
        assert off.min() >= 0.5, measure
        assert diversity(d).tolist() == [1.0] * 24


# --- constraints ---------------------------------------------------------------------------
def test_constraints_name_the_reachable_range():
    with pytest.raises(ArgumentError, match=r"tiles: .*reachable: 4-37 tiles"):
        constraints(rotations=3, tiles=2)
    with pytest.raises(ArgumentError, match="at most 19 tiles"):
        constraints(tiles=25, radius=2)
    # 4 tiles, 1 rotation: size 1.62 + rotation 5 + 15/4 at least; at most 1.62+5+20+6.67+25
    assert score_bounds(constraints(rotations=1, tiles=4)) == (10, 58)
    with pytest.raises(ArgumentError, match="reachable scores are 10-58"):
        generate_to_target(0, score=70, rotations=1, tiles=4)


def test_generate_to_target_keeps_rotations_and_tiles():
    level = generate_to_target(4, score=55, rotations=2, tiles=9)
    d = score(level)
    assert (d.R, d.N) == (2, 9) and abs(d.total - 55) <= 2
    assert level.metadata["generated"]["constraints"]["tiles"] == [9, 9]


def test_budget_stops_the_search_and_says_so():
    from labkit.hexpuzzle import GeneratorOptionError

    with pytest.raises(GeneratorOptionError, match="budget of 5 solver calls"):
        generate_to_target(1, score=80, budget=5)


def test_campaign_refuses_an_impossible_slot_before_searching():
    with pytest.raises(ArgumentError, match=r"targets\[1\]: cannot be reached"):
        campaign_from_curve([30, 75], 1, tiles=4, rotations=1, progress=False)


def _run(*argv):
    parser = argparse.ArgumentParser()
    register_solver_commands(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_campaign_constraints(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert _run("campaign", "--curve", "30:40:2", "--tiles", "6-7", "--rotations", "1",
                "--out", str(out), "--seed", "3") == 0  # fmt: skip
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:3]]
    assert all(r[4] == "1" and r[5] in ("6", "7") for r in rows)
    with pytest.raises(ArgumentError, match=r"--tiles: .*reachable: 4-37"):
        _run("campaign", "--curve", "30:40:2", "--tiles", "2", "--rotations", "3",
             "--out", str(out))  # fmt: skip
    with pytest.raises(SystemExit):
        _run("campaign", "--tiles", "5-4", "--out", str(out))


# --- the evaluation on generators whose answer is known ------------------------------------
def test_evaluation_of_a_generator_that_always_returns_one_level():
    level = _level()
    total = score(level).total

    def same(target, rng, budget):
        return level

    report = evaluate_generator(same, [{"score": total}, {"score": total + 10, "tiles": 4}],
                                n=3, seeds=[0, 1], budget=10)  # fmt: skip
    t = report.table
    assert (
        len(t) == 12
        and t["quality"].tolist() == [True] * 3 + [False] * 3 + [True] * 3 + [False] * 3
    )  # the second target asks for 4 tiles: the constraint is not met
    assert report.figure("within ±2") == (0.5, 0.5, 0.5)
    # three copies of one level: pcg_benchmark gives 1/3, 1/2, 1 -> one in three distinct
    assert report.figure("diversity (solutions)")[0] == pytest.approx(1 / 3)
    assert report.figure("diversity (layouts)")[0] == pytest.approx(1 / 3)
    assert report.figure("score error (MAE)")[0] == pytest.approx(5.0)
    assert (t["solver_calls"] == 0).all()


def test_evaluation_of_a_generator_that_never_delivers():
    report = evaluate_generator(lambda target, rng, budget: None, [{"score": 40}], n=2,
                                seeds=[3], budget=10)  # fmt: skip
    assert report.figure("quality")[0] == 0.0
    assert report.figure("distance closed")[0] == 0.0
    assert report.figure("diversity (solutions)")[0] == 0.0
    assert "one seed" in str(report)


def test_evaluation_refuses_bad_targets():
    with pytest.raises(ArgumentError, match=r"targets\[0\]"):
        evaluate_generator(BASELINES["random search"], [{"rotations": 1}], n=1, seeds=[0],
                           budget=10)  # fmt: skip
    with pytest.raises(ArgumentError, match=r"targets\[0\]"):
        evaluate_generator(BASELINES["random search"], [{"score": 40, "tiles": 99}], n=1,
                           seeds=[0], budget=10)  # fmt: skip


@pytest.mark.parametrize("name", ["random search", "(mu+lambda) ES", "GA (gated fitness)"])
def test_baselines_keep_to_their_budget(name):
    target = {"score": 35, "rotations": 1}
    before = solver_calls()
    level = BASELINES[name](target, make_rng(5), 60)
    spent = solver_calls() - before
    # one candidate may be under way when the budget runs out: a build (8 attempts of 7
    # searches) and its score, no more
    assert spent <= 60 + 8 * 7 + 1
    assert level is None or gated_fitness(level, target) >= 0


def test_gated_fitness_gates_on_quality():
    level = _level()
    total = score(level).total
    assert gated_fitness(level, {"score": total}) == 2.0
    assert gated_fitness(level, {"score": total, "tiles": 9}) == pytest.approx(0.8)


def test_cli_evaluate_prints_the_table(capsys):
    from labkit.hexpuzzle.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(["puzzle", "evaluate", "--target", "30:rotations=1", "--n", "2",
                              "--seeds", "0", "--budget", "100",
                              "--generator", "generate_to_target"])  # fmt: skip
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "1 targets × 2 levels × 1 seeds" in out
    assert "generate_to_target     quality" in out
