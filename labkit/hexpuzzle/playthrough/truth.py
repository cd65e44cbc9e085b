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

__all__ = ["RuleQuitModel", "TrueModel", "TrueQuitModel"]


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


class RuleQuitModel:
    """A stop rule outside the skill model's logistic family, for worlds a fit cannot match.

    ``rule(ability, *, position, won, attempt, run)`` gives P(stop after a level) (``position``
    0-based, ``run`` the levels in a row not won at the first try, this one included), any
    shape numpy broadcasts. Used by calibration checks: does a funnel's band still hold the
    truth when quitting follows another rule (after a streak of failures, at a session's end)?

    Examples
    --------
    >>> streak = RuleQuitModel(lambda ability, *, position, won, attempt, run:
    ...                        np.where(np.asarray(run) >= 3, 0.5, 0.02))
    >>> float(streak.p_quit(0.0, position=4, won=False, attempt=3, run=3))
    0.5
    """

    def __init__(self, rule: Any) -> None:
        if not callable(rule):
            raise ArgumentError("must be a function of ability, position, won, attempt, run",
                                argument="quit_rule", value=repr(rule))  # fmt: skip
        self.rule = rule

    def p_quit(self, ability: ArrayLike, *, position, won, attempt, run=None):
        """P(stop playing after a level) by the rule (``run`` defaults as the skill model's)."""
        if run is None:
            run = np.where(np.asarray(won) & (np.asarray(attempt) == 1), 0, 1)
        shape = np.broadcast(np.asarray(ability), position, won, attempt, run).shape
        p = self.rule(ability, position=position, won=won, attempt=attempt, run=run)
        return np.broadcast_to(np.clip(np.asarray(p, dtype=float), 0.0, 1.0), shape)


class TrueModel:
    """The skill model of a :class:`FunnelWorld` (same keyword arguments), with no uncertainty.

    ``difficulty_sd`` > 0 makes :meth:`parameter_draws` jitter every difficulty by that much
    (normal), a stand-in for a fit's uncertainty of a known size. ``quit_rule`` (instead of
    ``quit``) makes players stop by a rule of :class:`RuleQuitModel`: a world outside the skill
    model's family.

    Examples
    --------
    >>> m = TrueModel([0.0, 2.0], difficulty_sd=0.3)
    >>> d = m.parameter_draws(2, rng=0)
    >>> d["difficulty"].shape, d["ability_sd"].tolist()
    ((2, 2), [1.0, 1.0])
    """

    def __init__(
        self, difficulty: ArrayLike, *, difficulty_sd: float = 0.0, quit_rule: Any = None,
        **world: Any,
    ) -> None:  # fmt: skip
        if quit_rule is not None and world.get("quit"):
            raise ArgumentError("give quit or quit_rule, not both", argument="quit_rule",
                                value=repr(quit_rule))  # fmt: skip
        self.world = FunnelWorld(list(np.asarray(difficulty, dtype=float)), **world)
        self.level_ids = self.world.tables().level_ids  # validates
        self.difficulty = np.asarray(self.world.difficulty, dtype=float)
        self.difficulty_sd = float(difficulty_sd)
        self.ability_sd = float(self.world.ability_sd)
        self.learning = float(self.world.learning)
        self.discrimination = None
        self.max_attempts = int(self.world.max_attempts)
        self.quit_model: TrueQuitModel | RuleQuitModel | None = (
            RuleQuitModel(quit_rule) if quit_rule is not None
            else TrueQuitModel(self.world.quit) if self.world.quit else None
        )  # fmt: skip

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
        qm = self.quit_model
        quit = np.tile(qm.vector, (int(n), 1)) if isinstance(qm, TrueQuitModel) else None
        return {"difficulty": beta, "ability_sd": np.full(int(n), self.ability_sd),
                "learning": np.full(int(n), self.learning), "quit": quit}  # fmt: skip

    def telemetry(self, players: int, rng: RngLike = None, *, prefix: str = "t") -> NDArray:
        """Attempt rows of ``players`` players of this world, in arrival order (seconds 0).

        A world with a ``quit_rule`` plays its players vectorised, level by level (a rule is
        a numpy function, and calibration checks need thousands of players in seconds).
        """
        from labkit.hexpuzzle.difficulty.telemetry import make_table

        gen = make_rng(rng)
        if isinstance(self.quit_model, RuleQuitModel):
            return self._telemetry_vectorised(int(players), gen, prefix)
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
                qm = self.quit_model
                q = 0.0 if qm is None else qm.p_quit(ability, position=i, won=won, attempt=a,
                                                     run=run)  # fmt: skip
                if gen.random() < float(q):
                    break
        return make_table(rows)

    def _telemetry_vectorised(self, players: int, gen: np.random.Generator, prefix: str):
        """The same game as :meth:`telemetry`, all players at once, one level at a time."""
        from labkit.hexpuzzle.difficulty.skill_sim import _table

        w, rule = self.world, self.quit_model
        assert isinstance(rule, RuleQuitModel)  # the only worlds played here
        theta = w.ability_mean + w.ability_sd * gen.standard_normal(players)
        alive = np.ones(players, dtype=bool)
        run = np.zeros(players, dtype=np.int64)
        who, where, which, wins = [], [], [], []
        n = len(self.level_ids)
        for i, lid in enumerate(self.level_ids):
            won = np.zeros(players, dtype=bool)
            tries = np.zeros(players, dtype=np.int64)
            for a in range(1, w.max_attempts + 1):
                play = np.flatnonzero(alive & ~won)
                hit = gen.random(len(play)) < self.success(lid, theta[play], attempt=a)
                won[play[hit]] = True
                tries[play] = a
                who.append(play)
                where.append(np.full(len(play), i))
                which.append(np.full(len(play), a))
                wins.append(hit)
            run = np.where(won & (tries == 1), 0, run + 1)
            if not w.moves_on:
                alive &= won
            if i == n - 1:
                break
            q = rule.p_quit(theta, position=i, won=won, attempt=np.maximum(tries, 1), run=run)
            alive &= ~(gen.random(players) < q)
        player, level, attempt = (np.concatenate(x) for x in (who, where, which))
        order = np.lexsort((attempt, level, player))
        return _table(list(self.level_ids), prefix, players, player[order], level[order],
                      attempt[order], np.concatenate(wins)[order])  # fmt: skip
