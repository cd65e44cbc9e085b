"""Encounter kernels (SPEC E2, E3): what their docstrings promise beyond the Monte-Carlo tallies.

Ammo spent on a pursuit, "-1 = nobody struck", the documented array dtypes, the silent cells'
source, and compass sectors of non-integer vectors (against ``reference.compass``, atan2).
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit.encounter import _kernels
from labkit.encounter.rules.balance import default_balance
from labkit.encounter.rules.combat import Fight, Fighter, simulate_fights
from labkit.encounter.rules.sound import Compass, propagate_sound

from . import reference

B = default_balance()


def gunner(ammo: int, grade: int = 2) -> Fighter:
    """A pursuing gun: pursuit level 3, the given pursuit grade and loaded rounds."""
    return Fighter(
        hit=0, pursuit=3, grade=grade, agility=0, first_strike=0, protection=0, damage=1,
        uses_ammo=1, ambush=0, retreat_at=0, life=5, ammo=ammo,
    )  # fmt: skip


RUNNER = Fighter(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0)


@pytest.mark.parametrize(("loaded", "left"), [(3, 2), (1, 0), (0, 0)])
def test_a_pursuit_spends_one_loaded_round(loaded, left):
    # SPEC E2 decision (combat.py): a weapon with ammo spends one round per strike or pursuit;
    # an empty magazine still pursues but cannot land.
    for seed in range(5):
        fight = Fight(gunner(loaded), RUNNER)
        ex = fight.exchange("attack", "retreat", np.random.default_rng(seed))
        assert ex.ammo == (left, 0)
        assert fight.counters[0, _kernels.PURSUITS] == 1
        if loaded == 0:
            assert fight.counters[0, _kernels.PURSUED] == 0 and ex.outcome == "b_escaped"


def _exchange(act_a, act_b, a: Fighter, b: Fighter):
    stats = np.stack([a.row(), b.row()])
    life, ammo = stats[:, _kernels.LIFE].copy(), stats[:, _kernels.AMMO].copy()
    counters = np.zeros((2, 4), dtype=np.int64)
    return _kernels.exchange(
        stats, life, ammo, 1, act_a, act_b, B.hit_table, B.pursuit_table,
        B.priority.as_array(), B.min_wound, np.random.default_rng(0), counters,
    )  # fmt: skip


def test_exchange_says_minus_one_when_nobody_strikes():
    R, A = _kernels.RETREAT, _kernels.ATTACK
    parted = _exchange(R, R, gunner(3), RUNNER)
    assert (int(parted[0]), int(parted[1])) == (_kernels.PARTED, -1)
    # a pursuer with pursuit grade 0 makes no attempt: the runner escapes, nobody struck
    escaped = _exchange(A, R, gunner(3, grade=0), RUNNER)
    assert (int(escaped[0]), int(escaped[1])) == (_kernels.B_ESCAPED, -1)
    escaped = _exchange(R, A, RUNNER, gunner(3, grade=0))
    assert (int(escaped[0]), int(escaped[1])) == (_kernels.A_ESCAPED, -1)


def test_fight_monte_carlo_arrays_have_the_documented_dtypes():
    stats = np.stack([gunner(3).row(), RUNNER.row()])
    args = (B.hit_table, B.pursuit_table, B.priority.as_array(), B.min_wound)
    outcome, rounds, first, counters = _kernels.fight_monte_carlo(
        stats, 20, *args, 30, np.random.default_rng(1)
    )
    assert (outcome.dtype, rounds.dtype, first.dtype, counters.dtype) == (
        np.int8,
        np.int32,
        np.int8,
        np.int64,
    )
    assert counters.shape == (2, 4) and first.shape == (20,)
    assert simulate_fights(gunner(3), RUNNER, 10, rng=1).hits.dtype == np.int64


def test_a_fight_of_zero_rounds_is_a_stalemate_with_nobody_striking():
    stats = np.stack([gunner(3).row(), RUNNER.row()])
    args = (B.hit_table, B.pursuit_table, B.priority.as_array(), B.min_wound)
    outcome, rounds, first, counters = _kernels.fight_monte_carlo(
        stats, 4, *args, 0, np.random.default_rng(1)
    )
    assert outcome.tolist() == [_kernels.STALEMATE] * 4
    assert rounds.tolist() == [0] * 4 and first.tolist() == [-1] * 4
    assert counters.tolist() == [[0] * 4] * 2


def test_compass_of_non_integer_vectors_is_the_nearest_sector():
    # Half-steps: the sign of a component smaller than 1 must decide N/S and the diagonals.
    steps = np.arange(-6, 7) * 0.5
    for dx in steps:
        for dy in steps:
            if dx == 0 and dy == 0:
                continue
            got = int(_kernels.compass(float(dx), float(dy)))
            assert Compass(got).name == reference.compass(dx, dy), (dx, dy)
    assert Compass(int(_kernels.compass(0.0, 0.5))).name == "S"
    assert Compass(int(_kernels.compass(0.5, 0.5))).name == "SE"
    assert Compass(int(_kernels.compass(-0.5, 0.5))).name == "SW"


def test_sound_maps_have_the_documented_dtypes_and_silence_is_minus_one():
    strength, direction, source = propagate_sound((3, 4), [(0, 0, 2), (3, 2, 1)], with_source=True)
    assert (strength.dtype, direction.dtype, source.dtype) == (np.int32, np.int8, np.int32)
    # level 2 reaches Chebyshev distance 1; level 1 only its own cell
    assert source.tolist() == [[0, 0, -1, -1], [0, 0, -1, -1], [-1, -1, -1, 1]]
    assert strength.tolist() == [[2, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 1]]
    N, HERE = Compass.NONE, Compass.HERE
    assert direction.tolist() == [
        [HERE, Compass.W, N, N],
        [Compass.N, Compass.NW, N, N],
        [N, N, N, HERE],
    ]


@pytest.mark.parametrize(
    "level, agility, index",
    [(0, 9, 0), (0, 5, 0), (0, 4, 0), (1, 4, 1), (3, 3, 4), (4, 1, 7), (4, 0, 8), (5, 0, 8),
     (9, 0, 8)],
)  # fmt: skip
def test_a_chance_reads_the_table_at_level_minus_agility_clamped_to_its_ends(level, agility, index):
    # the table runs from -4 to +4; a difference beyond either end reads that end's entry
    table = np.arange(9, dtype=np.float64) / 8
    assert _kernels._chance(table, level, agility) == table[index]
