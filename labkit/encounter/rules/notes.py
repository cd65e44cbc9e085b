"""Knowledge (rule E4): each actor's ``NoteBook`` and the observation a policy may read.

A notebook separates what an actor knows from the world's truth: notes can be missing or stale.
Entries have a kind (event, discovery, signal, visit, threat), the turn they were made, and
optionally a position, a direction and a signal strength.

Decisions the rules leave open, recorded here:

* **Visible** at turn ``t`` means made during the last 5 turns: ``t − 5 < entry.turn ≤ t``
  (the current turn and the four before). Entries "from the future" are not visible.
* **Pruning** drops every entry that is no longer visible, then keeps the newest 150 (ties
  broken by insertion order). Adding never prunes by itself; the session prunes once per turn,
  so a burst of notes within one turn is never lost before it is read.
* **Import** (captured intel) copies the entries visible to the other actor at ``as_of`` (default:
  now), marked with ``source`` = that actor. They are re-stamped with the importing turn — the
  importer learns them now, and its visibility window counts from then — and keep the original
  turn in ``source_turn``. Entries already imported are not duplicated.
* :class:`Observation` is the only thing a policy reads. It is built from the actor's own state
  and notebook, never from the world, so no other actor's true position can leak into it:
  :meth:`Observation.positions` lists every position it mentions for tests to check.

Examples
--------
>>> book = NoteBook("npc-1")
>>> _ = book.add(NoteKind.SIGNAL, turn=3, position=(4, 2), direction=Compass.NE, strength=2)
>>> _ = book.add(NoteKind.VISIT, turn=9, position=(1, 1))
>>> [e.kind.name for e in book.visible(turn=9)]
['VISIT']
>>> book.prune(turn=9); len(book)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from labkit._status import Status
from labkit.encounter.rules.sound import Compass

__all__ = ["NoteKind", "Note", "NoteBook", "Observation", "VISIBLE_TURNS", "CAPACITY"]

VISIBLE_TURNS = 5
CAPACITY = 150

Position = tuple[int, int]


class NoteKind(Status):
    """What a note records (seed: NoteKind).

    Examples
    --------
    >>> NoteKind.SIGNAL.value, NoteKind("event") is NoteKind.EVENT
    ('signal', True)
    """

    EVENT = "event"
    DISCOVERY = "discovery"
    SIGNAL = "signal"
    VISIT = "visit"
    THREAT = "threat"


@dataclass(frozen=True)
class Note:
    """One entry of a notebook. ``source`` names the actor it was captured from, if any."""

    kind: NoteKind
    turn: int
    position: Position | None = None
    direction: Compass | None = None
    strength: int | None = None
    text: str = ""
    source: str | None = None
    source_turn: int | None = None

    def to_dict(self) -> dict:
        """Plain JSON form (for journals and observations)."""
        return {
            "kind": self.kind.value,
            "turn": self.turn,
            "position": None if self.position is None else list(self.position),
            "direction": None if self.direction is None else self.direction.name,
            "strength": self.strength,
            "text": self.text,
            "source": self.source,
            "source_turn": self.source_turn,
        }


@dataclass
class NoteBook:
    """An actor's personal notes (seed: NoteBook; VisibleEntries, Prune, ImportVisible).

    Examples
    --------
    A note stays visible for 5 turns; a captured notebook hands over only what is still visible:

    >>> mine = NoteBook("npc-0")
    >>> _ = mine.add("visit", turn=1, position=(0, 0))
    >>> _ = mine.add("signal", turn=4, direction=Compass.N, strength=2)
    >>> [n.kind.value for n in mine.visible(5)], [n.kind.value for n in mine.visible(6)]
    (['visit', 'signal'], ['signal'])
    >>> theirs = NoteBook("npc-1")
    >>> [(n.turn, n.source, n.source_turn) for n in theirs.import_visible(mine, turn=6)]
    [(6, 'npc-0', 4)]
    >>> mine.prune(6)  # drops the expired visit
    >>> len(mine)
    1
    """

    owner: str
    entries: list[Note] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Note]:
        return iter(self.entries)

    def add(
        self,
        kind: NoteKind | str,
        turn: int,
        position: Position | None = None,
        direction: Compass | None = None,
        strength: int | None = None,
        text: str = "",
    ) -> Note:
        """Record a note and return it."""
        note = Note(
            NoteKind(kind),
            int(turn),
            None if position is None else (int(position[0]), int(position[1])),
            None if direction is None else Compass(direction),
            None if strength is None else int(strength),
            text,
        )
        self.entries.append(note)
        return note

    @staticmethod
    def is_visible(note: Note, turn: int, window: int = VISIBLE_TURNS) -> bool:
        return turn - window < note.turn <= turn

    def visible(self, turn: int, kind: NoteKind | None = None) -> list[Note]:
        """Entries made during the last 5 turns (optionally of one kind), oldest first."""
        return [
            e
            for e in self.entries
            if self.is_visible(e, turn) and (kind is None or e.kind == NoteKind(kind))
        ]

    def prune(self, turn: int, capacity: int = CAPACITY) -> None:
        """Drop expired entries, then keep the newest ``capacity`` (150)."""
        kept = [e for e in self.entries if self.is_visible(e, turn)]
        if len(kept) > capacity:
            # Stable sort by turn: among equal turns, later insertions are newer.
            order = sorted(range(len(kept)), key=lambda i: (kept[i].turn, i))
            keep = set(order[-capacity:])
            kept = [e for i, e in enumerate(kept) if i in keep]
        self.entries = kept

    def import_visible(self, other: NoteBook, turn: int, *, as_of: int | None = None) -> list[Note]:
        """Copy the entries visible to ``other`` at ``as_of`` (default ``turn``) as captured intel.

        Returns the entries added, stamped with ``turn`` and keeping their original turn in
        ``source_turn``.
        """

        def key(e: Note) -> tuple:
            return (e.kind, e.source_turn, e.position, e.direction, e.strength, e.text)

        have = {key(e) for e in self.entries if e.source_turn is not None}
        added = []
        for e in other.visible(turn if as_of is None else as_of):
            origin = e.turn if e.source_turn is None else e.source_turn
            note = replace(e, turn=int(turn), source=e.source or other.owner, source_turn=origin)
            if key(note) in have:
                continue
            have.add(key(note))
            self.entries.append(note)
            added.append(note)
        return added


@dataclass(frozen=True)
class Observation:
    """Everything a policy may read when it decides (rule E4), built by :meth:`build`.

    Fields are plain values: the actor's own position, life, wounds, stealth, equipment and
    ammo, bag counts, visible notes, known rooms, the signals heard this turn and the legal
    actions. There is deliberately no field for any other actor.

    Examples
    --------
    >>> book = NoteBook("npc-0")
    >>> _ = book.add("discovery", turn=2, position=(1, 0), text="a shotgun")
    >>> obs = Observation.build("npc-0", 3, book, position=(1, 0), life=4, wounds=1,
    ...                         bag={"bullet": 2, "bandage": 0}, legal_actions=("wait",))
    >>> obs.bag, [n.text for n in obs.notes], obs.legal_actions
    ((('bullet', 2),), ['a shotgun'], ('wait',))
    """

    actor: str
    turn: int
    position: Position
    life: int
    wounds: int
    stealth: bool
    weapon: str | None
    armour: str | None
    ammo: int
    bag: tuple[tuple[str, int], ...]
    notes: tuple[Note, ...]
    known_rooms: tuple[Position, ...]
    signals: tuple[tuple[Compass, int], ...]
    legal_actions: tuple[str, ...]

    @classmethod
    def build(
        cls,
        actor: str,
        turn: int,
        notebook: NoteBook,
        *,
        position: Position,
        life: int,
        wounds: int = 0,
        stealth: bool = False,
        weapon: str | None = None,
        armour: str | None = None,
        ammo: int = 0,
        bag: dict[str, int] | None = None,
        known_rooms: Iterable[Position] = (),
        signals: Iterable[tuple[Compass, int]] = (),
        legal_actions: Iterable[str] = (),
    ) -> Observation:
        """Assemble an observation from the actor's own state and its notebook only.

        Signals carry a direction and a strength but no position: hearing tells where to look,
        not where the source is.
        """
        return cls(
            actor=actor,
            turn=int(turn),
            position=(int(position[0]), int(position[1])),
            life=int(life),
            wounds=int(wounds),
            stealth=bool(stealth),
            weapon=weapon,
            armour=armour,
            ammo=int(ammo),
            bag=tuple(sorted((k, int(v)) for k, v in (bag or {}).items() if v)),
            notes=tuple(notebook.visible(turn)),
            known_rooms=tuple((int(x), int(y)) for x, y in known_rooms),
            signals=tuple((Compass(d), int(s)) for d, s in signals),
            legal_actions=tuple(legal_actions),
        )

    def positions(self) -> set[Position]:
        """Every position this observation mentions (own, notes, known rooms)."""
        found = {self.position, *self.known_rooms}
        found.update(n.position for n in self.notes if n.position is not None)
        return found

    def to_dict(self) -> dict:
        """Plain JSON form, as a journal stores it beside a decision."""
        return {
            "actor": self.actor,
            "turn": self.turn,
            "position": list(self.position),
            "life": self.life,
            "wounds": self.wounds,
            "stealth": self.stealth,
            "weapon": self.weapon,
            "armour": self.armour,
            "ammo": self.ammo,
            "bag": dict(self.bag),
            "notes": [n.to_dict() for n in self.notes],
            "known_rooms": [list(p) for p in self.known_rooms],
            "signals": [[d.name, s] for d, s in self.signals],
            "legal_actions": list(self.legal_actions),
        }
