"""Traces (SPEC E6): formats 2/3, validation, byte-identical files, replay and playback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from labkit.encounter.records.playback import playback
from labkit.encounter.records.replay import replay
from labkit.encounter.records.trace import SimulationTrace, TraceError
from labkit.encounter.sim.runner import simulate
from labkit.encounter.sim.settings import SimulationSettings
from labkit.rng import entropy

SETTINGS = [
    SimulationSettings(
        seed=s, map_seed=m, npcs=n, monsters=k, width=w, height=h, difficulty=d, snapshots=snap
    )  # fmt: skip
    for s, m, n, k, w, h, d, snap in [
        (0, 0, 3, 1, 4, 4, (1, 1), True),
        (5, 2, 2, 2, 5, 4, (3, 0), False),
        (11, 7, 4, 2, 6, 6, (0, 3), True),
    ]
]


@pytest.fixture(scope="module")
def traces():
    return [simulate(s) for s in SETTINGS]


def test_format_3_records_version_entropy_map_and_steps(traces):
    t = traces[0]
    doc = t.to_dict()
    assert doc["format"] == "labkit.encounter.trace" and doc["version"] == 3
    assert doc["labkit"] and doc["entropy"] == {"map": entropy(0), "process": entropy(0)}
    assert doc["map"]["width"] == 4 and set(doc["map"]["spawns"]) == set(t.settings.actor_ids)
    assert all("step" in e for e in doc["events"])
    steps = [e["step"] for e in doc["events"]]
    assert steps == sorted(steps) and steps[-1] == t.steps
    assert len(doc["snapshots"]) == t.steps
    decisions = t.select("decision")
    assert decisions and all(e["state"]["observation"]["actor"] == e["actor"] for e in decisions)


def test_format_2_has_neither_map_nor_steps():
    t = simulate(SETTINGS[1], version=2)
    doc = t.to_dict()
    assert doc["version"] == 2 and "map" not in doc and "snapshots" not in doc
    assert all("step" not in e for e in doc["events"])
    assert replay(t) is None
    with pytest.raises(TraceError, match="format-3"):
        next(playback(t))


def test_save_load_round_trip(traces, tmp_path):
    for i, t in enumerate(traces):
        path = tmp_path / f"t{i}.json"
        t.save(path)
        back = SimulationTrace.load(path)
        assert back == t
        assert path.read_text(encoding="utf-8") == t.to_json()


def _in_subprocess(settings: SimulationSettings, path) -> None:
    code = (
        "import sys, json\n"
        "from labkit.encounter.sim.settings import SimulationSettings\n"
        "from labkit.encounter.sim.runner import simulate\n"
        "s = SimulationSettings.from_dict(json.loads(sys.argv[1]))\n"
        "simulate(s).save(sys.argv[2])\n"
    )
    subprocess.run([sys.executable, "-c", code, json.dumps(settings.to_dict()), str(path)],
                   check=True, env={"PYTHONHASHSEED": "random", "PATH": ""})  # fmt: skip


def test_same_seeds_give_byte_identical_files_in_two_processes(tmp_path):
    s = SETTINGS[2]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    _in_subprocess(s, a)
    _in_subprocess(s, b)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_text(encoding="utf-8") == simulate(s).to_json()


def test_trace_renders_in_a_notebook(traces):
    html = traces[0]._repr_html_()
    assert "SimulationTrace" in html and "<svg" in html and traces[0].end_reason in html


def bad(doc, path, value):
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "pointer"),
    [
        (("version",), 7, "/version"),
        (("format",), "x", "/format"),
        (("settings", "npcs"), 0, "/settings/npcs"),
        (("settings", "difficulty"), [1], "/settings/difficulty"),
        (("events", 3, "category"), "teleport", "/events/3/category"),
        (("events", 3, "sequence"), 9, "/events/3/sequence"),
        (("events", 3, "actor"), "npc-99", "/events/3/actor"),
        (("events", 5, "step"), 10**6, "/events/5/step"),
        (("map", "kinds", 1, 2), "lava", "/map/kinds/1/2"),
        (("map", "spawns", "npc-0"), [9, 9], "/map/spawns/npc-0"),
        (("end_reason",), "DRAW", "/end_reason"),
        (("winner",), "nobody", "/winner"),
        (("snapshots",), [], "/snapshots"),
    ],
)
def test_load_errors_name_the_pointer_and_value(traces, tmp_path, path, value, pointer):
    doc = bad(copy.deepcopy(json.loads(traces[0].to_json())), path, value)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(TraceError) as info:
        SimulationTrace.load(p)
    assert info.value.pointer == pointer and str(p) in str(info.value)


def test_step_limit_trace_has_no_winner_and_validates():
    t = simulate(SimulationSettings(seed=1, max_steps=5))
    assert t.end_reason == "step_limit" and t.winner is None
    doc = t.to_dict()
    doc["winner"] = "npc"
    with pytest.raises(TraceError, match="only a victory"):
        SimulationTrace.from_dict(doc)
