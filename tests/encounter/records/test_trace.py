"""Traces (SPEC E6): formats 2/3, validation, byte-identical files, replay and playback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from labkit.encounter.draw_sim import frame_svg
from labkit.encounter.records.playback import playback
from labkit.encounter.records.replay import Divergence, replay
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


def test_replay_of_every_test_trace_reports_no_divergence(traces):
    for t in traces:
        assert replay(t) is None


def test_hand_edited_trace_reports_the_right_index(traces, tmp_path):
    t = traces[0]
    doc = json.loads(t.to_json())
    k = next(i for i, e in enumerate(doc["events"]) if e["category"] == "move" and i > 20)
    doc["events"][k]["state"]["to"] = [9, 9]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    found = replay(SimulationTrace.load(path))
    assert isinstance(found, Divergence) and found.index == k
    assert found.expected["state"]["to"] == [9, 9]
    assert found.actual == t.events[k]
    # a truncated trace diverges where it stops
    doc2 = json.loads(t.to_json())
    del doc2["events"][-1]
    short = replay(SimulationTrace.from_dict(doc2))
    assert short.index == len(t.events) - 1 and short.expected is None


def test_a_broken_policy_diverges_at_its_first_different_decision(traces):
    from labkit.encounter.sim.policy import HunterPolicy

    class Lazy(HunterPolicy):
        def act(self, obs):
            return "wait" if "wait" in obs.legal_actions else super().act(obs)

    t = traces[0]
    found = replay(t, policies={"monster": Lazy})
    assert found is not None and found.expected["category"] == "decision"
    assert found.expected["actor"].startswith("monster") and found.actual["state"]["action"]


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


def test_playback_matches_the_snapshots_without_running_rules(traces):
    for t in traces:
        if t.snapshots is None:
            continue
        frames = list(playback(t))
        assert len(frames) == t.steps + 1
        for frame, snap in zip(frames[1:], t.snapshots):
            for st in snap:
                got = frame.actors[st["id"]]
                assert list(got["position"]) == st["position"], (frame.step, st["id"])
                assert got["alive"] == (st["phase"] != "finished")
                if got["alive"]:
                    assert got["life"] == st["life"]
        last = frames[-1]
        assert sorted(a for a, _ in last.corpses) == sorted(e["actor"] for e in t.select("death"))
        svg = frame_svg(last, t.map)
        assert (
            svg.startswith("<svg")
            and svg.count('stroke="#888"') == t.settings.width * t.settings.height
        )


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


def test_playback_keeps_a_hider_hidden_until_the_first_fight_round():
    # Hiding lasts until the actor moves or fights (session): an encounter that has just been
    # opened has not been fought yet, so the frame of that step must still show the hider hidden.
    s = SimulationSettings(seed=0, map_seed=100, npcs=3, monsters=2, width=5, height=4,
                           snapshots=True)  # fmt: skip
    t = simulate(s)
    frames = list(playback(t))
    opened_hidden = 0
    for frame, snap in zip(frames[1:], t.snapshots):
        for st in snap:
            assert frame.actors[st["id"]]["stealth"] == st["stealth"], (frame.step, st["id"])
        if any(e["category"] == "encounter" for e in frame.events):
            opened_hidden += any(st["stealth"] for st in snap if st["id"] in frame.fighting)
    assert opened_hidden  # the game does open an encounter with a hidden side


def test_playback_of_a_hand_edited_event_names_it(traces):
    doc = copy.deepcopy(traces[0].to_dict())
    moves = [i for i, e in enumerate(doc["events"]) if e["category"] == "move"]
    assert moves, "the trace has no move to edit"
    del doc["events"][moves[0]]["state"]["to"]
    edited = SimulationTrace.from_dict(doc)  # the envelope is fine, so it loads
    with pytest.raises(TraceError, match=f"/events/{moves[0]}: event cannot be played back"):
        list(playback(edited))
