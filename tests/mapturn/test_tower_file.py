"""Writing a tower back to one document (``tower_to_dict``): the shipped example's tables inline,
skills apart from items, the reader's defaults written out, and a document that reads back to
the same tower. Expected values are read from the shipped JSON files, not from the writer."""

from __future__ import annotations

import json

from labkit.mapturn.defs import Tower, example_tower_path, parse_tower
from labkit.mapturn.tower_file import tower_to_dict

FOLDER = example_tower_path().parent


def _file(name: str) -> dict:
    return json.loads((FOLDER / name).read_text(encoding="utf-8"))


def _doc() -> dict:
    return tower_to_dict(Tower.load(example_tower_path()), "labkit.mapturn.tower", 1)


def test_the_header_and_the_tables_named_as_files_are_written_inline():
    doc, raw = _doc(), _file("tower.json")
    assert (doc["format"], doc["version"], doc["name"]) == ("labkit.mapturn.tower", 1, "example")
    assert raw["enemies"] == "enemies.json"  # a file name in the shipped tower ...
    assert sorted(doc["enemies"]) == sorted(_file("enemies.json")["enemies"])  # ... inline here
    assert sorted(doc["items"]) == sorted(_file("items.json")["items"])
    assert sorted(doc["skills"]) == sorted(_file("skills.json")["skills"])
    assert doc["hero"] == raw["hero"] and doc["floors"] == raw["floors"]
    assert doc["legend"] == raw["legend"]


def test_every_field_of_the_shipped_tables_is_written_unchanged():
    doc = _doc()
    for table, name in (("enemies", "enemies.json"), ("items", "items.json"),
                        ("skills", "skills.json")):  # fmt: skip
        for ident, fields in _file(name)[table].items():
            for key, value in fields.items():
                assert doc[table][ident][key] == value, (table, ident, key)


def test_defaults_are_written_out_and_empty_terrain_only_when_redefined():
    doc = _doc()
    # the shipped terrain gives only what differs from passable=true, stairs=0
    assert doc["terrain"] == {
        "wall": {"passable": False, "stairs": 0},
        "upstairs": {"passable": True, "stairs": 1},
        "downstairs": {"passable": True, "stairs": -1},
    }
    assert doc["enemies"]["slime"] == {"name": "Green slime", "hp": 30, "atk": 15, "def": 2,
                                       "timeCost": 0, "actType": "idle"}  # fmt: skip
    assert "actArgs" not in doc["enemies"]["bat"]  # no arguments: the key is left out


def test_the_document_reads_back_to_a_tower_that_writes_the_same_document():
    doc = _doc()
    again = tower_to_dict(parse_tower(json.loads(json.dumps(doc))), "labkit.mapturn.tower", 1)
    assert again == doc
    doc["enemies"]["skeleton"]["actArgs"]["waypoints"].append([9, 9])  # a copy, not the tower's
    assert _doc()["enemies"]["skeleton"]["actArgs"]["waypoints"] == [[5, 5], [5, 7], [1, 7]]
