"""The quit model's rules, fast and exact (the mirror tests of ``skill-quit`` in scripts/mutate.py).

Every expected value comes from the module docstring's definition

    logit P(quit) = b + a·θ + w·won + r_run + k·(attempts − 1) + d·position / 10

(run terms r_1 .. r_4+, a run of 4 or more counting as 4, attempts capped at 6), from the normal
interval ``coefficient ± z·SE`` and from ``ArgumentError``'s documented text
``argument: message (got value)``, never from the module's own output.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.skill_quit import QUIT_TERMS, QuitModel, design

# z of a two-sided normal interval (standard tables)
Z95, Z90 = 1.959963984540054, 1.6448536269514722
COEF = [-2.0, -0.5, -1.0, 0.4, 0.8, 1.2, 1.6, 0.3, 0.1]


def coefs(values=COEF):
    return dict(zip(QUIT_TERMS, values))


def row(won, run, attempt, position):
    """One design row written from the docstring, term by term."""
    r = min(run, 4)
    return [1.0, float(won), *(float(r == k) for k in (1, 2, 3, 4)), min(attempt, 6) - 1.0,
            position / 10.0]  # fmt: skip


def logit(c, theta, won, run, attempt, position):
    b, a, w, r1, r2, r3, r4, k, d = (c[t] for t in QUIT_TERMS)
    r_run = {0: 0.0, 1: r1, 2: r2, 3: r3}.get(run, r4)
    return b + a * theta + w * won + r_run + k * (min(attempt, 6) - 1) + d * position / 10


# ---- design ---------------------------------------------------------------------------------


def test_design_rows_follow_the_definition():
    for won in (False, True):
        for run in range(7):
            for attempt in range(1, 9):
                for position in (0, 3, 10, 27):
                    got = design(won, run, attempt, position)
                    assert got.shape == (8,) and got.dtype == np.float64
                    assert got.tolist() == row(won, run, attempt, position)


def test_design_broadcasts_every_argument():
    args = [True, 2, 3, 5]
    for i, many in enumerate([[True, False, True], [0, 1, 5], [1, 6, 9], [0, 10, 25]]):
        call = list(args)
        call[i] = many
        got = design(*call)
        assert got.shape == (3, 8)
        for j in range(3):
            one = list(args)
            one[i] = many[j]
            assert got[j].tolist() == row(*one)
    grid = design(np.array([[True], [False]]), np.array([1, 4]), 2, 0)
    assert grid.shape == (2, 2, 8)
    assert grid[1, 1].tolist() == row(False, 4, 2, 0)


def test_design_is_float64_whatever_the_input_dtypes():
    # position / 10 is taken in float64: a float32 position 3 is 0.3, not float32(0.3)
    for dt in (np.float32, np.float16, np.int16, np.uint8):
        got = design(np.array([1], dt), np.array([2], dt), np.array([3], dt), np.array([3], dt))
        assert got.dtype == np.float64
        assert got[0].tolist() == row(True, 2, 3, 3)


# ---- p_quit ---------------------------------------------------------------------------------


def test_p_quit_is_the_logistic_of_the_documented_logit():
    rng = np.random.default_rng(7)
    for _ in range(20):
        c = coefs(rng.normal(0, 1, 9).round(3).tolist())
        q = QuitModel(c)
        for won in (False, True):
            for run in (0, 1, 2, 3, 4, 7):
                for attempt in (1, 2, 6, 9):
                    theta, position = float(rng.normal()), int(rng.integers(0, 40))
                    eta = logit(c, theta, won, run, attempt, position)
                    got = q.p_quit(theta, position=position, won=won, attempt=attempt, run=run)
                    assert float(got) == pytest.approx(1 / (1 + math.exp(-eta)), rel=1e-12)


def test_p_quit_default_run_is_zero_after_a_first_try_win_else_one():
    c = coefs([0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 0.0])
    q = QuitModel(c)
    for won, attempt, run in [(True, 1, 0), (True, 2, 1), (False, 1, 1), (False, 4, 1)]:
        got = q.p_quit(0.0, position=0, won=won, attempt=attempt)
        want = q.p_quit(0.0, position=0, won=won, attempt=attempt, run=run)
        assert float(got) == float(want)
        assert float(got) == pytest.approx(1 / (1 + math.exp(-logit(c, 0, won, run, attempt, 0))))


def test_p_quit_takes_won_as_truth_values():
    # 0/1 floats or ints (a data frame's column) mean the same as booleans, default run included
    q = QuitModel(coefs())
    for won, flag in ((1.0, True), (0.0, False), (1, True), (0, False), (2, True)):
        for attempt in (1, 3):
            got = q.p_quit(0.4, position=5, won=won, attempt=attempt)
            assert float(got) == float(q.p_quit(0.4, position=5, won=flag, attempt=attempt))
    many = q.p_quit(0.0, position=0, won=np.array([1.0, 0.0]), attempt=1)
    assert many.tolist() == q.p_quit(0.0, position=0, won=[True, False], attempt=1).tolist()


def test_p_quit_edge_values():
    q0 = QuitModel(coefs([0.0] * 9))
    assert float(q0.p_quit(3.0, position=12, won=True, attempt=4, run=2)) == 0.5
    huge = QuitModel(coefs([-700.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]))
    assert 0.0 < float(huge.p_quit(0.0, position=0, won=True, attempt=1)) < 1e-300
    sure = QuitModel(coefs([700.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]))
    assert float(sure.p_quit(0.0, position=0, won=True, attempt=1)) == 1.0
    # a < 0: weaker players quit more; arrays broadcast
    q = QuitModel(coefs())
    p = q.p_quit(np.array([-2.0, 0.0, 2.0]), position=[0, 0, 0], won=False, attempt=1, run=1)
    assert p.shape == (3,) and p[0] > p[1] > p[2]
    grid = q.p_quit(np.zeros((2, 3)), position=0, won=[True, False, True], attempt=1)
    assert grid.shape == (2, 3)


# ---- interval, repr, to_dict ----------------------------------------------------------------


def test_interval_half_width_is_z_times_se_and_contains_the_value():
    var = [0.01 * (i + 1) for i in range(9)]
    q = QuitModel(coefs(), np.diag(var))
    for i, term in enumerate(QUIT_TERMS):
        se = math.sqrt(var[i])
        for level, z in ((0.95, Z95), (0.90, Z90)):
            lo, hi = q.interval(term, level)
            assert (lo + hi) / 2 == pytest.approx(COEF[i], abs=1e-11)
            assert (hi - lo) / 2 == pytest.approx(z * se, rel=1e-9)
            assert lo <= COEF[i] <= hi
    assert q.interval() == q.interval("ability", 0.95)
    assert q.interval("ability", 0.5)[1] - q.interval("ability", 0.5)[0] < hi - lo
    zero = QuitModel(coefs())
    for i, term in enumerate(QUIT_TERMS):
        assert zero.interval(term) == (COEF[i], COEF[i])


def test_interval_ends_are_rounded_to_12_decimals():
    c = coefs()
    c["won"] = 0.1234567890123
    assert QuitModel(c).interval("won") == (0.123456789012, 0.123456789012)
    q = QuitModel(c, np.diag(np.full(9, 0.0123)))
    lo, hi = q.interval("won")
    for end, exact in ((lo, 0.1234567890123 - Z95 * math.sqrt(0.0123)),
                       (hi, 0.1234567890123 + Z95 * math.sqrt(0.0123))):  # fmt: skip
        assert round(end, 12) == end and abs(end - exact) <= 5.1e-13


def test_repr_in_the_designers_words():
    cov = np.diag(np.full(9, 0.04))
    q = QuitModel(coefs(), cov)
    lo, hi = -0.5 - Z95 * 0.2, -0.5 + Z95 * 0.2
    assert repr(q) == (
        f"QuitModel(ability -0.50 [{lo:+.2f}, {hi:+.2f}] log-odds of quitting per logit)"
    )
    assert repr(QuitModel(coefs())) == (
        "QuitModel(ability -0.50 [-0.50, -0.50] log-odds of quitting per logit)"
    )


def test_to_dict_is_json_ready_and_round_trips():
    cov = np.arange(81, dtype=float).reshape(9, 9) / 100 + np.eye(9)
    q = QuitModel(coefs(), cov)
    d = json.loads(json.dumps(q.to_dict()))
    assert set(d) == {"coefficients", "cov"}
    assert d["coefficients"] == coefs()
    assert np.array(d["cov"]).tolist() == cov.tolist()
    back = QuitModel(d["coefficients"], np.array(d["cov"]))
    assert back.vector.tolist() == q.vector.tolist() and back.to_dict() == q.to_dict()
    d2 = q.to_dict()
    d2["coefficients"]["ability"] = 99.0
    assert q.coefficients["ability"] == -0.5  # a copy, not the model's own dict


# ---- __post_init__: errors naming field and value -------------------------------------------


def raises(coefficients, cov=None):
    with pytest.raises(ArgumentError) as info:
        QuitModel(coefficients) if cov is None else QuitModel(coefficients, cov)
    return info.value


def test_coefficients_must_name_exactly_the_terms():
    QuitModel(coefs())  # just inside
    short = dict(list(coefs().items())[:-1])
    long = {**coefs(), "extra": 0.0}
    for bad in (short, long, {}):
        err = raises(bad)
        assert err.argument == "coefficients" and err.value == sorted(bad)
        # the value's repr is capped (ArgumentError), so only its start is fixed
        assert str(err).startswith(f"coefficients: must name exactly {QUIT_TERMS} (got [")


def test_cov_must_be_nine_by_nine():
    QuitModel(coefs(), np.zeros((9, 9)))  # just inside
    for shape in ((8, 8), (9, 10), (9,), (9, 9, 1)):
        err = raises(coefs(), np.zeros(shape))
        assert err.argument == "cov" and err.value == shape
        assert str(err) == f"cov: must be 9 x 9 (got {shape!r})"


def test_each_coefficient_must_be_a_finite_number():
    big = coefs()
    big["won"], big["position"] = 1.7e308, 0  # just inside: large floats, plain ints
    QuitModel(big)
    for bad in (math.nan, math.inf, -math.inf, True, False, "1", None, [1.0]):
        c = coefs()
        c["run 2"] = bad
        err = raises(c)
        assert err.argument == "coefficients['run 2']"
        assert err.value is bad
        assert str(err) == f"coefficients['run 2']: must be a finite number (got {bad!r})"


def test_cov_must_be_finite_with_variances_at_least_zero():
    ok = np.zeros((9, 9))
    ok[0, 1] = ok[1, 0] = -0.5  # a negative covariance is allowed, a zero variance too
    QuitModel(coefs(), ok)
    want = "cov: must be finite with variances >= 0 on its diagonal"
    want += " (got 'NaN, inf or a variance < 0')"
    for i, j, v in ((0, 1, math.nan), (3, 3, math.inf), (2, 5, -math.inf), (4, 4, -1e-12)):
        bad = np.eye(9)
        bad[i, j] = v
        err = raises(coefs(), bad)
        assert err.argument == "cov" and err.value == "NaN, inf or a variance < 0"
        assert str(err) == want


def test_cov_as_nested_lists_is_kept_as_a_float_array():
    var = [[0.04 * (i == j) for j in range(9)] for i in range(9)]
    q = QuitModel(coefs(), var)
    assert isinstance(q.cov, np.ndarray) and q.cov.dtype == np.float64
    assert q.to_dict()["cov"] == var
    lo, hi = q.interval("ability")
    assert (hi - lo) / 2 == pytest.approx(Z95 * 0.2)
    assert repr(q).startswith("QuitModel(ability -0.50 [")
    ints = QuitModel(coefs(), np.eye(9, dtype=int))
    assert ints.cov.dtype == np.float64
