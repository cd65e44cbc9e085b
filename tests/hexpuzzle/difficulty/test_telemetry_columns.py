"""Telemetry checked a column at a time (``Batches``): typed and text batches join into one
table in input order, ids are kept exactly (edge spaces and control characters refused, never
stripped), the spreadsheet text mark is dropped from CSV ids, first_try must follow attempt and
won, (level, player, attempt) is unique over all batches, and errors name row and column."""

from __future__ import annotations

import pyarrow as pa
import pytest

from labkit.hexpuzzle.difficulty.telemetry_columns import Batches
from labkit.hexpuzzle.difficulty.telemetry_rules import TelemetryError


def typed(rows):
    """Typed Arrow columns of (level, player, attempt, won) rows; first_try as the rule says."""
    cols = {"level": [r[0] for r in rows], "player": [r[1] for r in rows],
            "attempt": [r[2] for r in rows], "won": [r[3] for r in rows]}  # fmt: skip
    cols["first_try"] = [a == 1 and w for a, w in zip(cols["attempt"], cols["won"])]
    for name in ("collisions", "hints", "rotations", "undos"):
        cols[name] = [0] * len(rows)
    cols["seconds"] = [1.5] * len(rows)
    return {k: pa.array(v) for k, v in cols.items()}


def cells(rows):
    """The same batch as text cells, as a CSV reader hands them over."""
    return {k: pa.array([str(int(x)) if isinstance(x, bool) else str(x) for x in v.to_pylist()])
            for k, v in typed(rows).items()}  # fmt: skip


def rowname(i):
    return f"row {i + 1}"


def test_batches_join_in_input_order():
    b = Batches(rowname)
    b.add(typed([("L1", "p1", 1, True), ("L1", "p2", 1, False)]))
    b.add(cells([("L1", "p2", 2, True), ("L2", "p1", 1, False)]), cells=True)
    t = b.table()
    assert b.rows == 4
    assert t["player"].tolist() == ["p1", "p2", "p2", "p1"]
    assert t["attempt"].tolist() == [1, 1, 2, 1]
    assert t["won"].tolist() == [True, False, True, False]
    assert t["first_try"].tolist() == [True, False, False, False]
    assert t["seconds"].tolist() == [1.5] * 4


@pytest.mark.parametrize("bad", [" p1", "p1 ", "p\t1", "p\x001", ""])
def test_ids_are_kept_exactly_or_refused_naming_row_and_column(bad):
    b = Batches(rowname)
    with pytest.raises(TelemetryError) as err:
        b.add(typed([("L1", "ok", 1, True), ("L1", bad, 1, True)]))
    assert "row 2" in str(err.value) and "'player'" in str(err.value)


def test_a_csv_id_loses_one_leading_text_mark_only():
    b = Batches(rowname)
    b.add(cells([("'=cmd", "''p", 1, True)]), cells=True, csv=True)
    t = b.table()
    assert (t["level"][0], t["player"][0]) == ("=cmd", "'p")


def test_first_try_must_follow_attempt_and_won():
    batch = typed([("L1", "p1", 1, True), ("L1", "p2", 1, True)])
    batch["first_try"] = pa.array([True, False])
    with pytest.raises(TelemetryError, match="must equal") as err:
        Batches(rowname).add(batch)
    assert "row 2" in str(err.value) and "'first_try'" in str(err.value)


def test_a_row_repeated_in_a_later_batch_is_refused():
    b = Batches(rowname)
    b.add(typed([("L1", "p1", 1, True)]))
    b.add(typed([("L2", "p1", 1, True), ("L1", "p1", 1, False)]))
    with pytest.raises(TelemetryError) as err:
        b.table()
    assert "row 3" in str(err.value)


def test_nulls_bad_types_and_the_row_limit_are_refused():
    batch = typed([("L1", "p1", 1, True)])
    batch["seconds"] = pa.array([None], type=pa.float64())
    with pytest.raises(TelemetryError, match="missing value"):
        Batches(rowname).add(batch)
    batch = typed([("L1", "p1", 1, True)])
    batch["hints"] = pa.array(["1"])  # a string is not a count
    with pytest.raises(TelemetryError, match="'hints'"):
        Batches(rowname).add(batch)
    batch = typed([("L1", "p1", 0, False)])  # attempts start at 1
    with pytest.raises(TelemetryError, match="'attempt'"):
        Batches(rowname).add(batch)
    b = Batches(rowname, max_rows=1)
    with pytest.raises(TelemetryError, match="more than 1 rows"):
        b.add(typed([("L1", "p1", 1, True), ("L1", "p2", 1, True)]))
