"""A player-skill model: who plays, apart from how hard a level is (rule W1).

First-attempt success is modelled as P(win at the first try | player p, level l) = σ(θ_p − β_l)
(the Rasch model of item-response theory): θ_p is the player's ability, β_l the level's
difficulty, both in logits. Ability 0 is the mean ability of all players in the data, including
those who quit after one level, so ``success(level)`` is the first-try success of an average
player.

**Estimator: marginal maximum likelihood, then the linear logistic test model.**

1. Abilities are integrated out over a normal population θ ~ N(0, σ²) (a 41-node trapezoid
   grid over ±5 σ; :mod:`.skill_joint`, kernel :mod:`._skill_kernels`). With ``retries=True``
   every attempt counts, P(win at attempt k) = σ(θ − β_l + λ·(k − 1)) with a learning step λ;
   with ``dropout="model"`` (the default) each player's decision to go on after a level is a
   logistic function of θ and of what happened (:mod:`.skill_quit`), estimated jointly with the
   responses (a shared-parameter model). The difficulties, σ, λ and the quit coefficients
   maximise the marginal likelihood (L-BFGS, analytic gradient by Fisher's identity, weak
   priors); their covariance is the inverse of the empirical information. Every player's
   ability is then its posterior mean.
2. With ``features=True`` (the linear logistic test model), β_l = b + Σ_j w_j·x_jl + r_l, x the
   six H9 parts as strengths (0–1) — or, for any game, ``features=`` a table of its own numeric
   features per level id (:mod:`.level_features`, issue 49) —, r_l ~ N(0, τ²) a per-level
   residual: a Gaussian random-effects regression of the stage-1 difficulties on the parts, τ by
   restricted maximum likelihood. A level's difficulty is shrunk toward what its parts predict,
   by as much as its data are thin; a level nobody played gets the prediction (with τ² added to
   its variance), and so does any level with a feature row (:meth:`SkillModel.predict`).

**Why weak players quitting early does not bias it.** When a player's chance to quit depends on
the outcomes already in the telemetry (a run of failures), the unseen attempts are *missing at
random*. The probability of the observed data then factorises into P(observed attempts | β, σ)
× P(who quit when | observed attempts), and the second factor does not involve β or σ: the
likelihood of the attempts actually observed, with θ integrated over the whole population
(quitters included), is the right likelihood and its maximiser stays consistent (Rubin, 1976).
What goes wrong is averaging over whoever reached a level (the observed index of
:func:`~labkit.hexpuzzle.difficulty.fit.calibrate`): late levels are seen by survivors, who are
stronger. A *joint* fit that estimates every θ_p as a free parameter is avoided on purpose: with
one or two attempts per quitter its abilities are badly biased (the incidental-parameter
problem), and the bias leaks into β. On a progression world like the test suite's (60 levels, 1,000
players, most quitting early) a joint fit under a weak N(0, 10²) prior shifts the difficulties
by +0.76 logits on average and stretches their scale by 12 %; the marginal fit is off by
−0.04 logits and −2 %. When quitting depends on ability beyond the outcomes (weaker players
less persistent), dropout is not at random and a fit of the responses alone
(``dropout="ignore"``) places the levels too low and the players too close together (on
issue 25's world: −0.35 to −0.47 logits, spread 0.79–0.83 of the truth); modelling the
decisions jointly, sharing θ, puts it right (within ±0.1 logits and 4 %: see
:mod:`.skill_validate`).

Examples
--------
>>> import numpy as np
>>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
>>> ids = [f"L{i}" for i in range(6)]
>>> beta = np.linspace(-1.5, 1.5, 6)
>>> theta = np.random.default_rng(0).normal(0, 1, 400)
>>> model = fit_skill_model(telemetry_from_skill(ids, beta, theta, rng=1), ids, features=False)
>>> bool(np.corrcoef(model.difficulty, beta)[0, 1] > 0.95)
True
>>> 0 < model.success("L0") < 1, model.calibrated_score("L0") < model.calibrated_score("L5")
(True, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError, LabkitError
from labkit import io as lio
from labkit.hexpuzzle.difficulty.calibration import band_of
from labkit.hexpuzzle.difficulty.fit import BAND_TARGETS, strengths
from labkit.hexpuzzle.difficulty.scoring import PARTS, Difficulty, score
from labkit.hexpuzzle.difficulty.skill_file import FORMAT, MAX_ATTEMPTS, VERSION, SkillModelError
from labkit.hexpuzzle.difficulty.skill_quit import ATTEMPT_CAP, QUIT_TERMS, QuitModel
from labkit.hexpuzzle.level import Level

__all__ = [
    "FORMAT",
    "VERSION",
    "SkillModel",
    "SkillModelError",
    "fit_skill_model",
    "parts_table",
    "shipped_skill_model",
]


@dataclass(frozen=True, eq=False)
class SkillModel:
    """A fitted skill model (see :mod:`labkit.hexpuzzle.difficulty.skill`).

    Attributes
    ----------
    level_ids : tuple of str
    difficulty : (n,) array
        β per level (logits), aligned with ``level_ids``; higher is harder.
    difficulty_ci : (n, 2) array
        95 % interval of β.
    player_ids : tuple of str
    ability : (m,) array
        θ per player (posterior mean, logits; 0 = mean of all players).
    ability_sd : float
        Spread σ of abilities in the population.
    weights : dict
        Part → logits at full strength, plus ``"baseline"`` (empty when ``features=False``);
        with a feature table, feature → logits per unit of it.
    residual_sd : float
        τ, the spread of per-level difficulty the parts do not explain (NaN without features).
    n_attempts : (n,) int array
        First attempts per level in the data.
    strengths : (n, k) array
        The levels' parts as strengths (recognises a level passed as an object), or their
        features from the table.
    feature_names : tuple of str or None
        The features of a table the model was fitted with (the columns of ``strengths``, the
        keys of ``weights`` besides ``baseline``); None: the six H9 parts.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
    >>> ids = ["L0", "L1", "L2", "L3", "L4"]
    >>> theta = np.random.default_rng(0).normal(0, 1, 200)
    >>> rows = telemetry_from_skill(ids, np.linspace(-1.5, 1.5, 5), theta, rng=1)
    >>> model = fit_skill_model(rows, ids, features=False)
    >>> model
    SkillModel(5 levels, 200 players, ability sd 0.83, features=False)
    >>> model.success("L0") > 0.5 > model.success("L4")
    True
    >>> model.difficulty_of("L2") == model.difficulty[2].item()
    True
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     model.save(pathlib.Path(tmp) / "skill.json")
    ...     again = SkillModel.load(pathlib.Path(tmp) / "skill.json")
    >>> again.level_ids == model.level_ids, bool(np.allclose(again.difficulty, model.difficulty))
    (True, True)
    """

    level_ids: tuple[str, ...]
    difficulty: NDArray[np.float64]
    difficulty_ci: NDArray[np.float64]
    player_ids: tuple[str, ...]
    ability: NDArray[np.float64]
    ability_sd: float
    weights: dict[str, float]
    residual_sd: float
    n_attempts: NDArray[np.int64]
    strengths: NDArray[np.float64]
    features: bool = True
    weights_cov: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 0)))
    fit_info: dict[str, Any] = field(default_factory=dict)
    #: λ, logits added per retry (attempt k gets λ·(min(k, 6) − 1)); 0 without retries
    learning: float = 0.0
    #: α per level (two-parameter option), or None (all 1)
    discrimination: NDArray[np.float64] | None = None
    #: the continuation model (``dropout="model"``), or None (``dropout="ignore"``)
    quit_model: QuitModel | None = None
    #: covariance of (log ability sd, learning, quit coefficients) as fitted, for draws
    global_cov: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 0)))
    #: the data and levels the model was fitted to (for :meth:`report`); not saved
    source: Any = field(default=None, repr=False)
    #: attempts per level the data allowed (the most anyone made); None: not recorded (a file
    #: written before issue 45: the funnel then plays 3 attempts unless told otherwise)
    max_attempts: int | None = None
    #: what the fitted players did, per level in fit order (:func:`.skill_stats.observed_counts`):
    #: the funnel checks the model against it; None in files written before issue 45
    observed: dict[str, Any] | None = field(default=None, repr=False)
    #: the features of a table (issue 49); None: the six H9 parts (and files before issue 49)
    feature_names: tuple[str, ...] | None = None

    @property
    def explained_by(self) -> tuple[str, ...]:
        """The features difficulty is explained by: the table's, or the six H9 parts."""
        return self.feature_names if self.feature_names is not None else PARTS

    # --- prediction -------------------------------------------------------------------------
    def difficulty_of(self, level_or_id: Level | Difficulty | str | Mapping[str, float]) -> float:
        """β of a level in the data (by id, or an object whose parts match), else predicted
        from its parts or its features (a dict ``{feature: number}``; ``features`` only)."""
        if not isinstance(level_or_id, (str, Level, Difficulty)):  # a feature row
            return float(self._predicted(self._row(level_or_id))[0][0])
        if isinstance(level_or_id, str):
            try:
                b = float(self.difficulty[self.level_ids.index(level_or_id)])
            except ValueError:
                raise ArgumentError(
                    "no such level in the model", argument="level", value=level_or_id
                ) from None
            if np.isnan(b):
                raise ArgumentError(
                    "nobody played this level and the model has no part weights to predict it",
                    argument="level",
                    value=level_or_id,
                )
            return b
        d = level_or_id if isinstance(level_or_id, Difficulty) else score(level_or_id)
        x = strengths(d)
        if d.level_id in self.level_ids:
            i = self.level_ids.index(d.level_id)
            if np.allclose(self.strengths[i], x, equal_nan=True):
                return float(self.difficulty[i])
        if not self.features or not np.isfinite(x).all():
            why = "the model has no part weights" if not self.features else "it has no score"
            raise ArgumentError(
                f"cannot predict a new level: {why}", argument="level", value=d.level_id
            )
        return float(self.weights["baseline"] + x @ [self.weights[p] for p in PARTS])

    def _row(self, row: Any) -> NDArray:
        from labkit.hexpuzzle.difficulty.level_features import feature_row

        if not self.features:
            raise ArgumentError("cannot predict a new level: the model has no feature weights",
                                argument="level", value=dict(row))  # fmt: skip
        return feature_row(row, self.explained_by)

    def _predicted(self, x: NDArray) -> tuple[NDArray, NDArray]:
        """(β, variance) of levels with features ``x`` (rows) nobody played: x·γ, and the
        weights' uncertainty plus the residual τ² (what the fit gives an unplayed level)."""
        x = np.atleast_2d(np.asarray(x, dtype=float))
        design = np.column_stack([np.ones(len(x)), x])
        gamma = np.array([self.weights["baseline"]] + [self.weights[n] for n in self.explained_by])
        cov = self.weights_cov
        var = (np.einsum("ij,jk,ik->i", design, cov, design)
               if cov.shape == (len(gamma),) * 2 else np.zeros(len(x)))  # fmt: skip
        tau = 0.0 if np.isnan(self.residual_sd) else self.residual_sd
        return design @ gamma, var + tau**2

    def predict(self, features: Any) -> Any:
        """Difficulty of levels from a feature table (a ``DataFrame``, one row per level id,
        the columns the model was fitted with: :mod:`.level_features`), with 95 % intervals.

        A level the model was fitted on keeps its fitted β and interval; any other is predicted
        from its features: x·γ, its variance the weights' uncertainty plus the residual τ².
        Returns a ``DataFrame`` indexed by level id: ``difficulty``, ``low``, ``high`` and
        ``success`` (an average player's first try).
        """
        import pandas as pd

        from labkit.hexpuzzle.difficulty.level_features import _frame, feature_table

        if not self.features:
            raise ArgumentError("the model has no feature weights (fitted with features=False)",
                                argument="features")  # fmt: skip
        table = _frame(features, "features")
        ids = [str(i) for i in table.index]
        missing = [n for n in self.explained_by if n not in table.columns]
        if missing:
            raise ArgumentError(f"column {missing[0]!r}: missing (the model was fitted with it)",
                                argument="features")  # fmt: skip
        _, x = feature_table(table[list(self.explained_by)], ids)
        beta, var = self._predicted(x)
        half = 1.959963984540054 * np.sqrt(np.maximum(var, 0.0))
        low, high = beta - half, beta + half
        for k, lid in enumerate(ids):
            if lid in self.level_ids and np.isfinite(self.difficulty[self.level_ids.index(lid)]):
                i = self.level_ids.index(lid)
                beta[k], (low[k], high[k]) = self.difficulty[i], self.difficulty_ci[i]
        return pd.DataFrame({"difficulty": beta, "low": low, "high": high,
                             "success": 1.0 / (1.0 + np.exp(beta))},
                            index=pd.Index(ids, name="level"))  # fmt: skip

    def success(
        self, level_or_id: Level | Difficulty | str, ability: Any = 0.0, *, attempt: int = 1
    ) -> Any:
        """Success σ(α·(θ − β) + λ·(k − 1)) of a player of ``ability`` (0 = average) at a
        level on attempt ``k`` (1 = first try; retries from the sixth on share one step).

        A level in the data uses its fitted β; a :class:`Level` not in the data is predicted
        from its parts (plug-in β, the residual's uncertainty is not averaged over). An array
        of abilities gives an array.
        """
        from labkit._args import check_int

        k = check_int(attempt, "attempt", 1, None)
        beta = self.difficulty_of(level_or_id)
        alpha = 1.0
        if self.discrimination is not None and isinstance(level_or_id, str):
            alpha = float(self.discrimination[self.level_ids.index(level_or_id)])
        a = np.asarray(ability, dtype=float)
        eta = alpha * (a - beta) + self.learning * (min(k, ATTEMPT_CAP) - 1)
        p = 1.0 / (1.0 + np.exp(-eta))
        return float(p) if p.ndim == 0 else p

    def parameter_draws(self, n: int, rng: Any = None) -> dict[str, Any]:
        """``n`` draws from the fit's approximate sampling distribution (parametric bootstrap).

        Difficulties are drawn level by level from their normal intervals; the ability spread
        (on the log scale), the learning step and the quit coefficients jointly from the
        normal with the fit's covariance. Returns ``{"difficulty": (n, levels),
        "ability_sd": (n,), "learning": (n,), "quit": (n, 9) or None}`` (quit in
        :data:`~.skill_quit.QUIT_TERMS` order).
        """
        from labkit._args import check_int
        from labkit.rng import make_rng

        n = check_int(n, "n", 1, 1_000_000)
        gen = make_rng(rng)
        sd = np.nan_to_num((self.difficulty_ci[:, 1] - self.difficulty_ci[:, 0]) / 3.919927969)
        diff = self.difficulty[None, :] + sd[None, :] * gen.standard_normal((n, len(sd)))
        q = self.quit_model.vector if self.quit_model is not None else np.zeros(0)
        mean = np.r_[np.log(self.ability_sd), self.learning, q]
        cov = (
            self.global_cov
            if self.global_cov.shape == (len(mean),) * 2
            else np.zeros((len(mean), len(mean)))
        )
        g = gen.multivariate_normal(mean, cov, size=n, method="eigh")
        return {
            "difficulty": diff,
            "ability_sd": np.exp(g[:, 0]),
            "learning": g[:, 1],
            "quit": g[:, 2:] if self.quit_model is not None else None,
        }

    def calibrated_score(self, level_or_id: Level | Difficulty | str) -> int:
        """A 0–100 score from an average player's first-try success s, monotone in β.

        Piecewise linear in s through (1, 0), (0.85, 30), (0.65, 50), (0.45, 70), (0, 100), so
        the usual band edges 30/50/70 mean what :func:`calibrate`'s band targets mean: easy
        levels are cleared at the first try by ≥ 85 % of average players, and so on.
        """
        s = self.success(level_or_id)
        t = BAND_TARGETS
        return int(
            np.floor(np.interp(-s, [-1.0, -t[0], -t[1], -t[2], 0.0], [0, 30, 50, 70, 100]) + 0.5)
        )

    def band(self, level_or_id: Level | Difficulty | str) -> str:
        """The band (easy, intermediate, hard, challenge) of :meth:`calibrated_score`."""
        return str(band_of(self.calibrated_score(level_or_id)))

    # --- reporting ---------------------------------------------------------------------------
    def report(self, *, folds: int = 5, rng: Any = 0) -> Any:
        """Held-out evaluation (k-fold by player): see :func:`.skill_report.evaluate`."""
        from labkit.hexpuzzle.difficulty.skill_report import evaluate

        if self.source is None:
            raise SkillModelError("a loaded model has no data to evaluate; refit it")
        from functools import partial

        table, levels, options = self.source[:3]
        fit = partial(_fit, **options)
        features = self.source[3] if len(self.source) > 3 else self.features  # a feature table
        return evaluate(table, levels, fit=fit, features=features, folds=folds, rng=rng)

    def table(self) -> list[dict[str, Any]]:
        """One dict per level: id, β, interval, success of an average player, score, band."""
        out = []
        for lid, b, (lo, hi), n in zip(
            self.level_ids, self.difficulty, self.difficulty_ci, self.n_attempts
        ):
            known = bool(np.isfinite(b))
            out.append(
                {
                    "level": lid,
                    "difficulty": round(float(b), 3) if known else None,
                    "low": round(float(lo), 3) if known else None,
                    "high": round(float(hi), 3) if known else None,
                    "n": int(n),
                    "success": round(self.success(lid), 3) if known else None,
                    "score": self.calibrated_score(lid) if known else None,
                    "band": self.band(lid) if known else "unplayed",
                }
            )
        return out

    @property
    def dropout(self) -> str:
        """``"model"`` when quitting was modelled jointly (a :attr:`quit_model`), else
        ``"ignore"``."""
        return "ignore" if self.quit_model is None else "model"

    def describe(self) -> str:
        """One line in designer words: which model is in use and what it found."""
        parts = [
            "quitting modelled jointly with skill"
            if self.quit_model is not None
            else "quitting ignored (assumed to depend on results only)",
        ]
        if self.quit_model is not None:
            parts.append(_skill_and_quitting(self.quit_model, self.ability_sd))
        if self.learning:
            how = "raises" if self.learning > 0 else "lowers"
            parts.append(f"each retry {how} the odds of a win by "
                         f"{abs(np.expm1(self.learning)) * 100:.0f} %")  # fmt: skip
        if self.discrimination is not None:
            parts.append("per-level discrimination")
        parts += _impossible_words(self.fit_info.get("impossible") or {})
        return "; ".join(parts)  # fmt: skip

    def __repr__(self) -> str:
        return (
            f"SkillModel({len(self.level_ids)} levels, {len(self.player_ids)} players, "
            f"ability sd {self.ability_sd:.2f}, features={self.features})"
        )

    def _repr_html_(self) -> str:
        from html import escape

        rows = "".join(
            f"<tr><td>{escape(r['level'])}</td><td>{r['difficulty']:+.2f}</td>"
            f"<td>[{r['low']:+.2f}, {r['high']:+.2f}]</td><td>{r['n']}</td>"
            f"<td>{100 * r['success']:.0f} %</td><td>{r['score']}</td><td>{r['band']}</td></tr>"
            if r["difficulty"] is not None
            else f"<tr><td>{escape(r['level'])}</td><td colspan=6>nobody played it</td></tr>"
            for r in self.table()
        )
        w = ", ".join(f"{k} {v:+.2f}" for k, v in self.weights.items())
        return (
            f"<p>{escape(repr(self))}; weights (logits): {escape(w) or 'none'}</p>"
            "<table><tr><th>level</th><th>β</th><th>95 %</th><th>n</th><th>success</th>"
            f"<th>score</th><th>band</th></tr>{rows}</table>"
        )

    # --- files -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (format/version keys first)."""
        import labkit

        return {
            "format": FORMAT,
            "version": VERSION,
            "labkit": labkit.__version__,
            "features": self.features,
            "ability_sd": self.ability_sd,
            "residual_sd": None if np.isnan(self.residual_sd) else self.residual_sd,
            "weights": self.weights,
            "weights_cov": self.weights_cov.tolist(),
            "learning": self.learning,
            "discrimination": None
            if self.discrimination is None
            else [float(a) for a in self.discrimination],
            "quit_model": None if self.quit_model is None else self.quit_model.to_dict(),
            "global_cov": self.global_cov.tolist(),
            "levels": [
                {
                    "id": lid,
                    "difficulty": float(b) if np.isfinite(b) else None,
                    "ci": [float(lo), float(hi)] if np.isfinite(b) else None,
                    "n": int(n),
                    "strengths": [None if np.isnan(v) else float(v) for v in x],
                }
                for lid, b, (lo, hi), n, x in zip(
                    self.level_ids,
                    self.difficulty,
                    self.difficulty_ci,
                    self.n_attempts,
                    self.strengths,
                )
            ],
            "players": {"ids": list(self.player_ids), "ability": self.ability.tolist()},
            "fit": self.fit_info,
            # written only when known: a model without them writes the file it was read from
            **({} if self.max_attempts is None else {"max_attempts": self.max_attempts}),
            **({} if self.observed is None else {"observed": self.observed}),
            # a feature table's names (issue 49); absent: the six H9 parts, as before
            **({} if self.feature_names is None
               else {"feature_names": list(self.feature_names)}),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, doc: Any) -> SkillModel:
        """Rebuild a model from :meth:`to_dict`'s output; every field is checked first."""
        from labkit.hexpuzzle.difficulty.skill_file import model_from_dict

        return model_from_dict(cls, doc)

    def save(self, path: str | os.PathLike) -> None:
        """Write the model as JSON, atomically."""
        lio.save_json(path, self.to_dict(), format=FORMAT, version=VERSION, indent=1)

    @classmethod
    def load(cls, path: str | os.PathLike) -> SkillModel:
        """Read a model written by :meth:`save`."""
        doc = lio.load_json(path, format=FORMAT, versions=(VERSION,), error=SkillModelError)
        try:
            return cls.from_dict(doc)
        except LabkitError as exc:
            raise exc.with_file(str(path)) from None


