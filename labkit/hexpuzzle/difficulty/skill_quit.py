"""Who stops playing, and when: the continuation model of the selection-aware skill fit.

After every level but the campaign's last, a player either goes on to the next level or quits.
The chance to quit is logistic in the player's ability θ and what happened at the level:

    logit P(quit) = b + a·θ + w·won + r_run + k·(attempts − 1) + d·position / 10

``won``: the level was cleared (at any attempt); ``run``: levels in a row not won at the first
try, this one included (0 after a first-try win), with its own term r_1, r_2, r_3, r_4+ for a run
of 1, 2, 3, 4 or more (a quit rule that saturates, such as "after four failures in a row
everyone leaves", is in the family); ``attempts``: attempts made at the level (capped at 6);
``position``: the level's place in the player's sequence (0 = first level played). ``a < 0``
means weaker players are less persistent given the same outcomes — dropout *not at random*,
which :func:`~labkit.hexpuzzle.difficulty.skill.fit_skill_model` with ``dropout="model"``
estimates jointly with the responses, sharing θ (a shared-parameter model).

Examples
--------
>>> q = QuitModel({"baseline": -2.0, "ability": -1.0, "won": -1.0, "run 1": 0.5, "run 2": 1.0,
...                "run 3": 1.5, "run 4+": 2.0, "attempts": 0.0, "position": 0.0})
>>> weak, strong = q.p_quit([-1.5, 1.5], position=3, won=False, attempt=1, run=1)
>>> bool(weak > strong), round(float(q.p_quit(0.0, position=0, won=True, attempt=1)), 3)
(True, 0.047)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError

__all__ = ["QUIT_TERMS", "QuitModel"]

#: The coefficients, in order (logits; ``position`` per ten levels).
QUIT_TERMS = (
    "baseline", "ability", "won", "run 1", "run 2", "run 3", "run 4+", "attempts", "position",
)  # fmt: skip
N_TERMS = len(QUIT_TERMS)
#: A run longer than this counts as this long (the last run term).
RUN_CAP = 4
#: Attempts from this one on count as this one (one learning step, one quit covariate).
ATTEMPT_CAP = 6


def design(won: ArrayLike, run: ArrayLike, attempt: ArrayLike, position: ArrayLike) -> NDArray:
    """The covariates other than ability, in :data:`QUIT_TERMS` order without ``ability``."""
    won = np.asarray(won, dtype=float)
    shape = np.broadcast_shapes(won.shape, np.shape(run), np.shape(attempt), np.shape(position))
    r = np.minimum(np.asarray(run), RUN_CAP)
    cols = [
        np.ones(shape),
        np.broadcast_to(won, shape),
        *(np.broadcast_to((r == k).astype(float), shape) for k in range(1, RUN_CAP + 1)),
        np.broadcast_to(np.minimum(np.asarray(attempt, dtype=float), ATTEMPT_CAP) - 1.0, shape),
        np.broadcast_to(np.asarray(position, dtype=float) / 10.0, shape),
    ]
    return np.stack(cols, axis=-1)


@dataclass(frozen=True, eq=False)
class QuitModel:
    """A fitted continuation model (see :mod:`.skill_quit`).

    Attributes
    ----------
    coefficients : dict
        :data:`QUIT_TERMS` → logits.
    cov : (9, 9) array
        Their covariance (inverse information), in :data:`QUIT_TERMS` order.

    Examples
    --------
    >>> q = QuitModel(dict(zip(QUIT_TERMS, [-1.0, -0.8, -2.0, 0.6, 1.0, 1.2, 1.4, 0.1, 0.05])))
    >>> q.interval("ability")  # no covariance given: a zero-width interval
    (-0.8, -0.8)
    """

    coefficients: dict[str, float]
    cov: NDArray[np.float64] = field(default_factory=lambda: np.zeros((N_TERMS, N_TERMS)))

    def __post_init__(self) -> None:
        if set(self.coefficients) != set(QUIT_TERMS):
            raise ArgumentError(
                f"must name exactly {QUIT_TERMS}",
                argument="coefficients",
                value=sorted(self.coefficients),
            )
        if np.shape(self.cov) != (N_TERMS, N_TERMS):
            raise ArgumentError(
                f"must be {N_TERMS} x {N_TERMS}", argument="cov", value=np.shape(self.cov)
            )
        for term, v in self.coefficients.items():  # a NaN logit would make every p_quit NaN
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v):
                raise ArgumentError("must be a finite number", argument=f"coefficients[{term!r}]",
                                    value=v)  # fmt: skip
        cov = np.asarray(self.cov, dtype=float)
        if not np.isfinite(cov).all() or (np.diag(cov) < 0).any():
            raise ArgumentError("must be finite with variances >= 0 on its diagonal",
                                argument="cov", value="NaN, inf or a variance < 0")  # fmt: skip
        # kept as a float array: a nested list passed the checks but broke interval and to_dict
        object.__setattr__(self, "cov", cov)

    @property
    def vector(self) -> NDArray[np.float64]:
        """The coefficients as an array in :data:`QUIT_TERMS` order."""
        return np.array([self.coefficients[t] for t in QUIT_TERMS])

    def p_quit(
        self,
        ability: ArrayLike,
        *,
        position: ArrayLike,
        won: ArrayLike,
        attempt: ArrayLike,
        run: ArrayLike | None = None,
    ) -> NDArray[np.float64]:
        """Chance that a player of ``ability`` stops after a level (arrays broadcast).

        ``position`` is the level's 0-based place in the player's sequence, ``won`` whether it
        was cleared, ``attempt`` the attempts made there, ``run`` the levels in a row not won at
        the first try including this one (default: 0 after a first-try win, else 1 — pass it
        when the history is known).
        """
        won_a = np.asarray(won, dtype=bool)
        att = np.asarray(attempt)
        if run is None:
            run = np.where(won_a & (att == 1), 0, 1)
        x = design(won_a, run, att, position)
        c = self.vector
        eta = x @ np.r_[c[0], c[2:]] + c[1] * np.asarray(ability, dtype=float)
        return 1.0 / (1.0 + np.exp(-eta))

    def interval(self, term: str = "ability", level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation interval of one coefficient: ``coefficient ± z·SE``.

        Its ends are rounded to 12 decimals, so float noise below that does not show.
        """
        from scipy.stats import norm

        i = QUIT_TERMS.index(term)
        half = float(norm.ppf(0.5 + level / 2) * np.sqrt(max(self.cov[i, i], 0.0)))
        mid = self.coefficients[term]
        return (round(mid - half, 12), round(mid + half, 12))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: coefficients and covariance."""
        return {"coefficients": dict(self.coefficients), "cov": self.cov.tolist()}

    def __repr__(self) -> str:
        lo, hi = self.interval()
        return (
            f"QuitModel(ability {self.coefficients['ability']:+.2f} [{lo:+.2f}, {hi:+.2f}] "
            "log-odds of quitting per logit)"
        )
