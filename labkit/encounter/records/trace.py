"""Simulation traces (rule E6): one game as a JSON file, formats 2 and 3.

A trace stores the settings (so :func:`~labkit.encounter.replay` can re-run the game),
the event list, total steps and turns, the winner and the end reason (``victory``,
``step_limit`` — not a victory, winner ``null`` —, ``mutual_death``; older files spell them
in UPPERCASE and are read as these), labkit's version and the
seed entropy, and with ``snapshots`` on the per-step actor states.

* **Format 2** (the seed's): events carry ``sequence``/``turn``/``actor``/``category``/``state``.
* **Format 3** (labkit's): adds the initial map (room kinds, loot, pool, spawn rooms) and a
  ``step`` on every event, so :func:`~labkit.encounter.records.replay.playback` shows an old game
  without running a rule.

Files are written atomically with :func:`labkit.io.save_json` (compact JSON, keys in a fixed
order, no wall-clock time or host detail: the same seeds and version give a byte-identical
file). :meth:`SimulationTrace.load` validates everything before building anything and raises
:class:`TraceError` naming the JSON pointer and the bad value. A format-2 file stays format 2
(nothing can invent its map without re-running the rules).

Limits: a file is at most :data:`MAX_BYTES`; the settings' own limits hold (at most 64 NPCs and
64 monsters, a 64 × 64 map, ``max_steps`` ≤ 10,000,000, seeds 0 … 2**63 − 1, a balance patch
within the balance file's limits), steps ≤ ``max_steps``, loot counts ≤ the balance's
``MAX_STOCK``, snapshots present exactly when the settings keep them. Replaying costs what
playing the game costs: O(steps × actors) time, O(events) memory. ``replay`` checks every claim
(events, steps, turns, winner, end reason, survivors, the initial map, snapshots, entropy).

Examples
--------
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> from labkit.encounter.sim.session import GameSession
>>> t = GameSession(SimulationSettings(seed=4, max_steps=60)).run()
>>> t.version, t.end_reason in ("victory", "step_limit"), t.events[0]["category"]
(3, True, 'spawn')
>>> SimulationTrace.from_dict(t.to_dict()) == t
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import labkit
from labkit.encounter.records.journal import CATEGORIES, events_html
from labkit.encounter.rules.balance import MAX_STOCK
from labkit.encounter.sim.room_map import ROOM_KINDS
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.status import END_REASONS, EndReason
from labkit.io import FormatError, as_int, check, check_header, dumps, load_json, pointer, save_json
from labkit.io import field as get
from labkit.rng import entropy

__all__ = ["TraceError", "SimulationTrace", "FORMAT", "VERSIONS"]

FORMAT = "labkit.encounter.trace"
VERSIONS = (2, 3)
#: Largest trace file read (a 10,000-step game with snapshots is a few megabytes).
MAX_BYTES = 256 * 1024 * 1024


class TraceError(FormatError):
    """A trace file that cannot be read, names the JSON pointer and the bad value."""


@dataclass
class SimulationTrace:
    """One game: settings, events, outcome, and (format 3) the initial map.

    Examples
    --------
    >>> from labkit.encounter import simulate
    >>> t = simulate(SimulationSettings(seed=2, max_steps=30))
    >>> back = SimulationTrace.from_dict(t.to_dict())
    >>> back.events == t.events, back.end_reason == t.end_reason
    (True, True)
    """

    settings: SimulationSettings
    events: list[dict]
    steps: int
    turns: int
    winner: str | None
    end_reason: EndReason
    survivors: list[str]
    version: int = 3
    map: dict | None = None
    snapshots: list | None = None
    labkit: str = labkit.__version__
    entropy: dict = field(default_factory=dict)

    @classmethod
    def from_session(cls, session: Any, version: int = 3) -> SimulationTrace:
        """The trace of a (finished or not) :class:`~labkit.encounter.sim.session.GameSession`."""
        check(version in VERSIONS, f"version must be one of {VERSIONS}", "/version", version,
              TraceError)  # fmt: skip
        s = session.settings
        events = [dict(e) for e in session.journal.events]
        if version == 2:
            for e in events:
                e.pop("step", None)
        return cls(
            settings=s,
            events=events,
            steps=session.steps,
            turns=session.turn,
            winner=session.winner,
            end_reason=session.end_reason or EndReason.STEP_LIMIT,
            survivors=[a.id for a in session.living()],
            version=version,
            map=session.initial_map if version >= 3 else None,
            snapshots=session.snapshots,
            entropy={"map": entropy(s.map_seed), "process": entropy(s.seed)},
        )

    # -- JSON -----------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": self.version,
            "labkit": self.labkit,
            "entropy": self.entropy,
            "settings": self.settings.to_dict(),
            "steps": self.steps,
            "turns": self.turns,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "survivors": list(self.survivors),
        }
        if self.map is not None:
            doc["map"] = self.map
        doc["events"] = self.events
        if self.snapshots is not None:
            doc["snapshots"] = self.snapshots
        return doc

    def to_json(self) -> str:
        """The exact text :meth:`save` writes."""
        return dumps(self.to_dict(), indent=None)

    def save(self, path: str | os.PathLike) -> None:
        """Write atomically (a crash never leaves half a trace)."""
        save_json(path, self.to_dict(), format=FORMAT, version=self.version, indent=None)

    @classmethod
    def load(cls, path: str | os.PathLike) -> SimulationTrace:
        """Read and validate a trace file (format 2 or 3)."""
        doc = load_json(path, format=FORMAT, error=TraceError, max_bytes=MAX_BYTES)
        return cls.from_dict(doc, file=str(path))

    @classmethod
    def from_dict(cls, doc: Any, *, file: str | None = None) -> SimulationTrace:
        """Validate a parsed trace document and build it; raises :class:`TraceError`."""
        try:
            return _build(doc)
        except TraceError as exc:
            raise (exc.with_file(file) if file else exc) from None

    # -- reading --------------------------------------------------------------------------------
    def select(self, category: str | None = None, actor: str | None = None) -> list[dict]:
        """Events of one category and/or actor."""
        return [
            e
            for e in self.events
            if (category is None or e["category"] == category)
            and (actor is None or e["actor"] == actor)
        ]

    def summary(self) -> dict:
        """Plain numbers: outcome, steps, turns, deaths, fights."""
        return {
            "winner": self.winner,
            "end_reason": self.end_reason,
            "steps": self.steps,
            "turns": self.turns,
            "events": len(self.events),
            "encounters": len(self.select("encounter")),
            "deaths": [e["actor"] for e in self.select("death")],
            "survivors": list(self.survivors),
        }

    def _repr_html_(self) -> str:
        from html import escape

        s = self.settings
        survivors = ", ".join(self.survivors) or "none"
        head = (
            f"<b>SimulationTrace</b> format {self.version} · labkit {escape(str(self.labkit))} · "
            f"map seed {s.map_seed}, seed {s.seed} · {s.width}×{s.height} rooms, "
            f"{s.npcs} NPCs vs {s.monsters} monsters, difficulty {list(s.difficulty)}<br>"
            f"<b>{escape(str(self.end_reason))}</b> winner: {escape(str(self.winner))} · "
            f"{self.steps} steps, {self.turns} turns, {len(self.events)} events · survivors: "
            f"{escape(survivors)}"
        )
        picture = ""
        if self.map is not None:
            from labkit.encounter.draw_sim import final_state_svg

            try:
                picture = f"<div>final state</div>{final_state_svg(self)}"
            except TraceError as exc:  # a hand-edited trace: show the rest, say why not this
                picture = f"<div>no final state: {escape(str(exc))}</div>"
        return f"<div>{head}{picture}<details><summary>events</summary>" \
               f"{events_html(self.events)}</details></div>"  # fmt: skip


def _build(doc: Any) -> SimulationTrace:
    doc = check_header(doc, format=FORMAT, versions=None, error=TraceError)
    version = get(doc, "version", int, "", TraceError)
    check(version in VERSIONS, f"unsupported version, this labkit reads {list(VERSIONS)}",
          "/version", version, TraceError)  # fmt: skip
    s = SimulationSettings.from_dict(get(doc, "settings", dict, "", TraceError),
                                     at="/settings", error=TraceError)  # fmt: skip
    steps = as_int(get(doc, "steps", int, "", TraceError), "/steps", 0, s.max_steps, TraceError)
    turns = as_int(get(doc, "turns", int, "", TraceError), "/turns", 1, None, TraceError)
    winner = get(doc, "winner", (str, type(None)), "", TraceError)
    check(winner in (None, "npc", "monster"), "must be npc, monster or null", "/winner",
          winner, TraceError)  # fmt: skip
    # files written before the statuses were one StrEnum spell the reasons in UPPERCASE
    reason = get(doc, "end_reason", str, "", TraceError)
    reason = reason.lower() if reason.upper() == reason else reason
    check(reason in END_REASONS, f"must be one of {list(END_REASONS)}", "/end_reason", reason,
          TraceError)  # fmt: skip
    reason = EndReason(reason)
    check((reason == EndReason.VICTORY) == (winner is not None),
          "only a victory has a winner", "/winner", winner, TraceError)  # fmt: skip
    ids = s.actor_ids
    survivors = get(doc, "survivors", list, "", TraceError)
    for i, a in enumerate(survivors):
        check(a in ids, "unknown actor", pointer("survivors", i), a, TraceError)
    ent = get(doc, "entropy", dict, "", TraceError)
    labkit_version = get(doc, "labkit", str, "", TraceError)
    events = get(doc, "events", list, "", TraceError)
    last_step = 0
    for i, e in enumerate(events):
        at = pointer("events", i)
        check(isinstance(e, dict), "must be an object", at, e, TraceError)
        check(get(e, "sequence", int, at, TraceError) == i, f"must be {i} (events in order)",
              at + "/sequence", e["sequence"], TraceError)  # fmt: skip
        as_int(get(e, "turn", int, at, TraceError), at + "/turn", 1, turns, TraceError)
        actor = get(e, "actor", (str, type(None)), at, TraceError)
        check(actor is None or actor in ids, "unknown actor", at + "/actor", actor, TraceError)
        cat = get(e, "category", str, at, TraceError)
        check(cat in CATEGORIES, "unknown category", at + "/category", cat, TraceError)
        state = get(e, "state", dict, at, TraceError)
        if cat == "end" and isinstance(state.get("reason"), str) and state["reason"].isupper():
            state["reason"] = state["reason"].lower()  # older spelling, as /end_reason above
        if version >= 3:
            step = as_int(get(e, "step", int, at, TraceError), at + "/step", last_step, steps,
                          TraceError)  # fmt: skip
            last_step = step
    the_map = None
    if version >= 3:
        the_map = _check_map(get(doc, "map", dict, "", TraceError), s)
    snaps = get(doc, "snapshots", list, "", TraceError, default=None)
    check((snaps is not None) == s.snapshots,
          "must be present exactly when /settings/snapshots is true", "/snapshots",
          None if snaps is None else len(snaps), TraceError)  # fmt: skip
    if snaps is not None:
        check(len(snaps) == steps, f"must hold one entry per step ({steps})", "/snapshots",
              len(snaps), TraceError)  # fmt: skip
    return SimulationTrace(s, events, steps, turns, winner, reason, list(survivors), version,
                           the_map, snaps, labkit_version, ent)  # fmt: skip


def _check_map(m: dict, s: SimulationSettings) -> dict:
    for key, want in (("width", s.width), ("height", s.height)):
        got = get(m, key, int, "/map", TraceError)
        check(got == want, f"must equal the settings' {key} ({want})", f"/map/{key}", got,
              TraceError)  # fmt: skip
    kinds = get(m, "kinds", list, "/map", TraceError)
    check(len(kinds) == s.height, f"must hold {s.height} rows", "/map/kinds", len(kinds),
          TraceError)  # fmt: skip
    for y, row in enumerate(kinds):
        at = pointer("map", "kinds", y)
        check(isinstance(row, list) and len(row) == s.width, f"must hold {s.width} rooms", at,
              row, TraceError)  # fmt: skip
        for x, k in enumerate(row):
            check(k in ROOM_KINDS, "unknown room kind", at + pointer(x), k, TraceError)
    for key in ("loot", "dropped_loot"):
        for rid, items in get(m, key, dict, "/map", TraceError).items():
            at = pointer("map", key, rid)
            check(isinstance(items, dict), "must map items to counts", at, items, TraceError)
            for item, n in items.items():
                as_int(n, at + pointer(item), 1, MAX_STOCK, TraceError)
    spawns = get(m, "spawns", dict, "/map", TraceError)
    for aid in s.actor_ids:
        p = get(spawns, aid, list, "/map/spawns", TraceError)
        ok = len(p) == 2 and all(type(v) is int for v in p)
        ok = ok and 0 <= p[0] < s.width and 0 <= p[1] < s.height
        check(ok, "must be [x, y] inside the map", pointer("map", "spawns", aid), p, TraceError)
    get(m, "pool", dict, "/map", TraceError)
    return m
