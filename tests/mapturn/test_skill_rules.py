"""Skill-state rules of labkit.mapturn.battle, one rule at a time on a bare SkillState (SPEC M1,
M3, M7 and the module's recorded decisions), expected values worked by hand."""

from __future__ import annotations

import math

from labkit.mapturn.battle import (
    activate_status_skill,
    apply_status_after_battle,
    cancel_status_skill,
    classic_battle,
    settle_battle_time_cost,
    toggle_battle_skill,
)
from labkit.mapturn.defs import EnemyDef, ItemDef
from labkit.mapturn.state import SkillState
from labkit.mapturn.world import Hero


def skill(id, policy="refresh", duration=2, cost=0, group=None, **kw):
    return ItemDef(id, id, "skillupdate", duration_battles=duration, battle_time_cost=cost,
                   stack_policy=policy, exclusive_group=group, **kw)  # fmt: skip


def test_refresh_resets_duration_and_cost():
    s = SkillState()
    a = skill("a", "refresh", duration=3, cost=2)
    activate_status_skill(s, a, {"a": a})
    s.active_status_skills["a"].update(remainBattles=1, battleTimeCost=9)
    activate_status_skill(s, a, {"a": a})
    assert s.active_status_skills["a"] == {"remainBattles": 3, "battleTimeCost": 2,
                                           "sourceItemId": "a"}  # fmt: skip


def test_stack_adds_duration_and_keeps_the_larger_cost():
    s = SkillState()
    a = skill("a", "stack", duration=3, cost=2)
    activate_status_skill(s, a, {"a": a})
    activate_status_skill(s, a, {"a": a})
    assert s.active_status_skills["a"] == {"remainBattles": 6, "battleTimeCost": 2,
                                           "sourceItemId": "a"}  # fmt: skip
    s.active_status_skills["a"]["battleTimeCost"] = 1
    activate_status_skill(s, a, {"a": a})
    assert s.active_status_skills["a"]["battleTimeCost"] == 2  # max(1, 2)
    s.active_status_skills["a"]["battleTimeCost"] = 5
    activate_status_skill(s, a, {"a": a})
    assert s.active_status_skills["a"]["battleTimeCost"] == 5  # max(5, 2)


def test_stacking_an_endless_status_stays_endless():
    s = SkillState()
    forever = skill("f", "stack", duration=None, cost=1)
    activate_status_skill(s, forever, {"f": forever})
    activate_status_skill(s, forever, {"f": forever})
    assert s.active_status_skills["f"]["remainBattles"] is None
    # A timed status stacked on an endless entry does not start counting either.
    s.active_status_skills["g"] = {"remainBattles": None, "battleTimeCost": 0, "sourceItemId": "g"}
    timed = skill("g", "stack", duration=2)
    activate_status_skill(s, timed, {"g": timed})
    assert s.active_status_skills["g"]["remainBattles"] is None


def test_replace_ends_the_same_skill_and_its_group_only():
    oath = skill("oath", "replace", duration=None, group="aura")
    vow = skill("vow", "replace", duration=2, group="aura")
    focus = skill("focus", "refresh", duration=2, cost=3)
    other = skill("other", "replace", duration=1, group="haste")
    items = {i.id: i for i in (oath, vow, focus, other)}
    s = SkillState()
    for item in (focus, oath, other):
        activate_status_skill(s, item, items)
    activate_status_skill(s, vow, items)
    assert sorted(s.active_status_skills) == ["focus", "other", "vow"]
    # Without a group, only the skill itself is replaced (fresh duration).
    loner = skill("loner", "replace", duration=4)
    items["loner"] = loner
    activate_status_skill(s, loner, items)
    s.active_status_skills["loner"]["remainBattles"] = 1
    activate_status_skill(s, loner, items)
    assert s.active_status_skills["loner"]["remainBattles"] == 4
    assert sorted(s.active_status_skills) == ["focus", "loner", "other", "vow"]


