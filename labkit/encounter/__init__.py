"""Encounter simulation (seed 001): combat curves, sound, knowledge and items.

The rule layer (SPEC E2–E5) holds no session state, so the game session and notebooks call the
same functions:

* :mod:`~labkit.encounter.tables` — ``HIT``, ``PURSUIT``, ``hit_chance``, ``pursuit_chance``,
  ``priority_chance`` (tables are data: :mod:`~labkit.encounter.balance`);
* :mod:`~labkit.encounter.combat` — ``Loadout``, ``compose``, ``Fight`` (one exchange at a
  time), ``simulate_fights`` (Monte Carlo), ``sample_hits``;
* :mod:`~labkit.encounter.sound` — ``propagate_sound``, ``heard_at``, ``Direction``;
* :mod:`~labkit.encounter.notes` — ``NoteBook``, ``NoteKind``, ``Observation``;
* :mod:`~labkit.encounter.cards` — ``CardPool``, ``Room``, ``Bag``, ``census``.

The simulation (SPEC E1, E4, E6, E7) plays whole games on those rules:

* :mod:`~labkit.encounter.settings` / :mod:`~labkit.encounter.world` /
  :mod:`~labkit.encounter.session` — ``SimulationSettings``, the seeded room map, ``GameSession``
  (Action / Encounter / Finished);
* :mod:`~labkit.encounter.policy` — AI policies reading only their own observation;
* :mod:`~labkit.encounter.journal`, :mod:`~labkit.encounter.trace` — ``ActionJournal``,
  ``SimulationTrace`` (formats 2 and 3);
* :mod:`~labkit.encounter.runner`, :mod:`~labkit.encounter.replay`,
  :mod:`~labkit.encounter.batch` — ``simulate``, ``replay``, ``playback``, ``run_batch``;
* :mod:`~labkit.encounter.sweep`, :mod:`~labkit.encounter.tune` — ``sweep`` (tidy, resumable,
  common random numbers), ``sweep_summary``, ``tune`` (a parameter value hitting a target).

Examples
--------
>>> from labkit import encounter
>>> encounter.tables.hit_chance(2, 1)
0.3
"""

from __future__ import annotations

from labkit.encounter import tables
from labkit.encounter.actors import Actor, Phase
from labkit.encounter.balance import Balance, BalanceError, default_balance, load_balance
from labkit.encounter.batch import BatchResult, run_batch, survival_curve
from labkit.encounter.cards import Bag, CardPool, ItemCounts, ItemError, Room, census
from labkit.encounter.combat import (
    CombatError,
    Fight,
    FightStats,
    Loadout,
    compose,
    sample_hits,
    simulate_fights,
)
from labkit.encounter.journal import ActionJournal
from labkit.encounter.notes import NoteBook, NoteKind, Observation
from labkit.encounter.policy import (
    POLICIES,
    HunterPolicy,
    Policy,
    RandomPolicy,
    ScavengerPolicy,
    ScriptedPolicy,
)
from labkit.encounter.replay import Divergence, Frame, playback, replay
from labkit.encounter.runner import outcome, simulate
from labkit.encounter.session import GameSession
from labkit.encounter.settings import SimulationError, SimulationSettings
from labkit.encounter.sound import Direction, SoundError, heard_at, propagate_sound
from labkit.encounter.sweep import SweepError, design, sweep
from labkit.encounter.sweep import summary as sweep_summary
from labkit.encounter.trace import SimulationTrace, TraceError
from labkit.encounter.tune import Tuned, tune
from labkit.encounter.world import World

__all__ = [
    "tables",
    "Balance",
    "BalanceError",
    "default_balance",
    "load_balance",
    "Bag",
    "CardPool",
    "ItemCounts",
    "ItemError",
    "Room",
    "census",
    "CombatError",
    "Fight",
    "FightStats",
    "Loadout",
    "compose",
    "sample_hits",
    "simulate_fights",
    "NoteBook",
    "NoteKind",
    "Observation",
    "Direction",
    "SoundError",
    "heard_at",
    "propagate_sound",
    "Actor",
    "Phase",
    "BatchResult",
    "run_batch",
    "survival_curve",
    "ActionJournal",
    "POLICIES",
    "HunterPolicy",
    "Policy",
    "RandomPolicy",
    "ScavengerPolicy",
    "ScriptedPolicy",
    "Divergence",
    "Frame",
    "playback",
    "replay",
    "outcome",
    "simulate",
    "GameSession",
    "SimulationError",
    "SimulationSettings",
    "SimulationTrace",
    "TraceError",
    "World",
    "SweepError",
    "design",
    "sweep",
    "sweep_summary",
    "Tuned",
    "tune",
]
