"""Knobs, outcomes and the game player: designer labels, whole knobs taking every value in equal
shares, the range checks, engine rows as outcomes, and a player that plays each (point, seed)
once. Expected values are written from the module's recorded rules."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.encounter.sim.knobs import (
    GAME_OUTCOMES,
    GamePlayer,
    Knob,
    knob_label,
    knob_list,
    outcome_rows,
)
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.status import EndReason


@pytest.mark.parametrize(
    "name, label",
    [
        # the glossary's words, as every app shows them (tests/test_glossary.py)
        ("/characters/monster/life", "monster life (wounds it takes)"),
        ("/weapons/revolver/damage", "revolver damage (wounds)"),
        ("/tables/hit/3", "hit chance at index −1"),  # index = level − agility, from −4
        ("/card_pool/stock/long_knife", "long knives in the card pool"),
        ("/priority/base", "first-strike chance at equal agility"),
        ("/combat/max_rounds", "most fight rounds (rounds)"),
        ("npcs", "NPCs in the game (NPCs)"),
        ("max_steps", "step limit (steps)"),
        ("x1", "x1"),  # a stand-in model's own knob
    ],
)
def test_knobs_are_labelled_in_the_designers_words(name, label):
    assert knob_label(name) == label


def test_a_whole_knob_gives_every_value_an_equal_share():
    k = Knob("/characters/monster/life", 2, 4, True)
    assert [k.value(u) for u in (0.0, 0.33, 0.34, 0.66, 0.67, 0.999, 1.0)] == [2, 2, 3, 3, 4, 4, 4]
    shares = np.bincount([k.value(u) for u in np.linspace(0, 1, 3000, endpoint=False)])
    assert shares[2:].tolist() == [1000, 1000, 1000]
    assert k.unit == "wounds it takes" and k.text(3) == "3"


def test_a_real_knob_maps_the_unit_interval_linearly():
    k = Knob("/priority/base", 0.3, 0.7, False)
    assert [k.value(u) for u in (0.0, 0.25, 1.0)] == pytest.approx([0.3, 0.4, 0.7])
    assert k.text(0.123456) == "0.123" and k.unit == ""  # a chance: no unit (the glossary)


def test_knob_list_keeps_the_order_and_tells_whole_from_real():
    ks = knob_list(None, {"npcs": (1, 5), "/priority/base": (0.3, 0.7), "width": (2, 6.0)})
    assert [k.name for k in ks] == ["npcs", "/priority/base", "width"]
    assert [k.integer for k in ks] == [True, False, False]


@pytest.mark.parametrize(
    "knobs, argument, message",
    [
        ({}, "knobs", "must map knob names"),
        ({"npcs": 3}, "knobs['npcs']", "must be (low, high)"),
        ({"npcs": (1, float("inf"))}, "knobs['npcs']", "finite numbers"),
        ({"npcs": (True, 3)}, "knobs['npcs']", "finite numbers"),
        ({"npcs": (3, 1)}, "knobs['npcs']", "needs low < high"),
    ],
)
def test_bad_ranges_are_refused_naming_the_knob(knobs, argument, message):
    with pytest.raises(ArgumentError, match=re.escape(message)) as err:
        knob_list(None, knobs)
    assert err.value.argument == argument


def test_a_knob_the_games_cannot_play_is_refused_with_a_base():
    with pytest.raises(ArgumentError) as err:
        knob_list(SimulationSettings(), {"/characters/monster/lives": (2, 5)})
    assert err.value.argument == "knobs['/characters/monster/lives']"


def test_engine_rows_become_one_outcome_column_each():
    rows = [
        (0, "npc", EndReason.VICTORY, 40, 12, 3),
        (1, "", EndReason.STEP_LIMIT, 300, 90, 0),
        (2, "", EndReason.MUTUAL_DEATH, 55, 20, 4),
        (3, "monster", EndReason.VICTORY, 9, 3, 1),
    ]
    got = outcome_rows(rows)
    assert GAME_OUTCOMES == ("npc_win", "monster_win", "step_limit", "mutual_death", "steps",
                             "turns", "encounters")  # fmt: skip
    assert got.tolist() == [[1, 0, 0, 0, 40, 12, 3], [0, 0, 1, 0, 300, 90, 0],
                            [0, 0, 0, 1, 55, 20, 4], [0, 1, 0, 0, 9, 3, 1]]  # fmt: skip


def test_a_stand_in_response_fills_its_outcomes_and_leaves_the_rest_nan():
    p = GamePlayer(None, response=lambda point, seeds: {"steps": point["x"] * 10,
                                                        "npc_win": seeds % 2})  # fmt: skip
    (a,) = p.play([{"x": 3}], [np.arange(4)])
    assert a[:, GAME_OUTCOMES.index("steps")].tolist() == [30.0] * 4
    assert a[:, GAME_OUTCOMES.index("npc_win")].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert np.isnan(a[:, GAME_OUTCOMES.index("turns")]).all() and p.games == 4
    bad = GamePlayer(None, response=lambda point, seeds: {"wins": 1})
    with pytest.raises(ArgumentError, match="unknown outcome"):
        bad.play([{}], [np.arange(2)])


def test_the_same_point_and_seed_is_played_once():
    with ThreadPoolExecutor(1) as pool:
        p = GamePlayer(SimulationSettings(), executor=pool)
        a, b = p.play([{"max_steps": 5}, {"max_steps": 5}], [np.arange(3), np.arange(4)])
        assert p.games == 4  # seeds 0-2 of the first point are seeds 0-2 of the second
        assert np.array_equal(a, b[:3])
        assert (b[:, GAME_OUTCOMES.index("step_limit")] == 1).all()  # 5 steps end no game
        p.play([{"max_steps": 5}], [np.arange(4)])
        assert p.games == 4  # nothing new to play


def _message(call, *args):
    with pytest.raises(ArgumentError) as err:
        call(*args)
    return str(err.value)


def test_each_refusal_says_what_is_wrong_and_with_what_value():
    # the whole line a designer reads: where, what, and the value given
    assert _message(knob_list, None, {}) == (
        "knobs: must map knob names to (low, high) ranges (got {})"
    )
    assert _message(knob_list, None, [("npcs", (1, 3))]) == (
        "knobs: must map knob names to (low, high) ranges (got [('npcs', (1, 3))])"
    )
    assert _message(knob_list, None, {"npcs": 3}) == "knobs['npcs']: must be (low, high) (got 3)"
    assert _message(knob_list, None, {"npcs": (1, float("nan"))}) == (
        "knobs['npcs']: the ends must be finite numbers (got (1, nan))"
    )
    assert _message(knob_list, None, {"npcs": [3, 3]}) == (
        "knobs['npcs']: needs low < high (got (3, 3))"  # equal ends are no range
    )


def test_a_base_refusal_keeps_the_sweeps_reason_under_the_knobs_name():
    # the sweep's own check says "grid[...]: reason"; the knob's line keeps all of the reason,
    # colons and all, under the name the caller wrote
    from labkit.encounter.sim.sweep import design

    with pytest.raises(ArgumentError) as sweep:
        design(SimulationSettings(), {"npcs": [0, 3]})
    reason = str(sweep.value).split(": ", 1)[1]
    assert reason == "bad value: /npcs: must be between 1 and 64 (got 0)"
    assert _message(knob_list, SimulationSettings(), {"npcs": (0, 3)}) == f"knobs['npcs']: {reason}"


def test_a_pointer_with_a_space_keeps_its_whole_name_and_reason():
    # the reason is everything after the first ": " (a name may hold spaces, never ": ")
    bad = "/characters/monster life"
    assert _message(knob_list, SimulationSettings(), {bad: (1, 2)}) == (
        f"knobs[{bad!r}]: bad value: {bad}: no such balance field (got 1)"
    )


def test_knob_text_whole_knobs_whole_real_ones_to_three_digits():
    assert Knob("npcs", 1, 9, True).text(4.0) == "4"
    assert Knob("/characters/monster/life", 1, 5000, True).text(1234) == "1234"  # not 1.23e+03
    assert Knob("/priority/base", 0.0, 1.0, False).text(4) == "4"
    assert Knob("/priority/base", 0.0, 1.0, False).text(0.123456) == "0.123"


def test_a_player_draws_no_bar_by_default_and_owns_a_pool_only_for_real_games(monkeypatch):
    import labkit.encounter.sim.engine as engine

    seen = {}

    def play_jobs(docs, jobs, sink, *, executor, progress):
        seen.update(executor=executor, progress=progress, docs=docs, jobs=jobs)
        sink(None, [(j[0], "", EndReason.STEP_LIMIT, 5, 2, 0) for j in jobs])

    monkeypatch.setattr(engine, "play_jobs", play_jobs)
    p = GamePlayer(SimulationSettings())
    assert p._own is not None and p.executor is p._own  # its own pool, shut down by close()
    (a,) = p.play([{"npcs": 2, "/characters/monster/life": 7}], [np.array([4, 5])])
    assert seen["progress"] is False and seen["executor"] is p._own
    (doc,) = seen["docs"]
    # a settings knob goes into the document, a balance pointer into its balance patch
    assert doc["npcs"] == 2 and "/characters/monster/life" not in doc
    assert doc["balance"]["/characters/monster/life"] == 7
    assert a.shape == (2, len(GAME_OUTCOMES)) and seen["jobs"] == [(0, 0, 4, 4), (1, 0, 5, 5)]
    p.close()
    assert p._own is None
    p.close()  # twice is fine
    stand_in = GamePlayer(None, response=lambda point, seeds: {"steps": 1.0})
    assert stand_in._own is None and stand_in.executor is None


def test_a_stand_in_response_must_name_known_outcomes_one_value_per_seed():
    def play(answer):
        return _message(GamePlayer(None, response=lambda p, s: answer).play, [{}], [np.arange(3)])

    assert play({"wins": 1}) == (
        "response: unknown outcome, known: npc_win, monster_win, step_limit, mutual_death, "
        "steps, turns, encounters (got 'wins')"
    )
    assert play({"steps": [1.0, 2.0]}) == "response: must give one value per seed (got (2,))"
    # whole-number answers come back as floats, with NaN for the outcomes not given
    (a,) = GamePlayer(None, response=lambda p, s: {"steps": s * 2}).play([{}], [np.arange(3)])
    assert a.dtype == float and a[:, GAME_OUTCOMES.index("steps")].tolist() == [0.0, 2.0, 4.0]
