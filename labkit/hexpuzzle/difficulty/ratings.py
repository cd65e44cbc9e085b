"""Online Glicko-2 ratings of levels and players from telemetry (rule W1, last sentence).

Every first attempt is a game between a player and a level: the player scores 1 for a win at
the first try, the level scores 1 when the player fails. Ratings follow Glickman's Glicko-2
(*Example of the Glicko-2 system*, 2012; :func:`glicko2` is the published algorithm, step by
step), with each game its own rating period, as puzzle sites rate puzzles, and with the rules
those sites learned the hard way:

* **first attempts only** — a retry knows the board; rows with ``attempt > 1`` are skipped;
* **capped changes** — one game moves a rating by at most ``max_change`` points;
* **provisional players do not move levels** — while a player's deviation is above
  ``provisional_rd`` (a newcomer) the game rates the player only.

A level's rating is on the players' scale: a level rated like a player is won at the first try
by that player half the time. The games run in a numba kernel
(:mod:`labkit.hexpuzzle.difficulty._rating_kernels`).

Decisions the issue leaves open
-------------------------------
* Only the two sides of a game have their deviation grow (step 6 of Glicko-2 runs per game);
  nobody's deviation grows with idle time (telemetry carries no dates).
* ``provisional_rd`` defaults to 200 (puzzle sites use about 110, but their players arrive
  rated by thousands of puzzles; a campaign's players start unknown and meet at most a few dozen
  levels). Even so, the opening levels of a campaign are met by newcomers only and keep their
  starting rating: the per-level rule cannot rate them, the skill model can.
* A (player, level) pair seen again in a later ``update`` is rated again: the telemetry format
  already makes ``(level, player, attempt)`` unique.

Examples
--------
>>> r = LevelRatings(player_start=(1500, 60, 0.06))  # players known from elsewhere
>>> r.update([("L1", "p1", 1, False, 0, 0, 0, 0, 9.0, False)])  # p1 fails L1 at the first try
1
>>> rating, rd, n = r.level("L1")
>>> rating > 1500, rd < 350, n
(True, True, 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty import _rating_kernels
from labkit.hexpuzzle.difficulty.telemetry import as_table

__all__ = ["SCALE", "LevelRatings", "glicko2"]

#: Glicko-2's scale factor between ratings and its internal units (400 / ln 10).
SCALE = 173.7178


def glicko2(
    rating: float,
    deviation: float,
    volatility: float,
    opponents: Sequence[tuple[float, float]],
    scores: Sequence[float],
    *,
    tau: float = 0.5,
) -> tuple[float, float, float]:
    """One Glicko-2 rating period for one player, in plain Python (Glickman's steps 1–8).

    Parameters
    ----------
    rating, deviation, volatility : float
        The player's r, RD and σ before the period.
    opponents : sequence of (rating, deviation)
    scores : sequence of float
        1 win, 0.5 draw, 0 loss, per opponent.
    tau : float
        System constant limiting volatility changes.

    Returns
    -------
    (rating, deviation, volatility) after the period.

    Examples
    --------
    Glickman's worked example (the paper prints r' = 1464.06, converted from its μ' rounded
    to -0.2069; RD' = 151.52, σ' = 0.05999):

    >>> r, rd, vol = glicko2(1500, 200, 0.06, [(1400, 30), (1550, 100), (1700, 300)], [1, 0, 0])
    >>> round((r - 1500) / SCALE, 4), round(r, 4), round(rd, 2), round(vol, 7)
    (-0.2069, 1464.0507, 151.52, 0.059996)
    """
    mu, phi = (rating - 1500.0) / SCALE, deviation / SCALE
    if not opponents:  # step 6 alone: only the deviation grows
        return rating, SCALE * math.sqrt(phi**2 + volatility**2), volatility
    gs, es = [], []
    for r_j, rd_j in opponents:
        mu_j, phi_j = (r_j - 1500.0) / SCALE, rd_j / SCALE
        g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j**2 / math.pi**2)
        gs.append(g)
        es.append(1.0 / (1.0 + math.exp(-g * (mu - mu_j))))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e in zip(gs, es))
    delta = v * sum(g * (s - e) for g, e, s in zip(gs, es, scores))
    a = math.log(volatility**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    A = a
    if delta**2 > phi**2 + v:
        B = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fA, fB = f(A), f(B)
    while abs(B - A) > 1e-6:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA /= 2
        B, fB = C, fC
    sigma = math.exp(A / 2)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    mu_new = mu + phi_new**2 * sum(g * (s - e) for g, e, s in zip(gs, es, scores))
    return 1500.0 + SCALE * mu_new, SCALE * phi_new, sigma


class _Side:
    """Ratings of one side (players or levels) in growable arrays."""

    def __init__(self, start: tuple[float, float, float]) -> None:
        self.start = start
        self.ids: list[str] = []
        self.index: dict[str, int] = {}
        self.mu = np.zeros(0)
        self.phi = np.zeros(0)
        self.sigma = np.zeros(0)
        self.n = np.zeros(0, dtype=np.int64)

    def indices(self, names: NDArray) -> NDArray[np.int64]:
        """Each name's index, adding the new ones (hashed by Arrow: no sort of the strings)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        text = pa.array(names, type=pa.string())  # a big input comes back in chunks
        if isinstance(text, pa.ChunkedArray):
            text = text.combine_chunks()
        enc = pc.dictionary_encode(text)
        uniq = enc.dictionary.to_pylist()
        new = [u for u in uniq if u not in self.index]
        if new:
            for name in new:
                self.index[name] = len(self.ids)
                self.ids.append(name)
            k = len(new)
            r, rd, vol = self.start
            self.mu = np.r_[self.mu, np.full(k, (r - 1500.0) / SCALE)]
            self.phi = np.r_[self.phi, np.full(k, rd / SCALE)]
            self.sigma = np.r_[self.sigma, np.full(k, vol)]
            self.n = np.r_[self.n, np.zeros(k, dtype=np.int64)]
        lookup = np.array([self.index[u] for u in uniq], dtype=np.int64)
        return lookup[enc.indices.to_numpy(zero_copy_only=False)]

    def get(self, name: str, what: str) -> tuple[float, float, int]:
        if name not in self.index:
            raise ArgumentError(f"no such {what} rated yet", argument=what, value=name)
        i = self.index[name]
        return 1500.0 + SCALE * float(self.mu[i]), SCALE * float(self.phi[i]), int(self.n[i])


