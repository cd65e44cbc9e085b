"""Playing a trace back (SPEC E6) without running the rules: the snapshots, hidden actors, a
hand-edited event named."""

from __future__ import annotations

import copy

import pytest

from labkit.encounter.draw_sim import frame_svg
from labkit.encounter.records.playback import playback
from labkit.encounter.records.trace import SimulationTrace, TraceError
from labkit.encounter.sim.runner import simulate
from labkit.encounter.sim.settings import SimulationSettings
from tests.encounter.records.test_trace import SETTINGS


@pytest.fixture(scope="module")
def traces():
    return [simulate(s) for s in SETTINGS]


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
