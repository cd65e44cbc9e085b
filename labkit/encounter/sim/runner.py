"""The headless runner (rule E7, seed: ``SimulationRunner``): play games without any UI.

* :func:`simulate` plays one game and returns its trace (the one-call helper);
* :func:`outcome` plays one game and returns only the plain numbers a batch row needs (no
  observations are stored, which changes no random draw, so the row matches the trace);
* :func:`outcome_row` is the same game as a compact tuple (what batch workers send back: no
  actor ids or seeds, which the caller already knows, so each row pickles small).

Examples
--------
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> t = simulate(SimulationSettings(seed=7, map_seed=7))
>>> row = outcome(SimulationSettings(seed=7, map_seed=7))
>>> (row["winner"], row["steps"]) == (t.winner, t.steps)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labkit.encounter.records.trace import SimulationTrace
from labkit.encounter.sim.session import GameSession
from labkit.encounter.sim.settings import SimulationSettings

__all__ = ["simulate", "outcome", "outcome_row"]

# outcome_row: (winner, end_reason, steps, turns, encounters, alive, survival)
Row = tuple[str, str, int, int, int, tuple[bool, ...], tuple[int, ...]]  # end_reason: EndReason


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

    Examples
    --------
    >>> t = simulate(SimulationSettings(seed=5, max_steps=60))
    >>> t.version, t.steps <= 60, t.end_reason in ("victory", "step_limit", "mutual_death")
    (3, True, True)
    """
    return GameSession(settings, policies=policies).run(version=version)


def outcome(settings: SimulationSettings) -> dict[str, Any]:
    """Play one game and return its outcome row (seeds, winner, end reason, steps, survival).

    ``survival`` maps each actor to the turn it died in, or the last turn if it survived
    (censored); ``alive`` says which.

    Examples
    --------
    >>> row = outcome(SimulationSettings(seed=5, max_steps=60))
    >>> sorted(row)[:4], row["steps"] <= 60
    (['alive', 'encounters', 'end_reason', 'map_seed'], True)
    """
    winner, end_reason, steps, turns, encounters, alive, survival = outcome_row(settings)
    ids = settings.actor_ids
    return {
        "map_seed": settings.map_seed,
        "seed": settings.seed,
        "winner": winner,
        "end_reason": end_reason,
        "steps": steps,
        "turns": turns,
        "encounters": encounters,
        "alive": dict(zip(ids, alive)),
        "survival": dict(zip(ids, survival)),
    }


def outcome_row(settings: SimulationSettings) -> Row:
    """Play one game; ``(winner, end_reason, steps, turns, encounters, alive, survival)``.

    ``alive`` and ``survival`` are tuples in ``settings.actor_ids`` order (the order the game
    spawns its actors in); ``winner`` is ``""`` when nobody won.

    Examples
    --------
    >>> from labkit.encounter.sim.settings import SimulationSettings
    >>> row = outcome_row(SimulationSettings(seed=7, map_seed=7))
    >>> d = outcome(SimulationSettings(seed=7, map_seed=7))
    >>> row[:5] == (d["winner"], d["end_reason"], d["steps"], d["turns"], d["encounters"])
    True
    >>> len(row[5]) == len(row[6]) == len(SimulationSettings().actor_ids)
    True
    """
    game = GameSession(settings, observations=False)
    while not game.finished:
        game.step()
    return (
        game.winner or "",
        str(game.end_reason),
        game.steps,
        game.turn,
        len(game.journal.select("encounter")),
        tuple(a.alive for a in game.actors),
        tuple(a.death_turn if a.death_turn is not None else game.turn for a in game.actors),
    )
