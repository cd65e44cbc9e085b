"""The honest check: fit on some players, predict the funnel of the others, compare.

Players (not rows) are split at random: a share ``fit_share`` of them is fitted
(``fit_skill_model`` with the quit model), and the funnel the fit predicts for the campaign is
compared with the funnel the *other* players actually made (:func:`observed_funnel`): per level,
the share who reached it and the share of those who stopped there (the quit rate). Reported:
Spearman's rank correlation and the mean absolute error of each, and of first-try success.

Two cautions a reader needs. Reach can only fall from level to level, in the data and in any
prediction, so its Spearman is close to 1 for almost any model; its MAE is the informative
number. The last level has no stop decision, so quit rates are compared over the others.

Examples
--------
>>> from labkit.hexpuzzle.playthrough.truth import TrueModel
>>> truth = TrueModel([-1.0, 0.0, 0.5, 1.0], quit={"baseline": -2.0, "won": -1.0})
>>> obs = observed_funnel(truth.telemetry(400, rng=1), truth.level_ids)
>>> float(obs["reach"][0]), bool(obs["reach"][3] < obs["reach"][1]), float(obs["quit_hazard"][3])
(1.0, True, 0.0)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough.model import _level_id, funnel, observed_counts_of
from labkit.hexpuzzle.playthrough.simulate import Funnel
from labkit.rng import RngLike, make_rng

__all__ = ["HoldoutCheck", "holdout_check", "observed_funnel"]


def observed_funnel(telemetry: Any, level_ids: Sequence[str]) -> dict[str, NDArray[np.float64]]:
    """The funnel players actually made: reach, first-try success, attempts per clear, quit rate.

    Every player in the data counts as having started the campaign; a player's last level in
    campaign order is where it stopped (nobody stops at the last level: it finished).

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.telemetry import make_table
    >>> rows = make_table([("a", "p1", 1, True, 0, 0, 0, 0, 0.0, True),
    ...                    ("b", "p1", 1, False, 0, 0, 0, 0, 0.0, False),
    ...                    ("a", "p2", 1, False, 0, 0, 0, 0, 0.0, False)])
    >>> obs = observed_funnel(rows, ["a", "b"])
    >>> obs["reach"].tolist(), obs["quit_hazard"].tolist(), obs["first_try"].tolist()
    ([1.0, 0.5], [0.5, 0.0], [0.5, 0.0])
    """
    ids = [str(i) for i in level_ids]
    # the same counts the funnel's check reads (one piece of code for one job)
    c = observed_counts_of(telemetry, ids, attempts=True)
    n = c["players"]
    if n == 0:
        raise ArgumentError("has no rows of these levels", argument="telemetry", value=ids[:3])
    names = ("reached", "stopped", "first_try", "clears", "tries")
    reached, stopped, first, clears, tries = (np.asarray(c[k], dtype=float) for k in names)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "reach": reached / n,
            "first_try": first / reached,
            # reached but never cleared: NaN (as the simulated funnel), not infinity
            "attempts_per_clear": np.where(clears > 0, tries / clears, np.nan),
            "quit_hazard": stopped / reached,
            "players": np.array([float(n)]),
        }


@dataclass(frozen=True, eq=False)
class HoldoutCheck:
    """Predicted against held-out, per level, and the agreement measures.

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> truth = TrueModel([-1.0, 0.0, 0.5, 1.0], quit={"baseline": -2.0, "won": -1.0})
    >>> check = holdout_check(truth.telemetry(300, rng=1), truth.level_ids,
    ...                       fit=lambda rows, levels: truth, players=2000, draws=5)
    >>> check.fit_players, check.test_players, sorted(check.scores)
    (150, 150, ['first-try success', 'quit rate', 'reach'])
    """

    level_ids: tuple[str, ...]
    predicted: Funnel
    observed: dict[str, NDArray[np.float64]]
    fit_players: int
    test_players: int
    scores: dict[str, dict[str, float]]  # measure -> {"spearman": , "mae": }

    def table(self) -> str:
        """The agreement measures as a plain-text table."""
        lines = [f"fit on {self.fit_players} players, predicted {self.test_players} others",
                 f"{'measure':<20}{'Spearman':>10}{'MAE':>9}"]  # fmt: skip
        for name, s in self.scores.items():
            lines.append(f"{name:<20}{s['spearman']:>10.3f}{s['mae']:>9.3f}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.table()


def _agreement(pred: NDArray, obs: NDArray) -> dict[str, float]:
    from scipy.stats import ConstantInputWarning, spearmanr

    ok = np.isfinite(pred) & np.isfinite(obs)
    if ok.sum() < 3:
        return {"spearman": float("nan"), "mae": float("nan"), "levels": int(ok.sum())}
    with warnings.catch_warnings():
        # a constant side (every level reached by all) has no rank correlation: NaN, said in
        # the table, not a scipy warning on the designer's terminal
        warnings.simplefilter("ignore", ConstantInputWarning)
        rho = spearmanr(pred[ok], obs[ok]).statistic
    return {"spearman": float(rho), "mae": float(np.mean(np.abs(pred[ok] - obs[ok]))),
            "levels": int(ok.sum())}  # fmt: skip


def holdout_check(
    telemetry: Any,
    campaign: Sequence[Any],
    *,
    fit: Callable[..., Any] | None = None,
    fit_share: float = 0.5,
    players: int = 20_000,
    draws: int = 20,
    rng: RngLike = 0,
    **fit_kw: Any,
) -> HoldoutCheck:
    """Fit on a random share of the players, predict the funnel of the others (module notes).

    Parameters
    ----------
    telemetry : telemetry table
        Attempts of players who played ``campaign`` in order.
    campaign : sequence of Level (or ids, with ``features=False`` in ``fit_kw``)
    fit : callable, optional
        ``fit(telemetry, campaign, **fit_kw) -> model`` (default ``fit_skill_model`` with
        ``dropout="model"``).
    fit_share : float
        Share of the players fitted (the rest are predicted).
    players, draws : int
        The predicted funnel's cohorts.

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> truth = TrueModel([-1.0, 0.0, 1.0], quit={"baseline": -1.5})
    >>> rows = truth.telemetry(400, rng=0)
    >>> check = holdout_check(rows, truth.level_ids, features=False, players=2000, draws=5)
    >>> check.test_players, bool(check.scores["reach"]["mae"] < 0.1)
    (200, True)
    """
    import math
    import numbers

    from labkit.hexpuzzle.difficulty.telemetry import as_table

    if (isinstance(fit_share, bool) or not isinstance(fit_share, numbers.Real)
            or not math.isfinite(fit_share) or not 0.0 < fit_share < 1.0):  # fmt: skip
        raise ArgumentError("must be a number strictly between 0 and 1", argument="fit_share",
                            value=fit_share)  # fmt: skip
    fitter: Callable[..., Any]
    if fit is None:
        from labkit.hexpuzzle.difficulty.skill import fit_skill_model

        fitter = fit_skill_model
        fit_kw.setdefault("dropout", "model")
    else:
        fitter = fit
    table = as_table(telemetry)
    gen = make_rng(rng)
    ids = np.unique(table["player"])
    chosen = set(gen.permutation(ids)[: max(2, int(round(fit_share * len(ids))))].tolist())
    in_fit = np.array([p in chosen for p in table["player"].tolist()])
    model = fitter(table[in_fit], list(campaign), **fit_kw)
    level_ids = [_level_id(lv) for lv in campaign]
    # the attempt cap from the fitted players' rows: a held-out player's retries must not
    # reach the prediction (it is built from the fitted players' events alone)
    k = int(table["attempt"][in_fit].max())
    pred = funnel(campaign, model, players=players, draws=draws, rng=gen, telemetry=table[in_fit],
                  max_attempts=k)  # fmt: skip
    obs = observed_funnel(table[~in_fit], level_ids)
    scores = {
        "reach": _agreement(pred.stats["reach"][:, 0], obs["reach"]),
        "quit rate": _agreement(pred.stats["quit_hazard"][:-1, 0], obs["quit_hazard"][:-1]),
        "first-try success": _agreement(pred.stats["first_try"][:, 0], obs["first_try"]),
    }
    return HoldoutCheck(tuple(level_ids), pred, obs, len(chosen), len(ids) - len(chosen), scores)
