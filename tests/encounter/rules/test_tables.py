"""Combat curves: the tables, clamping, the pursuit rule and the priority rule (seed table 3)."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.encounter import tables
from labkit.encounter.rules.balance import BalanceError, PriorityRule


def test_hit_table_by_index():
    levels = np.arange(-4, 5)
    assert np.allclose(tables.hit_chance(levels, 0), tables.HIT)
    assert tables.hit_chance(-10, 0) == 0.02 and tables.hit_chance(10, 0) == 0.75


def test_index_is_level_minus_agility():
    assert tables.hit_chance(5, 4) == 0.30  # index +1
    assert tables.hit_chance(4, 5) == 0.14  # index -1


def test_pursuit_needs_a_positive_weapon_grade():
    assert tables.pursuit_chance(3, 1, weapon_grade=1) == 0.32
    assert tables.pursuit_chance(3, 1, weapon_grade=0) == 0.0
    assert tables.pursuit_chance(3, 1, weapon_grade=-1) == 0.0
    out = tables.pursuit_chance([0, 0, 9], 0, weapon_grade=[1, 0, 1])
    assert out.tolist() == [0.14, 0.0, 0.53]


@pytest.mark.parametrize(
    ("diff", "p"), [(-5, 0.1), (-2, 0.1), (-1, 0.3), (0, 0.5), (1, 0.7), (2, 0.9), (6, 0.9)]
)
def test_priority_table_3(diff, p):
    assert tables.priority_chance(diff) == pytest.approx(p, abs=1e-12)


def test_priority_rule_is_editable():
    rule = PriorityRule(base=0.5, per_agility=0.1, min=0.3, max=0.7)
    assert tables.priority_chance([-5, 1, 5], rule=rule).tolist() == [0.3, 0.6, 0.7]


def test_custom_table():
    t = np.linspace(0.1, 0.9, 9)
    assert tables.hit_chance(0, 0, table=t) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "call",
    [
        lambda: tables.hit_chance(1, 1, table=[0.1] * 5),
        lambda: tables.hit_chance(1, 1, table=[0.5] * 8 + [1.5]),
        lambda: tables.pursuit_chance(1, 1, weapon_grade=1, table=np.zeros((3, 3))),
    ],
)
def test_an_edited_table_must_be_nine_probabilities(call):
    with pytest.raises(BalanceError, match="table: must be 9 probabilities"):
        call()


@pytest.mark.parametrize("level, agility, field", [(2.7, 1, "level"), (2, True, "agility")])
def test_levels_are_whole_numbers_not_cut(level, agility, field):
    with pytest.raises(BalanceError, match=f"{field}: must be a whole number"):
        tables.hit_chance(level, agility)
    assert tables.hit_chance(2.0, 1) == tables.hit_chance(2, 1)  # a whole float is fine
