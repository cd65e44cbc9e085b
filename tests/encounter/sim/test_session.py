"""GameSession state machine (SPEC E1): polling, encounters, fights, deaths, sound, the end."""

from __future__ import annotations

import pytest

from labkit.encounter.rules.cards import census
from labkit.encounter.rules.notes import NoteKind
from labkit.encounter.rules.sound import Compass
from labkit.encounter.sim.actors import Phase
from labkit.encounter.sim.policy import ScriptedPolicy
from labkit.encounter.sim.session import GameSession
from labkit.encounter.sim.settings import SimulationError, SimulationSettings


def staged(npc_script, monster_script, npc_pos, monster_pos, *, width=3, height=1, seed=0,
           **kw):  # fmt: skip
    """One NPC and one monster at chosen rooms, both scripted."""
    s = SimulationSettings(npcs=1, monsters=1, width=width, height=height, seed=seed, **kw)
    npc, mon = ScriptedPolicy(npc_script), ScriptedPolicy(monster_script)
    game = GameSession(s, policies={"npc-0": npc, "monster-0": mon})
    game.by_id["npc-0"].position = npc_pos
    game.by_id["monster-0"].position = monster_pos
    return game, npc, mon


@pytest.mark.parametrize("seed", range(6))
def test_movement_encounter_fight_until_one_dies(seed):
    game, _, _ = staged(["move:E"], [], (0, 0), (1, 0), seed=seed)
    npc, mon = game.by_id["npc-0"], game.by_id["monster-0"]
    assert game.state == "action" and game.current is npc
    events = game.step()
    enc = [e for e in events if e["category"] == "encounter"]
    assert enc and enc[0]["state"]["cause"] == "movement" and enc[0]["state"]["a"] == "npc-0"
    assert game.state == "encounter"
    assert npc.phase is mon.phase is Phase.ENCOUNTER
    while game.state == "encounter":
        turn, poll = game.turn, game.poll
        events = game.step()
        cats = [e["category"] for e in events]
        # one round: both decide, one resolver; nobody else moves and the poll stays put
        assert cats[:3] == ["decision", "decision", "fight"]
        assert {e["actor"] for e in events if e["category"] == "decision"} == {"npc-0", "monster-0"}
        assert game.turn == turn and game.poll == poll
        fight = next(e for e in events if e["category"] == "fight")
        if fight["state"]["outcome"] == "continue":
            assert npc.phase is mon.phase is Phase.ENCOUNTER  # CONTINUE keeps both engaged
    assert fight["state"]["outcome"] in ("a_wins", "b_wins", "stalemate")
    if fight["state"]["outcome"] == "stalemate":
        assert npc.phase is mon.phase is Phase.ACTION
        return
    dead, alive = (mon, npc) if fight["state"]["outcome"] == "a_wins" else (npc, mon)
    assert dead.phase is Phase.FINISHED and alive.phase is Phase.ACTION
    assert game.state == "finished" and game.end_reason == "victory"
    assert game.winner == alive.side
    death = game.journal.select("death")
    assert [e["actor"] for e in death] == [dead.id] and death[0]["state"]["by"] == alive.id
    assert any(n.kind is NoteKind.THREAT for n in alive.notebook)


def test_death_drops_items_into_the_rooms_dropped_loot():
    for seed in range(20):
        game, _, _ = staged(["move:E"], [], (0, 0), (1, 0), seed=seed)
        npc = game.by_id["npc-0"]
        npc.bag.add("bullet", 2)  # test stock, outside the pool
        while not game.finished:
            game.step()
        if not npc.alive:
            room = game.room_map.room((1, 0))
            assert room.dropped_loot.count("bullet") == 2 and npc.bag.total() == 0
            death = game.journal.select("death")[0]
            assert death["state"]["drops"] == {"bullet": 2}
            return
    pytest.fail("the NPC never died in 20 seeds")


def test_ambush_by_a_hidden_actor():
    game, _, _ = staged(["wait", "move:E"], ["hide"], (0, 0), (1, 0))
    game.step()  # npc waits
    game.step()  # monster hides
    assert game.by_id["monster-0"].stealth
    game.step()  # npc walks into the hidden monster
    enc = game.journal.select("encounter")[-1]["state"]
    assert enc["cause"] == "ambush" and enc["a"] == "monster-0"
    bonus = game.balance.stealth_hit_bonus
    assert game.encounter.fight.fighters[0].ambush == bonus > 0
    assert game.encounter.fight.fighters[1].ambush == 0


def test_exploration_encounter_when_an_enemy_shares_the_room():
    game, _, _ = staged(["explore"], [], (0, 0), (0, 0))
    game.step()
    enc = game.journal.select("encounter")[-1]["state"]
    assert enc["cause"] == "exploration" and enc["a"] == "npc-0"


