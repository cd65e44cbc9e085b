"""encounter.tune_many against synthetic problems whose feasible region is known."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.encounter import SimulationSettings, SweepError, Target, parse_target, tune_many
from labkit.encounter.sim.tune_many import pareto_front

# one uniform per seed of the default range(100_000): the games' luck (the confirmation plays
# seeds after the search's and the re-check's)
U = np.random.default_rng(5).random(100_000)
STEP_NOISE = np.random.default_rng(6).normal(0, 8, 100_000)


def two_targets(point, seeds):
    """NPC win rate a / 10; mean length 5 b steps (noisy per game)."""
    return {"npc_win": (U[seeds] < point["a"] / 10).astype(float),
            "steps": 5.0 * point["b"] + STEP_NOISE[seeds]}  # fmt: skip


KNOBS = {"a": (0.0, 10.0), "b": (0, 30)}


def test_two_targets_found_in_the_known_region_and_confirmed_on_fresh_seeds():
    t = tune_many(None, KNOBS, ["npc_win=0.5±0.05", "steps=40:60"], budget=80, games=400,
                  fresh=2000, response=two_targets, progress=False)  # fmt: skip
    assert t.met
    # the feasible region: 4.5 <= a <= 5.5 and 8 <= b <= 12 (true rates, not estimates)
    assert 4.5 <= t.best["a"] <= 5.5
    assert isinstance(t.best["b"], int) and 8 <= t.best["b"] <= 12
    assert t.trials["b"].map(lambda v: float(v).is_integer()).all()
    rechecked = t.checked[t.checked["stage"] == "recheck"]
    assert t.best["trial"] == rechecked.sort_values(["score", "trial"]).iloc[0]["trial"]
    row = t.confirmation()
    # confirmed on the seeds after the search's 400 and the re-check's 2000
    confirm = np.arange(2400, 2400 + t.confirm_games)
    assert t.confirm_games >= 2000 and t.checked["stage"].tolist()[-1] == "confirm"
    assert row["est:npc_win"] == pytest.approx(np.mean(U[confirm] < t.best["a"] / 10))
    assert row["lo:npc_win"] <= row["est:npc_win"] <= row["hi:npc_win"]
    assert row["lo:npc_win"] < t.best["a"] / 10 < row["hi:npc_win"]  # truth inside its interval
    assert 0.45 <= row["lo:npc_win"] and row["hi:npc_win"] <= 0.55  # met: inside the band
    assert len(t.trials) == 80
    assert t.games == 80 * 400 + len(rechecked) * 2000 + t.confirm_games
    assert "the NPC side wins 45–55 % of games" in t.summary()
    assert "meets every target: each 95 % interval lies inside its band on " in t.summary()


def test_met_only_when_the_confirmation_interval_lies_inside_the_band():
    # 49.5-50.5 %: 20 000 games give an interval of about ±0.7 %, wider than the band, so no
    # candidate can be confirmed within confirm=20_000 games, whatever the fresh games said;
    # the summary says the budget was too small and how many games the fresh estimate suggests
    def wins(point, seeds):
        return {"npc_win": (U[seeds] < point["a"] / 10).astype(float)}

    t = tune_many(None, {"a": (0.0, 10.0)}, ["npc_win=0.5±0.005"], budget=40, games=400,
                  fresh=4000, confirm=20_000, recheck=5, response=wins,
                  progress=False)  # fmt: skip
    fresh = np.arange(400, 4400)
    rechecked = t.checked[t.checked["stage"] == "recheck"]
    for _, r in rechecked.iterrows():  # the choice's estimates are the fresh seeds' own
        assert r["est:npc_win"] == pytest.approx(np.mean(U[fresh] < r["a"] / 10))
    assert rechecked["est:npc_win"].between(0.495, 0.505).any()  # some looked in band there
    row = t.confirmation()
    assert not t.met and t.confirm_games == 20_000 and not row["met"]
    assert row["hi:npc_win"] - row["lo:npc_win"] > 0.01  # wider than the band
    confirm = np.arange(4400, 24_400)
    assert row["est:npc_win"] == pytest.approx(np.mean(U[confirm] < t.best["a"] / 10))
    assert t.confirm_needed > 20_000
    assert (f"20000 confirmation games were too few to settle it: the fresh games suggest about "
            f"{int(t.confirm_needed)}.") in t.summary()  # fmt: skip


def test_conflicting_targets_give_the_pareto_front_and_no_false_met():
    def coupled(point, seeds):  # winning needs long games: a >= 8 means >= 80 steps
        return {"npc_win": (U[seeds] < point["a"] / 10).astype(float),
                "steps": 10.0 * point["a"] + 0 * seeds}  # fmt: skip

    t = tune_many(
        None,
        {"a": (0.0, 10.0)},
        ["npc_win>=0.8", "steps<=50"],
        budget=40,
        games=300,
        fresh=500,
        sampler="nsga2",
        response=coupled,
        progress=False,
    )
    assert not t.met
    assert not t.trials["feasible"].any()
    front = t.trials[t.trials["front"]]
    assert len(front) >= 2 and len(t.checked) >= 1
    # on the front every trial trades one miss for the other: between a = 5 and a = 8 or so
    assert ((front["a"] > 4.5) & (front["a"] < 8.5)).all()
    assert "is the closest found and is not shown to meet every target" in t.summary()
    assert "too few" not in t.summary()  # its fresh estimates lay outside a band: no size helps


def test_resumes_from_its_study_file(tmp_path):
    args = dict(budget=12, games=100, fresh=200, response=two_targets, progress=False, batch=4)
    first = tune_many(None, KNOBS, ["npc_win=0.5±0.05", "steps=40:60"], out=tmp_path, **args)
    assert (tmp_path / "study.journal").exists()
    more = tune_many(None, KNOBS, ["npc_win=0.5±0.05", "steps=40:60"], out=tmp_path,
                     **{**args, "budget": 20})  # fmt: skip
    assert len(more.trials) == 20
    assert more.trials.head(12)[["a", "b"]].equals(first.trials[["a", "b"]])
    replayed = (len(more.checked) - 1) * 200 + more.confirm_games  # re-check and confirmation
    assert more.games < 20 * 100 + replayed  # the 12 trials were not replayed
    with pytest.raises(SweepError, match="targets differs"):
        tune_many(None, KNOBS, ["npc_win=0.6±0.05"], out=tmp_path, **args)


def test_a_second_process_on_the_same_study_folder_is_refused(tmp_path):
    from labkit.encounter.sim.sweep_folder import hold

    args = dict(budget=12, games=100, fresh=200, response=two_targets, progress=False, batch=4)
    with hold(tmp_path):  # flock: a second open file description conflicts like another process
        with pytest.raises(SweepError, match="another process is running a sweep"):
            tune_many(None, KNOBS, ["npc_win=0.5±0.05"], out=tmp_path, **args)
        assert not (tmp_path / "tune_many.json").exists()  # refused before the manifest
    assert len(tune_many(None, KNOBS, ["npc_win=0.5±0.05"], out=tmp_path, **args).trials) == 12
    assert (tmp_path / ".lock").read_text().startswith("a tune (process ")  # told to the next


def test_real_games_whole_number_knob():
    with ThreadPoolExecutor(1) as pool:
        t = tune_many(SimulationSettings(), {"/characters/monster/life": (2, 9)},
                      ["npc_win=0.5±0.1"], budget=6, games=30, fresh=40, recheck=2,
                      executor=pool, progress=False)  # fmt: skip
    assert (
        t.trials["/characters/monster/life"].map(lambda v: isinstance(v, (int, np.integer))).all()
    )
    assert t.best is not None and isinstance(t.best["/characters/monster/life"], int)
    assert "monster life (wounds it takes) = " in t.summary()


def test_targets_parse_and_say_themselves():
    assert parse_target("npc_win=0.5±0.02") == Target("npc_win", 0.48, 0.52)
    assert parse_target("npc_win=0.5+-0.02") == Target("npc_win", 0.48, 0.52)
    assert parse_target("steps=60:90") == Target("steps", 60, 90)
    assert parse_target("step_limit<0.05") == Target("step_limit", high=0.05)
    t = parse_target("steps>40")
    assert (t.low, t.high) == (40, math.inf) and parse_target(t.to_text()) == t
    assert (
        parse_target("step_limit<0.05").sentence()
        == "fewer than 5 % of games end at the step limit"
    )
    assert Target("steps", 60, 90).miss(95) == 5 and Target("steps", 60, 90).miss(70) == 0
    for bad in ("npc_win=0.5", "npc_win=0.5±-1", "wins<3", "steps"):
        with pytest.raises(ArgumentError, match="targets"):
            parse_target(bad)


def test_pareto_front_and_bad_arguments():
    assert pareto_front(np.array([[1, 1], [1, 1], [0, 3]])).tolist() == [True, True, True]
    assert pareto_front(np.array([[1, 1], [2, 2]])).tolist() == [True, False]
    with pytest.raises(ArgumentError, match="sampler"):
        tune_many(None, KNOBS, ["steps=1:2"], sampler="grid", response=two_targets)
    with pytest.raises(ArgumentError, match="one target per outcome"):
        tune_many(None, KNOBS, ["steps=1:2", "steps<9"], response=two_targets)
    with pytest.raises(ArgumentError, match="seeds"):
        tune_many(None, KNOBS, ["steps=1:2"], seeds=range(10), response=two_targets)


def test_refinement_learns_from_a_failed_recheck_and_confirms_on_unseen_seeds():
    # the NPC side wins a / 40 of games (a whole: only a = 20 gives 48-52 %), length 5 b. The
    # search's 200 seeds are lucky (their uniforms squeezed to [0, 0.8): a / 32 there), so the
    # search settles near a = 16 and the re-check on fresh seeds fails it (40 %); the refinement
    # on those fresh seeds must walk to a = 20, and the confirmation seeds must hold it
    luck = np.random.default_rng(9).random(100_000)
    luck[:200] *= 0.8

    def biased(point, seeds):
        return {"npc_win": (luck[seeds] < point["a"] / 40).astype(float),
                "steps": 5.0 * point["b"] + 0 * seeds}  # fmt: skip

    t = tune_many(None, {"a": (0, 40), "b": (0, 30)}, ["npc_win=0.5±0.02", "steps=40:60"],
                  budget=60, refine=20, games=200, fresh=2000, recheck=3, response=biased,
                  progress=False)  # fmt: skip
    rechecked = t.checked[t.checked["stage"] == "recheck"]
    assert not rechecked["met"].any()  # the winner's curse, caught
    assert (rechecked["a"] < 19).all()
    assert t.refined is not None and len(t.trials) + len(t.refined) <= 60
    assert t.met and t.best["a"] == 20 and 8 <= t.best["b"] <= 12
    # the refinement's best point is the one confirmed: its trial number is a refinement's
    assert t.best["trial"] in t.refined["trial"].tolist()
    assert t.checked["stage"].tolist().count("confirm") == 1
    row = t.confirmation()
    # seeds neither the search nor the refinement played, as many as the fresh games asked for
    confirm = np.arange(2200, 2200 + t.confirm_games)
    assert t.confirm_games == max(2000, math.ceil(t.confirm_needed))
    assert row["est:npc_win"] == pytest.approx(np.mean(luck[confirm] < 0.5))
    assert 0.48 <= row["lo:npc_win"] < 0.5 < row["hi:npc_win"] <= 0.52
    assert "refinement trials" in t.summary() and "confirmation games" in t.summary()
