"""evaluate_generator's rules with stand-ins whose every number is known (module docstring of
``labkit.hexpuzzle.evaluation.evaluate``): the spans and gaps of the controls, the board
radius, a level's distance from its target, the four quality checks, the rows of one run (the
streams, the distance closed, the costs) and the report's words."""

from __future__ import annotations

import math
from types import SimpleNamespace as NS

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.evaluation import evaluate as ev
from labkit.hexpuzzle.level import LevelError
from labkit.rng import make_rng, stream


def test_a_control_is_an_exact_value_or_an_inclusive_span():
    assert ev._span(3) == (3, 3) and ev._span(np.int64(4)) == (4, 4)
    assert ev._span((2, 5)) == (2, 5) and ev._span([1, 9]) == (1, 9)
    assert ev._gap(None, (1, 2)) == math.inf
    assert ev._gap(3, (2, 5)) == 0.0 and ev._gap(2, (2, 5)) == 0.0 and ev._gap(5, (2, 5)) == 0.0
    assert ev._gap(0, (2, 5)) == 2.0 and ev._gap(8, (2, 5)) == 3.0
    assert ev._gap(4, (4, 4)) == 0.0 and ev._gap(6, (4, 4)) == 2.0


def _board(*cells):
    return NS(board=NS(cells=list(cells)))


def test_the_radius_is_the_farthest_cells_hex_distance_from_the_centre():
    assert ev._radius(_board((0, 0), (3, -2))) == 3  # from q alone (|r| 2, |q + r| 1)
    assert ev._radius(_board((0, 0), (0, -3))) == 3  # from r
    assert ev._radius(_board((2, 2))) == 4  # from q + r
    assert ev._radius(_board((2, -5), (1, 0))) == 5  # |r|, not |q − r| = 7


def test_the_distance_adds_the_scores_over_100_to_each_asked_controls_over_its_range():
    d = NS(R=4, N=10)
    level = _board((0, 0), (3, 0))  # radius 3
    target = {"score": 50, "rotations": 2, "tiles": (6, 8), "radius": 2}
    want = 10 / 100 + (4 - 2) / 3 + (10 - 8) / 19 + (3 - 2) / 1
    assert ev._distance(target, 60, d, level) == pytest.approx(want, abs=1e-12)
    assert ev._distance({"score": 50}, 45, d, level) == pytest.approx(0.05)  # controls not asked
    assert ev._distance({"score": 50, "rotations": (3, 5)}, 50, d, level) == 0.0
    assert ev._distance(target, None, d, level) == math.inf  # no score: no distance
    assert ev._distance(target, 60, None, None) == math.inf


class _Scored:
    """score()'s answer for a stand-in level."""

    def __init__(self, total=50, solved=True, status="ok", R=2, N=7):
        self.total, self.status, self.R, self.N = total, status, R, N
        self.solution = None if solved is None else NS(solved=solved)


@pytest.fixture
def judged(monkeypatch):
    """``_judge`` on stand-in levels: ``level.scored`` is what the scorer says, ``level.bad``
    whether the file format refuses it."""

    def from_json(text):
        if text == "bad":
            raise LevelError("moveLimit: must be 1-999 (got 0)")
        return text

    monkeypatch.setattr(ev, "score", lambda level: level.scored)
    monkeypatch.setattr(ev.Level, "from_json", staticmethod(from_json))

    def level(bad=False, **scored):
        return NS(board=NS(cells=[(0, 0), (2, 0)]), to_json=lambda: "bad" if bad else "ok",
                  scored=_Scored(**scored))  # fmt: skip

    return level


def test_nothing_made_fails_every_check():
    assert ev._judge({"score": 50}, None) == {
        "made": False, "valid": False, "solvable": False, "within_rules": False,
        "meets_constraints": False, "quality": False, "score": None, "rotations": None,
        "tiles": None, "radius": None, "score_error": None, "within": False,
    }  # fmt: skip


