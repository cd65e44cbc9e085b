"""The telemetry table's columns, limits and error: the columns are the shipped CSV's header in
order, the limits are the documented numbers, and the error is a format error that tracebacks
name under the telemetry module."""

from __future__ import annotations

import pickle

from labkit._data import data_path
from labkit.hexpuzzle.difficulty import telemetry, telemetry_rules
from labkit.hexpuzzle.difficulty.telemetry_rules import (
    COLUMNS,
    MAX_BYTES,
    MAX_COUNT,
    MAX_ROWS,
    MAX_SECONDS,
    MAX_TEXT,
    TelemetryError,
)
from labkit.io import FormatError


def test_the_columns_are_the_shipped_files_header_in_order():
    lines = data_path("telemetry", "progression.csv").read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if not line.startswith("#"))
    assert list(COLUMNS) == header.split(",")
    assert COLUMNS["attempt"] == "attempt" and COLUMNS["seconds"] == "seconds"
    assert {COLUMNS[c] for c in ("first_try", "won")} == {"flag"}
    assert {COLUMNS[c] for c in ("collisions", "hints", "rotations", "undos")} == {"count"}
    assert {COLUMNS[c] for c in ("level", "player")} == {"text"}


def test_the_limits_are_the_documented_numbers():
    assert MAX_BYTES == 4 * 2**30  # 4 GiB
    assert MAX_ROWS == 10**7 and MAX_TEXT == 200 and MAX_COUNT == 10**9
    assert MAX_SECONDS == 31_536_000.0  # a year of 365 days


def test_the_error_is_a_format_error_named_in_the_telemetry_module():
    assert issubclass(TelemetryError, FormatError)
    assert TelemetryError.__module__ == "labkit.hexpuzzle.difficulty.telemetry"
    assert telemetry.TelemetryError is TelemetryError is telemetry_rules.TelemetryError
    assert pickle.loads(pickle.dumps(TelemetryError)) is TelemetryError
