"""Tower, enemy, item and skill definitions: the example loads; bad data names field and value."""

from __future__ import annotations

import json

import pytest

from labkit.mapturn import TowerError, example_tower_path, load_tower, parse_tower

from .helpers import tower_doc


def test_example_tower_loads():
    tower = load_tower(example_tower_path())
    assert tower.name == "example" and set(tower.floors) == {"F1", "F2"}
    assert tower.enemies["skeleton"].act_type == "patrol"
    assert tower.items["focus"].cls == "skillupdate" and tower.items["focus"].is_skill
    assert not tower.enemies["slime"].scheduled and tower.enemies["bat"].scheduled


@pytest.mark.parametrize(
    "mutate, where, value",
    [
        (lambda d: d["enemies"]["idler"].update(timeCost=0.001), "/enemies/idler/timeCost", 0.001),
        (lambda d: d["enemies"]["idler"].update(actType="fly"), "/enemies/idler/actType", "fly"),
        (lambda d: d["enemies"]["idler"].update(hp="x"), "/enemies/idler/hp", "x"),
        (lambda d: d["items"]["focus"].update(timeCost=2), "/items/focus/timeCost", 2.0),
        (lambda d: d["items"]["focus"].update(stackPolicy="x"), "/items/focus/stackPolicy", "x"),
        (lambda d: d["items"]["bomb"].update(cls="gun"), "/items/bomb/cls", "gun"),
        (lambda d: d["legend"].update({"5": {"enemy": "nobody"}}), "/legend/5/enemy", "nobody"),
        (lambda d: d["floors"]["F1"]["map"][0].__setitem__(0, 3), "/floors/F1/map/0/0", 3),
        (lambda d: d["hero"].update(x=50), "/hero", [50, 1]),
    ],
)
def test_bad_definitions_name_pointer_and_value(mutate, where, value):
    doc = tower_doc("###\n#H#\n###")
    mutate(doc)
    with pytest.raises(TowerError) as info:
        parse_tower(doc)
    assert info.value.pointer == where and info.value.value == value


def test_errors_in_a_table_file_name_that_file(tmp_path):
    src = example_tower_path().parent
    for name in ("tower.json", "items.json", "skills.json"):
        (tmp_path / name).write_text((src / name).read_text())
    enemies = json.loads((src / "enemies.json").read_text())
    enemies["enemies"]["bat"]["actType"] = "teleport"
    (tmp_path / "enemies.json").write_text(json.dumps(enemies))
    with pytest.raises(TowerError) as info:
        load_tower(tmp_path / "tower.json")
    assert info.value.file.endswith("enemies.json") and info.value.pointer == "/enemies/bat/actType"
