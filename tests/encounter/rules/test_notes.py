"""Knowledge: visibility window, pruning, captured intel, and observations that cannot leak."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from labkit.encounter.rules.notes import CAPACITY, NoteBook, NoteKind, Observation
from labkit.encounter.rules.sound import Compass


def test_five_kinds():
    assert {k.value for k in NoteKind} == {"event", "discovery", "signal", "visit", "threat"}


def test_visible_entries_are_the_last_five_turns():
    book = NoteBook("a")
    for t in range(10):
        book.add(NoteKind.EVENT, turn=t)
    assert [e.turn for e in book.visible(9)] == [5, 6, 7, 8, 9]
    assert [e.turn for e in book.visible(4)] == [0, 1, 2, 3, 4]  # later notes are not yet made
    book.add(NoteKind.THREAT, turn=8, position=(1, 2))
    assert [e.turn for e in book.visible(9, kind=NoteKind.THREAT)] == [8]


def test_prune_drops_expired_then_caps_keeping_the_newest():
    book = NoteBook("a")
    book.add("visit", turn=1)
    for i in range(CAPACITY + 40):
        book.add("signal", turn=10 + i % 2, strength=i)
    book.prune(turn=11)
    assert len(book) == CAPACITY
    assert all(e.turn >= 10 for e in book)
    kept = [e.strength for e in book]
    assert kept == sorted(kept)  # insertion order kept
    assert set(range(1, CAPACITY + 40, 2)) <= set(kept)  # every turn-11 note survives


def test_import_visible_marks_source_and_skips_duplicates():
    mine, theirs = NoteBook("a"), NoteBook("b")
    theirs.add(NoteKind.THREAT, turn=3, position=(4, 4), text="monster")
    theirs.add(NoteKind.VISIT, turn=8, position=(0, 1))
    added = mine.import_visible(theirs, turn=9)
    assert [(n.kind, n.source, n.turn, n.source_turn) for n in added] == [
        (NoteKind.VISIT, "b", 9, 8)
    ]
    assert mine.import_visible(theirs, turn=9) == []
    assert theirs.entries[1].source is None  # the original is untouched
    # A body found later: what the dead actor could see at death, learned now.
    late = NoteBook("c").import_visible(theirs, turn=20, as_of=4)
    assert [(n.kind, n.turn, n.source_turn) for n in late] == [(NoteKind.THREAT, 20, 3)]
    assert mine.visible(9)[-1].source == "b"


positions = st.tuples(st.integers(0, 20), st.integers(0, 20))


@given(
    own=positions,
    others=st.lists(positions, min_size=1, max_size=5),
    noted=st.lists(st.tuples(st.integers(0, 12), positions), max_size=20),
    rooms=st.lists(positions, max_size=5),
    turn=st.integers(0, 12),
)
def test_observation_never_holds_other_actors_true_positions(own, others, noted, rooms, turn):
    book = NoteBook("me")
    for t, p in noted:
        book.add(NoteKind.THREAT, turn=t, position=p)
    obs = Observation.build(
        "me", turn, book, position=own, life=3, bag={"bullet": 2}, known_rooms=rooms,
        signals=[(Compass.NE, 2)], legal_actions=["move", "hide"],
    )  # fmt: skip
    # Whatever it mentions comes from the actor itself or its own notes, visible ones only.
    visible = {n.position for n in book.visible(turn)}
    assert obs.positions() <= {own, *rooms} | visible
    leaked = set(others) - ({own, *rooms} | visible)
    assert not (leaked & obs.positions())
    text = repr(obs.to_dict())
    assert "others" not in text and obs.to_dict()["bag"] == {"bullet": 2}
    assert all(n.turn > turn - 5 for n in obs.notes)
