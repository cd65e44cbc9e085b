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

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit.hexpuzzle.difficulty.telemetry_rules import (
    COLUMNS,
    MAX_COUNT,
    MAX_SECONDS,
    MAX_TEXT,
    TelemetryError,
)

__all__ = ["Batches"]

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
    """

    def __init__(self, pointer: Callable[[int], str], *, max_rows: int | None = None) -> None:
        self.pointer = pointer
        self.max_rows = max_rows
        self.rows = 0
        self.text: dict[str, list[Any]] = {"level": [], "player": []}
        self.numbers: dict[str, list[NDArray]] = {n: [] for n in COLUMNS if n not in self.text}

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
        for name, kind in COLUMNS.items():
            arr = columns[name]
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
        for name in self.text:
            self.text[name].append(values[name])
        for name in self.numbers:
            self.numbers[name].append(values[name])
        self.rows += n

    def _first(self, ok: Any) -> int | None:
        ok = np.asarray(ok.to_numpy(zero_copy_only=False) if hasattr(ok, "to_numpy") else ok)
        bad = np.flatnonzero(~ok)
        return int(bad[0]) if bad.size else None

    def _text(self, arr: Any, name: str) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        if pa.types.is_dictionary(arr.type):
            arr = arr.cast(arr.type.value_type)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            self.fail(0, name, f"must be a text column (got {arr.type})", has=False)
        arr = arr.cast(pa.string())
        length = pc.utf8_length(arr).to_numpy(zero_copy_only=False)
        for ok, message in (
            (length >= 1, "must not be empty"),
            (length <= MAX_TEXT, f"longer than {MAX_TEXT} characters"),
            (pc.invert(pc.match_substring_regex(arr, _CONTROL)), "holds a control character"),
            (pc.invert(pc.match_substring_regex(arr, _EDGE_SPACE)), "starts or ends with a space"),
        ):
            if (i := self._first(ok)) is not None:
                self.fail(i, name, message, arr[i].as_py())
        return arr

    def _from_cells(self, arr: Any, name: str, kind: str) -> NDArray:
        import pyarrow as pa
        import pyarrow.compute as pc

        text = pc.utf8_trim_whitespace(arr)
        if kind == "flag":
            true = pc.is_in(text, value_set=pa.array(_TRUE)).to_numpy(zero_copy_only=False)
            false = pc.is_in(text, value_set=pa.array(_FALSE)).to_numpy(zero_copy_only=False)
            if (i := self._first(true | false)) is not None:
                self.fail(i, name, "must be 0 or 1", arr[i].as_py().strip())
            return true
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
        return out

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
        return v.astype(np.float64 if kind == "seconds" else np.int64)

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
        expected = (v["attempt"] == 1) & v["won"]
        if (i := self._first(v["first_try"] == expected)) is not None:
            self.fail(i, "first_try", f"must equal (attempt == 1 and won) = {int(expected[i])}",
                      int(v["first_try"][i]))  # fmt: skip

    # --- the whole input --------------------------------------------------------------------
    def table(self) -> NDArray:
        """The structured array of every batch, after the uniqueness check over all of them.

        Filled part by part (each batch is let go once copied): the peak is the table plus one
        column of codes, not two copies of everything.
        """
        import pyarrow as pa
        import pyarrow.compute as pc

        codes, words = {}, {}
        for name, parts in self.text.items():
            enc = pc.dictionary_encode(pa.chunked_array(parts, type=pa.string()).combine_chunks())
            codes[name] = enc.indices.to_numpy(zero_copy_only=False)
            words[name] = np.array(enc.dictionary.to_pylist() or [""])
        dtype = [(name, f"<U{max(1, words[name].dtype.itemsize // 4)}") if kind == "text"
                 else (name, _kind_dtype(name)) for name, kind in COLUMNS.items()]  # fmt: skip
        out = np.empty(self.rows, dtype=dtype)
        step = 1 << 20
        for name in words:
            for at in range(0, self.rows, step):
                out[name][at : at + step] = words[name][codes[name][at : at + step]]
        for name, parts in self.numbers.items():
            at = 0
            while parts:
                part = parts.pop(0)
                out[name][at : at + part.size] = part
                at += part.size
        self._unique(codes, out["attempt"], len(words["player"]))
        return out

    def _unique(self, codes: dict[str, NDArray], attempt: NDArray, players: int) -> None:
        if attempt.size < 2:
            return
        pair = codes["level"].astype(np.int64) * max(1, players) + codes["player"]
        top = int(attempt.max()) + 1
        if int(pair.max()) < (1 << 62) // top:  # one int64 key: a single stable sort
            key = pair * top + attempt
            order = np.argsort(key, kind="stable")
            same = key[order][1:] == key[order][:-1]
        else:
            order = np.lexsort((attempt, pair))  # stable: equal keys keep their input order
            same = (pair[order][1:] == pair[order][:-1]) & (
                attempt[order][1:] == attempt[order][:-1])  # fmt: skip
        if not same.any():
            return
        later = order[1:][same]
        k = int(np.argmin(later))
        first, second = int(order[:-1][same][k]), int(later[k])
        key3 = (self._word("level", codes, first), self._word("player", codes, first),
                int(attempt[first]))  # fmt: skip
        raise TelemetryError(
            f"duplicate (level, player, attempt) (also on {self.pointer(first)})",
            pointer=_where(self.pointer(second), "attempt"), value=key3,
        )  # fmt: skip

    def _word(self, name: str, codes: dict[str, NDArray], i: int) -> str:
        import pyarrow as pa

        return pa.chunked_array(self.text[name], type=pa.string())[i].as_py()


def _kind_dtype(name: str) -> Any:
    return {"attempt": np.int64, "count": np.int64, "flag": np.bool_,
            "seconds": np.float64}[COLUMNS[name]]  # fmt: skip