def test_after_a_won_battle_every_timed_status_loses_a_layer_and_the_ended_are_named():
    s = SkillState(
        {k: {"remainBattles": n, "battleTimeCost": 0, "sourceItemId": k}
         for k, n in (("a", 1), ("b", 2), ("c", None))}
    )  # fmt: skip
    assert apply_status_after_battle(s, "failure") == []
    assert apply_status_after_battle(s, "success") == ["a"]
    assert {k: v["remainBattles"] for k, v in s.active_status_skills.items()} == {"b": 1, "c": None}


def test_battle_time_is_the_max_of_base_statuses_and_battle_skills():
    strike = ItemDef("strike", "strike", "skillbattle", time_cost=2, exclusive_group="battleSkill")
    s = SkillState({"a": {"remainBattles": 1, "battleTimeCost": 0, "sourceItemId": "a"}})
    assert settle_battle_time_cost(s, {}) == 1  # base 1, a status of cost 0
    s.active_status_skills["b"] = {"remainBattles": 1, "battleTimeCost": None, "sourceItemId": "b"}
    assert settle_battle_time_cost(s, {}) == 1  # no cost recorded counts as 0, not 1
    s.active_status_skills["c"] = {"remainBattles": 1, "battleTimeCost": 3, "sourceItemId": "c"}
    assert settle_battle_time_cost(s, {}) == 3
    s.active_battle_skills["battleSkill"] = "strike"
    assert settle_battle_time_cost(s, {"strike": strike}) == 3
    s.active_status_skills.clear()
    assert settle_battle_time_cost(s, {"strike": strike}) == 2


def test_toggling_a_battle_skill_reports_the_new_state():
    strike = ItemDef("strike", "strike", "skillbattle", time_cost=2, exclusive_group="battleSkill")
    double = ItemDef("double", "double", "skillbattle", time_cost=4, exclusive_group="battleSkill")
    s = SkillState()
    assert toggle_battle_skill(s, strike) is True and s.active_battle_skills == {
        "battleSkill": "strike"
    }
    assert toggle_battle_skill(s, double) is True and s.active_battle_skills == {
        "battleSkill": "double"
    }
    assert toggle_battle_skill(s, double) is False and s.active_battle_skills == {}


def test_cancel_refuses_what_cannot_be_cancelled():
    oath = skill("oath", "replace", duration=None, can_cancel=False)
    focus = skill("focus")
    s = SkillState()
    assert cancel_status_skill(s, focus) is False  # not active
    activate_status_skill(s, focus, {"focus": focus})
    activate_status_skill(s, oath, {"oath": oath})
    assert cancel_status_skill(s, oath) is False and "oath" in s.active_status_skills
    assert cancel_status_skill(s, focus) is True and "focus" not in s.active_status_skills


def test_classic_battle_edge_cases_worked_by_hand():
    # One point of damage a blow is still damage: ATK 6 vs DEF 5 kills HP 3 in 3 blows.
    hero = Hero("F1", 0, 0, hp=100, atk=6, defense=0)
    out = classic_battle(hero, EnemyDef("e", "e", hp=3, atk=4, defense=5))
    assert (out.won, out.damage) == (True, 8)  # 2 blows back of 4
    # An enemy weaker than the hero's defence deals 0, never a negative or minimum 1.
    out = classic_battle(Hero("F1", 0, 0, hp=1, atk=10, defense=9),
                         EnemyDef("e", "e", hp=30, atk=3, defense=0))  # fmt: skip
    assert (out.won, out.damage) == (True, 0)
    # ATK equal to DEF: no damage, a lost battle.
    out = classic_battle(Hero("F1", 0, 0, hp=100, atk=5, defense=0),
                         EnemyDef("e", "e", hp=1, atk=0, defense=5))  # fmt: skip
    assert out.won is False and math.isinf(out.damage)
