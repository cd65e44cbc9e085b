"""The result of :func:`~labkit.hexpuzzle.difficulty.fit.calibrate` and its fit report.

Kept apart from the fitting code so that the report (text, HTML, JSON-ready dict, ranking)
can grow without crowding the statistics.

Examples
--------
>>> from labkit.hexpuzzle.difficulty.fit import calibrate, example_difficulties
>>> from labkit.hexpuzzle.difficulty.players import telemetry_from_weights
>>> levels = example_difficulties(12, rng=3)
>>> cal = calibrate(telemetry_from_weights(levels, {"rotation": 60}, 50, rng=4), levels, n_boot=20)
>>> cal.band(10), cal.band(99)
('easy', 'challenge')
>>> "R²" in cal.report()
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import io as lio
from labkit.hexpuzzle.difficulty.observed import ObservedIndex
from labkit.hexpuzzle.difficulty.scoring import BANDS, PARTS, WEIGHTS, Difficulty, js_round

__all__ = ["BAND_NAMES", "DEFAULT_EDGES", "Calibration", "band_of", "strengths"]

BAND_NAMES = tuple(name for _, name in BANDS)
DEFAULT_EDGES = tuple(float(lo) for lo, _ in BANDS[1:])


def strengths(difficulty: Difficulty) -> NDArray[np.float64]:
    """The six parts of a score as strengths 0–1 (part / default weight), in PARTS order.

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.fit import example_difficulties
    >>> d = example_difficulties(1)[0]
    >>> bool(np.allclose(strengths(d) * [WEIGHTS[p] for p in PARTS], list(d.parts.values())))
    True
    """
    if not difficulty.parts or any(difficulty.parts.get(p) is None for p in PARTS):
        return np.full(len(PARTS), np.nan)
    return np.array([difficulty.parts[p] / WEIGHTS[p] for p in PARTS], dtype=np.float64)


def band_of(total: float | None, edges: tuple[float, ...] = DEFAULT_EDGES) -> str | None:
    """Band of a score under lower ``edges`` of intermediate, hard and challenge.

    Examples
    --------
    >>> band_of(29), band_of(30), band_of(45, (20.0, 40.0, 60.0)), band_of(None)
    ('easy', 'intermediate', 'hard', None)
    """
    if total is None or not np.isfinite(total):
        return None
    return BAND_NAMES[int(np.searchsorted(np.asarray(edges), total, side="right"))]


@dataclass(frozen=True, eq=False)
class Calibration:
    """Fitted part weights, recalibrated scores and bands, and an honest fit report.

    Attributes
    ----------
    weights : dict
        Points per part at full strength (compare
        :data:`~labkit.hexpuzzle.difficulty.scoring.WEIGHTS`).
    intercept : float
        Baseline index every level has.
    edges : tuple of 3 floats
        Lower edges of intermediate, hard, challenge on the calibrated score.
    edges_derived : bool
        ``False`` when first-try success did not fall with the score and defaults were kept.
    level_ids, strengths, original
        The levels, their parts as strengths 0–1 (rows NaN when unscored) and their
        uncalibrated totals.
    observed : ObservedIndex
        The telemetry summary and observed index per level.
    used : ndarray of bool
        Levels that entered the fit.
    ci : dict
        ``name -> (lo, hi)`` bootstrap interval of every weight, ``intercept`` and the edges.
    n_boot, bootstrap, confidence
        How the intervals were made.
    n_rows, n_players : int
        Telemetry rows (attempts) and distinct players that entered.
    skipped : dict
        Level id → why it was left out of the fit.

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.fit import calibrate, example_difficulties
    >>> from labkit.hexpuzzle.difficulty.players import telemetry_from_weights
    >>> levels = example_difficulties(12, rng=3)
    >>> cal = calibrate(telemetry_from_weights(levels, {"rotation": 60}, 50, rng=4), levels,
    ...                 n_boot=20)
    >>> isinstance(cal, Calibration), cal.n_levels, sorted(cal.to_dict())[:2]
    (True, 12, ['bootstrap', 'ci'])
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "calibration.json"
    >>> cal.save(path)
    >>> again = Calibration.load(path)
    >>> again.scores == cal.scores, again.to_dict() == cal.to_dict()
    (True, True)
    """

    weights: dict[str, float]
    intercept: float
    edges: tuple[float, ...]
    edges_derived: bool
    level_ids: tuple[str, ...]
    strengths: NDArray[np.float64]
    original: NDArray[np.float64]
    observed: ObservedIndex
    used: NDArray[np.bool_]
    ci: dict[str, tuple[float, float]]
    n_boot: int
    bootstrap: str
    confidence: float
    n_rows: int
    n_players: int
    skipped: dict[str, str] = field(default_factory=dict)
    band_targets: tuple[float, ...] = ()

    # --- predictions ----------------------------------------------------------------------
    @property
    def weight_vector(self) -> NDArray[np.float64]:
        return np.array([self.weights[p] for p in PARTS])

    def predict(self, strengths: NDArray) -> NDArray[np.float64]:
        """Calibrated (unrounded, clipped 0–100) scores of strength rows."""
        return np.clip(np.asarray(strengths) @ self.weight_vector + self.intercept, 0.0, 100.0)

    @property
    def predicted(self) -> NDArray[np.float64]:
        return self.predict(self.strengths)

    @property
    def scores(self) -> list[int | None]:
        """Calibrated score of every level, rounded half up (``None``: level has no parts)."""
        return [None if not np.isfinite(p) else js_round(p) for p in self.predicted]

    @property
    def bands(self) -> list[str | None]:
        return [self.band(s) for s in self.scores]

    def band(self, total: float | None) -> str | None:
        """Band of a calibrated score under the re-derived edges."""
        return band_of(total, self.edges)

    def score(self, difficulty: Difficulty) -> int | None:
        """Calibrated score of any scored level."""

        s = strengths(difficulty)
        return None if not np.isfinite(s).all() else js_round(float(self.predict(s)))

    # --- fit report -----------------------------------------------------------------------
    @property
    def n_levels(self) -> int:
        return int(self.used.sum())

    @property
    def index(self) -> NDArray[np.float64]:
        return self.observed.index

    @property
    def residuals(self) -> NDArray[np.float64]:
        """Observed index − calibrated prediction (NaN for levels not fitted)."""
        return np.where(self.used, self.index - self.predicted, np.nan)

    @property
    def r2(self) -> float:
        y = self.index[self.used]
        ss_tot = float(((y - y.mean()) ** 2).sum())
        ss_res = float(np.nansum(self.residuals**2))
        return 1.0 - ss_res / ss_tot if ss_tot > 0 else float("nan")

    def _spearman(self, pred: NDArray) -> float:
        from scipy.stats import spearmanr

        ok = self.used & np.isfinite(pred)
        if ok.sum() < 3 or np.ptp(pred[ok]) == 0:
            return float("nan")
        return float(spearmanr(pred[ok], self.index[ok]).statistic)

    @property
    def spearman(self) -> float:
        """Rank correlation of the calibrated score with the observed index."""
        return self._spearman(self.predicted)

    @property
    def spearman_original(self) -> float:
        """Rank correlation of the uncalibrated score with the observed index."""
        return self._spearman(self.original)

    def ranking(self) -> list[dict[str, Any]]:
        """Levels ordered by calibrated score (ties keep the original order), with old ranks."""
        old = sorted(
            range(len(self.level_ids)), key=lambda i: (np.nan_to_num(self.original[i], nan=1e9), i)
        )
        old_rank = {i: r + 1 for r, i in enumerate(old)}
        scores = self.scores
        order = sorted(
            range(len(scores)), key=lambda i: (1e9 if scores[i] is None else scores[i], old_rank[i])
        )
        return [
            {
                "rank": r + 1,
                "old_rank": old_rank[i],
                "id": self.level_ids[i],
                "score": scores[i],
                "band": self.band(scores[i]),
                "original": None if np.isnan(self.original[i]) else int(self.original[i]),
                "original_band": band_of(self.original[i]),
                "observed": None if np.isnan(self.index[i]) else round(float(self.index[i]), 1),
                "players": int(self.observed.players[i]),
            }
            for r, i in enumerate(order)
        ]

    def to_dict(self) -> dict[str, Any]:
        """The calibration document: the fit summary (weights, intervals, edges, statistics,
        per-level ranking) and, under ``data``, what :meth:`from_dict` rebuilds the fit from.

        Numbers that are not finite (an interval without bootstrap draws) are ``None``.
        """
        from labkit.hexpuzzle.difficulty.calibration_file import FORMAT, VERSION

        obs = self.observed
        return {
            "format": FORMAT,
            "version": VERSION,
            "weights": dict(self.weights),
            "intercept": self.intercept,
            "edges": list(self.edges),
            "edges_derived": self.edges_derived,
            "ci": {k: [_finite(v) for v in pair] for k, pair in self.ci.items()},
            "r2": _finite(self.r2),
            "spearman": _finite(self.spearman),
            "spearman_original": _finite(self.spearman_original),
            "n_levels": self.n_levels,
            "n_players": self.n_players,
            "n_rows": self.n_rows,
            "n_boot": self.n_boot,
            "bootstrap": self.bootstrap,
            "confidence": self.confidence,
            "skipped": dict(self.skipped),
            "levels": [
                {**row, "residual": _num(self.residuals[self.level_ids.index(row["id"])])}
                for row in self.ranking()
            ],
            "data": {
                "level_ids": list(self.level_ids),
                "strengths": _finite(self.strengths),
                "original": _finite(self.original),
                "used": [bool(u) for u in self.used],
                "band_targets": list(self.band_targets),
                "observed": {
                    "components": _finite(obs.components),
                    "index": _finite(obs.index),
                    "first_try": _finite(obs.first_try),
                    "players": [int(v) for v in obs.players],
                    "attempts": [int(v) for v in obs.attempts],
                    "rotations": _finite(obs.rotations),
                    "unmatched_rows": int(obs.unmatched_rows),
                },
            },
        }

    @classmethod
    def from_dict(cls, doc: Any) -> Calibration:
        """Rebuild a calibration from :meth:`to_dict`'s document; every field is checked first.

        Raises
        ------
        CalibrationError
            Naming the JSON pointer and the bad value.
        """
        from labkit.hexpuzzle.difficulty.calibration_file import calibration_from_dict

        return calibration_from_dict(cls, doc)

    def save(self, path: str | os.PathLike) -> None:
        """Write the calibration file atomically; :meth:`load` reads it back."""
        from labkit.hexpuzzle.difficulty.calibration_file import FORMAT, VERSION

        lio.save_json(path, self.to_dict(), format=FORMAT, version=VERSION)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Calibration:
        """Read a calibration file written by :meth:`save` (or ``labkit puzzle calibrate``)."""
        from labkit.hexpuzzle.difficulty.calibration_file import FORMAT, UPGRADES, VERSION
        from labkit.hexpuzzle.difficulty.observed import CalibrationError

        doc = lio.load_json(path, format=FORMAT, versions=(1, VERSION), upgrades=UPGRADES,
                            error=CalibrationError)  # fmt: skip
        try:
            return cls.from_dict(doc)
        except CalibrationError as exc:
            raise exc.with_file(str(path)) from None

    def report(self) -> str:
        """The fit report as text."""
        pct = round(100 * self.confidence)
        lines = [
            f"calibration on {self.n_levels} levels, {self.n_players} players, "
            f"{self.n_rows} attempts (bootstrap: {self.n_boot} × {self.bootstrap})",
            f"R² = {self.r2:.3f}   Spearman ρ = {self.spearman:.3f} "
            f"(uncalibrated score: {self.spearman_original:.3f})",
            f"{'part':<12}{'default':>8}{'fitted':>9}   {pct}% interval",
        ]
        for p in PARTS:
            lo, hi = self.ci[p]
            lines.append(f"{p:<12}{WEIGHTS[p]:>8}{self.weights[p]:>9.1f}   [{lo:.1f}, {hi:.1f}]")
        lo, hi = self.ci["intercept"]
        lines.append(f"{'baseline':<12}{0:>8}{self.intercept:>9.1f}   [{lo:.1f}, {hi:.1f}]")
        how = "from first-try success" if self.edges_derived else "defaults kept"
        edges = ", ".join(f"{e:.0f}" for e in self.edges)
        lines.append(f"band edges ({how}): {edges}")
        if self.skipped:
            lines.append("skipped: " + ", ".join(f"{k} ({v})" for k, v in self.skipped.items()))
        if self.observed.unmatched_rows:
            lines.append(f"rows for unknown levels: {self.observed.unmatched_rows}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()

    def __repr__(self) -> str:
        w = ", ".join(f"{p}={self.weights[p]:.1f}" for p in PARTS)
        return (
            f"Calibration({w}, baseline={self.intercept:.1f}, R²={self.r2:.3f}, "
            f"levels={self.n_levels})"
        )

    def _repr_html_(self) -> str:
        import html

        return "<pre>" + html.escape(self.report()) + "</pre>"


def _finite(value: Any) -> Any:
    """A number, or nested lists of numbers, with every non-finite value as ``None``."""
    if isinstance(value, np.ndarray):
        return [_finite(v) for v in value.tolist()]
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return float(value) if np.isfinite(value) else None


def _num(value: float) -> float | None:
    return None if not np.isfinite(value) else round(float(value), 2)