def test_a_good_level_passes_all_four_checks(judged):
    row = ev._judge({"score": 48, "rotations": 2, "tiles": (5, 9), "radius": 2}, judged())
    assert row == {
        "made": True, "valid": True, "solvable": True, "within_rules": True,
        "meets_constraints": True, "quality": True, "score": 50, "rotations": 2, "tiles": 7,
        "radius": 2, "score_error": 2, "within": True,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("kw", "failed"),
    [
        ({"bad": True}, "valid"),
        ({"solved": False}, "solvable"),
        ({"solved": None}, "solvable"),  # no solution at all
        ({"status": "too_hard"}, "within_rules"),
        ({"R": 3}, "meets_constraints"),
        ({"N": 10}, "meets_constraints"),
    ],
)
def test_each_check_fails_alone_and_takes_quality_with_it(judged, kw, failed):
    row = ev._judge({"score": 50, "rotations": 2, "tiles": (5, 9), "radius": 2}, judged(**kw))
    checks = ("valid", "solvable", "within_rules", "meets_constraints")
    assert {c: row[c] for c in checks} == {c: c != failed for c in checks}
    assert row["quality"] is False
    assert row["within"] is (failed != "meets_constraints")  # the score is on target


def test_within_means_two_points_or_fewer_and_every_control_met(judged):
    assert ev._judge({"score": 52}, judged())["within"] is True
    assert ev._judge({"score": 47.5}, judged())["within"] is False
    assert ev._judge({"score": 47.5}, judged())["score_error"] == 2.5
    assert ev._judge({"score": 50, "radius": 1}, judged())["within"] is False  # radius 2
    row = ev._judge({"score": 50}, judged(total=None))
    assert (row["score_error"], row["within"], row["score"]) == (None, False, None)


# --- one run, with a stand-in reference pool and scorer ---------------------------------------
class _Lv:
    def __init__(self, total, R=1, N=5):
        self.board = NS(cells=[(0, 0), (1, 0)])  # radius 1
        self.scored = _Scored(total=total, R=R, N=N)
        self.json = f"{total}-{R}-{N}"

    def to_json(self):
        return self.json


@pytest.fixture
def run(monkeypatch):
    """Reference levels all at score ``ref`` (d₀ = |ref − target| / 100); a solver counter
    that ticks 7 per generated level; the generator records its rng and budget."""
    made = []
    ticks = [0]
    monkeypatch.setattr(ev, "score", lambda level: level.scored)
    monkeypatch.setattr(ev.Level, "from_json", staticmethod(lambda text: text))
    monkeypatch.setattr(ev, "solver_calls", lambda: ticks[0])
    monkeypatch.setattr(ev, "pairwise_distances", lambda levels, measure: np.zeros(
        (len(levels), len(levels))) + np.eye(len(levels)) * 0)  # fmt: skip
    monkeypatch.setattr(ev, "diversity", lambda dist: np.ones(len(dist)))
    state = NS(ref=40.0, made=made, ticks=ticks, refs=[])

    def backwards(gen):
        state.refs.append(gen.random())
        return _Lv(state.ref)

    monkeypatch.setattr(ev, "generate_backwards", backwards)

    def generator(totals):
        def gen(target, rng, budget):
            made.append((dict(target), rng.random(), budget))
            ticks[0] += 7
            t = totals.pop(0)
            if isinstance(t, Exception):
                raise t
            return None if t is None else _Lv(t)

        return gen

    state.generator = generator
    return state


