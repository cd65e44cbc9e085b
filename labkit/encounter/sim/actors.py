"""Actors of an encounter game: state, legal actions and the observation a policy reads.

An :class:`Actor` holds its true state (room, life, phase, stealth, bag) *and* its own
knowledge (notebook, known rooms, the signals it heard since it last acted). The observation it
hands to a policy (:meth:`Actor.observe`) is built from the second part plus the actor's own
body only — never from the world (rule E4).

Decisions the rules leave open, recorded here:

* Two sides: NPCs (``npc-0`` …, character ``npc``) and monsters (``monster-0`` …, character
  ``monster``). Actors of one side never fight each other.
* Only NPCs use items: ``explore`` (search the room: take all its loot), ``pick_up`` (take all
  dropped loot — legal only when the actor sees some in its own room), ``equip:<item>`` and
  ``reload``. Every actor may ``move:<DIR>``, ``hide`` (stealth until it moves or fights) and
  ``wait``. In an encounter the legal actions are ``attack`` and ``retreat``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from labkit._status import Status
from labkit.encounter.rules.cards import Bag
from labkit.encounter.rules.notes import NoteBook, Observation
from labkit.encounter.rules.sound import Compass

__all__ = ["Phase", "Actor", "FIGHT_ACTIONS"]

FIGHT_ACTIONS = ("attack", "retreat")
Position = tuple[int, int]


class Phase(Status):
    """Per-actor state of the game machine (seed: TurnPhase).

    Examples
    --------
    >>> [p.value for p in Phase]
    ['action', 'encounter', 'finished']
    """

    ACTION = "action"
    ENCOUNTER = "encounter"
    FINISHED = "finished"


@dataclass
class Actor:
    """One NPC or monster.

    Examples
    --------
    >>> npc = Actor("npc-0", "npc", "npc", (1, 1), life=5, max_life=6, bag=Bag(),
    ...             notebook=NoteBook("npc-0"), natural="fist")
    >>> npc.legal_actions([Compass.N, Compass.E], dropped_here=True)
    ('move:N', 'move:E', 'explore', 'pick_up', 'hide', 'wait')
    >>> npc.phase = Phase.ENCOUNTER
    >>> npc.legal_actions([Compass.N], dropped_here=False)
    ('attack', 'retreat')
    >>> obs = npc.observe(3, FIGHT_ACTIONS)
    >>> obs.actor, obs.life, obs.wounds, obs.legal_actions
    ('npc-0', 5, 1, ('attack', 'retreat'))
    """

    id: str
    side: str
    character: str
    position: Position
    life: int
    max_life: int
    bag: Bag
    notebook: NoteBook
    natural: str
    phase: Phase = Phase.ACTION
    stealth: bool = False
    known_rooms: list[Position] = field(default_factory=list)
    signals: list[tuple[Compass, int]] = field(default_factory=list)
    flags: dict[str, bool] = field(default_factory=dict)
    death_turn: int | None = None
    death_step: int | None = None

    @property
    def alive(self) -> bool:
        return self.phase is not Phase.FINISHED

    @property
    def uses_items(self) -> bool:
        return self.side == "npc"

    def remember_room(self, pos: Position) -> None:
        if pos not in self.known_rooms:
            self.known_rooms.append(pos)

    def legal_actions(self, moves: list[Compass], dropped_here: bool) -> tuple[str, ...]:
        """What this actor may do now (its own state and room only)."""
        if self.phase is Phase.ENCOUNTER:
            return FIGHT_ACTIONS
        acts = [f"move:{d.name}" for d in moves]
        if self.uses_items:
            acts.append("explore")
            if dropped_here:
                acts.append("pick_up")
            b = self.bag
            bal = b.balance
            for item in sorted(b.as_dict()):
                if item in (b.weapon, b.armour, b.attachment):
                    continue
                fits = item in bal.attachments and bal.attachments[item].fits == b.weapon
                if item in bal.weapons or item in bal.armour or fits:
                    acts.append(f"equip:{item}")
            gun = bal.weapons.get(b.weapon) if b.weapon else None
            if gun and gun.ammo and b.loaded < gun.magazine and b.count(gun.ammo):
                acts.append("reload")
        if not self.stealth:
            acts.append("hide")
        acts.append("wait")
        return tuple(acts)

    def observe(self, turn: int, legal: tuple[str, ...]) -> Observation:
        """The observation a policy decides from (own body and own notebook only)."""
        b = self.bag
        return Observation.build(
            self.id,
            turn,
            self.notebook,
            position=self.position,
            life=self.life,
            wounds=self.max_life - self.life,
            stealth=self.stealth,
            weapon=b.weapon,
            armour=b.armour,
            ammo=b.loaded,
            bag=b.as_dict(),
            known_rooms=self.known_rooms,
            signals=self.signals,
            legal_actions=legal,
        )

    def snapshot(self) -> dict:
        """Plain per-step state (``--snapshots``)."""
        return {
            "id": self.id,
            "position": list(self.position),
            "life": self.life,
            "phase": self.phase.value,
            "stealth": self.stealth,
            "weapon": self.bag.weapon,
            "ammo": self.bag.loaded,
            "bag": self.bag.as_dict(),
        }
