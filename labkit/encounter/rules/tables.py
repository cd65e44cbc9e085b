"""Combat curves (rule E2): the hit and pursuit tables and the priority rule.

The tables are data: :data:`HIT` and :data:`PURSUIT` are the shipped A edition's
(``data/balance/a_edition.json``), read-only float64 arrays of 9 probabilities for the index
−4…4. Every function takes ``table=`` / ``rule=`` to evaluate an edited curve (the probability
explorer does), and works on scalars or numpy arrays alike.

* hit index = attacker's hit level − target's agility, clamped to −4…4;
* pursuit index = attacker's pursuit level − target's agility, clamped; the chance is 0 when the
  weapon's pursuit grade is ≤ 0 (such a weapon never attempts a pursuit);
* priority (later rounds, both attacking): 50 % + 20 points per agility level of difference,
  clamped to 10–90 % (seed table 3).

Examples
--------
>>> hit_chance(3, 1)            # index 2
0.45
>>> hit_chance(9, 0)            # clamped to index 4
0.75
>>> pursuit_chance(2, 1, weapon_grade=0)
0.0
>>> [priority_chance(d) for d in (-3, -1, 0, 1, 2)]
[0.1, 0.3, 0.5, 0.7, 0.9]
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from labkit.encounter.rules.balance import BalanceError, PriorityRule, default_balance

__all__ = [
    "HIT",
    "PURSUIT",
    "PRIORITY",
    "INDEX_MIN",
    "INDEX_MAX",
    "INDICES",
    "table_index",
    "hit_chance",
    "pursuit_chance",
    "priority_chance",
]

INDEX_MIN, INDEX_MAX = -4, 4
INDICES = np.arange(INDEX_MIN, INDEX_MAX + 1)

HIT: np.ndarray = default_balance().hit_table
"""Hit % by hit index −4…4 (seed table 1), as probabilities."""
PURSUIT: np.ndarray = default_balance().pursuit_table
"""Pursuit % by pursuit index −4…4 (seed table 2), as probabilities."""
PRIORITY: PriorityRule = default_balance().priority
"""The later-round priority rule (seed table 3)."""


def _out(value: np.ndarray) -> Any:
    return float(value) if np.ndim(value) == 0 else value


def _whole(values: ArrayLike, name: str) -> np.ndarray:
    """Levels and agilities are whole numbers; a fraction is an error, not silently cut."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "iu":
        f = arr.astype(np.float64)
        if arr.dtype.kind == "b" or not np.all(np.isfinite(f) & (f == np.round(f))):
            raise BalanceError("must be a whole number", pointer=name, value=values)
    return arr.astype(np.int64)


def _curve(table: ArrayLike | None, default: np.ndarray) -> np.ndarray:
    """An edited table: 9 probabilities for the index −4…4 (not necessarily increasing)."""
    if table is None:
        return default
    t = np.asarray(table, dtype=np.float64)
    if t.shape != (INDEX_MAX - INDEX_MIN + 1,) or not np.all((t >= 0.0) & (t <= 1.0)):
        raise BalanceError(
            "must be 9 probabilities between 0 and 1 (index -4..4)", pointer="table", value=table
        )
    return t


def table_index(level: ArrayLike, agility: ArrayLike) -> Any:
    """``level − agility`` clamped to −4…4 (an int, or an int array for array input).

    Examples
    --------
    >>> table_index(1, 7)
    -4
    >>> table_index(2.5, 0)
    Traceback (most recent call last):
    ...
    labkit.encounter.rules.balance.BalanceError: level: must be a whole number (got 2.5)
    """
    diff = _whole(level, "level") - _whole(agility, "agility")
    idx = np.clip(diff, INDEX_MIN, INDEX_MAX)
    return int(idx) if idx.ndim == 0 else idx


def hit_chance(hit_level: ArrayLike, target_agility: ArrayLike, *, table: ArrayLike | None = None):
    """Probability that a blow lands: ``table[clamp(hit_level − target_agility)]``.

    Parameters
    ----------
    hit_level : int or array of int
        Attacker's hit level (base + weapon HitScore + stealth bonus).
    target_agility : int or array of int
        Target's agility (base + weapon + armour).
    table : array of 9 floats, optional
        A hit table to use instead of :data:`HIT`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> hit_chance([0, 1, 2], 1)
    array([0.14, 0.2 , 0.3 ])
    """
    t = _curve(table, HIT)
    return _out(t[np.asarray(table_index(hit_level, target_agility)) - INDEX_MIN])


def pursuit_chance(
    pursuit_level: ArrayLike,
    target_agility: ArrayLike,
    *,
    weapon_grade: ArrayLike,
    table: ArrayLike | None = None,
):
    """Probability that a pursuit lands; 0 wherever the weapon's pursuit grade is ≤ 0.

    Parameters
    ----------
    pursuit_level : int or array
        Attacker's pursuit level (base pursuit + the weapon's pursuit grade).
    target_agility : int or array
        Target's agility.
    weapon_grade : int or array
        The weapon's pursuit grade alone (decides whether a pursuit is possible at all).
    table : array of 9 floats, optional
        A pursuit table to use instead of :data:`PURSUIT`.

    Examples
    --------
    >>> pursuit_chance(3, 1, weapon_grade=2)
    0.32
    """
    t = _curve(table, PURSUIT)
    p = t[np.asarray(table_index(pursuit_level, target_agility)) - INDEX_MIN]
    return _out(np.where(np.asarray(weapon_grade) > 0, p, 0.0))


def priority_chance(agility_diff: ArrayLike, *, rule: PriorityRule | None = None):
    """Probability of acting first in a later round, given own agility − the other's.

    Examples
    --------
    >>> priority_chance(1, rule=PriorityRule(base=0.5, per_agility=0.1, min=0.2, max=0.8))
    0.6
    """
    r = PRIORITY if rule is None else rule
    d = np.asarray(agility_diff, dtype=np.float64)
    # Round to kill float noise such as 0.5 + 3 * 0.2 = 1.1000000000000001 before clamping.
    return _out(np.clip(np.round(r.base + r.per_agility * d, 12), r.min, r.max))