def test_the_rows_of_a_run_and_the_distance_closed(run):
    from labkit.hexpuzzle.solving.generator import GeneratorError

    target = {"score": 50, "rotations": 1}
    r = ev.evaluate_generator(run.generator([50, 45, None, GeneratorError("no"), 90, 48]),
                              [target], n=6, seeds=[3], budget=11)  # fmt: skip
    t = r.table
    # the reference pool: ten levels from the seed's streams eval/reference/0..9
    assert run.refs == [stream(3, f"eval/reference/{i}").random() for i in range(10)]
    # each level from its own stream eval/{target}/{i}, with the budget
    assert [m[1] for m in run.made] == [make_rng(stream(3, f"eval/0/{i}")).random()
                                        for i in range(6)]  # fmt: skip
    assert {m[2] for m in run.made} == {11}
    assert t["generator"].tolist() == ["generator"] * 6 and t["target"].tolist() == [0] * 6
    assert t["level"].tolist() == list(range(6)) and t["seed"].tolist() == [3] * 6
    assert t["score_target"].tolist() == [50.0] * 6 and t["rotations_target"].tolist() == [1] * 6
    assert t["tiles_target"].isna().all() and t["radius_target"].isna().all()
    assert t["made"].tolist() == [True, True, False, False, True, True]
    assert t["solver_calls"].tolist() == [7] * 6 and (t["cpu_s"] >= 0).all()
    # d₀ = 10 / 100 (every reference 10 points off, rotations met): closed = 1 − d / d₀
    assert t["closed"].tolist() == pytest.approx([1.0, 0.5, 0.0, 0.0, 0.0, 0.8])
    assert t["diverse_solution"].tolist() == t["made"].tolist()  # a missing level is no level
    assert r.budget == 11 and r.name == "generator"


def test_with_references_on_target_only_a_level_on_target_closes_anything(run):
    run.ref = 50.0  # d₀ = 0
    r = ev.evaluate_generator(run.generator([50, 51]), [{"score": 50}], n=2, seeds=[0],
                              budget=5)  # fmt: skip
    assert r.table["closed"].tolist() == [1.0, 0.0]


def test_the_level_judged_is_the_one_measured_for_diversity(run, monkeypatch):
    seen = []

    def distances(levels, measure):
        seen.append(([None if lv is None else lv.json for lv in levels], measure))
        return np.zeros((2, 2))

    monkeypatch.setattr(ev, "pairwise_distances", distances)
    ev.evaluate_generator(run.generator([50, None]), [{"score": 50}], n=2, seeds=[0], budget=5)
    assert seen == [(["50-1-5", None], "solution"), (["50-1-5", None], "layout")]


def test_refusals_name_the_argument():
    def gen(target, rng, budget):
        return None

    with pytest.raises(ArgumentError) as exc:
        ev.evaluate_generator("not callable", [{"score": 50}], n=1, seeds=[0], budget=1)
    assert str(exc.value) == ("generate: must be callable as generate(target, rng, budget) "
                              "(got 'not callable')")  # fmt: skip
    for budget in (0, ev.MAX_BUDGET + 1):
        with pytest.raises(ArgumentError, match="budget: must be between 1 and 100000 "):
            ev.evaluate_generator(gen, [{"score": 50}], n=1, seeds=[0], budget=budget)
    with pytest.raises(ArgumentError) as exc:
        ev.evaluate_generator(gen, [{"score": 50}], n=1, seeds=range(1001), budget=1)
    assert str(exc.value) == "seeds: must name 1 to 1000 seeds (replications) (got '1001+ seeds')"


def test_a_thousand_seeds_and_the_largest_budget_are_accepted(run, monkeypatch):
    monkeypatch.setattr(ev, "GeneratorReport", lambda rows, name, budget: (len(rows), budget))
    # each at the limit of solver calls in all (seeds x targets x n x budget = 10^7)
    got = ev.evaluate_generator(run.generator([50] * 1000), [{"score": 50}], n=1,
                                seeds=range(1000), budget=10_000)  # fmt: skip
    assert got == (1000, 10_000)
    got = ev.evaluate_generator(run.generator([50] * 100), [{"score": 50}], n=1,
                                seeds=range(100), budget=ev.MAX_BUDGET)  # fmt: skip
    assert got == (100, 100_000) and 100 * ev.MAX_BUDGET == ev.MAX_SOLVER_CALLS
    with pytest.raises(ArgumentError, match="solver calls is over 10000000 calls"):
        ev.evaluate_generator(run.generator([50] * 101), [{"score": 50}], n=1,
                              seeds=range(101), budget=ev.MAX_BUDGET)  # fmt: skip


def test_the_progress_bar_counts_levels(run, monkeypatch):
    bars = []
    import tqdm.auto

    monkeypatch.setattr(tqdm.auto, "tqdm", lambda **kw: bars.append(kw) or NS(
        update=lambda: None, close=lambda: None))  # fmt: skip
    ev.evaluate_generator(run.generator([50, 50]), [{"score": 50}], n=2, seeds=[0], budget=5,
                          name="mine")  # fmt: skip
    assert bars == [{"total": 2, "desc": "mine", "unit": "level", "disable": True}]


