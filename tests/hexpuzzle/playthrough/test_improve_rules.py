"""improve_campaign's rules one at a time, on hand-made inputs (module docstring of
``labkit.hexpuzzle.playthrough.improve``): the goals in words, the bands, the shortfall, the
order search's moves and budget, the regeneration step, and each goal's verdict and why."""

from __future__ import annotations

import time
from types import SimpleNamespace as NS

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough import improve
from labkit.hexpuzzle.playthrough.improve import FunnelGoal, _Judge
from labkit.hexpuzzle.playthrough.simulate import Funnel
from labkit.hexpuzzle.playthrough.truth import TrueModel
from labkit.rng import stream


# --- the goals in words --------------------------------------------------------------------
def test_goals_are_described_in_designer_words():
    assert FunnelGoal(reach_last=0.75, max_quit_hazard=0.05, max_band_drop=2).describe() == [
        "at least 75 % reach the last level",
        "no level stops more than 5 % of its players",
        "difficulty never drops by more than 2 bands",
    ]
    assert FunnelGoal(reach_last=None, max_quit_hazard=0.125, max_band_drop=0).describe() == [
        "no level stops more than 12 % of its players",
        "difficulty never drops by more than 0 bands",
    ]
    assert FunnelGoal(reach_last=0.5, max_quit_hazard=None, max_band_drop=None).describe() == [
        "at least 50 % reach the last level"
    ]
    assert FunnelGoal(None, None, None).describe() == []


# --- bands and how far difficulty falls back ------------------------------------------------
class _Success:
    """A model that answers only an average player's first-try success, by level id."""

    def __init__(self, success: dict[str, float]) -> None:
        self.s = success
        self.calls: list[tuple[str, float]] = []

    def success(self, level, ability):
        lid = level if isinstance(level, str) else level.id
        self.calls.append((lid, ability))
        # improve judges bands and regeneration by an average player's chance
        assert type(ability) is float and ability == 0.0, ability
        return self.s[lid]


def test_bands_follow_the_first_try_success_of_an_average_player():
    # easy above 85 %, intermediate above 65 %, hard above 45 %, challenge at or below
    # (a success exactly at a band target is the harder band, as calibrated scores 30/50/70 are)
    s = {"a": 0.99, "b": 0.86, "c": 0.85, "d": 0.66, "e": 0.65, "f": 0.46, "g": 0.45, "h": 0.01}
    model = _Success(s)
    assert improve._bands(model, list(s)).tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [lid for lid, _ in model.calls] == list(s)
    np.testing.assert_array_equal(improve._success(model, ["c", "h"]), [0.85, 0.01])


def test_falls_sum_and_drops_take_the_largest_step_back():
    b = np.array([0, 2, 1, 3, 0, 0, 2])
    assert improve._falls(b) == 4.0  # 2 -> 1 and 3 -> 0
    assert improve._drops(b) == 3
    assert improve._drops(np.array([0, 1, 2, 3])) == 0 == improve._falls(np.array([0, 1, 2, 3]))
    assert improve._drops(np.array([3])) == 0 and improve._falls(np.array([3])) == 0.0
    assert isinstance(improve._drops(b), int) and isinstance(improve._falls(b), float)


# --- the shortfall --------------------------------------------------------------------------
def test_shortfall_is_hazard_above_the_goal_plus_five_times_the_missing_reach():
    m = {"quit_hazard": np.array([0.05, 0.25, 0.12, np.nan]), "reach": np.array([1, 0.9, 0.6, 0.4])}
    goal = FunnelGoal(reach_last=0.6, max_quit_hazard=0.1)
    want = (0.15 + 0.02) + 5 * 0.2 + 2e-3 * 3 - 1e-3 * 0.4
    assert _Judge.shortfall(None, m, goal, 3.0) == pytest.approx(want, abs=1e-12)
    assert _Judge.shortfall(None, m, goal) == pytest.approx(want - 6e-3, abs=1e-12)
    # a goal not asked for costs nothing; the tie-breaks stay
    assert _Judge.shortfall(None, m, FunnelGoal(None, None), 1.0) == pytest.approx(2e-3 - 4e-4)
    # reach above the goal is no credit beyond the tie-break
    m2 = {"quit_hazard": np.array([0.0, 0.0]), "reach": np.array([1.0, 0.9])}
    assert _Judge.shortfall(None, m2, FunnelGoal(0.6, 0.1)) == pytest.approx(-9e-4)