#: The fit's options as chosen by held-out evidence (see the closing note of issue 25).
DEFAULTS: dict[str, Any] = {"dropout": "model", "retries": True, "discrimination": False}


def fit_skill_model(
    telemetry: Any,
    levels: Sequence[Level | Difficulty | str],
    *,
    features: Any = True,
    dropout: str = DEFAULTS["dropout"],
    retries: bool = DEFAULTS["retries"],
    discrimination: bool = DEFAULTS["discrimination"],
    rng: Any = None,
    impossible: str = "refuse",
) -> SkillModel:
    """Fit the skill model to ``telemetry`` (see the module docstring).

    Parameters
    ----------
    telemetry : structured array, DataFrame, path or rows
        Attempts in the :mod:`.telemetry` format, in any row order (rows of levels not in
        ``levels`` are counted in ``fit_info`` and ignored).
    levels : sequence of Level, Difficulty or str
        The levels to rate, in campaign order (the order quitting is read in); ids alone with
        ``features=False`` or a feature table.
    features : bool or DataFrame
        Explain difficulty by features (linear logistic test model); needed to predict levels
        nobody has played. ``True``: the six H9 parts of the hex levels given. A table (a
        ``DataFrame`` indexed by level id, or with a ``level`` column, one numeric column per
        feature: :mod:`.level_features`): any game's own features, every level of ``levels``
        with a row (the hex puzzle's parts as such a table: :func:`parts_table`).
    dropout : {"model", "ignore"}
        ``"model"``: each player's decision to go on after a level is modelled jointly with
        the responses, sharing the ability (:mod:`.skill_quit`), so quitting that depends on
        ability is accounted for. ``"ignore"``: right only when quitting depends on the
        observed outcomes alone.
    retries : bool
        Use attempts after the first, with a learning step λ per retry (else first tries only).
    discrimination : bool
        A per-level discrimination α (two-parameter model), shrunk toward 1.
    rng : ignored
        The fit is deterministic; accepted for the common signature.
    impossible : {"refuse", "count"}
        Rows that cannot be true (an attempt after a win, a gap in a player's attempt numbers
        at a level): ``"refuse"`` names the first row and its player; ``"count"`` keeps them
        and states them in ``fit_info["impossible"]`` and :meth:`SkillModel.describe` (with
        the players whose first level is not the campaign's first, always counted there).

    Returns
    -------
    SkillModel

    Raises
    ------
    SkillModelError
        No first attempts of the given levels, or fewer than two players; no level both won
        and lost (every attempt won, or lost: the data cannot tell how hard any level is); a
        fit ending beyond the bounds no data could give (a difficulty past ±30 logits, an
        ability spread over 20), naming the level.

    Examples
    --------
    Telemetry drawn from known difficulties β (players quitting after failures) gives them back:

    >>> import numpy as np
    >>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
    >>> ids = ["L0", "L1", "L2", "L3", "L4"]
    >>> beta = np.linspace(-1.5, 1.5, 5)
    >>> theta = np.random.default_rng(0).normal(0, 1, 200)
    >>> model = fit_skill_model(telemetry_from_skill(ids, beta, theta, rng=1), ids, features=False)
    >>> model.n_attempts.tolist()  # fewer players reach the later levels
    [200, 186, 166, 139, 112]
    >>> error = np.abs(model.difficulty - beta)
    >>> bool(np.all(np.diff(model.difficulty) > 0)), bool(error.max() < 0.5)
    (True, True)
    >>> fit_skill_model(telemetry_from_skill(ids, beta, [0.0], rng=1), ids, features=False)
    Traceback (most recent call last):
    ...
    labkit.hexpuzzle.difficulty.skill_file.SkillModelError: need ... by at least two players ...
    """
    del rng
    from threadpoolctl import threadpool_limits

    if dropout not in ("model", "ignore"):
        raise ArgumentError("must be 'model' or 'ignore'", argument="dropout", value=dropout)
    from labkit.hexpuzzle.difficulty._telemetry_possible import check_choice

    check_choice(impossible)
    # The matrices are small: BLAS threads only spin against each other (10x slower on 2 cores).
    with threadpool_limits(1):
        return _fit(
            telemetry, levels, features,
            dropout=dropout, retries=bool(retries), discrimination=bool(discrimination),
            impossible=impossible,
        )  # fmt: skip


