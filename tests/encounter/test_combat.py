"""Combat: composition, exchanges, the fight kernel against a readable reference, chi-square."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from labkit import _jit
from labkit.encounter import _kernels, tables
from labkit.encounter.rules.balance import default_balance
from labkit.encounter.rules.combat import (
    OUTCOMES,
    CombatError,
    Fight,
    Fighter,
    Loadout,
    compose,
    sample_hits,
    simulate_fights,
    wilson_interval,
)

from . import reference

B = default_balance()
CHI2_LIMIT = sps.chi2.ppf(0.999, df=9)  # 27.9: a fixed-seed sample passes, a shifted table fails


def chi_square(hits: np.ndarray, n: int, p: np.ndarray) -> float:
    """Sum over indices of the squared standardised binomial deviations (~ chi2, 9 df)."""
    return float((((hits - n * p) ** 2) / (n * p * (1 - p))).sum())


def test_compose_sums_base_weapon_armour():
    f = compose(Loadout(weapon="revolver", armour="leather_coat", stealth=True, ammo=2))
    npc, gun, coat = B.characters["npc"], B.weapons["revolver"], B.armour["leather_coat"]
    assert f.hit == npc.hit + gun.hit_score
    assert f.ambush == B.stealth_hit_bonus
    assert f.agility == npc.agility + gun.agility + coat.agility
    assert f.pursuit == npc.pursuit + gun.pursuit and f.grade == gun.pursuit
    assert (f.protection, f.damage, f.uses_ammo, f.ammo) == (1, 3, 1, 2)
    assert compose(Loadout()).damage == B.weapons["fists"].damage  # natural weapon


@pytest.mark.parametrize(
    ("loadout", "pointer"),
    [
        (Loadout(character="dragon"), "/character"),
        (Loadout(weapon="spoon"), "/weapon"),
        (Loadout(armour="cape"), "/armour"),
        (Loadout(weapon="revolver", ammo=7), "/ammo"),
        (Loadout(life=0), "/life"),
    ],
)
def test_compose_rejects_unknown_things(loadout, pointer):
    with pytest.raises(CombatError) as info:
        compose(loadout)
    assert info.value.pointer == pointer


def test_sample_hits_chi_square_matches_the_table_and_rejects_a_shifted_one():
    n = 40_000
    index = np.repeat(np.arange(-4, 5), n)
    hits = sample_hits(index, rng=20261129).reshape(9, n).sum(axis=1)
    assert chi_square(hits, n, tables.HIT) < CHI2_LIMIT
    shifted = np.r_[tables.HIT[1:], 0.9]  # an off-by-one table index
    assert chi_square(hits, n, shifted) > 10 * CHI2_LIMIT
    pursuits = sample_hits(index, rng=7, table=tables.PURSUIT).reshape(9, n).sum(axis=1)
    assert chi_square(pursuits, n, tables.PURSUIT) < CHI2_LIMIT


def test_sample_hits_equals_numpy_with_the_same_stream():
    index = np.random.default_rng(1).integers(-7, 8, size=5000)
    ours = sample_hits(index, rng=np.random.default_rng(3))
    u = np.random.default_rng(3).random(index.size)
    assert np.array_equal(ours, u < tables.HIT[np.clip(index, -4, 4) + 4])
    with _jit.plain_python("labkit.encounter._kernels"):
        slow = sample_hits(index[:300], rng=np.random.default_rng(3))
    assert np.array_equal(slow, ours[:300])


def test_sample_hits_validates():
    with pytest.raises(CombatError, match="integers"):
        sample_hits(np.array([0.5]))
    with pytest.raises(CombatError, match="9 probabilities"):
        sample_hits(np.array([0]), table=[0.5] * 8)
    assert sample_hits(np.zeros((2, 3), dtype=np.int32), rng=0).shape == (2, 3)


fighters = st.builds(
    Fighter,
    hit=st.integers(-2, 5),
    pursuit=st.integers(-1, 4),
    grade=st.integers(-1, 2),
    agility=st.integers(-2, 4),
    first_strike=st.integers(0, 2),
    protection=st.integers(0, 3),
    damage=st.integers(0, 4),
    uses_ammo=st.integers(0, 1),
    ambush=st.integers(0, 1),
    retreat_at=st.integers(0, 3),
    life=st.integers(1, 6),
    ammo=st.integers(0, 3),
)


@given(a=fighters, b=fighters, seed=st.integers(0, 2**32))
def test_fight_kernel_matches_the_readable_reference(a, b, seed):
    n = 25
    got = simulate_fights(a, b, n, rng=np.random.default_rng(seed))
    want, tally = reference.fights(a, b, n, B, np.random.default_rng(seed))
    counts = {k: 0 for k in OUTCOMES}
    for outcome, _, _ in want:
        counts[outcome] += 1
    assert got.outcomes == counts
    assert np.array_equal(got.hits, tally)
    assert got.rounds.sum() == n
    assert np.array_equal(
        got.rounds, np.bincount([r for _, r, _ in want], minlength=B.max_rounds + 1)
    )
    firsts = [f for _, _, f in want]
    assert got.first_strikes == (firsts.count(0), firsts.count(1), firsts.count(-1))


def test_fight_kernel_matches_its_py_func():
    a = compose(Loadout(weapon="revolver", retreat_at=1))
    b = compose(Loadout(character="monster"))
    fast = simulate_fights(a, b, 300, rng=11)
    with _jit.plain_python("labkit.encounter._kernels"):
        slow = simulate_fights(a, b, 300, rng=11)
    assert fast.outcomes == slow.outcomes and np.array_equal(fast.hits, slow.hits)


def test_sampled_fight_frequencies_match_the_tables():
    # Equal first strike: order by priority (agility 3 vs 1: 90 % A first); no ambush.
    a = Fighter(2, 3, 1, 3, 0, 0, 1, 0, 0, 0, 2, 0)
    b = Fighter(3, 0, 0, 1, 0, 0, 1, 0, 0, 2, 3, 0)  # retreats once wounded: A pursues
    s = simulate_fights(a, b, 40_000, rng=5)
    for side, p in ((0, tables.hit_chance(2, 1)), (1, tables.hit_chance(3, 3))):
        tried, landed = s.hits[side, 0], s.hits[side, 1]
        assert sps.binomtest(int(landed), int(tried), p).pvalue > 1e-3
    tried, landed = s.hits[0, 2], s.hits[0, 3]
    assert tried > 1000
    assert (
        sps.binomtest(int(landed), int(tried), tables.pursuit_chance(3, 1, weapon_grade=1)).pvalue
        > 1e-3
    )
    struck = s.first_strikes[0] + s.first_strikes[1]
    assert sps.binomtest(s.first_strikes[0], struck, 0.9).pvalue > 1e-3


def test_first_strike_decides_round_one():
    knife, fists = Loadout(weapon="long_knife"), Loadout()
    s = simulate_fights(knife, fists, 500, rng=2)
    assert s.first_strikes == (500, 0, 0)
    assert simulate_fights(fists, knife, 500, rng=2).first_strikes == (0, 500, 0)


def test_fight_exchange_by_exchange():
    rng = np.random.default_rng(3)
    fight = Fight(Loadout(weapon="long_knife"), Loadout(weapon="revolver", ammo=1))
    ex = fight.exchange("attack", "attack", rng)
    assert ex.round == 1 and ex.first == 0  # knife's first strike 2 beats the revolver's 1
    assert fight.ammo[1] == 0 or ex.outcome == "a_wins"
    if not fight.over:
        ex = fight.exchange("attack", "retreat", rng)
        assert ex.outcome in ("a_wins", "b_escaped")
    with pytest.raises(CombatError, match="over"):
        fight.exchange("attack", "attack", rng)
    assert Fight(Loadout(), Loadout()).exchange("retreat", "retreat", rng).outcome == "parted"
    with pytest.raises(CombatError, match="attack"):
        Fight(Loadout(), Loadout()).exchange("flee", "attack", rng)


def test_fight_without_damage_is_a_stalemate():
    balance = B.replace(min_wound=0)
    toothless = Fighter(0, 0, 0, 0, 0, 5, 1, 0, 0, 0, 3, 0)
    s = simulate_fights(toothless, toothless, 50, rng=1, balance=balance)
    assert s.outcomes["stalemate"] == 50 and s.rounds[balance.max_rounds] == 50


def test_empty_gun_never_lands():
    gun = Fighter(9, 9, 2, 0, 5, 0, 9, 1, 0, 0, 1, 0)  # no rounds loaded
    target = Fighter(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0)
    s = simulate_fights(gun, target, 100, rng=1, balance=B.replace(min_wound=0))
    assert s.hits[0, 1] == 0 and s.hits[0, 0] > 0


def test_summary_and_intervals():
    s = simulate_fights(Loadout(weapon="revolver"), Loadout(character="monster"), 2000, rng=4)
    summary = s.summary()
    lo, hi = summary["win_a_ci"]
    assert lo <= s.win_a <= hi and summary["n"] == 2000
    assert s.mean_rounds >= 1
    lo, hi = wilson_interval(np.array([0, 10]), 10)
    assert lo[0] == 0 and hi[1] == 1 and hi[0] > 0
    with pytest.raises(CombatError):
        simulate_fights(Loadout(), Loadout(), 0)


def test_exchange_kernel_codes_are_consistent():
    assert OUTCOMES[_kernels.CONTINUE] == "continue"
    assert OUTCOMES[_kernels.STALEMATE] == "stalemate"
    assert len(_kernels.COLUMNS) == _kernels.NCOL == len(Fighter.__dataclass_fields__)
