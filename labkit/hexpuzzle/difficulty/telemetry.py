"""Player telemetry of the hex track puzzle: one CSV row per attempt at a level (rule H9).

The format (``data/telemetry/*.csv``) has a header row naming its columns, in any order. Four
are required of every game (:data:`REQUIRED`: ``level``, ``player``, ``attempt``, ``won``);
the others are optional — ``seconds`` any game may log, the rest the hex puzzle's own — and
each is checked where it is present (issue 49). A loaded table has the columns the input had,
in the order below:

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

Decisions the rules leave open
------------------------------
* ``first_try`` is redundant (``attempt == 1 and won``) but analysts filter on it, and telemetry
  from a real game may carry the game's own flag; the loader checks the two agree.
* Lines starting with ``#`` are comments (provenance: seed, labkit version); blank lines are
  skipped. Columns of no kind below are ignored (a real export may carry more); a missing
  required column is an error, a missing optional one is absent from the loaded table (a
  report that needs it says so).
  Booleans accept ``0``/``1`` and ``true``/``false``. Lines end at ``\\n`` (CR LF accepted);
  U+2028 inside an id is part of the id.
* Ids are kept exactly as given: an id holding a control character (NUL, tab, CR, ...) or
  starting or ending with a space is refused, never stripped or merged with another.
* ``(level, player, attempt)`` must be unique. Telemetry that cannot be true is refused by
  default, naming the row and the player (issue 46): an attempt after a won one (a cleared
  board has nothing to retry) and a gap in a player's attempt numbers at a level (attempt 3
  without attempt 2, or no attempt 1: rows lost on the way, which would bias every rate).
  ``impossible="count"`` keeps such rows and counts them instead. Skipping a level, or
  starting the campaign at a later one, is possible (the skill fit states the latter).
* Limits: files up to :data:`MAX_BYTES`, :data:`MAX_ROWS` rows unless ``max_rows=`` says
  otherwise (checked from a Parquet file's metadata before any row is read), ids up to
  :data:`MAX_TEXT` characters, counts and attempts up to :data:`MAX_COUNT`, seconds up to
  :data:`MAX_SECONDS`; a UTF-8 byte-order mark is accepted, other encodings are an error
  naming the line.
* Every input is checked the same way, column by column (:mod:`.telemetry_columns`): CSV,
  Parquet, a folder of Parquet files, a ``DataFrame``, a structured array, rows. Typed inputs
  are checked by type: a count must be an integer column, never a string or a bool.
* CSV written by :func:`to_csv` / :func:`save_telemetry` is safe to open in a spreadsheet: an
  id starting with ``=``, ``+``, ``-``, ``@``, a tab or a CR gets a leading ``'`` (the
  OWASP guidance on CSV injection), so no cell is run as a formula. The loader drops one
  leading ``'`` of an id (the spreadsheet's own text mark), and an id that starts with ``'``
  is written with a second one, so every id reads back exactly as it was saved.
* Errors name the line (1-based, header and comments counted, as an editor shows it), the
  column and the bad text; nothing is half-loaded.
* Loaders return a numpy structured array (``level``/``player`` fixed-width unicode, counts
  ``int64``, ``seconds`` ``float64``, flags ``bool``); :func:`load_telemetry` returns a pandas
  ``DataFrame`` instead when pandas is importable (``frame=False`` forces numpy). Every labkit
  function taking telemetry accepts either (see :func:`as_table`). :func:`load_telemetry` and
  :meth:`~.Telemetry.load` are one loading path (:mod:`.telemetry_read`): CSV, a Parquet file
  or a folder of Parquet files, read as a stream.

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
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import io as lio
from labkit.hexpuzzle.difficulty.telemetry_columns import Batches
from labkit.hexpuzzle.difficulty.telemetry_read import parse_csv, read_table
from labkit.hexpuzzle.difficulty.telemetry_rules import (
    COLUMNS,
    MAX_BYTES,
    MAX_COUNT,
    MAX_ROWS,
    MAX_SECONDS,
    MAX_TEXT,
    REQUIRED,
    TelemetryError,
    missing_required,
    present,
)

__all__ = [
    "COLUMNS",
    "REQUIRED",
    "TelemetryError",
    "as_table",
    "load_telemetry",
    "make_table",
    "parse_telemetry",
    "save_telemetry",
    "to_csv",
    "to_frame",
]
__all__ += ["MAX_BYTES", "MAX_COUNT", "MAX_ROWS", "MAX_SECONDS", "MAX_TEXT"]  # the limits

#: First characters a spreadsheet reads as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell_text(v: Any) -> str:
    """A Python value as the CSV cell text it stands for (``True`` -> ``"1"``)."""
    if isinstance(v, (bool, np.bool_)):
        return str(int(v))
    return str(v)


def make_table(rows: Iterable[Sequence[Any]], *, lines: Sequence[int] | None = None) -> NDArray:
    """Validate rows (values in :data:`COLUMNS` order, or the :data:`REQUIRED` four in their
    order, read as CSV cells) and build the array.

    Examples
    --------
    >>> t = make_table([("L1", "p1", 1, 1, 0, 0, 1, 0, 12.0, 1)])
    >>> t.dtype.names[:3], int(t["attempt"][0])
    (('level', 'player', 'attempt'), 1)
    """
    import pyarrow as pa

    rows = [tuple(r) for r in rows]
    where_of = list(lines) if lines is not None else None
    names = tuple(REQUIRED) if rows and len(rows[0]) == len(REQUIRED) else tuple(COLUMNS)
    for k, row in enumerate(rows):
        if len(row) != len(names):
            at = where_of[k] if where_of is not None else None
            raise TelemetryError(f"a row needs {len(names)} values", pointer=f"line {at}",
                                 value=row)  # fmt: skip
    batches = Batches(
        (lambda i: f"line {where_of[i]}") if where_of is not None else (lambda i: ""),
        names=names,
    )
    columns = list(zip(*rows)) if rows else [()] * len(names)
    cells = {}
    for name, values in zip(names, columns):
        texts = [_cell_text(v) for v in values]
        try:
            cells[name] = pa.array(texts, type=pa.string())
        except (UnicodeEncodeError, pa.ArrowException):
            bad = next(i for i, t in enumerate(texts) if not _encodable(t))
            batches.fail(bad, name, "not encodable text", texts[bad])
    batches.add(cells, cells=True)
    return batches.table()


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")  # a lone surrogate (a decoding escape) cannot be written back
    except UnicodeEncodeError:
        return False
    return True


def parse_telemetry(text: str, *, file: str | None = None, impossible: str = "refuse") -> NDArray:
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
        if not _encodable(text):
            _name_surrogate(text)
        from labkit.hexpuzzle.difficulty._telemetry_possible import check_choice

        return parse_csv(io.BytesIO(text.encode("utf-8")), max_rows=MAX_ROWS,
                         impossible=check_choice(impossible))[0]  # fmt: skip
    except TelemetryError as exc:
        raise exc.with_file(file) if file else exc from None


def _name_surrogate(text: str) -> None:
    """Name the line and column of a lone surrogate (a decoding escape) in CSV text."""
    header: list[str] | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = next(csv.reader([line]))
        if header is None:
            header = [c.strip() for c in cells]
        bad = [k for k, c in enumerate(cells) if not _encodable(c)]
        if bad:
            k = bad[0]
            name = header[k] if k < len(header) else f"#{k + 1}"
            raise TelemetryError("not encodable text", pointer=f"line {number}, column {name!r}",
                                 value=cells[k])  # fmt: skip
    raise TelemetryError("not encodable text (a lone surrogate)")


def load_telemetry(
    path: str | os.PathLike,
    *,
    frame: bool | None = None,
    max_rows: int = MAX_ROWS,
    impossible: str = "refuse",
) -> Any:
    """Read telemetry: a CSV file, a Parquet file or a folder of Parquet files (streamed).

    The loading path of :meth:`~labkit.hexpuzzle.Telemetry.load` (both read through
    ``read_table``, which checks every row), returning the rows themselves instead of a
    ``Telemetry``: ``load_telemetry(p, frame=False)`` equals ``Telemetry.load(p).table`` and
    ``load_telemetry(p, frame=True)`` equals ``Telemetry.load(p).to_frame()``; the same errors.
    ``Telemetry.load`` also keeps the comment lines.

    Parameters
    ----------
    path : path-like
    frame : bool or None
        ``None``: a pandas ``DataFrame`` when pandas is importable, else the numpy structured
        array; ``True``: pandas (``ImportError`` without it); ``False``: numpy.
    max_rows : int
        Refuse more rows than this (checked from a Parquet file's metadata before reading).
    impossible : {"refuse", "count"}
        Telemetry that cannot be true — an attempt after a win, a gap in a player's attempt
        numbers at a level — is refused naming the first such row and its player
        (``"refuse"``), or kept (``"count"``; :attr:`Telemetry.impossible` counts it).

    Examples
    --------
    >>> from labkit._data import data_path
    >>> rows = load_telemetry(data_path("telemetry", "sample.csv"), frame=False)
    >>> rows.dtype.names[:3], len(rows) > 0
    (('level', 'player', 'attempt'), True)
    """
    table, _ = read_table(path, max_rows=max_rows, impossible=impossible)
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


def _typed(columns: dict[str, Any], pointer: Any) -> NDArray:
    """Check typed columns (Arrow arrays) the way a Parquet file is checked."""
    batches = Batches(pointer, names=tuple(columns))
    batches.add(columns)
    return batches.table()


def _arrow_column(values: Any, name: str) -> Any:
    import pyarrow as pa

    if isinstance(values, np.ndarray) and values.dtype.kind == "U" and values.size:
        # Arrow reads numpy text up to its first NUL: "p\x001" would become "p". Refuse it here.
        code = np.ascontiguousarray(values).view(np.uint32).reshape(values.size, -1) != 0
        later = np.flip(np.logical_or.accumulate(np.flip(code, 1), 1), 1)
        inner = np.flatnonzero((~code & later).any(1))
        if inner.size:
            i = int(inner[0])
            where = f"row {i + 1}, column {name!r}"
            raise TelemetryError("holds a control character", pointer=where, value=str(values[i]))
    try:
        return pa.array(values, from_pandas=True)
    except UnicodeError:
        raise TelemetryError("not encodable text", pointer=f"column {name!r}") from None
    except pa.ArrowException as exc:
        raise TelemetryError(f"mixed or unusable values: {exc}", pointer=f"column {name!r}",
                             ) from None  # fmt: skip


def as_table(telemetry: Any) -> NDArray:
    """Normalise telemetry to the checked structured array: accepts that array, a pandas
    ``DataFrame``, a path, a :class:`~labkit.hexpuzzle.Telemetry` or a sequence of row
    tuples/dicts. Everything but a ``Telemetry`` (already checked) is checked like a file:
    arrays and frames by column type, rows as CSV cells."""
    # a Telemetry document holds a checked table (matched by shape: its module imports this one)
    if isinstance(getattr(telemetry, "table", None), np.ndarray) and hasattr(telemetry, "comments"):
        return telemetry.table
    if isinstance(telemetry, (str, os.PathLike)):
        return load_telemetry(telemetry, frame=False)
    if hasattr(telemetry, "to_records") and hasattr(telemetry, "columns"):  # pandas
        if (gone := missing_required(telemetry.columns)) is not None:
            raise TelemetryError("frame has no column", pointer=f"column {gone!r}")
        cols = {c: _arrow_column(telemetry[c].to_numpy(), c) for c in present(telemetry.columns)}
        return _typed(cols, lambda i: f"row {i + 1}")
    if isinstance(telemetry, np.ndarray) and telemetry.dtype.names:
        if (gone := missing_required(telemetry.dtype.names)) is not None:
            raise TelemetryError("array has no field", pointer=f"column {gone!r}")
        cols = {c: _arrow_column(np.asarray(telemetry[c]), c)
                for c in present(telemetry.dtype.names)}  # fmt: skip
        return _typed(cols, lambda i: f"row {i + 1}")
    rows = list(telemetry)
    if rows and isinstance(rows[0], dict):
        have = tuple(COLUMNS) if all(c in rows[0] for c in COLUMNS) else REQUIRED
        rows = [tuple(r[c] for c in have) for r in rows]
    return make_table(rows)


def _safe_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: a formula start gets a leading ``'``."""
    return "'" + text if text.startswith((*FORMULA_STARTS, "'")) else text


def to_csv(table: Any, *, comments: Sequence[str] = ()) -> str:
    """The telemetry as CSV text, with optional ``# comment`` lines first.

    Ids a spreadsheet would run as a formula (starting ``=``, ``+``, ``-``, ``@``, tab or CR)
    are written with a leading ``'`` (see the module docstring).

    Examples
    --------
    >>> print(to_csv([("=HYPERLINK(1)", "p1", 1, 1, 0, 0, 2, 0, 31.5, 1)]), end="")
    level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won
    '=HYPERLINK(1),p1,1,1,0,0,2,0,31.50,1
    """
    table = as_table(table)
    out = io.StringIO()
    for c in comments:
        out.write(f"# {c}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.dtype.names)
    for row in table.tolist():
        writer.writerow(
            [
                int(v) if isinstance(v, bool) else (
                    f"{v:.2f}" if isinstance(v, float) else (
                        _safe_cell(v) if isinstance(v, str) else v))
                for v in row
            ]
        )  # fmt: skip
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
