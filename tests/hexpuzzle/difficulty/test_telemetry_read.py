"""Reading telemetry as a stream (issue 31): batches kept compact, checked as they arrive.

Every rule of issue 33 is tested in test_telemetry.py and test_telemetry_exact.py; here, that the
rules hold across batches (the first bad row over the whole input is named), that what is kept
is compact (int32 codes, int32 counts, bool flags) and that it reads back as the same table.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from labkit.hexpuzzle.difficulty import telemetry_read as R
from labkit.hexpuzzle.difficulty.telemetry import COLUMNS, TelemetryError, make_table
from labkit.hexpuzzle.difficulty.telemetry_columns import Batches, Columns


def rows(n: int, players: int = 7) -> list[tuple]:
    """``n`` attempts: player k % players at level (k // players) % 5, attempt 1 + k // 35;
    wins only on each pair's last attempt (no attempt after a win: possible telemetry)."""
    out = []
    for k in range(n):
        won = k % 3 == 0 and k >= n - 5 * players
        attempt = 1 + k // (5 * players)
        out.append((f"L{(k // players) % 5}", f"p{k % players}", attempt, won and attempt == 1,
                    k % 4, k % 2, k % 5, 0, 1.5 + k, won))  # fmt: skip
    return out


def write(path, table_rows) -> None:
    cols = list(zip(*table_rows))
    pq.write_table(pa.table({n: pa.array(list(c)) for n, c in zip(COLUMNS, cols)}), path)


def test_parquet_in_small_batches_equals_one_batch(tmp_path, monkeypatch):
    write(tmp_path / "t.parquet", rows(120))
    whole, _ = R.read_table(tmp_path / "t.parquet")
    monkeypatch.setattr(R, "BATCH_ROWS", 8)  # 15 batches, ids recurring across them
    cols, _ = R.read_columns(tmp_path / "t.parquet")
    assert cols.structured().tolist() == whole.tolist() == make_table(rows(120)).tolist()
    assert cols.level_words.to_pylist() == ["L0", "L1", "L2", "L3", "L4"]  # first seen
    assert cols.player_words.to_pylist() == [f"p{k}" for k in range(7)]
    assert cols.player.tolist() == [k % 7 for k in range(120)]


def test_kept_compact(tmp_path):
    write(tmp_path / "t.parquet", rows(2000, players=300))
    cols, _ = R.read_columns(tmp_path / "t.parquet")
    assert isinstance(cols, Columns) and len(cols) == 2000
    assert cols.level.dtype == cols.player.dtype == np.int32
    kinds = {n: cols.numbers[n].dtype.name for n in cols.numbers}
    assert kinds == {"attempt": "int32", "first_try": "bool", "collisions": "int32",
                     "hints": "int32", "rotations": "int32", "undos": "int32",
                     "seconds": "float64", "won": "bool"}  # fmt: skip
    per_row = (cols.nbytes - cols.player_words.nbytes - cols.level_words.nbytes) / len(cols)
    assert per_row == 4 + 4 + 4 * 5 + 8 + 2  # 38 bytes a row
    table = cols.structured()
    assert table.dtype["attempt"] == np.int64 and table.dtype["player"] == np.dtype("<U4")


def test_folder_rows_named_across_files_and_batches(tmp_path, monkeypatch):
    good = rows(40)
    write(tmp_path / "part-0.parquet", good[:20])
    bad = list(good[20:])
    bad[13] = ("L1", "p\x00x", *bad[13][2:])
    write(tmp_path / "part-1.parquet", bad)
    monkeypatch.setattr(R, "BATCH_ROWS", 4)
    with pytest.raises(TelemetryError, match=r"part-1.parquet: row 14, column 'player': holds a "
                                             r"control character"):  # fmt: skip
        R.read_table(tmp_path)


def test_duplicate_across_batches_names_both_rows(tmp_path, monkeypatch):
    r = rows(30)
    r.append(r[3])
    write(tmp_path / "t.parquet", r)
    monkeypatch.setattr(R, "BATCH_ROWS", 8)
    with pytest.raises(TelemetryError) as err:
        R.read_table(tmp_path / "t.parquet")
    assert "row 31, column 'attempt': duplicate (level, player, attempt) (also on row 4)" in str(
        err.value
    )
    assert "('L0', 'p3', 1)" in str(err.value)


def _batch(level, player):
    n = len(level)
    return {"level": pa.array(level), "player": pa.array(player), "attempt": pa.array([1] * n),
            "first_try": pa.array([False] * n), "collisions": pa.array([0] * n),
            "hints": pa.array([0] * n), "rotations": pa.array([0] * n),
            "undos": pa.array([0] * n), "seconds": pa.array([1.0] * n),
            "won": pa.array([False] * n)}  # fmt: skip


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["a", "b\x01", "c\x02", "b\x01"], "row 2, column 'player': holds a control character"),
        # the checks keep their order: a control character is named before an edge space
        (["a", " b", "c\x00"], "row 3, column 'player': holds a control character"),
        (["a", " b", "b "], "row 2, column 'player': starts or ends with a space"),
        (["a", "b", ""], "row 3, column 'player': must not be empty"),
    ],
)
def test_text_checks_on_distinct_ids_name_the_first_bad_row(players, message):
    b = Batches(lambda i: f"row {i + 1}")
    with pytest.raises(TelemetryError, match=message.replace("(", r"\(")):
        b.add(_batch(["L1"] * len(players), players))


def test_later_batch_rows_counted_from_the_first():
    b = Batches(lambda i: f"row {i + 1}")
    b.add(_batch(["L1", "L1"], ["a", "b"]))
    with pytest.raises(TelemetryError, match=r"row 4, column 'level': starts or ends"):
        b.add(_batch(["L1", "L1 "], ["c", "d"]))


def test_row_limit_from_metadata_before_reading(tmp_path, monkeypatch):
    write(tmp_path / "t.parquet", rows(50))

    def no_read(*a, **k):
        raise AssertionError("read rows")

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", no_read)
    with pytest.raises(TelemetryError, match="holds 50 rows, more than the limit of 49"):
        R.read_columns(tmp_path / "t.parquet", max_rows=49)


def test_csv_in_small_blocks_equals_one_block(tmp_path, monkeypatch):
    table = make_table(rows(90))
    from labkit.hexpuzzle.difficulty.telemetry import to_csv

    (tmp_path / "t.csv").write_text(to_csv(table))
    monkeypatch.setattr(R, "BLOCK", 256)  # many blocks, ids recurring across them
    cols, _ = R.read_columns(tmp_path / "t.csv")
    assert cols.structured().tolist() == table.tolist()
