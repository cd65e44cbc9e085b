"""The evaluation pipeline (issue 27) on generators whose answer is known, and its refusals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from labkit import ArgumentError
from labkit.hexpuzzle import evaluate_generator, score, solve
from labkit.hexpuzzle.evaluation.baselines import BASELINES
from labkit.hexpuzzle.evaluation.evaluate import GeneratorReport, _check_targets, format_summary
from labkit.hexpuzzle.evaluation.measures import turn_picture
from labkit.hexpuzzle.solving.generator import GeneratorError, generate
from labkit.rng import make_rng, stream
from tests.hexpuzzle.evaluation.test_measures import _level
from tests.hexpuzzle.helpers import random_level


# --- the evaluation on generators whose answer is known ------------------------------------
def test_evaluation_of_a_generator_that_always_returns_one_level(one_reference):
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


def test_evaluation_of_a_generator_that_never_delivers(one_reference):
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


# --- one evaluation whose every row is known from the rules ---------------------------------
A = _level()  # 3 tiles, radius 2, no rotation
B = random_level(11, n_tiles=4)  # far from A by both measures


@pytest.fixture(scope="module")
def known():
    """Seed 0, two targets, n = 3; the generator's answers are fixed per target and call."""
    ta = score(A).total
    targets = [{"score": ta}, {"score": ta + 10, "tiles": 4}]
    calls = {0: 0, 1: 0}
    seen = []

    def gen(target, rng, budget):
        k = 0 if "tiles" not in target else 1
        i = calls[k] % 3
        calls[k] += 1
        seen.append((k, i, rng.integers(2**62), budget))
        if k == 0:
            for _ in range(i + 1):  # i + 1 solver calls, recorded as the row's cost
                solve(A)
            return [A, turn_picture(A, 2), B][i]
        if i == 2:
            raise GeneratorError("gave up")
        return [None, A][i]

    import labkit.hexpuzzle.evaluation.evaluate as ev

    pool = []  # the reference levels as built, with the generator each was built from

    def spy(rng):
        state = rng.bit_generator.state
        level = generate(rng)
        pool.append((state, level))
        return level

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ev, "generate_backwards", spy)
        report = evaluate_generator(gen, targets, n=3, seeds=[0], budget=77, name="stand-in")
    return report, targets, seen, pool


def test_each_level_comes_from_its_own_stream_with_the_budget(known):
    seen = known[2]
    for k, i, drawn, budget in seen:
        assert drawn == make_rng(stream(0, f"eval/{k}/{i}")).integers(2**62)
        assert budget == 77
    assert [(k, i) for k, i, _, _ in seen] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]


def test_the_rows_judge_each_level(known):
    report, targets = known[:2]
    t = report.table
    assert t["generator"].tolist() == ["stand-in"] * 6 and t["seed"].tolist() == [0] * 6
    assert t["target"].tolist() == [0, 0, 0, 1, 1, 1] and t["level"].tolist() == [0, 1, 2] * 2
    assert (
        t["score_target"].tolist()
        == [float(targets[0]["score"])] * 3 + [float(targets[1]["score"])] * 3
    )
    assert t["tiles_target"].tolist()[3:] == [4] * 3
    assert t["made"].tolist() == [True, True, True, False, True, False]
    assert t["solver_calls"].tolist()[:3] == [1, 2, 3] and (t["cpu_s"] >= 0).all()
    dB = score(B)
    for col, expected in {
        "valid": [True] * 3 + [False, True, False],
        "solvable": [True] * 3 + [False, True, False],
        "within_rules": [True, True, dB.status == "ok", False, True, False],
        "meets_constraints": [True] * 3 + [False] * 3,  # A has 3 tiles, the target asks 4
        "quality": [True, True, dB.status == "ok", False, False, False],
        "tiles": [3, 3, 4, None, 3, None],
        "rotations": [0, 0, dB.R, None, 0, None],
        "radius": [2, 2, 2, None, 2, None],
    }.items():
        got = [None if v != v else v for v in t[col].tolist()]  # NaN -> None
        assert got == expected, col
    ta = targets[0]["score"]
    errors = [0, 0, abs(dB.total - ta), None, 10, None]
    assert [None if v != v else v for v in t["score_error"].tolist()] == errors
    within = [True, True, abs(dB.total - ta) <= 2, False, False, False]
    assert t["within"].tolist() == within


def test_diversity_flags_follow_the_greedy_pass_per_target(known):
    t = known[0].table
    # target 0: A and A turned are one puzzle (the first marked down), B apart;
    # target 1: the two missing levels are one "puzzle", A apart; a missing level is never
    # counted as diverse
    for measure in ("solution", "layout"):
        assert t[f"diverse_{measure}"].tolist() == [False, True, True, False, True, False]


