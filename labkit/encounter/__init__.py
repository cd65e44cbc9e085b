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

Examples
--------
>>> from labkit import encounter
>>> encounter.tables.hit_chance(2, 1)
0.3
"""

from __future__ import annotations

from labkit.encounter import tables
from labkit.encounter.balance import Balance, BalanceError, default_balance, load_balance
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
from labkit.encounter.notes import NoteBook, NoteKind, Observation
from labkit.encounter.sound import Direction, SoundError, heard_at, propagate_sound

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
]