def _impossible_words(counts: dict) -> list[str]:
    """The fit's impossible rows and mid-campaign starters in words (none: nothing said)."""
    said = []
    for key, one, many in (("after_win", "attempt after a win kept", "attempts after a win kept"),
                           ("gaps", "gap in attempt numbers kept", "gaps in attempt numbers kept"),
                           ("mid_campaign", "player starts after the first level",
                            "players start after the first level")):  # fmt: skip
        n = int(counts.get(key, 0))
        if n:
            said.append(f"{n} {one if n == 1 else many}")
    return said


#: An odds ratio interval wider than this factor (high end / low end) says nothing a designer
#: can use (the issue's "×1.00 [0.00, 350.37]"): it is said as "cannot tell".
TOO_WIDE = 20.0


def _odds_change(ratio: float) -> str:
    """An odds ratio as a designer says it: ``0.61`` → "39 % lower", ``1.3`` → "30 % higher"."""
    return f"{(1 - ratio) * 100:.0f} % lower" if ratio < 1 else f"{(ratio - 1) * 100:.0f} % higher"


def _skill_and_quitting(quit_model: Any, spread: float) -> str:
    """What skill does to quitting, per one spread (sd) of the players' skill, in words."""
    lo, hi = (float(np.exp(x * spread)) for x in quit_model.interval("ability"))
    mid = float(np.exp(quit_model.coefficients["ability"] * spread))
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo <= 0 or hi / lo > TOO_WIDE:
        return "whether skill changes quitting: cannot tell from this data"
    if lo <= 1 <= hi:
        return (f"no clear effect of skill on the odds of quitting (95 %: {_odds_change(lo)} "
                f"to {_odds_change(hi)})")  # fmt: skip
    ends = sorted((_odds_change(lo).split(" %")[0], _odds_change(hi).split(" %")[0]), key=int)
    way = "lower" if mid < 1 else "higher"
    return (f"a player one spread (sd) of skill above another has {_odds_change(mid)} odds of "
            f"quitting (95 %: {ends[0]} % to {ends[1]} % {way})")  # fmt: skip


