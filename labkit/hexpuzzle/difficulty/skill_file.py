"""The skill model's JSON file (format ``labkit.hexpuzzle.skill-model``, version 1): reading.

Everything is checked before a model is built; errors name the JSON pointer and the value.
Limits: at most :data:`MAX_LEVELS` levels and :data:`MAX_PLAYERS` players.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit import io as lio
from labkit.hexpuzzle.difficulty.scoring import PARTS
from labkit.io import FormatError

FORMAT, VERSION = "labkit.hexpuzzle.skill-model", 1


class SkillModelError(FormatError):
    """A skill model that cannot be fitted, or a bad model file."""


__all__ = ["MAX_ATTEMPTS", "MAX_LEVELS", "MAX_PLAYERS", "model_from_dict"]

#: Limits of a model file (checked on load).
MAX_LEVELS, MAX_PLAYERS = 10_000, 1_000_000
#: Most attempts per level a model file may record (the funnel's limit too).
MAX_ATTEMPTS = 100


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value)


def model_from_dict(cls: Any, doc: Any) -> Any:
    """Build ``cls`` (:class:`~labkit.hexpuzzle.SkillModel`) from a checked document."""

    E = SkillModelError
    doc = lio.check_header(doc, format=FORMAT, versions=(VERSION,), error=E)
    levels = lio.field(doc, "levels", list, "", E)
    lio.check(
        0 < len(levels) <= MAX_LEVELS,
        f"must hold 1 to {MAX_LEVELS} levels",
        "/levels",
        len(levels),
        E,
    )
    features = lio.field(doc, "features", bool, "", E)
    names = _feature_names(doc.get("feature_names"), E)
    rows = []
    for i, lv in enumerate(levels):
        at = f"/levels/{i}"
        lio.check(isinstance(lv, dict), "must be an object", at, type(lv).__name__, E)
        b = lv.get("difficulty")
        unplayed = b is None and not features  # nobody played it and nothing predicts it
        ci = [np.nan, np.nan] if unplayed else lio.field(lv, "ci", list, at, E)
        b = np.nan if unplayed else lio.field(lv, "difficulty", float, at, E)
        xs = lio.field(lv, "strengths", list, at, E)
        lio.check(
            unplayed or (len(ci) == 2 and all(_finite(c) for c in ci)),
            "must be two numbers",
            f"{at}/ci",
            ci,
            E,
        )
        lio.check(
            unplayed or (_finite(b) and ci[0] <= b <= ci[1]),
            "must be a finite number inside its interval ci (low <= difficulty <= high)",
            f"{at}/difficulty",
            b,
            E,
        )
        lio.check(
            len(xs) == len(names) and all(v is None or _finite(v) for v in xs),
            f"must be {len(names)} numbers or nulls",
            f"{at}/strengths",
            xs,
            E,
        )
        rows.append(
            (
                lio.field(lv, "id", str, at, E),
                b,
                ci,
                lio.as_int(lio.field(lv, "n", int, at, E), f"{at}/n", 0, None, E),
                [np.nan if v is None else v for v in xs],
            )
        )
    ids = [r[0] for r in rows]
    lio.check(len(set(ids)) == len(ids), "level ids must be unique", "/levels", error=E)
    players = lio.field(doc, "players", dict, "", E)
    pids = lio.field(players, "ids", list, "/players", E)
    ability = lio.field(players, "ability", list, "/players", E)
    lio.check(
        len(pids) == len(ability) <= MAX_PLAYERS
        and all(_finite(a) for a in ability)
        and all(isinstance(p, str) for p in pids),
        f"ids (strings) and ability (numbers) must pair up, at most {MAX_PLAYERS}",
        "/players",
        error=E,
    )
    weights = lio.field(doc, "weights", dict, "", E)
    lio.check(all(_finite(v) for v in weights.values()), "must be numbers", "/weights", weights, E)
    lio.check(
        set(weights) == ({"baseline", *names} if features else set()),
        "must name the six parts (or the feature_names) and baseline (none without features)",
        "/weights",
        sorted(weights),
        E,
    )
    residual = doc.get("residual_sd")
    lio.check(
        residual is None or _finite(residual),
        "must be a number or null",
        "/residual_sd",
        residual,
        E,
    )
    cov = lio.field(doc, "weights_cov", list, "", E)
    k = len(weights)
    lio.check(
        len(cov) == k
        and all(isinstance(r, list) and len(r) == k and all(_finite(v) for v in r) for r in cov),
        f"must be a {k} x {k} matrix of numbers",
        "/weights_cov",
        error=E,
    )
    _positive_semidefinite(np.array(cov, dtype=float).reshape(k, k), "/weights_cov", E)
    sd = lio.field(doc, "ability_sd", float, "", E)
    lio.check(_finite(sd) and sd > 0, "must be a positive number", "/ability_sd", sd, E)
    lio.check(
        residual is None or residual >= 0, "must not be negative", "/residual_sd", residual, E
    )
    extra = _extras(doc, len(rows), E)
    return cls(
        level_ids=tuple(ids),
        difficulty=np.array([r[1] for r in rows], dtype=float),
        difficulty_ci=np.array([r[2] for r in rows], dtype=float).reshape(-1, 2),
        player_ids=tuple(pids),
        ability=np.array(ability, dtype=float),
        ability_sd=float(sd),
        weights={str(k): float(v) for k, v in weights.items()},
        residual_sd=np.nan if residual is None else float(residual),
        n_attempts=np.array([r[3] for r in rows], dtype=np.int64),
        strengths=np.array([r[4] for r in rows], dtype=float).reshape(-1, len(names)),
        features=features,
        weights_cov=np.array(cov, dtype=float).reshape(k, k),
        fit_info=dict(lio.field(doc, "fit", dict, "", E, default={})),
        feature_names=None if "feature_names" not in doc else names,
        **extra,
    )


#: The most features a model file may name (a table of any game's level features).
MAX_FEATURES = 1000


def _feature_names(value: Any, E: type) -> tuple[str, ...]:
    """A feature table's names (issue 49: optional; absent, the six H9 parts of older files)."""
    if value is None:
        return tuple(PARTS)
    lio.check(
        isinstance(value, list) and 0 < len(value) <= MAX_FEATURES
        and all(isinstance(n, str) and n and n != "baseline" for n in value)
        and len(set(value)) == len(value),
        f"must be 1 to {MAX_FEATURES} distinct non-empty names (not 'baseline')",
        "/feature_names", value if isinstance(value, list) else type(value).__name__, E,
    )  # fmt: skip
    return tuple(value)