def test_the_judge_plays_one_fixed_cohort_and_a_floor_where_every_level_is_won():
    truth = TrueModel([1.0, 0.0, -1.0], quit={"baseline": -1.0, "won": -2.0})
    judge = _Judge(truth, ["L01", "L02", "L03"], 800, 5)
    a = judge.measure(judge.tables([2, 1, 0]))
    # the cohort is the seed's stream "judge" (the docstring of improve_campaign)
    from labkit.hexpuzzle.playthrough.simulate import counts, measures

    t = judge.tables([2, 1, 0])
    want = measures(counts(t, 800, stream(5, "judge")), 800, t)
    np.testing.assert_array_equal(a["reach"], want["reach"])
    np.testing.assert_array_equal(a["quit_hazard"], want["quit_hazard"])
    b = judge.measure(judge.tables([2, 1, 0]))
    np.testing.assert_array_equal(a["reach"], b["reach"])  # the same players every time
    assert a["reach"][0] == 1.0
    # the floor: every level won at the first try, so only the winners' stop chance is left
    p = 1 / (1 + np.exp(3.0))
    np.testing.assert_allclose(judge.floor["first_try"], 1.0)
    np.testing.assert_allclose(judge.floor["reach"], [1, 1 - p, (1 - p) ** 2], atol=0.03)
    assert judge.players == 800 and judge.seed == 5


# --- the order search -----------------------------------------------------------------------
class _Orders:
    """A judge whose measure is the order itself and whose shortfall is a given function."""

    def __init__(self, cost):
        self.cost, self.seen, self.falls = cost, [], []

    def tables(self, order):
        return list(order)

    def measure(self, tables):
        self.seen.append(tuple(tables))
        return tables

    def shortfall(self, m, goal, falls=0.0):
        self.falls.append(falls)
        return self.cost(m)


FAR = 1e12  # a deadline that never comes


def test_search_tries_every_move_then_every_swap_from_the_best_so_far():
    judge = _Orders(lambda o: 1.0)  # nothing helps: one full pass, then stop
    goal = FunnelGoal(max_band_drop=None)
    best = improve._search(judge, np.zeros(3, int), goal, [0, 1, 2], time.monotonic() + FAR)
    assert best == [0, 1, 2]
    assert judge.seen == [
        (0, 1, 2),  # the start
        (1, 0, 2), (1, 0, 2),  # i=0, j=1: move, swap
        (1, 2, 0), (2, 1, 0),  # i=0, j=2
        (1, 0, 2), (1, 0, 2),  # i=1, j=0
        (0, 2, 1), (0, 2, 1),  # i=1, j=2
        (2, 0, 1), (2, 1, 0),  # i=2, j=0
        (0, 2, 1), (0, 2, 1),  # i=2, j=1
    ]  # fmt: skip


def test_search_keeps_improving_until_no_move_helps():
    target = [3, 0, 4, 1, 2]
    judge = _Orders(lambda o: sum(a != b for a, b in zip(o, target)))
    goal = FunnelGoal(max_band_drop=None)
    best = improve._search(judge, np.zeros(5, int), goal, [0, 1, 2, 3, 4], time.monotonic() + FAR)
    assert best == target
    # a tie is not a gain: the last pass judges every candidate once more and stops
    assert judge.seen[-1] == (3, 0, 4, 2, 1)
    passes = (len(judge.seen) - 1) / (5 * 4 * 2)
    assert passes == int(passes) and passes >= 2  # a pass that helped is followed by another


def test_search_never_judges_or_returns_an_order_that_breaks_the_band_rule():
    bands = np.array([0, 3, 1])  # levels' bands; the start 0, 1, 2 drops 3 -> 1 = 2 bands
    judge = _Orders(lambda o: -10.0 if o == [1, 0, 2] else float(o[0]))  # [1,0,2]: drops 3 -> 0
    goal = FunnelGoal(max_band_drop=1)
    best = improve._search(judge, bands, goal, [0, 2, 1], time.monotonic() + FAR)
    assert all(improve._drops(bands[list(o)]) <= 1 for o in judge.seen)
    assert (1, 0, 2) not in judge.seen and best == [0, 2, 1]
    # with no band rule the cheapest order wins
    judge = _Orders(lambda o: -10.0 if o == [1, 0, 2] else float(o[0]))
    best = improve._search(judge, bands, FunnelGoal(max_band_drop=None), [0, 2, 1],
                           time.monotonic() + FAR)  # fmt: skip
    assert best == [1, 0, 2]


def test_search_hands_the_shortfall_the_bands_lost_of_each_order():
    bands = np.array([2, 0, 1])
    judge = _Orders(lambda o: 1.0)
    improve._search(judge, bands, FunnelGoal(max_band_drop=None), [0, 1, 2],
                    time.monotonic() + FAR)  # fmt: skip
    want = [improve._falls(bands[list(o)]) for o in judge.seen]
    assert judge.falls == want and judge.falls[0] == 2.0 and max(want) == 2.0


