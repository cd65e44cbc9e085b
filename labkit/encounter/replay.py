"""Replay and playback of simulation traces (SPEC E6).

* :func:`replay` re-runs a format-2 or format-3 trace from its settings and seeds and compares
  the new event stream with the stored one (seed: ``AssertSameEvents``). It returns the first
  :class:`Divergence` — index, expected (stored) event, actual (re-run) event; ``None`` for a
  missing event when one stream is shorter — or ``None`` when both agree to the last event.
* :func:`playback` walks a **format-3** trace step by step without running a rule: it starts
  from the stored initial map and applies the events of each step to a board of actors, loot,
  corpses and the sounds of that step, yielding one :class:`Frame` per step (frame 0 = spawn).
* :func:`frame_svg` draws a frame on the room map as a small SVG (no matplotlib), used by
  :class:`~labkit.encounter.records.trace.SimulationTrace`'s notebook display.

Examples
--------
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> from labkit.encounter.sim.session import GameSession
>>> t = GameSession(SimulationSettings(seed=2, max_steps=80)).run()
>>> replay(t) is None
True
>>> frames = list(playback(t))
>>> len(frames) == t.steps + 1, frames[0].step
(True, 0)
"""

from __future__ import annotations

import copy
import html
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from labkit.encounter.records.trace import SimulationTrace, TraceError

__all__ = ["Divergence", "replay", "Frame", "playback", "frame_svg"]


@dataclass(frozen=True)
class Divergence:
    """Where a re-run first differs from a trace.

    ``field`` is ``"events"`` for an event stream that differs (``index`` = the first event,
    ``expected`` = stored, ``actual`` = re-run), or the name of a summary field the trace claims
    (``"winner"``, ``"end_reason"``, ``"survivors"``, ``"steps"``, ``"turns"``, ``"map"``,
    ``"snapshots"``, ``"entropy"``) with the stored and re-run values (``index`` is -1).
    """

    index: int
    expected: Any
    actual: Any
    field: str = "events"

    def __str__(self) -> str:
        if self.field != "events":
            return (
                f"the trace's {self.field} differs from the re-run:\n"
                f"  expected: {_cap(self.expected)}\n  actual:   {_cap(self.actual)}"
            )
        return (
            f"first divergence at event {self.index}:\n"
            f"  expected: {_cap(_brief(self.expected))}\n  actual:   {_cap(_brief(self.actual))}"
        )


def _cap(value: Any, limit: int = 400) -> str:
    from labkit.io import shorten

    return value if isinstance(value, str) and len(value) <= limit else shorten(value, limit)


#: The summary fields a trace claims, checked against the re-run after its events.
CLAIMS = ("steps", "turns", "winner", "end_reason", "survivors", "map", "snapshots", "entropy")


def _brief(event: dict | None) -> str:
    """An event without the (long) observation of a decision, for messages."""
    if event is None or "observation" not in event.get("state", {}):
        return str(event)
    state = {k: v for k, v in event["state"].items() if k != "observation"}
    return str({**event, "state": {**state, "observation": "…"}})


