"""One file protocol for every document type: to_dict/from_dict, save(path)/load(path).

Each case builds a document object, saves it, loads it back with the classmethod loader and
compares it with the original through its own ``to_dict`` (the JSON-ready form), and checks that
``from_dict(to_dict())`` is the same round trip without a file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from labkit import encounter, hexpuzzle, mapturn
from labkit.pathfinding.mapfile import MapFile, data_path


@dataclass
class Case:
    make: Callable[[], Any]
    load: Callable[[Any], Any]  # path -> object
    from_dict: Callable[[dict], Any]
    to_dict: Callable[[Any], dict] = lambda obj: obj.to_dict()


def _engine() -> Any:
    tower = mapturn.load_tower(mapturn.example_tower_path())
    engine = mapturn.MapTurn(mapturn.World(tower))
    engine.consume_time(3)
    return engine


def _tower() -> Any:
    return mapturn.load_tower(mapturn.example_tower_path())


CASES = {
    "level": Case(
        lambda: hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=7),
        hexpuzzle.Level.load,
        hexpuzzle.Level.from_dict,
    ),
    "trace": Case(
        lambda: encounter.GameSession(encounter.SimulationSettings(seed=4, max_steps=30)).run(),
        encounter.SimulationTrace.load,
        encounter.SimulationTrace.from_dict,
    ),
    "settings": Case(
        lambda: encounter.SimulationSettings(seed=9, npcs=3, difficulty=(1, 2)),
        encounter.SimulationSettings.load,
        encounter.SimulationSettings.from_dict,
    ),
    "map": Case(
        lambda: MapFile.load(data_path("corridors.json")),
        MapFile.load,
        MapFile.from_dict,
    ),
    "save": Case(
        _engine,
        lambda path: mapturn.MapTurn.load(path, _tower()),
        lambda doc: mapturn.MapTurn.from_dict(doc, _tower()),
    ),
}


def _plain(doc: Any) -> Any:
    """The JSON text's view of a document (tuples become lists, enums their values)."""
    return json.loads(json.dumps(doc))


@pytest.mark.parametrize("kind", sorted(CASES))
def test_save_then_load_gives_the_same_document(kind: str, tmp_path) -> None:
    case = CASES[kind]
    obj = case.make()
    path = tmp_path / f"{kind}.json"
    obj.save(path)
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    back = case.load(path)
    assert type(back) is type(obj)
    assert _plain(case.to_dict(back)) == _plain(case.to_dict(obj))
    assert {k: v for k, v in on_disk.items() if k not in ("format", "version")} == {
        k: v for k, v in _plain(case.to_dict(obj)).items() if k not in ("format", "version")
    }
    again = case.from_dict(_plain(case.to_dict(obj)))
    assert _plain(case.to_dict(again)) == _plain(case.to_dict(obj))


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_failed_save_leaves_the_old_file(kind: str, tmp_path, monkeypatch) -> None:
    import labkit.io as lio

    case = CASES[kind]
    obj = case.make()
    path = tmp_path / f"{kind}.json"
    obj.save(path)
    before = path.read_bytes()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(lio.os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        obj.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{kind}.json"]


def test_loaders_are_classmethods_and_writers_methods() -> None:
    for cls in (
        hexpuzzle.Level,
        encounter.SimulationTrace,
        encounter.SimulationSettings,
        encounter.Balance,
        MapFile,
        mapturn.Tower,
    ):
        assert isinstance(cls.__dict__["load"], classmethod), cls
        assert isinstance(cls.__dict__["from_dict"], classmethod), cls
    for cls in (hexpuzzle.Level, encounter.SimulationTrace, encounter.SimulationSettings, MapFile):
        assert callable(cls.__dict__["save"]) and callable(cls.__dict__["to_dict"]), cls


def test_read_only_loaders_build_the_same_objects() -> None:
    balance = encounter.Balance.load()
    assert balance.edition == encounter.default_balance().edition
    assert np.array_equal(balance.hit_table, encounter.default_balance().hit_table)
    tower = mapturn.Tower.load(mapturn.example_tower_path())
    assert sorted(tower.floors) == sorted(_tower().floors)


def test_older_names_still_answer() -> None:
    lvl = CASES["level"].make()
    assert isinstance(lvl.to_json(), str)  # to_json is text: the exact text save writes
    assert json.loads(lvl.to_json()) == _plain(lvl.to_dict())
    d = hexpuzzle.score(lvl)
    assert d.as_dict() == d.to_dict()