def test_search_stops_at_its_budget_or_its_deadline():
    judge = _Orders(lambda o: 1.0)
    goal = FunnelGoal(max_band_drop=None)
    for budget in (4, 5):  # exact, also when it falls between a move and its swap
        judge = _Orders(lambda o: 1.0)
        best = improve._search(judge, np.zeros(4, int), goal, [0, 1, 2, 3],
                               time.monotonic() + FAR, evaluations=budget)  # fmt: skip
        assert best == [0, 1, 2, 3] and len(judge.seen) == budget
    judge = _Orders(lambda o: -o[0])  # every move of a larger level to the front helps
    assert improve._search(judge, np.zeros(4, int), goal, [0, 1, 2, 3], time.monotonic() - 1) == [
        0, 1, 2, 3]  # fmt: skip
    assert judge.seen == [(0, 1, 2, 3)]  # past its deadline: the start, judged once


def test_start_cost_refuses_a_start_that_breaks_the_band_rule():
    bands = np.array([0, 3])
    judge = _Orders(lambda o: 0.5)
    assert improve._start_cost(judge, bands, FunnelGoal(max_band_drop=2), [1, 0]) == np.inf
    assert judge.seen == []
    assert improve._start_cost(judge, bands, FunnelGoal(max_band_drop=3), [1, 0]) == 0.5
    assert improve._start_cost(judge, bands, FunnelGoal(max_band_drop=None), [1, 0]) == 0.5
    assert judge.falls == [3.0, 3.0]


def test_moves_name_every_level_that_changed_place_in_play_order():
    old = [NS(id="A"), NS(id="B"), NS(id="C"), NS(id="D")]
    new = [old[2], old[0], old[1], old[3]]
    assert improve._moves(old, new) == [
        "moved C from position 3 to 1",
        "moved A from position 1 to 2",
        "moved B from position 2 to 3",
    ]
    assert improve._moves(["A", "B"], ["A", "B"]) == []
    assert improve._moves(["A", "B"], ["B-easier", "A"]) == ["moved A from position 1 to 2"]


# --- regeneration ---------------------------------------------------------------------------
def _reach(hazard):
    h = np.nan_to_num(np.asarray(hazard, float))
    return np.concatenate([[1.0], np.cumprod(1 - h)[:-1]])


class _Hazards:
    """A judge whose funnel is a fixed quit hazard per level id (reach follows from it)."""

    made: list = []

    def __init__(self, model, levels, players, seed):
        self.model, self.levels, self.players, self.seed = model, list(levels), players, seed
        _Hazards.made.append(self)

    def tables(self, order):
        return [self.levels[i] for i in order]

    def measure(self, tables):
        h = np.array([HAZARD[lv.id] for lv in tables])
        reach = np.array([REACH[lv.id] for lv in tables]) if REACH else _reach(h)
        return {"quit_hazard": h, "reach": reach}

    shortfall = _Judge.shortfall


HAZARD: dict[str, float] = {}
REACH: dict[str, float] = {}  # when set, reach by level id instead of from the hazards


@pytest.fixture
def regen(monkeypatch):
    """Levels A-F with hand-set hazards; a generator that records its calls and makes
    ``<id>-easier`` at the asked success, with the hazard the test put in ``easier``."""
    import labkit.hexpuzzle.solving.targets as targets

    HAZARD.clear()
    REACH.clear()
    HAZARD.update({"A": 0.05, "B": 0.20, "C": 0.05, "D": 0.30, "E": 0.25, "F": 0.0})
    # lost = reach * hazard: D 0.217, B 0.19, E 0.126 (hazard order D, E, B; place order B, D, E)
    success = {"A": 0.9, "B": 0.5, "C": 0.8, "D": 0.6, "E": 0.3, "F": 0.4}
    model = _Success(success)
    calls, easier = [], {}

    def generate(rng, *, success, model, time_limit, id, name):
        calls.append({"rng": rng, "success": success, "time_limit": time_limit, "id": id,
                      "name": name, "model": model})  # fmt: skip
        old = id.removesuffix("-easier")
        if isinstance(easier.get(old), Exception):
            raise easier[old]
        HAZARD[id] = easier.get(old, HAZARD[old] / 4)
        if REACH:
            REACH[id] = REACH[old]
        model.s[id] = success
        return NS(id=id, name=name)

    monkeypatch.setattr(targets, "generate_to_target", generate)
    monkeypatch.setattr(improve, "_Judge", _Hazards)
    _Hazards.made.clear()
    levels = [NS(id=k, name=f"level {k}") for k in "ABCDEF"]
    judge = NS(players=321, seed=77)
    return NS(levels=levels, model=model, calls=calls, easier=easier, judge=judge)


G = FunnelGoal(reach_last=None, max_quit_hazard=0.1, max_band_drop=None)


def _run(r, goal, n=4):
    out, notes = improve._regenerate(r.levels, r.model, goal, r.judge, n, r.judge.seed)
    return [lv.id for lv in out], notes


