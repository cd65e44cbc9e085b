"""One file protocol for every document type: to_dict/from_dict, save(path)/load(path).

Each case builds a document object, saves it, loads it back with the classmethod loader and
compares it with the original through its own ``to_dict`` (the JSON-ready form), checks the
file on disk with an independent reader (``json``, ``pyarrow``), and checks that
``from_dict(to_dict())`` is the same round trip without a file. The shipped data files are
the fixed points: loading and saving one gives the same document again (the same bytes where
the writer made the file), so a field a writer forgets fails here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from labkit import encounter, hexpuzzle, mapturn
from labkit._data import data_path as shipped
from labkit.pathfinding.map_file import MapFile, shipped_map_path


@dataclass
class Case:
    make: Callable[[], Any]
    load: Callable[[Any], Any]  # path -> object
    from_dict: Callable[[dict], Any]
    suffix: str = ".json"
    to_dict: Callable[[Any], dict] = lambda obj: obj.to_dict()


def _engine() -> Any:
    tower = mapturn.load_tower(mapturn.example_tower_path())
    engine = mapturn.MapTurn(mapturn.World(tower))
    engine.consume_time(3)
    return engine


def _tower() -> Any:
    return mapturn.load_tower(mapturn.example_tower_path())


def _campaign() -> hexpuzzle.Campaign:
    levels = [
        hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], id="c-1"),
        hexpuzzle.Level.hexagon(2, tiles=[("a", 0, 0, 2)], id="c-2", move_limit=4),
    ]
    return hexpuzzle.Campaign(levels, seed=11, generator={"by": "hand"}, slots={"c-2": 7})


def _calibration() -> hexpuzzle.Calibration:
    from labkit.hexpuzzle.difficulty.fit import example_difficulties

    levels = example_difficulties(12, rng=3)
    telemetry = hexpuzzle.telemetry_from_weights(levels, {"rotation": 60}, 40, rng=4)
    return hexpuzzle.calibrate(telemetry, levels, n_boot=10, rng=5)


def _telemetry() -> hexpuzzle.Telemetry:
    return hexpuzzle.Telemetry.load(shipped("telemetry", "sample.csv"))


CASES = {
    "level": Case(
        lambda: hexpuzzle.Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=7),
        hexpuzzle.Level.load,
        hexpuzzle.Level.from_dict,
    ),
    "campaign": Case(_campaign, hexpuzzle.Campaign.load, hexpuzzle.Campaign.from_dict),
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
    "balance": Case(
        lambda: encounter.default_balance().with_weapon("revolver", damage=4).replace(max_rounds=9),
        encounter.Balance.load,
        encounter.Balance.from_dict,
    ),
    "map": Case(
        lambda: MapFile.load(shipped_map_path("corridors.json")),
        MapFile.load,
        MapFile.from_dict,
    ),
    "tower": Case(_tower, mapturn.Tower.load, mapturn.Tower.from_dict),
    "save": Case(
        _engine,
        lambda path: mapturn.MapTurn.load(path, _tower()),
        lambda doc: mapturn.MapTurn.from_dict(doc, _tower()),
    ),
    "skill-model": Case(
        hexpuzzle.shipped_skill_model, hexpuzzle.SkillModel.load, hexpuzzle.SkillModel.from_dict
    ),
    "calibration": Case(_calibration, hexpuzzle.Calibration.load, hexpuzzle.Calibration.from_dict),
    "telemetry-csv": Case(
        _telemetry,
        hexpuzzle.Telemetry.load,
        lambda doc: hexpuzzle.Telemetry.from_dict(doc, comments=_telemetry().comments),
        suffix=".csv",
    ),
    "telemetry-parquet": Case(
        _telemetry,
        hexpuzzle.Telemetry.load,
        lambda doc: hexpuzzle.Telemetry.from_dict(doc, comments=_telemetry().comments),
        suffix=".parquet",
    ),
}

#: Every document class: its loader and from_dict are classmethods, save and to_dict methods.
DOCUMENT_CLASSES = (
    hexpuzzle.Level,
    hexpuzzle.Campaign,
    hexpuzzle.Telemetry,
    hexpuzzle.Calibration,
    hexpuzzle.SkillModel,
    encounter.SimulationTrace,
    encounter.SimulationSettings,
    encounter.Balance,
    MapFile,
    mapturn.Tower,
    mapturn.MapTurn,
)


def _plain(doc: Any) -> Any:
    """The JSON text's view of a document (tuples become lists, enums their values)."""
    return json.loads(json.dumps(doc))


