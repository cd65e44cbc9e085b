"""Held-out evidence for the skill fit's options: ``dropout="ignore"`` vs ``"model"`` (and any
other pair of option sets), k-fold by player.

Each fold's players are held out; both fits are made on the other players, then every held-out
event is predicted from the player's *earlier* events, in campaign order (at a level: its
attempts, then the decision to go on or quit):

* a response (a first try or a retry) by σ(α(θ − β) + λ(k − 1)) averaged over the posterior of
  θ given the earlier events;
* a quit decision by the fit's continuation model averaged the same way — for a fit with
  ``dropout="ignore"``, which has none, by a logistic regression of quitting on the same
  covariates without θ (fitted to the training players: what "missing at random" says).

Under ``"model"`` the posterior also learns from the player's earlier decisions to go on. The
report gives held-out log-loss and Brier score for responses and for quitting, side by side, and
binned calibration for both.

Examples
--------
>>> import numpy as np
>>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
>>> ids = [f"L{i}" for i in range(8)]
>>> theta = np.random.default_rng(0).normal(0, 1.2, 300)
>>> rows = telemetry_from_skill(ids, np.linspace(-1, 2, 8), theta, rng=1, quit_ability=1.0)
>>> rep = compare_fits(rows, ids, features=False, folds=2)
>>> sorted(rep.metrics), sorted(rep.metrics["model"])
(['ignore', 'model'], ['quitting', 'responses'])
>>> print(str(rep).splitlines()[0])
held-out, 2-fold by player: 300 players, ... responses, ... quit decisions
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.telemetry import as_table
from labkit.rng import make_rng

__all__ = ["FitComparison", "compare_fits"]


@dataclass
class FitComparison:
    """Held-out metrics per option set: ``metrics[name][kind]`` with kind ``"responses"`` or
    ``"quitting"``, each ``{"log_loss", "brier", "n"}``; ``bins[name][kind]`` the (k, 3)
    calibration table (mean predicted, observed rate, count).

    Examples
    --------
    >>> c = FitComparison({"a": {"responses": {"log_loss": 0.6, "brier": 0.2, "n": 10}}},
    ...                   {"a": {}}, 2, 5, 10, 0)
    >>> c.best("responses")
    'a'
    """

    metrics: dict[str, dict[str, dict[str, float]]]
    bins: dict[str, dict[str, NDArray]]
    folds: int
    n_players: int
    n_responses: int
    n_decisions: int

    def best(self, kind: str = "responses") -> str:
        """The option set with the lowest held-out log-loss for ``kind``."""
        return min(self.metrics, key=lambda k: self.metrics[k].get(kind, {}).get("log_loss", 9e9))

    def __str__(self) -> str:
        lines = [
            f"held-out, {self.folds}-fold by player: {self.n_players} players, "
            f"{self.n_responses} responses, {self.n_decisions} quit decisions",
            f"{'fit':<20}{'responses log-loss':>20}{'Brier':>8}"
            f"{'quitting log-loss':>19}{'Brier':>8}",
        ]
        for name, m in self.metrics.items():
            r, q = m["responses"], m.get("quitting", {})
            ql = f"{q['log_loss']:>19.4f}{q['brier']:>8.4f}" if q else f"{'-':>19}{'-':>8}"
            lines.append(f"{name:<20}{r['log_loss']:>20.4f}{r['brier']:>8.4f}{ql}")
        return "\n".join(lines)

    def figure(self) -> Any:
        """Calibration plots: responses and quitting, every option set."""
        import matplotlib.pyplot as plt

        with plt.ioff():
            fig, axes = plt.subplots(1, 2, figsize=(8, 4))
        for ax, kind in zip(axes, ("responses", "quitting")):
            top = 1.0
            for name, b in self.bins.items():
                if kind in b and len(b[kind]):
                    t = b[kind]
                    ax.plot(t[:, 0], t[:, 1], "o-", ms=4, label=name)
                    top = max(top if kind == "responses" else 0.0, float(t[:, :2].max()) * 1.1)
            ax.plot([0, top], [0, top], color="0.7", lw=1)
            ax.set(title=kind, xlabel="predicted (held out)", ylabel="observed", xlim=(0, top),
                   ylim=(0, top))  # fmt: skip
            ax.legend(fontsize=8)
        return fig


#: Most folds of a held-out comparison: each fold is a whole fit per option.
MAX_FOLDS = 20


def compare_fits(
    telemetry: Any,
    levels: Sequence[Any],
    *,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    features: bool = True,
    folds: int = 5,
    rng: Any = 0,
) -> FitComparison:
    """K-fold-by-player comparison of fits (default: ``dropout="ignore"`` vs ``"model"``).

    Examples
    --------
    >>> import numpy as np
    >>> from labkit.hexpuzzle.difficulty.skill_sim import telemetry_from_skill
    >>> theta = np.random.default_rng(2).normal(0, 1, 200)
    >>> rows = telemetry_from_skill(["a", "b", "c"], [0.0, 0.5, 1.0], theta, rng=3)
    >>> rep = compare_fits(rows, ["a", "b", "c"], features=False, folds=2,
    ...                    options={"first tries": {"retries": False}})
    >>> list(rep.metrics)
    ['first tries']
    """
    from threadpoolctl import threadpool_limits

    from labkit._args import check_int
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model

    folds = check_int(folds, "folds", 2, MAX_FOLDS)  # 0 or 1 fold holds nothing out
    options = options or {"ignore": {"dropout": "ignore"}, "model": {"dropout": "model"}}
    if not isinstance(options, Mapping) or not all(
        isinstance(k, str) and isinstance(v, Mapping) for k, v in options.items()
    ):
        raise ArgumentError("must map names to fit options", argument="options", value=options)
    table = as_table(telemetry)
    ids = [lv if isinstance(lv, str) else getattr(lv, "level_id", None) or lv.id for lv in levels]
    index = {lid: i for i, lid in enumerate(ids)}
    table = table[np.isin(table["level"], ids)]
    players, pidx = np.unique(table["player"], return_inverse=True)
    if folds > len(players):  # a fold without players: nothing held out there
        raise ArgumentError(f"must be at most the {len(players)} players of these levels",
                            argument="folds", value=folds)  # fmt: skip
    fold_of = make_rng(rng).permutation(len(players)) % int(folds)
    preds: dict[str, dict[str, list]] = {k: {"responses": [], "quitting": []} for k in options}
    ys: dict[str, list] = {"responses": [], "quitting": []}
    with threadpool_limits(1):
        for k in range(int(folds)):
            test_mask = fold_of[pidx.ravel()] == k
            train, test = table[~test_mask], table[test_mask]
            if not len(test):
                continue
            seq = _sequence(test, index)
            ys["responses"].append(seq["y"][seq["kind"] == 0])
            ys["quitting"].append(seq["y"][seq["kind"] == 1])
            mar = _mar_quit(_sequence(train, index))
            for name, opts in options.items():
                model = fit_skill_model(train, levels, features=features, **opts)
                p = _predict(model, seq, mar)
                preds[name]["responses"].append(p[seq["kind"] == 0])
                preds[name]["quitting"].append(p[seq["kind"] == 1])
    y = {kind: np.concatenate(v) if v else np.zeros(0) for kind, v in ys.items()}
    metrics: dict[str, dict[str, dict[str, float]]] = {}
    bins: dict[str, dict[str, NDArray]] = {}
    for name in options:
        metrics[name], bins[name] = {}, {}
        for kind in ("responses", "quitting"):
            if not len(y[kind]):
                continue
            p = np.clip(np.concatenate(preds[name][kind]), 1e-9, 1 - 1e-9)
            t = y[kind]
            metrics[name][kind] = {
                "log_loss": float(-np.mean(t * np.log(p) + (1 - t) * np.log1p(-p))),
                "brier": float(np.mean((p - t) ** 2)),
                "n": int(len(t)),
            }
            bins[name][kind] = _bins(p, t)
    return FitComparison(
        metrics, bins, int(folds), len(players), len(y["responses"]), len(y["quitting"])
    )


def _bins(p: NDArray, y: NDArray, k: int = 10) -> NDArray:
    edges = np.quantile(p, np.linspace(0, 1, k + 1))
    which = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, k - 1)
    n = np.bincount(which, minlength=k)
    nz = n > 0
    return np.column_stack(
        [
            np.bincount(which, weights=p, minlength=k)[nz] / n[nz],
            np.bincount(which, weights=y, minlength=k)[nz] / n[nz],
            n[nz],
        ]
    )


def _sequence(table: NDArray, index: Mapping[str, int]) -> dict[str, NDArray]:
    """Every player's events in campaign order: responses (kind 0), then the decision after
    the level (kind 1). Columns: player, kind, level, attempt, y, and the decision's covariates
    won/run/attempt/position."""
    from labkit.hexpuzzle.difficulty.skill_joint import decisions

    level = np.array([index[v] for v in table["level"].tolist()], dtype=np.int64)
    _, player = np.unique(table["player"], return_inverse=True)
    player = player.ravel()
    attempt, won = table["attempt"].astype(np.int64), table["won"].astype(bool)
    order = np.lexsort((attempt, level, player))
    level, player, attempt, won = level[order], player[order], attempt[order], won[order]
    d = decisions(level, player, attempt, won, int(player.max()) + 1)
    nr, nd = len(level), len(d["quit"])
    ev = {
        "player": np.r_[player, d["player"]],
        "kind": np.r_[np.zeros(nr, np.int64), np.ones(nd, np.int64)],
        "level": np.r_[level, d["level"]],
        "attempt": np.r_[attempt, d["attempt"]],
        "y": np.r_[won.astype(float), d["quit"].astype(float)],
        "won": np.r_[np.zeros(nr, bool), d["won"]],
        "run": np.r_[np.zeros(nr, np.int64), d["run"]],
        "position": np.r_[np.zeros(nr, np.int64), d["position"]],
    }
    # decisions come after the level's attempts: sort on (player, level, kind, attempt)
    o = np.lexsort((ev["attempt"], ev["kind"], ev["level"], ev["player"]))
    return {k: v[o] for k, v in ev.items()}


def _mar_quit(train: dict[str, NDArray]) -> NDArray:
    """Logistic regression of quitting on the covariates without ability (a whisker of ridge)."""
    from scipy.special import expit

    from labkit.hexpuzzle.difficulty.skill_quit import design

    dec = train["kind"] == 1
    X = design(train["won"][dec], train["run"][dec], train["attempt"][dec], train["position"][dec])
    y = train["y"][dec]
    w = np.zeros(X.shape[1])
    if not len(y):
        return w
    for _ in range(50):
        p = expit(X @ w)
        step = np.linalg.solve(
            (X * (p * (1 - p))[:, None]).T @ X + np.eye(len(w)) / 9.0, X.T @ (y - p) - w / 9.0
        )
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _predict(model: Any, seq: dict[str, NDArray], mar: NDArray) -> NDArray:
    """Each event's predicted probability given the player's earlier events."""
    from scipy.special import expit, log_expit, logsumexp

    from labkit.hexpuzzle.difficulty.skill_joint import nodes
    from labkit.hexpuzzle.difficulty.skill_quit import ATTEMPT_CAP, design

    z, logw = nodes()
    theta = model.fit_info["population_mean"] + model.ability_sd * z
    beta = np.nan_to_num(model.difficulty, nan=float(np.nanmean(model.difficulty)))
    alpha = model.discrimination if model.discrimination is not None else np.ones(len(beta))
    resp = seq["kind"] == 0
    lv = seq["level"]
    eta = np.empty((len(lv), len(z)))
    extra = np.minimum(seq["attempt"], ATTEMPT_CAP) - 1
    eta[resp] = (
        alpha[lv[resp], None] * (theta[None, :] - beta[lv[resp], None])
        + model.learning * extra[resp, None]
    )
    dec = ~resp
    x = design(seq["won"][dec], seq["run"][dec], seq["attempt"][dec], seq["position"][dec])
    q = model.quit_model
    if q is not None:
        c = q.vector
        eta[dec] = (x @ np.r_[c[0], c[2:]])[:, None] + c[1] * theta[None, :]
    else:
        eta[dec] = (x @ mar)[:, None]
    y = seq["y"]
    ll = np.where(y[:, None] > 0.5, log_expit(eta), log_expit(-eta))
    if q is None:
        ll[dec] = 0.0  # an ignorable fit learns nothing about θ from decisions
    before = np.cumsum(ll, axis=0) - ll
    starts = np.r_[0, np.flatnonzero(np.diff(seq["player"])) + 1]
    group = np.repeat(starts, np.diff(np.r_[starts, len(y)]))
    prior = before - before[group] + logw[None, :]
    post = np.exp(prior - logsumexp(prior, axis=1)[:, None])
    return (post * expit(eta)).sum(axis=1)