def test_regeneration_replaces_the_levels_that_lose_most_players_worst_first(regen):
    ids, notes = _run(regen, G, n=2)
    assert [c["id"] for c in regen.calls] == ["D-easier", "B-easier"]  # E would be third
    assert ids == ["A", "B-easier", "C", "D-easier", "E", "F"]
    assert notes == [
        "regenerated D at position 4: first-try success of an average player 60% -> 75%",
        "regenerated B at position 2: first-try success of an average player 50% -> 65%",
    ]
    c = regen.calls[0]
    assert c["success"] == pytest.approx(0.75) and c["time_limit"] == 5.0
    assert c["name"] == "level D" and c["model"] is regen.model
    # each level's generator draws from its own named stream of the seed
    assert c["rng"].random() == stream(77, "regenerate/3").random()
    assert regen.calls[1]["rng"].random() == stream(77, "regenerate/1").random()
    # judged on the same players, seed and model as the search
    assert {(j.players, j.seed) for j in _Hazards.made} == {(321, 77)}
    assert all(j.model is regen.model for j in _Hazards.made)
    assert [lv.id for lv in _Hazards.made[0].levels] == list("ABCDEF")
    assert [lv.id for lv in _Hazards.made[-1].levels] == ["A", "B-easier", "C", "D-easier",
                                                          "E", "F"]  # fmt: skip


def test_regeneration_tries_only_levels_above_the_hazard_goal(regen):
    ids, _ = _run(regen, FunnelGoal(None, 0.22, None))
    assert [c["id"] for c in regen.calls] == ["D-easier", "E-easier"]
    regen.calls.clear()
    ids, _ = _run(regen, FunnelGoal(None, 0.25, None))  # E stops exactly 25 %: not above
    assert [c["id"] for c in regen.calls] == ["D-easier"]
    regen.calls.clear()
    ids, notes = _run(regen, FunnelGoal(None, None, None))
    assert regen.calls == [] and notes == [] and ids == list("ABCDEF")  # no hazard goal: none
    HAZARD["E"] = np.nan  # nobody reached it: nothing to regenerate there
    ids, _ = _run(regen, G, n=6)
    assert [c["id"] for c in regen.calls] == ["D-easier", "B-easier"]


def test_levels_that_lose_as_many_players_are_tried_in_play_order(regen):
    ids = [f"T{i:02d}" for i in range(40)]
    HAZARD.update({lid: 0.3 if i % 2 else 0.2 for i, lid in enumerate(ids)})
    REACH.update(dict.fromkeys(ids, 0.5))
    regen.model.s.update(dict.fromkeys(ids, 0.5))
    regen.levels[:] = [NS(id=i, name=i) for i in ids]
    _run(regen, G, n=40)
    assert [c["id"] for c in regen.calls] == [f"{i}-easier" for i in ids[1::2] + ids[0::2]]


def test_regeneration_asks_for_fifteen_points_more_success_up_to_95_percent(regen):
    regen.model.s.update({"D": 0.85, "B": 0.05})
    _run(regen, G, n=2)
    assert [c["success"] for c in regen.calls] == [pytest.approx(0.95), pytest.approx(0.2)]


def test_a_level_already_won_by_average_players_is_kept(regen):
    regen.model.s["D"] = 0.9
    ids, notes = _run(regen, G, n=2)
    assert notes[0] == ("kept D: average players already win it at the first try (90%); "
                        "its stops come from failures before it")  # fmt: skip
    # it still counts against the limit: only B was tried after it
    assert [c["id"] for c in regen.calls] == ["B-easier"] and "D" in ids


def test_an_easier_level_is_kept_only_for_a_real_gain(regen):
    regen.easier.update({"D": 0.30 - 0.005, "B": 0.20 - 0.02})  # gains of 0.005 and 0.02
    ids, notes = _run(regen, G, n=2)
    assert ids == ["A", "B-easier", "C", "D", "E", "F"]
    assert notes[0] == "kept D: an easier version (success 75%) did not help"
    assert notes[1].startswith("regenerated B at position 2")


def test_regeneration_gains_are_counted_from_the_last_kept_level(regen):
    # D's easier version gains 0.2; B's is worse than B by 0.02, which would still look like a
    # gain if it were compared with the campaign before D was replaced
    regen.easier.update({"D": 0.1, "B": 0.22})
    ids, notes = _run(regen, G, n=2)
    assert ids == ["A", "B", "C", "D-easier", "E", "F"]
    assert notes[1] == "kept B: an easier version (success 65%) did not help"


def test_regeneration_keeps_the_band_rule(regen):
    # C is a challenge level (20 %); D's easier version (95 %) is easy: a fall of 3 bands
    regen.model.s.update({"C": 0.2, "D": 0.85})
    ids, notes = _run(regen, FunnelGoal(None, 0.1, 2), n=1)
    assert ids == list("ABCDEF")
    assert notes == ["kept D: an easier version (success 95%) did not help"]
    regen.calls.clear()
    ids, _ = _run(regen, FunnelGoal(None, 0.1, 3), n=1)
    assert ids[3] == "D-easier"


