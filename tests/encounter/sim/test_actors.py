"""Actors: the phases, legal actions from the actor's own state and room only (moves, items for
NPCs, equipping what fits, reloading, hiding), the observation built from its body and notebook,
known rooms and the per-step snapshot. Expected tuples are written from the module's rules."""

from __future__ import annotations

from labkit.encounter.rules.cards import Bag
from labkit.encounter.rules.notes import NoteBook
from labkit.encounter.rules.sound import Compass
from labkit.encounter.sim.actors import FIGHT_ACTIONS, Actor, Phase


def actor(id="npc-0", side="npc", **kw) -> Actor:
    return Actor(id, side, side, (1, 1), life=kw.pop("life", 5), max_life=6, bag=Bag(),
                 notebook=NoteBook(id), natural="fists", **kw)  # fmt: skip


def test_the_phases_and_who_is_alive():
    assert [p.value for p in Phase] == ["action", "encounter", "finished"]
    a = actor()
    assert a.alive and a.phase is Phase.ACTION
    a.phase = Phase.FINISHED
    assert not a.alive


def test_an_npc_moves_explores_picks_up_hides_and_waits():
    a = actor()
    moves = [Compass.N, Compass.E]
    assert a.legal_actions(moves, dropped_here=False) == ("move:N", "move:E", "explore", "hide",
                                                          "wait")  # fmt: skip
    assert a.legal_actions([], dropped_here=True) == ("explore", "pick_up", "hide", "wait")
    a.stealth = True  # hidden already: no second hide
    assert a.legal_actions([], dropped_here=False) == ("explore", "wait")


def test_a_monster_uses_no_items():
    m = actor("monster-0", "monster")
    assert not m.uses_items
    assert m.legal_actions([Compass.S], dropped_here=True) == ("move:S", "hide", "wait")


def test_in_an_encounter_only_fight_actions_are_legal():
    a = actor()
    a.phase = Phase.ENCOUNTER
    assert a.legal_actions([Compass.N], dropped_here=True) == FIGHT_ACTIONS
    assert FIGHT_ACTIONS == ("attack", "retreat")


def test_held_gear_can_be_equipped_and_a_gun_reloaded():
    a = actor()
    a.bag.add("long_knife")
    a.bag.add("silencer")  # fits the revolver, not the knife
    assert a.legal_actions([], False) == ("explore", "equip:long_knife", "hide", "wait")
    a.bag.add("revolver")
    assert a.bag.equip("revolver")
    # the silencer fits the revolver now; an empty revolver with no bullets cannot reload
    assert a.legal_actions([], False) == ("explore", "equip:long_knife", "equip:silencer",
                                          "hide", "wait")  # fmt: skip
    a.bag.add("bullet", 2)
    assert "reload" in a.legal_actions([], False)


def test_the_observation_is_the_actors_own_body_and_knowledge():
    a = actor(life=4)
    a.remember_room((1, 1))
    a.remember_room((2, 1))
    a.remember_room((1, 1))  # known once
    obs = a.observe(7, ("wait",))
    assert (obs.actor, obs.turn, obs.life, obs.wounds) == ("npc-0", 7, 4, 2)
    assert obs.legal_actions == ("wait",) and obs.stealth is False
    assert a.known_rooms == [(1, 1), (2, 1)]


def test_the_snapshot_is_plain_data():
    a = actor()
    a.bag.add("bullet", 3)
    assert a.snapshot() == {"id": "npc-0", "position": [1, 1], "life": 5, "phase": "action",
                            "stealth": False, "weapon": None, "ammo": 0,
                            "bag": {"bullet": 3}}  # fmt: skip
