"""The world journal: events numbered in order with their three clocks, messages kept apart,
selections, one-line descriptions of each event kind, and the HTML table (escaped, cut at its
limit, robust to a hand-edited event)."""

from __future__ import annotations

from labkit.encounter.records.journal import CATEGORIES, ActionJournal, describe, events_html


def _journal() -> ActionJournal:
    j = ActionJournal()
    j.record(0, 0, "npc-0", "spawn", position=[0, 0], life=3, side="npc")
    j.record(1, 1, "npc-0", "decision", action="explore", observation={})
    j.say("npc-0", "You look around.")
    j.record(1, 1, "npc-0", "move", **{"from": [0, 0], "to": [1, 0], "cause": "policy"})
    j.record(2, 1, "monster-0", "decision", action="wait", observation={})
    j.record(2, 1, None, "end", winner="npc", reason="victory", survivors=["npc-0"])
    return j


def test_events_are_numbered_in_order_and_messages_kept_apart():
    j = _journal()
    assert len(j) == 5 and [e["sequence"] for e in j] == [0, 1, 2, 3, 4]
    assert j.events[2] == {"sequence": 2, "step": 1, "turn": 1, "actor": "npc-0",
                           "category": "move",
                           "state": {"from": [0, 0], "to": [1, 0], "cause": "policy"}}  # fmt: skip
    # a message remembers how many events came before it, and is never an event
    assert j.messages == [(2, "npc-0", "You look around.")]
    assert all(e["category"] in CATEGORIES for e in j)


def test_select_and_decisions_filter_by_category_and_actor():
    j = _journal()
    assert [e["sequence"] for e in j.decisions()] == [1, 3]
    assert [e["sequence"] for e in j.decisions("monster-0")] == [3]
    assert [e["sequence"] for e in j.select(actor="npc-0")] == [0, 1, 2]
    assert [e["sequence"] for e in j.select("end")] == [4]
    assert j.select("fight") == []


def test_each_event_kind_in_one_line_of_words():
    assert describe({"category": "decision", "state": {"action": "explore"}}) == "decides explore"
    move = {"category": "move", "state": {"from": [0, 0], "to": [1, 0], "cause": "policy"}}
    assert describe(move) == "moves (0, 0) → (1, 0) (policy)"
    fight = {"category": "fight", "state": {"round": 2, "actions": ["attack", "flee"],
                                            "outcome": "hit", "life": [3, 1]}}  # fmt: skip
    assert describe(fight) == "round 2: attack/flee → hit life [3, 1]"
    meet = {"category": "encounter", "state": {"a": "npc-0", "b": "monster-0", "room": [2, 1],
                                               "cause": "move"}}  # fmt: skip
    assert describe(meet) == "npc-0 meets monster-0 at (2, 1) (move)"
    sound = {"category": "sound", "state": {"sources": [[1, 2, 5], [0, 0, 1]]}}
    assert describe(sound) == "sounds (1, 2):5, (0, 0):1"
    signal = {"category": "signal", "state": {"direction": "NE", "strength": 3}}
    assert describe(signal) == "hears NE strength 3"
    assert describe({"category": "hide", "state": {}}) == "hide"
    assert describe({"category": "reload", "state": {"loaded": 6}}) == "reload loaded=6"


def test_the_html_table_is_escaped_cut_at_its_limit_and_survives_a_broken_event():
    j = _journal()
    j.record(3, 2, "<b>npc</b>", "move", to=[1, 1])  # "from" and "cause" are missing
    page = events_html(j.events, limit=3)
    assert page.count("<tr>") == 1 + 3  # the header and three events
    assert "<p>… 3 more events</p>" in page
    full = events_html(j.events)
    assert "&lt;b&gt;npc&lt;/b&gt;" in full and "<b>npc</b>" not in full
    assert "move {&#x27;to&#x27;: [1, 1]}" in full  # the raw state, not an error
    assert j._repr_html_() == full
    assert "more events" not in full