def _fit(
    telemetry: Any,
    levels: Sequence[Any],
    features: bool,
    extra: NDArray | None = None,
    *,
    dropout: str = "model",
    retries: bool = True,
    discrimination: bool = False,
    impossible: str = "refuse",
) -> SkillModel:
    """The fit; ``extra`` (levels × q) adds level covariates to the LLTM design (report only)."""
    # scipy is imported here, not with the package: `import labkit.hexpuzzle` stays quick
    from labkit.hexpuzzle.difficulty import skill_joint as J
    from labkit.hexpuzzle.difficulty.skill_fit import lltm
    from labkit.hexpuzzle.difficulty.skill_stats import (
        EVENT_BLOCK,
        fit_rows,
        observed_counts,
        player_events,
    )

    z, logw = J.nodes()
    ids, x, explaining = _level_features(levels, features)
    explained = not isinstance(features, bool) or features
    # indices by hashing (no Python string per row: 10^7 rows in seconds, little memory); a
    # loaded Telemetry is read from its compact int32 rows, its table never built
    source, lvl, code, names, attempt, won = fit_rows(telemetry, ids)
    impossible_counts = _possible(lvl, code, names, attempt, won, ids, impossible)
    known = lvl >= 0
    first = known & (attempt == 1)
    has_first = np.bincount(code[first], minlength=len(names)) > 0
    players = names[has_first]
    counts = np.bincount(lvl[first], minlength=len(ids))
    seen = np.flatnonzero(counts > 0)
    if len(seen) == 0 or len(players) < 2:
        raise SkillModelError(
            f"need first attempts by at least two players at the given "
            f"levels, found {int(first.sum())} rows by {len(players)} players"
        )
    # a player's later attempts without a first attempt in the data are left out
    keep = known & has_first[code]
    n_rows, n_ignored = int(keep.sum()), int((~known).sum())
    slot_of = (np.cumsum(has_first) - 1).astype(code.dtype)
    if n_rows == len(keep):  # every row is used (the usual case): no copies of the columns
        slot, lvl_used, att_used, won_used = slot_of[code], lvl, attempt, won.astype(bool)
    else:
        take = np.flatnonzero(keep)
        slot, lvl_used, att_used = slot_of[code[take]], lvl[take], attempt[take]
        won_used = won[take].astype(bool)
        del take
    del code, first, keep, known, lvl
    if len(slot) > EVENT_BLOCK and (np.diff(slot) < 0).any():  # rows by player, copied here
        order = np.argsort(slot, kind="stable")  # (one column at a time, each original let go)
        slot = slot[order]
        lvl_used = lvl_used[order]
        att_used = att_used[order]
        won_used = won_used[order]
        del order
    used = slice(None) if retries else att_used == 1  # the attempts the fit will see
    _informative(lvl_used[used], won_used[used], ids, len(players), len(seen))
    # the attempt cap the data allowed (the most attempts anyone made at a level), and what
    # the players did level by level: the funnel plays this cap and checks itself against it
    cap = min(max(int(att_used.max()), 1), MAX_ATTEMPTS) if len(att_used) else None
    observed = observed_counts(lvl_used, slot, att_used, won_used, len(ids), len(players))
    modelled = dropout == "model"
    # players with the same history: one row, counted as often (built in blocks of players)
    ev = player_events(
        lvl_used, slot, att_used, won_used, len(ids), len(players), retries=retries,
        dropout=modelled,
    )  # fmt: skip
    del slot, lvl_used, att_used, won_used
    modelled = modelled and ev.n_decisions > 0
    lay = J.Layout(len(ids), retries, modelled, discrimination)
    par, info, theta, _ = J.fit(ev, lay, z, logw)
    cov_all = J.covariance(info)
    est = par[lay.beta][seen]
    V = cov_all[seen][:, seen]
    beta = np.full(len(ids), np.nan)
    var = np.full(len(ids), np.nan)
    weights: dict[str, float] = {}
    wcov = np.zeros((0, 0))
    tau = float("nan")
    if explained:
        design = np.column_stack([np.ones(len(ids)), x] + ([] if extra is None else [extra]))
        unseen = np.setdiff1d(np.arange(len(ids)), seen)
        b, c, b_new, v_new, gamma, wcov, tau = lltm(est, V, design[seen], design[unseen])
        beta[seen], var[seen], beta[unseen], var[unseen] = b, np.diag(c), b_new, v_new
        k = 1 + len(explaining)
        weights = {"baseline": float(gamma[0]), **dict(zip(explaining, map(float, gamma[1:k])))}
        wcov = wcov[:k, :k]
    else:
        beta[seen], var[seen] = est, np.diag(V)
    shift = float(theta.mean())  # ability 0 = the mean of the players in the data, exactly
    beta -= shift
    if weights:
        weights["baseline"] -= shift
    _within_bounds(beta, seen, float(np.exp(par[lay.log_sigma])), ids, len(players))
    half = 1.959963984540054 * np.sqrt(np.maximum(var, 0.0))
    glob: list[int] = [lay.log_sigma] + ([lay.learning] if lay.learning is not None else [])
    quit_model = None
    if lay.quit is not None:
        q = par[lay.quit].copy()
        q[0] += q[1] * shift  # the same decisions on the shifted ability scale
        qi = np.arange(lay.quit.start, lay.quit.stop)
        quit_model = QuitModel(dict(zip(QUIT_TERMS, map(float, q))), cov_all[np.ix_(qi, qi)])
        glob += list(qi)
    gcov = cov_all[np.ix_(glob, glob)]
    if not retries:  # no learning step: a zero row and column keep the documented layout
        gcov = np.insert(np.insert(gcov, 1, 0.0, axis=0), 1, 0.0, axis=1)
    alpha = np.exp(par[lay.log_alpha]) if lay.log_alpha is not None else None
    learning = float(par[lay.learning]) if lay.learning is not None else 0.0
    options = {"dropout": dropout, "retries": retries, "discrimination": discrimination}
    return SkillModel(
        level_ids=tuple(ids),
        difficulty=beta,
        difficulty_ci=np.column_stack([beta - half, beta + half]),
        player_ids=tuple(str(p) for p in players),
        ability=theta - shift,
        ability_sd=float(np.exp(par[lay.log_sigma])),
        weights=weights,
        residual_sd=tau,
        n_attempts=counts.astype(np.int64),
        strengths=x,
        features=bool(explained),
        feature_names=None if isinstance(features, bool) else explaining,
        weights_cov=wcov,
        learning=learning,
        discrimination=alpha,
        quit_model=quit_model,
        global_cov=gcov,
        fit_info={
            "estimator": (
                "shared-parameter marginal ML (Gauss-Hermite)"
                if modelled
                else "marginal ML (Gauss-Hermite)"
            )
            + (" + LLTM (REML)" if explained else ""),
            **options,
            "rows": n_rows,
            "ignored_rows": n_ignored,
            "impossible": impossible_counts,
            "players": int(len(players)),
            "decisions": int(ev.n_decisions),
            "quits": int(ev.n_quits),
            "population_mean": -shift,
        },  # fmt: skip
        source=(source, list(levels), options)
        + (() if isinstance(features, bool) else (features,)),
        max_attempts=cap,
        observed=observed,
    )


