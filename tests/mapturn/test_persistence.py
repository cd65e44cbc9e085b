"""Save/load (M8): the whole runtime state round-trips; loading resets nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labkit.mapturn import Actions, MapTurn, SaveError, World, example_tower_path, load_tower

from .helpers import game

TOWER = load_tower(example_tower_path())
TOKENS = ["U", "D", "L", "R", "U", "D", "L", "R", "R", "D", "pU", "pL", "[focus]", "[ironWall]",
          "[oath]", "[powerStrike]", "[doubleStrike]", "[fireball]", "[heal]", "~"]  # fmt: skip


def play(engine, tokens):
    act = Actions(engine)
    return [act.run(t)[0] for t in tokens]


@settings(max_examples=200)
@given(tokens=st.lists(st.sampled_from(TOKENS), max_size=24), cut=st.floats(0, 1))
def test_save_load_continue_equals_running_straight_through(tokens, cut):
    straight = MapTurn(World(TOWER))
    results = play(straight, tokens)
    k = int(cut * len(tokens))
    first = MapTurn(World(TOWER))
    before = play(first, tokens[:k])
    doc = json.loads(json.dumps(first.to_dict()))  # through real JSON text
    second = MapTurn.from_dict(doc, TOWER)
    after = play(second, tokens[k:])
    assert before + after == results
    assert second.to_dict() == straight.to_dict()
    assert first.log + second.log == straight.log


def test_save_and_load_files(tmp_path):
    engine, act = game("#####\n#Hs.#\n#...#\n#####")
    act.use_item("focus")
    act.run("D")
    engine.enabled = False
    engine.save(tmp_path / "s.json")
    other, _ = game("#####\n#Hs.#\n#...#\n#####")
    other.restore_file(tmp_path / "s.json")
    assert other.to_dict() == engine.to_dict()
    assert other.enabled is False and other.consume_time(5) == 0  # the switch is persisted


MAP = "/world/floors/F1/map"
MUTATIONS = [
    (lambda d: d.update(version=99), "/version"),
    (lambda d: d.update(format="other"), "/format"),
    (lambda d: d.update(tower="elsewhere"), "/tower"),
    (lambda d: d["mapTurnState"].update(clock=-1), "/mapTurnState/clock"),
    (lambda d: d["mapTurnState"]["enemyActionGauge"].update(F9={}),
     "/mapTurnState/enemyActionGauge/F9"),
    (lambda d: d["skillState"]["activeStatusSkills"].update(x={}),
     "/skillState/activeStatusSkills/x"),
    (lambda d: d["world"]["floors"]["F1"]["map"][0].__setitem__(0, 77777), MAP),
    (lambda d: d["world"]["hero"].update(x=99), "/world/hero"),
]  # fmt: skip


@pytest.mark.parametrize("mutate, where", MUTATIONS)
def test_bad_saves_raise_save_error_and_change_nothing(tmp_path, mutate, where):
    engine, act = game("#####\n#Hs.#\n#...#\n#####")
    act.use_item("focus")
    act.run("D")
    doc = engine.to_dict()
    before = json.dumps(engine.to_dict())
    mutate(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError) as info:
        engine.restore_file(path)
    assert info.value.pointer == where and info.value.file == str(path)
    assert json.dumps(engine.to_dict()) == before


def test_corrupt_file_raises_save_error(tmp_path):
    engine, _ = game("###\n#H#\n###")
    path = tmp_path / "bad.json"
    path.write_text('{"format": "labkit.mapturn.save", "version": 1, ')
    with pytest.raises(SaveError, match="not valid JSON"):
        engine.restore_file(path)


def test_floor_change_resets_map_turn_but_load_does_not():
    engine, _ = game("#####\n#Hi.#\n#####", "#####\n#.i.#\n#####")
    engine.consume_time(4)
    doc = engine.to_dict()
    engine.world.change_floor("F2", 1, 1)
    assert engine.state.map_turn == 0 and engine.state.clock == 4
    engine.restore(doc)
    assert engine.state.map_turn == 4 and engine.world.floor == "F1"
    keep = MapTurn(World(engine.tower), reset_turn_on_floor_change=False)
    keep.consume_time(2)
    keep.world.change_floor("F2", 1, 1)
    assert keep.state.map_turn == 2


def test_statuses_survive_floor_change():
    engine, act = game("#####\n#H..#\n#####", "#####\n#...#\n#####")
    act.use_item("focus")
    engine.world.change_floor("F2", 1, 1)
    assert "focus" in engine.skills.active_status_skills


def test_a_save_cannot_break_battle_skill_exclusivity_or_hold_a_negative_gauge():
    # M3: battle skills of one exclusiveGroup are mutually exclusive, so a save holding two of
    # them (under any keys) is corrupt; M5: a gauge only ever drops while >= timeCost, so >= 0.
    engine, act = game("#####\n#Hs.#\n#...#\n#####")
    act.run("[strike]D")
    before = json.dumps(engine.to_dict())
    bad = [
        (lambda d: d["skillState"]["activeBattleSkills"].update(x="double"),
         "/skillState/activeBattleSkills/x"),
        (lambda d: d["skillState"].update(activeBattleSkills={"other": "strike"}),
         "/skillState/activeBattleSkills/other"),
        (lambda d: d["mapTurnState"]["enemyActionGauge"]["F1"].update({"F1:2:1:slow": -1.0}),
         "/mapTurnState/enemyActionGauge/F1/F1:2:1:slow"),
    ]  # fmt: skip
    for mutate, where in bad:
        doc = json.loads(before)
        mutate(doc)
        with pytest.raises(SaveError) as info:
            engine.restore(doc)
        assert info.value.pointer == where
        assert json.dumps(engine.to_dict()) == before