def test_a_generator_that_fails_is_said_and_the_level_kept(regen):
    from labkit.hexpuzzle.solving.generator import GeneratorError

    regen.easier["D"] = GeneratorError("no level at 75 % within 5 s")
    regen.easier["B"] = ArgumentError("must be below 1", argument="success", value=2)
    ids, notes = _run(regen, G, n=3)
    assert notes[:2] == ["could not regenerate D: no level at 75 % within 5 s",
                         "could not regenerate B: success: must be below 1 (got 2)"]  # fmt: skip
    assert ids == ["A", "B", "C", "D", "E-easier", "F"]
    regen.easier["E"] = ValueError("a bug")  # anything else is not swallowed
    with pytest.raises(ValueError, match="a bug"):
        _run(regen, G, n=3)


def test_regenerating_level_ids_is_refused_in_words(regen):
    ids = list("ABCDEF")
    out, notes = improve._regenerate(ids, regen.model, FunnelGoal(), regen.judge, 4, 1)
    assert out == ids and out is not ids
    assert notes == ["regenerating needs Level objects, not level ids: nothing regenerated"]
    assert regen.calls == []


# --- the verdicts ---------------------------------------------------------------------------
def _funnel(reach, hazard, *, low=None, high=None, ids="ABCD"):
    reach, hazard = np.asarray(reach, float), np.asarray(hazard, float)
    low = reach - 0.05 if low is None else np.asarray(low, float)
    high = reach + 0.05 if high is None else np.asarray(high, float)
    stats = {"reach": np.column_stack([reach, low, high]),
             "quit_hazard": np.column_stack([hazard, hazard - 0.01, hazard + 0.01]),
             "finished": np.array([[reach[-1], low[-1], high[-1]]])}  # fmt: skip
    return Funnel(tuple(ids[: len(reach)]), stats, players=100, draws=3)


def _floor(reach, hazard):
    return {"reach": np.asarray(reach, float), "quit_hazard": np.asarray(hazard, float)}


BEFORE = _funnel([1, 0.8, 0.5, 0.4], [0.2, 0.375, 0.2, np.nan])
FLOOR = _floor([1, 0.95, 0.9, 0.85], [0.05, 0.05, 0.05, np.nan])
B0 = np.array([0, 1, 2, 3])


def test_verdicts_met_say_before_and_after_and_no_why():
    after = _funnel([1, 0.95, 0.9, 0.8], [0.05, 0.05, 0.1, np.nan])
    goal = FunnelGoal(reach_last=0.8, max_quit_hazard=0.1, max_band_drop=1)
    out = improve._verdicts(goal, BEFORE, after, FLOOR, B0, B0, False)
    assert [(g.goal, g.met, g.before, g.after, g.why) for g in out] == [
        ("at least 80 % reach the last level", True, 0.4, 0.8, ""),
        ("no level stops more than 10 % of its players", True, 0.375, 0.1, ""),
        ("difficulty never drops by more than 1 band", True, 0.0, 0.0, ""),
    ]
    assert all(isinstance(v, float) for g in out for v in (g.before, g.after))
    assert all(type(g.met) is bool for g in out)


def test_verdicts_skip_the_goals_not_asked_for():
    after = _funnel([1, 0.95, 0.9, 0.8], [0.05, 0.05, 0.1, np.nan])
    out = improve._verdicts(FunnelGoal(None, 0.2, None), BEFORE, after, FLOOR, B0, B0, True)
    assert [g.goal for g in out] == ["no level stops more than 20 % of its players"]
    out = improve._verdicts(FunnelGoal(None, None, 2), BEFORE, after, FLOOR, B0, B0, True)
    assert [g.goal for g in out] == ["difficulty never drops by more than 2 bands"]


def test_a_reach_goal_out_of_the_floors_reach_says_so():
    after = _funnel([1, 0.9, 0.7, 0.6], [0.1, 0.2, 0.15, np.nan])
    goal = FunnelGoal(reach_last=0.9, max_quit_hazard=None, max_band_drop=None)
    [g] = improve._verdicts(goal, BEFORE, after, FLOOR, B0, B0, False)
    assert not g.met and (g.before, g.after) == (0.4, 0.6)
    assert g.why == ("even if every level were won at the first try, the quit model lets only "
                     "85% reach the last level, so no order or level can meet it")  # fmt: skip


def test_a_reach_goal_in_reach_of_the_floor_names_where_players_leave():
    after = _funnel([1, 0.9, 0.6, 0.5], [0.1, 1 / 3, 1 / 6, np.nan], low=[1, 0.85, 0.55, 0.42],
                    high=[1, 0.95, 0.65, 0.57])  # fmt: skip
    goal = FunnelGoal(reach_last=0.8, max_quit_hazard=None, max_band_drop=None)
    [g] = improve._verdicts(goal, BEFORE, after, FLOOR, B0, B0, False)
    assert not g.met
    assert g.why == ("after reordering only (replacing the worst levels by easier generated "
                     "ones was not tried), 50% (95 %: 42%-57%) reach it; most leave at B (30%), "
                     "A (10%), C (10%)")  # fmt: skip
    [g] = improve._verdicts(goal, BEFORE, after, FLOOR, B0, B0, True)
    assert g.why.startswith("after reordering and regenerating, 50% (95 %: 42%-57%)")
    # exactly at the goal is met
    [g] = improve._verdicts(FunnelGoal(0.5, None, None), BEFORE, after, FLOOR, B0, B0, False)
    assert g.met and g.why == ""
    # a floor exactly at the goal can meet it: the why names where players leave
    floor = _floor([1, 0.9, 0.85, 0.8], [0.05, 0.05, 0.05, np.nan])
    [g] = improve._verdicts(goal, BEFORE, after, floor, B0, B0, False)
    assert g.why.startswith("after reordering")


