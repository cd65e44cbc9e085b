"""telemetry_from_weights: the rules of its docstring, fast (known truth and exact structure).

With ``p = (intercept + Σ w_j x_j) / 100`` clipped to [0, 1] (``x`` the strengths of the parts,
part / default weight; parts not named weigh 0), each of ``players`` players (ids ``s000…``)
makes one attempt per level: ``won ~ Bernoulli(1 − p)``, ``collisions ~ Binomial(N, p)``, a
hint and an undo each with probability ``p``, ``seconds = time_ref × Beta(4p, 4(1 − p))``,
rotations ``R + Poisson(2p)``; so the expected observed index is ``100 p``.
"""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty import players as pl
from labkit.hexpuzzle.difficulty.observed import TIME_REF, observed_index
from labkit.hexpuzzle.difficulty.parts import PARTS, WEIGHTS
from labkit.hexpuzzle.difficulty.scoring import Difficulty, score
from labkit.hexpuzzle.difficulty.telemetry_rules import COLUMNS
from labkit.hexpuzzle.level import Level
from labkit.rng import make_rng

weights_telemetry = pl.telemetry_from_weights


def made(level_id, *, N=10, R=2, **strength):
    """A score with the given part strengths (0 where not given) and quantities N, R."""
    parts = {p: WEIGHTS[p] * float(strength.get(p, 0.0)) for p in PARTS}
    total = round(sum(parts.values()))
    return Difficulty("ok", total, parts, N, 1.0, 3, 0, R, N, N + 2, level_id)


def rows_of(table, level_id):
    return table[table["level"] == level_id]


class ZeroDraws(np.random.Generator):
    """A generator whose uniform draws are all 0.0, the lowest value a draw in [0, 1) can take."""

    def random(self, size=None, dtype=np.float64, out=None):
        return np.zeros(size)


# -- known truth: each component has expectation p ------------------------------------------------

K = 3000  # players per level: standard errors of about 0.009 on a rate
# p = 0.6 · rotation + 0.2 · layers (weights 60 and 20 points at full strength)
TRUTH = {"rotation": 60, "layers": 20}
LEVELS = [
    made("a", N=12, R=0, rotation=0.25),  # p = 0.15
    made("b", N=5, R=3, rotation=0.5, size=1.0, turns=1.0),  # p = 0.30 (size, turns weigh 0)
    made("c", N=20, R=1, rotation=0.75, layers=0.75),  # p = 0.60
]
P = {"a": 0.15, "b": 0.30, "c": 0.60}


@pytest.fixture
def table():
    # Not module-scoped: mutmut runs, for a mutant of a function, only the tests it saw call
    # that function, and a shared fixture's call is seen in the first test that uses it.
    return weights_telemetry(LEVELS, TRUTH, players=K, rng=11)


def close(value, want, sd, n=K):
    """Within 4.5 standard errors (the seed is fixed: the check is deterministic)."""
    return abs(value - want) <= 4.5 * sd / np.sqrt(n)


def test_every_component_has_expectation_p(table):
    for d in LEVELS:
        t, p = rows_of(table, d.level_id), P[d.level_id]
        bern = np.sqrt(p * (1 - p))
        assert close(t["won"].mean(), 1 - p, bern)
        assert close(t["hints"].mean(), p, bern) and close(t["undos"].mean(), p, bern)
        assert set(t["hints"].tolist()) <= {0, 1} and set(t["undos"].tolist()) <= {0, 1}
        # collisions ~ Binomial(N, p): mean N p, variance N p (1 - p), never more than N
        c = t["collisions"]
        assert close(c.mean(), d.N * p, np.sqrt(d.N) * bern) and 0 <= c.min() and c.max() <= d.N
        assert c.var() == pytest.approx(d.N * p * (1 - p), rel=0.12)
        # seconds / time_ref ~ Beta(4p, 4(1 - p)): mean p, variance p (1 - p) / 5
        s = t["seconds"] / TIME_REF
        assert close(s.mean(), p, bern / np.sqrt(5)) and 0 <= s.min() and s.max() <= 1
        assert s.var() == pytest.approx(p * (1 - p) / 5, rel=0.12)
        # rotations: R plus Poisson(2p) noise (mean and variance 2p, never below R)
        noise = t["rotations"] - d.R
        assert noise.min() >= 0 and close(noise.mean(), 2 * p, np.sqrt(2 * p))
        assert noise.var() == pytest.approx(2 * p, rel=0.12)


