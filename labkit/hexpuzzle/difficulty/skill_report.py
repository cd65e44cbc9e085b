"""Held-out evaluation of the skill model (k-fold by player), beside two simpler models.

Players are split into ``folds`` groups; each group in turn is held out, every model is fitted
on the other players' telemetry and predicts the held-out players' first attempts:

``skill model``
    σ(θ − β) averaged over the posterior of the player's ability *given the player's earlier
    first attempts* (in arrival order; the first level uses the population). This is how the
    model is used online, and it is why quitting does not bias it: each prediction conditions
    on exactly what was seen before the player chose to go on.
``skill model, player unknown``
    The population average ∫σ(θ − β) dN(θ) — no history at all.
``structural score``
    Logistic regression of first-try success on the level's structural score (pooled rows).
``calibrate index``
    The same on the score :func:`~labkit.hexpuzzle.difficulty.fit.calibrate` fits to the training
    players' observed index (today's calibration).
``skill + level columns``
    The skill model with each level's mean collisions per tile, hint rate, attempts to clear and
    log time (training players) as extra LLTM covariates: what the other columns say of levels.
``skill + player columns``
    The skill model whose view of a player's ability also uses the collisions, hints and time
    of the player's earlier first attempts (each relative to the level's mean): a linear
    combination of them, fitted on the training players to their abilities, is read as a
    normal measurement of θ. What the other columns say of players.

Metrics: log-loss and Brier score per held-out attempt, and the Spearman correlation between a
level's mean prediction and its observed first-try rate among the held-out players (levels with
at least five held-out attempts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit.hexpuzzle.difficulty.scoring import Difficulty, score
from labkit.hexpuzzle.difficulty.telemetry import as_table
from labkit.rng import make_rng

__all__ = ["SkillReport", "evaluate"]

MODELS = (
    "skill model",
    "skill model, player unknown",
    "structural score",
    "calibrate index",
    "skill + level columns",
    "skill + player columns",
)


@dataclass
class SkillReport:
    """Held-out metrics per model; ``bins`` is the skill model's calibration table.

    Examples
    --------
    >>> import numpy as np
    >>> from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    >>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
    >>> ids = ["L0", "L1", "L2", "L3", "L4"]
    >>> theta = np.random.default_rng(0).normal(0, 1, 200)
    >>> rows = telemetry_from_skill(ids, np.linspace(-1.5, 1.5, 5), theta, rng=1)
    >>> report = fit_skill_model(rows, ids, features=False).report(folds=2)
    >>> report.folds, report.n_players, report.n_attempts, report.bins.shape[1]
    (2, 200, 803, 3)
    >>> m = report.metrics
    >>> m["skill model"]["log_loss"] < m["structural score"]["log_loss"]
    True
    >>> print(str(report).splitlines()[0])
    held-out first attempts: 803 by 200 players, 2-fold by player
    """

    metrics: dict[str, dict[str, float]]
    bins: NDArray  # (k, 3): mean predicted, observed rate, count
    folds: int
    n_attempts: int
    n_players: int
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [
            f"held-out first attempts: {self.n_attempts} by {self.n_players} players, "
            f"{self.folds}-fold by player",
            f"{'model':<30}{'log-loss':>10}{'Brier':>9}{'Spearman':>10}",
        ]
        for name, m in self.metrics.items():
            lines.append(
                f"{name:<30}{m['log_loss']:>10.4f}{m['brier']:>9.4f}{m['spearman']:>10.3f}"
            )
        return "\n".join(lines + self.notes)

    def figure(self, ax: Any = None) -> Any:
        """The calibration plot: predicted vs observed first-try success in bins."""
        import matplotlib.pyplot as plt

        if ax is None:
            with plt.ioff():  # the caller shows it (ipympl would display it a second time)
                _, ax = plt.subplots(figsize=(4, 4))
        ax.plot([0, 1], [0, 1], color="0.7", lw=1, label="perfect")
        ax.scatter(
            self.bins[:, 0],
            self.bins[:, 1],
            s=8 + 60 * self.bins[:, 2] / max(1, self.bins[:, 2].max()),
            label="skill model (held out)",
        )
        ax.set(xlabel="predicted first-try success", ylabel="observed", xlim=(0, 1), ylim=(0, 1))
        ax.legend(loc="upper left", fontsize=8)
        return ax.figure

    def _repr_html_(self) -> str:
        from html import escape

        import matplotlib.pyplot as plt

        rows = "".join(
            f"<tr><td>{escape(k)}</td><td>{m['log_loss']:.4f}</td><td>{m['brier']:.4f}</td>"
            f"<td>{m['spearman']:.3f}</td></tr>"
            for k, m in self.metrics.items()
        )
        from labkit._svg import figure_svg

        fig = self.figure()
        svg = figure_svg(fig, prologue=False)  # the one deterministic writer, inline in HTML
        plt.close(fig)
        head = escape(str(self).splitlines()[0])
        return (
            f"<p>{head}</p><table><tr><th>model</th><th>log-loss</th><th>Brier</th>"
            f"<th>Spearman</th></tr>{rows}</table>{svg}"
        )


def _logistic(x: NDArray, y: NDArray) -> tuple[float, float]:
    """Intercept and slope of a 1-d logistic regression (Newton, a whisker of ridge)."""
    from scipy.special import expit

    X = np.column_stack([np.ones(len(x)), (x - x.mean()) / (x.std() or 1.0)])
    w = np.zeros(2)
    for _ in range(50):
        p = expit(X @ w)
        g = X.T @ (y - p) - 1e-6 * w
        H = (X * (p * (1 - p))[:, None]).T @ X + 1e-6 * np.eye(2)
        step = np.linalg.solve(H, g)
        w += step
        if np.abs(step).max() < 1e-10:
            break
    s = x.std() or 1.0
    return float(w[0] - w[1] * x.mean() / s), float(w[1] / s)


def _level_columns(table: NDArray, ids: Sequence[str], sizes: NDArray) -> NDArray:
    """Per level: collisions per tile, hint rate, attempts to clear, log time (first tries)."""
    out = np.full((len(ids), 4), np.nan)
    for i, lid in enumerate(ids):
        rows = table[table["level"] == lid]
        first = rows[rows["attempt"] == 1]
        if len(first):
            out[i] = [
                first["collisions"].mean() / max(1, sizes[i]),
                (first["hints"] > 0).mean(),
                rows["attempt"].max(initial=1) if rows["won"].any() else 4.0,
                np.log1p(first["seconds"]).mean(),
            ]
    mean = np.nanmean(out, axis=0)
    out = np.where(np.isnan(out), mean, out)
    out = out[:, out.std(axis=0) > 1e-12]  # a column that never varies says nothing
    return (out - out.mean(axis=0)) / out.std(axis=0)


def _columns(rows: NDArray, lvl: NDArray, sizes: NDArray) -> NDArray:
    return np.column_stack(
        [np.log1p(rows["collisions"] / sizes[lvl]), rows["hints"] > 0, np.log1p(rows["seconds"])]
    ).astype(float)


def _player_evidence(model, train1, tl, test1, lvl, sizes, n_levels) -> NDArray:
    """Log-likelihood (test rows × nodes) of each attempt's other columns given θ."""
    from labkit.hexpuzzle.difficulty.skill_joint import nodes as gauss_hermite

    c_tr, c_te = _columns(train1, tl, sizes), _columns(test1, lvl, sizes)
    counts = np.bincount(tl, minlength=n_levels)[:, None]
    sums = np.column_stack([np.bincount(tl, c_tr[:, j], n_levels) for j in range(3)])
    means = np.where(counts > 0, sums / np.maximum(counts, 1), c_tr.mean(axis=0))
    d_tr, d_te = c_tr - means[tl], c_te - means[lvl]
    ability = dict(zip(model.player_ids, model.ability))
    th = np.array([ability[p] for p in train1["player"].tolist()])
    X = np.column_stack([np.ones(len(th)), d_tr])
    coef = np.linalg.lstsq(X, th, rcond=None)[0]  # the columns' best linear guess of θ
    u_tr, u_te = X @ coef, np.column_stack([np.ones(len(d_te)), d_te]) @ coef
    slope, cut = np.polyfit(th, u_tr, 1)  # the guess as a measurement: u = cut + slope·θ + e
    s2 = max(float(np.var(u_tr - cut - slope * th)), 1e-6)
    z, _ = gauss_hermite()
    nodes = model.fit_info["population_mean"] + model.ability_sd * z
    return -0.5 * (u_te[:, None] - cut - slope * nodes[None, :]) ** 2 / s2


