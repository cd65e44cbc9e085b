"""Telemetry checked a column at a time: the one validator behind every way telemetry arrives.

CSV cells, Parquet columns, a pandas ``DataFrame``, a numpy structured array, a column dict and
row tuples all end here as Arrow arrays, batch by batch, and are checked with vectorised
Arrow/numpy operations (no Python call per cell), then joined into the structured array of
:mod:`.telemetry`. The rules, the same for every source:

* **Ids exactly as given.** ``level`` and ``player`` are text of 1 to ``MAX_TEXT`` characters
  with no control character (C0, DEL, C1: NUL, tab, CR, LF, ...) and no space at either end
  (``" p1"`` and ``"p1 "`` would be different players a person cannot tell apart from ``p1``:
  refused, never stripped). Anything else Unicode allows is kept, U+2028 included.
* **Types, not spellings** (Parquet, frames, arrays, dicts): ids must be a text column, counts
  and attempts an integer column (a bool or a string ``"1"`` is not a count), flags bool or 0/1
  integers, seconds a number column. Nulls are refused, naming the row.
* **Text cells** (CSV, row tuples) are read strictly: ASCII digits, ``0``/``1``/``true``/
  ``false``; space around a number is allowed. In a CSV file one leading ``'`` of an id is
  the spreadsheet's text mark (what :func:`~.telemetry.to_csv` writes before an id that a
  spreadsheet would run as a formula, or that starts with ``'`` itself) and is dropped.
* Ranges as :mod:`.telemetry` states; ``first_try == (attempt == 1 and won)``;
  ``(level, player, attempt)`` unique over the whole input (all batches, all files).

Errors name the row the way the source counts it (``line N`` of a CSV file, ``row N``
otherwise), the column and the value; the first bad row in input order is the one named.

What is kept is compact (:class:`Columns`): each batch's ids are dictionary-encoded as they
arrive (the text checks run on a batch's distinct ids, not on every row) and only ``int32``
codes stay per row, with counts and attempts as ``int32``, flags as ``bool`` and seconds as
``float64``: about 38 bytes a row, never a Python object per row. :meth:`Columns.structured`
gives the structured array of :mod:`.telemetry` when it is asked for.

Examples
--------
>>> import pyarrow as pa
>>> b = Batches(lambda i: f"row {i + 1}")
>>> b.add({"level": pa.array(["L1"]), "player": pa.array(["p1 "]), "attempt": pa.array([1]),
...        "first_try": pa.array([True]), "collisions": pa.array([0]), "hints": pa.array([0]),
...        "rotations": pa.array([0]), "undos": pa.array([0]), "seconds": pa.array([2.5]),
...        "won": pa.array([True])})
Traceback (most recent call last):
...
labkit.hexpuzzle.difficulty.telemetry.TelemetryError: row 1, column 'player': starts or ends ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit.hexpuzzle.difficulty.telemetry_rules import (
    COLUMNS,
    MAX_COUNT,
    MAX_SECONDS,
    MAX_TEXT,
    TelemetryError,
    missing_required,
    present,
)

__all__ = ["Batches", "Columns"]

_CONTROL = r"[\x00-\x1f\x7f-\x{9f}]"
_EDGE_SPACE = r"^[\s\p{Z}]|[\s\p{Z}]$"
_INT_TEXT = r"^[+-]?[0-9]{1,20}$"
_DEC_TEXT = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"
_TRUE, _FALSE = ["1", "true", "True", "TRUE"], ["0", "false", "False", "FALSE"]


def _where(pointer: str, column: str) -> str:
    return f"{pointer}, column {column!r}" if pointer else f"column {column!r}"


class Batches:
    """Checks batches of columns as they arrive and joins them into the structured array.

    ``pointer(i)`` names row ``i`` (0-based over everything added so far) in errors.
    ``names``: the columns of :data:`COLUMNS` the input has (the required four at least, in
    :data:`COLUMNS` order: :func:`~.telemetry_rules.present`); every batch gives these.
    """

    def __init__(self, pointer: Callable[[int], str], *, max_rows: int | None = None,
                 rows: int | None = None,
                 names: Sequence[str] = tuple(COLUMNS)) -> None:  # fmt: skip
        self.pointer = pointer
        self.max_rows = max_rows
        self.rows = 0
        self.names = present(names)
        if (gone := missing_required(self.names)) is not None:
            raise TelemetryError("missing column", pointer=f"column {gone!r}")
        # per batch: its distinct ids (Arrow, first-seen order) and its row count; the rows'
        # codes into them (int32) and the other columns go straight into one buffer per
        # column, sized ``rows`` (a Parquet file's count from its footer) or grown as needed
        self.text: dict[str, list[tuple[Any, int]]] = {"level": [], "player": []}
        self.buffers: dict[str, NDArray] = {
            n: np.empty(rows or 0, np.int32 if n in self.text else _kind_dtype(n))
            for n in self.names
        }

    # --- one batch ------------------------------------------------------------------------
    def fail(self, i: int, column: str, message: str, value: Any = None, has: bool = True) -> None:
        kw = {"value": value} if has else {}
        raise TelemetryError(message, pointer=_where(self.pointer(self.rows + i), column), **kw)

    def add(self, columns: dict[str, Any], *, cells: bool = False, csv: bool = False) -> None:
        """Check one batch (``{column: Arrow array}``) and keep it; ``cells``: all text;
        ``csv``: ids may carry the spreadsheet text mark (a leading ``'``, dropped)."""
        import pyarrow as pa

        n = len(columns["level"])
        if self.max_rows is not None and self.rows + n > self.max_rows:
            raise TelemetryError(f"more than {self.max_rows} rows (the stated limit: pass "
                                 "max_rows= to read more)", pointer=self.pointer(self.max_rows),
                                 value=self.rows + n)  # fmt: skip
        values: dict[str, Any] = {}
        for name in self.names:
            kind, arr = COLUMNS[name], columns[name]
            if isinstance(arr, pa.ChunkedArray):
                arr = arr.combine_chunks()
            if arr.null_count:
                bad = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
                self.fail(bad, name, "missing value (null)", has=False)
            if kind == "text":
                if csv:
                    import pyarrow.compute as pc

                    arr = pc.replace_substring_regex(arr, "^'", "")
                values[name] = self._text(arr, name)
            elif cells:
                values[name] = self._from_cells(arr, name, kind)
            else:
                values[name] = self._typed(arr, name, kind)
        self._cross(values)
        if self.rows + n > len(self.buffers["level"]):  # grown by half at least (no size given)
            size = max(self.rows + n, len(self.buffers["level"]) * 3 // 2, 1024)
            for name, buf in self.buffers.items():
                grown = np.empty(size, buf.dtype)
                grown[: self.rows] = buf[: self.rows]
                self.buffers[name] = grown
                del buf, grown
        for name in self.names:
            if name in self.text:
                words, values[name] = values[name]
                self.text[name].append((words, n))
            self.buffers[name][self.rows : self.rows + n] = values[name]
        self.rows += n

    def _first(self, ok: Any) -> int | None:
        ok = np.asarray(ok.to_numpy(zero_copy_only=False) if hasattr(ok, "to_numpy") else ok)
        bad = np.flatnonzero(~ok)
        return int(bad[0]) if bad.size else None

    def _text(self, arr: Any, name: str) -> tuple[Any, NDArray]:
        """``(distinct ids in first-seen order, int32 codes)`` of a checked text column; the
        checks run on the distinct ids (the first bad id is the first bad row's)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if pa.types.is_dictionary(arr.type):
            arr = arr.cast(arr.type.value_type)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            self.fail(0, name, f"must be a text column (got {arr.type})", has=False)
        enc = pc.dictionary_encode(arr.cast(pa.string()))
        words, codes = enc.dictionary, enc.indices.to_numpy(zero_copy_only=False)
        length = pc.utf8_length(words).to_numpy(zero_copy_only=False)
        for ok, message in (
            (length >= 1, "must not be empty"),
            (length <= MAX_TEXT, f"longer than {MAX_TEXT} characters"),
            (pc.invert(pc.match_substring_regex(words, _CONTROL)), "holds a control character"),
            (pc.invert(pc.match_substring_regex(words, _EDGE_SPACE)),
             "starts or ends with a space"),
        ):  # fmt: skip
            if (w := self._first(ok)) is not None:
                i = int(np.argmax(codes == w))  # words are in first-seen order
                self.fail(i, name, message, words[w].as_py())
        return words, codes.astype(np.int32, copy=False)

    def _from_cells(self, arr: Any, name: str, kind: str) -> NDArray:
        import pyarrow as pa
        import pyarrow.compute as pc

        text = pc.utf8_trim_whitespace(arr)
        if kind == "flag":
            true = pc.is_in(text, value_set=pa.array(_TRUE)).to_numpy(zero_copy_only=False)
            false = pc.is_in(text, value_set=pa.array(_FALSE)).to_numpy(zero_copy_only=False)
            if (i := self._first(true | false)) is not None:
                self.fail(i, name, "must be 0 or 1", arr[i].as_py().strip())
            return true.astype(bool, copy=False)
        pattern = _DEC_TEXT if kind == "seconds" else _INT_TEXT
        if (i := self._first(pc.match_substring_regex(text, pattern))) is not None:
            self._range_error(i, name, kind, arr[i].as_py().strip())
        plain = pc.replace_substring_regex(text, r"^\+", "")
        if kind == "seconds":
            out = pc.cast(plain, pa.float64()).to_numpy(zero_copy_only=False)
        else:  # up to 20 digits: too long for int64 is out of range anyway
            big = pc.greater(pc.utf8_length(pc.replace_substring_regex(plain, "^-", "")), 12)
            if (i := self._first(pc.invert(big))) is not None:
                self._range_error(i, name, kind, arr[i].as_py().strip())
            out = pc.cast(plain, pa.int64()).to_numpy(zero_copy_only=False)
        self._check_range(out, name, kind, lambda i: arr[i].as_py().strip())
        return out.astype(_kind_dtype(name), copy=False)

    def _typed(self, arr: Any, name: str, kind: str) -> NDArray:
        import pyarrow as pa

        t = arr.type
        integer = pa.types.is_integer(t)
        if kind == "flag":
            if pa.types.is_boolean(t):
                return arr.to_numpy(zero_copy_only=False).astype(bool)
            if integer:
                v = arr.to_numpy(zero_copy_only=False)
                if (i := self._first((v == 0) | (v == 1))) is not None:
                    self.fail(i, name, "must be 0 or 1", v[i].item())
                return v.astype(bool)
            self.fail(0, name, f"must be a bool or 0/1 integer column (got {t})", has=False)
        if kind == "seconds" and not (integer or pa.types.is_floating(t)):
            self.fail(0, name, f"must be a number column (got {t})", has=False)
        if kind != "seconds" and not integer:
            self.fail(0, name, f"must be an integer column (got {t})", has=False)
        v = arr.to_numpy(zero_copy_only=False)
        self._check_range(v, name, kind, lambda i: v[i].item())
        return v.astype(_kind_dtype(name))

    def _check_range(self, v: NDArray, name: str, kind: str, show: Callable) -> None:
        if kind == "seconds":
            with np.errstate(invalid="ignore"):
                ok = np.isfinite(v) & (v >= 0) & (v <= MAX_SECONDS)
        else:
            ok = (v >= (1 if kind == "attempt" else 0)) & (v <= MAX_COUNT)
        if (i := self._first(ok)) is not None:
            self._range_error(i, name, kind, show(i))

    def _range_error(self, i: int, name: str, kind: str, value: Any) -> None:
        if kind == "seconds":
            self.fail(i, name, f"must be a number 0-{MAX_SECONDS:g}", value)
        lo = 1 if kind == "attempt" else 0
        self.fail(i, name, f"must be an integer {lo}-{MAX_COUNT}", value)

    def _cross(self, v: dict[str, Any]) -> None:
        if "first_try" not in v:  # the hex puzzle's redundant flag: checked where present
            return
        expected = (v["attempt"] == 1) & v["won"].astype(bool)
        if (i := self._first(v["first_try"] == expected)) is not None:
            self.fail(i, "first_try", f"must equal (attempt == 1 and won) = {int(expected[i])}",
                      int(v["first_try"][i]))  # fmt: skip

    # --- the whole input --------------------------------------------------------------------
    def columns(self) -> Columns:
        """The compact :class:`Columns` of every batch, after the uniqueness check over all.

        The buffers the batches were written into become the columns (batch codes turned into
        global codes in place): the peak is the columns plus one batch, never two copies.
        """
        import pyarrow as pa
        import pyarrow.compute as pc

        bufs = self.buffers
        for name, buf in bufs.items():
            if len(buf) != self.rows:  # sized for more (or grown): the rows only
                bufs[name] = buf[: self.rows].copy()
                del buf
        codes, words = {}, {}
        for name, parts in self.text.items():
            # every batch's distinct ids, in order: their first-seen order is the input's
            local = pa.chunked_array([w for w, _ in parts], type=pa.string()).combine_chunks()
            enc = pc.dictionary_encode(local)
            words[name] = enc.dictionary
            to_global = enc.indices.to_numpy(zero_copy_only=False).astype(np.int32)
            out = codes[name] = bufs[name]  # batch codes become global codes, in place
            at = start = 0
            for w, n in parts:
                out[at : at + n] = to_global[start : start + len(w)][out[at : at + n]]
                at, start = at + n, start + len(w)
            parts.clear()
        numbers = {name: bufs[name] for name in self.names if name not in self.text}
        self.buffers = {}
        cols = Columns(codes["level"], words["level"], codes["player"], words["player"], numbers)
        self._unique(cols)
        cols.pointer = self.pointer  # (names a row in the impossible-row check of the reader)
        return cols

    def table(self) -> NDArray:
        """The structured array of every batch (:meth:`columns`, then
        :meth:`Columns.structured`)."""
        return self.columns().structured()

    def _unique(self, cols: Columns) -> None:
        attempt = cols.numbers["attempt"]
        if attempt.size < 2:
            return
        pair = cols.level.astype(np.int64) * max(1, len(cols.player_words)) + cols.player
        top = int(attempt.max()) + 1
        if int(pair.max()) < (1 << 62) // top:  # one int64 key: a single stable sort
            pair *= top
            pair += attempt
            key = pair
            order = np.argsort(key, kind="stable")
            same = key[order]
            same = same[1:] == same[:-1]
            del key, pair
        else:
            order = np.lexsort((attempt, pair))  # stable: equal keys keep their input order
            same = (pair[order][1:] == pair[order][:-1]) & (
                attempt[order][1:] == attempt[order][:-1])  # fmt: skip
        if not same.any():
            return
        later = order[1:][same]
        k = int(np.argmin(later))
        first, second = int(order[:-1][same][k]), int(later[k])
        key3 = (
            cols.level_words[int(cols.level[first])].as_py(),
            cols.player_words[int(cols.player[first])].as_py(),
            int(attempt[first]),
        )
        raise TelemetryError(
            f"duplicate (level, player, attempt) (also on {self.pointer(first)})",
            pointer=_where(self.pointer(second), "attempt"), value=key3,
        )  # fmt: skip


class Columns:
    """Checked telemetry, compact: ids as ``int32`` codes into their distinct values.

    ``level``/``player``: codes into ``level_words``/``player_words`` (Arrow string arrays,
    in first-seen order); ``numbers``: the other columns of :data:`COLUMNS` the input has (the
    required ``attempt`` and ``won`` always; counts and attempts ``int32``, flags ``bool``,
    seconds ``float64``). Made by :meth:`Batches.columns`
    (checked there) or :meth:`from_table` (of a checked structured array).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([("L1", "p1", 1, True, 0, 0, 2, 0, 3.5, True)],
    ...              dtype=[(n, "U4" if k == "text" else "f8") for n, k in COLUMNS.items()])
    >>> c = Columns.from_table(t)
    >>> len(c), c.player.dtype.name, c.player_words.to_pylist()
    (1, 'int32', ['p1'])
    >>> c.structured()["attempt"].tolist()
    [1]
    """

    def __init__(self, level: NDArray, level_words: Any, player: NDArray, player_words: Any,
                 numbers: dict[str, NDArray]) -> None:  # fmt: skip
        self.level, self.level_words = level, level_words
        self.player, self.player_words = player, player_words
        self.numbers = numbers
        #: how the source names row i (``line N`` of a CSV file); None: not read from a source
        self.pointer: Callable[[int], str] | None = None
        #: counts of impossible rows (:mod:`._telemetry_possible`), once checked
        self.impossible: dict[str, int] | None = None

    def check_possible(self, impossible: str = "refuse") -> dict[str, int]:
        """Count the impossible rows (:mod:`._telemetry_possible`); with ``"refuse"`` the first
        is a :class:`TelemetryError` naming its row (as the source counts it) and player."""
        from labkit.hexpuzzle.difficulty import _telemetry_possible as possible

        found = possible.find(self.level, self.player, self.numbers["attempt"],
                              self.numbers["won"])  # fmt: skip
        namer, self.pointer = self.pointer, None  # (a reader's closure: not kept, not pickled)
        if impossible == "refuse" and found.first is not None:
            i = found.first
            name = namer(i) if namer is not None else f"row {i + 1}"
            words = found.words(self.player_words[int(self.player[i])].as_py(),
                                self.level_words[int(self.level[i])].as_py())  # fmt: skip
            raise TelemetryError(words, pointer=_where(name, "attempt"))
        self.impossible = found.counts
        return found.counts

    def __len__(self) -> int:
        return len(self.level)

    @property
    def names(self) -> tuple[str, ...]:
        """The columns held, in :data:`COLUMNS` order (the required four at least)."""
        return present(["level", "player", *self.numbers])

    @property
    def nbytes(self) -> int:
        """Bytes held (codes, numbers and the distinct ids)."""
        ids = self.level.nbytes + self.player.nbytes
        words = self.level_words.nbytes + self.player_words.nbytes
        return ids + words + sum(v.nbytes for v in self.numbers.values())

    @classmethod
    def from_table(cls, table: NDArray, *, block: int = 1 << 20) -> Columns:
        """The columns of a checked structured array (ids encoded ``block`` rows at a time)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        text = {}
        for name in ("level", "player"):
            column = table[name]
            parts = [pa.array(column[a : a + block], type=pa.string())
                     for a in range(0, len(column), block)]  # fmt: skip
            enc = pc.dictionary_encode(pa.chunked_array(parts, type=pa.string())).combine_chunks()
            text[name] = (enc.indices.to_numpy(zero_copy_only=False).astype(np.int32),
                          enc.dictionary)  # fmt: skip
        numbers = {n: np.asarray(table[n]).astype(_kind_dtype(n))
                   for n in present(table.dtype.names) if n not in text}  # fmt: skip
        return cls(text["level"][0], text["level"][1], text["player"][0], text["player"][1],
                   numbers)  # fmt: skip

    def structured(self) -> NDArray:
        """The structured array of :mod:`.telemetry` (ids fixed-width text, counts ``int64``)."""
        words = {name: np.array(w.to_pylist() or [""]) for name, w in
                 (("level", self.level_words), ("player", self.player_words))}  # fmt: skip
        codes = {"level": self.level, "player": self.player}
        dtype = [(name, f"<U{max(1, words[name].dtype.itemsize // 4)}") if COLUMNS[name] == "text"
                 else (name, _table_dtype(name)) for name in self.names]  # fmt: skip
        out = np.empty(len(self), dtype=dtype)
        step = 1 << 20
        for name in words:
            for at in range(0, len(self), step):
                out[name][at : at + step] = words[name][codes[name][at : at + step]]
        for name, values in self.numbers.items():
            out[name] = values
        return out


def _kind_dtype(name: str) -> Any:
    """The compact dtype a column is kept in (``MAX_COUNT`` fits ``int32``)."""
    return {"attempt": np.int32, "count": np.int32, "flag": np.bool_,
            "seconds": np.float64}[COLUMNS[name]]  # fmt: skip


def _table_dtype(name: str) -> Any:
    """The dtype of a column in the structured array."""
    return {"attempt": np.int64, "count": np.int64, "flag": np.bool_,
            "seconds": np.float64}[COLUMNS[name]]  # fmt: skip