#: The safety net behind :func:`_informative`: a fitted difficulty (logits from the players'
#: mean) or ability spread (sd, logits) beyond these is no measurement but a likelihood with
#: no maximum (a win rate of 1 - 1e-13 is 30 logits; the issue's all-won fits gave -13,436).
MAX_DIFFICULTY, MAX_SPREAD = 30.0, 20.0


def _level_list(ids: list[str], which: NDArray) -> str:
    names = [repr(ids[int(i)]) for i in which[:3]]
    return ", ".join(names + ([f"... {len(which)} in all"] if len(which) > 3 else []))


def _informative(lvl: NDArray, won: NDArray, ids: list[str], players: int, levels: int) -> None:
    """Refuse data in which no level was both won and lost (issue 46): then the likelihood
    rises for ever as the levels move away from the players and the fit stops anywhere. A
    level nobody lost among levels with both outcomes is fine: those place the players and
    the prior on β holds it. Exact, so checked before the fit."""
    n = len(ids)
    wins = np.bincount(lvl[won], minlength=n)
    losses = np.bincount(lvl, minlength=n) - wins
    if ((wins > 0) & (losses > 0)).any():
        return
    got = f"(got {players} players, {levels} level{'s' * (levels != 1)})"
    if not losses.any():
        what = "every attempt was won"
    elif not wins.any():
        what = "every attempt was lost"
    else:
        what = (f"every level was won by all or lost by all who played it (won: "
                f"{_level_list(ids, np.flatnonzero(wins))}; lost: "
                f"{_level_list(ids, np.flatnonzero(losses))})")  # fmt: skip
    raise SkillModelError(f"{what}: the data cannot tell how hard any level is {got}",
                          pointer="telemetry")  # fmt: skip