def replay(
    trace: SimulationTrace, *, policies: Mapping[str, Any] | None = None
) -> Divergence | None:
    """Re-run ``trace`` from its settings and seeds; the first divergence, or ``None``.

    Parameters
    ----------
    trace : SimulationTrace
        Format 2 or 3.
    policies : mapping, optional
        Policy overrides as :class:`~labkit.encounter.sim.session.GameSession` takes them (to check
        what a changed AI would have done differently).

    Returns
    -------
    Divergence or None
        ``None`` when every event agrees.
    """
    from labkit.encounter.sim.session import GameSession

    game = GameSession(trace.settings, policies=policies)
    game.run(version=trace.version)
    again = SimulationTrace.from_session(game, version=trace.version)
    for i, (want, got) in enumerate(zip(trace.events, again.events)):
        if want != got:
            return Divergence(i, want, got)
    if len(trace.events) != len(again.events):
        i = min(len(trace.events), len(again.events))
        return Divergence(
            i,
            trace.events[i] if i < len(trace.events) else None,
            again.events[i] if i < len(again.events) else None,
        )
    for name in CLAIMS:
        want, got = _plain(getattr(trace, name)), _plain(getattr(again, name))
        if name == "snapshots" and want is None:
            continue  # a trace may leave the snapshots out
        if name == "map" and trace.version < 3:
            continue  # format 2 has no map
        if name == "entropy" and not want:
            continue  # older traces may lack it
        if want != got:
            return Divergence(-1, want, got, field=name)
    return None


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists), for comparing with a loaded file."""
    import json

    return json.loads(json.dumps(value)) if value is not None else None


@dataclass
class Frame:
    """The board after one step of a played-back game."""

    step: int
    turn: int
    actors: dict[str, dict]  # id -> {position, life, alive, side, stealth}
    loot: dict[str, dict[str, int]]  # room id -> items
    dropped: dict[str, dict[str, int]]
    corpses: list[tuple[str, tuple[int, int]]]
    sounds: list[tuple[int, int, int]]  # (x, y, level) made during this step
    events: list[dict] = field(default_factory=list)
    fighting: tuple[str, ...] = ()  # sides A and B of the open (or last) encounter


def _take(store: dict[str, dict[str, int]], rid: str, items: dict[str, int], sign: int) -> None:
    room = store.setdefault(rid, {})
    for item, n in items.items():
        room[item] = room.get(item, 0) + sign * n
        if room[item] == 0:
            del room[item]
    if not room:
        del store[rid]


def _apply(board: Frame, e: dict) -> None:
    s, a, cat = e["state"], e["actor"], e["category"]
    if cat == "spawn":
        board.actors[a] = {"position": tuple(s["position"]), "life": s["life"], "alive": True,
                           "side": s["side"], "stealth": False}  # fmt: skip
    elif cat == "move":
        board.actors[a].update(position=tuple(s["to"]), stealth=False)
    elif cat == "hide":
        board.actors[a]["stealth"] = True
    elif cat == "explore":
        _take(board.loot, "{},{}".format(*s["room"]), s["found"], -1)
    elif cat == "pickup":
        _take(board.dropped, "{},{}".format(*s["room"]), s["taken"], -1)
    elif cat == "fight":
        # Both sides are seen once they have fought a round (not when the encounter opens).
        for x, life in zip(board.fighting, s["life"]):
            board.actors[x].update(life=life, stealth=False)
    elif cat == "death":
        board.actors[a].update(alive=False, life=min(board.actors[a]["life"], 0))
        pos = tuple(s["position"])
        board.corpses.append((a, pos))
        _take(board.dropped, "{},{}".format(*pos), s["drops"], +1)
    elif cat == "sound":
        board.sounds.extend(tuple(x[:3]) for x in s["sources"])
    if cat == "encounter":
        board.fighting = (s["a"], s["b"])


def playback(trace: SimulationTrace) -> Iterator[Frame]:
    """Yield the board after every step of a format-3 trace (frame 0: after spawning).

    Raises
    ------
    TraceError
        For a format-2 trace (it has neither the map nor the step of each event), or an event
        whose contents do not fit its category (a hand-edited trace); the error names it.
    """
    if trace.version < 3 or trace.map is None:
        raise TraceError("playback needs a format-3 trace (map and step per event); "
                         "re-run it with replay() instead", pointer="/version",
                         value=trace.version)  # fmt: skip
    board = Frame(0, 1, {}, copy.deepcopy(trace.map["loot"]),
                  copy.deepcopy(trace.map.get("dropped_loot", {})), [], [])  # fmt: skip
    events = trace.events
    i = 0
    for step in range(trace.steps + 1):
        board.step, board.sounds, board.events = step, [], []
        while i < len(events) and events[i]["step"] == step:
            try:
                _apply(board, events[i])
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                # The loader checks each event's envelope, not every category's contents.
                raise TraceError(
                    f"event cannot be played back ({type(exc).__name__}: {exc})",
                    pointer=f"/events/{i}",
                    value=events[i],
                ) from None
            board.events.append(events[i])
            board.turn = events[i]["turn"]
            i += 1
        yield Frame(step, board.turn, copy.deepcopy(board.actors),
                    copy.deepcopy(board.loot), copy.deepcopy(board.dropped),
                    list(board.corpses), list(board.sounds), list(board.events),
                    board.fighting)  # fmt: skip


KIND_COLOURS = {"hall": "#e8e4da", "store": "#d9e8d0", "armory": "#f0d9b5",
                "cellar": "#cfd6e0", "ward": "#eadbe8"}  # fmt: skip
SIDE_COLOURS = {"npc": "#1f77b4", "monster": "#d62728"}


def actor_spots(frame: Frame) -> dict[str, tuple[float, float]]:
    """Where each living actor is drawn, in room units from the map's top-left corner.

    Up to four actors share a room side by side (two columns, two rows), in actor order.
    """
    placed: dict[tuple[int, int], int] = {}
    out = {}
    for aid, st in frame.actors.items():
        if not st["alive"]:
            continue
        x, y = st["position"]
        k = placed.get((x, y), 0)
        placed[(x, y)] = k + 1
        out[aid] = (x + 0.3 + 0.4 * (k % 2), y + 0.35 + 0.3 * (k // 2 % 2))
    return out


def frame_svg(frame: Frame, the_map: dict, cell: int = 44) -> str:
    """One frame on the room map as SVG: rooms by kind, loot, corpses, sound reach, actors."""
    w, h = the_map["width"], the_map["height"]
    W, H = w * cell, h * cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="9">']  # fmt: skip
    for y, row in enumerate(the_map["kinds"]):
        for x, kind in enumerate(row):
            out.append(f'<rect x="{x * cell}" y="{y * cell}" width="{cell}" height="{cell}" '
                       f'fill="{KIND_COLOURS[kind]}" stroke="#888"><title>{x},{y} {kind}'
                       f'</title></rect>')  # fmt: skip
            n = sum(frame.loot.get(f"{x},{y}", {}).values())
            if n:
                out.append(f'<text x="{x * cell + 3}" y="{y * cell + 10}" fill="#7a5">'
                           f'loot {n}</text>')  # fmt: skip
    for sx, sy, level in frame.sounds:
        r = level - 1  # Chebyshev reach: a square of rooms
        side = (2 * r + 1) * cell
        out.append(f'<rect x="{(sx - r) * cell}" y="{(sy - r) * cell}" width="{side}" '
                   f'height="{side}" fill="#fc0" fill-opacity="0.15" stroke="#e90"/>')  # fmt: skip
    for _, (cx, cy) in frame.corpses:
        x0, y0 = cx * cell + cell * 0.2, cy * cell + cell * 0.2
        x1, y1 = x0 + cell * 0.6, y0 + cell * 0.6
        out.append(f'<path d="M{x0},{y0}L{x1},{y1}M{x1},{y0}L{x0},{y1}" stroke="#555" '
                   f'stroke-width="3"/>')  # fmt: skip
    for aid, (sx, sy) in actor_spots(frame).items():
        st = frame.actors[aid]
        cx, cy = sx * cell, sy * cell
        dash = ' stroke-dasharray="2,2"' if st["stealth"] else ""
        colour = SIDE_COLOURS[st["side"]]
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.16}" fill="{colour}"'
                   f' stroke="#000"{dash}><title>{html.escape(aid)} life {st["life"]}</title>'
                   f'</circle>')  # fmt: skip
    out.append("</svg>")
    return "".join(out)
