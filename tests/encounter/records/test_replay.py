"""Replaying a trace (SPEC E6): no divergence on the recorded games, the right index on a hand-
edited one, the first different decision of a broken policy."""

from __future__ import annotations

import json

import pytest

from labkit.encounter.records.replay import Divergence, replay
from labkit.encounter.records.trace import SimulationTrace
from labkit.encounter.sim.runner import simulate
from tests.encounter.records.test_trace import SETTINGS


@pytest.fixture(scope="module")
def traces():
    return [simulate(s) for s in SETTINGS]


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
