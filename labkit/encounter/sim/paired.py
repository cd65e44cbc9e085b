"""Paired statistics of two versions played on the same seeds (issue 28).

:func:`paired_table` takes per-seed outcomes of version A and version B (row ``i`` of each is
the same seed: common random numbers) and gives one row per metric: both values with 95 %
intervals, the paired difference B − A with its 95 % interval, a p-value, the variance reduction
the pairing bought and the seeds needed to detect a given change.

* **Intervals** are percentile intervals of a *paired* bootstrap: each resample draws seeds
  with replacement and keeps both versions' games of a drawn seed together. A point estimate
  never sits outside its interval (the interval is widened to hold it in the rare skewed case).
* **p-values**: an exact McNemar test for the yes/no metrics (win, step limit, mutual death):
  only the seeds where A and B disagree carry information, and under "no change" each of them
  goes either way with probability 1/2. Other metrics give a two-sided paired-bootstrap
  p-value (twice the share of resampled differences on the far side of 0). A difference
  whose resampled variance is at most 1e-18 · max(Var A + Var B, 1) is rounding noise: it never
  varies, and then p is 0 for a change and 1 for none (a change within 1e-12 is none).
* **Variance reduction** = (Var(stat A) + Var(stat B)) / Var(stat B − stat A) from the same
  bootstrap: the variance of the difference had A and B been played on independent seeds,
  over its variance with pairing. 2 means pairing halves the seeds needed.
* **Seeds needed** to detect a change of ``d`` at 80 % power (two-sided 5 % test):
  ``n = ((z_0.975 + z_0.8) · σ / d)²`` with σ² = n · Var(paired difference) measured here;
  ``seeds_unpaired`` is the same for independent seeds.

Metrics in designer words (each ``Metric.label`` is :data:`labkit.glossary.GLOSSARY`'s words for
its key, so a number reads the same in every table, app and CLI line; ``frame`` columns of a
sweep, one game per row):

* win rates of each side, **balance** = 1 − the largest gap between the sides' win rates
  (Ludii's definition; with two sides 1 − |NPC win − monster win|: 1 is an even game), the
  share of games ending at the step limit, the share of mutual deaths;
* **game length** in turns: mean, spread (standard deviation) and the 10 %, 50 %, 90 % points;
* the share of NPCs alive at the end and after given turns (points of the survival curve);
* **lead changes** per game: the side *ahead* is the one with the larger share of its actors
  alive; a lead change is the lead passing from one side to the other (through a tie or not),
  read from the turns actors died in (the outcome trace has no finer record);
* **decided at**: in games with a winner, the share of the game (in turns) that had passed when
  the winner took the lead it kept to the end (near 1 = only at the very end; lower is more
  decisive; 1 when the winner was not ahead at the end).

Examples
--------
>>> import numpy as np
>>> a = {"npc_win": np.array([1, 0, 1, 0, 1, 1, 0, 0, 1, 0] * 10)}
>>> b = {"npc_win": np.array([1, 1, 1, 0, 1, 1, 0, 1, 1, 0] * 10)}
>>> t = paired_table(a, b, metrics=["npc_win"], bootstrap=500)
>>> row = t.iloc[0].to_dict()
>>> row["a"], row["b"], round(row["diff"], 2), bool(row["diff_lo"] > 0), row["p_value"] < 0.001
(0.5, 0.7, 0.2, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.glossary import GLOSSARY
from labkit.rng import stream

__all__ = [
    "METRICS",
    "Metric",
    "paired_table",
    "mcnemar_exact",
    "seeds_needed",
    "game_measures",
    "npcs_alive_after",
]

Z_975, Z_80 = 1.959963984540054, 0.8416212335729143


@dataclass(frozen=True)
class Metric:
    """One row of :func:`paired_table`: ``label`` in designer words, ``unit`` (``share``,
    ``turns`` or ``per game``), the per-game columns it needs and how it is computed from
    resampled columns (each ``(resamples, seeds)``).

    Examples
    --------
    >>> METRICS["balance"].label, METRICS["balance"].needs
    ('balance (1 - win-rate gap)', ('npc_win', 'monster_win'))
    """

    key: str
    label: str
    unit: str
    needs: tuple[str, ...]
    binary: bool = False
    quantile: float | None = None
    kind: str = "mean"  # mean, balance, spread, quantile

    def value(self, sample: _Weighted) -> np.ndarray:
        """The metric per resample (one value per row of the sample's weights)."""
        if self.kind == "balance":
            return 1.0 - np.abs(sample.mean("npc_win") - sample.mean("monster_win"))
        if self.kind == "spread":
            return sample.sd(self.needs[0])
        if self.kind == "quantile":
            return sample.quantile(self.needs[0], float(self.quantile or 0))
        return sample.mean(self.needs[0])


class _Weighted:
    """Per-game columns and resampling weights: ``weights[r, i]`` is how often resample ``r``
    drew seed ``i`` (a row of ones is the sample itself). Every statistic is a weighted sum,
    so a thousand resamples cost one matrix product instead of a thousand copies."""

    def __init__(self, cols: Mapping[str, np.ndarray], weights: np.ndarray) -> None:
        self.cols, self.w = cols, weights
        self._cache: dict[Any, np.ndarray] = {}
        names = list(cols)
        x = np.column_stack([cols[c] for c in names]) if names else np.zeros((weights.shape[1], 0))
        ok = ~np.isnan(x)  # decided_at is undefined in games without a winner
        x = np.where(ok, x, 0.0)
        sums = weights @ np.hstack([ok.astype(float), x, x * x])  # one product for all sums
        k = len(names)
        for j, c in enumerate(names):
            for power in range(3):
                self._cache[(c, power)] = sums[:, power * k + j]

    def _sum(self, name: str, power: int = 1) -> np.ndarray:
        return self._cache[(name, power)]

    def mean(self, name: str) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self._sum(name) / self._sum(name, 0)

    def sd(self, name: str) -> np.ndarray:
        n = self._sum(name, 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            var = (self._sum(name, 2) - self._sum(name) ** 2 / n) / (n - 1)
        return np.sqrt(np.maximum(var, 0.0))

    def quantile(self, name: str, q: float) -> np.ndarray:
        """The smallest value that at least a share ``q`` of the (weighted) games reach (the
        inverted-CDF quantile: a game length that was played, in whole turns). A share within
        1e-9 of a game above a whole count reaches that count (rounding: 28 % of 25 games is
        7.000000000000001 games in floating point, and the 7th game reaches it)."""
        key = ("sorted", name)
        if key not in self._cache:  # the running counts in value order, shared by every q
            order = np.argsort(self.cols[name], kind="stable")
            self._cache[key] = np.cumsum(self.w[:, order], axis=1)
            self._cache[("order", name)] = self.cols[name][order]
        cum = self._cache[key]
        at = (cum >= q * cum[:, -1:] - 1e-9).argmax(axis=1)
        return self._cache[("order", name)][at]


def _metrics() -> dict[str, Metric]:
    """The metrics by key, each labelled in the glossary's words for its key (without the
    glossary's unit: the table has its own ``unit`` column)."""

    def metric(key: str, unit: str, needs: tuple[str, ...], **kw: Any) -> Metric:
        return Metric(key, GLOSSARY[key][0], unit, needs, **kw)

    m = [
        metric("npc_win", "share", ("npc_win",), binary=True),
        metric("monster_win", "share", ("monster_win",), binary=True),
        metric("balance", "share", ("npc_win", "monster_win"), kind="balance"),
        metric("step_limit", "share", ("step_limit",), binary=True),
        metric("mutual_death", "share", ("mutual_death",), binary=True),
        metric("length_mean", "turns", ("turns",)),
        metric("length_sd", "turns", ("turns",), kind="spread"),
    ]
    for q in (0.1, 0.5, 0.9):
        m.append(metric(f"length_q{round(q * 100)}", "turns", ("turns",), quantile=q,
                        kind="quantile"))  # fmt: skip
    m += [
        metric("npcs_alive", "share", ("npcs_alive",)),
        metric("lead_changes", "per game", ("lead_changes",)),
        metric("decided_at", "share", ("decided_at",)),
    ]
    return {x.key: x for x in m}


#: The metrics :func:`paired_table` knows, by key (designer label in ``Metric.label``).
METRICS: dict[str, Metric] = _metrics()


def mcnemar_exact(a: Any, b: Any) -> float:
    """Exact two-sided McNemar p-value of paired yes/no outcomes ``a`` and ``b``.

    Examples
    --------
    >>> mcnemar_exact([1, 1, 1, 0], [0, 0, 0, 0])  # 3 discordant, all one way: 2 / 8
    0.25
    >>> mcnemar_exact([1, 0], [1, 0])
    1.0
    """
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    up, down = int((a & ~b).sum()), int((~a & b).sum())
    n = up + down
    if n == 0:
        return 1.0
    # exact in integers: P(X <= min) for X ~ Binomial(n, 1/2), doubled
    tail = sum(math.comb(n, k) for k in range(min(up, down) + 1))
    return float(min(1.0, 2 * tail / 2**n))


def seeds_needed(sd: float, d: float, power: float = 0.8) -> int:
    """Seeds (pairs) for a two-sided 5 % test to detect a change ``d`` with ``power``, when one
    seed's difference has standard deviation ``sd``.

    Examples
    --------
    >>> seeds_needed(0.5, 0.02)   # (1.96 + 0.84)^2 * 0.25 / 0.0004
    4906
    """
    from statistics import NormalDist

    if not d > 0:
        raise ArgumentError("must be > 0", argument="detect", value=d)
    if not 0 < power < 1:
        raise ArgumentError("must be in (0, 1)", argument="power", value=power)
    z = Z_975 + NormalDist().inv_cdf(power)
    return max(2, math.ceil((z * sd / d) ** 2)) if math.isfinite(sd) else -1


def _lead(died: Sequence[tuple[int, bool]], n_npc: int, n_mon: int, winner: str, end: int):
    """Lead changes and the decided-at share of one game from its deaths ``(turn, is_npc)``."""
    alive = [n_npc, n_mon]
    leader, last, changes, since = 0, 0, 0, 0  # +1 NPCs ahead, -1 monsters ahead, 0 tied
    for turn in sorted({t for t, _ in died}):
        for t, npc in died:
            if t == turn:
                alive[0 if npc else 1] -= 1
        gap = alive[0] / n_npc - alive[1] / n_mon
        now = 1 if gap > 0 else -1 if gap < 0 else 0
        if now != 0 and now != leader:  # a lead begins, from a tie or from the other side
            changes += last != 0 and last != now
            since, last = turn, now
        leader = now
    if winner not in ("npc", "monster") or end <= 0:
        return changes, math.nan
    return changes, (since / end if leader == (1 if winner == "npc" else -1) else 1.0)


def game_measures(frame: Any) -> dict[str, np.ndarray]:
    """Per-game columns the metrics need, from a sweep-style frame (one game per row).

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"winner": ["npc", "monster"], "end_reason": ["victory"] * 2,
    ...     "turns": [10, 20], "alive_npc-0": [True, False], "survival_npc-0": [10, 5],
    ...     "alive_monster-0": [False, True], "survival_monster-0": [8, 20]})
    >>> m = game_measures(f)
    >>> m["npc_win"].tolist(), m["npcs_alive"].tolist(), m["decided_at"].tolist()
    ([1.0, 0.0], [1.0, 0.0], [0.8, 0.25])
    """
    from labkit.encounter.status import EndReason

    winner = frame["winner"].to_numpy()
    end = frame["end_reason"].to_numpy()
    turns = frame["turns"].to_numpy().astype(float)
    npcs = [c[6:] for c in frame.columns if c.startswith("alive_npc-")]
    mons = [c[6:] for c in frame.columns if c.startswith("alive_monster-")]
    alive = {a: frame[f"alive_{a}"].to_numpy() for a in npcs + mons}
    when = {a: frame[f"survival_{a}"].to_numpy() for a in npcs + mons}
    n_npc = sum((when[a] >= 0).astype(int) for a in npcs)
    out = {
        "npc_win": (winner == "npc").astype(float),
        "monster_win": (winner == "monster").astype(float),
        "step_limit": (end == EndReason.STEP_LIMIT).astype(float),
        "mutual_death": (end == EndReason.MUTUAL_DEATH).astype(float),
        "turns": turns,
        "npcs_alive": sum(alive[a] & (when[a] >= 0) for a in npcs) / np.maximum(n_npc, 1),
    }
    changes = np.zeros(len(frame))
    decided = np.full(len(frame), math.nan)
    for i in range(len(frame)):
        died = [(int(when[a][i]), a in npcs) for a in npcs + mons
                if when[a][i] >= 0 and not alive[a][i]]  # fmt: skip
        nn = sum(1 for a in npcs if when[a][i] >= 0)
        nm = sum(1 for a in mons if when[a][i] >= 0)
        changes[i], decided[i] = _lead(died, max(nn, 1), max(nm, 1), winner[i], int(turns[i]))
    out["lead_changes"], out["decided_at"] = changes, decided
    return out


def npcs_alive_after(frame: Any, turn: int) -> np.ndarray:
    """Per game, the share of NPCs alive after ``turn`` (a point of the survival curve).

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"alive_npc-0": [False, True], "survival_npc-0": [5, 9],
    ...                   "alive_npc-1": [False, False], "survival_npc-1": [12, 3]})
    >>> npcs_alive_after(f, 6).tolist()
    [0.5, 0.5]
    """
    npcs = [c[6:] for c in frame.columns if c.startswith("alive_npc-")]
    when = [frame[f"survival_{a}"].to_numpy() for a in npcs]
    alive = [frame[f"alive_{a}"].to_numpy() for a in npcs]
    there = sum((w >= 0).astype(int) for w in when)
    up = sum(((w >= 0) & (al | (w > turn))).astype(int) for w, al in zip(when, alive))
    return up / np.maximum(there, 1)


def _interval(x: np.ndarray, point: float) -> tuple[float, float]:
    if np.isnan(x).all():
        return math.nan, math.nan
    lo, hi = np.nanpercentile(x, [2.5, 97.5])
    if math.isnan(point):
        return float(lo), float(hi)
    return float(min(lo, point)), float(max(hi, point))  # a value never leaves its interval


#: Most paired resamples, and resamples x seeds (the draws are held at once: 8 bytes each).
MAX_BOOTSTRAP = 10_000
MAX_DRAWS = 50_000_000


def check_options(bootstrap: Any, detect: Mapping[str, float] | None) -> dict[str, float]:
    """``bootstrap`` 1…:data:`MAX_BOOTSTRAP` and every ``detect`` change a finite number > 0
    (checked before any game is played); the changes with their defaults filled in."""
    from labkit._args import check_int

    check_int(bootstrap, "bootstrap", 1, MAX_BOOTSTRAP)
    full = {"share": 0.02, "turns": 1.0, "per game": 0.05, **(detect or {})}
    for unit, d in full.items():
        ok = isinstance(d, (int, float)) and not isinstance(d, bool) and math.isfinite(d)
        if not (ok and d > 0):
            raise ArgumentError("must be a change > 0", argument=f"detect[{unit!r}]", value=d)
    return full


def paired_table(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    *,
    metrics: Iterable[str | Metric] | None = None,
    bootstrap: int = 1000,
    detect: Mapping[str, float] | None = None,
    rng: int = 0,
) -> Any:
    """One row per metric comparing per-seed columns ``a`` and ``b`` (same seeds, same order).

    Parameters
    ----------
    a, b : mapping of column name -> per-seed array
        As :func:`game_measures` gives (or synthetic outcomes for tests); any numbers, and
        ``None`` (JSON's null) for an undefined value reads as NaN, as a game without a winner
        has no ``decided_at``.
    metrics : keys of :data:`METRICS` or :class:`Metric` objects
        Default: every metric whose columns are present.
    bootstrap : int
        Paired resamples of the seeds (default 1000).
    detect : mapping unit -> change
        The change to detect per unit for ``seeds_needed`` (default 2 points for shares,
        1 turn, 0.05 per game).
    rng : int
        Seed of the bootstrap's stream (default 0: the table is a function of the data).

    Returns
    -------
    pandas.DataFrame
        ``metric``, ``label``, ``unit``, ``a``, ``a_lo``, ``a_hi``, ``b``, ``b_lo``, ``b_hi``,
        ``diff`` (B − A), ``diff_lo``, ``diff_hi``, ``p_value``, ``test``,
        ``variance_reduction``, ``detect``, ``seeds_needed``, ``seeds_unpaired``, ``pairs``.

    Examples
    --------
    B plays 3 turns longer on every seed: the difference is exact, its interval 0 wide.

    >>> a = {"turns": np.arange(40.0)}
    >>> b = {"turns": np.arange(40.0) + 3}
    >>> t = paired_table(a, b, metrics=["length_mean"], bootstrap=100)
    >>> t[["label", "diff", "diff_lo", "diff_hi"]].values.tolist()
    [['game length, mean', 3.0, 3.0, 3.0]]
    """
    import pandas as pd

    detect = check_options(bootstrap, detect)
    chosen: list[Metric] = []
    for m in METRICS.values() if metrics is None else metrics:
        if isinstance(m, str):
            if m not in METRICS:
                raise ArgumentError(f"unknown metric, known: {sorted(METRICS)}",
                                    argument="metrics", value=m)  # fmt: skip
            m = METRICS[m]
        if metrics is not None or all(c in a and c in b for c in m.needs):
            chosen.append(m)
    cols = {c for m in chosen for c in m.needs}
    for c in cols:
        if c not in a or c not in b:
            raise ArgumentError("a metric needs this column in both versions", argument="metrics",
                                value=c)  # fmt: skip
    A = {c: np.asarray(a[c], dtype=float) for c in cols}
    B = {c: np.asarray(b[c], dtype=float) for c in cols}
    n = {x.size for x in [*A.values(), *B.values()]}
    if len(n) != 1 or n == {0}:
        raise ArgumentError("both versions need one value per seed, the same seeds",
                            argument="b", value=sorted(n))  # fmt: skip
    (size,) = n
    # multinomial counts: each resample draws ``size`` seeds with replacement, both versions'
    # games of a drawn seed together (the pairing is kept)
    if bootstrap * size > MAX_DRAWS:
        raise ArgumentError(f"{bootstrap} resamples x {size} seeds is more than {MAX_DRAWS} "
                            "draws", argument="bootstrap", value=bootstrap)  # fmt: skip
    draws = stream(rng, "paired-bootstrap").integers(0, size, (bootstrap, size))
    flat = (draws + np.arange(bootstrap)[:, None] * size).ravel()
    weights = np.bincount(flat, minlength=bootstrap * size).reshape(bootstrap, size).astype(float)
    ones = np.ones((1, size))
    ra, rb, full_a, full_b = (_Weighted(A, weights), _Weighted(B, weights), _Weighted(A, ones),
                              _Weighted(B, ones))  # fmt: skip
    rows = []
    for m in chosen:
        va, vb = float(m.value(full_a)[0]), float(m.value(full_b)[0])
        ba, bb = m.value(ra), m.value(rb)
        d = bb - ba
        var_d = float(np.nanvar(d, ddof=1))
        var_u = float(np.nanvar(ba, ddof=1) + np.nanvar(bb, ddof=1))  # as if on other seeds
        if var_d <= 1e-18 * max(var_u, 1.0):  # rounding noise of a difference that never varies
            var_d = 0.0
        if m.binary:
            p, test = mcnemar_exact(A[m.needs[0]], B[m.needs[0]]), "McNemar exact"
        else:
            far = np.nanmean(d <= 0) if vb - va > 0 else np.nanmean(d >= 0)
            if var_d == 0:  # the difference never varies: none of it (p 1) or certain (p 0)
                far = 0.5 if math.isclose(vb, va, rel_tol=1e-12, abs_tol=1e-12) else 0.0
            p, test = float(min(1.0, 2 * far)), "paired bootstrap"
        dd = detect.get(m.unit, math.nan)
        sd_pair, sd_free = math.sqrt(var_d * size), math.sqrt(var_u * size)
        vr = var_u / var_d if var_d > 0 else (math.inf if var_u > 0 else math.nan)
        rows.append({
            "metric": m.key, "label": m.label, "unit": m.unit,
            "a": va, **dict(zip(("a_lo", "a_hi"), _interval(ba, va))),
            "b": vb, **dict(zip(("b_lo", "b_hi"), _interval(bb, vb))),
            "diff": vb - va, **dict(zip(("diff_lo", "diff_hi"), _interval(d, vb - va))),
            "p_value": p, "test": test, "variance_reduction": vr, "detect": dd,
            "seeds_needed": seeds_needed(sd_pair, dd) if dd > 0 else -1,
            "seeds_unpaired": seeds_needed(sd_free, dd) if dd > 0 else -1,
            "pairs": size,
        })  # fmt: skip
    return pd.DataFrame(rows)
