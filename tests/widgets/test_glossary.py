"""The apps' glossary: code names in a designer's words with units, balance pointers (the hit
and pursuit tables by their own index −4 … +4), counts in words, and journal events as
sentences, a hand-edited event still giving its kind. Expected strings are written by hand."""

from __future__ import annotations

import pytest

from labkit.widgets.glossary import GLOSSARY, count_words, event_sentence, parameter_words, words


@pytest.mark.parametrize(
    "name, said",
    [
        ("npc_win", "NPC win rate"),
        ("max_steps", "step limit (steps)"),
        ("life", "life (wounds it takes)"),
        ("first", "first-order share of variance"),
        ("some_new_field", "some new field"),
    ],
)
def test_words_with_their_unit(name, said):
    assert words(name) == said


def test_every_entry_has_words_and_a_unit_string():
    assert all(isinstance(w, str) and w and isinstance(u, str) for w, u in GLOSSARY.values())


@pytest.mark.parametrize(
    "pointer, said",
    [
        ("/tables/hit/0", "hit chance at index −4"),
        ("/tables/hit/4", "hit chance at index 0"),
        ("/tables/pursuit/8", "pursuit chance at index +4"),
        ("/characters/monster/life", "monster life (wounds it takes)"),
        ("/characters/npc/agility", "NPC agility (index steps)"),
        ("/weapons/long_knife/noise", "long knife noise (rooms it carries)"),
        ("/card_pool/stock/bullet", "bullets in the card pool"),
        ("/card_pool/stock/long_knife", "long knives in the card pool"),
        ("/card_pool/stock/lantern", "lantern in the card pool"),
        ("/priority/base", "first-strike chance at equal agility"),
        ("/combat/max_rounds", "most fight rounds (rounds)"),
        ("/ammo/0", "ammo 0"),
        ("npcs", "NPCs in the game (NPCs)"),
    ],
)
def test_pointers_in_a_designers_words(pointer, said):
    assert parameter_words(pointer) == said


def test_counts_in_words():
    assert count_words({}) == "nothing"
    assert count_words({"revolver": 1}) == "a revolver"
    assert count_words({"bullet": 7, "long_knife": 2}) == "7 bullets and 2 long knives"
    assert count_words({"bullet": 1, "silencer": 3, "torch": 2}) == (
        "a bullet, 3 silencers and 2 torchs"
    )


def ev(category, actor="npc-1", **state):
    return {"actor": actor, "category": category, "state": state}


EVENTS = [
    (
        ev("spawn", side="npc", life=3, position=[0, 2]),
        "npc-1 (npc, life 3) starts in room 0,2",
    ),
    (ev("visit", position=[1, 1]), "npc-1 enters room 1,1"),
    (ev("decision", action="move:NE"), "npc-1 decides to move north-east"),
    (ev("decision", action="pick_up"), "npc-1 decides to pick up"),
    (ev("illegal", action="reload"), "npc-1 tried to reload, which the rules do not allow"),
    (
        ev("move", **{"from": [0, 0], "to": [1, 0], "cause": "policy"}),
        "npc-1 moves from room 0,0 to room 1,0",
    ),
    (
        ev("move", **{"from": [1, 0], "to": [0, 0], "cause": "retreat"}),
        "npc-1 moves from room 1,0 to room 0,0 (retreat)",
    ),
    (ev("explore", room=[2, 2], found={}), "npc-1 explores room 2,2 and finds nothing"),
    (ev("pickup", room=[1, 1], taken={"bullet": 7}), "npc-1 picked up 7 bullets in room 1,1"),
    (ev("equip", item="long_knife", ok=False), "npc-1 cannot equip the long knife"),
    (ev("reload", loaded=6), "npc-1 reloads: 6 bullets in the magazine"),
    (ev("hide"), "npc-1 hides"),
    (ev("wait"), "npc-1 waits"),
    (
        ev("encounter", None, a="npc-1", b="monster-0", room=[3, 1], cause="exploration"),
        "npc-1 meets monster-0 in room 3,1 (exploration)",
    ),
    (
        ev(
            "fight",
            None,
            round=2,
            actions=["attack", "retreat"],
            life=[3, 1],
            outcome="continue",
        ),
        "fight round 2: attack and retreat, life left 3 and 1",
    ),
    (
        ev("encounter_end", None, outcome="a_escaped", a="npc-0", b="monster-0"),
        "npc-0 escaped from monster-0",
    ),
    (
        ev("encounter_end", None, outcome="victory", a="npc-0", b="monster-0"),
        "the encounter of npc-0 and monster-0 ends: victory",
    ),
    (
        ev("death", by="monster-0", position=[2, 0], drops={"revolver": 1}),
        "npc-1 was killed by monster-0 in room 2,0, dropping a revolver",
    ),
    (ev("signal", direction="N", strength=1), "npc-1 heard a sound to the north, strength 1"),
]


@pytest.mark.parametrize(
    "event, sentence", EVENTS, ids=[f"{i:02d}-{e['category']}" for i, (e, _) in enumerate(EVENTS)]
)
def test_journal_events_as_sentences(event, sentence):
    assert event_sentence(event) == sentence


def test_a_hand_edited_event_still_says_its_kind():
    assert event_sentence(ev("pickup", room=[1, 1])) == "npc-1 pickup"
    assert event_sentence({"category": "encounter_end", "state": None}) == "encounter end"