def _matrix(value: Any, k: int, at: str, E: type) -> np.ndarray:
    lio.check(
        isinstance(value, list)
        and len(value) == k
        and all(isinstance(r, list) and len(r) == k and all(_finite(v) for v in r) for r in value),
        f"must be a {k} x {k} matrix of numbers",
        at,
        error=E,
    )
    m = np.array(value, dtype=float).reshape(k, k)
    lio.check(
        bool(np.all(np.diag(m) >= 0)), "a variance (diagonal) must not be negative", at, error=E
    )
    if at != "/quit_model/cov":  # (the quit model checks its own matrix, in its own words)
        _positive_semidefinite(m, at, E)
    return m


def _positive_semidefinite(m: np.ndarray, at: str, E: type) -> None:
    """A covariance must be symmetric positive semi-definite: one that is not gives negative
    variances to the sums it predicts (an unplayed level's difficulty), read silently as 0.

    A rounding margin of 1e-8 of the largest entry keeps a fitted matrix valid (symmetric and
    semi-definite up to rounding: 2e-10 of its scale seen in fits) after its JSON round trip.
    """
    if not m.size:
        return
    scale = max(float(np.abs(m).max()), 1e-300)
    low = float(np.linalg.eigvalsh((m + m.T) / 2).min()) if np.isfinite(m).all() else -np.inf
    lio.check(
        bool(np.abs(m - m.T).max() <= 1e-8 * scale) and low >= -1e-8 * scale,
        "must be symmetric positive semi-definite (a covariance matrix)",
        at,
        f"smallest eigenvalue {low:.3g}" if np.isfinite(low) else None,
        E,
    )


def _extras(doc: dict, n_levels: int, E: type) -> dict[str, Any]:
    """The fields of the selection-aware fit (absent from older files: the ignorable model)."""
    from labkit.hexpuzzle.difficulty.skill_quit import N_TERMS, QUIT_TERMS, QuitModel

    learning = doc.get("learning", 0.0)
    lio.check(_finite(learning), "must be a number", "/learning", learning, E)
    alpha = doc.get("discrimination")
    lio.check(
        alpha is None
        or (
            isinstance(alpha, list)
            and len(alpha) == n_levels
            and all(_finite(a) and a > 0 for a in alpha)
        ),
        f"must be null or {n_levels} positive numbers",
        "/discrimination",
        error=E,
    )
    quit = doc.get("quit_model")
    quit_model = None
    if quit is not None:
        lio.check(isinstance(quit, dict), "must be an object or null", "/quit_model", error=E)
        coef = lio.field(quit, "coefficients", dict, "/quit_model", E)
        lio.check(
            set(coef) == set(QUIT_TERMS) and all(_finite(v) for v in coef.values()),
            f"must give numbers for exactly {', '.join(QUIT_TERMS)}",
            "/quit_model/coefficients",
            sorted(coef),
            E,
        )
        cov = _matrix(quit.get("cov"), N_TERMS, "/quit_model/cov", E)
        quit_model = QuitModel({k: float(coef[k]) for k in QUIT_TERMS}, cov)
    k = 2 + N_TERMS * (quit_model is not None)
    g = doc.get("global_cov")
    gcov = np.zeros((0, 0)) if g is None or g == [] else _matrix(g, k, "/global_cov", E)
    cap = doc.get("max_attempts")  # absent before issue 45: not recorded
    lio.check(
        cap is None or (isinstance(cap, int) and not isinstance(cap, bool)
                        and 1 <= cap <= MAX_ATTEMPTS),
        f"must be null or a whole number from 1 to {MAX_ATTEMPTS}",
        "/max_attempts",
        cap,
        E,
    )  # fmt: skip
    return {
        "max_attempts": cap,
        "observed": _observed(doc.get("observed"), n_levels, E),
        "learning": float(learning),
        "discrimination": None if alpha is None else np.array(alpha, dtype=float),
        "quit_model": quit_model,
        "global_cov": gcov,
    }


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _observed(obs: Any, n_levels: int, E: type) -> dict[str, Any] | None:
    """The fitted players' counts per level (absent before issue 45: None, no check)."""
    if obs is None:
        return None
    lio.check(isinstance(obs, dict), "must be an object or null", "/observed", error=E)
    players = obs.get("players")
    lio.check(_count(players), "must be a whole number >= 0", "/observed/players", players, E)
    out: dict[str, Any] = {"players": players}
    for key in ("reached", "first_try", "stopped"):
        v = obs.get(key)
        lio.check(
            isinstance(v, list) and len(v) == n_levels
            and all(_count(c) and c <= players for c in v),
            f"must be {n_levels} whole numbers from 0 to players",
            f"/observed/{key}",
            error=E,
        )  # fmt: skip
        out[key] = list(v)
    return out