def test_a_hazard_goal_missed_names_each_level_and_whether_an_easier_one_would_help():
    after = _funnel([1, 0.9, 0.6, 0.5, 0.4, 0.3], [0.1, 0.3, 0.15, 0.2, 0.25, np.nan], ids="ABCDEF")
    floor = _floor([1] * 6, [0.05, 0.2, 0.05, 0.05, 0.05, np.nan])
    goal = FunnelGoal(reach_last=None, max_quit_hazard=0.12, max_band_drop=None)
    [g] = improve._verdicts(goal, BEFORE, after, floor, B0, B0, False)
    assert not g.met and g.after == pytest.approx(0.3) and g.before == 0.375
    assert g.why == ("B at position 2 stops 30% (even a level won at the first try there stops "
                     "20%); C at position 3 stops 15% (an easier level there would help); "
                     "D at position 4 stops 20% (an easier level there would help); "
                     "E at position 5 stops 25% (an easier level there would help)")  # fmt: skip
    # a fifth level over the goal is left out with an ellipsis
    after = _funnel([1, 0.9, 0.6, 0.5, 0.4, 0.3], [0.2, 0.3, 0.15, 0.2, 0.25, np.nan], ids="ABCDEF")
    [g] = improve._verdicts(goal, BEFORE, after, floor, B0, B0, False)
    assert g.why.startswith("A at position 1 stops 20%") and g.why.endswith("; …")
    assert g.why.count("position") == 4
    # a hazard exactly at the goal is met, and so is a floor exactly at the goal
    after = _funnel([1, 0.9, 0.6, 0.5], [0.12, 0.12, 0.1, np.nan])
    [g] = improve._verdicts(goal, BEFORE, after, floor, B0, B0, False)
    assert g.met and g.why == ""
    after = _funnel([1, 0.9, 0.6, 0.5], [0.13, 0.12, 0.1, np.nan])  # L02 exactly at the goal
    [g] = improve._verdicts(goal, BEFORE, after, _floor([1] * 4, [0.12, 0, 0, np.nan]), B0, B0,
                            False)  # fmt: skip
    assert g.why == "A at position 1 stops 13% (an easier level there would help)"


def test_the_band_verdict_compares_the_largest_drop_before_and_after():
    after = _funnel([1, 0.95, 0.9, 0.8], [0.05, 0.05, 0.1, np.nan])
    goal = FunnelGoal(reach_last=None, max_quit_hazard=None, max_band_drop=1)
    [g] = improve._verdicts(goal, BEFORE, after, FLOOR, np.array([3, 0, 1, 2]),
                            np.array([0, 2, 1, 3]), False)  # fmt: skip
    assert (g.met, g.before, g.after, g.why) == (True, 3.0, 1.0, "")
    [g] = improve._verdicts(goal, BEFORE, after, FLOOR, B0, np.array([0, 3, 1, 3]), False)
    assert (g.met, g.before, g.after) == (False, 0.0, 2.0)
    assert g.why == "no order found keeps the band rule"


# --- improve_campaign's own arguments -------------------------------------------------------
TRUTH = TrueModel([1.5, -1.0, 0.0], quit={"baseline": -2.5, "run": 1.0})
IDS = ["L01", "L02", "L03"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"campaign": ["L01"]}, "campaign: needs at least two levels to reorder (got 1)"),
        ({"evaluations": 0}, "evaluations: must be between 1 and 10000000 (got 0)"),
        ({"evaluations": 10**7 + 1}, "evaluations: must be between 1 and 10000000"),
        ({"max_regenerate": -1}, "max_regenerate: must be between 0 and 1000 (got -1)"),
        ({"max_regenerate": 1001}, "max_regenerate: must be between 0 and 1000"),
        ({"time_limit": 0}, "time_limit: must be a number of seconds in (0, 1e6] (got 0)"),
        ({"time_limit": -1.0}, "time_limit: must be a number of seconds"),
        ({"time_limit": 1e6 + 1}, "time_limit: must be a number of seconds"),
        ({"time_limit": "5"}, "time_limit: must be a number of seconds"),
        ({"time_limit": True}, "time_limit: must be a number of seconds"),
        ({"time_limit": float("nan")}, "time_limit: must be a number of seconds"),
    ],
)
def test_improve_campaign_refuses_bad_arguments_by_name(kwargs, message):
    kw = {"campaign": IDS, "model": TRUTH, **kwargs}
    with pytest.raises(ArgumentError) as exc:
        improve.improve_campaign(**kw)
    assert str(exc.value).startswith(message)


