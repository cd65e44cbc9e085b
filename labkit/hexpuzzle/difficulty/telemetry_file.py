"""Player telemetry as a document: :class:`Telemetry`, the attempt table with the file protocol.

The table is the one :mod:`.telemetry` defines (one row per attempt, the columns of
:data:`~.telemetry.COLUMNS`). A telemetry document is a *table*, so its files are tables too:
:meth:`Telemetry.save` and :meth:`Telemetry.load` pick the format by the file's suffix:

* ``.parquet`` (or ``.pq``): Apache Parquet through pyarrow, every value exact; the comment
  lines ride in the schema metadata (key ``labkit.comments``).
* anything else: the CSV format of :mod:`.telemetry` (seconds to 0.01 s, comment lines first).

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
    COLUMNS,
    MAX_BYTES,
    TelemetryError,
    as_table,
    make_table,
    parse_telemetry,
    to_csv,
    to_frame,
)

__all__ = ["PARQUET_SUFFIXES", "Telemetry"]

PARQUET_SUFFIXES = (".parquet", ".pq")
_COMMENTS_KEY = b"labkit.comments"


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
        if isinstance(table, Telemetry):
            table = table.table
        self.table: NDArray = as_table(table)
        if isinstance(comments, str) or not all(isinstance(c, str) for c in comments):
            raise TelemetryError("must be a list of strings", pointer="comments",
                                 value=comments)  # fmt: skip
        if any("\n" in c or "\r" in c for c in comments):
            raise TelemetryError("each must be one line", pointer="comments", value=comments)
        self.comments: tuple[str, ...] = tuple(comments)

    def __len__(self) -> int:
        return len(self.table)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Telemetry)
            and self.comments == other.comments
            and self.to_dict() == other.to_dict()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-looking table: not hashable

    def __repr__(self) -> str:
        levels = len(set(self.table["level"].tolist()))
        players = len(set(self.table["player"].tolist()))
        return f"Telemetry({len(self)} attempts, {levels} levels, {players} players)"

    def _repr_html_(self) -> str:
        import html

        return f"<p>{html.escape(repr(self))}</p>" + self.to_frame().head(10).to_html()

    # --- the column dict ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, list]:
        """The columns as plain lists (text, int, bool, float), in :data:`COLUMNS` order."""
        return {name: self.table[name].tolist() for name in COLUMNS}

    @classmethod
    def from_dict(cls, columns: Any, *, comments: Sequence[str] = ()) -> Telemetry:
        """Check a column dict (every column of :data:`COLUMNS`, equal lengths) and build.

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
        lists: list[Any] = []
        for name in COLUMNS:
            if name not in columns:
                raise TelemetryError("missing column", pointer=f"column {name!r}")
            values = columns[name]
            if isinstance(values, np.ndarray):
                values = values.tolist()
            if not isinstance(values, (list, tuple)):
                raise TelemetryError("must be a list", pointer=f"column {name!r}",
                                     value=type(values).__name__)  # fmt: skip
            if lists and len(values) != len(lists[0]):
                raise TelemetryError(f"has {len(values)} values, column 'level' {len(lists[0])}",
                                     pointer=f"column {name!r}", value=len(values))  # fmt: skip
            lists.append(values)
        rows = list(zip(*lists))
        try:
            table = make_table(rows, lines=range(1, len(rows) + 1))
        except TelemetryError as exc:  # "line k" of a column dict is its row k
            where = (exc.pointer or "").replace("line ", "row ", 1)
            kw = {"value": exc.value} if exc.has_value else {}
            raise TelemetryError(exc.message, pointer=where, **kw) from None
        return cls(table, comments=comments)

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

        table = pa.table(self.to_dict())
        meta = {_COMMENTS_KEY: lio.dumps(list(self.comments), indent=None).encode("utf-8")}
        table = table.replace_schema_metadata(meta)
        with lio.atomic_write(path, "wb") as fh:
            pq.write_table(table, fh)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Telemetry:
        """Read a telemetry file written by :meth:`save` (or any CSV of the format).

        Raises
        ------
        TelemetryError
            Naming the file, the line (CSV) or row (Parquet), the column and the value.
        """
        if _is_parquet(path):
            return cls._load_parquet(path)
        text = lio.read_text(path, max_bytes=MAX_BYTES, error=TelemetryError)
        lio.record_read(path)
        table = parse_telemetry(text, file=str(path))
        comments = []
        for line in text.lstrip("\ufeff").splitlines():
            if line.lstrip().startswith("#"):
                body = line.lstrip()[1:]
                comments.append(body[1:] if body.startswith(" ") else body)
        return cls(table, comments=comments)

    @classmethod
    def _load_parquet(cls, path: str | os.PathLike) -> Telemetry:
        import pyarrow as pa
        import pyarrow.parquet as pq

        data = lio.read_bytes(path, max_bytes=MAX_BYTES, error=TelemetryError)
        lio.record_read(path)
        try:
            table = pq.read_table(pa.BufferReader(data))
        except (pa.ArrowException, OSError) as exc:
            raise TelemetryError(f"not a Parquet file: {exc}", file=str(path)) from None
        raw = (table.schema.metadata or {}).get(_COMMENTS_KEY)
        try:
            comments: Any = []
            if raw is not None:
                comments = lio.parse_json(raw.decode("utf-8", "replace"), error=TelemetryError)
            return cls.from_dict(table.to_pydict(), comments=comments)
        except TelemetryError as exc:
            raise exc.with_file(str(path)) from None