class LevelRatings:
    """Glicko-2 ratings per level and per player, updated from telemetry in arrival order.

    Parameters
    ----------
    tau : float
        Glicko-2's system constant (0.3–1.2; smaller keeps volatility steadier).
    player_start, level_start : (rating, deviation, volatility)
        Where new players and levels start.
    max_change : float
        Largest change of a rating in one game (rating points).
    provisional_rd : float
        Players whose deviation is above this do not move level ratings.

    Examples
    --------
    Five levels of rising difficulty, each played once by 200 players (known from elsewhere,
    so they are not provisional): the ratings come out in the order of the difficulties.

    >>> import numpy as np
    >>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
    >>> ids = ["L0", "L1", "L2", "L3", "L4"]
    >>> theta = np.random.default_rng(0).normal(0, 1, 200)
    >>> rows = telemetry_from_skill(ids, np.linspace(-1.5, 1.5, 5), theta, rng=1,
    ...                             progression=False)
    >>> r = LevelRatings(player_start=(1500, 60, 0.06))
    >>> r.update(rows), r
    (1000, LevelRatings(5 levels, 200 players, 1000 games))
    >>> r.table()["level"].tolist()  # by rating, easiest first
    ['L0', 'L1', 'L2', 'L3', 'L4']
    >>> r.success("L0") > 0.5 > r.success("L4")
    True
    """

    def __init__(
        self,
        *,
        tau: float = 0.5,
        player_start: tuple[float, float, float] = (1500.0, 350.0, 0.06),
        level_start: tuple[float, float, float] = (1500.0, 350.0, 0.06),
        max_change: float = 100.0,
        provisional_rd: float = 200.0,
    ) -> None:
        checks = {"tau": tau, "max_change": max_change, "provisional_rd": provisional_rd}
        for name, value in checks.items():
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ArgumentError("must be a positive number", argument=name, value=value)
        for name, start in (("player_start", player_start), ("level_start", level_start)):
            if len(start) != 3 or not all(math.isfinite(x) for x in start) or min(start[1:]) <= 0:
                raise ArgumentError("must be (rating, deviation > 0, volatility > 0)",
                                    argument=name, value=start)  # fmt: skip
        self.tau = float(tau)
        self.max_change = float(max_change)
        self.provisional_rd = float(provisional_rd)
        r, rd, vol = player_start
        self.players = _Side((float(r), float(rd), float(vol)))
        r, rd, vol = level_start
        self.levels = _Side((float(r), float(rd), float(vol)))
        self.games = 0
        self.skipped = 0

    def update(self, rows: Any) -> int:
        """Rate the first attempts among ``rows`` (telemetry in any accepted form), in order.

        Returns the number of games that moved a level's rating.
        """
        table = as_table(rows)
        at = np.flatnonzero(table["attempt"] == 1)  # only the columns needed: no table copy
        self.skipped += len(table) - len(at)
        if not len(at):
            return 0
        p = self.players.indices(table["player"][at])
        lv = self.levels.indices(table["level"][at])
        P, L = self.players, self.levels
        moved = _rating_kernels.rate_games(
            p, lv, table["won"][at].astype(np.float64), P.mu, P.phi, P.sigma, P.n,
            L.mu, L.phi, L.sigma, L.n, self.tau, self.max_change / SCALE,
            self.provisional_rd / SCALE,
        )  # fmt: skip
        self.games += len(at)
        return int(moved)

    def level(self, level_id: str) -> tuple[float, float, int]:
        """``(rating, deviation, n)`` of a level; n counts the games that moved it."""
        return self.levels.get(level_id, "level")

    def player(self, player_id: str) -> tuple[float, float, int]:
        """``(rating, deviation, n)`` of a player."""
        return self.players.get(player_id, "player")

    def success(self, level_id: str, rating: float = 1500.0) -> float:
        """Glicko-2's expected first-try success of a player rated ``rating`` at a level."""
        r, rd, _ = self.level(level_id)
        g = 1.0 / math.sqrt(1.0 + 3.0 * (rd / SCALE) ** 2 / math.pi**2)
        return 1.0 / (1.0 + math.exp(-g * (rating - r) / SCALE))

    def table(self) -> Any:
        """Levels as a pandas DataFrame: level, rating, deviation, volatility, n (by rating)."""
        import pandas as pd

        L = self.levels
        frame = pd.DataFrame({
            "level": L.ids, "rating": 1500.0 + SCALE * L.mu, "deviation": SCALE * L.phi,
            "volatility": L.sigma, "n": L.n,
        })  # fmt: skip
        return frame.sort_values("rating", kind="stable").reset_index(drop=True)

    def __repr__(self) -> str:
        return (f"LevelRatings({len(self.levels.ids)} levels, {len(self.players.ids)} players, "
                f"{self.games} games)")  # fmt: skip

    def _repr_html_(self) -> str:
        return self.table().round(1).to_html(index=False)
