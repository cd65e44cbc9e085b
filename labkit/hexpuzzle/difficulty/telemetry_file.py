"""Player telemetry as a document: :class:`Telemetry`, the attempt table with the file protocol.

The table is the one :mod:`.telemetry` defines (one row per attempt, the columns of
:data:`~.telemetry.COLUMNS`). A telemetry document is a *table*, so its files are tables too:
:meth:`Telemetry.save` and :meth:`Telemetry.load` pick the format by the file's suffix:

* ``.parquet`` (or ``.pq``): Apache Parquet through pyarrow, every value exact; the comment
  lines ride in the schema metadata (key ``labkit.comments``).
* anything else: the CSV format of :mod:`.telemetry` (seconds to 0.01 s, comment lines first).

:meth:`Telemetry.load` also reads a folder of Parquet files (a partitioned dataset); every
source is read as a stream and checked column by column (:mod:`.telemetry_read`). A loaded
document keeps its rows compact (:class:`~.telemetry_columns.Columns`: ids as ``int32`` codes,
about 38 bytes a row); :attr:`Telemetry.table`, the structured array, is built the first time
it is asked for, and from then on it is the document's data. :func:`~.skill.fit_skill_model`
reads the compact rows without building it.

:meth:`Telemetry.to_dict` gives the column dict (``{column: list of values}``, what
``pandas.DataFrame`` takes) and :meth:`Telemetry.from_dict` checks one, naming the column and
the row. Comment lines (provenance) are kept beside the table, not in the column dict.

Examples
--------
>>> import tempfile, pathlib
>>> from labkit._data import data_path
>>> tel = Telemetry.load(data_path("telemetry", "sample.csv"))
>>> tel.comments[0]
'simulated players (labkit.hexpuzzle.players), not real player data'
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> tel.save(folder / "t.parquet")
>>> Telemetry.load(folder / "t.parquet") == tel
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import io as lio
from labkit.hexpuzzle.difficulty.telemetry import (
    MAX_ROWS,
    REQUIRED,
    TelemetryError,
    as_table,
    to_csv,
    to_frame,
)
from labkit.hexpuzzle.difficulty.telemetry_columns import Batches, Columns
from labkit.hexpuzzle.difficulty.telemetry_read import (
    COMMENTS_KEY,
    PARQUET_SUFFIXES,
    read_columns,
)
from labkit.hexpuzzle.difficulty.telemetry_rules import missing_required, present

__all__ = ["PARQUET_SUFFIXES", "Telemetry"]


def _is_parquet(path: str | os.PathLike) -> bool:
    return Path(path).suffix.lower() in PARQUET_SUFFIXES


class Telemetry:
    """Attempt rows of players at levels, validated, with the file's comment lines.

    Parameters
    ----------
    table : structured array, DataFrame, rows or Telemetry
        Anything :func:`~labkit.hexpuzzle.difficulty.telemetry.as_table` accepts; checked.
    comments : sequence of str
        Provenance lines, written as ``# ...`` at the top of a CSV file.

    Every labkit function that takes telemetry accepts a ``Telemetry`` too.

    Examples
    --------
    >>> tel = Telemetry([("L1", "p1", 1, 1, 0, 0, 2, 0, 31.5, 1)], comments=["a demo"])
    >>> len(tel), tel.to_dict()["seconds"], tel.to_dict()["won"]
    (1, [31.5], [True])
    >>> Telemetry.from_dict(tel.to_dict(), comments=tel.comments) == tel
    True
    >>> print(tel.to_csv(), end="")
    # a demo
    level,player,attempt,first_try,collisions,hints,rotations,undos,seconds,won
    L1,p1,1,1,0,0,2,0,31.50,1
    """

    def __init__(self, table: Any, *, comments: Sequence[str] = ()) -> None:
        self._columns: Columns | None = None
        self._table: NDArray | None = None
        if isinstance(table, Telemetry):
            self._columns, self._table = table._columns, table._table
        elif isinstance(table, _Checked):
            self._columns, self._table = table.columns, table.table
        else:
            self._table = as_table(table)
        if isinstance(comments, str) or not all(isinstance(c, str) for c in comments):
            raise TelemetryError("must be a list of strings", pointer="comments",
                                 value=comments)  # fmt: skip
        if any("\n" in c or "\r" in c for c in comments):
            raise TelemetryError("each must be one line", pointer="comments", value=comments)
        self.comments: tuple[str, ...] = tuple(comments)

    @property
    def table(self) -> NDArray:
        """The rows as the structured array of :mod:`.telemetry` (built on first use from the
        compact rows, which it then replaces: changes made to it are the document's)."""
        if self._table is None:
            assert self._columns is not None
            self._table, self._columns = self._columns.structured(), None
        return self._table

    @table.setter
    def table(self, value: NDArray) -> None:
        self._table, self._columns = value, None

    def columns(self) -> Columns:
        """The rows compact (:class:`~.telemetry_columns.Columns`), without building
        :attr:`table` (encoded from it when it has been built)."""
        if self._columns is not None:
            return self._columns
        return Columns.from_table(self.table)

    def __len__(self) -> int:
        return len(self._columns) if self._columns is not None else len(self.table)

    @property
    def impossible(self) -> dict[str, int]:
        """Rows that cannot be true, counted: ``after_win`` (attempts after a won one) and
        ``gaps`` (attempt numbers missing before a row); both 0 for telemetry loaded with the
        default ``impossible="refuse"`` (:mod:`.telemetry`)."""
        cols = self.columns()
        return dict(cols.impossible) if cols.impossible is not None else cols.check_possible(
            "count")  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Telemetry)
            and self.comments == other.comments
            and self.to_dict() == other.to_dict()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-looking table: not hashable

    def __repr__(self) -> str:
        if self._columns is not None:
            levels, players = len(self._columns.level_words), len(self._columns.player_words)
        else:
            levels = len(set(self.table["level"].tolist()))
            players = len(set(self.table["player"].tolist()))
        return f"Telemetry({len(self)} attempts, {levels} levels, {players} players)"

    def _repr_html_(self) -> str:
        import html

        return f"<p>{html.escape(repr(self))}</p>" + self.to_frame().head(10).to_html()

    # --- the column dict ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, list]:
        """The columns as plain lists (text, int, bool, float), in :data:`COLUMNS` order (the
        columns the telemetry has: the required four at least)."""
        if self._columns is None:
            return {name: self.table[name].tolist() for name in present(self.table.dtype.names)}
        c = self._columns  # from the codes: comparing or exporting does not build the table
        import pyarrow as pa

        text = {"level": c.level_words.take(pa.array(c.level)).to_pylist(),
                "player": c.player_words.take(pa.array(c.player)).to_pylist()}  # fmt: skip
        return {name: text[name] if name in text else c.numbers[name].tolist()
                for name in c.names}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle, also a document pickled when ``table`` was a plain attribute."""
        if "table" in state:
            state["_table"] = state.pop("table")
        state.setdefault("_columns", None)
        state.setdefault("_table", None)
        self.__dict__.update(state)

    @classmethod
    def from_dict(cls, columns: Any, *, comments: Sequence[str] = ()) -> Telemetry:
        """Check a column dict (the :data:`~.telemetry.REQUIRED` columns and any others of
        :data:`COLUMNS`, equal lengths) and build.

        Raises
        ------
        TelemetryError
            Naming the column (and the row, counted from 1) and the bad value.

        Examples
        --------
        >>> Telemetry.from_dict({"level": ["L1"]})
        Traceback (most recent call last):
        ...
        labkit.hexpuzzle.difficulty.telemetry.TelemetryError: column 'player': missing ...
        """
        if not isinstance(columns, dict):
            raise TelemetryError("expected a dict of columns", pointer="",
                                 value=type(columns).__name__)  # fmt: skip
        import pyarrow as pa

        arrays: dict[str, Any] = {}
        for name in present(columns) if missing_required(columns) is None else REQUIRED:
            if name not in columns:
                raise TelemetryError("missing column", pointer=f"column {name!r}")
            values = columns[name]
            if not isinstance(values, (list, tuple, np.ndarray)):
                raise TelemetryError("must be a list", pointer=f"column {name!r}",
                                     value=type(values).__name__)  # fmt: skip
            if arrays and len(values) != len(arrays["level"]):
                raise TelemetryError(f"has {len(values)} values, column 'level' "
                                     f"{len(arrays['level'])}", pointer=f"column {name!r}",
                                     value=len(values))  # fmt: skip
            try:
                arrays[name] = pa.array(values)
            except (UnicodeError, pa.ArrowException) as exc:
                raise TelemetryError(f"mixed or unusable values: {exc}",
                                     pointer=f"column {name!r}") from None  # fmt: skip
        batches = Batches(lambda i: f"row {i + 1}", names=tuple(arrays))
        batches.add(arrays)
        return cls(_Checked(columns=batches.columns()), comments=comments)

    # --- text and frames ----------------------------------------------------------------------
    def to_csv(self) -> str:
        """The CSV text :meth:`save` writes for a ``.csv`` path (comment lines first)."""
        return to_csv(self.table, comments=self.comments)

    def to_frame(self) -> Any:
        """The table as a pandas ``DataFrame``."""
        return to_frame(self.table)

    # --- files --------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> None:
        """Write atomically: Parquet for a ``.parquet``/``.pq`` path, else CSV."""
        if not _is_parquet(path):
            text = self.to_csv()
            with lio.atomic_write(path) as fh:
                fh.write(text)
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._columns is not None:  # compact rows: straight to Arrow, no Python values
            c = self._columns
            data = {"level": c.level_words.take(pa.array(c.level)),
                    "player": c.player_words.take(pa.array(c.player)),
                    **{n: pa.array(v.astype(np.int64) if v.dtype.kind == "i" else v)
                       for n, v in c.numbers.items()}}  # fmt: skip
            table = pa.table({name: data[name] for name in c.names})
        else:
            table = pa.table(self.to_dict())
        meta = {COMMENTS_KEY: lio.dumps(list(self.comments), indent=None).encode("utf-8")}
        table = table.replace_schema_metadata(meta)
        with lio.atomic_write(path, "wb") as fh:
            pq.write_table(table, fh)

    @classmethod
    def load(cls, path: str | os.PathLike, *, max_rows: int = MAX_ROWS,
             impossible: str = "refuse") -> Telemetry:  # fmt: skip
        """Read telemetry: a CSV file, a Parquet file or a folder of Parquet files.

        Read as a stream and checked column by column; more than ``max_rows`` rows are refused
        (a Parquet file's row count is read from its metadata first). Rows that cannot be true
        (an attempt after a win, a gap in attempt numbers) are refused naming the first, or
        kept and counted in :attr:`impossible` with ``impossible="count"``.

        Raises
        ------
        TelemetryError
            Naming the file, the line (CSV) or row (Parquet), the column and the value.
        """
        columns, comments = read_columns(path, max_rows=max_rows, impossible=impossible)
        try:
            return cls(_Checked(columns=columns), comments=comments)
        except TelemetryError as exc:
            raise exc.with_file(str(path)) from None


class _Checked:
    """A table or compact columns just checked (not checked twice)."""

    def __init__(self, table: NDArray | None = None, *, columns: Columns | None = None) -> None:
        self.table, self.columns = table, columns
        self.comments: tuple[str, ...] = ()
