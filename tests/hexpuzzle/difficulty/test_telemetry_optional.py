"""Telemetry of any level-based game (issue 49): four required columns, the rest optional.

``level, player, attempt, won`` are all a studio's export needs; the hex puzzle's columns
(``first_try``, ``collisions``, ``hints``, ``rotations``, ``undos``) and ``seconds`` are
checked where they are present, and absent from the loaded table where they are not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from labkit.hexpuzzle.difficulty.telemetry import (
    REQUIRED,
    TelemetryError,
    as_table,
    load_telemetry,
    parse_telemetry,
)
from labkit.hexpuzzle.difficulty.telemetry_file import Telemetry

FOUR = "level,player,attempt,won\nL1,p1,1,0\nL1,p1,2,1\nL2,p1,1,1\nL1,p2,1,1\n"


def test_the_required_columns_are_four():
    assert REQUIRED == ("level", "player", "attempt", "won")


def test_a_four_column_csv_loads_with_exactly_its_columns(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text(FOUR)
    table = load_telemetry(path, frame=False)
    assert table.dtype.names == ("level", "player", "attempt", "won")
    assert table["attempt"].tolist() == [1, 2, 1, 1]
    assert table["won"].tolist() == [False, True, True, True]
    assert parse_telemetry(FOUR).dtype.names == REQUIRED


def test_seconds_and_unknown_columns_ride_along(tmp_path):
    text = "level,player,attempt,won,seconds,boss\nL1,p1,1,1,12.5,x\n"
    table = parse_telemetry(text)
    assert table.dtype.names == ("level", "player", "attempt", "seconds", "won")
    assert table["seconds"].tolist() == [12.5]


def test_four_columns_from_parquet_file_and_partitioned_folder(tmp_path):
    data = {"level": ["L1", "L1", "L2"], "player": ["p1", "p2", "p1"], "attempt": [1, 1, 1],
            "won": [True, False, True]}  # fmt: skip
    pq.write_table(pa.table(data), tmp_path / "t.parquet")
    table = load_telemetry(tmp_path / "t.parquet", frame=False)
    assert table.dtype.names == REQUIRED and table["player"].tolist() == ["p1", "p2", "p1"]
    folder = tmp_path / "set"
    for lv in ("L1", "L2"):
        part = {k: [v for v, lvl in zip(vs, data["level"]) if lvl == lv]
                for k, vs in data.items() if k != "level"}  # fmt: skip
        (folder / f"level={lv}").mkdir(parents=True)
        pq.write_table(pa.table(part), folder / f"level={lv}" / "part-0.parquet")
    got = load_telemetry(folder, frame=False)
    assert sorted(zip(got["level"].tolist(), got["player"].tolist())) == [
        ("L1", "p1"), ("L1", "p2"), ("L2", "p1")]  # fmt: skip
    assert set(got.dtype.names) == set(REQUIRED)


def test_a_required_column_missing_is_named(tmp_path):
    with pytest.raises(TelemetryError, match="won"):
        parse_telemetry("level,player,attempt\nL1,p1,1\n")
    pq.write_table(pa.table({"level": ["L1"], "player": ["p1"], "won": [True]}),
                   tmp_path / "t.parquet")  # fmt: skip
    with pytest.raises(TelemetryError, match="attempt"):
        load_telemetry(tmp_path / "t.parquet")


def test_hex_columns_are_checked_where_present():
    with pytest.raises(TelemetryError, match=r"line 2, column 'hints': must be an integer"):
        parse_telemetry("level,player,attempt,won,hints\nL1,p1,1,1,-1\n")
    with pytest.raises(TelemetryError, match=r"line 2, column 'first_try'"):
        parse_telemetry("level,player,attempt,won,first_try\nL1,p1,1,1,0\n")
    ok = parse_telemetry("level,player,attempt,won,undos\nL1,p1,1,1,3\n")
    assert ok.dtype.names == ("level", "player", "attempt", "undos", "won")


def test_frames_arrays_and_column_dicts_with_four_columns():
    frame = pd.DataFrame({"level": ["L1", "L2"], "player": ["p1", "p1"], "attempt": [1, 1],
                          "won": [True, False]})  # fmt: skip
    table = as_table(frame)
    assert table.dtype.names == REQUIRED and table["won"].tolist() == [True, False]
    assert as_table(table).dtype.names == REQUIRED
    with pytest.raises(TelemetryError, match=r"row 2, column 'rotations'"):
        as_table(frame.assign(rotations=[0, -2]))
    tel = Telemetry.from_dict({k: frame[k].tolist() for k in frame})
    assert tel.table.dtype.names == REQUIRED and len(tel) == 2


def test_a_four_column_telemetry_round_trips(tmp_path):
    (tmp_path / "e.csv").write_text(FOUR)
    tel = Telemetry.load(tmp_path / "e.csv")
    for name in ("again.parquet", "again.csv"):
        tel.save(tmp_path / name)
        back = Telemetry.load(tmp_path / name)
        assert back.table.dtype.names == REQUIRED
        assert back.to_dict() == tel.to_dict()


def test_the_skill_model_fits_four_columns():
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model

    gen = np.random.default_rng(3)
    rows = []
    for p in range(120):
        theta = gen.normal()
        for k, beta in enumerate((-1.0, 0.0, 1.0)):
            won = gen.random() < 1 / (1 + np.exp(beta - theta))
            rows.append((f"L{k}", f"p{p}", 1, won))
    frame = pd.DataFrame(rows, columns=list(REQUIRED))
    model = fit_skill_model(frame, ["L0", "L1", "L2"], features=False)
    assert np.all(np.diff(model.difficulty) > 0)


def test_the_observed_index_names_the_hex_column_it_lacks():
    from labkit.hexpuzzle.difficulty.observed import Rows

    with pytest.raises(TelemetryError, match="column 'collisions'"):
        Rows(parse_telemetry(FOUR), {"L1": 4, "L2": 4}, 60.0)