def _within_bounds(beta: NDArray, seen: NDArray, spread: float, ids: list[str],
                   players: int) -> None:  # fmt: skip
    """Refuse a finished fit whose numbers no data could give (the net behind the exact check
    of :func:`_informative`), naming the level."""
    got = f"(got {players} players)"
    if not spread <= MAX_SPREAD:
        raise SkillModelError(
            f"the fitted ability spread {spread:.3g} logits is beyond {MAX_SPREAD:g}: the data "
            f"cannot tell the players apart {got}", pointer="telemetry")  # fmt: skip
    far = seen[~(np.abs(beta[seen]) <= MAX_DIFFICULTY)]
    if len(far):
        i = int(far[0])
        raise SkillModelError(
            f"level {ids[i]!r}: the fitted difficulty {beta[i]:.3g} logits is beyond "
            f"±{MAX_DIFFICULTY:g}: the data cannot tell how hard it is {got}",
            pointer="telemetry")  # fmt: skip


def _possible(lvl: NDArray, code: NDArray, names: NDArray, attempt: NDArray, won: NDArray,
              ids: list[str], impossible: str) -> dict[str, int]:  # fmt: skip
    """Rows of the fitted levels that cannot be true: the first refused (``row N`` in input
    order, its player named), or counted with the players who start mid-campaign."""
    from labkit.hexpuzzle.difficulty import _telemetry_possible as possible

    rows = np.flatnonzero(lvl >= 0)
    found = possible.find(lvl[rows], code[rows], attempt[rows], won[rows])
    if impossible == "refuse" and found.first is not None:
        i = int(rows[found.first])
        raise SkillModelError(found.words(str(names[code[i]]), ids[int(lvl[i])]),
                              pointer=f"row {i + 1}")  # fmt: skip
    return {**found.counts, "mid_campaign": possible.mid_campaign(lvl[rows], code[rows],
                                                                  len(names))}  # fmt: skip


