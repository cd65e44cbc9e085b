"""AI policies (rule E4): each decides from its own :class:`~labkit.encounter.Observation`.

A policy is any object with ``decide(observation) -> str`` returning one of the observation's
``legal_actions``; in an encounter those are ``attack`` and ``retreat``. A policy gets its own
random stream (``labkit.rng.stream(seed, f"policy/{actor}")``) and may keep memory built from
the observations it was shown — nothing else reaches it.

Policies shipped (:data:`POLICIES`, names used in settings and traces):

* ``scavenger`` (:class:`ScavengerPolicy`, the NPC default) — cautious: searches unexplored
  rooms, loots corpses, equips the best weapon, reloads, hides when it hears something loud,
  walks away from recent threats and retreats from a fight when wounded.
* ``hunter`` (:class:`HunterPolicy`, the monster default) — follows the strongest signal it
  heard, then the freshest signal or threat note, lies in ambush when a sound comes from its own
  room, and otherwise roams into rooms it does not know.
* ``random`` (:class:`RandomPolicy`) — uniform over the legal actions.
* :class:`ScriptedPolicy` — plays a given list (for tests).

Difficulty 0…3 sets the chance of a random slip (30 %, 15 %, 5 %, 0 %) and the life at which a
side retreats. Every ``decide`` draws exactly one uniform (the slip test) before anything else,
so its stream advances the same way whatever it chooses.

Examples
--------
>>> from labkit.encounter.rules.notes import NoteBook, Observation
>>> obs = Observation.build("npc-0", 1, NoteBook("npc-0"), position=(0, 0), life=3,
...                         legal_actions=("move:E", "explore", "wait"))
>>> ScavengerPolicy(level=3, rng=1).decide(obs)
'explore'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from labkit.encounter.rules.notes import NoteKind, Observation
from labkit.encounter.rules.sound import COMPASS_VECTORS, Compass
from labkit.encounter.sim.room_map import STEPS
from labkit.rng import RngLike, make_rng

__all__ = [
    "Policy",
    "ScavengerPolicy",
    "HunterPolicy",
    "RandomPolicy",
    "ScriptedPolicy",
    "POLICIES",
    "SLIP",
]

SLIP = (0.3, 0.15, 0.05, 0.0)
_UNIT = [tuple(map(float, v)) for v in COMPASS_VECTORS]
_UNIT_BY_NAME = {Compass(i).name: _UNIT[i] for i in range(8)}
WEAPON_RANK = ("revolver", "long_knife")


class Policy:
    """Base class: a seeded stream, the slip draw and the helpers the AIs share.

    Examples
    --------
    >>> sorted(POLICIES), issubclass(POLICIES["hunter"], Policy)
    (['hunter', 'random', 'scavenger'], True)
    """

    name = "policy"
    retreat_life = (0, 0, 0, 0)

    def __init__(self, level: int = 1, rng: RngLike = None) -> None:
        self.level = int(level)
        self.rng = make_rng(rng)

    def decide(self, obs: Observation) -> str:
        slip = self.rng.random() < SLIP[self.level]
        legal = obs.legal_actions
        if slip:
            return legal[int(self.rng.integers(len(legal)))]
        if "attack" in legal:
            return self.fight(obs)
        return self.act(obs)

    def fight(self, obs: Observation) -> str:
        return "retreat" if obs.life <= self.retreat_life[self.level] else "attack"

    def act(self, obs: Observation) -> str:  # pragma: no cover - subclasses decide
        return "wait"

    def pick(self, options: Sequence[str]) -> str:
        return options[int(self.rng.integers(len(options)))]

    @staticmethod
    def moves(obs: Observation) -> list[str]:
        return [a for a in obs.legal_actions if a.startswith("move:")]

    @staticmethod
    def target(obs: Observation, action: str) -> tuple[int, int]:
        dx, dy = STEPS[Compass[action[5:]]]
        return obs.position[0] + dx, obs.position[1] + dy

    @staticmethod
    def toward(moves: Iterable[str], direction: Compass, sign: float = 1.0) -> list[str]:
        """Moves ranked by how well they point along (sign=1) or away from (−1) ``direction``."""
        vx, vy = _UNIT[int(direction)]
        scored = []
        for m in moves:
            ux, uy = _UNIT_BY_NAME[m[5:]]
            scored.append((-sign * (ux * vx + uy * vy), m))
        return [m for _, m in sorted(scored)]

    @staticmethod
    def fresh_signal(obs: Observation) -> tuple[Compass, int] | None:
        """The loudest signal heard since the last decision, else the freshest signal note."""
        if obs.signals:
            return max(obs.signals, key=lambda s: s[1])
        notes = [
            (n.direction, n.strength or 0)
            for n in obs.notes
            if n.kind is NoteKind.SIGNAL and n.direction is not None
        ]
        return notes[-1] if notes else None


class ScavengerPolicy(Policy):
    """Cautious NPC: loot, arm, hide from noise, avoid known threats, retreat when hurt.

    Examples
    --------
    >>> ScavengerPolicy(rng=1).name
    'scavenger'
    """

    name = "scavenger"
    retreat_life = (0, 1, 1, 2)

    def __init__(self, level: int = 1, rng: RngLike = None) -> None:
        super().__init__(level, rng)
        self.explored: set[tuple[int, int]] = set()

    def fight(self, obs: Observation) -> str:
        if self.level >= 2 and obs.weapon is None and obs.wounds > 0:
            return "retreat"  # bare hands and already hurt: not worth it
        return super().fight(obs)

    def act(self, obs: Observation) -> str:
        legal = obs.legal_actions
        if "reload" in legal:
            return "reload"
        bag = dict(obs.bag)
        for item in (*WEAPON_RANK, "leather_coat", "silencer"):
            if f"equip:{item}" not in legal:
                continue
            if item == "revolver" and not bag.get("bullet"):
                continue  # an empty gun is worse than a knife
            if item == "long_knife" and obs.weapon == "revolver":
                continue
            return f"equip:{item}"
        if "pick_up" in legal:
            return "pick_up"
        if obs.position not in self.explored and "explore" in legal:
            self.explored.add(obs.position)
            return "explore"
        moves = self.moves(obs)
        heard = self.fresh_signal(obs)
        if heard and heard[1] >= 2 and self.level >= 1 and "hide" in legal:
            return "hide"
        if heard and heard[0] not in (Compass.HERE, Compass.NONE):
            moves = self.toward(moves, heard[0], sign=-1.0)[: max(1, len(moves) // 2)]
        threats = {n.position for n in obs.notes if n.kind is NoteKind.THREAT}
        safe = [m for m in moves if self.target(obs, m) not in threats] or moves
        fresh = [m for m in safe if self.target(obs, m) not in self.explored]
        if not safe:
            return "wait"
        return self.pick(fresh or safe)


class HunterPolicy(Policy):
    """Monster: chase the loudest signal, then fresh notes; ambush; roam unknown rooms.

    Examples
    --------
    >>> HunterPolicy(rng=1).name
    'hunter'
    """

    name = "hunter"
    retreat_life = (0, 0, 1, 1)

    def act(self, obs: Observation) -> str:
        legal = obs.legal_actions
        moves = self.moves(obs)
        heard = self.fresh_signal(obs)
        if heard is not None:
            direction = heard[0]
            if direction in (Compass.HERE, Compass.NONE):
                return "hide" if "hide" in legal else "wait"
            if moves:
                return self.toward(moves, direction)[0]
        threats = [
            n.position for n in obs.notes if n.kind is NoteKind.THREAT and n.position is not None
        ]
        if threats and moves:
            tx, ty = threats[-1]
            best = min(
                moves,
                key=lambda m: max(
                    abs(self.target(obs, m)[0] - tx), abs(self.target(obs, m)[1] - ty)
                ),
            )
            return best
        if self.level >= 2 and "hide" in legal and self.rng.random() < 0.3:
            return "hide"
        known = set(obs.known_rooms)
        fresh = [m for m in moves if self.target(obs, m) not in known]
        options = fresh or moves
        return self.pick(options) if options else "wait"


class RandomPolicy(Policy):
    """Uniform over the legal actions (a baseline).

    Examples
    --------
    >>> RandomPolicy(level=2, rng=1).name
    'random'
    """

    name = "random"

    def decide(self, obs: Observation) -> str:
        self.rng.random()  # keep the one-slip-draw contract
        return self.pick(obs.legal_actions)


class ScriptedPolicy:
    """Plays ``actions`` in order, then ``then`` (default ``wait``/``attack``); for tests.

    A scripted action that is not legal is still returned: the session journals it as
    ``illegal`` and the actor waits (or attacks, in a fight).

    Examples
    --------
    >>> p = ScriptedPolicy(["explore", "hide"])
    >>> p.name, list(p.script)
    ('scripted', ['explore', 'hide'])
    """

    name = "scripted"

    def __init__(self, actions: Iterable[str] = (), level: int = 0, rng: RngLike = None) -> None:
        self.script = list(actions)
        self.seen: list[Observation] = []

    def decide(self, obs: Observation) -> str:
        self.seen.append(obs)
        if self.script:
            return self.script.pop(0)
        return "attack" if "attack" in obs.legal_actions else "wait"


PolicyFactory = Callable[[int, np.random.Generator], object]

POLICIES: dict[str, PolicyFactory] = {
    "scavenger": ScavengerPolicy,
    "hunter": HunterPolicy,
    "random": RandomPolicy,
}
