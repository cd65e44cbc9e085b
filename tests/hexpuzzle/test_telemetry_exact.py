"""Telemetry exact or refused (issue 33 item 3) and at scale (issue 31): every input checked the
same way, column by column; ids kept exactly; what save writes, load reads back; CSV exports a
spreadsheet cannot run; CSV, Parquet and a folder of Parquet files through one loading path."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from labkit.hexpuzzle import Telemetry
from labkit.hexpuzzle.difficulty.telemetry import TelemetryError, load_telemetry, to_csv
from tests.hostile_cases import TELEMETRY_EXACT_CASES, TELEMETRY_ROW, _telemetry_columns


@pytest.mark.parametrize(
    "name,make,error", TELEMETRY_EXACT_CASES, ids=[c[0] for c in TELEMETRY_EXACT_CASES]
)
def test_each_hostile_table_is_refused_in_its_one_line(tmp_path, name, make, error):
    made = make(tmp_path)
    with pytest.raises(TelemetryError) as info:
        if isinstance(made, dict):
            Telemetry.from_dict(made)
        elif hasattr(made, "suffix"):
            Telemetry.load(made, max_rows=1 if "row-limit" in name else 10_000_000)
        else:
            Telemetry(made)
    text = str(info.value).replace(str(tmp_path) + "/", "")
    assert text == error
    assert "\n" not in str(info.value)


def test_the_two_loaders_are_one_path_and_agree(tmp_path):
    cols = _telemetry_columns()
    pq.write_table(pa.table(cols), tmp_path / "t.parquet")
    a = load_telemetry(tmp_path / "t.parquet", frame=False)  # refused as "not UTF-8" before
    b = Telemetry.load(tmp_path / "t.parquet").table
    assert a.tolist() == b.tolist() == list(zip(*cols.values()))
    with pytest.raises(TelemetryError, match="holds 2 rows, more than the limit of 1"):
        load_telemetry(tmp_path / "t.parquet", max_rows=1)


def test_a_folder_of_parquet_files_with_hive_partitions(tmp_path):
    folder = tmp_path / "ds"
    for level in ("L1", "L2"):
        (folder / f"level={level}").mkdir(parents=True)
        cols = _telemetry_columns()
        del cols["level"]
        pq.write_table(pa.table(cols), folder / f"level={level}" / "part-0.parquet")
    tel = Telemetry.load(folder)
    assert sorted(zip(tel.table["level"].tolist(), tel.table["player"].tolist())) == [
        ("L1", "p1"), ("L1", "p2"), ("L2", "p1"), ("L2", "p2")]  # fmt: skip
    bad = _telemetry_columns(hints=[0, -3])
    del bad["level"]
    pq.write_table(pa.table(bad), folder / "level=L2" / "part-1.parquet")
    with pytest.raises(TelemetryError) as info:
        Telemetry.load(folder)
    assert "level=L2/part-1.parquet: row 2, column 'hints': must be an integer" in str(info.value)
    (tmp_path / "empty").mkdir()
    with pytest.raises(TelemetryError, match="a directory with no Parquet files"):
        Telemetry.load(tmp_path / "empty")


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_what_save_writes_load_reads_back(tmp_path, suffix):
    ids = ["a\u2028b", "=1+1", "+x", "-3", "@sum", "'quoted", "''twice", "p\u202eq", "é"]
    rows = [(lv, f"p{k}", 1, True, 0, 0, 1, 0, 2.5, True) for k, lv in enumerate(ids)]
    tel = Telemetry(rows, comments=["hostile ids"])
    tel.save(tmp_path / f"t{suffix}")
    assert Telemetry.load(tmp_path / f"t{suffix}") == tel


def test_csv_export_neutralises_formula_starts():
    rows = [(lv, "p1", 1, True, 0, 0, 1, 0, 2.5, True) for lv in ("=cmd|' /C calc'!A0", "@x")]
    lines = to_csv(rows).splitlines()
    assert lines[1].startswith("'=cmd|' /C calc'!A0,") and lines[2].startswith("'@x,")
    assert all(not line.startswith(("=", "+", "-", "@")) for line in lines)


def test_ids_differing_only_by_invisible_characters_never_merge(tmp_path):
    path = tmp_path / "t.csv"
    rows = ["L1,p1,1,1,0,0,0,0,1,1", "L1,p1\u200b,1,1,0,0,0,0,1,1"]
    path.write_text("\n".join([",".join(_telemetry_columns()), *rows]) + "\n")
    t = Telemetry.load(path)  # a zero-width space is a character: two players, both kept
    assert t.table["player"].tolist() == ["p1", "p1\u200b"]


def test_a_million_rows_checked_by_column_not_by_cell(tmp_path):
    from benchmarks.telemetry_scale import columns

    cols = columns(200_000)
    pq.write_table(pa.table(cols), tmp_path / "t.parquet")
    t = Telemetry.load(tmp_path / "t.parquet").table
    assert len(t) == 200_000 and t["player"][-1] == "p0019999"
    assert np.array_equal(t["attempt"], cols["attempt"].to_numpy())
    assert TELEMETRY_ROW[0] == "L1"
