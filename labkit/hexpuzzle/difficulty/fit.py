"""Calibrating the difficulty score on player telemetry (rule H9, last paragraph).

The structural score (:mod:`.difficulty`) adds six parts with fixed weights (15, 20, 20, 15,
20, 10 points at full strength). :func:`calibrate` lets the players set them.

**Target.** The observed difficulty index of each level (:mod:`.observed`: first-try failure,
collisions per tile, hint and undo rates and time, 0–100).

**Fit.** With ``x`` the parts as strengths (part / its default weight, 0–1), the index is
modelled as ``b + Σ w_j x_j`` with every ``w_j ≥ 0`` and baseline ``b ≥ 0``
(``scipy.optimize.nnls``; ``intercept=False`` drops ``b``). The ``w_j`` are points at full
strength, directly comparable with the default weights; a level's calibrated score is the
prediction clipped to 0–100 and rounded half up.

**Band edges.** Re-derived from what players do: a straight line of first-try success on the
calibrated score is fitted over the levels, and the edges are the scores where it falls to
``band_targets`` = (0.85, 0.65, 0.45) — easy levels are cleared at the first try by at least
85 % of players, intermediate by 65–85 %, hard by 45–65 %, challenge by fewer. If success does
not fall with the score the default edges (30, 50, 70) are kept and the report says so.

**Uncertainty.** ``n_boot`` bootstrap resamples (default 300) draw players *and* levels with
replacement (``bootstrap="both"``; ``"players"`` or ``"levels"`` alone on request), recompute
the index and refit; percentile intervals (95 %) are reported for every weight, the baseline
and the edges. Resampling levels covers the model's misfit, resampling players the noise of the
index; with 24 levels and seven parameters, expect wide intervals — they are the honest answer.

Decisions the rules leave open
------------------------------
* Levels without a total (unsolvable, undetermined, empty) and levels without telemetry are
  left out of the fit and named in ``skipped``; they still get a calibrated score when they
  have parts. Telemetry rows for unknown levels are counted, not fatal. Levels are weighted
  equally, whatever their number of players.
* At least eight levels with telemetry are required (up to seven parameters are fitted).
* R² and Spearman are in-sample, over the levels fitted; Spearman is also given for the
  uncalibrated score so the two can be compared.

Examples
--------
>>> from labkit.hexpuzzle.difficulty.players import telemetry_from_weights
>>> levels = example_difficulties(30, rng=0)
>>> truth = {"size": 10, "turns": 5, "layers": 25, "blocking": 0, "rotation": 30, "pressure": 10}
>>> tele = telemetry_from_weights(levels, truth, players=300, rng=1)
>>> cal = calibrate(tele, levels, n_boot=100, rng=2)
>>> cal.n_levels, cal.r2 > 0.9
(30, True)
>>> all(cal.ci[k][0] <= truth[k] <= cal.ci[k][1] for k in truth)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.calibration import (
    BAND_NAMES,
    DEFAULT_EDGES,
    Calibration,
    strengths,
)
from labkit.hexpuzzle.difficulty.observed import (
    INDEX_WEIGHTS,
    TIME_REF,
    CalibrationError,
    Rows,
    check_index_weights,
    index_of,
    observed_index,
)
from labkit.hexpuzzle.difficulty.scoring import (
    PARTS,
    Difficulty,
    js_round,
    parts_from,
    score,
)
from labkit.hexpuzzle.difficulty.telemetry import as_table
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.status import DifficultyStatus
from labkit.rng import RngLike, make_rng

__all__ = [
    "BAND_NAMES",
    "BAND_TARGETS",
    "Calibration",
    "CalibrationError",
    "calibrate",
    "example_difficulties",
    "fit_weights",
    "strengths",
]

BAND_TARGETS = (0.85, 0.65, 0.45)
MIN_LEVELS = 8
#: Most bootstrap resamples one calibration draws.
MAX_BOOT = 100_000


def fit_weights(
    x: NDArray, y: NDArray, *, intercept: bool = True
) -> tuple[NDArray[np.float64], float]:
    """Non-negative least squares of ``y`` on the strengths ``x``: ``(weights, baseline)``.

    Examples
    --------
    >>> x = np.eye(6)[[0, 1, 2, 3, 4, 5, 0, 1]] * 0.5 + 0.1
    >>> w, b = fit_weights(x, x @ np.arange(6.0) + 3)
    >>> np.round(w, 6).tolist(), round(b, 6)
    ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3.0)
    """
    from scipy.optimize import nnls

    design = np.column_stack([x, np.ones(len(y))]) if intercept else x
    coef, _ = nnls(design, y)
    return coef[: x.shape[1]], float(coef[x.shape[1]]) if intercept else 0.0


def band_edges(
    predicted: NDArray, success: NDArray, targets: Sequence[float] = BAND_TARGETS
) -> tuple[NDArray[np.float64], bool]:
    """Scores where a line of first-try success on the calibrated score crosses ``targets``.

    Returns the three edges and whether they were derived (``False``: defaults kept).
    """
    ok = np.isfinite(success) & np.isfinite(predicted)
    if ok.sum() >= 2 and np.ptp(predicted[ok]) > 0:
        slope, cut = np.polyfit(predicted[ok], success[ok], 1)
        if slope < 0:
            edges = np.clip((np.asarray(targets, dtype=float) - cut) / slope, 1.0, 100.0)
            return np.maximum.accumulate(edges), True
    return np.array(DEFAULT_EDGES, dtype=np.float64), False


def _check_options(bootstrap: str, band_targets: Sequence[float], level: float) -> None:
    if bootstrap not in ("both", "players", "levels"):
        raise ArgumentError(
            "must be 'both', 'players' or 'levels'", argument="bootstrap", value=bootstrap
        )
    t = list(band_targets)
    if len(t) != 3 or not (1 > t[0] > t[1] > t[2] > 0):
        raise ArgumentError(
            "must be three decreasing rates in (0, 1)", argument="band_targets", value=t
        )
    if not 0 < level < 1:
        raise ArgumentError("must be in (0, 1)", argument="level", value=level)


def calibrate(
    telemetry: Any,
    levels: Sequence[Level | Difficulty],
    *,
    intercept: bool = True,
    index_weights: Mapping[str, float] = INDEX_WEIGHTS,
    time_ref: float = TIME_REF,
    band_targets: Sequence[float] = BAND_TARGETS,
    n_boot: int = 300,
    bootstrap: str = "both",
    level: float = 0.95,
    rng: RngLike = 0,
) -> Calibration:
    """Fit the six part weights (and the band edges) of the score to player telemetry.

    Parameters
    ----------
    telemetry : structured array, DataFrame, path or rows
        Attempts in the :mod:`.telemetry` format.
    levels : sequence of Level or Difficulty
        The levels played (scored with :func:`~labkit.hexpuzzle.difficulty.scoring.score` when given
        as levels), joined to the telemetry by id.
    intercept : bool
        Fit a baseline ``b ≥ 0`` (difficulty every level has) besides the weights.
    index_weights, time_ref
        The observed index's definition (:mod:`.observed`).
    band_targets : three floats
        First-try success at the lower edges of intermediate, hard and challenge.
    n_boot : int
        Bootstrap resamples for the intervals (0: intervals are NaN; at most
        :data:`MAX_BOOT`, work is linear in it).
    bootstrap : {"both", "players", "levels"}
        What the bootstrap resamples.
    level : float
        Confidence level of the intervals.
    rng : int, SeedSequence or Generator
        Randomness of the bootstrap (the fit itself is deterministic).

    Returns
    -------
    Calibration
        Weights, calibrated scores and bands, and the fit report (R², Spearman, residuals,
        intervals, sample sizes).

    Raises
    ------
    CalibrationError
        Fewer than eight scored levels with telemetry, or bad index weights.

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.players import telemetry_from_weights
    >>> levels = example_difficulties(12, rng=3)
    >>> cal = calibrate(telemetry_from_weights(levels, {"rotation": 60}, 50, rng=4), levels,
    ...                 n_boot=20)
    >>> max(cal.weights, key=cal.weights.get)  # the part the players were made to feel
    'rotation'
    """
    from labkit._args import check_int

    n_boot = check_int(n_boot, "n_boot", 0, MAX_BOOT)
    _check_options(bootstrap, band_targets, level)
    check_index_weights(index_weights)
    diffs = [lv if isinstance(lv, Difficulty) else score(lv) for lv in levels]
    table = as_table(telemetry)
    obs = observed_index(table, diffs, index_weights=index_weights, time_ref=time_ref)
    x_all = np.array([strengths(d) for d in diffs]).reshape(-1, len(PARTS))
    usable = np.array(
        [d.total is not None and obs.attempts[i] > 0 for i, d in enumerate(diffs)], dtype=bool
    ) & np.isfinite(x_all).all(axis=1)
    skipped = {
        d.level_id: (d.status if d.total is None else "no telemetry")
        for d, u in zip(diffs, usable)
        if not u
    }
    if usable.sum() < MIN_LEVELS:
        raise CalibrationError(
            f"need at least {MIN_LEVELS} scored levels with telemetry, found {int(usable.sum())}",
            value=skipped or None,
        )
    x, y = x_all[usable], obs.index[usable]
    weights, base = fit_weights(x, y, intercept=intercept)
    edges, derived = band_edges(x @ weights + base, obs.first_try[usable], band_targets)

    keep = np.flatnonzero(usable)
    rows = Rows(table, {diffs[i].level_id: diffs[i].N for i in keep}, float(time_ref))
    draws = _bootstrap(rows, x, y, obs.first_try[usable], int(n_boot), bootstrap, intercept,
                       index_weights, band_targets, make_rng(rng))  # fmt: skip
    names = [*PARTS, "intercept", "edge_intermediate", "edge_hard", "edge_challenge"]
    alpha = (1 - level) / 2
    if len(draws):
        lo, hi = np.quantile(draws, [alpha, 1 - alpha], axis=0)
    else:
        lo = hi = np.full(len(names), np.nan)
    return Calibration(
        weights=dict(zip(PARTS, (float(w) for w in weights))),
        intercept=base,
        edges=tuple(float(e) for e in edges),
        edges_derived=derived,
        level_ids=tuple(d.level_id for d in diffs),
        strengths=x_all,
        original=np.array([np.nan if d.total is None else d.total for d in diffs], dtype=float),
        observed=obs,
        used=usable,
        ci={n: (float(a), float(b)) for n, a, b in zip(names, lo, hi)},
        n_boot=int(n_boot),
        bootstrap=bootstrap,
        confidence=float(level),
        n_rows=int(len(table) - obs.unmatched_rows),
        n_players=rows.n_players,
        skipped=skipped,
        band_targets=tuple(float(t) for t in band_targets),
    )


def _bootstrap(rows, x, y, success, n_boot, kind, intercept, index_weights, targets, gen):
    """Refit on resampled players (row multiplicities) and/or levels; one row per draw."""
    draws = []
    n_levels = len(y)
    for _ in range(n_boot):
        yb, sb = y, success
        if kind != "levels" and rows.n_players:
            counts = np.bincount(
                gen.integers(0, rows.n_players, rows.n_players), minlength=rows.n_players
            )
            comps = rows.means(counts[rows.player].astype(np.float64))
            yb, sb = index_of(comps, index_weights), 1.0 - comps[:, 0]
        pick = np.arange(n_levels)
        if kind != "players":
            pick = gen.integers(0, n_levels, n_levels)
        pick = pick[np.isfinite(yb[pick])]
        wb, bb = fit_weights(x[pick], yb[pick], intercept=intercept)
        eb, _ = band_edges(x[pick] @ wb + bb, sb[pick], targets)
        draws.append(np.concatenate([wb, [bb], eb]))
    return np.array(draws)


def example_difficulties(n: int, rng: RngLike = 0) -> list[Difficulty]:
    """``n`` made-up scores ``x00…`` with independent random parts (for examples and tests).

    Examples
    --------
    >>> [d.status for d in example_difficulties(2)]
    ['ok', 'ok']
    """
    gen = make_rng(rng)
    out = []
    for i in range(int(n)):
        N = int(gen.integers(3, 38))
        T, W = float(gen.uniform(0, 5)), int(gen.integers(1, 11))
        F, R = int(gen.integers(0, N + 1)), int(gen.integers(0, 5))
        M = N + int(gen.integers(0, int(0.4 * N) + 2))
        parts = parts_from(N, T, W, F, R, N, M)
        total = js_round(sum(v for v in parts.values() if v is not None))
        out.append(Difficulty(DifficultyStatus.OK, total, parts, N, T, W, F, R, N, M, f"x{i:02d}"))
    return out