def _sequential(
    model: Any,
    lvl: NDArray,
    player: NDArray,
    won: NDArray,
    beta: NDArray,
    evidence: NDArray | None = None,
):
    """Predictions given each player's earlier attempts (rows in arrival order); ``evidence``
    adds what each earlier attempt's other columns say (log-likelihood per row and node)."""
    from scipy.special import expit, log_expit, logsumexp

    from labkit.hexpuzzle.difficulty.skill_joint import nodes as gauss_hermite

    z, logw = gauss_hermite()
    theta = model.fit_info["population_mean"] + model.ability_sd * z
    eta = theta[None, :] - beta[lvl][:, None]
    ll = np.where(won[:, None], log_expit(eta), log_expit(-eta))
    if evidence is not None:
        ll = ll + evidence
    order = np.argsort(player, kind="stable")
    ll_s = ll[order]
    before = np.cumsum(ll_s, axis=0) - ll_s
    starts = np.r_[0, np.flatnonzero(np.diff(player[order])) + 1]
    group = np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    prior = before - before[group] + logw[None, :]
    post = np.exp(prior - logsumexp(prior, axis=1)[:, None])
    pred = np.empty(len(lvl))
    pred[order] = (post * expit(eta[order])).sum(axis=1)
    unknown = (np.exp(logw)[None, :] * expit(eta)).sum(axis=1)
    return pred, unknown


