"""Multi-target tuning, rule by rule and exactly (sim/tune_many.py): the checks, the seed
split, the score, the Pareto front, the trial table, the re-check's candidates and verdicts, the
sentence. Responses are made up so that every estimate is known; where Optuna picks the points,
only what does not depend on its choice is checked."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from labkit import ArgumentError
from labkit.encounter.rules.combat import wilson_interval
from labkit.encounter.sim import tune_many as tmm
from labkit.encounter.sim.knobs import GAME_OUTCOMES, Knob
from labkit.encounter.sim.targets import Target, parse_target
from labkit.encounter.sim.tune_many import TunedMany, pareto_front, tune_many


def msg(call, *args, **kw):
    with pytest.raises(ArgumentError) as info:
        call(*args, **kw)
    return str(info.value)


class Spy:
    """steps = 5 b exactly, NPC win on the seeds whose last digit is below a."""

    def __init__(self):
        self.calls = []

    def __call__(self, point, seeds):
        self.calls.append((dict(point), np.asarray(seeds).tolist()))
        return {"steps": 5.0 * point["b"] + 0 * seeds,
                "npc_win": (np.asarray(seeds) % 10 < point.get("a", 0)).astype(float)}  # fmt: skip


KNOBS = {"b": (0, 30)}


def run(knobs=KNOBS, targets=("steps=40:60",), **kw):
    args = dict(budget=8, games=10, fresh=20, batch=4, response=Spy(), progress=False)
    args.update(kw)
    return tune_many(None, knobs, targets if isinstance(targets, str) else list(targets), **args)


# -- checks -------------------------------------------------------------------------------------


def test_argument_errors():
    r = Spy()
    ok = dict(budget=8, games=10, fresh=20, response=r, progress=False)

    def m(targets=("steps=40:60",), **kw):
        return msg(tune_many, None, KNOBS, list(targets), **{**ok, **kw})

    assert m(targets=[]) == "targets: names no target (got [])"
    assert m(targets=["steps=1:2", "steps<9"]) == (
        "targets: one target per outcome (got ['steps', 'steps'])")  # fmt: skip
    for bad in (0, True, 1.5):
        assert m(enough=bad) == f"enough: must be an integer >= 1 or None (got {bad!r})"
    for name, lo in (("budget", 1), ("games", 2), ("fresh", 2), ("confirm", 2), ("recheck", 1),
                     ("batch", 1), ("refine", 0)):  # fmt: skip
        assert m(**{name: lo - 1}) == f"{name}: must be an integer >= {lo} (got {lo - 1})"
        assert m(**{name: True}) == f"{name}: must be an integer >= {lo} (got True)"
        assert m(**{name: float(lo)}) == f"{name}: must be an integer >= {lo} (got {float(lo)})"
    assert m(sampler="grid") == "sampler: must be 'tpe' or 'nsga2' (got 'grid')"
    assert m(refine=8) == "refine: must leave trials of budget=8 to the search (got 8)"
    # search 10, fresh 20 and a confirmation of at least min(fresh, confirm) games
    assert m(seeds=range(49)) == (
        "seeds: needs 50 distinct seeds (search, fresh, confirmation) (got 49)")  # fmt: skip
    assert m(seeds=range(44), refine=2, confirm=15) == (
        "seeds: needs 45 distinct seeds (search, fresh, confirmation) (got 44)")  # fmt: skip
    assert m(seeds=[1] * 60) == (
        "seeds: needs 50 distinct seeds (search, fresh, confirmation) (got 60)")  # fmt: skip
    assert r.calls == []  # nothing played
    # the edges that are allowed
    run(seeds=range(6), budget=1, games=2, fresh=2, confirm=2, recheck=1, batch=1, refine=0,
        enough=1)  # fmt: skip
    run(targets="steps=40:60")  # one target as a string


# -- pieces -------------------------------------------------------------------------------------


def test_pareto_front_by_hand():
    assert pareto_front(np.array([[0, 2], [1, 1], [2, 0], [2, 2]])).tolist() == [
        True, True, True, False]  # fmt: skip
    assert pareto_front(np.array([[1, 1], [1, 1], [0, 3]])).tolist() == [True, True, True]
    assert pareto_front(np.array([[1, 1], [1, 2]])).tolist() == [True, False]  # smaller once
    assert pareto_front(np.array([[1.0], [0.5], [0.5]])).tolist() == [False, True, True]
    assert pareto_front(np.zeros((0, 2))).tolist() == []


def test_the_score_adds_scaled_misses_and_prefers_depth_once_all_are_met():
    steps, win = Target("steps", 40, 60), parse_target("npc_win=0.5±0.05")
    # steps 70: miss 10 over scale 10; win 0.6: miss 0.05 over 0.05
    total, misses = tmm._score([steps, win], {"steps": 70.0, "npc_win": 0.6})
    assert misses == pytest.approx([1.0, 1.0]) and total == pytest.approx(2.0)
    total, misses = tmm._score([steps, win], {"steps": 70.0, "npc_win": 0.5})
    assert misses == [1.0, 0.0] and total == 1.0
    # both met: minus the smaller slack (in scales): steps 45 is 5 inside (0.5), win 0.52 is
    # 0.03 inside (0.6)
    total, misses = tmm._score([steps, win], {"steps": 45.0, "npc_win": 0.52})
    assert misses == [0.0, 0.0] and total == pytest.approx(-0.5)


def test_the_seeds_are_split_into_search_fresh_and_confirmation():
    for target, confirm_games in (("steps<=1000", 20), ("steps>=1000", 20)):
        spy = Spy()
        t = run(seeds=range(100, 200), budget=4, response=spy, targets=[target])
        search = [s for p, s in spy.calls[:4]]
        assert search == [list(range(100, 110))] * 4  # every trial plays the same seeds
        rechecks = len(t.checked) - 1
        assert all(s == list(range(110, 130)) for _, s in spy.calls[4 : 4 + rechecks])
        # the confirmation: the seeds after those; a length without luck inside its band needs
        # no more than the fewest (fresh = 20), and one outside its band gets the fewest too
        # (no number of games would make it met: they only state its interval)
        confirmed = [(t.patch(), list(range(130, 130 + confirm_games)))]
        assert spy.calls[4 + rechecks :] == confirmed
        assert (t.search_games, t.fresh_games, t.sampler) == (10, 20, "tpe")
        assert t.confirm_games == confirm_games
        assert t.games == 4 * 10 + rechecks * 20 + confirm_games
    # NPC wins on seeds ending 0-4 (a in 4-4.5): 50 % of every 10 seeds, inside 20-80 % by 0.3;
    # its fresh estimate asks for (3.24 × 0.5 / 0.3)² = 29.2 games: 30 played, at most confirm=
    # and at most the seeds left
    args = dict(budget=4, knobs={"a": (4.0, 4.5), "b": (0, 30)}, targets=["npc_win=0.5±0.3"])
    t = run(seeds=range(100, 200), **args)
    assert t.confirm_needed == pytest.approx((1.959964 + 1.281552) ** 2 * 0.25 / 0.09)
    assert t.confirm_games == 30 and t.met  # 15 of 30: [33 %, 67 %] inside 20-80 %
    assert run(seeds=range(100, 200), confirm=25, **args).confirm_games == 25
    assert run(seeds=range(100, 155), **args).confirm_games == 25  # 55 - 10 - 20 left
    t = run(seeds=range(100, 200), budget=4, targets=["steps>=1000"], confirm=30)
    assert t.confirm_games == 20 and t.confirm_needed == float("inf")


class Study:
    """A finished study as _trial_table reads it."""

    def __init__(self, trials):
        self.trials = trials


def trial(number, state, params, est):
    import optuna

    return type(
        "T",
        (),
        {
            "number": number,
            "state": getattr(optuna.trial.TrialState, state),
            "params": params,
            "user_attrs": {f"est:{o}": v for o, v in est.items()},
        },
    )


def test_the_trial_table():
    import optuna

    ks = [Knob("b", 0, 30, True), Knob("x", 0.0, 1.0, False)]
    ts = [Target("steps", 40, 60), parse_target("npc_win>=0.5")]
    study = Study([
        trial(0, "COMPLETE", {"b": 5.0, "x": 0.1}, {"steps": 25.0, "npc_win": 0.7}),
        trial(1, "FAIL", {"b": 9, "x": 0.2}, {}),
        trial(2, "COMPLETE", {"b": 10, "x": 0.3}, {"steps": 50.0, "npc_win": 0.6}),
        trial(3, "COMPLETE", {"b": 13, "x": 0.4}, {"steps": 65.0, "npc_win": 0.4}),
        trial(4, "COMPLETE", {"b": 14, "x": 0.5}, {"steps": 70.0, "npc_win": 0.4}),
    ])  # fmt: skip
    f = tmm._trial_table(study, ks, ts, optuna)
    assert list(f.columns) == ["trial", "b", "x", "est:steps", "miss:steps", "est:npc_win",
                               "miss:npc_win", "score", "feasible", "front"]  # fmt: skip
    assert f["trial"].tolist() == [0, 2, 3, 4]
    assert f["b"].tolist() == [5, 10, 13, 14] and f["b"].dtype == int  # whole knobs whole
    assert f["x"].tolist() == [0.1, 0.3, 0.4, 0.5]
    assert f["miss:steps"].tolist() == [15.0, 0.0, 5.0, 10.0]
    assert f["miss:npc_win"].tolist() == pytest.approx([0.0, 0.0, 0.1, 0.1])
    # scores: 15/10; met (slack 10/10 and 0.1/0.5: -0.2); 0.5 + 0.1/0.5; 1 + 0.2
    assert f["score"].tolist() == pytest.approx([1.5, -0.2, 0.7, 1.2])
    assert f["feasible"].tolist() == [False, True, False, False]
    assert f["front"].tolist() == [False, True, False, False]  # trial 2 dominates the rest


def test_judge_gives_estimates_intervals_and_verdicts():
    ts = [Target("steps", 40, 60), parse_target("npc_win>=0.5")]
    g = np.zeros((4, len(GAME_OUTCOMES)))
    g[:, GAME_OUTCOMES.index("steps")] = [50, 52, 48, 50]
    g[:, GAME_OUTCOMES.index("npc_win")] = [1, 1, 1, 0]
    (rec,) = tmm._judge(ts, [{"b": 10}], [g], [7], "recheck")
    sd = np.std([50, 52, 48, 50], ddof=1)
    assert rec["trial"] == 7 and rec["stage"] == "recheck" and rec["b"] == 10
    assert rec["est:steps"] == 50.0
    assert rec["lo:steps"] == pytest.approx(50 - 1.96 * sd / 2)
    assert rec["hi:steps"] == pytest.approx(50 + 1.96 * sd / 2)
    # met: the whole interval inside the band (steps: 50 ± 2.3 lies in 40-60)
    assert rec["miss:steps"] == 0.0 and rec["met:steps"] is True
    # a rate's interval is Wilson's (a length's the normal one above)
    assert (rec["lo:npc_win"], rec["hi:npc_win"]) == pytest.approx(wilson_interval(3, 4))
    # the estimate 0.75 lies in the band (no miss), but Wilson's low end for 3 of 4 is 0.30:
    # not met, and so not every target met
    assert rec["est:npc_win"] == 0.75 and rec["miss:npc_win"] == 0.0
    assert rec["met:npc_win"] is False and rec["met"] is False and "sure" not in rec
    assert rec["score"] == pytest.approx(-min(10 / 10, 0.25 / 0.5))  # the score: estimates
    g2 = g.copy()
    g2[:, GAME_OUTCOMES.index("npc_win")] = [1, 0, 0, 0]
    (rec,) = tmm._judge(ts, [{"b": 10}], [g2], [8], "confirm")
    assert rec["met:npc_win"] is False and rec["met"] is False and rec["stage"] == "confirm"
    assert rec["miss:npc_win"] == 0.25 and rec["score"] == pytest.approx(0.5)
    g3 = g.copy()
    g3[:, GAME_OUTCOMES.index("npc_win")] = 1
    (rec,) = tmm._judge([Target("steps", 40, 60)], [{"b": 10}], [g3], [9], "recheck")
    assert rec["met"] is True
    # an interval reaching past the edge is not met (steps 58, 60, 62, 60: 60 ± 1.6)
    g4 = g.copy()
    g4[:, GAME_OUTCOMES.index("steps")] = [58, 60, 62, 60]
    (rec,) = tmm._judge([Target("steps", 40, 60)], [{"b": 12}], [g4], [9], "confirm")
    assert rec["miss:steps"] == 0.0 and rec["met:steps"] is False and rec["met"] is False


def test_pick_the_deepest_inside_else_the_closest():
    ks = [Knob("b", 0, 30, True), Knob("x", 0.0, 1.0, False)]
    assert tmm._pick(ks, pd.DataFrame()) is None
    # scores <= 0: every estimate in its band (the deeper the smaller); > 0: the summed misses
    checked = pd.DataFrame({"trial": [3, 1, 2, 5], "b": [4.0, 5.0, 6.0, 7.0],
                            "x": [0.5, 0.25, 1, 0],
                            "score": [0.5, -0.25, -0.25, 2.0]})  # fmt: skip
    best = tmm._pick(ks, checked)
    # of the two deepest (score -0.25 both), the lower trial number; its whole record
    assert best == {"trial": 1, "b": 5, "x": 0.25, "score": -0.25}
    assert type(best["b"]) is int and type(best["x"]) is float and type(best["trial"]) is int
    best = tmm._pick(ks, checked.assign(score=[0.5, 1.0, 1.0, 2.0]))  # none inside: closest
    assert best == {"trial": 3, "b": 4, "x": 0.5, "score": 0.5}


def test_recheck_replays_distinct_candidates_on_the_fresh_seeds():
    ks = [Knob("b", 0, 30, True)]
    ts = [Target("steps", 40, 60)]
    trials = pd.DataFrame({"trial": [0, 1, 2, 3, 4, 5], "b": [10, 10, 11, 12, 30, 9],
                           "est:steps": [50.0, 49.0, 50.0000001, 52.0, 150.0, 45.0],
                           "score": [-0.8, -0.8, -0.8, -0.6, 9.0, -0.5],
                           "feasible": [True, True, True, True, False, True],
                           "front": [True, True, True, True, True, True]})  # fmt: skip
    played = []

    class Player:
        def play(self, points, seeds):
            played.append((points, [s.tolist() for s in seeds]))
            return [np.tile(np.array([0, 0, 0, 0, 5.0 * p["b"], 0, 0]), (2, 1)) for p in points]

    fresh = np.array([7, 8])
    checked = tmm._recheck(trials, ks, ts, Player(), fresh, 2, pd)
    # feasible ones by score then trial; b = 10 twice is one candidate (whatever a noisy
    # response measured the second time), and trial 2's estimate
    # equals trial 0's to 6 decimals: one candidate; the best two are trials 0 and 3
    assert played == [([{"b": 10}, {"b": 12}], [[7, 8], [7, 8]])]
    assert checked["trial"].tolist() == [0, 3] and checked["stage"].tolist() == ["recheck"] * 2
    assert checked["met"].tolist() == [True, True]  # 50 and 60 without spread: inside
    # nothing feasible: the Pareto front is the pool
    none = trials.assign(feasible=False, front=[False, False, False, False, True, False])
    checked = tmm._recheck(none, ks, ts, Player(), fresh, 5, pd)
    assert checked["trial"].tolist() == [4] and checked["met"].tolist() == [False]


# -- the search ---------------------------------------------------------------------------------


class Bar:
    """A stand-in progress bar that keeps what it was told."""

    made: list = []

    def __init__(self, total, desc, unit):
        self.args, self.updates, self.closed = (total, desc, unit), [], False
        Bar.made.append(self)

    def update(self, k):
        self.updates.append(k)

    def close(self):
        self.closed = True


def test_trials_are_asked_in_batches_and_reported(monkeypatch):
    seen = []
    spy = Spy()
    t = run(budget=10, batch=4, response=spy, progress=lambda done, total: seen.append(
        (done, total)))  # fmt: skip
    assert seen == [(4, 10), (8, 10), (10, 10)] and len(t.trials) == 10
    assert all(isinstance(p["b"], int) and 0 <= p["b"] <= 30 for p, _ in spy.calls)
    import tqdm.auto

    Bar.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    run(budget=6, batch=4, progress=True)
    (bar,) = Bar.made
    assert bar.args == (6, "tune_many", "trial") and bar.updates == [0, 4, 2] and bar.closed


def test_enough_stops_the_search_once_that_many_trials_meet_every_target():
    # every b meets "steps <= 1000": the first batch of 4 is already enough
    t = run(budget=40, batch=4, targets=["steps<=1000"], enough=1)
    assert len(t.trials) == 4 and t.trials["feasible"].all() and t.met
    t = run(budget=40, batch=4, targets=["steps<=1000"], enough=5)
    assert len(t.trials) == 8
    t = run(budget=10, batch=4, targets=["steps>=1000"], enough=1)  # never met: the whole budget
    assert len(t.trials) == 10 and not t.met


def test_the_sampler_and_the_study(monkeypatch):
    import optuna

    from labkit.rng import stream

    made = {}
    real_tpe, real_nsga, real_create = (
        optuna.samplers.TPESampler,
        optuna.samplers.NSGAIISampler,
        optuna.create_study,
    )

    def tpe(**kw):
        made["tpe"] = kw
        return real_tpe(**kw)

    def nsga(**kw):
        made["nsga2"] = kw
        return real_nsga(**kw)

    def create(**kw):
        made.setdefault("studies", []).append(kw["directions"])
        return real_create(**kw)

    monkeypatch.setattr(optuna.samplers, "TPESampler", tpe)
    monkeypatch.setattr(optuna.samplers, "NSGAIISampler", nsga)
    monkeypatch.setattr(optuna, "create_study", create)
    seed = int(stream(3, "tune_many").integers(2**31))
    run(rng=3, knobs={"a": (0, 9), "b": (0, 30), "c": (0.0, 1.0)},
        targets=["steps=40:60", "npc_win>=0.2"])  # fmt: skip
    assert made["tpe"] == dict(seed=seed, constant_liar=True, multivariate=True,
                               n_startup_trials=15)  # fmt: skip
    run(rng=3)
    assert made["tpe"]["n_startup_trials"] == 10  # at least 10
    run(rng=3, sampler="nsga2", targets=["steps=40:60", "npc_win>=0.2"])
    assert made["nsga2"] == dict(seed=seed)
    assert made["studies"] == [["minimize"], ["minimize"], ["minimize", "minimize"]]


def test_the_table_of_trials_holds_what_each_trial_measured():
    spy = Spy()
    t = run(budget=8, knobs={"a": (0, 9), "b": (0, 30)}, targets=["steps=40:60", "npc_win>=0.2"],
            response=spy)  # fmt: skip
    for _, r in t.trials.iterrows():
        assert r["est:steps"] == 5.0 * r["b"] and r["est:npc_win"] == pytest.approx(r["a"] / 10)
        assert r["feasible"] == (8 <= r["b"] <= 12 and r["a"] >= 2)
    assert list(t.trials.columns[:3]) == ["trial", "a", "b"]


def test_refinement_when_the_choice_cannot_be_confirmed(monkeypatch):
    import labkit.encounter.sim.tune_refine as tr

    seen = {}

    def fake(ks, centre, score, budget, deep):
        seen.update(centre=centre, budget=budget, deep=deep)
        recs = [rec for _, rec in score([{"b": 10}, {"b": 11}])]  # played on the fresh seeds
        return [{**rec, "step": 1} for rec in recs]

    monkeypatch.setattr(tr, "refine", fake)
    spy = Spy()
    # steps >= 1000 never holds: the choice cannot be confirmed, the refinement runs on what is
    # left, and its best point (b = 11: 55 steps, the closer) alone is confirmed on the fewest
    # seeds after the fresh ones (its estimate lies outside the band: no size would do)
    t = run(budget=8, refine=3, recheck=2, targets=["steps>=1000"], seeds=range(70),
            response=spy)  # fmt: skip
    # refine stops once its centre is half a band's half-width deep (-0.5): the depth that
    # needs no refinement
    assert len(t.trials) == 5 and seen["budget"] == 3 and seen["deep"] == -0.5
    rechecked = t.checked[t.checked["stage"] == "recheck"]
    chosen = rechecked.sort_values(["score", "trial"]).iloc[0]
    assert seen["centre"] == {"b": chosen["b"]}
    first = int(t.trials["trial"].max()) + 1
    assert t.refined["trial"].tolist() == [first, first + 1]
    assert t.refined["stage"].tolist() == ["refine", "refine"]
    assert spy.calls[-3:-1] == [({"b": 10}, list(range(10, 30))), ({"b": 11}, list(range(10, 30)))]
    assert spy.calls[-1] == ({"b": 11}, list(range(30, 50)))
    assert t.checked["stage"].tolist() == ["recheck"] * len(rechecked) + ["confirm"]
    assert t.best == {"trial": first + 1, "b": 11} and t.met is False
    assert t.confirm_games == 20 and t.checked.index.tolist() == list(range(len(t.checked)))
    # no refinement when the choice can be confirmed (a length without luck inside its band)
    seen.clear()
    t = run(budget=8, refine=3, targets=["steps<=1000"], seeds=range(50))
    assert seen == {} and t.refined is None and t.met


# -- what is said -------------------------------------------------------------------------------


def made_up(best=True, met=True, refined=None, needed=5000.0):
    ks = [Knob("/characters/monster/life", 2, 9, True), Knob("x", 0.0, 1.0, False)]
    ts = [parse_target("npc_win=0.5±0.05"), Target("steps", 40, 60)]
    knobs = {"/characters/monster/life": 4, "x": 0.125}
    recheck = {"trial": 3, "stage": "recheck", **knobs,
               "est:npc_win": 0.512, "lo:npc_win": 0.49, "hi:npc_win": 0.534,
               "met:npc_win": True, "est:steps": 59.5, "lo:steps": 58.0, "hi:steps": 61.0,
               "met:steps": False, "met": False}  # fmt: skip
    if met:  # both intervals inside their bands
        confirm = {"est:npc_win": 0.503, "lo:npc_win": 0.493, "hi:npc_win": 0.513,
                   "est:steps": 50.5, "lo:steps": 49.0, "hi:steps": 52.0}  # fmt: skip
    else:  # the win rate's interval crosses 55 %, the length's lies above 60
        confirm = {"est:npc_win": 0.546, "lo:npc_win": 0.536, "hi:npc_win": 0.556,
                   "est:steps": 61.25, "lo:steps": 60.5, "hi:steps": 62.0}  # fmt: skip
    confirm = {**recheck, **confirm, "stage": "confirm", "met:npc_win": met, "met:steps": met,
               "met": met}  # fmt: skip
    checked = pd.DataFrame([recheck, confirm])
    b = {"trial": 3, **knobs} if best else None
    trials = pd.DataFrame({"trial": range(7)})
    return TunedMany(ks, ts, trials, checked, b, met, 5000, 400, 2000, "tpe", refined,
                     2000, needed)  # fmt: skip


def test_the_summary_in_designer_words():
    assert made_up().summary() == (
        "Targets: the NPC side wins 45–55 % of games; a game lasts 40–60 steps on average. 7 "
        "trials on 400 paired seeds, the best re-played on 2000 fresh seeds to choose one. "
        "monster life (wounds it takes) = 4, x = 0.125 meets every target: each 95 % interval "
        "lies inside its band on 2000 confirmation games no choice has seen (the NPC side wins "
        "50.3 % [49.3 %, 51.3 %] met; a game lasts 50.5 [49.0, 52.0] steps met; 5000 games in "
        "all)."
    )
    closest = made_up(met=False).summary()
    # 2000 games were played and the fresh games suggested 5000: the budget was too small
    assert closest.endswith(
        "x = 0.125 is the closest found and is not shown to meet every target: not every 95 % "
        "interval lies inside its band on 2000 confirmation games no choice has seen (the NPC "
        "side wins 54.6 % [53.6 %, 55.6 %] unsure; a game lasts 61.2 [60.5, 62.0] steps NOT "
        "met; 5000 games in all). 2000 confirmation games were too few to settle it: the fresh "
        "games suggest about 5000."
    )
    # a fresh estimate outside its band (inf) or a confirmation as large as asked for: no
    # word about the budget
    for needed in (float("inf"), 2000.0):
        assert made_up(met=False, needed=needed).summary().endswith("5000 games in all).")
    assert made_up(best=False).summary() == (
        "Targets: the NPC side wins 45–55 % of games; a game lasts 40–60 steps on average. 7 "
        "trials on 400 paired seeds; no candidate to re-check."
    )
    refined = made_up(refined=pd.DataFrame({"trial": [1, 2]})).summary()
    assert (
        "7 trials on 400 paired seeds, the best re-played on 2000 fresh seeds, then 2 "
        "refinement trials around the closest on them to choose one. "
    ) in refined
    t = made_up()
    assert t.confirmation()["stage"] == "confirm" and made_up(best=False).confirmation() is None
    assert repr(t) == f"TunedMany({t.summary()})"
    assert t.patch() == {"/characters/monster/life": 4, "x": 0.125}
    assert made_up(best=False).patch() == {}


# -- defaults, the base and the study folder (issue 32: each was free to change) ----------------


def test_the_defaults(monkeypatch):
    # the documented defaults: 300 trials asked 4 at a time on the search seeds 0..399, up to 5
    # candidates re-checked on the next 2000 seeds, a progress bar, the sampler seeded by rng=0
    import tqdm.auto

    Bar.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    spy = Spy()
    t = tune_many(None, KNOBS, ["steps<=1000"], response=spy)  # every trial meets it
    (bar,) = Bar.made
    assert bar.args == (300, "tune_many", "trial") and bar.updates == [0] + [4] * 75
    assert len(t.trials) == 300 and (t.search_games, t.fresh_games) == (400, 2000)
    assert all(s == list(range(400)) for _, s in spy.calls[:300])
    rechecks, confirm = spy.calls[300:-1], spy.calls[-1]
    assert len(rechecks) == 5 == len(t.checked) - 1 and t.refined is None
    assert all(s == list(range(400, 2400)) for _, s in rechecks)
    # a length without luck needs no more than the fewest confirmation games: fresh = 2000
    assert confirm[1] == list(range(2400, 4400)) and t.confirm_games == 2000
    again = tune_many(None, KNOBS, ["steps<=1000"], response=Spy(), rng=0, progress=False)
    assert again.trials["b"].tolist() == t.trials["b"].tolist()


def test_knobs_are_checked_against_the_base_unless_a_response_plays_the_games():
    from labkit.encounter import SimulationSettings

    spy = Spy()
    with pytest.raises(ArgumentError, match=r"^knobs\['b'\]: not a settings field \(npcs, "):
        tune_many(SimulationSettings(), KNOBS, ["steps=40:60"], budget=2, games=2, fresh=2,
                  progress=False)  # fmt: skip
    # with a response the base is ignored: a knob that is no settings field is fine
    t = tune_many(SimulationSettings(), KNOBS, ["steps=40:60"], budget=2, games=2, fresh=2,
                  response=spy, progress=False)  # fmt: skip
    assert len(t.trials) == 2 and spy.calls


def test_the_study_folder_holds_its_manifest_and_a_named_study(tmp_path, monkeypatch):
    import json

    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    from labkit.encounter.sim.sweep import SweepError

    made = {}
    real_tpe, real_nsga, real_create = (
        optuna.samplers.TPESampler,
        optuna.samplers.NSGAIISampler,
        optuna.create_study,
    )

    def sampler(real):
        def make(**kw):
            made["sampler"] = real(**kw)
            return made["sampler"]

        return make

    def create(**kw):
        made["study"] = kw
        return real_create(**kw)

    monkeypatch.setattr(optuna.samplers, "TPESampler", sampler(real_tpe))
    monkeypatch.setattr(optuna.samplers, "NSGAIISampler", sampler(real_nsga))
    monkeypatch.setattr(optuna, "create_study", create)
    two = ["steps=40:60", "npc_win>=0.2"]
    run(targets=two, sampler="nsga2", knobs={"a": (0, 9), "b": (0, 30)}, out=tmp_path)
    kw = made["study"]
    assert kw["sampler"] is made["sampler"] and kw["directions"] == ["minimize", "minimize"]
    assert kw["study_name"] == "tune_many" and kw["load_if_exists"] is True
    manifest = json.loads((tmp_path / "tune_many.json").read_text())
    assert manifest["format"] == "labkit.tune_many" and manifest["targets"] == [
        parse_target(x).to_text() for x in two
    ]
    # the journal is an Optuna study anyone can open by its name
    storage = JournalStorage(JournalFileBackend(str(tmp_path / "study.journal")))
    assert len(optuna.load_study(study_name="tune_many", storage=storage).trials) == 8
    with pytest.raises(SweepError) as info:
        run(targets=["steps=40:61", "npc_win>=0.2"], sampler="nsga2",
            knobs={"a": (0, 9), "b": (0, 30)}, out=tmp_path)  # fmt: skip
    assert str(info.value).startswith(
        f"/targets: {tmp_path} holds a different tune (targets differs); resume it with the "
        "same call or use a new directory"
    )


def test_a_resumed_study_counts_its_feasible_trials_toward_enough(tmp_path):
    run(budget=8, targets=["steps<=1000"], out=tmp_path)  # all 8 trials meet it
    # 8 of 12 wanted are there: one more batch of 4, not 12 more trials
    assert len(run(budget=40, targets=["steps<=1000"], enough=12, out=tmp_path).trials) == 12
    # enough already there: nothing more is asked
    assert len(run(budget=40, targets=["steps<=1000"], enough=12, out=tmp_path).trials) == 12


def test_real_games_go_to_the_callers_executor_under_one_bar_and_the_base_is_recorded(
    tmp_path, monkeypatch
):
    import json
    from concurrent.futures import ThreadPoolExecutor

    import tqdm.auto

    from labkit.encounter import SimulationSettings

    class Counting(ThreadPoolExecutor):
        submitted = 0

        def submit(self, *args, **kw):
            Counting.submitted += 1
            return super().submit(*args, **kw)

    Bar.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    base = SimulationSettings(max_steps=40)
    knobs = {"/characters/monster/life": (2, 9)}
    with Counting(1) as pool:
        t = tune_many(base, knobs, ["npc_win>=0.0"], budget=2, games=2, fresh=2, recheck=1,
                      batch=2, executor=pool, out=tmp_path / "real")  # fmt: skip
    assert Counting.submitted > 0 and t.games > 0
    (bar,) = Bar.made  # the tune's own bar; the games' batches draw none
    assert bar.args[1] == "tune_many"
    manifest = json.loads((tmp_path / "real" / "tune_many.json").read_text())
    assert set(manifest) == {"format", "version", "knobs", "targets", "search_seeds", "sampler",
                             "base", "rng"}  # fmt: skip
    assert manifest["base"] == json.loads(json.dumps(base.to_dict()))
    assert manifest["knobs"] == {"/characters/monster/life": [2, 9]}
    assert manifest["search_seeds"] == [0, 1] and manifest["sampler"] == "tpe"
    # with a response the base plays no part and is not recorded
    tune_many(base, {"b": (0, 30)}, ["steps=40:60"], budget=2, games=2, fresh=2, response=Spy(),
              progress=False, out=tmp_path / "made-up")  # fmt: skip
    assert json.loads((tmp_path / "made-up" / "tune_many.json").read_text())["base"] is None


def test_the_plot_draws_the_trials_on_the_axes_given_in_the_style_given():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    t = run(budget=8, knobs={"a": (0, 9), "b": (0, 30)}, targets=["steps=40:60", "npc_win>=0.2"])
    fig, ax = plt.subplots()
    art = t.plot(ax=ax, colour="#123456")
    assert art["ax"] is ax and len(art["trials"].get_offsets()) == 8
    assert art["trials"].get_facecolors()[0].tolist() == list(to_rgba("#123456"))
    assert ax.get_xlabel() == "miss: a game lasts 40–60 steps on average"
    plt.close(fig)
