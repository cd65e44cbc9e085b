"""The calibration fit: its errors name what is wrong; band edges fall back when success does
not fall."""

from __future__ import annotations

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.fit import (
    CalibrationError,
    band_edges,
    calibrate,
    example_difficulties,
)
from labkit.hexpuzzle.difficulty.observed import INDEX_WEIGHTS
from labkit.hexpuzzle.difficulty.players import telemetry_from_weights


def test_errors_name_what_is_wrong():
    levels = example_difficulties(7, rng=1)
    tele = telemetry_from_weights(levels, {"layers": 40}, players=5, rng=2)
    with pytest.raises(CalibrationError, match="at least 8"):
        calibrate(tele, levels)
    more = example_difficulties(9, rng=1)
    with pytest.raises(ArgumentError, match=r"index_weights\['hints'\]: must be a number >= 0"):
        calibrate(tele, more, index_weights={**INDEX_WEIGHTS, "hints": -1})
    with pytest.raises(ValueError, match="band_targets"):
        calibrate(tele, more, band_targets=(0.5, 0.6, 0.7))
    with pytest.raises(ValueError, match="bootstrap"):
        calibrate(tele, more, bootstrap="rows")


def test_band_edges_fall_back_when_success_does_not_fall():
    pred = np.array([10.0, 30.0, 50.0, 70.0])
    edges, derived = band_edges(pred, np.array([0.9, 0.7, 0.5, 0.3]))
    assert derived and np.allclose(edges, [15.0, 35.0, 55.0])
    edges, derived = band_edges(pred, np.array([0.3, 0.5, 0.7, 0.9]))
    assert not derived and edges.tolist() == [30.0, 50.0, 70.0]
