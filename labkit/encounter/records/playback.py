"""Playback of format-3 simulation traces (rule E6): the board after every step, no rule run.

:func:`playback` starts from the stored initial map and applies the events of each step to a
board of actors, loot, corpses and the sounds of that step, yielding one :class:`PlaybackFrame`
per step (frame 0 = spawn). Drawing a frame is :mod:`labkit.encounter.draw_sim`'s job.

Examples
--------
>>> from labkit.encounter import GameSession, SimulationSettings
>>> t = GameSession(SimulationSettings(seed=2, max_steps=80)).run()
>>> frames = list(playback(t))
>>> len(frames) == t.steps + 1, frames[0].step
(True, 0)
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from labkit import _renamed
from labkit.encounter.records.trace import TraceError

if TYPE_CHECKING:
    from labkit.encounter.records.trace import SimulationTrace

__all__ = ["PlaybackFrame", "playback"]


@dataclass
class PlaybackFrame:
    """The board after one step of a played-back game.

    Examples
    --------
    >>> from labkit.encounter import simulate, SimulationSettings
    >>> last = list(playback(simulate(SimulationSettings(seed=1, max_steps=30))))[-1]
    >>> isinstance(last, PlaybackFrame), last.step
    (True, 30)
    """

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


def _apply(board: PlaybackFrame, e: dict) -> None:
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


def playback(trace: SimulationTrace) -> Iterator[PlaybackFrame]:
    """Yield the board after every step of a format-3 trace (frame 0: after spawning).

    Raises
    ------
    TraceError
        For a format-2 trace (it has neither the map nor the step of each event), or an event
        whose contents do not fit its category (a hand-edited trace); the error names it.

    Examples
    --------
    >>> from labkit.encounter import simulate, SimulationSettings
    >>> frames = list(playback(simulate(SimulationSettings(seed=1, max_steps=40))))
    >>> frames[0].step, sorted(frames[0].actors)[:2]
    (0, ['monster-0', 'npc-0'])
    """
    if trace.version < 3 or trace.map is None:
        raise TraceError("playback needs a format-3 trace (map and step per event); "
                         "re-run it with replay() instead", pointer="/version",
                         value=trace.version)  # fmt: skip
    board = PlaybackFrame(0, 1, {}, copy.deepcopy(trace.map["loot"]),
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
        yield PlaybackFrame(step, board.turn, copy.deepcopy(board.actors),
                    copy.deepcopy(board.loot), copy.deepcopy(board.dropped),
                    list(board.corpses), list(board.sounds), list(board.events),
                    board.fighting)  # fmt: skip


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