def evaluate(
    telemetry: Any,
    levels: Sequence[Any],
    *,
    fit: Any,
    features: Any = True,
    folds: int = 5,
    rng: Any = 0,
) -> SkillReport:
    """K-fold-by-player held-out comparison (see the module docstring).

    ``fit(telemetry, levels, features, extra=None)`` refits the model on each training fold; the
    skill model passes its own fit, so this module never imports the model (no cycle).
    """
    from scipy.special import expit
    from scipy.stats import spearmanr
    from threadpoolctl import threadpool_limits

    from labkit.hexpuzzle.difficulty.fit import calibrate
    from labkit.hexpuzzle.difficulty.observed import CalibrationError

    table = as_table(telemetry)
    for name in ("collisions", "hints", "seconds"):  # optional columns since issue 49
        if name not in (table.dtype.names or ()):
            from labkit.hexpuzzle.difficulty.telemetry import TelemetryError

            raise TelemetryError("the held-out report compares with the hex puzzle's own columns",
                                 pointer=f"column {name!r}")  # fmt: skip
    diffs = [lv if isinstance(lv, (Difficulty, str)) else score(lv) for lv in levels]
    ids = [d if isinstance(d, str) else d.level_id for d in diffs]
    index = {lid: i for i, lid in enumerate(ids)}
    table = table[np.isin(table["level"], ids)]
    players, pidx_all = np.unique(table["player"], return_inverse=True)
    fold_of = make_rng(rng).permutation(len(players)) % int(folds)
    total = np.array([np.nan if isinstance(d, str) or d.total is None else d.total for d in diffs])
    total = np.where(np.isnan(total), np.nanmean(total) if np.isfinite(total).any() else 0, total)
    sizes = np.array([1 if isinstance(d, str) else d.N for d in diffs])
    preds: dict[str, list] = {k: [] for k in MODELS}
    ys, lvls = [], []
    with threadpool_limits(1):
        for k in range(int(folds)):
            test_mask = fold_of[pidx_all] == k
            train, test = table[~test_mask], table[test_mask]
            test = test[test["attempt"] == 1]
            if not len(test):
                continue
            lvl = np.array([index[v] for v in test["level"].tolist()])
            won = test["won"].astype(bool)
            _, tp = np.unique(test["player"], return_inverse=True)
            model = fit(train, diffs, features)
            beta = np.nan_to_num(model.difficulty, nan=float(np.nanmean(model.difficulty)))
            seq, unknown = _sequential(model, lvl, tp, won, beta)
            preds["skill model"].append(seq)
            preds["skill model, player unknown"].append(unknown)
            tr1 = train[train["attempt"] == 1]
            tl = np.array([index[v] for v in tr1["level"].tolist()])
            a, b = _logistic(total[tl], tr1["won"].astype(float))
            preds["structural score"].append(expit(a + b * total[lvl]))
            try:
                cal = calibrate(train, [d for d in diffs if not isinstance(d, str)], n_boot=0)
                cs = np.array([np.nan if s is None else s for s in cal.scores], dtype=float)
                cs = np.where(np.isnan(cs), np.nanmean(cs), cs)
                a, b = _logistic(cs[tl], tr1["won"].astype(float))
                preds["calibrate index"].append(expit(a + b * cs[lvl]))
            except (CalibrationError, ValueError):  # e.g. too few levels for calibrate
                preds["calibrate index"].append(np.full(len(lvl), np.nan))
            if features is not False:  # True, or a feature table (issue 49)
                extra = _level_columns(train, ids, sizes)
                m2 = fit(train, diffs, features, extra=extra)
                b2 = np.nan_to_num(m2.difficulty, nan=float(np.nanmean(m2.difficulty)))
                preds["skill + level columns"].append(_sequential(m2, lvl, tp, won, b2)[0])
            ev = _player_evidence(model, tr1, tl, test, lvl, sizes, len(ids))
            preds["skill + player columns"].append(_sequential(model, lvl, tp, won, beta, ev)[0])
            ys.append(won.astype(float))
            lvls.append(lvl)
    y, lv = np.concatenate(ys), np.concatenate(lvls)
    metrics = {}
    for name, parts in preds.items():
        if not parts:
            continue
        p = np.clip(np.concatenate(parts), 1e-9, 1 - 1e-9)
        if np.isnan(p).all():
            continue
        ok = ~np.isnan(p)
        counts = np.bincount(lv[ok], minlength=len(ids))
        keep = counts >= 5
        mean_p = np.bincount(lv[ok], weights=p[ok], minlength=len(ids))[keep] / counts[keep]
        obs = np.bincount(lv[ok], weights=y[ok], minlength=len(ids))[keep] / counts[keep]
        rho = spearmanr(mean_p, obs)[0] if keep.sum() > 2 else np.nan
        metrics[name] = {
            "log_loss": float(-np.mean(y[ok] * np.log(p[ok]) + (1 - y[ok]) * np.log1p(-p[ok]))),
            "brier": float(np.mean((p[ok] - y[ok]) ** 2)),
            "spearman": float(rho),
        }
    p = np.concatenate(preds["skill model"])
    edges = np.linspace(0, 1, 11)
    which = np.clip(np.digitize(p, edges) - 1, 0, 9)
    n = np.bincount(which, minlength=10)
    nz = n > 0
    bins = np.column_stack(
        [
            np.bincount(which, weights=p, minlength=10)[nz] / n[nz],
            np.bincount(which, weights=y, minlength=10)[nz] / n[nz],
            n[nz],
        ]
    )
    notes = []
    for name in ("skill + level columns", "skill + player columns"):
        if name in metrics:
            gain = metrics["skill model"]["log_loss"] - metrics[name]["log_loss"]
            verdict = "no measurable gain" if gain < 0.002 else "a gain"
            notes.append(f"{name[8:]}: held-out log-loss {-gain:+.4f} ({verdict})")
    return SkillReport(metrics, bins, int(folds), len(y), len(players), notes)