def test_the_expected_observed_index_is_intercept_plus_the_weighted_strengths(table):
    obs = observed_index(table, LEVELS)
    assert obs.index == pytest.approx([100 * P[d.level_id] for d in LEVELS], abs=2.0)
    base = weights_telemetry(LEVELS[:1], {}, players=K, rng=3, intercept=40)
    assert observed_index(base, LEVELS[:1]).index[0] == pytest.approx(40, abs=2.0)


# -- exact rules ----------------------------------------------------------------------------------


def test_columns_rows_ids_and_order(table):
    assert table.dtype.names == tuple(COLUMNS)
    assert len(table) == 3 * K
    assert table["level"].tolist() == [lid for lid in "abc" for _ in range(K)]
    ids = [f"s{j:03d}" for j in range(K)]
    assert table["player"].tolist() == ids * 3 and ids[:2] == ["s000", "s001"]
    assert (table["attempt"] == 1).all()  # one attempt per player and level
    assert (table["first_try"] == table["won"]).all()  # so a win is a first-try win
    for name in ("collisions", "hints", "rotations", "undos"):
        assert table[name].dtype.kind == "i"
    assert table["won"].dtype == bool and table["seconds"].dtype.kind == "f"


def test_seconds_are_rounded_to_hundredths():
    table = weights_telemetry(LEVELS, TRUTH, players=100, rng=12)
    hundredths = table["seconds"] * 100
    assert np.allclose(hundredths, np.round(hundredths), atol=1e-6)
    assert (np.round(hundredths) % 10 != 0).mean() > 0.5  # not coarser than hundredths


def test_p_zero_the_trivial_level_and_the_defaults():
    levels = [made("z", N=7, R=3, rotation=0.9), made("y", N=4, R=0)]
    t = weights_telemetry(levels, {})  # no weights, intercept 0 (default): p = 0
    assert len(t) == 2 * 200  # 200 players per level by default
    assert t["player"].tolist()[:3] == ["s000", "s001", "s002"] and t["player"][199] == "s199"
    assert t["won"].all() and t["first_try"].all()
    for name in ("collisions", "hints", "undos"):
        assert (t[name] == 0).all(), name
    assert (t["seconds"] == 0.0).all()
    # rotations are exactly R when p = 0 (no noise)
    assert rows_of(t, "z")["rotations"].tolist() == [3] * 200
    assert rows_of(t, "y")["rotations"].tolist() == [0] * 200


def test_p_zero_holds_even_for_the_lowest_draw():
    """Probability 0 is never, whatever the draw in [0, 1) (here every draw is 0.0)."""
    t = weights_telemetry([made("z", N=6, R=1)], {}, players=5, rng=ZeroDraws(np.random.PCG64(1)))
    assert t["won"].all() and (t["hints"] == 0).all() and (t["undos"] == 0).all()
    # probability 1: always, also for the lowest draw
    t = weights_telemetry([made("z", N=6, R=1)], {}, players=5, rng=ZeroDraws(np.random.PCG64(1)),
                          intercept=100)  # fmt: skip
    assert not t["won"].any() and (t["hints"] == 1).all() and (t["undos"] == 1).all()


@pytest.mark.parametrize("intercept", [100, 100.0, 150, 1e6])
def test_p_one_every_player_fails_at_every_tile(intercept):
    d = made("o", N=9, R=2, rotation=1.0)
    t = weights_telemetry([d], {}, players=300, rng=4, intercept=intercept)  # clipped to 1
    assert not t["won"].any() and not t["first_try"].any()
    assert (t["collisions"] == 9).all() and (t["hints"] == 1).all() and (t["undos"] == 1).all()
    assert (t["seconds"] == TIME_REF).all() and TIME_REF == 240.0  # the default time_ref
    assert (t["rotations"] >= 2).all() and (t["rotations"] > 2).any()
    t = weights_telemetry([d], {"rotation": 100}, players=20, rng=4, time_ref=100.0)
    assert (t["seconds"] == 100.0).all() and (t["collisions"] == 9).all()


