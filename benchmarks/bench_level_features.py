"""Any game's level features (issue 49): the skill fit on a known-truth world that is not hex.

The world is the one ``tests/hexpuzzle/difficulty/test_level_features.py`` simulates (40 played
levels described by board size, enemy count and par time; a true difficulty linear in them plus
a residual of 0.15 logits; 800 players with abilities of spread 1.5, up to three attempts, a
learning step of 0.5 and quitting that depends on ability), over ``LABKIT_FEATURE_SEEDS``
seeds (default 12). Per seed: location, spread, weights, τ, the mean |success error| of 20
unplayed levels, and how many of 60 unplayed levels' 95 % intervals hold their true difficulty.
Criteria: the validation table's (|location| <= 0.15, spread within 10 %, success <= 0.05) and
an overall coverage near 0.95.
"""

from __future__ import annotations

import os
import time

import numpy as np

from benchmarks import benchmark


@benchmark("hexpuzzle skill fit with a non-hex feature table")
def bench_feature_world():
    from scipy.special import expit

    from benchmarks import Row
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from tests.hexpuzzle.difficulty.test_level_features import SPREAD, TRUE_WEIGHTS, world

    seeds = range(int(os.environ.get("LABKIT_FEATURE_SEEDS", "12")))
    rows, inside, took = [], [], 0.0
    print(f"{'seed':>4}{'rows':>7}{'location':>10}{'spread':>8}{'tau':>7}{'success':>9}"
          f"{'covered':>9}  weights")  # fmt: skip
    for seed in seeds:
        telemetry, feats, order, beta, theta = world(seed)
        new = list(feats.index[40:60])
        start = time.perf_counter()
        model = fit_skill_model(telemetry, order + new, features=feats)
        took += time.perf_counter() - start
        at = {lid: i for i, lid in enumerate(feats.index)}
        truth = np.array([beta[at[lid]] for lid in order]) - theta.mean()
        location = float(np.mean(model.difficulty[:40] - truth))
        table = model.predict(feats.iloc[40:])
        true = beta[40:] - theta.mean()
        hit = (table["low"].to_numpy() <= true) & (true <= table["high"].to_numpy())
        inside.append(hit)
        success = float(np.mean(np.abs(table["success"].to_numpy()[:20] - expit(-true[:20]))))
        spread = model.ability_sd / SPREAD
        rows.append((location, spread, success))
        w = ", ".join(f"{k} {model.weights[k]:.3f}" for k in TRUE_WEIGHTS)
        print(f"{seed:>4}{len(telemetry):>7}{location:>+10.3f}{spread:>8.3f}"
              f"{model.residual_sd:>7.3f}{success:>9.3f}{hit.mean():>9.3f}  {w}")  # fmt: skip
    covered = float(np.concatenate(inside).mean())
    ok = all(abs(loc) <= 0.15 and abs(sp - 1) <= 0.1 and su <= 0.05 for loc, sp, su in rows)
    print(f"coverage of unplayed levels' 95 % intervals: {covered:.3f} "
          f"({int(np.concatenate(inside).sum())} of {np.concatenate(inside).size})")  # fmt: skip
    return Row(
        "hexpuzzle skill fit, non-hex feature world (seeds)",
        took / max(1, len(rows)),
        None,
        "validation criteria: |location| <= 0.15, spread within 10 %, success <= 0.05",
        None,
        notes=f"criteria met in every seed: {ok}; unplayed coverage {covered:.3f} (nominal 0.95)",
        extra={"coverage": covered, "criteria_met": ok, "seeds": len(rows)},
    )
