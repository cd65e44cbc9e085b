"""One loading path per format: each free loader is an alias of its class's method.

``load_tower``, ``load_map``/``save_map``, ``load_balance`` and ``load_telemetry`` must give what
``Tower.load``, ``MapFile.load``/``MapFile.save``, ``Balance.load`` and ``Telemetry.load`` give,
on a good file and on a broken one (the same error class and the same message).
"""

from __future__ import annotations

import json

import pytest

from labkit._data import data_path as shipped
from labkit.encounter import Balance, load_balance
from labkit.hexpuzzle import Telemetry, load_telemetry
from labkit.mapturn import Tower, example_tower_path, load_tower
from labkit.pathfinding.map_file import MapFile, load_map, save_map, shipped_map_path


def _same_error(free, method, path):
    with pytest.raises(Exception) as a:
        free(path)
    with pytest.raises(Exception) as b:
        method(path)
    assert type(a.value) is type(b.value)
    assert str(a.value) == str(b.value)
    assert str(path) in str(a.value)  # the file is named either way


def _broken(tmp_path, source, name, change):
    doc = json.loads(open(source).read())
    change(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_load_tower_is_tower_load(tmp_path):
    assert load_tower(example_tower_path()).to_dict() == Tower.load(example_tower_path()).to_dict()
    bad = _broken(tmp_path, example_tower_path(), "tower.json", lambda d: d.update(version=99))
    _same_error(load_tower, Tower.load, bad)


def test_load_and_save_map_are_mapfile_load_and_save(tmp_path):
    swamp = shipped_map_path("swamp.json")
    a, b = load_map(swamp), MapFile.load(swamp)
    save_map(tmp_path / "free.json", a)
    b.save(tmp_path / "method.json")
    assert (tmp_path / "free.json").read_text() == (tmp_path / "method.json").read_text()
    assert json.loads((tmp_path / "free.json").read_text())["format"]  # a real map document
    bad = _broken(tmp_path, swamp, "bad.json", lambda d: d.update(format="x"))
    _same_error(load_map, MapFile.load, bad)


def test_load_balance_is_balance_load(tmp_path):
    assert load_balance().to_dict() == Balance.load().to_dict()
    source = shipped("balance", "a_edition.json")
    bad = _broken(tmp_path, source, "balance.json", lambda d: d.update(version=99))
    _same_error(load_balance, Balance.load, bad)


def test_load_telemetry_is_telemetry_load_rows(tmp_path):
    path = shipped("telemetry", "sample.csv")
    rows = load_telemetry(path, frame=False)
    assert rows.tolist() == Telemetry.load(path).table.tolist()
    assert load_telemetry(path, frame=True).equals(Telemetry.load(path).to_frame())
    bad = tmp_path / "bad.csv"
    bad.write_text(path.read_text().replace("\n", "\nnot,a,row\n", 1))
    _same_error(lambda p: load_telemetry(p, frame=False), Telemetry.load, bad)
