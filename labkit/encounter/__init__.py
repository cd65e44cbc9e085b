"""Encounter simulation (rules E1–E7): combat curves, sound, knowledge and items.

The rule layer (rules E2–E5) holds no session state, so the game session and notebooks call the
same functions:

* :mod:`~labkit.encounter.rules.tables` — ``HIT``, ``PURSUIT``, ``hit_chance``, ``pursuit_chance``,
  ``priority_chance`` (tables are data: :mod:`~labkit.encounter.rules.balance`; a shipped balance
  file by name: ``shipped_balance("a_edition_monster_life4")``, or that bare name wherever a
  balance file path is taken);
* :mod:`~labkit.encounter.rules.combat` — ``Loadout``, ``compose``, ``Fight`` (one exchange at a
  time), ``simulate_fights`` (Monte Carlo), ``sample_hits``;
* :mod:`~labkit.encounter.rules.sound` — ``propagate_sound``, ``heard_at``, ``Compass``;
* :mod:`~labkit.encounter.rules.notes` — ``NoteBook``, ``NoteKind``, ``Observation``;
* :mod:`~labkit.encounter.rules.cards` — ``CardPool``, ``Room``, ``Bag``, ``census``.

The simulation (rules E1, E4, E6, E7) plays whole games on those rules:

* :mod:`~labkit.encounter.sim.settings` / :mod:`~labkit.encounter.sim.room_map` /
  :mod:`~labkit.encounter.sim.session` — ``SimulationSettings``, the seeded room map,
  ``GameSession`` (Action / Encounter / Finished);
* :mod:`~labkit.encounter.sim.policy` — AI policies reading only their own observation;
* :mod:`~labkit.encounter.records.journal`, :mod:`~labkit.encounter.records.trace` —
  ``ActionJournal``, ``SimulationTrace`` (formats 2 and 3);
* :mod:`~labkit.encounter.sim.runner`, :mod:`~labkit.encounter.records.replay`,
  :mod:`~labkit.encounter.records.playback`,
  :mod:`~labkit.encounter.sim.batch` — ``simulate``, ``replay``, ``playback``, ``run_batch``;
* :mod:`~labkit.encounter.sim.sweep`, :mod:`~labkit.encounter.sim.tune` — ``sweep`` (tidy,
  resumable, common random numbers), ``sweep_summary``, ``tune`` (a parameter value hitting a
  target);
* :mod:`~labkit.encounter.sim.importance`, :mod:`~labkit.encounter.sim.tune_many` —
  ``importance`` (which knob matters: Morris, Sobol, the noise share), ``tune_many`` (several
  targets over several knobs, re-checked on fresh seeds).
* :mod:`~labkit.encounter.sim.compare`, :mod:`~labkit.encounter.sim.paired` — ``compare`` (two
  versions on common seeds: one row per metric, paired intervals, McNemar, variance reduction,
  seeds needed), ``play_pair``, ``survival_bands``, ``paired_table``;
* :mod:`~labkit.encounter.sim.ratings` — ``round_robin`` of policies and loadouts,
  ``bradley_terry`` ratings with intervals, ``cycles``, ``policy_balance`` (does B stay
  balanced against every policy?).

Examples
--------
>>> from labkit import encounter
>>> encounter.tables.hit_chance(2, 1)
0.3
"""

from __future__ import annotations

from typing import Any

from labkit import _renamed
from labkit.encounter.animation import animate
from labkit.encounter.draw_compare import draw_forest, draw_survival_bands
from labkit.encounter.draw_sim import draw_survival, draw_win_rates
from labkit.encounter.records.journal import ActionJournal, describe
from labkit.encounter.records.playback import PlaybackFrame, playback
from labkit.encounter.records.replay import Divergence, replay
from labkit.encounter.records.trace import SimulationTrace, TraceError
from labkit.encounter.rules import tables
from labkit.encounter.rules.balance import (
    Balance,
    BalanceError,
    default_balance,
    load_balance,
    shipped_balance,
    shipped_balances,
)
from labkit.encounter.rules.cards import Bag, CardPool, ItemCounts, ItemError, Room, census
from labkit.encounter.rules.combat import (
    CombatError,
    Fight,
    FightStats,
    Loadout,
    compose,
    sample_hits,
    simulate_fights,
    wilson_interval,
)
from labkit.encounter.rules.notes import NoteBook, NoteKind, Observation
from labkit.encounter.rules.sound import Compass, SoundError, heard_at, propagate_sound
from labkit.encounter.sim.actors import Actor, Phase
from labkit.encounter.sim.batch import BatchResult, local_executor, run_batch, survival_curve
from labkit.encounter.sim.compare import compare, play_pair, survival_bands, version_patch
from labkit.encounter.sim.fast_outcome import outcome_row_fast
from labkit.encounter.sim.importance import Importance, importance
from labkit.encounter.sim.paired import mcnemar_exact, paired_table, seeds_needed
from labkit.encounter.sim.policy import (
    POLICIES,
    HunterPolicy,
    Policy,
    RandomPolicy,
    ScavengerPolicy,
    ScriptedPolicy,
)
from labkit.encounter.sim.ratings import bradley_terry, cycles, policy_balance, round_robin
from labkit.encounter.sim.room_map import RoomMap
from labkit.encounter.sim.runner import outcome, outcome_row, simulate
from labkit.encounter.sim.session import GameSession
from labkit.encounter.sim.settings import SimulationError, SimulationSettings
from labkit.encounter.sim.sweep import SweepError, design, sweep
from labkit.encounter.sim.sweep import summary as sweep_summary
from labkit.encounter.sim.targets import Target, parse_target
from labkit.encounter.sim.tune import Tuned, tune
from labkit.encounter.sim.tune_many import TunedMany, tune_many
from labkit.encounter.status import END_REASONS, EndReason

__all__ = [
    "tables",
    "animate",
    "Balance",
    "BalanceError",
    "default_balance",
    "load_balance",
    "shipped_balance",
    "shipped_balances",
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
    "Compass",
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
    "PlaybackFrame",
    "playback",
    "replay",
    "outcome",
    "simulate",
    "GameSession",
    "SimulationError",
    "SimulationSettings",
    "SimulationTrace",
    "TraceError",
    "RoomMap",
    "EndReason",
    "END_REASONS",
    "SweepError",
    "design",
    "sweep",
    "sweep_summary",
    "Tuned",
    "tune",
    "Importance",
    "importance",
    "Target",
    "parse_target",
    "TunedMany",
    "tune_many",
    "compare",
    "play_pair",
    "survival_bands",
    "version_patch",
    "paired_table",
    "mcnemar_exact",
    "seeds_needed",
    "bradley_terry",
    "cycles",
    "policy_balance",
    "round_robin",
    "wilson_interval",
    "describe",
    "local_executor",
    "draw_survival",
    "draw_win_rates",
    "draw_forest",
    "draw_survival_bands",
    "outcome_row_fast",
    "outcome_row",
]


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
