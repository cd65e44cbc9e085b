"""``funnel(campaign, model)``: a fitted player population played through a campaign.

The skill model supplies, for a player of ability θ, the chance to win attempt ``k`` of a level
(``model.success(level, θ, attempt=k)``, vectorised over θ; a level nobody has played is
predicted from its score parts, or, for a model of any game's features, from its row of the
``features`` table by the model's own prediction) and the chance to stop playing after an attempt
(``model.quit_model.p_quit(θ, position=, won=, attempt=)``); abilities are drawn from the fitted
normal population. Both are read on an ability grid into the kernel's logit tables
(:class:`~labkit.hexpuzzle.playthrough.simulate.Tables`).

**The fit's uncertainty.** ``model.parameter_draws(draws, rng)`` gives models whose parameters
are drawn from the fit's sampling distribution (a parametric bootstrap); each is played with its
own cohort of ``players``, and the funnel's intervals are percentiles over the cohorts, so they
hold both the parameter uncertainty and the Monte-Carlo noise. ``uncertainty=False`` plays every
cohort with the fitted parameters (Monte-Carlo noise only), to see how much is the fit's.

**What the model cannot know.** The parameter draws hold the fit's uncertainty *within* the
model: if players quit by another rule (at a session's end, after a streak of failures) the
bands are narrow around the wrong curve. So the funnel also checks the model against the data it
was fitted to (a posterior-predictive check): it plays the model in the data's level order with
the same draws and compares, per level, the reach, quit rate and first-try success it predicts
with what the fitted players did (``model.observed``, or ``telemetry``). Where the data lie
outside what the model's own noise allows (the parameter spread plus the binomial noise of the
data's players, two-sided 95 %), the model misses the data there: the band is widened to take in
the data's own 95 % interval (Wilson), and the level's ``check`` reads so. Reach and quit rate
belong to a place in the campaign (data position ``i`` checks campaign position ``i``), first-try
success to a level (checked by id); in a campaign in another order than the data's, the widening
is by the same amount on both sides (the miss may move either way). A model without its data (a
file written before issue 45) has no check.

**The data's reach is a floor.** Reach is cumulative: a stop rule the model cannot follow (after
a streak of failures) misses by a little at every level, too little for any one level's check to
see, and the misses add up to a reach curve off by about the data's own noise, while the model's
band (it smooths over levels) is narrower than that. The data's 95 % reach interval holds the
population's reach whatever the model, so where the campaign is the data's (same levels in the
same order, same attempt cap) the reach band is the union of the model's band and the data's
interval; in another order or game, each place's band is widened on both sides by as much as the
data's interval stuck out of the model's band at that place in the data's order. In the model's
own family this widens the reach bands by about a third (mean width 0.056 to 0.077 with 500
players, 0.030 to 0.039 with 2000; ``make bench``, row "calibration funnel reach bands, known
worlds"); it is the price of a band that holds the truth when the model is wrong. The quit-rate
and first-try bands are widened only where the check misses.

**Attempts.** Players get ``max_attempts`` attempts per level: by default the cap the data
allowed (``model.max_attempts``, the most attempts anyone made at a level, kept in the model
file), else 3 (files written before issue 45).

**Time.** Where the telemetry has times (``seconds`` not all zero), a level's expected time is
its won and lost attempts, as the funnel predicts them, at the mean seconds of a won and of a
lost attempt there; levels without timed attempts have none.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit._args import check_int
from labkit.hexpuzzle.playthrough.simulate import (
    CHECK,
    MAX_PLAYERS,
    Funnel,
    Tables,
    reorder,
    run,
    world_tables,
)
from labkit.rng import RngLike, make_rng, stream

__all__ = ["CHECK", "funnel", "level_times", "model_tables", "observed_counts_of"]


def _level_id(level: Any) -> str:
    if isinstance(level, str):
        return level
    return str(getattr(level, "id", None) or level.level_id)


def _plan(model: Any, levels: Sequence[Any], features: Any = None
          ) -> tuple[NDArray, NDArray, NDArray]:  # fmt: skip
    """Per campaign level: its index in the model (−1: nobody played it), β, and the variance
    of a predicted β (0 for played levels: their spread comes with ``parameter_draws``)."""
    if features is not None or getattr(model, "feature_names", None) is not None:
        return _feature_plan(model, levels, features)
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


def _feature_plan(model: Any, levels: Sequence[Any], features: Any
                  ) -> tuple[NDArray, NDArray, NDArray]:  # fmt: skip
    """:func:`_plan` by level id, a level the model does not hold predicted from its row of
    the feature table ``features`` (:mod:`~labkit.hexpuzzle.difficulty.level_features`) by the
    model's own prediction (x·γ, variance the weights' uncertainty plus τ²): a model of any
    game's features has no H9 parts to score. A level the model holds keeps its fitted β
    unless the table gives it other features than it was fitted with (an edited level keeps
    its id). Every refusal is one line naming the level (and the column)."""
    ids = [_level_id(lv) for lv in levels]
    held = {lid: i for i, lid in enumerate(model.level_ids)
            if np.isfinite(float(model.difficulty[i]))}  # fmt: skip
    table = None
    if features is not None:
        from labkit.hexpuzzle.difficulty.level_features import _frame, feature_table

        table = _frame(features, "features")
        names = list(model.explained_by)
        missing = [n for n in names if n not in table.columns]
        if missing:
            raise ArgumentError(f"column {missing[0]!r}: missing (the model was fitted with it)",
                                argument="features")  # fmt: skip
        table = table[names]
        rows = {str(i) for i in table.index}
        # a held level the table describes too: predicted again if its features changed
        known = [lid for lid in dict.fromkeys(ids) if lid in held and lid in rows]
        if known:
            _, x = feature_table(table, known)
            fitted = np.asarray(model.strengths, dtype=float)[[held[lid] for lid in known]]
            for lid, a, b in zip(known, x, fitted):
                if not np.allclose(a, b, equal_nan=True):
                    del held[lid]
    new = list(dict.fromkeys(lid for lid in ids if lid not in held))
    if new and table is None:
        raise ArgumentError("the model has no data for this level: give its features "
                            "(features=, a table with the model's feature columns)",
                            argument="campaign", value=new[0])  # fmt: skip
    predicted: dict[str, tuple[float, float]] = {}
    if new:
        if not model.features:
            raise ArgumentError("cannot predict a new level: the model has no feature weights",
                                argument="campaign", value=new[0])  # fmt: skip
        _, x = feature_table(table, new)
        b, v = model._predicted(x)
        predicted = {lid: (float(bi), float(vi)) for lid, bi, vi in zip(new, b, v)}
    index = np.array([held.get(lid, -1) for lid in ids], dtype=int)
    beta = np.array([float(model.difficulty[held[lid]]) if lid in held else predicted[lid][0]
                     for lid in ids])  # fmt: skip
    var = np.array([0.0 if lid in held else predicted[lid][1] for lid in ids])
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


#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054
#: Most players a funnel simulates (players x draws): 10^7 take ten seconds for 24 levels.
MAX_SIMULATED = 10_000_000


def _wilson(k: NDArray, n: NDArray) -> tuple[NDArray, NDArray]:
    """95 % Wilson interval of k successes in n (NaN where n is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        den = 1 + Z95**2 / n
        mid = (p + Z95**2 / (2 * n)) / den
        half = Z95 * np.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / den
    return mid - half, mid + half


def observed_counts_of(telemetry: Any, ids: Sequence[str], *, attempts: bool = False
                       ) -> dict[str, Any]:  # fmt: skip
    """:func:`~labkit.hexpuzzle.difficulty.skill_stats.observed_counts` of a telemetry table,
    levels in the order ``ids`` (rows of other levels ignored); ``attempts``: also, per level,
    the attempts made (``"tries"``) and the levels cleared (``"clears"``), for attempts per
    clear (:func:`~labkit.hexpuzzle.playthrough.holdout.observed_funnel`).

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.telemetry import make_table
    >>> rows = make_table([("a", "p1", 1, False, 0, 0, 0, 0, 0.0, False),
    ...                    ("a", "p1", 2, False, 0, 0, 0, 0, 0.0, True),
    ...                    ("x", "p2", 1, True, 0, 0, 0, 0, 0.0, True)])
    >>> c = observed_counts_of(rows, ["a", "b"], attempts=True)
    >>> c["players"], c["reached"], c["tries"], c["clears"]
    (1, [1, 0], [2, 0], [1, 0])
    """
    from labkit.hexpuzzle.difficulty.skill_stats import level_player_rows, observed_counts
    from labkit.hexpuzzle.difficulty.telemetry import as_table

    table = as_table(telemetry)
    level, player, names = level_player_rows(table, list(ids))
    keep = level >= 0
    _, player = np.unique(player[keep], return_inverse=True)
    won = table["won"][keep]
    out = observed_counts(level[keep], player, table["attempt"][keep], won, len(ids),
                          int(player.max()) + 1 if len(player) else 0)  # fmt: skip
    if attempts:
        lv = level[keep]
        out["tries"] = np.bincount(lv, minlength=len(ids)).astype(int).tolist()
        out["clears"] = np.bincount(lv[won.astype(bool)], minlength=len(ids)).astype(int).tolist()
    return out


def _observed(model: Any, telemetry: Any) -> dict[str, Any] | None:
    """What the fitted players did, in the model's level order (None: unknown)."""
    if telemetry is not None:
        return observed_counts_of(telemetry, list(model.level_ids))
    obs = getattr(model, "observed", None)
    return obs if obs and obs.get("players") else None


def _misses(pred: Funnel, obs: dict[str, Any]) -> dict[str, tuple[NDArray, ...]]:
    """Per measure and data position: (missed, data low, data high), the check of the model's
    predictions ``pred`` (played in the data's order) against the data's counts ``obs``."""
    n = float(obs["players"])
    reached = np.asarray(obs["reached"], dtype=float)
    counts = {
        "reach": (reached, np.full(len(reached), n)),
        "quit_hazard": (np.asarray(obs["stopped"], dtype=float), reached),
        "first_try": (np.asarray(obs["first_try"], dtype=float), reached),
    }
    out: dict[str, tuple[NDArray, ...]] = {}
    for name, (k, m) in counts.items():
        a = pred.samples[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN: nobody got that far
            p = np.nanmedian(a, axis=0)
            spread = np.nanvar(a, axis=0)
            with np.errstate(invalid="ignore", divide="ignore"):
                # the model's own noise for data of this size: its parameters' spread (the
                # cohorts' variance) and the binomial noise of m players
                sd = np.sqrt(spread + p * (1 - p) / m)
                seen = k / m
        ok = (m > 0) & np.isfinite(p) & (sd > 0)
        if name == "quit_hazard":
            ok[-1] = False  # no stop decision at the last level
        z = np.where(ok, (seen - p) / np.where(ok, sd, 1.0), 0.0)
        missed = ok & (np.abs(z) > Z95)
        if name == "quit_hazard" and _chi2_misses(z[ok]):
            # the stopping as a whole does not fit: every reach after the first level rests on
            # it, so every reach band takes in the data's (not only where reach misses)
            out["reach"] = (np.arange(len(k)) > 0, *out["reach"][1:])
        lo, hi = _wilson(k, m)
        out[name] = (missed, lo, hi)
    # how far the data's reach interval sticks out of the model's band, per data position (the
    # floor's widening in another order or game: module notes)
    band = pred.stats["reach"]
    _, lo, hi = out["reach"]
    out["reach_beyond"] = (np.maximum(0.0, band[:, 1] - lo), np.maximum(0.0, hi - band[:, 2]))
    return out


def _chi2_misses(z: NDArray) -> bool:
    """The squared standardised misses, summed, beyond the 95th percentile of χ² (as many
    degrees of freedom as levels): the model's stopping does not fit the data as a whole."""
    from scipy.stats import chi2

    return bool(len(z) > 0 and float(np.sum(z * z)) > chi2.ppf(0.95, len(z)))


#: The last few checks, by model and settings: a redraw in another order reuses its check.
_CHECKS: list[tuple[tuple, Any, Any]] = []


def _check(model, obs, draws, root, seed, uncertainty, k, players, same):
    """The model played in the data's order with the funnel's draws, checked against ``obs``."""
    if same is not None:  # the funnel is the data's own game: checked on itself, never cached
        return _misses(same, obs)  # (a check played on the stream "check" would differ)
    # every count of the data is in the key (first tries and stops too, not only the reach)
    counts = tuple(sorted((name, repr(np.asarray(v).tolist())) for name, v in obs.items()))
    key = (draws, seed, uncertainty, k, players, counts)
    for cached_key, cached_model, result in _CHECKS:
        if seed is not None and cached_key == key and cached_model is model:
            return result
    worlds = _worlds(model, list(model.level_ids), draws, root, seed, uncertainty, k, True)
    result = _misses(run(worlds, players, stream(root, "check")), obs)
    _CHECKS.insert(0, (key, model, result))
    del _CHECKS[4:]
    return result


def _widen(f: Funnel, model: Any, misses: dict, order_same: bool) -> Funnel:
    """``f`` with each band the data disagree with widened to the data's interval, the reach
    band floored at the data's, and the levels' ``check`` (module notes: position for reach
    and quit rate, id for first try). ``order_same``: ``f`` is the data's game and order."""
    data_ids = list(model.level_ids)
    stats = {name: a.copy() for name, a in f.stats.items()}
    n_data = len(data_ids)
    check = []
    for i, lid in enumerate(f.level_ids):
        where = {"reach": i if i < n_data else None, "quit_hazard": i if i < n_data else None,
                 "first_try": data_ids.index(lid) if lid in data_ids else None}  # fmt: skip
        if all(j is None for j in where.values()):
            check.append(CHECK["none"])
            continue
        if i < n_data:  # the floor: the data's reach interval (module notes)
            _, lo, hi = misses["reach"]
            below, above = misses["reach_beyond"]
            v, low, high = stats["reach"][i]
            if order_same:
                low, high = min(low, lo[i]), max(high, hi[i])
            else:
                e = max(below[i], above[i])
                low, high = low - e, high + e
            stats["reach"][i, 1:] = max(0.0, low), min(1.0, high)
        missed_any = False
        for name, j in where.items():
            if j is None or name not in stats:
                continue
            missed, lo, hi = (x[j] for x in misses[name])
            if not missed:
                continue
            missed_any = True
            v, low, high = stats[name][i]
            if not order_same:  # the miss may fall either way in another order: both sides
                half = max(v - lo, hi - v)
                lo, hi = v - half, v + half
            stats[name][i, 1] = max(0.0, min(low, lo))
            stats[name][i, 2] = min(1.0, max(high, hi))
        check.append(CHECK["misses"] if missed_any else CHECK["fits"])
    return replace(f, stats=stats, check=tuple(check))


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
    features: Any = None,
) -> Tables:
    """The kernel's tables of a skill model (its fitted parameters) for ``levels`` in order
    (``features``: a feature table for the levels the model does not hold, as in
    :func:`funnel`).

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.truth import TrueModel
    >>> t = model_tables(TrueModel([0.0, 1.0], quit={"baseline": -2.0}), ["L01", "L02"])
    >>> t.win.shape, bool(t.win[0, 0, 24] > t.win[1, 0, 24])
    ((2, 3, 49), True)
    """
    index, beta, _ = _plan(model, levels, features)
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


def _drawn_tables(model: Any, levels: Sequence[Any], draws: int, gen, features: Any = None,
                  **kw: Any) -> list[Tables]:  # fmt: skip
    """One table set per parametric draw of ``model`` (a new level's β drawn around its
    prediction with the prediction's variance)."""
    index, beta, var = _plan(model, levels, features)
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


def _worlds(model, levels, draws, root, seed, uncertainty, k, moves_on, features=None,
            planned=None) -> list[Tables]:  # fmt: skip
    ids = [_level_id(lv) for lv in levels]
    try:  # a level object's content, not only its id: an edited level keeps its id
        content = frozenset(lv for lv in levels if not isinstance(lv, str))
    except TypeError:  # a level object that cannot be a key: never reused
        content = None
    # with a feature table, the levels' predictions are their content (``planned``: _plan's)
    table = None if features is None else tuple(a.tobytes() for a in planned)
    key = (tuple(sorted(ids)), draws, seed, uncertainty, k, moves_on, content, table)
    for cached_key, cached_model, (cached_ids, worlds) in _RECENT:
        if seed is not None and content is not None and cached_key == key and cached_model is model:
            order = [cached_ids.index(i) for i in ids]
            return [reorder(t, order) for t in worlds]
    kw: dict[str, Any] = {"max_attempts": k, "moves_on": moves_on}
    if features is not None:
        kw["features"] = features
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
    if "seconds" not in (table.dtype.names or ()):  # telemetry of another game may have none
        return None
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
    check: bool = True,
    features: Any = None,
) -> Funnel:
    """Predict where players stop: ``model``'s population played through ``campaign`` in order.

    Parameters
    ----------
    campaign : sequence of Level (a Campaign, a list) or of level ids
        The levels in play order; a Level the model has no data for is predicted from its parts
        (a model of the H9 parts), a level id from its row of ``features``.
    model : SkillModel
        A fitted skill model with a quit model (``labkit puzzle skill … --out``).
    players : int
        Players per cohort (1–10,000,000).
    draws : int
        Cohorts, each with its own parametric draw of the model (1–1000).
    rng : int, SeedSequence or Generator
        Parameter draws use the stream ``"parameters"``, the cohorts ``"cohort/{b}"``.
    telemetry : telemetry table, optional
        The data the model was fitted to: times per attempt for the expected time per level
        (default: the model's own data, when it was fitted in this session), and what the
        players did for the check (default: ``model.observed``, kept in the model file).
    uncertainty : bool
        Draw the parameters (default); False plays every cohort with the fitted ones.
    max_attempts : int, optional
        Attempts per level (default: the cap the model's data allowed, ``model.max_attempts``;
        3 for a model file that does not record it).
    moves_on : bool
        After the last allowed attempt is lost, the player goes on to the next level (what the
        simulated telemetry does); False: the player is out.
    check : bool
        Check the model against its data and widen the bands where they disagree (module
        notes; the default). False: the model's bands alone.
    features : DataFrame or dict, optional
        A feature table (:mod:`~labkit.hexpuzzle.difficulty.level_features`: one row per level
        id, the columns the model was fitted with) for a model fitted with ``features=``: a
        level the model does not hold is predicted from its row by the model's own prediction
        (:meth:`SkillModel.predict`), its β drawn with the prediction's variance; a level it
        holds keeps its fitted β unless its row differs from the features it was fitted with.
        Without it every level must be one the model holds. Checked before any play.

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
    players = check_int(players, "players", 1, MAX_PLAYERS)
    if players * draws > MAX_SIMULATED:  # the time a call takes grows with the product
        raise ArgumentError(f"at most {MAX_SIMULATED} simulated players (fewer players or "
                            "draws)", argument="players x draws",
                            value=players * draws)  # fmt: skip
    if getattr(model, "quit_model", None) is None:
        raise ArgumentError("has no quit model, so it cannot say where players stop: fit it "
                            "with dropout='model' (labkit puzzle skill)",
                            argument="model", value=repr(model))  # fmt: skip
    # the campaign's levels known or predicted before any play (one-line refusals)
    planned = _plan(model, levels, features) if features is not None else None
    root = make_rng(rng)
    ids = [_level_id(lv) for lv in levels]
    explicit = telemetry
    if telemetry is None and getattr(model, "source", None) is not None:
        telemetry = model.source[0]
    times = level_times(telemetry, ids) if telemetry is not None else None
    k = _attempts(model, max_attempts)
    seed = int(rng) if isinstance(rng, (int, np.integer)) else None
    worlds = _worlds(model, levels, draws, root, seed, bool(uncertainty), k, bool(moves_on),
                     features, planned)  # fmt: skip
    if times is not None:
        worlds = [replace(t, seconds_won=times[0], seconds_lost=times[1]) for t in worlds]
    out = run(worlds, players, root)
    out.notes.update(seed=seed, uncertainty=bool(uncertainty), model=repr(model))
    obs = _observed(model, explicit) if check else None
    if obs is not None and _checkable(model):
        # the data were played with the data's cap and rule, whatever this what-if asks
        k_data = getattr(model, "max_attempts", None) or k
        same = ids == list(model.level_ids)
        reuse = out if same and k_data == k and moves_on else None
        misses = _check(model, obs, draws, root, seed, bool(uncertainty), k_data, players, reuse)
        # the data's intervals are of the data's game: another cap or rule is another order
        out = _widen(out, model, misses, reuse is not None)
    return out


def _checkable(model: Any) -> bool:
    """Every level of the model can be played (a level nobody played, without parts to
    predict it, cannot: no check then)."""
    return bool(np.isfinite(np.asarray(model.difficulty, dtype=float)).all())
