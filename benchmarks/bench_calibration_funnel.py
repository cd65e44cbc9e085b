"""Calibration from a known truth (issue 45, part 5): do the 95 % intervals hold the truth?

Three interval makers, each checked on data simulated from a known truth, at a small and a large
sample size; coverage is the share of (data set, level or player) pairs whose interval holds the
truth, with its Monte-Carlo error (the binomial standard error over data sets: levels of one data
set are not independent, so the error is taken between data sets' coverages).

* **Funnel reach bands** (:func:`labkit.hexpuzzle.funnel`): telemetry of 30 levels from
  :class:`~labkit.hexpuzzle.playthrough.truth.TrueModel` worlds, a skill model fitted to it, the
  reach band against the world's reach (the kernel, 200,000 players × 2). Worlds: the model's own
  family (logistic quitting); *session* (1.5 % stop after any level, 25 % after levels 10 and
  20); *streak* (1 % stop, 40 % once three levels in a row were not won at the first try). The
  row also gives the coverage of the model's bands alone (``check=False``, the bands before
  issue 45: the percentiles of the funnel's own cohorts) and both bands' mean widths. 20 data
  sets per world and size: a data set's levels miss together (reach is cumulative), so a set's
  coverage is often all or little and the Monte-Carlo error is that of 20 draws, not of 20 × 29.
* **Skill-model difficulty intervals** (``SkillModel.difficulty_ci``): telemetry from
  :func:`~labkit.hexpuzzle.difficulty.skill_sim.telemetry_from_skill` (known β, normal
  abilities), the interval against β on the model's scale (β minus the players' mean ability).
* **Bradley–Terry intervals** (``labkit.encounter.sim.ratings.bradley_terry``): win matrices of
  6 players with known strengths, every pair meeting ``games`` times.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks import Row, benchmark

BETA = np.linspace(-1.5, 1.5, 30)
WORLD = {"ability_sd": 1.0, "learning": 0.3, "max_attempts": 3}
#: Data sets per world and size (about 1 s of CPU each).
SETS = 20


def _session(ability, *, position, won, attempt, run):
    return np.where(np.isin(np.asarray(position), [9, 19]), 0.25, 0.015)


def _streak(ability, *, position, won, attempt, run):
    return np.where(np.asarray(run) >= 3, 0.4, 0.01)


def worlds():
    from labkit.hexpuzzle.playthrough.truth import TrueModel

    family = {"baseline": -3.0, "ability": -0.4, "won": -0.7, "run": 0.3}
    return {
        "family": TrueModel(BETA, quit=family, **WORLD),
        "session": TrueModel(BETA, quit_rule=_session, **WORLD),
        "streak": TrueModel(BETA, quit_rule=_streak, **WORLD),
    }


def _summary(per_set: list[float]) -> tuple[float, float]:
    a = np.asarray(per_set, dtype=float)
    return float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a))) if len(a) > 1 else float("nan")


def funnel_coverage(truth, players: int, sets: int, seed: int = 0) -> dict[str, tuple]:
    """Reach-band coverage (levels 2–30) over ``sets`` data sets, with and without the check."""
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from labkit.hexpuzzle.playthrough.model import funnel, model_tables
    from labkit.hexpuzzle.playthrough.simulate import run

    t = run([model_tables(truth, truth.level_ids)] * 2, 200_000, rng=99).samples["reach"].mean(0)
    out: dict[str, list[float]] = {"checked": [], "model only": [], "width": [], "width0": []}
    for s in range(sets):
        rows = truth.telemetry(players, rng=seed + s)
        model = fit_skill_model(rows, truth.level_ids, features=False)
        f = funnel(truth.level_ids, model, players=10_000, draws=40, rng=seed + s, telemetry=rows)
        # the model's band alone (check=False) is the percentiles of the same cohorts: the check
        # widens the stats, never the samples, so one funnel gives both
        alone = np.nanpercentile(f.samples["reach"], [2.5, 97.5], axis=0)
        for key, (lo, hi) in (("checked", f.interval("reach").T), ("model only", alone)):
            out[key].append(float(np.mean(((lo <= t) & (t <= hi))[1:])))
            out["width" if key == "checked" else "width0"].append(float(np.mean(hi - lo)))
    return {k: _summary(v) for k, v in out.items()}


def skill_coverage(players: int, sets: int, seed: int = 0) -> tuple[float, float]:
    """Coverage of the difficulty intervals of 10 levels (first attempts, quitting by runs)."""
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill

    ids = [f"L{i}" for i in range(10)]
    beta = np.linspace(-1.5, 1.5, 10)
    per = []
    for s in range(sets):
        theta = np.random.default_rng(seed + 1000 + s).normal(0, 1, players)
        rows = telemetry_from_skill(ids, beta, theta, rng=seed + s, quit_rate=0.1)
        m = fit_skill_model(rows, ids, features=False, dropout="ignore", retries=False)
        lo, hi = m.difficulty_ci.T
        # the model's 0 is the fitted players' mean ability (its posterior means' mean), a
        # sample estimate of theta's mean: the truth on the model's scale is β − that mean
        b = beta - theta.mean()
        per.append(float(np.mean((lo <= b) & (b <= hi))))
    return _summary(per)


def bt_coverage(games: int, sets: int, seed: int = 0) -> tuple[float, float]:
    """Coverage of Bradley–Terry strength intervals (6 players, mean-0 strengths)."""
    from labkit.encounter.sim.ratings import bradley_terry

    s_true = np.array([1.0, 0.6, 0.2, -0.2, -0.6, -1.0])
    p = 1.0 / (1.0 + np.exp(s_true[None, :] - s_true[:, None]))
    names = [f"p{i}" for i in range(6)]
    gen = np.random.default_rng(seed)
    per = []
    for _ in range(sets):
        upper = gen.binomial(games, np.triu(p, 1))
        wins = np.triu(upper, 1) + np.tril(games - upper.T, -1)
        np.fill_diagonal(wins, 0)
        r = bradley_terry(wins, names).set_index("player").loc[names]
        per.append(float(np.mean((r["lo"] <= s_true) & (s_true <= r["hi"]))))
    return _summary(per)


def _fmt(m: tuple[float, float]) -> str:
    return f"{m[0]:.3f} ± {m[1]:.3f}"


@benchmark("calibration funnel reach bands, known worlds")
def bench_calibration_funnel():
    start = time.perf_counter()
    rows, extra = [], {}
    for name, truth in worlds().items():
        for players, sets in ((500, SETS), (2000, SETS)):
            c = funnel_coverage(truth, players, sets)
            extra[f"{name}/{players}"] = {k: list(v) for k, v in c.items()}
            rows.append(f"{name} n={players}: {_fmt(c['checked'])} (model only "
                        f"{_fmt(c['model only'])}; width {c['width'][0]:.3f} vs "
                        f"{c['width0'][0]:.3f})")  # fmt: skip
    return Row("calibration funnel reach bands, known worlds", time.perf_counter() - start, None,
               "target: reach coverage >= 0.90 in every world", None,
               notes="reach-band coverage, levels 2-30 (± Monte-Carlo error over data sets): "
                     + "; ".join(rows), extra=extra)  # fmt: skip


@benchmark("calibration skill model and Bradley-Terry intervals")
def bench_calibration_skill_bt():
    start = time.perf_counter()
    skill = {n: skill_coverage(n, 20) for n in (200, 2000)}
    bt = {g: bt_coverage(g, 400) for g in (20, 400)}
    notes = (
        "95 % intervals, coverage ± Monte-Carlo error: skill-model difficulty "
        + ", ".join(f"n={n} {_fmt(c)}" for n, c in skill.items())
        + "; Bradley-Terry "
        + ", ".join(f"{g} games/pair {_fmt(c)}" for g, c in bt.items())
    )
    return Row("calibration skill model and Bradley-Terry intervals", time.perf_counter() - start,
               None, "target: coverage within 0.93-0.97", None, notes=notes,
               extra={"skill": {str(k): list(v) for k, v in skill.items()},
                      "bradley_terry": {str(k): list(v) for k, v in bt.items()}})  # fmt: skip
