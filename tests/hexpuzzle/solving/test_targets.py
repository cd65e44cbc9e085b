"""generate_to_target: shares within tolerance on fixed seeds, verified levels, reproducibility."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    GeneratorOptionError,
    Level,
    LevelError,
    generate_to_target,
    play_actions,
    score,
    shipped_skill_model,
    solve,
)
from labkit.hexpuzzle.difficulty.fit import strengths
from labkit.hexpuzzle.difficulty.scoring import PARTS


class StandInSkillModel:
    """A known truth for success targets: logistic in the structural parts, fixed weights.

    Stands in for the fitted SkillModel (same duck-typed ``success(level, ability)``): the
    log-odds of a first-try success fall by each part times its own weight.
    """

    INTERCEPT = 3.2
    WEIGHTS = {"size": 0.03, "turns": 0.06, "layers": 0.05, "blocking": 0.04, "rotation": 0.06,
               "pressure": 0.05}  # fmt: skip

    def __init__(self) -> None:
        self.calls = 0

    def success(self, level: Level, ability: float = 0.0) -> float:
        self.calls += 1
        parts = score(level).parts
        logit = self.INTERCEPT + ability - sum(self.WEIGHTS[p] * parts[p] for p in PARTS)
        return 1.0 / (1.0 + math.exp(-logit))


def assert_verified(level: Level) -> None:
    """Validates through the file format, solves, replays to a win within the move limit."""
    again = Level.from_json(json.loads(json.dumps(level.to_dict())))
    assert again == level
    sol = solve(again)
    assert sol.solved and 1 <= sol.rotations <= 3
    game = play_actions(again, sol.actions)
    assert game.status == "won" and len(again.tiles) <= again.move_limit
    assert score(again).status == "ok"


@pytest.mark.slow
def test_score_targets_are_hit_on_fixed_seeds():
    targets = np.linspace(20, 85, 20)
    achieved = []
    for i, target in enumerate(targets):
        # A generous time limit: the clock only stops a search, so a loaded machine must not
        # turn a hit into a miss here (speed is the benchmark's business).
        level = generate_to_target(100 + i, score=float(target), time_limit=120)
        assert_verified(level)
        d = score(level)  # judged here, independently of what the search recorded
        assert level.metadata["generated"]["achieved"]["score"] == d.total
        achieved.append(d.total)
    within = np.abs(np.array(achieved) - targets) <= 2
    assert within.mean() >= 0.95, list(zip(targets.round(1), achieved))


@pytest.mark.slow
def test_success_targets_are_hit_with_a_known_model():
    model = StandInSkillModel()
    targets = np.linspace(0.3, 0.9, 10)
    hits = []
    for i, target in enumerate(targets):
        level = generate_to_target(200 + i, success=float(target), model=model, time_limit=120)
        assert_verified(level)
        truth = StandInSkillModel().success(level, 0.0)
        hits.append(abs(truth - target) <= 0.05)
        assert level.metadata["generated"]["achieved"]["success"] == pytest.approx(truth, abs=1e-6)
    assert np.mean(hits) >= 0.9
    assert model.calls > len(targets)  # the search consulted the model, not only the score


@pytest.mark.slow
def test_success_targets_are_hit_with_the_shipped_skill_model():
    """The real fitted model (issue 14) as the judge: >= 90 % of targets within ±0.05."""
    model = shipped_skill_model()
    truth = shipped_skill_model()  # a second copy, loaded from the file, judges independently
    # Its prediction by hand from the saved weights: σ(θ − β), β = baseline + Σ w·strength.
    w = np.array([truth.weights[p] for p in PARTS])
    targets = np.linspace(0.3, 0.9, 10)
    achieved = []
    for i, target in enumerate(targets):
        level = generate_to_target(300 + i, success=float(target), model=model, time_limit=120)
        assert_verified(level)
        rate = truth.success(level, 0.0)
        beta = truth.weights["baseline"] + strengths(score(level)) @ w
        assert rate == pytest.approx(1 / (1 + math.exp(beta)), abs=1e-9)
        assert level.metadata["generated"]["achieved"]["success"] == pytest.approx(rate, abs=1e-6)
        achieved.append(rate)
    within = np.abs(np.array(achieved) - targets) <= 0.05
    assert within.mean() >= 0.9, list(zip(targets.round(3), np.round(achieved, 3)))


def test_ability_moves_the_success_target():
    """A stronger player needs a structurally harder level for the same success rate."""
    model = StandInSkillModel()
    # a generous clock: the search must end on its own rule, not on a loaded machine's speed
    regular = generate_to_target(7, success=0.6, model=model, time_limit=300)
    strong = generate_to_target(7, success=0.6, model=model, ability=1.5, time_limit=300)
    assert score(strong).total > score(regular).total
    assert strong.metadata["generated"]["target"] == {
        "success": 0.6,
        "tolerance": 0.05,
        "ability": 1.5,
    }


def test_same_seed_same_bytes_and_metadata(tmp_path):
    a = generate_to_target(11, score=50)
    b = generate_to_target(11, score=50)
    a.save(tmp_path / "a.json")
    b.save(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    made = a.metadata["generated"]
    assert made["target"] == {"score": 50.0, "tolerance": 2.0}
    assert made["seed"] == 11 and made["tries"] >= 1 and made["scored"] >= made["tries"]
    assert a.metadata["runtime"]["seconds"] >= 0
    saved = json.loads((tmp_path / "a.json").read_text())
    assert "runtime" not in saved["metadata"]  # run-time facts are not part of the level
    assert Level.load(tmp_path / "a.json").metadata == saved["metadata"]
    assert generate_to_target(12, score=50) != a


def test_constraints_on_rotations_and_radius_are_kept():
    level = generate_to_target(5, score=55, rotations=2, radius=3)
    assert solve(level).rotations == 2 and len(level.board) == 37
    level = generate_to_target(5, score=30, rotations=(1, 1), radius=2, tolerance=3)
    assert solve(level).rotations == 1 and len(level.board) == 19
    assert abs(score(level).total - 30) <= 3


def test_unreachable_targets_name_the_range_found():
    # score 12 is possible by the formula (so not refused up front) but out of the search's reach
    with pytest.raises(GeneratorOptionError) as err:
        generate_to_target(1, score=12, budget=150)
    message = str(err.value)
    assert "score 12 ± 2 was not reached" in message and "the search reached score" in message
    low, high = (float(x) for x in message.split("reached score ")[1].split(" ")[0].split("-"))
    assert 6 < low < high <= 100
    assert isinstance(err.value, ValueError)


def test_impossible_scores_are_refused_before_searching():
    # free tiles (2-37 on radius 3), 1-3 rotations: the H9 formula's own bounds are 10-95
    with pytest.raises(ArgumentError, match="reachable scores are 10-95"):
        generate_to_target(1, score=4)
    with pytest.raises(ArgumentError, match="reachable scores are 10-95"):
        generate_to_target(1, score=99)


def test_time_limit_stops_the_search():
    with pytest.raises(GeneratorOptionError, match="time limit of 0.2 s ran out"):
        generate_to_target(1, score=92, time_limit=0.2)


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({}, "score/success"),
        ({"score": 40, "success": 0.5, "model": StandInSkillModel()}, "score/success"),
        ({"score": 140}, "score"),
        ({"score": "40"}, "score"),
        ({"score": True}, "score"),
        ({"success": 0.5}, "model"),
        ({"success": 1.5, "model": StandInSkillModel()}, "success"),
        ({"score": 40, "tolerance": 0}, "tolerance"),
        ({"score": 40, "rotations": 4}, "rotations"),
        ({"score": 40, "rotations": (2, 1)}, "rotations"),
        ({"score": 40, "radius": 5}, "radius"),
        ({"score": 40, "time_limit": 0}, "time_limit"),
        ({"score": 40, "ability": float("nan")}, "ability"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, argument):
    with pytest.raises(ArgumentError) as err:
        generate_to_target(1, **kwargs)
    assert err.value.argument == argument


def test_level_metadata_must_be_an_object():
    doc = Level.hexagon(2, tiles=[("a", 0, 0, 0)]).to_dict()
    assert "metadata" not in doc  # levels without metadata keep their old bytes
    doc["metadata"] = ["not", "an", "object"]
    with pytest.raises(LevelError, match="/metadata"):
        Level.from_json(doc)


def test_a_fresh_seed_is_recorded_and_makes_the_level_again():
    level = generate_to_target(None, score=35)
    seed = level.metadata["generated"]["seed"]
    assert isinstance(seed, int)
    assert generate_to_target(seed, score=35) == level
    # A Generator's state, not a seed, decides: nothing to record.
    drawn = generate_to_target(np.random.default_rng(1), score=35)
    assert drawn.metadata["generated"]["seed"] is None


def test_the_clock_stops_the_search_but_never_steers_it(monkeypatch):
    """A fast and a slow clock (both within the limit) give the same level."""
    from labkit.hexpuzzle.solving import targets

    def clock(step):
        now = [0.0]

        def tick():
            now[0] += step
            return now[0]

        return tick

    found = []
    for step in (1e-6, 0.5):
        monkeypatch.setattr(targets.time, "perf_counter", clock(step))
        found.append(generate_to_target(21, score=70, time_limit=1e6))
    assert found[0] == found[1]
    assert found[0].metadata["runtime"] != found[1].metadata["runtime"]


def test_an_unreachable_success_rate_names_the_rates_found():
    with pytest.raises(GeneratorOptionError, match=r"success 0\.999 ± 0\.05 was not reached"):
        generate_to_target(2, success=0.999, model=StandInSkillModel(), time_limit=30)