def test_retreat_flees_to_a_neighbour_and_both_return_to_action():
    game, _, _ = staged(["move:E", "retreat"], ["retreat"], (0, 0), (1, 0))
    game.step()
    game.step()
    end = game.journal.select("encounter_end")
    assert end and end[0]["state"]["outcome"] == "parted"
    flights = [e for e in game.journal.select("move") if e["state"]["cause"] == "flight"]
    assert {e["actor"] for e in flights} == {"npc-0", "monster-0"}
    for a in game.actors:
        assert a.phase is Phase.ACTION and a.position in {(0, 0), (2, 0)}
        assert any(n.kind is NoteKind.THREAT and n.position == (1, 0) for n in a.notebook)


def test_dead_actors_are_never_polled_again():
    for seed in range(8):
        game = GameSession(SimulationSettings(seed=seed, map_seed=seed, npcs=3, monsters=1))
        game.run()
        for death in game.journal.select("death"):
            later = [
                e for e in game.journal.events[death["sequence"] + 1 :]
                if e["actor"] == death["actor"] and e["category"] != "end"
            ]  # fmt: skip
            assert later == [], death


def test_item_counts_are_conserved_through_whole_games():
    for seed in range(6):
        game = GameSession(SimulationSettings(seed=seed, map_seed=seed))
        stock = dict(game.balance.pool_stock)
        while not game.finished:
            game.step()
            rooms = list(game.room_map.rooms.values())
            bags = [a.bag for a in game.actors]
            for item, n in stock.items():
                assert census(item, game.room_map.pool, rooms, bags) == n, (seed, game.steps, item)


def test_sound_reaches_listeners_as_signal_notes():
    game, _, mon_policy = staged(["move:E"], ["wait"], (0, 0), (2, 0), width=4)
    game.by_id["monster-0"].position = (2, 0)
    events = game.step()  # npc moves to (1, 0): level 2, the monster one room east hears it
    sound = next(e for e in events if e["category"] == "sound")
    assert sound["state"]["sources"] == [[1, 0, 2, "npc-0"]]
    signal = next(e for e in events if e["category"] == "signal")
    assert signal["actor"] == "monster-0"
    assert signal["state"] == {"direction": "W", "strength": 1}
    mon = game.by_id["monster-0"]
    notes = [n for n in mon.notebook if n.kind is NoteKind.SIGNAL]
    assert notes[-1].direction is Compass.W and notes[-1].position is None
    game.step()  # the monster decides: its observation carries the signal, then it is consumed
    assert mon_policy.seen[-1].signals == ((Compass.W, 1),)
    assert mon.signals == []


def test_turns_steps_and_sequence_are_different_clocks():
    game, _, _ = staged(["wait"] * 5, ["wait"] * 5, (0, 0), (2, 0))
    for _ in range(4):
        game.step()
    assert game.steps == 4 and game.turn == 3  # two actors: a turn every two steps
    seq = [e["sequence"] for e in game.journal.events]
    assert seq == list(range(len(seq))) and len(seq) > game.steps


def test_step_limit_is_not_a_victory():
    game, _, _ = staged(["wait"] * 9, ["wait"] * 9, (0, 0), (2, 0), max_steps=3)
    trace = game.run()
    assert trace.end_reason == "step_limit" and trace.winner is None and trace.steps == 3
    assert set(trace.survivors) == {"npc-0", "monster-0"}
    with pytest.raises(SimulationError, match="over"):
        game.step()


def test_illegal_scripted_action_is_journaled_and_the_actor_waits():
    game, _, _ = staged(["move:N"], [], (0, 0), (2, 0))
    events = game.step()
    assert [e["category"] for e in events][:3] == ["decision", "illegal", "wait"]
    assert game.by_id["npc-0"].position == (0, 0)


def test_begin_new_action_resets_flags():
    game, _, _ = staged(["move:E"], [], (0, 0), (2, 0), width=4)
    npc = game.by_id["npc-0"]
    game._act(npc)
    assert npc.flags == {"moved": True}
    game.begin_new_action(npc)
    assert npc.flags == {}


@pytest.mark.parametrize("seed", range(4))
def test_neither_fighter_hears_its_own_fight_but_a_bystander_does(seed):
    # A fight is noise made by both fighters (emitters do not hear their own sound); a third
    # actor in the next room hears it (bare hands: level 2, heard at strength 1 one room away).
    s = SimulationSettings(npcs=2, monsters=1, width=3, height=1, seed=seed)
    fighters = {"npc-0": ScriptedPolicy(["move:E"]), "monster-0": ScriptedPolicy([])}
    game = GameSession(s, policies={**fighters, "npc-1": ScriptedPolicy([])})
    for actor_id, room in (("npc-0", (0, 0)), ("monster-0", (1, 0)), ("npc-1", (2, 0))):
        game.by_id[actor_id].position = room
    rounds, bystander = 0, 0
    while not game.finished and rounds < 40:
        if game.state != "encounter":
            game.step()
            continue
        pair = {game.encounter.a.id, game.encounter.b.id}
        events = game.step()
        rounds += 1
        sound = [e for e in events if e["category"] == "sound"]
        heard = {e["actor"] for e in events if e["category"] == "signal"}
        if sound:
            assert {src[3] for src in sound[0]["state"]["sources"]} == pair
            assert not heard & pair, f"a fighter heard its own fight: {heard & pair}"
            bystander += "npc-1" in heard
    assert rounds and bystander, (rounds, bystander)