def test_distance_closed_is_measured_against_ten_unsteered_levels(known):
    report, targets, _, built = known
    # ten unsteered levels, each from the stream eval/reference/i of the seed
    assert [st for st, _ in built] == [stream(0, f"eval/reference/{i}").bit_generator.state
                                       for i in range(10)]  # fmt: skip
    pool = [lv for _, lv in built]
    ds = [score(lv) for lv in pool]

    def dist(target, d, level):
        out = abs(d.total - target["score"]) / 100
        if "tiles" in target:
            out += max(0, target["tiles"] - d.N, d.N - target["tiles"]) / 19
        return out

    d0 = [np.mean([dist(tg, d, lv) for d, lv in zip(ds, pool)]) for tg in targets]
    closed = report.table["closed"].tolist()
    assert closed[:2] == [1.0, 1.0]  # on target: all of the distance closed
    dB = score(B)
    assert closed[2] == pytest.approx(max(0.0, 1 - dist(targets[0], dB, B) / d0[0]))
    assert closed[3] == closed[5] == 0.0  # missing
    assert closed[4] == pytest.approx(max(0.0, 1 - (10 / 100 + 1 / 19) / d0[1]))


def test_the_summary_of_one_seed(known):
    report = known[0]
    t = report.table
    good = int(t["quality"].sum())
    expected = {
        "quality": good / 6,
        "diversity (solutions)": 3 / 6,
        "diversity (layouts)": 3 / 6,
        "within ±2": t["within"].mean(),
        "score error (MAE)": t["score_error"].dropna().mean(),
        "distance closed": t["closed"].mean(),
        "solver calls per valid level": t["solver_calls"].sum() / good,
        "CPU s per valid level": t["cpu_s"].sum() / good,
    }
    s = report.summary
    assert s["figure"].tolist() == list(expected)
    for fig, value in expected.items():
        assert report.figure(fig) == pytest.approx((value, value, value)), fig
    assert (s["seeds"] == 1).all() and (s["generator"] == "stand-in").all()
    assert s["unit"].tolist() == ["share"] * 4 + ["points", "share", "solver", "CPU"]
    text = str(report)
    assert text.count("(one seed)") == 8 and f"{100 * good / 6:.0f} %" in text
    with pytest.raises(ArgumentError, match="no such figure"):
        report.figure("beauty")
    assert "<table" in report._repr_html_()


# --- the summary across seeds, on rows made by hand -----------------------------------------
def _rows(per_seed):
    """Rows of one level per (seed, error): on target 0, 1 rotation asked."""
    rows = []
    for seed, errors in enumerate(per_seed):
        for k, e in enumerate(errors):
            rows.append({"generator": "g", "seed": seed, "target": 0, "level": k,
                         "quality": e < 5, "within": e <= 2, "made": True,
                         "diverse_solution": True, "diverse_layout": k == 0,
                         "score_error": float(e), "closed": 0.5, "solver_calls": 10 * (k + 1),
                         "cpu_s": 0.5, "score_target": 40.0 + 10 * k, "rotations_target": 1,
                         "tiles_target": None, "radius_target": None})  # fmt: skip
    return rows


def test_the_summary_is_a_student_t_interval_across_seeds_clipped_to_the_range():
    report = GeneratorReport(_rows([[10, 1], [12, 1], [14, 1]]), name="g", budget=5)
    # MAE per seed 5.5, 6.5, 7.5: mean 6.5, sd 1
    half = stats.t.ppf(0.975, 2) * 1 / math.sqrt(3)
    assert report.figure("score error (MAE)") == pytest.approx((6.5, 6.5 - half, 6.5 + half))
    # quality 1/2 in every seed: no spread; within +-2 likewise
    assert report.figure("quality") == pytest.approx((0.5, 0.5, 0.5))
    assert report.figure("diversity (layouts)") == pytest.approx((0.5, 0.5, 0.5))
    assert report.figure("solver calls per valid level") == pytest.approx((30, 30, 30))
    assert report.figure("CPU s per valid level") == pytest.approx((1.0, 1.0, 1.0))
    spread = GeneratorReport(_rows([[1, 1], [9, 9]]), name="g", budget=5)
    mean, low, high = spread.figure("quality")  # 1 and 0: the interval is cut to 0-1
    assert (mean, low, high) == (0.5, 0.0, 1.0)
    # no valid level in a seed: that seed has no cost figure, the others still count
    assert spread.figure("solver calls per valid level") == pytest.approx((15, 15, 15))
    text = str(spread)
    assert "50 % " in text and "0 % - 100 %" in text
    assert spread.grid("rotations").values.tolist() == [[0.5, 0.5]]
    assert spread.grid("rotations", "score_error").values.tolist() == [[5.0, 5.0]]
    none = GeneratorReport(_rows([[9]]), name="g", budget=5)
    assert math.isnan(none.figure("solver calls per valid level")[0])
    assert "-" in str(none).splitlines()[7]


