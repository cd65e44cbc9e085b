"""Player telemetry of the hex track puzzle: one CSV row per attempt at a level (SPEC H9).

The format (``data/telemetry/*.csv``) has a header row naming these columns, in any order:

==============  ========  =====================================================================
column          type      meaning
==============  ========  =====================================================================
``level``       text      level id (``Level.id``)
``player``      text      player id (pseudonymous)
``attempt``     int ≥ 1   1 for the player's first attempt at this level, 2 for the next, …
``first_try``   0/1       this attempt is the first and it was won
``collisions``  int ≥ 0   failed taps (blocked or loop)
``hints``       int ≥ 0   hint requests
``rotations``   int ≥ 0   board rotations made (either way)
``undos``       int ≥ 0   undo actions
``seconds``     real ≥ 0  time from the first action to the end of the attempt
``won``         0/1       the board was cleared
==============  ========  =====================================================================

Decisions the SPEC leaves open
------------------------------
* ``first_try`` is redundant (``attempt == 1 and won``) but analysts filter on it, and telemetry
  from a real game may carry the game's own flag; the loader checks the two agree.
* Lines starting with ``#`` are comments (provenance: seed, labkit version); blank lines are
  skipped. Extra columns are ignored (a real export may carry more); missing ones are errors.
  Booleans accept ``0``/``1`` and ``true``/``false``.
* ``(level, player, attempt)`` must be unique. Attempt numbers need not be contiguous (a
  telemetry pipeline may drop rows); a player with no ``attempt == 1`` row simply adds nothing
  to a level's first-try figures.
* Limits: files up to :data:`MAX_BYTES`, ids up to :data:`MAX_TEXT` characters, counts and
  attempts up to :data:`MAX_COUNT`, seconds up to :data:`MAX_SECONDS`; a UTF-8 byte-order
  mark is accepted, other encodings are an error naming the line.
* Errors name the line (1-based, header and comments counted, as an editor shows it), the
  column and the bad text; nothing is half-loaded.
* Loaders return a numpy structured array (``level``/``player`` fixed-width unicode, counts
  ``int64``, ``seconds`` ``float64``, flags ``bool``); :func:`load_telemetry` returns a pandas
  ``DataFrame`` instead when pandas is importable (``frame=False`` forces numpy). Every labkit
  function taking telemetry accepts either (see :func:`as_table`).

Examples
--------
>>> text = '''level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won
... L1,p1,1,1,0,0,2,0,31.5,1
... L1,p2,1,0,3,1,4,2,80.0,0
... '''
>>> table = parse_telemetry(text)
>>> table["collisions"].tolist(), table["won"].tolist()
([0, 3], [True, False])
>>> try:
...     parse_telemetry(text.replace("3,1,4", "3,-1,4"))
... except TelemetryError as err:
...     print(err)
line 3, column 'hints': must be an integer 0-1000000000 (got '-1')
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import io as lio
from labkit.io import FormatError

__all__ = [
    "COLUMNS",
    "TelemetryError",
    "as_table",
    "load_telemetry",
    "make_table",
    "parse_telemetry",
    "save_telemetry",
    "to_csv",
    "to_frame",
]

#: Column name -> kind ("text", "count" (int >= 0), "attempt" (int >= 1), "flag", "seconds").
COLUMNS: dict[str, str] = {
    "level": "text",
    "player": "text",
    "attempt": "attempt",
    "first_try": "flag",
    "collisions": "count",
    "hints": "count",
    "rotations": "count",
    "undos": "count",
    "seconds": "seconds",
    "won": "flag",
}
_NUMERIC = {"attempt": np.int64, "count": np.int64, "flag": np.bool_, "seconds": np.float64}
_TRUE, _FALSE = {"1", "true", "True", "TRUE"}, {"0", "false", "False", "FALSE"}

#: Limits of a telemetry file: its size, a text field's length (level and player ids), the
#: largest count or attempt number (int64 holds far more; no real player comes near), the
#: longest attempt in seconds (a year). Memory is O(file size), work O(rows).
MAX_BYTES = 256 * 1024 * 1024
MAX_TEXT = 200
MAX_COUNT = 1_000_000_000
MAX_SECONDS = 365 * 24 * 3600.0
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


class TelemetryError(FormatError):
    """A telemetry file or table that breaks the format; names line, column and value."""


def _where(line: int | None, column: str) -> str:
    return f"column {column!r}" if line is None else f"line {line}, column {column!r}"


def _parse_cell(text: str, kind: str, where: str) -> Any:
    text = text.strip()
    if kind == "text":
        if not text:
            raise TelemetryError("must not be empty", pointer=where, value=text)
        if len(text) > MAX_TEXT:
            raise TelemetryError(f"longer than {MAX_TEXT} characters", pointer=where, value=text)
        try:
            text.encode("utf-8")  # a lone surrogate (a decoding escape) cannot be written back
        except UnicodeEncodeError:
            raise TelemetryError("not encodable text", pointer=where, value=text) from None
        return text
    if kind == "flag":
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise TelemetryError("must be 0 or 1", pointer=where, value=text)
    if kind == "seconds":
        try:
            # ASCII only: float() would also read "١٢" or "1_0"
            value = float(text) if _DECIMAL.fullmatch(text) else math.nan
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
            raise TelemetryError(f"must be a number 0-{MAX_SECONDS:g}", pointer=where, value=text)
        return value
    lo = 1 if kind == "attempt" else 0
    value = -1
    if len(text) <= 20 and _INTEGER.fullmatch(text):  # ASCII digits only, no "1_000" or "٣"
        value = int(text)
    if not lo <= value <= MAX_COUNT:
        raise TelemetryError(f"must be an integer {lo}-{MAX_COUNT}", pointer=where, value=text)
    return value


def _dtype(rows: Sequence[Sequence[Any]]) -> np.dtype:
    width = {
        name: max([1] + [len(row[i]) for row in rows])
        for i, name in enumerate(COLUMNS)
        if COLUMNS[name] == "text"
    }
    return np.dtype(
        [
            (name, f"<U{width[name]}" if kind == "text" else _NUMERIC[kind])
            for name, kind in COLUMNS.items()
        ]
    )


def _check_rows(rows: Sequence[Sequence[Any]], lines: Sequence[int | None]) -> None:
    """Cross-field rules: first_try agrees with attempt/won; (level, player, attempt) unique."""
    names = list(COLUMNS)
    i_attempt, i_first, i_won = (names.index(k) for k in ("attempt", "first_try", "won"))
    seen: dict[tuple[str, str, int], int | None] = {}
    for row, line in zip(rows, lines):
        expected = row[i_attempt] == 1 and bool(row[i_won])
        if bool(row[i_first]) != expected:
            raise TelemetryError(
                f"must equal (attempt == 1 and won) = {int(expected)}",
                pointer=_where(line, "first_try"),
                value=int(bool(row[i_first])),
            )
        key = (row[0], row[1], int(row[i_attempt]))
        if key in seen:
            first = seen[key]
            also = f" (also on line {first})" if first is not None else ""
            raise TelemetryError(
                f"duplicate (level, player, attempt){also}",
                pointer=_where(line, "attempt"),
                value=key,
            )
        seen[key] = line


def make_table(rows: Iterable[Sequence[Any]], *, lines: Sequence[int] | None = None) -> NDArray:
    """Validate rows (values in :data:`COLUMNS` order) and build the structured array.

    Examples
    --------
    >>> t = make_table([("L1", "p1", 1, 1, 0, 0, 1, 0, 12.0, 1)])
    >>> t.dtype.names[:3], int(t["attempt"][0])
    (('level', 'player', 'attempt'), 1)
    """
    rows = [tuple(r) for r in rows]
    where_of = list(lines) if lines is not None else [None] * len(rows)
    clean = []
    for row, line in zip(rows, where_of):
        if len(row) != len(COLUMNS):
            raise TelemetryError(
                f"a row needs {len(COLUMNS)} values", pointer=f"line {line}", value=row
            )
        clean.append(
            tuple(
                _parse_cell(
                    str(int(v) if isinstance(v, (bool, np.bool_)) else v), kind, _where(line, name)
                )
                for v, (name, kind) in zip(row, COLUMNS.items())
            )
        )
    _check_rows(clean, where_of)
    return np.array(clean, dtype=_dtype(clean))


def parse_telemetry(text: str, *, file: str | None = None) -> NDArray:
    """Parse telemetry CSV text into a structured array (see the module docstring).

    Raises
    ------
    TelemetryError
        Naming the file, line, column and bad value.

    Examples
    --------
    >>> head = "level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won"
    >>> rows = parse_telemetry(head + "\\nL1,p1,1,1,0,0,2,0,31.5,1\\n")
    >>> rows["level"].tolist(), rows["seconds"].tolist(), rows["won"].tolist()
    (['L1'], [31.5], [True])
    """
    try:
        header: list[str] | None = None
        rows: list[list[str]] = []
        lines: list[int] = []
        if text.startswith("\ufeff"):
            text = text[1:]  # a byte-order mark (spreadsheet exports write one)
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            try:
                cells = next(csv.reader([raw]))
            except csv.Error as exc:
                raise TelemetryError(f"not CSV: {exc}", pointer=f"line {number}") from None
            if len(cells) > 4 * len(COLUMNS) + 64:
                raise TelemetryError("too many columns", pointer=f"line {number}",
                                     value=len(cells))  # fmt: skip
            if header is None:
                header = [c.strip() for c in cells]
                for name in COLUMNS:
                    if name not in header:
                        raise TelemetryError(
                            f"header has no column {name!r}", pointer=f"line {number}", value=raw
                        )
                take = [header.index(name) for name in COLUMNS]
                continue
            if len(cells) != len(header):
                raise TelemetryError(
                    f"expected {len(header)} values like the header, found {len(cells)}",
                    pointer=f"line {number}",
                    value=raw,
                )
            rows.append([cells[i] for i in take])
            lines.append(number)
        if header is None:
            raise TelemetryError("no header row", pointer="line 1")
        return make_table(rows, lines=lines)
    except TelemetryError as exc:
        raise exc.with_file(file) if file else exc from None


def load_telemetry(path: str | os.PathLike, *, frame: bool | None = None) -> Any:
    """Read a telemetry CSV file.

    Parameters
    ----------
    path : path-like
    frame : bool or None
        ``None``: a pandas ``DataFrame`` when pandas is importable, else the numpy structured
        array; ``True``: pandas (``ImportError`` without it); ``False``: numpy.

    Examples
    --------
    >>> from labkit._data import data_path
    >>> rows = load_telemetry(data_path("telemetry", "sample.csv"), frame=False)
    >>> rows.dtype.names[:3], len(rows) > 0
    (('level', 'player', 'attempt'), True)
    """
    text = lio.read_text(path, max_bytes=MAX_BYTES, error=TelemetryError)
    lio.record_read(path)
    table = parse_telemetry(text, file=str(path))
    if frame is False or (frame is None and not _has_pandas()):
        return table
    return to_frame(table)


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def to_frame(table: Any) -> Any:
    """The telemetry as a pandas ``DataFrame`` (requires pandas)."""
    import pandas as pd

    return pd.DataFrame.from_records(as_table(table))


def as_table(telemetry: Any) -> NDArray:
    """Normalise telemetry to the structured array: accepts that array, a pandas ``DataFrame``,
    a CSV path, a :class:`~labkit.hexpuzzle.Telemetry` or a sequence of row tuples/dicts.
    Validates whatever was not already valid."""
    # a Telemetry document holds a checked table (matched by shape: its module imports this one)
    if isinstance(getattr(telemetry, "table", None), np.ndarray):
        telemetry = telemetry.table
    if isinstance(telemetry, np.ndarray) and telemetry.dtype.names == tuple(COLUMNS):
        return telemetry
    if isinstance(telemetry, (str, os.PathLike)):
        return load_telemetry(telemetry, frame=False)
    if hasattr(telemetry, "to_records") and hasattr(telemetry, "columns"):  # pandas
        missing = [c for c in COLUMNS if c not in telemetry.columns]
        if missing:
            raise TelemetryError("frame has no column", pointer=f"column {missing[0]!r}")
        return make_table(zip(*(telemetry[c].tolist() for c in COLUMNS)))
    if isinstance(telemetry, np.ndarray) and telemetry.dtype.names:
        missing = [c for c in COLUMNS if c not in telemetry.dtype.names]
        if missing:
            raise TelemetryError("array has no field", pointer=f"column {missing[0]!r}")
        return make_table(zip(*(telemetry[c].tolist() for c in COLUMNS)))
    rows = list(telemetry)
    if rows and isinstance(rows[0], dict):
        rows = [tuple(r[c] for c in COLUMNS) for r in rows]
    return make_table(rows)


def to_csv(table: Any, *, comments: Sequence[str] = ()) -> str:
    """The telemetry as CSV text, with optional ``# comment`` lines first."""
    table = as_table(table)
    out = io.StringIO()
    for c in comments:
        out.write(f"# {c}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in table.tolist():
        writer.writerow(
            [
                int(v) if isinstance(v, bool) else (f"{v:.2f}" if isinstance(v, float) else v)
                for v in row
            ]
        )
    return out.getvalue()


def save_telemetry(path: str | os.PathLike, table: Any, *, comments: Sequence[str] = ()) -> None:
    """Write telemetry atomically as CSV (seconds to 0.01 s).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> head = "level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won"
    >>> rows = parse_telemetry(head + "\\nL1,p1,1,1,0,0,2,0,31.5,1\\n")
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> save_telemetry(path, rows, comments=["made by a doctest"])
    >>> load_telemetry(path, frame=False)["player"].tolist()
    ['p1']
    """
    text = to_csv(table, comments=comments)
    with lio.atomic_write(path) as fh:
        fh.write(text)
