"""Reading telemetry as a stream: a CSV file, one Parquet file or a folder of Parquet files.

The one loading path under :func:`~.telemetry.load_telemetry`, :meth:`~.Telemetry.load` and
:func:`~.telemetry.parse_telemetry`. Nothing is read whole: a CSV file goes in blocks of
:data:`BLOCK` bytes, Parquet in record batches of :data:`BATCH_ROWS` rows, each batch checked
by :class:`~.telemetry_columns.Batches` as it arrives and kept compact (ids as ``int32``
codes: :class:`~.telemetry_columns.Columns`, about 38 bytes a row), so memory is the loaded
rows plus one block, whatever the file's size; :func:`read_columns` returns them so, and
:func:`read_table` as the structured array of :mod:`.telemetry`.

* **CSV**: lines end at ``\\n`` only (U+2028 and a lone CR inside an id are the id's own
  characters, never line ends; CR LF line ends are accepted); a line starting with ``#`` is a
  comment, blank lines are skipped, a byte-order mark is accepted. Cells are parsed by
  pyarrow; a block it cannot parse is read again line by line to name the line at fault.
* **Parquet** (``.parquet``/``.pq``): the columns' types are checked from the schema and the
  row count from the metadata, both before any row is read.
* **A folder** of Parquet files (a partitioned dataset: ``level=L1/part-0.parquet``, ...): the
  files in sorted order, hive partition columns included; rows are counted over all of them
  from their footers first. Errors name the file and its row.

Examples
--------
>>> from labkit._data import data_path
>>> table, comments = read_table(data_path("telemetry", "sample.csv"))
>>> table.dtype.names[:3], comments[0][:17]
(('level', 'player', 'attempt'), 'simulated players')
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from labkit import io as lio
from labkit.hexpuzzle.difficulty.telemetry_columns import Batches, Columns
from labkit.hexpuzzle.difficulty.telemetry_rules import (
    COLUMNS,
    MAX_BYTES,
    MAX_ROWS,
    TelemetryError,
    missing_required,
    present,
)

__all__ = ["BATCH_ROWS", "BLOCK", "PARQUET_SUFFIXES", "parse_csv", "read_columns", "read_table"]

BLOCK = 16 * 1024 * 1024
BATCH_ROWS = 1 << 18
PARQUET_SUFFIXES = (".parquet", ".pq")
COMMENTS_KEY = b"labkit.comments"


def read_table(path: str | os.PathLike, *, max_rows: int = MAX_ROWS,
               impossible: str = "refuse") -> tuple[NDArray, list]:  # fmt: skip
    """``(table, comment lines)`` of a telemetry CSV file, Parquet file or Parquet folder."""
    columns, comments = read_columns(path, max_rows=max_rows, impossible=impossible)
    return columns.structured(), comments


def read_columns(path: str | os.PathLike, *, max_rows: int = MAX_ROWS,
                 impossible: str = "refuse") -> tuple[Columns, list]:  # fmt: skip
    """``(compact columns, comment lines)`` of a telemetry CSV file, Parquet file or folder:
    what :func:`read_table` returns before the structured array is built. ``impossible``:
    ``"refuse"`` the first row that cannot be true (an attempt after a win, a gap in attempt
    numbers: :mod:`._telemetry_possible`), or ``"count"`` them (``columns.impossible``)."""
    import pyarrow as pa

    from labkit._args import check_int
    from labkit.hexpuzzle.difficulty._telemetry_possible import check_choice

    max_rows = check_int(max_rows, "max_rows", 1, None)
    check_choice(impossible)
    file = str(path)
    try:
        columns, comments = _read_columns(path, max_rows)
        columns.check_possible(impossible)
        return columns, comments
    except TelemetryError as exc:
        raise (exc if exc.file else exc.with_file(file)) from None
    finally:  # the batches' buffers back to the system, not kept by Arrow's allocator
        pa.default_memory_pool().release_unused()


def _read_columns(path: str | os.PathLike, max_rows: int) -> tuple[Columns, list]:
    if os.path.isdir(path) and not os.path.islink(path):
        return _read_folder(Path(path), max_rows), []
    if Path(path).suffix.lower() in PARQUET_SUFFIXES:
        with _open_regular(path) as fh:
            lio.record_read(path)
            return _read_parquet(fh, max_rows, "")
    with _open_regular(path) as fh:
        lio.record_read(path)
        return _csv_columns(fh, max_rows)


def _open_regular(path: str | os.PathLike) -> IO[bytes]:
    """A regular file open for reading; FIFOs, devices and the like refused before opening."""
    file = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise TelemetryError("file not found", file=file) from None
    except (OSError, ValueError) as exc:
        raise TelemetryError(f"cannot read file: {exc}", file=file) from None
    kind = lio._file_kind(st.st_mode)
    if kind is not None:
        raise TelemetryError(f"not a regular file ({kind})", file=file)
    limit = lio._size_limit(MAX_BYTES)
    if st.st_size > limit:
        raise TelemetryError(f"file is {st.st_size} bytes, over this format's limit of {limit} "
                             f"(set {lio.MAX_BYTES_ENV} to raise it)", file=file)  # fmt: skip
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise TelemetryError(f"cannot read file: {exc.strerror or exc}", file=file) from None
    if (kind := lio._file_kind(os.fstat(fd).st_mode)) is not None:  # swapped since the stat
        os.close(fd)
        raise TelemetryError(f"not a regular file ({kind})", file=file)
    return os.fdopen(fd, "rb")


# --- CSV ----------------------------------------------------------------------------------------
def _blocks(fh: IO[bytes]) -> Iterator[tuple[int, list[bytes]]]:
    """``(number of the first line, lines)`` per block; lines without their ``\\n`` or CR LF."""
    rest, number, first = b"", 1, True
    while True:
        data = fh.read(BLOCK)
        buffer = rest + data
        if first and buffer.startswith(b"\xef\xbb\xbf"):
            buffer = buffer[3:]
        first = False
        if data:
            cut = buffer.rfind(b"\n") + 1
            if cut == 0 and len(buffer) < 64 * BLOCK:
                rest = buffer
                continue
            cut = cut or len(buffer)
            body, rest = buffer[:cut], buffer[cut:]
        else:
            body, rest = buffer, b""
        if body:
            lines = body.split(b"\n")
            if body.endswith(b"\n"):
                lines.pop()
            lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
            yield number, lines
            number += len(lines)
        if not data:
            return


def _decode(line: bytes, number: int) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TelemetryError(f"not UTF-8 text: byte 0x{line[exc.start]:02x} at line {number} "
                             f"column {exc.start + 1}") from None  # fmt: skip


def _header(text: str, number: int) -> tuple[int, tuple[str, ...], list[int]]:
    """(cells per line, the columns of :data:`COLUMNS` present, where each is) from the header
    line; a required column missing is an error, an optional one is simply not there."""
    try:
        cells = [c.strip() for c in next(csv.reader([text]))]
    except csv.Error as exc:
        raise TelemetryError(f"not CSV: {exc}", pointer=f"line {number}") from None
    if len(cells) > 4 * len(COLUMNS) + 64:
        raise TelemetryError("too many columns", pointer=f"line {number}", value=len(cells))
    if (name := missing_required(cells)) is not None:
        raise TelemetryError(f"header has no column {name!r}", pointer=f"line {number}",
                             value=text)  # fmt: skip
    names = present(cells)
    return len(cells), names, [cells.index(name) for name in names]


def parse_csv(fh: IO[bytes], *, max_rows: int = MAX_ROWS,
              impossible: str = "refuse") -> tuple[NDArray, list[str]]:  # fmt: skip
    """``(table, comment lines)`` of telemetry CSV read from a binary stream, block by block
    (``impossible`` as :func:`read_columns`)."""
    columns, comments = _csv_columns(fh, max_rows)
    columns.check_possible(impossible)
    return columns.structured(), comments


def _csv_columns(fh: IO[bytes], max_rows: int) -> tuple[Columns, list[str]]:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    lines_of: list[NDArray] = []

    def pointer(i: int) -> str:
        return f"line {int(np.concatenate(lines_of)[i])}"

    batches: Batches | None = None
    comments: list[str] = []
    width, take, names_in = 0, list[int](), tuple[str, ...]()
    for start, lines in _blocks(fh):
        numbers, rows = [], []
        for k, line in enumerate(lines):
            bare = line.strip()
            if not bare:
                continue
            if bare.startswith(b"#"):
                body = _decode(bare[1:], start + k)
                comments.append(body[1:] if body.startswith(" ") else body)
                continue
            if not width:
                width, names_in, take = _header(_decode(line, start + k), start + k)
                batches = Batches(pointer, max_rows=max_rows, names=names_in)
                continue
            numbers.append(start + k)
            rows.append(line)
        if not rows:
            continue
        names = [f"c{i}" for i in range(width)]
        try:
            got = pcsv.read_csv(
                io.BytesIO(b"\n".join(rows) + b"\n"),
                read_options=pcsv.ReadOptions(column_names=names, block_size=BLOCK + 1024),
                parse_options=pcsv.ParseOptions(newlines_in_values=False),
                convert_options=pcsv.ConvertOptions(
                    column_types={n: pa.string() for n in names},
                    include_columns=[names[i] for i in take], strings_can_be_null=False,
                    quoted_strings_can_be_null=False,
                ),
            )  # fmt: skip
        except (pa.ArrowInvalid, UnicodeDecodeError) as exc:
            _explain(rows, numbers, width, exc)
        lines_of.append(np.array(numbers, dtype=np.int64))
        assert batches is not None  # (made at the header, before any row)
        batches.add({name: got.column(names[i]) for name, i in zip(names_in, take)}, cells=True,
                    csv=True)  # fmt: skip
    if batches is None:
        raise TelemetryError("no header row", pointer="line 1")
    return batches.columns(), comments


def _explain(rows: list[bytes], numbers: list[int], width: int, exc: BaseException) -> None:
    """Name the line pyarrow could not parse (read again line by line: only on an error)."""
    for line, number in zip(rows, numbers):
        text = _decode(line, number)
        try:
            cells = next(csv.reader([text]))
        except csv.Error as err:
            raise TelemetryError(f"not CSV: {err}", pointer=f"line {number}") from None
        if len(cells) != width:
            raise TelemetryError(f"expected {width} values like the header, found {len(cells)}",
                                 pointer=f"line {number}", value=text)  # fmt: skip
    raise TelemetryError(f"not CSV: {exc}", pointer=f"line {numbers[0]}") from None


# --- Parquet --------------------------------------------------------------------------------------
def _check_schema(schema: Any, where: str) -> tuple[str, ...]:
    """The columns of :data:`COLUMNS` the schema has; a required one missing is an error."""
    if (name := missing_required(schema.names)) is not None:
        raise TelemetryError("missing column", pointer=f"{where}column {name!r}")
    return present(schema.names)


def _read_parquet(fh: Any, max_rows: int, where: str) -> tuple[Columns, list]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(fh)
    except (pa.ArrowException, OSError) as exc:
        raise TelemetryError(f"not a Parquet file: {exc}") from None
    have = _check_schema(pf.schema_arrow, where)
    rows = pf.metadata.num_rows
    if rows > max_rows:
        raise TelemetryError(f"holds {rows} rows, more than the limit of {max_rows} (pass "
                             "max_rows= to read more)")  # fmt: skip
    batches = Batches(lambda i: f"{where}row {i + 1}", max_rows=max_rows, rows=rows, names=have)
    try:
        for batch in pf.iter_batches(batch_size=BATCH_ROWS, columns=list(have)):
            batches.add({n: batch.column(n) for n in have})
    except (pa.ArrowException, OSError) as exc:
        raise TelemetryError(f"not a Parquet file: {exc}") from None
    comments: Any = []
    raw = (pf.schema_arrow.metadata or {}).get(COMMENTS_KEY)
    if raw is not None:
        comments = lio.parse_json(raw.decode("utf-8", "replace"), error=TelemetryError)
    return batches.columns(), comments


def _read_folder(folder: Path, max_rows: int) -> Columns:
    """Every ``*.parquet``/``*.pq`` file under ``folder`` (sorted), hive partitions included."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in PARQUET_SUFFIXES
                   and p.is_file() and not p.name.startswith((".", "_")))  # fmt: skip
    if not files:
        raise TelemetryError("a directory with no Parquet files (*.parquet) in it")
    try:
        dataset = ds.dataset([str(p) for p in files], format="parquet",
                             partitioning=ds.HivePartitioning.discover(infer_dictionary=True),
                             partition_base_dir=str(folder))  # fmt: skip
        have = _check_schema(dataset.schema, "")
        rows = dataset.count_rows()  # from the footers
    except (pa.ArrowException, OSError) as exc:
        raise TelemetryError(f"not a Parquet dataset: {exc}") from None
    if rows > max_rows:
        raise TelemetryError(f"holds {rows} rows, more than the limit of {max_rows} (pass "
                             "max_rows= to read more)")  # fmt: skip
    starts: list[tuple[int, str]] = []

    def pointer(i: int) -> str:
        first, name = max((s, n) for s, n in starts if s <= i)
        return f"{name}: row {i - first + 1}"

    batches = Batches(pointer, max_rows=max_rows, rows=rows, names=have)
    for fragment in dataset.get_fragments():
        starts.append((batches.rows, os.path.relpath(fragment.path, folder)))
        try:
            scanner = ds.Scanner.from_fragment(
                fragment, schema=dataset.schema, columns=list(have), batch_size=BATCH_ROWS
            )
            for batch in scanner.to_batches():
                batches.add({n: batch.column(n) for n in have})
        except (pa.ArrowException, OSError) as exc:
            raise TelemetryError(f"not a Parquet file: {exc}", file=fragment.path) from None
    return batches.columns()