def _on_disk(path: Path) -> dict:
    """The file read back without labkit: JSON by ``json``, tables as their column dict."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pydict()
    if path.suffix == ".csv":
        import csv

        rows = [r for r in csv.reader(path.read_text(encoding="utf-8").splitlines())]
        body = [r for r in rows if r and not r[0].startswith("#")]
        return {name: [row[i] for row in body[1:]] for i, name in enumerate(body[0])}
    return json.loads(path.read_text(encoding="utf-8"))


def _without_header(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("format", "version")}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_save_then_load_gives_the_same_document(kind: str, tmp_path) -> None:
    case = CASES[kind]
    obj = case.make()
    path = tmp_path / f"{kind}{case.suffix}"
    obj.save(path)
    back = case.load(path)
    assert type(back) is type(obj)
    assert _plain(case.to_dict(back)) == _plain(case.to_dict(obj))
    on_disk = _on_disk(path)
    if case.suffix == ".csv":  # CSV text: every cell as the writer formats it
        assert on_disk["seconds"][:2] == [f"{v:.2f}" for v in obj.to_dict()["seconds"][:2]]
        assert on_disk["player"] == obj.to_dict()["player"]
    else:
        assert _without_header(on_disk) == _without_header(_plain(case.to_dict(obj)))
    again = case.from_dict(_plain(case.to_dict(obj)))
    assert type(again) is type(obj)
    assert _plain(case.to_dict(again)) == _plain(case.to_dict(obj))


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_failed_save_leaves_the_old_file(kind: str, tmp_path, monkeypatch) -> None:
    import labkit.io as lio

    case = CASES[kind]
    obj = case.make()
    path = tmp_path / f"{kind}{case.suffix}"
    obj.save(path)
    before = path.read_bytes()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(lio.os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        obj.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("kind", sorted(CASES))
def test_to_json_only_where_it_is_the_saved_text(kind: str, tmp_path) -> None:
    case = CASES[kind]
    obj = case.make()
    if not hasattr(obj, "to_json"):
        return
    path = tmp_path / f"{kind}{case.suffix}"
    obj.save(path)
    text = obj.to_json()
    assert isinstance(text, str) and text == path.read_text(encoding="utf-8")


def test_loaders_are_classmethods_and_writers_methods() -> None:
    for cls in DOCUMENT_CLASSES:
        assert isinstance(cls.__dict__["load"], classmethod), cls
        assert isinstance(cls.__dict__["from_dict"], classmethod), cls
        for name in ("save", "to_dict"):
            method = cls.__dict__[name]
            assert callable(method) and not isinstance(method, (classmethod, staticmethod)), cls


def test_every_document_type_has_a_case() -> None:
    assert {type(case.make()) for case in CASES.values()} == set(DOCUMENT_CLASSES)


@pytest.mark.parametrize(
    ("load", "path"),
    [
        (encounter.Balance.load, shipped("balance", "a_edition.json")),
        (hexpuzzle.SkillModel.load, shipped("telemetry", "skill_model.json")),
    ],
    ids=["balance", "skill-model"],
)
def test_shipped_json_documents_load_and_give_back_the_same_document(load, path) -> None:
    assert _plain(load(path).to_dict()) == json.loads(Path(path).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("load", "path"),
    [
        (hexpuzzle.Campaign.load, shipped("levels", "campaign.json")),
        (hexpuzzle.Telemetry.load, shipped("telemetry", "sample.csv")),
        (hexpuzzle.SkillModel.load, shipped("telemetry", "skill_model.json")),
    ],
    ids=["campaign", "telemetry", "skill-model"],
)
def test_shipped_files_written_by_labkit_save_to_the_same_bytes(load, path, tmp_path) -> None:
    out = tmp_path / Path(path).name
    load(path).save(out)
    assert out.read_bytes() == Path(path).read_bytes()


def test_a_saved_tower_holds_its_tables_and_rebuilds_the_same_definitions(tmp_path) -> None:
    tower = _tower()
    tower.save(tmp_path / "tower.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tower.json"]  # tables inline
    back = mapturn.Tower.load(tmp_path / "tower.json")
    assert back.enemies == tower.enemies and back.items == tower.items
    assert back.enemies["skeleton"].act_args == {"waypoints": [[5, 5], [5, 7], [1, 7]]}
    assert back.terrain == tower.terrain and back.legend == tower.legend
    assert all(np.array_equal(back.floors[f], tower.floors[f]) for f in tower.floors)


def test_campaign_keeps_slots_seed_and_generator_and_recomputes_scores(tmp_path) -> None:
    camp = _campaign()
    doc = camp.to_dict()
    assert [e["slot"] for e in doc["levels"]] == [0, 7]  # c-1 by place, c-2 as named
    doc["levels"][0]["score"]["total"] = -5  # a derived value is never trusted
    again = hexpuzzle.Campaign.from_dict(doc)
    assert again.seed == 11 and again.generator == {"by": "hand"} and again.slots["c-2"] == 7
    assert again.to_dict()["levels"][0]["score"]["total"] == hexpuzzle.score(camp[0]).total


def test_campaign_errors_name_the_pointer() -> None:
    doc = _campaign().to_dict()
    doc["levels"][1]["level"]["moveLimit"] = 0
    with pytest.raises(hexpuzzle.LevelError, match=r"/levels/1/level/moveLimit.*\(got 0\)"):
        hexpuzzle.Campaign.from_dict(doc)
    doc = _campaign().to_dict()
    doc["levels"][0]["slot"] = -1
    with pytest.raises(hexpuzzle.LevelError, match=r"/levels/0/slot"):
        hexpuzzle.Campaign.from_dict(doc)


def test_telemetry_column_dict_errors_name_column_and_row() -> None:
    doc = _telemetry().to_dict()
    doc["hints"][4] = -1
    with pytest.raises(hexpuzzle.TelemetryError, match=r"row 5, column 'hints'"):
        hexpuzzle.Telemetry.from_dict(doc)
    doc = _telemetry().to_dict()
    doc["won"] = doc["won"][:-1]
    with pytest.raises(hexpuzzle.TelemetryError, match=r"column 'won'"):
        hexpuzzle.Telemetry.from_dict(doc)


def test_telemetry_parquet_keeps_exact_seconds(tmp_path) -> None:
    tel = hexpuzzle.Telemetry([("L1", "p1", 1, 1, 0, 0, 2, 0, 31.123456, 1)], comments=["x"])
    tel.save(tmp_path / "t.parquet")
    back = hexpuzzle.Telemetry.load(tmp_path / "t.parquet")
    assert back.to_dict()["seconds"] == [31.123456] and back.comments == ("x",)
    tel.save(tmp_path / "t.csv")  # CSV keeps 0.01 s, as its format says
    assert hexpuzzle.Telemetry.load(tmp_path / "t.csv").to_dict()["seconds"] == [31.12]


def test_calibration_file_errors_name_the_pointer() -> None:
    doc = _plain(_calibration().to_dict())
    doc["data"]["observed"]["players"][2] = -3
    with pytest.raises(hexpuzzle.CalibrationError, match=r"/data/observed/players/2"):
        hexpuzzle.Calibration.from_dict(doc)
    doc["data"]["observed"]["players"][2] = 3
    doc["data"]["strengths"][1][0] = 10**30  # beyond int64 and the format's limit
    with pytest.raises(hexpuzzle.CalibrationError, match=r"/data/strengths/1/0"):
        hexpuzzle.Calibration.from_dict(doc)
    old = {k: v for k, v in doc.items() if k != "data"} | {"version": 1}
    with pytest.raises(hexpuzzle.CalibrationError, match=r"/data: a version-1"):
        hexpuzzle.Calibration.from_dict(old)


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
    assert hexpuzzle.Level.from_json(lvl.to_json()) == lvl


def test_balance_notes_are_free_form_and_written_back() -> None:
    doc = encounter.default_balance().to_dict() | {"notes": ["line one", {"by": "x"}]}
    assert encounter.Balance.from_dict(doc).to_dict()["notes"] == ["line one", {"by": "x"}]
    del doc["notes"]
    assert "notes" not in encounter.Balance.from_dict(doc).to_dict()


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_loader_refuses_a_fifo_and_a_folder_with_its_own_error(kind, tmp_path) -> None:
    import os

    from labkit import LabkitError

    case = CASES[kind]
    fifo = tmp_path / f"pipe{case.suffix}"
    os.mkfifo(fifo)
    with pytest.raises(LabkitError, match=r"not a regular file \(a FIFO\)"):
        case.load(fifo)
    folder = tmp_path / f"folder{case.suffix}"
    folder.mkdir()
    with pytest.raises(LabkitError, match="a directory"):
        case.load(folder)