def test_format_summary_shows_large_numbers_whole():
    report = GeneratorReport(_rows([[1, 1]]), name="g", budget=5)
    s = report.summary.copy()
    s.loc[s["figure"] == "score error (MAE)", "mean"] = 1234.4
    s.loc[s["figure"] == "solver calls per valid level", "mean"] = 12.345
    lines = format_summary(s).splitlines()
    assert lines[0].split() == ["generator", "figure", "mean", "95", "%", "interval", "(seeds)"]
    assert " 1234 " in lines[5] and " 12.3 " in lines[7]


# --- refusals ---------------------------------------------------------------------------------
def _none(target, rng, budget):
    return None


@pytest.mark.parametrize("targets", [
    {"score": 40}, [], "score", [5], [{"score": 40, "colour": 1}], [{"score": True}],
    [{"score": "40"}], [{"score": -1}], [{"score": 101}], [{"score": 40, "rotations": 9}],
])  # fmt: skip
def test_evaluation_refuses_each_bad_target_list(targets):
    with pytest.raises(ArgumentError, match="targets"):
        evaluate_generator(_none, targets, n=1, seeds=[0], budget=10)


def test_evaluation_accepts_the_edges_of_the_target_rules():
    ok = [{"score": 0}, {"score": 100.0, "rotations": (1, 3), "tiles": 12, "radius": 3}]
    assert _check_targets(ok) == ok and _check_targets(ok) is not ok


@pytest.mark.parametrize("kwargs, argument", [
    ({"n": 0}, "n"), ({"n": 10_001}, "n"), ({"budget": 0}, "budget"),
    ({"seeds": []}, "seeds"), ({"seeds": range(1001)}, "seeds"), ({"seeds": [-1]}, "seeds"),
    ({"seeds": [0.5]}, "seeds"),
])  # fmt: skip
def test_evaluation_refuses_bad_counts(kwargs, argument):
    args = {"n": 1, "seeds": [0], "budget": 10, **kwargs}
    with pytest.raises(ArgumentError) as exc:
        evaluate_generator(_none, [{"score": 40}], **args)
    assert exc.value.argument == argument
    with pytest.raises(ArgumentError, match="callable"):
        evaluate_generator("gen", [{"score": 40}], n=1, seeds=[0], budget=10)


@pytest.mark.parametrize("targets, argument, words", [
    ({"score": 40}, "targets", "must be a non-empty list of dicts with a 'score'"),
    ([], "targets", "must be a non-empty list"),
    ([{"score": 40}, {"tiles": 4}], "targets[1]",
     "needs a 'score' and only the controls rotations, tiles, radius"),
    ([{"score": 40, "colour": 1}], "targets[0]", "only the controls"),
    ([{"score": 200}], "targets[0]['score']", "a score is a number 0-100 (got 200)"),
    ([{"score": 40, "rotations": 3, "tiles": 3}], "targets[0]", "need at least 4 tiles"),
])  # fmt: skip
def test_a_refused_target_names_itself_and_the_rule(targets, argument, words):
    with pytest.raises(ArgumentError) as exc:
        _check_targets(targets)
    assert exc.value.argument == argument and words in str(exc.value)


def test_too_many_seeds_are_refused_without_listing_them():
    with pytest.raises(ArgumentError) as exc:
        evaluate_generator(_none, [{"score": 40}], n=1, seeds=range(10**9), budget=10)
    assert "must name 1 to 1000 seeds" in str(exc.value) and "'1001+ seeds'" in str(exc.value)
    with pytest.raises(ArgumentError, match="got '0 seeds'"):
        evaluate_generator(_none, [{"score": 40}], n=1, seeds=[], budget=10)


@pytest.fixture
def one_reference(monkeypatch):
    """The ten unsteered reference levels all A: a target at A's score has d0 = 0."""
    import labkit.hexpuzzle.evaluation.evaluate as ev

    monkeypatch.setattr(ev, "generate_backwards", lambda rng: A)


def test_with_the_reference_on_target_only_a_level_on_target_closes_anything(one_reference):
    answers = iter([A, B, None])
    report = evaluate_generator(lambda target, rng, budget: next(answers),
                                [{"score": score(A).total}], n=3, seeds=[2**63 - 1],
                                budget=10)  # fmt: skip
    assert report.table["closed"].tolist() == [1.0, 0.0, 0.0]
    with pytest.raises(ArgumentError) as exc:
        evaluate_generator(_none, [{"score": 40}], n=1, seeds=[2**63], budget=10)
    assert exc.value.argument == "seeds"


def test_the_progress_bar_counts_levels(one_reference, capsys):
    evaluate_generator(_none, [{"score": 40}, {"score": 50}], n=2, seeds=[0, 1], budget=1,
                       name="quiet one", progress=True)  # fmt: skip
    err = capsys.readouterr().err
    assert "quiet one" in err and "8/8" in err and "level" in err
    evaluate_generator(_none, [{"score": 40}], n=1, seeds=[0], budget=1)
    assert capsys.readouterr().err == ""
