"""Telemetry drawn from a known skill model, for checking :func:`~.skill.fit_skill_model`.

The simulated players of :mod:`.players` play the real game, so nobody knows their abilities and
the levels' difficulties in the model's units. Here both are given: a player of ability θ wins
level l at attempt k with probability σ(θ − β_l + λ·(k − 1)) (the Rasch model the skill model
fits, plus a learning step λ per retry). In ``progression`` mode, players meet the levels in
order and, after each level, quit with probability

    q = min(1, quit_rate × run)                       (``quit_ability = 0``: today's rule)
    q = σ(logit(min(1, quit_rate × run)) − c·θ)       (``quit_ability = c``)

where ``run`` counts the levels in a row not won at the first try (this one included). With
``c = 0`` quitting depends only on outcomes in the telemetry (missing at random); with ``c > 0``
weaker players are also less persistent *given the same outcomes* (not at random: a fit that
ignores how players leave is biased, see :mod:`.skill`).

Telemetry semantics (what :mod:`.skill` fits and a funnel must reproduce): one row per attempt,
player by player, each player's levels in campaign order; at a level a player makes attempt 1,
2, … until the first win or ``max_attempts`` (only the last attempt can be won) and then moves
on to the next level *whether or not it was cleared*, unless it quits; the level it quits after
is its last level in the data. A player who reaches the last level has no quit decision there.

Random numbers: with today's options (``max_attempts=1``, ``learning=0``, ``quit_ability=0``)
player ``i`` draws from the stream ``"player/{i}"`` exactly as before (tables reproduce byte
for byte). With any new option players are drawn in blocks of :data:`BLOCK` from the streams
``"block/{b}"`` (one generator per block: fast, over 10⁶ attempts/s); either way, adding
players never changes the players already drawn.

Examples
--------
>>> t = telemetry_from_skill(["a", "b"], [0.0, 1.0], [-1.0, 0.0, 2.0], rng=0)
>>> sorted(set(t["level"].tolist())), t["attempt"].tolist()[:2]
(['a', 'b'], [1, 1])
>>> r = telemetry_from_skill(["a", "b"], [3.0, 3.0], [0.0] * 50, rng=0, max_attempts=3,
...                          learning=1.0, quit_ability=0.5)
>>> rate = {k: r["won"][r["attempt"] == k].mean() for k in (1, 3)}
>>> int(r["attempt"].max()), bool(rate[3] > rate[1])
(3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.players import QUIT_RATE
from labkit.hexpuzzle.difficulty.telemetry import COLUMNS
from labkit.rng import RngLike, make_rng, stream

__all__ = ["telemetry_from_skill"]

#: Players per random-number block when new options are used.
BLOCK = 4096
#: Most attempts per level the simulator makes.
MAX_ATTEMPTS = 20


def telemetry_from_skill(
    levels: Sequence[Any],
    difficulty: ArrayLike,
    ability: ArrayLike,
    rng: RngLike = None,
    *,
    progression: bool = True,
    quit_rate: float = QUIT_RATE,
    prefix: str = "r",
    max_attempts: int = 1,
    learning: float = 0.0,
    quit_ability: float = 0.0,
) -> NDArray:
    """Attempts of players with known abilities at levels with known difficulties.

    Parameters
    ----------
    levels : sequence of Level or str
        The levels (or their ids) in the order players meet them.
    difficulty : array of float
        β per level (logits), aligned with ``levels``.
    ability : array of float
        θ per player (logits); player ``i`` is ``f"{prefix}{i:04d}"``.
    rng : int, SeedSequence or Generator
        See the module docstring for the streams.
    progression : bool
        Players quit after runs of failures (else everyone plays every level).
    quit_rate : float
        Chance of quitting per failure in the current run.
    max_attempts : int
        Attempts per level (1-20; stops at the first win). 1: first attempts only.
    learning : float
        λ, logits added to the player's ability per retry (attempt k gets λ·(k − 1)).
    quit_ability : float
        c, how much less likely (in log-odds per logit of ability) a stronger player is to
        quit after the same outcomes; 0 = quitting depends on outcomes only.

    Returns
    -------
    numpy structured array
        Telemetry rows (counts other than ``won`` are 0), in arrival order: player by player,
        each in level order, each level's attempts in order.

    Examples
    --------
    Without quitting every player meets every level, and the easy level is won more often:

    >>> import numpy as np
    >>> theta = np.zeros(300)
    >>> t = telemetry_from_skill(["easy", "hard"], [-2.0, 2.0], theta, rng=0, progression=False)
    >>> len(t), t["player"][:3].tolist()
    (600, ['r0000', 'r0000', 'r0001'])
    >>> won = {lv: t["won"][t["level"] == lv].mean() for lv in ("easy", "hard")}
    >>> bool(0.8 < won["easy"] < 0.95), bool(0.05 < won["hard"] < 0.2)  # sigma(+-2) = 0.88, 0.12
    (True, True)

    With quitting (the default), fewer players reach the later level:

    >>> q = telemetry_from_skill(["easy", "hard"], [-2.0, 2.0], theta, rng=0, quit_rate=1.0)
    >>> int((q["level"] == "easy").sum()), bool((q["level"] == "hard").sum() < 300)
    (300, True)
    """
    from labkit._args import check_int

    ids = [lv if isinstance(lv, str) else getattr(lv, "id", None) or lv.level_id for lv in levels]
    beta = np.asarray(difficulty, dtype=np.float64)
    theta = np.asarray(ability, dtype=np.float64)
    if beta.shape != (len(ids),) or not np.isfinite(beta).all():
        raise ArgumentError(
            f"must be {len(ids)} finite numbers", argument="difficulty", value=beta.shape
        )
    if theta.ndim != 1 or not np.isfinite(theta).all():
        raise ArgumentError(
            "must be a 1-d array of finite numbers", argument="ability", value=theta.shape
        )
    if not 0.0 <= float(quit_rate) <= 1.0:
        raise ArgumentError("must be in [0, 1]", argument="quit_rate", value=quit_rate)
    for name, v in (("learning", learning), ("quit_ability", quit_ability)):
        if not np.isfinite(float(v)) or abs(float(v)) > 20:
            raise ArgumentError("must be a number in [-20, 20]", argument=name, value=v)
    tries = check_int(max_attempts, "max_attempts", 1, MAX_ATTEMPTS)
    root = make_rng(rng)
    legacy = tries == 1 and float(learning) == 0.0 and float(quit_ability) == 0.0
    L, n = len(ids), len(theta)
    parts = []
    for start in range(0, n, BLOCK):
        th = theta[start : start + BLOCK]
        if legacy:  # today's draws, player by player
            u = np.empty((len(th), 2, L))
            for i in range(len(th)):
                gen = stream(root, f"player/{start + i}")
                u[i, 0], u[i, 1] = gen.random(L), gen.random(L)
            u_first, u_quit, u_retry = u[:, 0], u[:, 1], np.empty((len(th), L, 0))
        else:
            gen = stream(root, f"block/{start // BLOCK}")
            u_first, u_quit = gen.random((BLOCK, L))[: len(th)], gen.random((BLOCK, L))[: len(th)]
            u_retry = gen.random((BLOCK, L, tries - 1))[: len(th)]
        parts.append(
            _block(
                th, beta, u_first, u_quit, u_retry, progression, quit_rate, learning, quit_ability
            )
        )
    player = np.concatenate([p[0] + s for p, s in zip(parts, range(0, n, BLOCK))] or [[]])
    level, attempt, won = (np.concatenate([p[k] for p in parts] or [[]]) for k in (1, 2, 3))
    return _table(ids, prefix, n, player.astype(np.int64), level.astype(np.int64), attempt, won)


def _block(th, beta, u_first, u_quit, u_retry, progression, quit_rate, learning, c):
    """Rows (player, level, attempt, won) of one block of players, vectorised over players."""
    from scipy.special import expit, logit

    eta = th[:, None] - beta[None, :]
    first = u_first < expit(eta)
    attempts = np.ones(first.shape, dtype=np.int64)
    cleared = first.copy()
    for k in range(u_retry.shape[2]):  # retry k + 2, only where nothing was won yet
        win = ~cleared & (u_retry[:, :, k] < expit(eta + learning * (k + 1)))
        attempts += ~cleared
        cleared |= win
    fails = np.cumsum(~first, axis=1)
    run = fails - np.maximum.accumulate(np.where(first, fails, 0), axis=1)
    q = np.minimum(1.0, quit_rate * run)
    if c:
        with np.errstate(divide="ignore"):
            q = expit(logit(q) - c * th[:, None])
    if progression:
        quit = u_quit < q
        quit[:, -1] = True  # the campaign's end
        last = np.argmax(quit, axis=1)
    else:
        last = np.full(len(th), len(beta) - 1)
    played = np.arange(len(beta))[None, :] <= last[:, None]
    cells = np.flatnonzero(played)
    att = attempts.ravel()[cells]
    rows = np.repeat(cells, att)
    offset = np.repeat(np.cumsum(att) - att, att)
    attempt = np.arange(len(rows)) - offset + 1
    won = (attempt == np.repeat(att, att)) & cleared.ravel()[rows]  # only the last can be won
    return rows // len(beta), rows % len(beta), attempt, won


def _table(ids, prefix, n, player, level, attempt, won) -> NDArray:
    """The structured telemetry array, built column by column (valid by construction)."""
    names = [f"{prefix}{i:04d}" for i in range(n)]
    width = {"level": max([1, *map(len, ids)]), "player": max([1, *map(len, names)])}
    kinds: dict[str, Any] = {"flag": np.bool_, "seconds": np.float64}
    dtype = [
        (k, f"<U{width[k]}" if kind == "text" else kinds.get(kind, np.int64))
        for k, kind in COLUMNS.items()
    ]
    out = np.zeros(len(player), dtype=dtype)
    out["level"] = np.asarray(ids, dtype=f"<U{width['level']}")[level] if len(ids) else ""
    out["player"] = np.asarray(names, dtype=f"<U{width['player']}")[player] if n else ""
    out["attempt"] = attempt
    out["won"] = won
    out["first_try"] = won & (attempt == 1)
    return out