def test_improve_campaign_takes_the_edges_of_its_ranges():
    kw = {"players": 50, "draws": 2, "evaluations": 1}
    assert improve.improve_campaign(IDS, TRUTH, time_limit=1e6, **kw).order
    assert improve.improve_campaign(IDS, TRUTH, time_limit=1, max_regenerate=1000, **kw).order
    assert improve.improve_campaign(IDS, TRUTH, max_regenerate=0, **kw).order


def test_improve_campaign_starts_from_the_better_of_the_given_and_the_gentle_order():
    # one evaluation: the starting order is the answer
    goal = FunnelGoal(reach_last=0.9, max_quit_hazard=0.05, max_band_drop=None)
    hard_first = TrueModel([2.0, 1.0, 0.0, -1.0], quit={"baseline": -2.0, "won": -2.0})
    ids = ["L01", "L02", "L03", "L04"]
    imp = improve.improve_campaign(ids, hard_first, goal, players=500, draws=2, evaluations=1)
    assert imp.order == ["L04", "L03", "L02", "L01"]  # by difficulty, easiest first
    assert imp.changes == [f"moved L0{4 - k} from position {4 - k} to {k + 1}" for k in range(4)]
    easy_first = TrueModel([-1.0, 0.0, 1.0, 2.0], quit={"baseline": -2.0, "won": -2.0})
    imp = improve.improve_campaign(ids, easy_first, goal, players=500, draws=2, evaluations=1)
    assert imp.order == ids and imp.changes == []
    # equal difficulties keep their places (a stable sort), and a tie keeps the given order
    flat = TrueModel([0.0, 0.0, 0.0], quit={"baseline": -2.0})
    imp = improve.improve_campaign(IDS, flat, goal, players=200, draws=2, evaluations=1)
    assert imp.order == IDS


def test_improve_campaign_pairs_before_and_after_and_caps_the_search_cohort(monkeypatch):
    seen = []
    real_judge, real_funnel = improve._Judge, improve.funnel

    class Judge(real_judge):
        def __init__(self, model, levels, players, seed, features=None):
            seen.append(("judge", players, seed))
            super().__init__(model, levels, players, seed, features)

    def funnel(levels, model, *, players, draws, rng, features=None):
        seen.append(("funnel", [str(lv) for lv in levels], players, draws, rng))
        return real_funnel(levels, model, players=players, draws=draws, rng=rng,
                           features=features)  # fmt: skip

    monkeypatch.setattr(improve, "_Judge", Judge)
    monkeypatch.setattr(improve, "funnel", funnel)
    imp = improve.improve_campaign(IDS, TRUTH, players=6000, draws=3, rng=4, evaluations=30)
    (_, jp, jseed), (_, b_ids, bp, bd, brng), (_, a_ids, ap, ad, arng) = seen
    assert jp == 5000 and bp == ap == 6000 and bd == ad == 3  # the search's cohort is capped
    assert brng == arng == jseed  # the before and after funnels are paired
    assert b_ids == IDS and a_ids == imp.order != IDS
    assert imp.before.players == 6000 and imp.after.draws == 3
    seen.clear()
    improve.improve_campaign(IDS, TRUTH, players=300, draws=2, rng=4, evaluations=3)
    assert seen[0][1] == 300 and seen[0][2] == jseed  # the same rng, the same seed
    seen.clear()
    improve.improve_campaign(IDS, TRUTH, players=300, draws=2, rng=5, evaluations=3)
    assert seen[0][2] != jseed


def test_improve_campaign_regenerates_only_when_asked(monkeypatch):
    asked, said = [], []
    monkeypatch.setattr(improve, "_regenerate",
                        lambda new, model, goal, judge, n, seed, features=None:
                        asked.append((n, seed, goal))
                        or said.append((model, judge.players, judge.seed))
                        or (new, ["regenerated nothing"]))  # fmt: skip
    verdicts = improve._verdicts
    monkeypatch.setattr(improve, "_verdicts", lambda *a: said.append(a[-1]) or verdicts(*a))
    goal = FunnelGoal(max_quit_hazard=0.01)
    imp = improve.improve_campaign(IDS, TRUTH, goal, players=200, draws=2, evaluations=3)
    assert asked == [] and said == [False] and "regenerated nothing" not in imp.changes
    imp = improve.improve_campaign(IDS, TRUTH, goal, regenerate=True, max_regenerate=7,
                                   players=200, draws=2, evaluations=3)  # fmt: skip
    assert [(n, g) for n, _, g in asked] == [(7, goal)]
    assert said == [False, (TRUTH, 200, asked[0][1]), True]  # the model, the search's judge
    assert imp.changes[-1] == "regenerated nothing" and imp.changes[0].startswith("moved ")


