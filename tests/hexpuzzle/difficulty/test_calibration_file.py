"""The calibration file (version 2): a fitted calibration's document reads back to one that
writes the same document, a version-1 file is refused saying why, and each broken field is
refused naming its JSON pointer."""

from __future__ import annotations

import copy
import json

import pytest

from labkit.hexpuzzle.difficulty.calibration_file import (
    FORMAT,
    MAX_NUMBER,
    VERSION,
    calibration_from_dict,
)
from labkit.hexpuzzle.difficulty.fit import calibrate, example_difficulties
from labkit.hexpuzzle.difficulty.observed import CalibrationError
from labkit.hexpuzzle.difficulty.players import telemetry_from_weights


@pytest.fixture(scope="module")
def fitted():
    levels = example_difficulties(10, rng=1)
    tele = telemetry_from_weights(levels, {"layers": 40}, players=40, rng=2)
    cal = calibrate(tele, levels, n_boot=20, rng=0)
    return cal, json.loads(json.dumps(cal.to_dict()))


def test_the_header_is_format_and_version_2(fitted):
    _, doc = fitted
    assert (
        (doc["format"], doc["version"]) == (FORMAT, VERSION) == ("labkit.hexpuzzle.calibration", 2)
    )


def test_a_document_reads_back_to_the_same_document(fitted):
    cal, doc = fitted
    again = calibration_from_dict(type(cal), copy.deepcopy(doc))
    assert json.loads(json.dumps(again.to_dict())) == doc
    assert again.level_ids == cal.level_ids and again.weights == cal.weights


def test_a_version_1_file_is_refused_saying_why(fitted):
    cal, doc = fitted
    with pytest.raises(CalibrationError, match="version-1 calibration file") as err:
        calibration_from_dict(type(cal), {"format": FORMAT, "version": 1, "weights": {}})
    assert err.value.pointer == "/data"


def _set(doc, pointer, value):
    *path, last = pointer.strip("/").split("/")
    at = doc
    for key in path:
        at = at[int(key)] if isinstance(at, list) else at[key]
    if isinstance(at, list):
        at[int(last)] = value
    elif value is KeyError:
        del at[last]
    else:
        at[last] = value


@pytest.mark.parametrize(
    "pointer, value, where",
    [
        ("/weights/size", KeyError, "/weights"),
        ("/confidence", 1.5, "/confidence"),
        ("/edges/0", MAX_NUMBER * 10, "/edges/0"),
        ("/edges/1", True, "/edges/1"),
        ("/n_boot", -1, "/n_boot"),
        ("/data/used", [True], "/data/used"),
        ("/data/level_ids/0", 7, "/data/level_ids/0"),
        ("/data/observed/players/0", -3, "/data/observed/players/0"),
        ("/data/observed/index", [0.5], "/data/observed/index"),
        ("/data/strengths/0/0", "x", "/data/strengths/0/0"),
    ],
    ids=lambda v: str(v) if isinstance(v, str) else None,
)
def test_a_broken_field_is_refused_naming_its_pointer(fitted, pointer, value, where):
    cal, doc = fitted
    bad = copy.deepcopy(doc)
    _set(bad, pointer, value)
    with pytest.raises(CalibrationError) as err:
        calibration_from_dict(type(cal), bad)
    assert err.value.pointer == where, str(err.value)


def test_not_an_object_is_refused(fitted):
    cal, _ = fitted
    with pytest.raises(CalibrationError, match="expected a JSON object"):
        calibration_from_dict(type(cal), [1, 2])