def shipped_skill_model() -> SkillModel:
    """The model shipped in ``data/telemetry/skill_model.json``.

    Fitted by ``scripts/make_skill_model.py`` to simulated players on the campaign
    (``sample.csv``: everyone plays every level; ``progression.csv``: levels in order, weak
    players quitting early). Simulated, not real, players: a stand-in until real telemetry comes.

    Examples
    --------
    >>> model = shipped_skill_model()
    >>> model.success("main-01") > model.success("main-24")
    True
    """
    from labkit._data import data_path

    return SkillModel.load(data_path("telemetry", "skill_model.json"))


def _level_features(levels: Sequence[Any], features: Any) -> tuple[list[str], NDArray,
                                                                  tuple[str, ...]]:  # fmt: skip
    """``(level ids, features (levels × k), feature names)``: the H9 parts of hex levels
    (``features`` True/False), or the rows of a feature table for the levels' ids."""
    if isinstance(features, bool):
        return (*_levels(levels, features), PARTS)
    from labkit.hexpuzzle.difficulty.level_features import feature_table

    ids = [_level_id(lv) for lv in levels]
    if len(set(ids)) != len(ids):
        raise ArgumentError("level ids must be unique", argument="levels", value=ids)
    names, x = feature_table(features, ids)
    return ids, x, names


