"""Outcome-only games (SPEC W3): the numba game kernel gives the session's rows, seed for seed.

The reference is :class:`~labkit.encounter.sim.session.GameSession` itself (the readable rules);
the kernel's random numbers are numpy's, checked here draw by draw.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from labkit.encounter import _game_kernels as gk
from labkit.encounter.sim import fast_outcome as fast
from labkit.encounter.sim.batch import run_batch
from labkit.encounter.sim.runner import outcome_row
from labkit.encounter.sim.settings import SimulationSettings as S
from labkit.rng import stream

VARIANTS = [
    S(difficulty=(0, 0)),
    S(difficulty=(2, 3)),
    S(difficulty=(3, 2), npcs=4),
    S(policies=("random", "random")),
    S(policies=("hunter", "scavenger")),
    S(npcs=5, monsters=2, width=5, height=4),
    S(width=1, height=2, npcs=1, monsters=1),
    S(width=8, height=3, npcs=2, monsters=3, difficulty=(3, 3)),
    S(balance={"/weapons/revolver/hit_score": 4, "/characters/monster/life": 2}),
    S(balance={"/combat/max_rounds": 1, "/combat/stealth_hit_bonus": 3}),
    S(balance={"/card_pool/stock/bullet": 0}),
    S(balance={"/attachments/silencer/noise": -6, "/weapons/claws/noise": 6}),
    S(max_steps=20),
]


@pytest.mark.slow
def test_outcome_only_equals_the_session_over_a_thousand_seeds():
    # 610 default games and 30 of each variant (every policy, level, map shape, balance edge)
    games = [S(seed=s, map_seed=s) for s in range(610)]
    games += [v.replace(seed=s, map_seed=s + 1000) for v in VARIANTS for s in range(30)]
    assert len(games) >= 1000
    diff = [g for g in games if fast.outcome_row_fast(g) != outcome_row(g)]
    assert not diff, diff[:3]


def test_run_batch_and_sweep_rows_are_the_same_in_both_modes():
    sweep = [S(max_steps=150), S(max_steps=150, npcs=2, monsters=2)]
    with ThreadPoolExecutor(2) as pool:
        a = run_batch(sweep, range(15), executor=pool, progress=False)
        b = run_batch(sweep, range(15), executor=pool, progress=False, mode="full")
    assert np.array_equal(a.rows, b.rows)


def test_a_game_that_runs_out_of_drawn_numbers_is_replayed(monkeypatch):
    monkeypatch.setattr(fast, "FIRST_BUFFER", 1)
    for s in range(8):
        g = S(seed=s, map_seed=s, difficulty=(3, 3))
        assert fast.outcome_row_fast(g) == outcome_row(g)
    args = fast.kernel_args(S(), 0, 0, size=1)
    gk.play_game(*args)
    assert args[-1][0] == gk.OVERFLOW  # what made the replay necessary


def test_custom_policies_fall_back_to_the_session(monkeypatch):
    from labkit.encounter.sim import policy

    class Lazy(policy.HunterPolicy):
        def act(self, obs):
            return "wait"

    monkeypatch.setitem(policy.POLICIES, "hunter", Lazy)
    g = S(seed=3, map_seed=3)
    assert fast.outcome_row_fast(g) == outcome_row(g)


@pytest.mark.parametrize("name", ["map", "policy/npc-0", "process"])
def test_the_kernel_draws_numpys_numbers(name):
    """random, integers (Lemire, buffered 32-bit halves) and permutation draw for draw."""
    ref = stream(5, name)
    bits = stream(5, name).bit_generator
    raw, st = bits.random_raw(4000), np.zeros(4, dtype=np.uint64)
    plan = np.random.default_rng(1).integers(0, 12, 600)
    for n in plan:
        if n == 0:
            assert gk._random(raw, st) == ref.random()
        elif n == 11:
            order = np.arange(7)
            for i in range(6, 0, -1):
                j = gk._interval(raw, st, i)
                order[i], order[j] = order[j], order[i]
            assert order.tolist() == ref.permutation(7).tolist()
        else:
            assert gk._integers(raw, st, int(n) * 37 + 1) == ref.integers(int(n) * 37 + 1)
    assert st[3] == 0
