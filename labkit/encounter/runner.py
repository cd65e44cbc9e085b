"""The headless runner (SPEC E7, seed: ``SimulationRunner``): play games without any UI.

* :func:`simulate` plays one game and returns its trace (the one-call helper);
* :func:`outcome` plays one game and returns only the plain numbers a batch row needs (no
  observations are stored, which changes no random draw, so the row matches the trace).

Examples
--------
>>> from labkit.encounter.settings import SimulationSettings
>>> t = simulate(SimulationSettings(seed=7, map_seed=7))
>>> row = outcome(SimulationSettings(seed=7, map_seed=7))
>>> (row["winner"], row["steps"]) == (t.winner, t.steps)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labkit.encounter.session import GameSession
from labkit.encounter.settings import SimulationSettings
from labkit.encounter.trace import SimulationTrace

__all__ = ["simulate", "outcome"]


def simulate(
    settings: SimulationSettings | None = None,
    *,
    policies: Mapping[str, Any] | None = None,
    version: int = 3,
) -> SimulationTrace:
    """Play one game to the end and return its :class:`SimulationTrace` (format 3 by default).

    Parameters
    ----------
    settings : SimulationSettings, optional
        Seeds, counts, map size, difficulty, step limit, snapshots (defaults when omitted).
    policies : mapping, optional
        Policy overrides by actor id or side (see :class:`GameSession`).
    version : {2, 3}
        Trace format.
    """
    return GameSession(settings, policies=policies).run(version=version)


def outcome(settings: SimulationSettings) -> dict[str, Any]:
    """Play one game and return its outcome row (seeds, winner, end reason, steps, survival).

    ``survival`` maps each actor to the turn it died in, or the last turn if it survived
    (censored); ``alive`` says which.
    """
    game = GameSession(settings, observations=False)
    while not game.finished:
        game.step()
    return {
        "map_seed": settings.map_seed,
        "seed": settings.seed,
        "winner": game.winner or "",
        "end_reason": game.end_reason,
        "steps": game.steps,
        "turns": game.turn,
        "encounters": len(game.journal.select("encounter")),
        "alive": {a.id: a.alive for a in game.actors},
        "survival": {
            a.id: a.death_turn if a.death_turn is not None else game.turn for a in game.actors
        },  # fmt: skip
    }
