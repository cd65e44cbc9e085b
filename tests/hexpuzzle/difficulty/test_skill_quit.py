"""The quit model: its logistic formula and the interval of a coefficient."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from labkit.hexpuzzle import (
    QuitModel,
)
from labkit.hexpuzzle.difficulty.skill_quit import QUIT_TERMS


def test_quit_model_formula_and_interval():
    coef = dict(zip(QUIT_TERMS, [-2.0, -0.5, -1.0, 0.4, 0.8, 1.2, 1.6, 0.3, 0.1]))
    cov = np.diag(np.full(len(QUIT_TERMS), 0.04))
    q = QuitModel(coef, cov)
    got = q.p_quit(np.array([-1.0, 2.0]), position=20, won=False, attempt=3, run=2)
    eta = -2.0 - 0.5 * np.array([-1.0, 2.0]) + 0.8 + 0.3 * 2 + 0.1 * 2.0
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-eta)))
    assert q.p_quit(0.0, position=0, won=True, attempt=1) == pytest.approx(expit(-3.0))
    lo, hi = q.interval("ability")
    assert lo == pytest.approx(-0.5 - 1.959964 * 0.2) and hi == pytest.approx(-0.5 + 1.959964 * 0.2)
