"""Policies (SPEC E4): own observation only, legal choices, difficulty, independent streams."""

from __future__ import annotations

import dataclasses

import pytest

from labkit.encounter.rules.notes import NoteBook, NoteKind, Observation
from labkit.encounter.rules.sound import Compass
from labkit.encounter.sim.policy import (
    POLICIES,
    HunterPolicy,
    ScavengerPolicy,
)
from labkit.encounter.sim.session import GameSession
from labkit.encounter.sim.settings import SimulationSettings
from labkit.rng import make_rng, stream


class Spy:
    """Wraps a real policy and keeps every observation it was shown."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def decide(self, obs):
        self.seen.append(obs)
        return self.inner.decide(obs)


def spied_game(seed):
    settings = SimulationSettings(seed=seed, map_seed=seed, npcs=3, monsters=2, width=5, height=5)
    spies = {}

    def factory(cls):
        def make(level, rng):
            return Spy(cls(level, rng))

        return make

    game = GameSession(settings, policies={"npc": factory(ScavengerPolicy),
                                           "monster": factory(HunterPolicy)})  # fmt: skip
    for a in game.actors:
        spies[a.id] = game.policies[a.id]
    return game, spies


def test_observation_has_no_field_for_other_actors():
    names = {f.name for f in dataclasses.fields(Observation)}
    assert names == {"actor", "turn", "position", "life", "wounds", "stealth", "weapon", "armour",
                     "ammo", "bag", "notes", "known_rooms", "signals", "legal_actions"}  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_policy_receives_no_ground_truth(seed):
    game, spies = spied_game(seed)
    while not game.finished:
        game.step()
        # Every observation handed out this step mentions only rooms the actor has been in.
        for a in game.actors:
            for obs in spies[a.id].seen:
                assert obs.actor == a.id
                assert obs.positions() <= set(a.known_rooms), (a.id, obs.positions())
            spies[a.id].seen.clear()
    assert game.steps > 5


def test_observation_does_not_change_when_only_the_truth_changes():
    game, _ = spied_game(4)
    for _ in range(12):
        game.step()
    npc = next(a for a in game.actors if a.side == "npc" and a.alive)
    legal = ("wait",)
    obs = npc.observe(game.turn, legal)
    for other in game.actors:
        if other is not npc:
            other.position = (4, 4)  # teleport every other actor: the world's truth changes
            other.life = 1
    assert npc.observe(game.turn, legal) == obs


@pytest.mark.parametrize("seed", range(8))
def test_ai_policies_only_choose_legal_actions(seed):
    for policies in (("scavenger", "hunter"), ("random", "random"), ("hunter", "scavenger")):
        s = SimulationSettings(seed=seed, map_seed=seed, policies=policies, difficulty=(seed % 4,
                               (seed + 1) % 4))  # fmt: skip
        game = GameSession(s)
        game.run()
        assert game.journal.select("illegal") == []


def obs(**kw):
    base = dict(position=(1, 1), life=3, legal_actions=("move:N", "move:E", "move:S", "move:W",
                "explore", "hide", "wait"))  # fmt: skip
    book = kw.pop("notebook", NoteBook("x"))
    base.update(kw)
    return Observation.build("x", 5, book, **base)


def test_scavenger_explores_arms_and_reloads():
    p = ScavengerPolicy(level=3, rng=0)
    assert p.decide(obs()) == "explore"
    armed = obs(bag={"revolver": 1, "bullet": 3},
                legal_actions=("equip:revolver", "explore", "wait"))  # fmt: skip
    assert p.decide(armed) == "equip:revolver"
    assert p.decide(obs(weapon="revolver", legal_actions=("reload", "wait"))) == "reload"


def test_scavenger_retreat_depends_on_difficulty():
    fight = obs(life=1, weapon="long_knife", legal_actions=("attack", "retreat"))
    assert ScavengerPolicy(level=3, rng=0).decide(fight) == "retreat"
    assert ScavengerPolicy(level=0, rng=0).fight(fight) == "attack"  # the rule, without a slip
    assert ScavengerPolicy(level=3, rng=0).fight(obs(life=2, weapon="long_knife")) == "retreat"
    assert ScavengerPolicy(level=1, rng=0).fight(obs(life=2, weapon="long_knife")) == "attack"


def test_scavenger_hides_from_a_loud_signal_and_hunter_follows_it():
    heard = obs(signals=[(Compass.E, 3)])
    p = ScavengerPolicy(level=3, rng=0)
    p.explored.add((1, 1))
    assert p.decide(heard) == "hide"
    assert HunterPolicy(level=3, rng=0).decide(heard) == "move:E"
    assert HunterPolicy(level=3, rng=0).decide(obs(signals=[(Compass.HERE, 2)])) == "hide"


def test_hunter_follows_a_threat_note():
    book = NoteBook("x")
    book.add(NoteKind.THREAT, 4, position=(1, 3))
    assert HunterPolicy(level=3, rng=0).decide(obs(notebook=book)) == "move:S"


def test_a_decision_without_choice_draws_exactly_the_slip_uniform():
    p = ScavengerPolicy(level=3, rng=5)
    assert p.decide(obs()) == "explore"
    fresh = make_rng(5)
    fresh.random()
    assert p.rng.random() == fresh.random()


def test_changing_one_policys_draws_moves_neither_the_map_nor_earlier_events():
    s = SimulationSettings(seed=9, map_seed=9)
    plain = GameSession(s)
    trace = plain.run()

    class Greedy(HunterPolicy):
        def decide(self, o):
            self.rng.random()  # one more draw than the original
            return super().decide(o)

    other = GameSession(s, policies={"monster": Greedy})
    other_trace = other.run()
    assert other.initial_map == plain.initial_map
    assert trace.events[:8] == other_trace.events[:8]  # spawns come from the map stream
    assert trace.events != other_trace.events


def test_every_actor_draws_from_its_own_stream():
    # One stream per actor, none equal to another: the first numbers each policy's stream
    # gives differ from actor to actor, and are those of policy/<actor id> of the game seed
    # (so an actor's numbers do not depend on which other actors play).
    class Recorder:
        def __init__(self, level, rng):
            self.rng = rng
            self.first = tuple(rng.random(4).tolist())

        def decide(self, obs):
            return obs.legal_actions[0]

    def firsts(npcs, monsters):
        settings = SimulationSettings(seed=9, map_seed=9, npcs=npcs, monsters=monsters)
        session = GameSession(settings, policies={"npc": Recorder, "monster": Recorder})
        return {a: p.first for a, p in session.policies.items()}, session

    big, session = firsts(3, 2)
    assert len(big) == 5 and len(set(big.values())) == 5
    assert len({id(p.rng) for p in session.policies.values()}) == 5
    for actor, first in big.items():
        assert first == tuple(stream(9, f"policy/{actor}").random(4).tolist())
    small, _ = firsts(1, 1)
    assert all(big[a] == small[a] for a in small)
    session.run()  # and the recorded policies play a game to its end


def test_registry_names():
    assert set(POLICIES) >= {"scavenger", "hunter", "random"}