def test_improvement_summary_and_repr_read_the_goals():
    goal = FunnelGoal(reach_last=0.99, max_quit_hazard=0.5, max_band_drop=None)
    imp = improve.improve_campaign(IDS, TRUTH, goal, players=300, draws=2, evaluations=5)
    lines = imp.summary().splitlines()
    assert lines[: len(imp.changes)] == imp.changes
    reach, hazard = imp.goals
    assert lines[len(imp.changes)] == (
        f"NOT met: at least 99 % reach the last level (before {100 * reach.before:.0f} %, after "
        f"{100 * reach.after:.0f} %) - {reach.why}"
    )
    assert lines[-1] == (
        f"met: no level stops more than 50 % of its players (before "
        f"{100 * hazard.before:.0f} %, after {100 * hazard.after:.0f} %)"
    )
    # a band rule counts bands (issue 47: "before 0.35" beside "32 %" read as two ideas)
    band = improve.GoalResult("difficulty never drops by more than 1 band", True, 2.0, 1.0)
    assert (improve._said(band, 2.0), improve._said(band, 1.0)) == ("2 bands", "1 band")
    assert repr(imp) == f"Improvement(1 of 2 goals met; {len(imp.changes)} changes)"
    html = imp._repr_html_()
    items = "".join(f"<li>{line}</li>" for line in lines)  # no & < > in these lines
    assert html.startswith(f"<ul>{items}</ul><")
    assert "NOT met: at least 99 %" in html and "<table" in html
    cmp = imp.comparison()
    assert cmp.labels == ("before", "after")


def test_improve_campaign_defaults_are_the_documented_ones():
    import inspect

    p = inspect.signature(improve.improve_campaign).parameters
    assert {k: p[k].default for k in list(p)[2:]} == {
        "goal": None, "regenerate": False, "max_regenerate": 4, "players": 5000, "draws": 30,
        "rng": 0, "time_limit": 20.0, "evaluations": None, "features": None,
    }  # fmt: skip
    assert FunnelGoal() == FunnelGoal(reach_last=0.6, max_quit_hazard=0.10, max_band_drop=1)


def test_every_rng_gives_its_own_cohort(monkeypatch):
    seeds = []

    class Judge(improve._Judge):
        def __init__(self, model, levels, players, seed, features=None):
            seeds.append(seed)
            raise StopIteration  # the seed is all this test needs

    monkeypatch.setattr(improve, "_Judge", Judge)
    for rng in range(300):
        with pytest.raises(StopIteration):
            improve.improve_campaign(IDS, TRUTH, rng=rng)
    assert len(set(seeds)) == 300 and max(seeds) > 2**40


def test_levels_as_hard_as_each_other_keep_their_order_when_sorted_by_difficulty():
    # 40 levels, challenge and intermediate by turns: the given order breaks the band rule, so
    # the search starts from the order by difficulty, which keeps ties in their given order
    beta = [1.0, -1.0] * 20
    truth = TrueModel(beta, quit={"baseline": -3.0})
    ids = list(truth.level_ids)
    imp = improve.improve_campaign(ids, truth, players=100, draws=2, evaluations=1)
    assert imp.order == ids[1::2] + ids[0::2]


def test_improve_campaign_called_with_its_defaults_uses_the_documented_values(monkeypatch):
    # mutmut's wrapper keeps the original signature: the defaults are checked by what they do
    seen = []
    real_search, real_funnel = improve._search, improve.funnel
    monkeypatch.setattr(improve, "time", NS(monotonic=lambda: 1000.0))
    monkeypatch.setattr(improve, "_search", lambda judge, bands, goal, start, deadline, ev: (
        seen.append(("search", judge.players, deadline, ev))
        or real_search(judge, bands, goal, start, deadline, ev)))  # fmt: skip
    monkeypatch.setattr(improve, "funnel", lambda levels, model, *, players, draws, rng,
                        features=None: (
        seen.append(("funnel", players, draws, rng))
        or real_funnel(levels, model, players=50, draws=2, rng=rng)))  # fmt: skip
    monkeypatch.setattr(improve, "_regenerate", lambda new, model, goal, judge, n, seed,
                        features=None: (
        seen.append(("regenerate", n)) or (new, [])))  # fmt: skip
    improve.improve_campaign(IDS, TRUTH, regenerate=True)
    defaults = list(seen)
    seen.clear()
    improve.improve_campaign(IDS, TRUTH, FunnelGoal(), regenerate=True, max_regenerate=4,
                             players=5000, draws=30, rng=0, time_limit=20.0)  # fmt: skip
    assert defaults == seen
    assert defaults[0] == ("search", 5000, 1020.0, None)
    assert defaults[1] == ("regenerate", 4)
    assert [d[1:3] for d in defaults[2:]] == [(5000, 30), (5000, 30)]
