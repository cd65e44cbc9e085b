"""The skill fit against known truths: is it right in absolute terms? (issue 25's table)

A *world* is a campaign of made-up levels whose true difficulty is β = b + x·w + r (x the six
parts as strengths, r ~ N(0, 0.15²) a residual the parts do not explain), players with
θ ~ N(0, 1.5²), up to three attempts per level with a learning step of 0.5 logits per retry, and
one of three ways of leaving:

``outcome``
    quitting after runs of first-try failures (today's rule: missing at random);
``ability``
    the same, but weaker players are less persistent given the same outcomes
    (``quit_ability=1``: not at random);
``complete``
    everyone plays every level.

Per world and seed, :func:`validation_row` fits the model to the telemetry and reports, in the
designer's terms:

* ``location``: mean fitted minus true difficulty of the played levels (logits; the truth on
  the model's scale, where ability 0 is the mean of the players who started);
* ``spread``: fitted ability spread / the true 1.5;
* ``success``: mean |predicted − true| first-try success of a median player on levels nobody
  played (predicted from their parts);
* ``target``: worst |true − p| over p = 0.3 … 0.9 of the mean true success of new levels the
  model predicts at p (the true β regressed on the predicted β over 220 made-up levels nobody
  played, read off at β = −logit p) — how ``generate_to_target(success=p)`` would fare, without
  running the generator.

Examples
--------
>>> row = validation_row("complete", 0, levels=12, players=150)
>>> sorted(row)[:4], row["world"]
(['discrimination', 'dropout', 'learning', 'location'], 'complete')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit import ArgumentError

__all__ = ["WORLDS", "validation_row", "validation_table"]

WORLDS = ("outcome", "ability", "complete")
_WEIGHTS = np.array([0.8, 1.2, 1.5, 0.8, 2.0, 0.6])
_BASELINE, _RESIDUAL, _SPREAD = -2.4, 0.15, 1.5
_TARGETS = np.round(np.arange(0.3, 0.91, 0.1), 2)


def validation_row(
    world: str,
    seed: int,
    *,
    levels: int = 60,
    players: int = 1000,
    unseen: int = 20,
    **options: Any,
) -> dict[str, Any]:
    """Fit one world (``options`` go to ``fit_skill_model``) and measure it (see above).

    Examples
    --------
    >>> r = validation_row("outcome", 1, levels=10, players=120, dropout="ignore")
    >>> r["dropout"], bool(abs(r["location"]) < 1.0)
    ('ignore', True)
    """
    from scipy.special import expit

    from labkit.hexpuzzle.difficulty.fit import example_difficulties, strengths
    from labkit.hexpuzzle.difficulty.skill import DEFAULTS, fit_skill_model
    from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

    if world not in WORLDS:
        raise ArgumentError(f"must be one of {WORLDS}", argument="world", value=world)
    gen = np.random.default_rng([25, int(seed)])
    diffs = example_difficulties(levels + unseen + 200, rng=int(seed))
    x = np.array([strengths(d) for d in diffs])
    beta = _BASELINE + x @ _WEIGHTS + gen.normal(0, _RESIDUAL, len(diffs))
    order = np.argsort(beta[:levels] + gen.normal(0, 0.8, levels))  # a designer's rough order
    played = [diffs[i] for i in order]
    new = diffs[levels : levels + unseen]
    pool = diffs[levels + unseen :]
    theta = gen.normal(0, _SPREAD, int(players))
    table = telemetry_from_skill(
        played, beta[order], theta, rng=int(seed), progression=world != "complete",
        quit_rate=0.25, max_attempts=3, learning=0.5,
        quit_ability=1.0 if world == "ability" else 0.0,
    )  # fmt: skip
    model = fit_skill_model(table, played + new, **options)
    pred = np.array([model.success(d) for d in new])
    true = expit(theta.mean() - beta[levels : levels + unseen])
    # the true success of levels the model predicts at p: regress true on predicted β over
    # the levels nobody played (predicted from their parts), read off at β = −logit(p)
    fresh = new + pool
    b_pred = np.array([model.difficulty_of(d) for d in fresh])
    b_true = beta[levels:]
    slope, cut = np.polyfit(b_pred, b_true - theta.mean(), 1)
    hit = expit(-(cut + slope * -np.log(_TARGETS / (1 - _TARGETS))))
    worst = float(np.max(np.abs(hit - _TARGETS)))
    return {
        "world": world,
        "seed": int(seed),
        "dropout": options.get("dropout", DEFAULTS["dropout"]),
        **{k: options.get(k, DEFAULTS[k]) for k in ("retries", "discrimination")},
        "rows": int(len(table)),
        "players": int(players),
        # ability 0 is the mean of these players, so the truth is β minus their mean θ
        "location": float(np.mean(model.difficulty[: len(played)] - beta[order] + theta.mean())),
        "spread": model.ability_sd / _SPREAD,
        "success": float(np.mean(np.abs(pred - true))),
        "target": worst,
        "quit_ability": None
        if model.quit_model is None
        else model.quit_model.coefficients["ability"],
        "learning": model.learning,
    }


def validation_table(
    seeds: Any = (0, 1, 2), *, worlds: Any = WORLDS, dropouts: Any = ("ignore", "model"), **kw: Any
) -> list[dict[str, Any]]:
    """:func:`validation_row` for every world × seed × dropout setting.

    Examples
    --------
    >>> rows = validation_table([0], worlds=["complete"], dropouts=["model"], levels=8,
    ...                         players=100)
    >>> len(rows), rows[0]["dropout"]
    (1, 'model')
    """
    return [validation_row(w, s, dropout=d, **kw) for w in worlds for s in seeds for d in dropouts]
