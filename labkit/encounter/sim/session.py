"""The game session (rule E1): polling, actions, encounters, fights, deaths, sound, the end.

:class:`GameSession` advances one *step* at a time: either the polled actor performs one action
(state ``ACTION``), or — while an encounter is open, the only interrupting state — both sides
submit ``attack``/``retreat`` and one exchange is resolved by
:class:`~labkit.encounter.Fight`. ``continue`` keeps both engaged; when the fight ends the
dead go to ``FINISHED`` (skipped by polling forever) and survivors back to ``ACTION``; then
:meth:`GameSession.begin_new_action` resets the actor's per-action flags and
:meth:`GameSession.advance_poll_turn` passes the turn to the next living actor. A game turn ends
when the poll wraps round.

Random streams (DESIGN §3): the map comes from ``stream(map_seed, "map")``, fights and flights
from ``stream(seed, "process")``, each actor's policy from ``stream(seed, f"policy/{id}")``, so
one more draw in one policy moves neither the map nor any other actor's choices.

Decisions the rules leave open, recorded here:

* **Meeting.** After an action, if living enemies share the actor's room an encounter starts:
  a mover entering a room where an enemy hides is *ambushed* (the hider is side A with the
  stealth bonus); a mover meeting a visible enemy starts a *movement* encounter as side A; any
  other action with an enemy in the room (after a stalemate, or an explorer stumbling on a
  hider) is an *exploration* encounter with the actor as side A. The first enemy in actor order
  is met.
* **Flight.** A side that escapes (or both, when they part) flees to a random neighbouring room
  (process stream); a flight never starts a new encounter by itself.
* **Sound.** Moving (2), searching (2), hiding (0) and fighting (the louder weapon used, e.g. a
  revolver 5, 2 with the silencer) are exposure levels at the actor's room (a fight's at its
  room, emitted by both fighters); every living actor other than the emitters hears the result
  of the ``propagate_sound`` kernel
  as a signal note (direction and strength, no position) and as a signal in its next
  observation.
* **Knowledge.** Visiting a room writes a visit note and a known room; a search writes a
  discovery; every encounter leaves a threat note at its room for both sides; notebooks are
  pruned when the turn advances.
* **End.** One side left: ``victory`` for that side. Nobody left: ``mutual_death``. The step
  limit: ``step_limit`` (winner ``None``, not a victory); see :class:`~labkit.encounter.EndReason`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import _renamed
from labkit.encounter import _kernels
from labkit.encounter.records.journal import ActionJournal
from labkit.encounter.rules.cards import Bag
from labkit.encounter.rules.combat import Fight
from labkit.encounter.rules.notes import NoteBook, NoteKind
from labkit.encounter.rules.sound import Compass
from labkit.encounter.sim.actors import FIGHT_ACTIONS, Actor, Phase
from labkit.encounter.sim.policy import POLICIES
from labkit.encounter.sim.room_map import RoomMap, room_id
from labkit.encounter.sim.settings import SimulationError, SimulationSettings
from labkit.encounter.status import END_REASONS, EndReason
from labkit.rng import stream

__all__ = ["GameSession", "Encounter", "END_REASONS", "SIDES", "NOISE"]

SIDES = ("npc", "monster")
NOISE = {"move": 2, "explore": 2, "pick_up": 2}
_DIRECTIONS = {d.value: d for d in Compass}


@dataclass
class Encounter:
    """An open encounter: side A, side B, how it started and the fight between them."""

    a: Actor
    b: Actor
    cause: str
    fight: Fight


class GameSession:
    """One game, advanced with :meth:`step` or played out with :meth:`run`.

    Parameters
    ----------
    settings : SimulationSettings, optional
        The game (default settings when omitted).
    policies : mapping, optional
        Overrides by actor id or by side (``"npc"``/``"monster"``): a policy object (used as
        is) or a factory ``(level, rng) -> policy``.
    observations : bool
        Store each decision's observation and the player messages in the journal (True;
        batches turn it off for speed, which changes no draw and no event otherwise).

    Examples
    --------
    >>> game = GameSession(SimulationSettings(seed=1, map_seed=2))
    >>> game.state, game.turn, game.steps
    ('action', 1, 0)
    >>> trace = game.run()
    >>> game.state, game.end_reason in END_REASONS
    ('finished', True)
    """

    def __init__(
        self,
        settings: SimulationSettings | None = None,
        *,
        policies: Mapping[str, Any] | None = None,
        observations: bool = True,
    ) -> None:
        s = SimulationSettings() if settings is None else settings
        self.settings = s
        self.balance = s.resolved_balance()
        self.observations = observations
        self.room_map = RoomMap.generate(
            s.width, s.height, s.actor_ids, stream(s.map_seed, "map"), self.balance
        )
        self.initial_map = self.room_map.to_dict()
        self.process = stream(s.seed, "process")
        self.journal = ActionJournal()
        self.turn, self.steps, self.poll = 1, 0, 0
        self.encounter: Encounter | None = None
        self.winner: str | None = None
        self.end_reason: EndReason | None = None
        self.snapshots: list[list[dict]] | None = [] if s.snapshots else None
        self._sounds: list[tuple[int, int, int, str]] = []
        self.actors = [self._spawn(aid) for aid in s.actor_ids]
        self.by_id = {a.id: a for a in self.actors}
        self.policies = {a.id: self._policy(a, policies or {}) for a in self.actors}

    # -- set-up ---------------------------------------------------------------------------------
    def _spawn(self, aid: str) -> Actor:
        side = aid.split("-")[0]
        base = self.balance.characters[side]
        pos = self.room_map.spawns[aid]
        actor = Actor(aid, side, side, pos, base.life, base.life,
                      Bag(balance=self.balance), NoteBook(aid), base.weapon)  # fmt: skip
        self._record(actor, "spawn", position=list(pos), life=base.life, side=side)
        self._visit(actor)
        return actor

    def _policy(self, actor: Actor, overrides: Mapping[str, Any]) -> Any:
        level = self.settings.difficulty[SIDES.index(actor.side)]
        chosen = overrides.get(actor.id, overrides.get(actor.side))
        if chosen is None:
            chosen = POLICIES[self.settings.policies[SIDES.index(actor.side)]]
        if hasattr(chosen, "decide") and not isinstance(chosen, type):
            return chosen
        factory: Callable = chosen
        return factory(level, stream(self.settings.seed, f"policy/{actor.id}"))

    # -- state ----------------------------------------------------------------------------------
    @property
    def world(self) -> RoomMap:
        """Old name of :attr:`room_map`, kept for one release (warns)."""
        return _renamed.old_attribute(self, "world", "room_map")

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    @property
    def state(self) -> str:
        """``"action"``, ``"encounter"`` or ``"finished"`` (the session's own phase)."""
        if self.finished:
            return "finished"
        return "encounter" if self.encounter else "action"

    @property
    def current(self) -> Actor:
        """The actor whose action it is (the polled actor)."""
        return self.actors[self.poll]

    def living(self) -> list[Actor]:
        return [a for a in self.actors if a.phase is not Phase.FINISHED]

    def _record(self, actor: Actor | None, category: str, **state: Any) -> dict:
        return self.journal.record(
            self.steps, self.turn, None if actor is None else actor.id, category, **state
        )

    # -- the loop -------------------------------------------------------------------------------
    def step(self) -> list[dict]:
        """Advance once (one action or one fight round); returns the events it produced."""
        if self.finished:
            raise SimulationError("the game is over", value=self.end_reason)
        mark = len(self.journal)
        self.steps += 1
        self._sounds = []
        if self.encounter is not None:
            self._fight_round(self.encounter)
        else:
            self._act(self.current)
        self._spread_sound()
        self._check_end()
        if not self.finished and self.encounter is None:
            self.begin_new_action(self.current)
            self.advance_poll_turn()
        if self.snapshots is not None:
            self.snapshots.append([a.snapshot() for a in self.actors])
        return self.journal.events[mark:]

    def run(self, version: int = 3):
        """Play to the end and return the :class:`~labkit.encounter.SimulationTrace`."""
        from labkit.encounter.records.trace import SimulationTrace

        while not self.finished:
            self.step()
        return SimulationTrace.from_session(self, version=version)

    def begin_new_action(self, actor: Actor) -> None:
        """Reset the actor's per-action flags (seed: BeginNewAction)."""
        actor.flags.clear()

    def advance_poll_turn(self) -> None:
        """Pass the turn to the next living actor; a wrap-round starts a new game turn."""
        n = len(self.actors)
        for _ in range(n):
            self.poll += 1
            if self.poll == n:
                self.poll = 0
                self.turn += 1
                for a in self.living():
                    a.notebook.prune(self.turn)
            if self.actors[self.poll].alive:
                return

    def _decide(self, actor: Actor, legal: tuple[str, ...]) -> str:
        obs = actor.observe(self.turn, legal)
        choice = self.policies[actor.id].decide(obs)
        self._record(actor, "decision", action=choice,
                     observation=obs.to_dict() if self.observations else None)  # fmt: skip
        actor.signals = []
        if choice not in legal:
            self._record(actor, "illegal", action=str(choice))
            choice = "attack" if legal == FIGHT_ACTIONS else "wait"
        return choice

    # -- actions --------------------------------------------------------------------------------
    def _act(self, actor: Actor) -> None:
        room = self.room_map.room(actor.position)
        moves = [d for d, _ in self.room_map.neighbours(actor.position)]
        legal = actor.legal_actions(moves, room.dropped_loot.total() > 0)
        choice = self._decide(actor, legal)
        verb, _, arg = choice.partition(":")
        if verb == "move":
            to = self.room_map.step_to(actor.position, arg)
            self._move(actor, to, "policy")
            actor.flags["moved"] = True
        elif verb in ("explore", "pick_up"):
            source = room.loot if verb == "explore" else room.dropped_loot
            found = source.as_dict()
            for item, n in found.items():
                actor.bag.pick_up(room, item, n, dropped=verb == "pick_up")
            key = "found" if verb == "explore" else "taken"
            self._record(actor, "explore" if verb == "explore" else "pickup",
                         room=list(actor.position), **{key: found})  # fmt: skip
            text = ",".join(f"{k}x{v}" for k, v in found.items()) or "nothing"
            actor.notebook.add(NoteKind.DISCOVERY, self.turn, actor.position, text=text)
            self._sounds.append((*actor.position, NOISE[verb], actor.id))
        elif verb == "equip":
            self._record(actor, "equip", item=arg, ok=actor.bag.equip(arg))
        elif verb == "reload":
            self._record(actor, "reload", loaded=actor.bag.load())
        elif verb == "hide":
            actor.stealth = True
            self._record(actor, "hide")
        else:
            self._record(actor, "wait")
        self._meet(actor)

    def _visit(self, actor: Actor) -> None:
        actor.remember_room(actor.position)
        actor.notebook.add(NoteKind.VISIT, self.turn, actor.position)
        self._record(actor, "visit", position=list(actor.position))

    def _move(self, actor: Actor, to: tuple[int, int], cause: str) -> None:
        frm = actor.position
        actor.position = to
        actor.stealth = False
        self._record(actor, "move", **{"from": list(frm), "to": list(to), "cause": cause})
        self._visit(actor)
        self._sounds.append((*to, NOISE["move"], actor.id))

    def _meet(self, actor: Actor) -> None:
        enemies = [
            o for o in self.actors
            if o.alive and o.side != actor.side and o.position == actor.position
        ]  # fmt: skip
        if not enemies:
            return
        hidden = [o for o in enemies if o.stealth]
        if actor.flags.get("moved") and hidden:
            self.start_encounter(hidden[0], actor, "ambush")
        else:
            self.start_encounter(actor, enemies[0], "movement" if actor.flags.get("moved")
                                 else "exploration")  # fmt: skip

    # -- encounters -----------------------------------------------------------------------------
    def start_encounter(self, a: Actor, b: Actor, cause: str) -> Encounter:
        """Freeze ``a`` and ``b`` in an encounter (seed: StartEncounter); ``a`` is side A."""
        if self.encounter is not None:
            raise SimulationError("an encounter is already open", value=cause)
        loadouts = [x.bag.loadout(x.character, stealth=x.stealth, life=x.life) for x in (a, b)]
        fight = Fight(loadouts[0], loadouts[1], balance=self.balance)
        for x in (a, b):
            x.phase = Phase.ENCOUNTER
        self.encounter = Encounter(a, b, cause, fight)
        self._record(None, "encounter", a=a.id, b=b.id, cause=cause, room=list(a.position))
        self.journal.say(b.id, f"{a.id} and {b.id} meet at {a.position} ({cause})")
        return self.encounter

    def _fight_round(self, enc: Encounter) -> None:
        pair = (enc.a, enc.b)
        acts = [self._decide(x, FIGHT_ACTIONS) for x in pair]
        before = enc.fight.ammo.copy()
        ex = enc.fight.exchange(acts[0], acts[1], self.process)
        noise = 0
        for i, x in enumerate(pair):
            x.life = ex.life[i]
            for _ in range(int(before[i] - ex.ammo[i])):
                x.bag.fire()
            x.stealth = False
            if acts[i] == "attack":
                noise = max(noise, x.bag.noise(x.natural))
        if noise:
            # Both fighters make the fight's noise (neither hears its own fight as a signal).
            self._sounds.extend((*x.position, noise, x.id) for x in pair)
        self._record(None, "fight", round=ex.round, actions=acts, outcome=ex.outcome,
                     first=ex.first, life=list(ex.life), ammo=list(ex.ammo))  # fmt: skip
        if ex.over:
            self._end_encounter(enc, ex.outcome)

    def _end_encounter(self, enc: Encounter, outcome: str) -> None:
        a, b = enc.a, enc.b
        room = a.position
        if outcome == "a_wins":
            self._kill(b, a)
        elif outcome == "b_wins":
            self._kill(a, b)
        for x in (a, b):
            if x.alive:
                x.phase = Phase.ACTION
                x.notebook.add(NoteKind.THREAT, self.turn, room, text="fight")
        if outcome in ("a_escaped", "parted"):
            self._flee(a)
        if outcome in ("b_escaped", "parted"):
            self._flee(b)
        self._record(None, "encounter_end", outcome=outcome, a=a.id, b=b.id)
        self.encounter = None

    def _flee(self, actor: Actor) -> None:
        options = self.room_map.neighbours(actor.position)
        _, to = options[int(self.process.integers(len(options)))]
        self._move(actor, to, "flight")

    def _kill(self, actor: Actor, by: Actor) -> None:
        room = self.room_map.room(actor.position)
        before = room.dropped_loot.as_dict()
        actor.bag.die_into(room)
        after = room.dropped_loot.as_dict()
        drops = {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}
        actor.phase = Phase.FINISHED
        actor.life = min(actor.life, 0)
        actor.death_turn, actor.death_step = self.turn, self.steps
        self._record(actor, "death", position=list(actor.position), drops=drops, by=by.id)
        by.notebook.add(NoteKind.EVENT, self.turn, actor.position, text=f"killed {actor.side}")
        self.journal.say(by.id, f"{by.id} kills {actor.id} in room {room_id(actor.position)}")

    # -- sound and the end ----------------------------------------------------------------------
    def _spread_sound(self) -> None:
        if not self._sounds:
            return
        self._record(None, "sound", sources=[list(s) for s in self._sounds])
        # The sources are built here, on the grid, so the kernel is called without the public
        # function's checks (they cost more than the propagation on a small map).
        cols = np.array([s[:3] for s in self._sounds], dtype=np.int64).T.copy()
        strength, direction, _ = _kernels.propagate_sound(*self.room_map.shape, *cols)
        emitters = {s[3] for s in self._sounds}
        for x in self.living():
            if x.id in emitters:
                continue
            px, py = x.position
            level = int(strength[py, px])
            if level <= 0:
                continue
            d = _DIRECTIONS[int(direction[py, px])]
            x.signals.append((d, level))
            x.notebook.add(NoteKind.SIGNAL, self.turn, direction=d, strength=level)
            self._record(x, "signal", direction=d.name, strength=level)
            if self.observations:
                self.journal.say(x.id, f"{x.id} hears something ({d.name}, strength {level})")

    def _check_end(self) -> None:
        sides = {a.side for a in self.living()}
        if not sides:
            self._finish(None, EndReason.MUTUAL_DEATH)
        elif len(sides) == 1 and self.encounter is None:
            self._finish(sides.pop(), EndReason.VICTORY)
        elif self.steps >= self.settings.max_steps:
            self._finish(None, EndReason.STEP_LIMIT)

    def _finish(self, winner: str | None, reason: EndReason) -> None:
        self.winner, self.end_reason = winner, reason
        self.encounter = None
        survivors = [a.id for a in self.living()]
        self._record(None, "end", winner=winner, reason=reason, survivors=survivors)
