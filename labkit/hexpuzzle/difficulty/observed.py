"""The observed difficulty index: what player telemetry says about a level (rule H9).

The index (0–100) of a level combines five rates computed from its telemetry rows (attempts):

====================  ======  =============================================================
component             weight  per level
====================  ======  =============================================================
``fail``              0.40    first-try failure rate: share of first attempts not won
``collisions``        0.20    mean over attempts of ``min(1, collisions / N)``
``hints``             0.10    share of attempts with at least one hint
``undos``             0.10    share of attempts with at least one undo
``time``              0.20    mean over attempts of ``min(1, seconds / 240)``
====================  ======  =============================================================

``index = 100 × Σ weight·component / Σ weight``. Every component is a rate in [0, 1], so the
index reads like the score: 0 is trivial, 100 is every player failing, colliding at every tile,
asking for hints, undoing and taking four minutes or more. The weights and the time reference are
arguments (``index_weights``, ``time_ref``). Because each component is a mean of per-attempt
values, the index of telemetry whose per-attempt values have expectation ``p`` is ``100 p``
(:func:`~labkit.hexpuzzle.difficulty.players.telemetry_from_weights` relies on this).

Decisions the rules leave open
------------------------------
* The ``rotations`` column is not in the index: the rotations players make mostly mirror the
  level's minimum R (a structural quantity), which would make the rotation weight fit itself.
  It is reported per level (mean rotations per attempt).
* Collisions are counted per tile (``N``) so that large levels are not harder merely for having
  more taps; time is counted per attempt, because a long level *is* more tiring.
* A level without rows (or without first attempts) gets NaN for the affected components.

Examples
--------
>>> from labkit.hexpuzzle.difficulty.telemetry import make_table
>>> t = make_table([("L", "a", 1, 1, 0, 0, 1, 0, 60.0, 1), ("L", "b", 1, 0, 4, 1, 2, 1, 240.0, 0)])
>>> obs = observed_index(t, {"L": 4})
>>> obs.components.round(2).tolist()
[[0.5, 0.5, 0.5, 0.5, 0.62]]
>>> round(float(obs.index[0]), 1)
52.5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.telemetry import as_table
from labkit.io import FormatError

__all__ = [
    "COMPONENTS",
    "INDEX_WEIGHTS",
    "TIME_REF",
    "CalibrationError",
    "ObservedIndex",
    "observed_index",
]

INDEX_WEIGHTS = {"fail": 0.40, "collisions": 0.20, "hints": 0.10, "undos": 0.10, "time": 0.20}
COMPONENTS = tuple(INDEX_WEIGHTS)
#: Seconds of an attempt at which the time component reaches 1.
TIME_REF = 240.0


class CalibrationError(FormatError):
    """Telemetry, levels or settings that cannot be calibrated."""


@dataclass(frozen=True)
class ObservedIndex:
    """Per-level telemetry summary and observed index (levels in the order given).

    Attributes
    ----------
    level_ids : tuple of str
    components : ndarray, shape (levels, 5)
        The component rates in :data:`COMPONENTS` order (NaN: no rows).
    index : ndarray, shape (levels,)
        The observed difficulty index, 0–100.
    first_try : ndarray
        First-try success rate (``1 - fail``).
    players, attempts : ndarray of int
        Players with a first attempt, and attempts, per level.
    rotations : ndarray
        Mean rotations made per attempt.
    unmatched_rows : int
        Telemetry rows whose level is not among the levels given.

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.fit import example_difficulties
    >>> from labkit.hexpuzzle.difficulty.players import telemetry_from_weights
    >>> levels = example_difficulties(2, rng=3)
    >>> idx = observed_index(telemetry_from_weights(levels, {"rotation": 60}, 20, rng=4), levels)
    >>> isinstance(idx, ObservedIndex), idx.components.shape[0], idx.players.tolist()
    (True, 2, [20, 20])
    """

    level_ids: tuple[str, ...]
    components: NDArray[np.float64]
    index: NDArray[np.float64]
    first_try: NDArray[np.float64]
    players: NDArray[np.int64]
    attempts: NDArray[np.int64]
    rotations: NDArray[np.float64]
    unmatched_rows: int


class Rows:
    """Per-row component values and row → level / player indices (shared with the bootstrap)."""

    def __init__(self, table: NDArray, sizes: Mapping[str, int], time_ref: float) -> None:
        # the index is made of the hex puzzle's own columns, optional in telemetry (issue 49)
        for name in ("collisions", "hints", "undos", "seconds", "rotations"):
            if name not in (table.dtype.names or ()):
                from labkit.hexpuzzle.difficulty.telemetry import TelemetryError

                raise TelemetryError("the observed difficulty index needs this hex puzzle column",
                                     pointer=f"column {name!r}")  # fmt: skip
        lookup = {lid: i for i, lid in enumerate(sizes)}
        known = np.array([lid in lookup for lid in table["level"].tolist()], dtype=bool)
        self.unmatched = int((~known).sum())
        t = table[known]
        self.level = np.array([lookup[lid] for lid in t["level"].tolist()], dtype=np.int64)
        _, player = np.unique(t["player"], return_inverse=True)
        self.player = player.reshape(-1)
        self.n_players = int(self.player.max()) + 1 if len(t) else 0
        n = np.array(list(sizes.values()), dtype=np.float64)[self.level]
        self.first = t["attempt"] == 1
        self.values = np.column_stack(
            [
                ~t["won"],  # fail: averaged over first attempts only
                np.minimum(1.0, t["collisions"] / n),
                t["hints"] > 0,
                t["undos"] > 0,
                np.minimum(1.0, t["seconds"] / time_ref),
            ]
        ).astype(np.float64)
        self.rotations = t["rotations"].astype(np.float64)
        self.n_levels = len(sizes)

    def means(self, weight: NDArray | None = None) -> NDArray[np.float64]:
        """(levels, 5) component means, rows weighted by ``weight`` (bootstrap multiplicities)."""
        w = np.ones(len(self.level)) if weight is None else weight
        out = np.empty((self.n_levels, len(COMPONENTS)))
        for k in range(len(COMPONENTS)):
            ww = w * self.first if k == 0 else w
            num = np.bincount(self.level, ww * self.values[:, k], minlength=self.n_levels)
            den = np.bincount(self.level, ww, minlength=self.n_levels)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, k] = num / den
        return out


def index_of(components: NDArray, index_weights: Mapping[str, float]) -> NDArray[np.float64]:
    """The index from component rates (last axis in :data:`COMPONENTS` order)."""
    a = np.array([index_weights[c] for c in COMPONENTS], dtype=np.float64)
    return 100.0 * components @ a / a.sum()


def check_index_weights(index_weights: Mapping[str, float]) -> None:
    """Every component needs a finite weight >= 0, and not all may be 0."""
    for c in COMPONENTS:
        value = index_weights.get(c)
        if not isinstance(value, (int, float)) or not np.isfinite(value) or value < 0:
            raise ArgumentError(
                "must be a number >= 0", argument=f"index_weights[{c!r}]", value=value
            )
    if sum(index_weights[c] for c in COMPONENTS) <= 0:
        raise ArgumentError(
            "must not all be 0", argument="index_weights", value=dict(index_weights)
        )


def level_sizes(levels: Sequence[Any] | Mapping[str, int]) -> dict[str, int]:
    """``{level id: tiles}`` from levels, Difficulty scores or such a mapping."""
    if isinstance(levels, Mapping):
        return {str(k): int(v) for k, v in levels.items()}
    out: dict[str, int] = {}
    for lv in levels:
        lid, n = (lv.level_id, lv.N) if hasattr(lv, "level_id") else (lv.id, len(lv.tiles))
        if lid in out:
            raise CalibrationError("level ids must be unique", value=lid)
        out[lid] = n
    return out


def observed_index(
    telemetry: Any,
    levels: Sequence[Any] | Mapping[str, int],
    *,
    index_weights: Mapping[str, float] = INDEX_WEIGHTS,
    time_ref: float = TIME_REF,
) -> ObservedIndex:
    """The observed difficulty index of each level (see the module docstring).

    Parameters
    ----------
    telemetry : structured array, DataFrame, path or rows
        Attempts in the :mod:`~labkit.hexpuzzle.difficulty.telemetry` format.
    levels : levels, Difficulty scores, or ``{level id: number of tiles}``
        Which levels, in which order; the tile count normalises collisions.

    Returns
    -------
    ObservedIndex
        NaN for levels without telemetry.

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.fit import example_difficulties
    >>> from labkit.hexpuzzle.difficulty.players import telemetry_from_weights
    >>> levels = example_difficulties(4, rng=3)
    >>> idx = observed_index(telemetry_from_weights(levels, {"rotation": 60}, 20, rng=4), levels)
    >>> idx.level_ids, bool(((idx.index >= 0) & (idx.index <= 100)).all())
    (('x00', 'x01', 'x02', 'x03'), True)
    """
    check_index_weights(index_weights)
    sizes = level_sizes(levels)
    rows = Rows(as_table(telemetry), sizes, float(time_ref))
    comps = rows.means()
    attempts = np.bincount(rows.level, minlength=rows.n_levels)
    players = np.bincount(rows.level[rows.first], minlength=rows.n_levels)
    with np.errstate(invalid="ignore", divide="ignore"):
        rotations = np.bincount(rows.level, rows.rotations, minlength=rows.n_levels) / attempts
    return ObservedIndex(
        tuple(sizes), comps, index_of(comps, index_weights), 1.0 - comps[:, 0], players,
        attempts, rotations, rows.unmatched,
    )  # fmt: skip
