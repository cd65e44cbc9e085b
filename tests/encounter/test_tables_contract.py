"""The curve functions' edges (SPEC E2): return types, the 0 and 1 ends of an edited table, and
errors that carry the bad value."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.encounter.rules.balance import BalanceError
from labkit.encounter.rules.tables import hit_chance, priority_chance, pursuit_chance, table_index


def test_scalars_come_back_as_python_numbers():
    assert type(hit_chance(3, 1)) is float and hit_chance(3, 1) == 0.45
    assert type(pursuit_chance(3, 1, weapon_grade=2)) is float
    assert type(priority_chance(1)) is float and priority_chance(1) == 0.7
    assert type(table_index(1, 7)) is int and table_index(1, 7) == -4
    assert isinstance(hit_chance([0, 1], 1), np.ndarray)


def test_an_edited_table_may_hold_certainty_and_impossibility():
    table = [0.0, 0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.0]
    assert hit_chance(-4, 0, table=table) == 0.0
    assert hit_chance(4, 0, table=table) == 1.0
    assert hit_chance([-9, 0, 9], 0, table=table).tolist() == [0.0, 0.3, 1.0]


@pytest.mark.parametrize("table", [[0.5] * 8, [1.5] + [0.5] * 8, [-0.1] + [0.5] * 8, [[0.5] * 9]])
def test_a_bad_table_is_refused_naming_it(table):
    with pytest.raises(BalanceError) as info:
        hit_chance(0, 0, table=table)
    assert info.value.pointer == "table" and info.value.value == table
    assert "must be 9 probabilities between 0 and 1 (index -4..4)" in str(info.value)


@pytest.mark.parametrize("bad", [2.5, np.nan, True, [1, 2.5]])
def test_fractional_levels_are_refused_with_the_value(bad):
    with pytest.raises(BalanceError) as info:
        table_index(bad, 0)
    assert info.value.pointer == "level"
    assert info.value.value is bad or info.value.value == bad


def test_whole_floats_are_accepted_as_levels():
    assert table_index(3.0, 1) == 2 and table_index(np.array([1.0, 9.0]), 0).tolist() == [1, 4]
