"""Combat: composition, exchanges, the fight kernel against a readable reference, chi-square."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from labkit import ArgumentError, _jit
from labkit.encounter import _kernels, tables
from labkit.encounter.rules.balance import default_balance
from labkit.encounter.rules.combat import (
    FIGHT_OUTCOMES,
    CombatError,
    Fight,
    Fighter,
    Loadout,
    compose,
    sample_hits,
    simulate_fights,
    wilson_interval,
)
from tests.encounter import reference

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
        (Loadout(character="dragon"), "loadout.character"),
        (Loadout(weapon="spoon"), "loadout.weapon"),
        (Loadout(armour="cape"), "loadout.armour"),
        (Loadout(weapon="revolver", ammo=7), "loadout.ammo"),
        (Loadout(life=0), "loadout.life"),
    ],
)
def test_compose_rejects_unknown_things(loadout, pointer):
    with pytest.raises(ArgumentError) as info:
        compose(loadout)
    assert info.value.argument == pointer and str(info.value).startswith(pointer + ": ")


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
    with pytest.raises(ArgumentError, match="index: must be integers"):
        sample_hits(np.array([0.5]))
    with pytest.raises(ArgumentError, match="table: must hold 9 probabilities"):
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
    counts = {k: 0 for k in FIGHT_OUTCOMES}
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


# Knife (A): hit 2, agility 2, first strike 2, damage 2, life 3, no pursuit beyond grade 1.
# Revolver with one round (B): hit 3, agility 0, first strike 1, damage 3, life 3.
# Hand-worked chances (E2 tables): A hits B at +2 -> 45 %; B hits A at +1 -> 30 %; A pursues B
# at pursuit 1 - 0 = +1 -> 21 %. Wounds: A takes 3 from B, B takes 2 from A (min wound 1).
KNIFE, GUN = Loadout(weapon="long_knife"), Loadout(weapon="revolver", ammo=1)


def uniforms(seed, n):
    """The uniforms the exchange will draw, one per strike or pursuit (no priority draw in
    round 1: first strike decides), drawn here from a fresh generator of the same seed."""
    return np.random.default_rng(seed).random(n)


def test_round_one_both_land_and_the_second_striker_kills():
    u = uniforms(3, 2)
    assert u[0] < 0.45 and u[1] < 0.30  # A lands (B: 3 -> 1), B's last round lands (A: 3 -> 0)
    fight = Fight(KNIFE, GUN)
    ex = fight.exchange("attack", "attack", np.random.default_rng(3))
    assert (ex.round, ex.first, ex.outcome) == (1, 0, "b_wins")
    assert ex.life == (0, 1) and ex.ammo == (0, 0) and fight.over
    with pytest.raises(CombatError, match="over"):
        fight.exchange("attack", "attack", np.random.default_rng(3))


@pytest.mark.parametrize("seed, outcome, life_b", [(12, "a_wins", -1), (8, "b_escaped", 1)])
def test_a_retreat_is_pursued_once(seed, outcome, life_b):
    u = uniforms(seed, 3)
    # Round 1: A lands (B: 3 -> 1), B misses with its only round. Round 2: B retreats, A's
    # pursuit lands (B: 1 -> -1, dead) or misses (B escapes).
    assert u[0] < 0.45 and u[1] >= 0.30 and (u[2] < 0.21) == (outcome == "a_wins")
    rng = np.random.default_rng(seed)
    fight = Fight(KNIFE, GUN)
    ex = fight.exchange("attack", "attack", rng)
    assert (ex.outcome, ex.life, ex.ammo) == ("continue", (3, 1), (0, 0))
    ex = fight.exchange("attack", "retreat", rng)
    assert (ex.round, ex.outcome, ex.life) == (2, outcome, (3, life_b))
    assert fight.counters[0].tolist() == [1, 1, 1, int(outcome == "a_wins")]


def test_both_retreating_part_and_bad_decisions_are_refused():
    rng = np.random.default_rng(0)
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
    # The interval is Wilson's for the counted wins: the roots in p of
    # (k/n - p)^2 = z^2 p (1 - p) / n, solved here as a quadratic.
    k, n, z = s.outcomes["a_wins"], 2000, 1.96
    share = k / n
    roots = sorted(np.roots([1 + z * z / n, -(2 * share + z * z / n), share * share]).real)
    assert summary["win_a_ci"] == pytest.approx(roots, abs=1e-9) and summary["n"] == 2000
    assert s.win_a == k / n
    # Mean rounds from the histogram of fight lengths (index = rounds).
    counts = np.asarray(s.rounds)
    assert counts.sum() == n and counts[0] == 0
    assert s.mean_rounds == pytest.approx((np.arange(len(counts)) * counts).sum() / n)
    lo, hi = wilson_interval(np.array([0, 10]), 10)
    assert lo[0] == 0 and hi[1] == 1 and hi[0] > 0
    with pytest.raises(ArgumentError, match="n: must be at least 1"):
        simulate_fights(Loadout(), Loadout(), 0)


def test_wilson_interval_against_hand_worked_numbers():
    # 7 of 20 at z = 1.96: 1.19208 p^2 - 0.89604 p + 0.1225 = 0 -> p = 0.18119, 0.56714
    # (asymmetric around 0.35: the interval is not centred on the share).
    lo, hi = wilson_interval(7, 20)
    assert (float(lo), float(hi)) == pytest.approx((0.18119, 0.56714), abs=2e-5)
    lo, hi = wilson_interval(np.array([0, 20]), 20)
    assert lo.tolist() == pytest.approx([0.0, 0.83887], abs=2e-5)
    assert hi.tolist() == pytest.approx([0.16113, 1.0], abs=2e-5)


def test_exchange_kernel_codes_are_consistent():
    assert FIGHT_OUTCOMES[_kernels.CONTINUE] == "continue"
    assert FIGHT_OUTCOMES[_kernels.STALEMATE] == "stalemate"
    assert len(_kernels.COLUMNS) == _kernels.NCOL == len(Fighter.__dataclass_fields__)
