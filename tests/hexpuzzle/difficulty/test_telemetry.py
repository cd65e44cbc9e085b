"""Telemetry CSV: round trip, every validation rule naming line, column and value."""

from __future__ import annotations

import numpy as np
import pytest

from labkit.hexpuzzle.difficulty.telemetry import (
    COLUMNS,
    TelemetryError,
    as_table,
    load_telemetry,
    make_table,
    parse_telemetry,
    save_telemetry,
    to_csv,
)

HEADER = ",".join(COLUMNS)
GOOD = [
    "L1,p1,1,1,0,0,2,0,31.5,1",
    "L1,p2,1,0,3,1,4,2,80,0",
    "L1,p2,2,0,1,0,3,1,50.25,1",
]


def text(*rows: str, header: str = HEADER) -> str:
    return "\n".join([header, *rows]) + "\n"


def test_round_trip_through_file(tmp_path):
    table = parse_telemetry("# made by hand\n" + text(*GOOD))
    assert table.dtype.names == tuple(COLUMNS)
    assert table["seconds"].tolist() == [31.5, 80.0, 50.25]
    assert table["first_try"].tolist() == [True, False, False]
    path = tmp_path / "t.csv"
    save_telemetry(path, table, comments=["seed 1"])
    assert path.read_text().startswith("# seed 1\n" + HEADER)
    again = load_telemetry(path, frame=False)
    assert again.tolist() == table.tolist()
    assert as_table(path).tolist() == table.tolist()


def test_columns_in_any_order_and_extra_columns_ignored():
    names = list(COLUMNS)[::-1] + ["device"]
    row = dict(zip(COLUMNS, GOOD[0].split(",")))
    line = ",".join([row[n] for n in names[:-1]] + ["phone"])
    table = parse_telemetry(text(line, header=",".join(names)))
    assert table["level"][0] == "L1" and table["rotations"][0] == 2


@pytest.mark.parametrize(
    "row, line_col, value",
    [
        ("L1,p3,0,0,0,0,0,0,1,0", "line 2, column 'attempt'", "'0'"),
        ("L1,p3,1,0,x,0,0,0,1,0", "line 2, column 'collisions'", "'x'"),
        ("L1,p3,1,0,0,0,0,0,-2,0", "line 2, column 'seconds'", "'-2'"),
        ("L1,p3,1,0,0,0,0,0,nan,0", "line 2, column 'seconds'", "'nan'"),
        ("L1,p3,1,0,0,0,0,0,1,2", "line 2, column 'won'", "'2'"),
        (",p3,1,0,0,0,0,0,1,0", "line 2, column 'level'", "''"),
        ("L1,p\udcff,1,0,0,0,0,0,1,0", "line 2, column 'player'", "'p\\udcff'"),
        ("L1,p3,1,0,0,0,0,0,1,1", "line 2, column 'first_try'", "0"),
        ("L1,p3,2,1,0,0,0,0,1,1", "line 2, column 'first_try'", "1"),
    ],
)
def test_bad_cells_name_line_column_and_value(row, line_col, value):
    with pytest.raises(TelemetryError) as err:
        parse_telemetry(text(row), file="t.csv")
    assert str(err.value).startswith(f"t.csv: {line_col}:")
    assert str(err.value).endswith(f"(got {value})")


def test_structure_errors():
    with pytest.raises(TelemetryError, match="line 3, column 'attempt': duplicate.*line 2"):
        parse_telemetry(text(GOOD[0], GOOD[0]))
    with pytest.raises(TelemetryError, match="line 1: header has no column 'won'"):
        parse_telemetry(text(header=HEADER.replace(",won", "")))
    with pytest.raises(TelemetryError, match="line 2: expected 10 values"):
        parse_telemetry(text("L1,p1,1"))
    with pytest.raises(TelemetryError, match="no header"):
        parse_telemetry("# only a comment\n")


def test_missing_file_is_a_telemetry_error(tmp_path):
    with pytest.raises(TelemetryError, match="file not found"):
        load_telemetry(tmp_path / "nope.csv", frame=False)


def test_make_table_and_as_table_accept_rows_and_dicts():
    rows = [tuple(r.split(",")) for r in GOOD]
    table = make_table(rows)
    dicts = [dict(zip(COLUMNS, r)) for r in table.tolist()]
    assert as_table(dicts).tolist() == table.tolist()
    assert as_table(table).tolist() == table.tolist()  # checked again, like a file (issue 33)
    assert parse_telemetry(to_csv(table)).tolist() == table.tolist()
    with pytest.raises(TelemetryError, match="column 'player'"):
        as_table(np.zeros(2, dtype=[("level", "U2"), ("x", "i8")]))


def test_frame_path(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(text(*GOOD))
    try:
        import pandas  # noqa: F401
    except ImportError:
        assert isinstance(load_telemetry(path), np.ndarray)  # auto: numpy without pandas
        with pytest.raises(ImportError):
            load_telemetry(path, frame=True)
    else:
        frame = load_telemetry(path)
        assert list(frame.columns) == list(COLUMNS)
        assert as_table(frame).tolist() == parse_telemetry(text(*GOOD)).tolist()