def test_a_negative_target_is_clipped_to_zero():
    levels = [made("n", N=8, R=1, rotation=0.5, turns=1.0)]
    low = weights_telemetry(levels, {"rotation": 40, "turns": 10}, players=50, rng=6, intercept=-80)
    assert low.tolist() == weights_telemetry(levels, {}, players=50, rng=6).tolist()
    assert low["won"].all() and (low["seconds"] == 0).all()


def test_time_ref_scales_the_seconds():
    d = [made("t", N=5, R=0, rotation=0.5)]  # p = 0.3
    a = weights_telemetry(d, {"rotation": 60}, players=400, rng=8)
    b = weights_telemetry(d, {"rotation": 60}, players=400, rng=8, time_ref=24.0)
    assert np.allclose(b["seconds"], a["seconds"] / 10, atol=0.006)
    assert a["seconds"].max() <= TIME_REF and b["seconds"].max() <= 24.0


def test_the_table_depends_on_the_target_only():
    """Same p, same seed: the same table, however p is made (parts not named weigh 0)."""
    d = [made("w", N=6, R=1, rotation=0.5, size=1.0, turns=1.0, layers=1.0, blocking=1.0,
              pressure=1.0)]  # fmt: skip
    named = weights_telemetry(d, {"rotation": 60}, players=300, rng=2).tolist()
    zeros = {p: 0.0 for p in PARTS} | {"rotation": 60}
    assert weights_telemetry(d, zeros, players=300, rng=2).tolist() == named
    assert weights_telemetry(d, {}, players=300, rng=2, intercept=30).tolist() == named
    # and a different target gives a different table
    assert weights_telemetry(d, {"rotation": 60, "size": 5}, players=300, rng=2).tolist() != named


def test_levels_are_scored_and_scores_are_used_as_given():
    lv = Level.load(pl._shipped("02-one-turn.json"))
    d = score(lv)
    from_level = weights_telemetry([lv], {"rotation": 60, "turns": 40}, players=200, rng=5)
    from_score = weights_telemetry([d], {"rotation": 60, "turns": 40}, players=200, rng=5)
    assert from_level.tolist() == from_score.tolist()
    assert set(from_level["level"].tolist()) == {lv.id}
    assert (from_level["rotations"] >= d.R).all() and from_level["collisions"].max() <= d.N


def test_the_same_seed_gives_the_same_table_and_a_generator_is_shared():
    d = [made("r", N=6, R=1, rotation=0.5), made("q", N=3, R=0, rotation=0.8)]
    one = weights_telemetry(d, TRUTH, players=100, rng=21).tolist()
    assert weights_telemetry(d, TRUTH, players=100, rng=21).tolist() == one
    assert weights_telemetry(d, TRUTH, players=100, rng=22).tolist() != one
    gen = make_rng(21)
    first = weights_telemetry(d, TRUTH, players=100, rng=gen).tolist()
    assert first == one  # an int seed and its generator agree
    assert weights_telemetry(d, TRUTH, players=100, rng=gen).tolist() != one  # state moved on


def test_no_players_and_no_levels_give_an_empty_table():
    for t in (weights_telemetry([made("e")], TRUTH, players=0, rng=1),
              weights_telemetry([], TRUTH, rng=1)):  # fmt: skip
        assert len(t) == 0 and t.dtype.names == tuple(COLUMNS)


def test_unknown_parts_are_refused_word_for_word():
    with pytest.raises(ArgumentError) as err:
        weights_telemetry([made("u")], {"speed": 3, "rotation": 60, "pace": 1}, players=2, rng=1)
    assert err.value.argument == "weights" and err.value.value == ["pace", "speed"]
    said = f"weights: unknown parts; the parts are {PARTS} (got ['pace', 'speed'])"
    assert str(err.value) == said
    for name in PARTS:  # every part may be named
        assert len(weights_telemetry([made("u")], {name: 10}, players=2, rng=1)) == 2
