"""One convention per kind of error, listed in one table (docs/errors.md).

Every ``LabkitError`` subclass defined in the package has a row in the table, with the bases the row
states; every error of a file format is a ``labkit.io.FormatError``; argument errors are
``labkit.ArgumentError``s (so ``except ValueError`` still catches them).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labkit import ArgumentError, LabkitError
from labkit.io import FormatError
from tests.package_classes import classes_in_package

TABLE = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
ROW = re.compile(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|", re.M)
FILE_ERRORS = ("LevelError", "TelemetryError", "CalibrationError", "SkillModelError", "MapError",
               "TowerError", "SaveError", "BalanceError", "TraceError")  # fmt: skip


def defined_errors() -> dict[str, type]:
    return {cls.__name__: cls for cls in classes_in_package(LabkitError).values()}


def table() -> dict[str, list[str]]:
    rows = ROW.findall(TABLE.read_text(encoding="utf-8"))
    return {name: re.findall(r"`(\w+)`", bases) for name, bases in rows}


def test_every_error_has_a_row_with_its_bases() -> None:
    errors, rows = defined_errors(), table()
    assert sorted(set(errors) - set(rows)) == [], "errors missing from docs/errors.md"
    assert sorted(set(rows) - set(errors) - {"LabkitError"}) == [], "rows for missing errors"
    wrong = {n: ([b.__name__ for b in e.__bases__], rows[n]) for n, e in errors.items()
             if [b.__name__ for b in e.__bases__] != rows[n]}  # fmt: skip
    assert wrong == {}


@pytest.mark.parametrize("name", FILE_ERRORS)
def test_file_errors_are_format_errors(name: str) -> None:
    assert issubclass(defined_errors()[name], FormatError)


def test_a_bad_level_file_is_caught_as_a_format_error(tmp_path: Path) -> None:
    from labkit.hexpuzzle import Level

    bad = tmp_path / "lvl.json"
    bad.write_text('{"version": 2, "id": "x", "moveLimit": 0, "cells": [], "tiles": []}')
    with pytest.raises(FormatError, match="moveLimit"):
        Level.load(bad)


def test_a_bad_generator_option_is_an_argument_error() -> None:
    from labkit.hexpuzzle import generate

    with pytest.raises(ArgumentError, match=r"^radius: must be 1-4 \(got 7\)$") as err:
        generate(0, radius=7)
    assert err.value.argument == "radius" and isinstance(err.value, ValueError)
