"""A skill model of a world whose truth is known: for checking funnels and what-ifs.

:class:`TrueModel` answers what the funnel asks of a fitted skill model (``success``,
``quit_model.p_quit``, ``parameter_draws``, ``difficulty``, ``ability_sd``, ``learning``) from
the numbers of a :class:`~labkit.hexpuzzle.playthrough.simulate.FunnelWorld`, and writes
telemetry of that world (:meth:`TrueModel.telemetry`) to fit a model to, and compare its
funnel with the truth.

Examples
--------
>>> truth = TrueModel([0.0, 1.0], ability_sd=1.0, learning=0.5, quit={"baseline": -2.0})
>>> float(truth.success("L01", 0.0)), float(truth.success("L01", 0.0, attempt=2)) > 0.5
(0.5, True)
>>> rows = truth.telemetry(50, rng=0)
>>> sorted(set(rows["level"].tolist())), bool(rows["attempt"].max() <= 3)
(['L01', 'L02'], True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough.simulate import QUIT_TERMS, FunnelWorld
from labkit.rng import RngLike, make_rng

__all__ = ["TrueModel", "TrueQuitModel"]


class TrueQuitModel:
    """The logistic stop model of a known world (``coefficients``: a dict of QUIT_TERMS).

    Examples
    --------
    >>> q = TrueQuitModel({"baseline": 0.0, "won": -1.0})
    >>> float(q.p_quit(0.0, position=0, won=False, attempt=1))
    0.5
    """

    def __init__(self, coefficients: dict[str, float]) -> None:
        self.coefficients = {t: float(coefficients.get(t, 0.0)) for t in QUIT_TERMS}
        self.vector = np.array([self.coefficients[t] for t in QUIT_TERMS])
        self._world = FunnelWorld([0.0], quit=self.coefficients)

    def p_quit(self, ability: ArrayLike, *, position, won, attempt, run=None):
        """P(stop playing after a level); ``run`` defaults as the skill model's does."""
        return self._world.p_quit(ability, position=position, won=won, attempt=attempt, run=run)


class TrueModel:
    """The skill model of a :class:`FunnelWorld` (same keyword arguments), with no uncertainty.

    ``difficulty_sd`` > 0 makes :meth:`parameter_draws` jitter every difficulty by that much
    (normal), a stand-in for a fit's uncertainty of a known size.

    Examples
    --------
    >>> m = TrueModel([0.0, 2.0], difficulty_sd=0.3)
    >>> d = m.parameter_draws(2, rng=0)
    >>> d["difficulty"].shape, d["ability_sd"].tolist()
    ((2, 2), [1.0, 1.0])
    """

    def __init__(self, difficulty: ArrayLike, *, difficulty_sd: float = 0.0, **world: Any):
        self.world = FunnelWorld(list(np.asarray(difficulty, dtype=float)), **world)
        self.level_ids = self.world.tables().level_ids  # validates
        self.difficulty = np.asarray(self.world.difficulty, dtype=float)
        self.difficulty_sd = float(difficulty_sd)
        self.ability_sd = float(self.world.ability_sd)
        self.learning = float(self.world.learning)
        self.discrimination = None
        self.max_attempts = int(self.world.max_attempts)
        self.quit_model = TrueQuitModel(self.world.quit) if self.world.quit else None

    def __repr__(self) -> str:
        return f"TrueModel({len(self.level_ids)} levels, ability sd {self.ability_sd:.2f})"

    def difficulty_of(self, level: Any) -> float:
        """β of a level of the world (by id or object with that id)."""
        lid = level if isinstance(level, str) else getattr(level, "id", level)
        if lid not in self.level_ids:
            raise ArgumentError("no such level in the world", argument="level", value=lid)
        return float(self.difficulty[self.level_ids.index(lid)])

    def success(self, level: Any, ability: ArrayLike = 0.0, *, attempt: int = 1):
        """Chance to win attempt ``attempt`` of ``level`` at ``ability``."""
        x = np.asarray(ability) - self.difficulty_of(level)
        return 1.0 / (1.0 + np.exp(-(x + self.learning * (min(attempt, 6) - 1))))

    def parameter_draws(self, n: int, rng: RngLike = None) -> dict[str, Any]:
        """``n`` draws: difficulties jittered by ``difficulty_sd``, the rest as they are."""
        gen = make_rng(rng)
        beta = self.difficulty + self.difficulty_sd * gen.standard_normal(
            (int(n), len(self.difficulty))
        )
        quit = None if self.quit_model is None else np.tile(self.quit_model.vector, (int(n), 1))
        return {"difficulty": beta, "ability_sd": np.full(int(n), self.ability_sd),
                "learning": np.full(int(n), self.learning), "quit": quit}  # fmt: skip

    def telemetry(self, players: int, rng: RngLike = None, *, prefix: str = "t") -> NDArray:
        """Attempt rows of ``players`` players of this world, in arrival order (seconds 0)."""
        from labkit.hexpuzzle.difficulty.telemetry import make_table

        gen = make_rng(rng)
        w = self.world
        theta = w.ability_mean + w.ability_sd * gen.standard_normal(int(players))
        rows = []
        n = len(self.level_ids)
        for p, ability in enumerate(theta):
            pid, run = f"{prefix}{p:05d}", 0
            for i, lid in enumerate(self.level_ids):
                won, a = False, 0
                while a < w.max_attempts and not won:
                    a += 1
                    won = bool(gen.random() < self.success(lid, ability, attempt=a))
                    rows.append((lid, pid, a, won and a == 1, 0, 0, 0, 0, 0.0, won))
                run = 0 if won and a == 1 else run + 1
                if (not won and not w.moves_on) or i == n - 1:
                    break
                q = w.p_quit(ability, position=i, won=won, attempt=a, run=run) if w.quit else 0.0
                if gen.random() < float(q):
                    break
        return make_table(rows)