# --- the report's words -------------------------------------------------------------------------
def test_shown_values_read_as_shares_or_numbers():
    assert ev._shown("quality", 0.987) == "99 %" and ev._shown("within ±2", 1.0) == "100 %"
    assert ev._shown("score error (MAE)", 1.2345) == "1.23"
    assert ev._shown("solver calls per valid level", 123.4) == "123"
    assert ev._shown("solver calls per valid level", 99.94) == "99.9"
    assert (
        ev._shown("quality", math.nan) == "-"
        and ev._shown("CPU s per valid level", math.inf) == "-"
    )


def _report():
    rows = [{"generator": "g", "seed": s, "target": k, "quality": True, "within": w,
             "diverse_solution": True, "diverse_layout": True, "score_error": 1.0,
             "closed": 1.0, "solver_calls": 10, "cpu_s": 0.1, "made": True,
             "score_target": st, "rotations_target": rt, "tiles_target": None,
             "radius_target": None}
            for s in (0, 1) for k, (st, rt, w) in enumerate([(40.0, 1, True), (60.0, 2, False),
                                                              (40.0, 2, True)])]  # fmt: skip
    return ev.GeneratorReport(rows, name="g", budget=100)


def test_the_grid_is_the_mean_per_control_and_score_target():
    g = _report().grid("rotations")
    assert g.index.name == "rotations_target" and list(g.columns) == [40.0, 60.0]
    assert g.loc[1, 40.0] == 1.0 and g.loc[2, 60.0] == 0.0 and g.loc[2, 40.0] == 1.0
    assert _report().grid("rotations", "closed").loc[2, 60.0] == 1.0


def test_the_html_summary_rounds_to_three_figures():
    html = _report()._repr_html_()
    assert "<th>0</th>" not in html and "<th></th>" not in html  # no row index
    assert html.startswith("<table") and "<th>figure</th>" in html
    assert "0.667" in html and "0.6666" not in html  # within ±2: 2 of 3 per seed
    assert 'class="dataframe"' in html and "<td>g</td>" in html


def test_the_plain_text_summary_has_one_line_per_figure():
    text = str(_report())
    lines = text.splitlines()
    assert lines[0].split() == ["generator", "figure", "mean", "95", "%", "interval", "(seeds)"]
    assert len(lines) == 1 + len(ev.FIGURES)
    assert lines[1].startswith("g ") and "quality" in lines[1] and "100 %" in lines[1]


def _rows(seeds, quality=True, errors=(1.0, 3.0), cpu=(0.1, 0.3)):
    return [{"generator": "g", "seed": s, "target": 0, "quality": quality, "within": True,
             "diverse_solution": True, "diverse_layout": False, "score_error": e,
             "closed": 0.5, "solver_calls": 10 + i, "cpu_s": c, "made": True,
             "score_target": 40.0, "rotations_target": 1, "tiles_target": None,
             "radius_target": None}
            for s in seeds for i, (e, c) in enumerate(zip(errors, cpu))]  # fmt: skip


def test_each_seeds_figures_by_hand():
    import pandas as pd

    got = ev._per_seed(pd.DataFrame(_rows([0])))
    assert got == {
        "quality": 1.0, "diversity (solutions)": 1.0, "diversity (layouts)": 0.0,
        "within ±2": 1.0, "score error (MAE)": 2.0, "distance closed": 0.5,
        "solver calls per valid level": 21 / 2, "CPU s per valid level": pytest.approx(0.4 / 2),
    }  # fmt: skip


def test_a_seed_without_valid_levels_or_scores_costs_infinity_quietly():
    import warnings

    import pandas as pd

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning reaches the user
        got = ev._per_seed(pd.DataFrame(_rows([0], quality=False, errors=(None, None))))
        r = ev.GeneratorReport(_rows([0, 1], quality=False, errors=(None, None)), name="g",
                               budget=1)  # fmt: skip
    assert got["solver calls per valid level"] == math.inf == got["CPU s per valid level"]
    assert math.isnan(got["score error (MAE)"])
    assert math.isnan(r.figure("score error (MAE)")[0])


