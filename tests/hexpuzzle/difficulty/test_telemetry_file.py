"""The Telemetry document: compact rows once loaded, the structured table built on first use."""

from __future__ import annotations

import numpy as np

from labkit._data import data_path
from labkit.hexpuzzle.difficulty.telemetry import load_telemetry
from labkit.hexpuzzle.difficulty.telemetry_file import Telemetry


def test_loaded_rows_stay_compact_until_the_table_is_asked_for():
    tel = Telemetry.load(data_path("telemetry", "sample.csv"))
    table = load_telemetry(data_path("telemetry", "sample.csv"), frame=False)
    assert tel._table is None  # nothing built yet
    assert len(tel) == len(table)
    assert repr(tel) == repr(Telemetry(table))  # counted from the codes
    cols = tel.columns()
    assert cols.player.dtype == np.int32 and tel._table is None
    assert tel.table.tolist() == table.tolist()
    assert tel.table is tel.table  # built once, then it is the document's data
    assert tel._columns is None


def test_changes_to_the_table_are_the_documents():
    tel = Telemetry.load(data_path("telemetry", "sample.csv"))
    tel.table["collisions"][0] = 99
    assert tel.to_dict()["collisions"][0] == 99
    assert int(tel.columns().numbers["collisions"][0]) == 99


def test_compact_save_equals_table_save(tmp_path):
    tel = Telemetry.load(data_path("telemetry", "sample.csv"))
    tel.save(tmp_path / "compact.parquet")
    assert tel._table is None  # saved without building the table
    again = Telemetry.load(tmp_path / "compact.parquet")
    built = Telemetry(tel.table, comments=tel.comments)
    built.save(tmp_path / "table.parquet")
    assert again == tel == built == Telemetry.load(tmp_path / "table.parquet")
    import pyarrow.parquet as pq

    a, b = pq.read_table(tmp_path / "compact.parquet"), pq.read_table(tmp_path / "table.parquet")
    assert a.schema == b.schema and a.equals(b)


def test_a_document_of_a_document_shares_its_rows():
    tel = Telemetry.load(data_path("telemetry", "sample.csv"))
    copy = Telemetry(tel, comments=["again"])
    assert copy.columns() is tel.columns() and copy.comments == ("again",)
    assert Telemetry.from_dict(tel.to_dict()) == Telemetry(tel.table)


def test_dict_from_the_codes_equals_the_tables_and_builds_nothing():
    tel = Telemetry.load(data_path("telemetry", "sample.csv"))
    got = tel.to_dict()
    assert tel._table is None
    want = Telemetry(tel.table).to_dict()
    assert got == want
    assert [type(v[0]) for v in got.values()] == [type(v[0]) for v in want.values()]


def test_pickles_of_both_forms_and_of_the_old_attribute():
    import pickle

    tel = Telemetry.load(data_path("telemetry", "sample.csv"), max_rows=10**6)
    assert pickle.loads(pickle.dumps(tel)) == tel
    built = Telemetry(tel.table, comments=["c"])
    assert pickle.loads(pickle.dumps(built)) == built
    old = Telemetry.__new__(Telemetry)
    old.__setstate__({"table": built.table, "comments": ("c",)})  # as pickled before
    assert old == built and old.table is built.table
