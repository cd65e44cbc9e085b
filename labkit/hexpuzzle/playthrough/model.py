"""``funnel(campaign, model)``: a fitted player population played through a campaign.

The skill model supplies, for a player of ability θ, the chance to win attempt ``k`` of a level
(``model.success(level, θ, attempt=k)``, vectorised over θ; a level nobody has played is
predicted from its score parts) and the chance to stop playing after an attempt
(``model.quit_model.p_quit(θ, position=, won=, attempt=)``); abilities are drawn from the fitted
normal population. Both are read on an ability grid into the kernel's logit tables
(:class:`~labkit.hexpuzzle.playthrough.simulate.Tables`).

**The fit's uncertainty.** ``model.parameter_draws(draws, rng)`` gives models whose parameters
are drawn from the fit's sampling distribution (a parametric bootstrap); each is played with its
own cohort of ``players``, and the funnel's intervals are percentiles over the cohorts, so they
hold both the parameter uncertainty and the Monte-Carlo noise. ``uncertainty=False`` plays every
cohort with the fitted parameters (Monte-Carlo noise only), to see how much is the fit's.

**Time.** Where the telemetry has times (``seconds`` not all zero), a level's expected time is
its won and lost attempts, as the funnel predicts them, at the mean seconds of a won and of a
lost attempt there; levels without timed attempts have none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit._args import check_int
from labkit.hexpuzzle.playthrough.simulate import (
    Funnel,
    Tables,
    reorder,
    run,
    world_tables,
)
from labkit.rng import RngLike, make_rng, stream

__all__ = ["funnel", "level_times", "model_tables"]


def _level_id(level: Any) -> str:
    if isinstance(level, str):
        return level
    return str(getattr(level, "id", None) or level.level_id)


def _plan(model: Any, levels: Sequence[Any]) -> tuple[NDArray, NDArray, NDArray]:
    """Per campaign level: its index in the model (−1: nobody played it), β, and the variance
    of a predicted β (0 for played levels: their spread comes with ``parameter_draws``)."""
    ids = list(model.level_ids)
    index = np.full(len(levels), -1)
    beta, var = np.zeros(len(levels)), np.zeros(len(levels))
    for i, level in enumerate(levels):
        lid = _level_id(level)
        b = float(model.difficulty_of(level))  # a new level: predicted from its parts
        if lid in ids and b == float(model.difficulty[ids.index(lid)]):
            index[i], beta[i] = ids.index(lid), b
            continue
        beta[i], var[i] = b, _prediction_variance(model, level)
    return index, beta, var


def _prediction_variance(model: Any, level: Any) -> float:
    """x Var(γ) xᵀ + τ² of a level predicted from its parts (the LLTM's own uncertainty)."""
    from labkit.hexpuzzle.difficulty.fit import strengths
    from labkit.hexpuzzle.difficulty.scoring import score

    cov = np.asarray(getattr(model, "weights_cov", np.zeros((0, 0))), dtype=float)
    tau = float(getattr(model, "residual_sd", float("nan")))
    x = np.concatenate([[1.0], strengths(score(level))])
    v = float(x @ cov @ x) if cov.shape == (len(x), len(x)) else 0.0
    return v + (tau * tau if np.isfinite(tau) else 0.0)


def _discrimination(model: Any, index: NDArray) -> NDArray | None:
    alpha = getattr(model, "discrimination", None)
    if alpha is None:
        return None
    alpha = np.asarray(alpha, dtype=float)
    return np.where(index >= 0, alpha[np.maximum(index, 0)], 1.0)


def _attempts(model: Any, max_attempts: int | None) -> int:
    k = max_attempts if max_attempts is not None else getattr(model, "max_attempts", None)
    if k is None:
        k = (getattr(model, "fit_info", None) or {}).get("max_attempts", 3)
    return check_int(k, "max_attempts", 1, 100)


def model_tables(
    model: Any,
    levels: Sequence[Any],
    *,
    max_attempts: int | None = None,
    moves_on: bool = True,
    times: tuple[NDArray, NDArray] | None = None,
) -> Tables:
    """The kernel's tables of a skill model (its fitted parameters) for ``levels`` in order.

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> t = model_tables(TrueModel([0.0, 1.0], quit={"baseline": -2.0}), ["L01", "L02"])
    >>> t.win.shape, bool(t.win[0, 0, 24] > t.win[1, 0, 24])
    ((2, 3, 49), True)
    """
    index, beta, _ = _plan(model, levels)
    qm = getattr(model, "quit_model", None)
    return world_tables([_level_id(lv) for lv in levels], beta, ability_mean=0.0,
                        ability_sd=float(model.ability_sd),
                        learning=float(getattr(model, "learning", 0.0)),
                        discrimination=_discrimination(model, index),
                        p_quit=None if qm is None else qm.p_quit,
                        max_attempts=_attempts(model, max_attempts), moves_on=moves_on,
                        times=times)  # fmt: skip


def _terms(quit_model: Any) -> tuple[str, ...]:
    """The quit model's terms in the order of its ``vector`` (and of ``parameter_draws``)."""
    from labkit.hexpuzzle.difficulty.skill_quit import QUIT_TERMS, QuitModel

    return QUIT_TERMS if isinstance(quit_model, QuitModel) else tuple(quit_model.coefficients)


def _drawn_tables(model: Any, levels: Sequence[Any], draws: int, gen, **kw: Any) -> list[Tables]:
    """One table set per parametric draw of ``model`` (a new level's β drawn around its
    prediction with the prediction's variance)."""
    index, beta, var = _plan(model, levels)
    d = model.parameter_draws(draws, gen)
    qm = model.quit_model
    terms = _terms(qm)
    ids = [_level_id(lv) for lv in levels]
    alpha = _discrimination(model, index)
    out = []
    # a new level's draws come from its own stream: the same whatever the order (paired orders)
    noise = np.stack([stream(gen, f"new-level/{lid}").standard_normal(draws) for lid in ids], 1)
    for b in range(draws):
        fitted = np.asarray(d["difficulty"])[b][np.maximum(index, 0)]
        new = beta + np.sqrt(var) * noise[b]
        quit = d.get("quit")
        p_quit = qm.p_quit if quit is None else type(qm)(dict(zip(terms, quit[b]))).p_quit
        learning = d.get("learning")
        out.append(world_tables(ids, np.where(index >= 0, fitted, new), ability_mean=0.0,
                                ability_sd=float(np.asarray(d["ability_sd"])[b]),
                                learning=float(learning[b]) if learning is not None else 0.0,
                                discrimination=alpha, p_quit=p_quit, **kw))  # fmt: skip
    return out


#: The last few funnels' worlds, by level set: another order of the same levels is the same
#: worlds reordered (a level's draws do not depend on its place), so a redraw skips the model.
_RECENT: list[tuple[tuple, Any, tuple[list[str], list[Tables]]]] = []


def _worlds(model, levels, draws, root, seed, uncertainty, k, moves_on) -> list[Tables]:
    ids = [_level_id(lv) for lv in levels]
    key = (tuple(sorted(ids)), draws, seed, uncertainty, k, moves_on)
    for cached_key, cached_model, (cached_ids, worlds) in _RECENT:
        if seed is not None and cached_key == key and cached_model is model:
            order = [cached_ids.index(i) for i in ids]
            return [reorder(t, order) for t in worlds]
    kw: dict[str, Any] = {"max_attempts": k, "moves_on": moves_on}
    if uncertainty:
        worlds = _drawn_tables(model, levels, draws, stream(root, "parameters"), **kw)
    else:
        worlds = [model_tables(model, levels, **kw)] * draws
    _RECENT.insert(0, (key, model, (ids, worlds)))
    del _RECENT[4:]
    return worlds


def level_times(telemetry: Any, ids: Sequence[str]) -> tuple[NDArray, NDArray] | None:
    """Mean seconds of a won and of a lost attempt per level (NaN: none); None without times.

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.telemetry import make_table
    >>> rows = make_table([("a", "p", 1, False, 0, 0, 0, 0, 30.0, False),
    ...                    ("a", "p", 2, False, 0, 0, 0, 0, 20.0, True)])
    >>> won, lost = level_times(rows, ["a", "b"])
    >>> won.tolist()[0], lost.tolist()[0], bool(np.isnan(won[1]))
    (20.0, 30.0, True)
    """
    from labkit.hexpuzzle.difficulty.telemetry import as_table

    table = as_table(telemetry)
    seconds = table["seconds"].astype(float)
    if len(table) == 0 or not np.any(seconds > 0):
        return None
    levels = table["level"].astype(str)
    won = table["won"].astype(bool)
    out_won, out_lost = np.full(len(ids), np.nan), np.full(len(ids), np.nan)
    for i, lid in enumerate(ids):
        here = levels == lid
        if np.any(here & won):
            out_won[i] = seconds[here & won].mean()
        if np.any(here & ~won):
            out_lost[i] = seconds[here & ~won].mean()
    # a level where every attempt was won (or lost) costs its other kind like the campaign's
    # (no attempt of that kind anywhere: it stays NaN, without numpy's empty-mean warning)
    mean_won = np.nanmean(out_won) if not np.isnan(out_won).all() else np.nan
    mean_lost = np.nanmean(out_lost) if not np.isnan(out_lost).all() else np.nan
    out_won = np.where(np.isnan(out_won) & ~np.isnan(out_lost), mean_won, out_won)
    out_lost = np.where(np.isnan(out_lost) & ~np.isnan(out_won), mean_lost, out_lost)
    return out_won, out_lost


def funnel(
    campaign: Sequence[Any],
    model: Any,
    *,
    players: int = 10_000,
    draws: int = 50,
    rng: RngLike = None,
    telemetry: Any = None,
    uncertainty: bool = True,
    max_attempts: int | None = None,
    moves_on: bool = True,
) -> Funnel:
    """Predict where players stop: ``model``'s population played through ``campaign`` in order.

    Parameters
    ----------
    campaign : sequence of Level (a Campaign, a list) or of level ids
        The levels in play order; a Level the model has no data for is predicted from its parts.
    model : SkillModel
        A fitted skill model with a quit model (``labkit puzzle skill … --out``).
    players : int
        Players per cohort (1–10,000,000).
    draws : int
        Cohorts, each with its own parametric draw of the model (1–1000).
    rng : int, SeedSequence or Generator
        Parameter draws use the stream ``"parameters"``, the cohorts ``"cohort/{b}"``.
    telemetry : telemetry table, optional
        Times per attempt for the expected time per level (default: the model's own data, when
        it was fitted in this session).
    uncertainty : bool
        Draw the parameters (default); False plays every cohort with the fitted ones.
    max_attempts : int, optional
        Attempts per level (default: the model's, else 3).
    moves_on : bool
        After the last allowed attempt is lost, the player goes on to the next level (what the
        simulated telemetry does); False: the player is out.

    Returns
    -------
    Funnel

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> truth = TrueModel([-1.0, 0.0, 1.0], quit={"baseline": -1.5, "ability": -0.5})
    >>> f = funnel(["L01", "L02", "L03"], truth, players=2000, draws=10, rng=0)
    >>> f.value("reach")[0], bool(f.value("reach")[2] < f.value("reach")[1] < 1)
    (1.0, True)
    """
    levels = list(campaign)
    if not levels:
        raise ArgumentError("has no levels", argument="campaign", value=campaign)
    draws = check_int(draws, "draws", 1, 1000)
    if getattr(model, "quit_model", None) is None:
        raise ArgumentError("has no quit model, so it cannot say where players stop: fit it "
                            "with dropout='model' (labkit puzzle skill)",
                            argument="model", value=repr(model))  # fmt: skip
    root = make_rng(rng)
    ids = [_level_id(lv) for lv in levels]
    if telemetry is None and getattr(model, "source", None) is not None:
        telemetry = model.source[0]
    times = level_times(telemetry, ids) if telemetry is not None else None
    k = _attempts(model, max_attempts)
    seed = int(rng) if isinstance(rng, (int, np.integer)) else None
    worlds = _worlds(model, levels, draws, root, seed, bool(uncertainty), k, bool(moves_on))
    if times is not None:
        worlds = [replace(t, seconds_won=times[0], seconds_lost=times[1]) for t in worlds]
    out = run(worlds, players, root)
    out.notes.update(seed=seed, uncertainty=bool(uncertainty), model=repr(model))
    return out