def _levels(levels: Sequence[Any], features: bool) -> tuple[list[str], NDArray]:
    ids, xs = [], []
    for lv in levels:
        if isinstance(lv, str):
            if features:
                raise ArgumentError(
                    "ids alone carry no parts; pass Level objects or use features=False",
                    argument="levels",
                    value=lv,
                )
            ids.append(lv)
            xs.append(np.full(len(PARTS), np.nan))
            continue
        d = lv if isinstance(lv, Difficulty) else score(lv)
        ids.append(d.level_id)
        xs.append(strengths(d))
    if len(set(ids)) != len(ids):
        raise ArgumentError("level ids must be unique", argument="levels", value=ids)
    x = np.array(xs, dtype=float).reshape(-1, len(PARTS))
    if features:
        # a level the solver could not finish has no layers/rotation part: give it the mean
        bad = ~np.isfinite(x)
        x[bad] = np.take(np.nanmean(np.where(bad, np.nan, x), axis=0), np.nonzero(bad)[1])
    return ids, x


def _level_id(level: Any) -> str:
    """A level's id: the id itself, a hex ``Level``'s or a ``Difficulty``'s."""
    if isinstance(level, str):
        return level
    if isinstance(level, Difficulty):
        return level.level_id
    if isinstance(level, Level):
        return level.id
    raise ArgumentError("must be level ids (text) or levels", argument="levels",
                        value=type(level).__name__)  # fmt: skip


def parts_table(levels: Sequence[Level | Difficulty]) -> Any:
    """The six H9 parts of hex levels as a feature table (``DataFrame`` indexed by level id):
    ``fit_skill_model(t, ids, features=parts_table(levels))`` is the hex puzzle's model,
    fitted the way any game's features are (a level the solver could not finish gets each
    missing part's mean over the others, as with ``features=True``).

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.fit import example_difficulties
    >>> table = parts_table(example_difficulties(3, rng=0))
    >>> list(table.columns) == list(PARTS), len(table)
    (True, 3)
    """
    import pandas as pd

    ids, x = _levels(levels, True)
    return pd.DataFrame(x, columns=list(PARTS), index=pd.Index(ids, name="level"))
