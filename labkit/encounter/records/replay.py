"""Re-running simulation traces (rule E6).

* :func:`replay` re-runs a format-2 or format-3 trace from its settings and seeds and compares
  the new event stream with the stored one (seed: ``AssertSameEvents``). It returns the first
  :class:`Divergence` — index, expected (stored) event, actual (re-run) event; ``None`` for a
  missing event when one stream is shorter — or ``None`` when both agree to the last event.

Playing a trace back without running a rule is :mod:`labkit.encounter.records.playback`.

Examples
--------
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> from labkit.encounter.sim.session import GameSession
>>> t = GameSession(SimulationSettings(seed=2, max_steps=80)).run()
>>> replay(t) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from labkit import _renamed

# playback and its frame lived here before the records were split; kept importable from here
# (the frame's old name ``Frame`` through ``__getattr__`` below).
from labkit.encounter.records.playback import PlaybackFrame as PlaybackFrame
from labkit.encounter.records.playback import playback as playback
from labkit.encounter.records.trace import SimulationTrace

__all__ = ["Divergence", "replay"]


@dataclass(frozen=True)
class Divergence:
    """Where a re-run first differs from a trace.

    ``field`` is ``"events"`` for an event stream that differs (``index`` = the first event,
    ``expected`` = stored, ``actual`` = re-run), or the name of a summary field the trace claims
    (``"winner"``, ``"end_reason"``, ``"survivors"``, ``"steps"``, ``"turns"``, ``"map"``,
    ``"snapshots"``, ``"entropy"``) with the stored and re-run values (``index`` is -1).

    Examples
    --------
    >>> d = Divergence(3, {"category": "move"}, None)
    >>> print(d)
    first divergence at event 3:
      expected: {'category': 'move'}
      actual:   None
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

    Examples
    --------
    >>> from labkit.encounter import simulate, SimulationSettings
    >>> trace = simulate(SimulationSettings(seed=1, max_steps=40))
    >>> replay(trace) is None
    True
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


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
