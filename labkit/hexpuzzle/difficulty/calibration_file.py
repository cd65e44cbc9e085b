"""The calibration file (format ``labkit.hexpuzzle.calibration``, version 2): reading.

Version 2 is version 1 (the fit summary :meth:`Calibration.to_dict` always gave: weights,
intervals, edges, fit statistics, ranking) plus a ``data`` section holding what the fit saw
per level (strengths, uncalibrated totals, the observed index and its components, which levels
entered), so that a calibration can be rebuilt whole. The summary's derived numbers (R²,
Spearman ρ, the ranking) are recomputed, never read. A version-1 file (the summary alone) is
refused with a message saying so. Errors name the JSON pointer and the value, as
:class:`~labkit.hexpuzzle.CalibrationError`. Limits: every number within
plus or minus :data:`MAX_NUMBER`, every count at most :data:`MAX_COUNT`.

Examples
--------
>>> calibration_from_dict(object, {"format": FORMAT, "version": 1, "weights": {}})
Traceback (most recent call last):
...
labkit.hexpuzzle.difficulty.observed.CalibrationError: /data: a version-1 calibration file ...
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit import io as lio
from labkit.hexpuzzle.difficulty.observed import COMPONENTS, CalibrationError, ObservedIndex
from labkit.hexpuzzle.difficulty.scoring import PARTS

__all__ = ["FORMAT", "MAX_COUNT", "MAX_NUMBER", "UPGRADES", "VERSION", "calibration_from_dict"]

FORMAT, VERSION = "labkit.hexpuzzle.calibration", 2
E = CalibrationError
#: Limits of a calibration file: scores, weights and rates are far inside these; counts
#: (players, attempts, rows, bootstrap draws) too.
MAX_NUMBER = 1e9
MAX_COUNT = 10**12


def _from_version_1(doc: dict) -> dict:
    raise E("a version-1 calibration file holds only the fit summary, not the data to "
            "rebuild the fit from; calibrate again with this labkit", pointer="/data")  # fmt: skip


#: Upgrades by version (for :func:`labkit.io.load_json`): version 1 cannot be upgraded.
UPGRADES = {1: _from_version_1}


def _number(value: Any, at: str, *, nullable: bool = False) -> float:
    if value is None and nullable:
        return float("nan")
    # magnitude first: np.isfinite cannot take an int beyond int64
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    ok = ok and abs(value) <= MAX_NUMBER
    what = f"a number within ±{MAX_NUMBER:g}" + (" or null" if nullable else "")
    lio.check(ok, f"must be {what}", at, value, E)
    return float(value)


def _numbers(values: Any, at: str, n: int | None, *, nullable: bool = False) -> list[float]:
    lio.check(isinstance(values, list), "must be a list", at, type(values).__name__, E)
    if n is not None:
        lio.check(len(values) == n, f"must hold {n} values", at, len(values), E)
    return [_number(v, f"{at}/{i}", nullable=nullable) for i, v in enumerate(values)]


def _ints(values: Any, at: str, n: int) -> list[int]:
    lio.check(isinstance(values, list) and len(values) == n, f"must be a list of {n} integers",
              at, values, E)  # fmt: skip
    return [lio.as_int(v, f"{at}/{i}", 0, MAX_COUNT, E) for i, v in enumerate(values)]


def _matrix(values: Any, at: str, n: int, width: int) -> np.ndarray:
    lio.check(isinstance(values, list) and len(values) == n, f"must be a list of {n} rows", at,
              type(values).__name__, E)  # fmt: skip
    rows = [_numbers(r, f"{at}/{i}", width, nullable=True) for i, r in enumerate(values)]
    return np.array(rows, dtype=np.float64).reshape(n, width)


def _observed(doc: Any, ids: tuple[str, ...]) -> ObservedIndex:
    at, n = "/data/observed", len(ids)
    lio.check(isinstance(doc, dict), "must be an object", at, type(doc).__name__, E)

    def floats(key: str) -> np.ndarray:
        values = _numbers(lio.field(doc, key, list, at, E), f"{at}/{key}", n, nullable=True)
        return np.array(values, dtype=np.float64)

    return ObservedIndex(
        level_ids=ids,
        components=_matrix(
            lio.field(doc, "components", list, at, E), f"{at}/components", n, len(COMPONENTS)
        ),
        index=floats("index"),
        first_try=floats("first_try"),
        players=np.array(
            _ints(lio.field(doc, "players", list, at, E), f"{at}/players", n), dtype=np.int64
        ),
        attempts=np.array(
            _ints(lio.field(doc, "attempts", list, at, E), f"{at}/attempts", n), dtype=np.int64
        ),
        rotations=floats("rotations"),
        unmatched_rows=lio.as_int(
            lio.field(doc, "unmatched_rows", int, at, E), f"{at}/unmatched_rows", 0, MAX_COUNT, E
        ),
    )


def calibration_from_dict(cls: Any, doc: Any) -> Any:
    """Build ``cls`` (:class:`~labkit.hexpuzzle.Calibration`) from a checked document."""
    if isinstance(doc, dict) and ("format" in doc or "version" in doc):
        doc = lio.check_header(doc, format=FORMAT, versions=(1, VERSION), upgrades=UPGRADES,
                               error=E)  # fmt: skip
    lio.check(isinstance(doc, dict), "expected a JSON object", "", type(doc).__name__, E)
    weights = lio.field(doc, "weights", dict, "", E)
    lio.check(set(weights) == set(PARTS), f"must name the parts {list(PARTS)}", "/weights",
              sorted(weights), E)  # fmt: skip
    ci = {}
    for name, pair in lio.field(doc, "ci", dict, "", E).items():
        lo, hi = _numbers(pair, lio.pointer("ci", name), 2, nullable=True)
        ci[str(name)] = (lo, hi)
    skipped = lio.field(doc, "skipped", dict, "", E, default={})
    for key, why in skipped.items():
        lio.check(isinstance(why, str), "must be a string", lio.pointer("skipped", key), why, E)
    data = lio.field(doc, "data", dict, "", E)
    ids = lio.field(data, "level_ids", list, "/data", E)
    for i, lid in enumerate(ids):
        lio.check(isinstance(lid, str), "must be a level id", f"/data/level_ids/{i}", lid, E)
    n = len(ids)
    used = lio.field(data, "used", list, "/data", E)
    lio.check(len(used) == n and all(isinstance(u, bool) for u in used),
              f"must be a list of {n} true/false", "/data/used", used, E)  # fmt: skip
    confidence = _number(lio.field(doc, "confidence", float, "", E), "/confidence")
    lio.check(0 < confidence < 1, "must lie between 0 and 1", "/confidence", confidence, E)
    return cls(
        weights={p: _number(weights[p], lio.pointer("weights", p)) for p in PARTS},
        intercept=_number(lio.field(doc, "intercept", float, "", E), "/intercept"),
        edges=tuple(_numbers(lio.field(doc, "edges", list, "", E), "/edges", 3)),
        edges_derived=lio.field(doc, "edges_derived", bool, "", E),
        level_ids=tuple(ids),
        strengths=_matrix(
            lio.field(data, "strengths", list, "/data", E), "/data/strengths", n, len(PARTS)
        ),
        original=np.array(
            _numbers(
                lio.field(data, "original", list, "/data", E), "/data/original", n, nullable=True
            )
        ),
        observed=_observed(lio.field(data, "observed", dict, "/data", E), tuple(ids)),
        used=np.array(used, dtype=np.bool_),
        ci=ci,
        n_boot=lio.as_int(lio.field(doc, "n_boot", int, "", E), "/n_boot", 0, MAX_COUNT, E),
        bootstrap=lio.field(doc, "bootstrap", str, "", E),
        confidence=confidence,
        n_rows=lio.as_int(lio.field(doc, "n_rows", int, "", E), "/n_rows", 0, MAX_COUNT, E),
        n_players=lio.as_int(
            lio.field(doc, "n_players", int, "", E), "/n_players", 0, MAX_COUNT, E
        ),
        skipped={str(k): v for k, v in skipped.items()},
        band_targets=tuple(
            _numbers(lio.field(data, "band_targets", list, "/data", E), "/data/band_targets", None)
        ),
    )