def test_the_summary_units_and_the_interval_across_seeds():
    from scipy import stats

    rows = _rows([0], cpu=(0.1, 0.1)) + _rows([1], cpu=(0.2, 0.2)) + _rows([2], cpu=(0.6, 0.6))
    r = ev.GeneratorReport(rows, name="g", budget=1)
    units = dict(zip(r.summary["figure"], r.summary["unit"]))
    assert units == {"quality": "share", "diversity (solutions)": "share",
                     "diversity (layouts)": "share", "within ±2": "share",
                     "score error (MAE)": "points", "distance closed": "share",
                     "solver calls per valid level": "solver",
                     "CPU s per valid level": "CPU"}  # fmt: skip
    assert r.summary["seeds"].tolist() == [3] * len(ev.FIGURES)
    per = np.array([0.1, 0.2, 0.6])  # CPU s per valid level, seed by seed
    half = stats.t.ppf(0.975, 2) * per.std(ddof=1) / math.sqrt(3)
    mean, low, high = r.figure("CPU s per valid level")
    assert (mean, high) == pytest.approx((per.mean(), per.mean() + half))
    assert low == 0.0  # clipped at the figure's own floor
    assert r.figure("quality") == (1.0, 1.0, 1.0)
    with pytest.raises(ArgumentError) as exc:
        r.figure("fun")
    assert str(exc.value) == f"name: no such figure; known: {', '.join(ev.FIGURES)} (got 'fun')"


def test_one_seed_says_so_in_the_text():
    text = str(ev.GeneratorReport(_rows([0]), name="g", budget=1))
    lines = text.splitlines()[1:]
    assert len(lines) == len(ev.FIGURES)
    assert all(line.rstrip().endswith("  (one seed)") for line in lines)


def test_targets_are_refused_naming_the_target_and_the_rule():
    def refusal(targets):
        with pytest.raises(ArgumentError) as exc:
            ev._check_targets(targets)
        return str(exc.value)

    lst = "targets: must be a non-empty list of dicts with a 'score' (got {})"
    assert refusal({"score": 50}) == lst.format({"score": 50})
    assert refusal([]) == lst.format([])
    assert refusal("50") == lst.format("'50'")
    assert refusal([{"score": 50, "colour": 1}]) == (
        "targets[0]: needs a 'score' and only the controls rotations, tiles, radius "
        "(got {'score': 50, 'colour': 1})")  # fmt: skip
    assert refusal([{"score": 50}, {"score": 50, "radius": 9}]) == (
        "targets[1]: radius: must be 2-3 or a (lo, hi) pair within 2-3 "
        "(got {'score': 50, 'radius': 9})")  # fmt: skip
    assert ev._check_targets([{"score": 50, "radius": (2, 3)}]) == [{"score": 50, "radius": (2, 3)}]


def test_the_cpu_time_is_the_generators_own(run):
    r = ev.evaluate_generator(run.generator([50, 50]), [{"score": 50}], n=2, seeds=[0], budget=5)
    assert ((r.table["cpu_s"] >= 0) & (r.table["cpu_s"] < 1.0)).all()  # a stand-in: no work


def test_an_interval_as_wide_as_its_value_is_said_in_words():
    # issue 47: "solver calls per valid level 24.4 (0 – 49.8)": the interval reached below 0 and
    # was cut there; a cost can be anything from nothing to twice its mean, so say that
    rows = _rows([0], cpu=(0.1, 0.1)) + _rows([1], cpu=(0.2, 0.2)) + _rows([2], cpu=(0.6, 0.6))
    lines = str(ev.GeneratorReport(rows, name="g", budget=1)).splitlines()
    cpu = next(line for line in lines if "CPU s per valid level" in line)
    assert cpu.rstrip().endswith("too few seeds to tell (3)"), cpu
    calls = next(line for line in lines if "solver calls per valid level" in line)
    assert calls.rstrip().endswith("10.5 - 10.5")  # every seed the same: a real interval
