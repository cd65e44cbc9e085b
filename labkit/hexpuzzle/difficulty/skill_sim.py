"""Telemetry drawn from a known skill model, for checking :func:`~.skill.fit_skill_model`.

The simulated players of :mod:`.players` play the real game, so nobody knows their abilities and
the levels' difficulties in the model's units. Here both are given: a player of ability θ wins
level l at the first try with probability σ(θ − β_l) (the Rasch model the skill model fits).
In ``progression`` mode, players meet the levels in order and quit with the same rule as
:func:`~.players.simulate_telemetry`'s progression mode (after every first-try failure, with
probability ``quit_rate × failures in a row``), so weak players drop out early and late levels
are seen mostly by strong ones.

Examples
--------
>>> t = telemetry_from_skill(["a", "b"], [0.0, 1.0], [-1.0, 0.0, 2.0], rng=0)
>>> sorted(set(t["level"].tolist())), t["attempt"].tolist()[:2]
(['a', 'b'], [1, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.players import QUIT_RATE
from labkit.hexpuzzle.difficulty.telemetry import make_table
from labkit.rng import RngLike, make_rng, stream

__all__ = ["telemetry_from_skill"]


def telemetry_from_skill(
    levels: Sequence[Any],
    difficulty: ArrayLike,
    ability: ArrayLike,
    rng: RngLike = None,
    *,
    progression: bool = True,
    quit_rate: float = QUIT_RATE,
    prefix: str = "r",
) -> NDArray:
    """First attempts of players with known abilities at levels with known difficulties.

    Parameters
    ----------
    levels : sequence of Level or str
        The levels (or their ids) in the order players meet them.
    difficulty : array of float
        β per level (logits), aligned with ``levels``.
    ability : array of float
        θ per player (logits); player ``i`` is ``f"{prefix}{i:04d}"``.
    rng : int, SeedSequence or Generator
        Player ``i`` draws from the named stream ``"player/{i}"``.
    progression : bool
        Players quit after runs of failures (else everyone plays every level).
    quit_rate : float
        Chance of quitting per failure in the current run.

    Returns
    -------
    numpy structured array
        Telemetry rows (attempt 1 only; the counts other than ``won`` are 0), in arrival order:
        player by player, each in level order.

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
    root = make_rng(rng)
    rows = []
    for i, t in enumerate(theta):
        gen = stream(root, f"player/{i}")
        won = gen.random(len(ids)) < 1.0 / (1.0 + np.exp(beta - t))
        quit_draw = gen.random(len(ids))
        run = 0
        for j, level in enumerate(ids):
            rows.append((level, f"{prefix}{i:04d}", 1, bool(won[j]), 0, 0, 0, 0, 0.0, bool(won[j])))
            run = 0 if won[j] else run + 1
            if progression and quit_draw[j] < min(1.0, quit_rate * run):
                break
    return make_table(rows)
