"""The world journal (seed: ``ActionJournal``): structured events, apart from player messages.

Each event is a plain JSON-ready dict ``{sequence, step, turn, actor, category, state}``:
``sequence`` orders every event of the game (0, 1, 2 …), ``turn`` is the game turn (every living
actor acted once), ``step`` the simulator's advance that produced it — three clocks that are
never interchangeable (one step may leave many events). Decision events carry the observation
the policy decided from, so a choice can be judged on what the actor knew then.

Player-facing messages ("npc-1 hears something to the NE") go to :attr:`ActionJournal.messages`,
never into the events: events are for search and comparison, messages for people.

Categories (``state`` keys in brackets): ``spawn`` [position, life, side], ``visit`` [position],
``decision`` [action, observation], ``illegal`` [action], ``move`` [from, to, cause],
``explore`` [room, found], ``pickup`` [room, taken], ``equip`` [item, ok], ``reload`` [loaded],
``hide`` [], ``wait`` [], ``encounter`` [a, b, cause, room], ``fight`` [round, actions, outcome,
first, life, ammo], ``encounter_end`` [outcome], ``death`` [position, drops, by], ``sound``
[sources], ``signal`` [direction, strength], ``end`` [winner, reason, survivors].

Examples
--------
>>> j = ActionJournal()
>>> _ = j.record(1, 1, "npc-0", "move", **{"from": [0, 0], "to": [1, 0], "cause": "policy"})
>>> j.say("npc-0", "You walk east.")
>>> j.events[0]["category"], len(j.messages)
('move', 1)
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

__all__ = ["ActionJournal", "CATEGORIES"]

CATEGORIES = frozenset(
    "spawn visit decision illegal move explore pickup equip reload hide wait encounter fight "
    "encounter_end death sound signal end".split()
)


class ActionJournal:
    """Ordered structured events plus player-facing messages.

    Examples
    --------
    >>> j = ActionJournal()
    >>> event = j.record(1, 1, "npc-0", "move", to=[1, 0])
    >>> event["sequence"], event["state"], len(j.events)
    (0, {'to': [1, 0]}, 1)
    """

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.messages: list[tuple[int, str | None, str]] = []  # (sequence, actor, text)

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.events)

    def record(
        self, step: int, turn: int, actor: str | None, category: str, **state: Any
    ) -> dict[str, Any]:
        """Append one event and return it."""
        event = {
            "sequence": len(self.events),
            "step": step,
            "turn": turn,
            "actor": actor,
            "category": category,
            "state": state,
        }
        self.events.append(event)
        return event

    def say(self, actor: str | None, text: str) -> None:
        """A message for the player, kept apart from the events."""
        self.messages.append((len(self.events), actor, text))

    def select(self, category: str | None = None, actor: str | None = None) -> list[dict[str, Any]]:
        """Events of one category and/or one actor, in order."""
        return [
            e
            for e in self.events
            if (category is None or e["category"] == category)
            and (actor is None or e["actor"] == actor)
        ]

    def decisions(self, actor: str | None = None) -> list[dict[str, Any]]:
        """Decision events (each with the observation it was made from)."""
        return self.select("decision", actor)

    def _repr_html_(self) -> str:
        return events_html(self.events)


def describe(event: dict[str, Any]) -> str:
    """One event in a short line of words (for tables and the viewer).

    Examples
    --------
    >>> describe({"category": "decision", "state": {"action": "explore"}})
    'decides explore'
    """
    s = event["state"]
    cat = event["category"]
    if cat == "decision":
        return f"decides {s['action']}"
    if cat == "move":
        return f"moves {tuple(s['from'])} → {tuple(s['to'])} ({s['cause']})"
    if cat == "fight":
        return f"round {s['round']}: {'/'.join(s['actions'])} → {s['outcome']} life {s['life']}"
    if cat == "encounter":
        return f"{s['a']} meets {s['b']} at {tuple(s['room'])} ({s['cause']})"
    if cat == "sound":
        return "sounds " + ", ".join(f"{tuple(x[:2])}:{x[2]}" for x in s["sources"])
    if cat == "signal":
        return f"hears {s['direction']} strength {s['strength']}"
    parts = ", ".join(f"{k}={v}" for k, v in s.items())
    return f"{cat} {parts}".strip()


def _safe_describe(event: dict[str, Any]) -> str:
    """:func:`describe`, or the raw state when a (hand-edited) event lacks what it needs."""
    try:
        return describe(event)
    except (KeyError, IndexError, TypeError, ValueError):
        return f"{event.get('category')} {event.get('state')}"


def events_html(events: list[dict[str, Any]], limit: int = 40) -> str:
    """An HTML table of the first ``limit`` events."""
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(str(v))}</td>"
            for v in (
                e["sequence"],
                e.get("step", ""),
                e["turn"],
                e["actor"] or "",
                e["category"],
                _safe_describe(e),
            )  # fmt: skip
        )
        + "</tr>"
        for e in events[:limit]
    )
    more = f"<p>… {len(events) - limit} more events</p>" if len(events) > limit else ""
    head = "".join(f"<th>{h}</th>" for h in ("seq", "step", "turn", "actor", "category", "what"))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{more}"
