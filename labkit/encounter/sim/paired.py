"""Paired statistics of two versions played on the same seeds (issue 28).

:func:`paired_table` takes per-seed outcomes of version A and version B (row ``i`` of each is
the same seed: common random numbers) and gives one row per metric: both values with 95 %
intervals, the paired difference B − A with its 95 % interval, a p-value, the variance reduction
the pairing bought and the seeds needed to detect a given change.

* **Intervals** (95 %) are chosen per kind of metric and checked by simulation from a known
  truth at 30 and 100 seeds (issue 45; ``tests/encounter/sim/test_paired_calibration.py``,
  ``benchmarks/bench_calibration_compare.py``, docs/rules/research.md W10):

  - a yes/no **rate** of one version: Wilson's score interval, with Brown, Cai and
    DasGupta's Poisson end for 1-2 yes or no (1-3 above 50 games) (:func:`rate_interval`).
    Chosen by exact coverage over rates 0.02-0.98: mean 95.2 % (min 93.0 %) at 30 games and
    95.0 % (93.3 %) at 100; Agresti-Coull 96.0 % / 95.4 %, Jeffreys 95.0 % / 94.9 % but down
    to 88.9 %, the continuity-corrected Wilson 97.4 % / 96.5 % (too wide);
  - the **change of a rate**: Tango's (1998) score interval for paired rates
    (:func:`tango_interval`); it reaches 0 whenever the mid-p McNemar p
    (:func:`mcnemar_midp`, the ``p_value`` of these rows, ``test`` "McNemar mid-p") is 5 % or
    more, so the interval and the p-value always agree on "changed at the 5 % level" (the
    other way round never happens: every split of up to 300 seeds, and of 500-3,000 seeds
    near the 5 % line, was checked: mid-p < 5 % implies Tango's interval misses 0). Chosen
    by exact coverage over 144 truths (rates 0.02-0.98, seeds ending differently 2-50 %): at
    30 and 100 seeds Tango's mean coverage is 96.5 % and 95.2 % (min 93.0 %, 93.6 %),
    Newcombe's hybrid score (his method 10) 96.3 % / 95.7 % but 90.8 % at the monster-life
    change, Bonett-Price 97.3 % / 96.1 %, the mid-p inversion for the share going up combined
    with the discordant share (MOVER) 96.9 % / 96.1 % but 91.1 % at the synthetic truth. The
    agreement rule widens Tango's interval to 0 in 3.2 % of 30-seed tables with the mid-p
    (8.4 % with the exact test; mean over the truths), and keeps A against A with other luck
    at 4.6 % (30 seeds) and 4.9 % (100) rejections of a 5 % test; the exact McNemar, which
    counts all of the split seen as "as extreme", rejected 2.7 % and 3.7 % (its intervals
    would then be wider than 95 % on the whole). :func:`mcnemar_exact` stays for whoever
    wants the stricter test. No seed that ended differently gives **no interval** (NaN) and a
    ``note`` with the seeds needed (the rule of three: up to 3 of n seeds may still differ);
  - **means** by what their per-game values are (measured on the monster-life change, 1,500
    blocks of 30 seeds and 800 of 100): game length, long-tailed and skewed, by the
    studentized (bootstrap-t) paired bootstrap; a share of NPCs (NPCs alive, survival
    points: values in 0-1 with few levels, most seeds changing by nothing) by BCa, because a
    resample holding only a few seeds that changed has a tiny standard error and the
    bootstrap-t's ratio then ran off (its change held the truth in 98.3-99.2 % of 30-seed
    blocks, BCa's in 94.1-97.6 %); lead changes (a few seeds change by ±1 either way, no
    skew to correct) by Student's t, ``test`` "paired t" (the bootstrap-t's lumpy ratios
    held the truth in 91.2 % at 30 seeds, t in 95.6 %); a mean over the games that have a
    value (decided at), **spreads** and **quantiles**: BCa (bias-corrected and accelerated,
    the acceleration from the jackknife) at Hesterberg's expanded level
    sqrt(n / (n − 1)) · t(n − 1);
  - **balance** = 1 − |gap|: the gap's (NPC win − monster win) bootstrap-t interval, folded;
    its change only while each version's leading side is settled (the gap's interval misses
    0): near an even game the fold makes any interval of the change untrustworthy, so the row
    says so and how many seeds would settle it;
  - a spread or a quantile's tail needs more seeds than a mean to be trusted (measured on the
    monster-life change: a change of spread held the truth in 71 % of 30-seed blocks and
    93.5 % at 1,000 seeds): below :func:`fewest_seeds` the row has no interval and says how
    many seeds it needs. Every row has none below :data:`MIN_SEEDS` seeds, or when its change
    came out the same in every resample (nothing to measure its spread from).

  A value never sits outside its interval (the interval is widened to hold it); shares stay
  in 0…1 and their changes in −1…1.
* **p-values**: the mid-p McNemar test for the yes/no metrics: only the seeds where A and B
  disagree carry information, and under "no change" each of them goes either way with
  probability 1/2. Lead changes: the paired t-test. Other metrics: the level at which their
  own interval's end reaches 0 (the bootstrap-t or BCa map run backwards), so p < 0.05
  exactly when the interval misses 0 (at the boundary, where a few resamples' rounding could
  part them, the interval reaches 0 or p is 0.05). A difference whose resampled variance is
  at most 1e-18 · max(Var A + Var B, 1) is rounding noise: it never varies, and then p is 0
  for a change and 1 for none (a change within 1e-12 is none); a row without an interval for
  too few seeds has no p (NaN).
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
from labkit.encounter.rules.combat import wilson_interval
from labkit.glossary import GLOSSARY
from labkit.rng import stream

__all__ = [
    "METRICS",
    "Metric",
    "paired_table",
    "mcnemar_exact",
    "mcnemar_midp",
    "seeds_needed",
    "game_measures",
    "npcs_alive_after",
    "rate_interval",
    "tango_interval",
    "rate_change",
    "fewest_seeds",
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


def mcnemar_midp(a: Any, b: Any) -> float:
    """Mid-p two-sided McNemar p-value of paired yes/no outcomes ``a`` and ``b``: the exact
    test's p less the probability of the split seen (Lancaster's mid-p). The exact test counts
    all of that split as "at least as extreme" and so rejects less often than it says (A
    against A with other luck at 30 seeds: 2.7 % for a 5 % test); the mid-p rejects close to
    the 5 % it says (4.6 %), and the paired rows' intervals agree with it (module notes).

    Examples
    --------
    >>> mcnemar_midp([1, 1, 1, 0], [0, 0, 0, 0])  # 3 discordant, all one way: (2 - 1) / 8
    0.125
    >>> mcnemar_midp([1, 0], [1, 0])
    1.0
    """
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    up, down = int((a & ~b).sum()), int((~a & b).sum())
    n = up + down
    if n == 0:
        return 1.0
    # exact in integers: 2 P(X < min) + P(X = min) for X ~ Binomial(n, 1/2)
    k = min(up, down)
    tail = 2 * sum(math.comb(n, j) for j in range(k)) + math.comb(n, k)
    return float(min(1.0, tail / 2**n))


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


def _holding(lo: float, hi: float, point: float) -> tuple[float, float]:
    """``(lo, hi)`` widened to hold ``point`` (a value never sits outside its interval)."""
    if math.isnan(point) or math.isnan(lo):
        return float(lo), float(hi)
    return float(min(lo, point)), float(max(hi, point))


def rate_interval(k: int, n: int, z: float = Z_975) -> tuple[float, float]:
    """The interval of a rate, ``k`` yes out of ``n`` (95 % by default): Wilson's score interval
    (:func:`labkit.encounter.wilson_interval`, the one formula every rate in labkit uses) with
    Brown, Cai and DasGupta's (2001) repair near 0 and 1: with 1 or 2 yes (1 to 3 above 50
    games) the end near 0 is the Poisson one, λ/n with P(Poisson(λ) ≥ k) = 5 % (plain Wilson's
    end stands above a rate of a few in a thousand that a single yes in 30 games is quite likely
    from); the same for no near 1.

    Examples
    --------
    >>> [round(x, 4) for x in rate_interval(0, 30)]  # no yes in 30: up to 11 %, not 0
    [0.0, 0.1135]
    >>> [round(x, 4) for x in rate_interval(15, 30)]
    [0.3315, 0.6685]
    >>> round(rate_interval(1, 30)[0], 5)  # the Poisson end: 0.0513 / 30
    0.00171
    """
    if n <= 0:
        return math.nan, math.nan
    w_lo, w_hi = wilson_interval(k, n, z)
    lo, hi = float(w_lo), float(w_hi)
    few = 2 if n <= 50 else 3
    if abs(z - Z_975) < 1e-12 and 1 <= k <= few:
        lo = _POISSON_5[k] / n
    if abs(z - Z_975) < 1e-12 and 1 <= n - k <= few:
        hi = 1 - _POISSON_5[n - k] / n
    return lo, hi


#: λ with P(Poisson(λ) ≥ k) = 5 %, k = 1, 2, 3 (Brown, Cai and DasGupta 2001, table).
_POISSON_5 = {1: 0.051293294, 2: 0.355361510, 3: 0.817691447}


def _tango_score(up: int, down: int, n: int, d: float) -> float:
    """Tango's score statistic of a change ``d`` of a paired rate (decreasing in ``d``)."""
    # the restricted maximum-likelihood share of seeds going down, given the change is d
    qa, qb, qc = 2.0 * n, -up - down + (2.0 * n - up + down) * d, -down * d * (1.0 - d)
    q = (-qb + math.sqrt(max(qb * qb - 4 * qa * qc, 0.0))) / (2 * qa)
    var, num = n * (2 * q + d * (1 - d)), up - down - n * d
    if var <= 0:  # only at a change of -1 or +1
        return math.copysign(math.inf, num) if num else 0.0
    return num / math.sqrt(var)


def tango_interval(up: int, down: int, n: int, z: float = Z_975) -> tuple[float, float]:
    """Tango's (1998) score interval of the change B − A of a paired rate: ``up`` seeds where
    only B said yes, ``down`` where only A did, ``n`` seeds in all (95 % by default).

    Examples
    --------
    >>> [round(x, 4) for x in tango_interval(4, 0, 40)]  # 4 seeds up, none down
    [0.0036, 0.2305]
    """

    def root(target: float) -> float:
        lo, hi = -1.0, 1.0
        while hi - lo > 1e-12:
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if _tango_score(up, down, n, mid) > target else (lo, mid)
        return round(0.5 * (lo + hi), 11)  # (±1 exactly, not a hair inside)

    return root(z), root(-z)


def _levels(n: int) -> float:
    """The normal point the interval's ends stand at: Hesterberg's expanded percentile,
    sqrt(n / (n − 1)) · t(n − 1) instead of 1.96 (a bootstrap of n seeds sees a spread
    narrower by that factor; at 30 seeds 2.08, at 100 seeds 1.99)."""
    from scipy.special import stdtrit

    return math.sqrt(n / (n - 1)) * float(stdtrit(n - 1, 0.975)) if n > 1 else math.inf


def _bca(boot: np.ndarray, point: float, jack: np.ndarray, n: int) -> tuple[float, float, float]:
    """The bias-corrected and accelerated (BCa) interval of ``point`` from its resamples
    ``boot`` and its jackknife values ``jack``, at the expanded 95 % level; and the two-sided
    p-value of 0 under the same map (the level at which the interval's end reaches 0)."""
    from scipy.special import ndtr, ndtri, stdtr

    ok = boot[~np.isnan(boot)]
    if ok.size == 0 or math.isnan(point):
        return math.nan, math.nan, math.nan
    tol = 1e-12 * max(1.0, abs(point))

    def share_below(x: float) -> float:
        s = (np.sum(ok < x - tol) + 0.5 * np.sum(np.abs(ok - x) <= tol)) / ok.size
        return float(np.clip(s, 0.5 / ok.size, 1 - 0.5 / ok.size))

    z0 = float(ndtri(share_below(point)))  # the bias: how far the resamples sit off the value
    j = jack[~np.isnan(jack)]
    u = j.mean() - j if j.size else np.zeros(1)
    ss = float(np.sum(u * u))
    acc = float(np.sum(u**3) / (6 * ss**1.5)) if ss > 0 else 0.0  # the skew of the influence
    zl = _levels(n)
    ends = []
    for z in (-zl, zl):
        den = 1 - acc * (z0 + z)
        ends.append(float(ndtr(z0 + (z0 + z) / den)) if den > 0 else float(z > 0))
    lo, hi = np.percentile(ok, [100 * ends[0], 100 * ends[1]])
    # p: the BCa map run backwards from where 0 sits among the resamples
    w = float(ndtri(share_below(0.0))) - z0
    den = 1 + acc * w
    za = w / den - z0 if den > 0 else math.copysign(math.inf, -w)
    s = math.sqrt(n / (n - 1)) if n > 1 else math.inf
    p = float(min(1.0, 2 * stdtr(n - 1, -abs(za) / s))) if n > 1 else 1.0
    return float(lo), float(hi), p


#: Fewest seeds any bootstrap row draws an interval from (fewer: the row says so instead).
MIN_SEEDS = 10
#: Fewest seeds for a spread's interval: one version's, and a change's. Measured on the monster
#: life 5 -> 4 change (benchmarks/bench_calibration_compare.py): a change of spread rests on
#: the few seeds whose games moved far, and held the truth in 71 % of 30-seed blocks, 83 % at
#: 100, 88 % at 300 and 93.5 % at 1,000 seeds; one version's spread 82 %, 91.5 %, 94.5 %.
SPREAD_SEEDS = (300, 1000)
#: Games beyond a quantile (on its thinner side) its interval needs: one version's, a change's.
#: Whole-turn game lengths make a tail point's interval miss (the 90 % point's change held the
#: truth in 83 % of 30-seed blocks, 92 % at 100 and 96.5 % at 300 seeds).
QUANTILE_GAMES = (5, 15)


def fewest_seeds(m: Metric) -> tuple[int, int]:
    """Fewest seeds for an interval of one version's value and of the change of metric ``m``.

    Examples
    --------
    >>> fewest_seeds(METRICS["length_q90"]), fewest_seeds(METRICS["length_sd"])
    ((50, 150), (300, 1000))
    """
    if m.kind == "spread":
        return SPREAD_SEEDS
    thin = min(m.quantile or 0.0, 1 - (m.quantile or 0.0))
    if m.kind == "quantile" and thin > 0:
        return tuple(max(MIN_SEEDS, math.ceil(k / thin - 1e-9)) for k in QUANTILE_GAMES)  # type: ignore[return-value]
    return MIN_SEEDS, MIN_SEEDS


#: Most jackknife values the acceleration is read from (more seeds: left out in groups).
MAX_JACKKNIFE = 400


def _jackknife_weights(size: int) -> np.ndarray:
    """Leave-one-out weights (a row per seed left out), or leave-a-group-out for many seeds."""
    groups = min(size, MAX_JACKKNIFE)
    which = np.arange(size) * groups // size
    return (which[None, :] != np.arange(groups)[:, None]).astype(float)


def _points(d: float) -> str:
    return f"{d * 100:g} points"


def rate_change(a: Any, b: Any, detect: float = 0.02) -> tuple[float, float, float, str, int]:
    """The 95 % interval of the change B − A of a paired yes/no rate (``a[i]`` and ``b[i]`` the
    same seed's outcomes): Tango's score interval, reaching 0 whenever the mid-p McNemar p is
    5 % or more (module notes); and that p. When no seed ended differently there is no
    interval: NaN ends, a ``note`` saying so and the seeds needed to tell a change of
    ``detect`` (the rule of three); else the note is empty and the seeds needed -1 (the
    caller's own estimate stands). Returns ``(lo, hi, p, note, seeds_needed)``.

    Examples
    --------
    >>> lo, hi, p, note, _ = rate_change([0] * 40, [1] * 5 + [0] * 35)  # 5 seeds up, none down
    >>> round(lo, 4), round(hi, 4), round(p, 4), note
    (0.0264, 0.2611, 0.0312, '')
    >>> print(rate_change([1, 0] * 10, [1, 0] * 10)[3])  # doctest: +NORMALIZE_WHITESPACE
    A and B ended alike on all 20 seeds: that cannot show how large a change is (no
    interval); play about 2944 seeds to tell a change of 2 points
    """
    x, y = np.asarray(a) != 0, np.asarray(b) != 0
    n = x.size
    up, down = int((~x & y).sum()), int((x & ~y).sum())
    p = mcnemar_midp(x, y)
    if up + down == 0:
        # no seed ended differently: the change could be anything up to about 3 seeds in n
        # (the rule of three), so size the run for that much disagreement
        need = seeds_needed(math.sqrt(3 / n), detect) if detect > 0 else -1
        more = f"about {need} seeds to tell a change of {_points(detect)}" if need > 0 else (
            "more seeds")  # fmt: skip
        note = (f"A and B ended alike on all {n} seeds: that cannot show how large a change "
                f"is (no interval); play {more}")  # fmt: skip
        return math.nan, math.nan, p, note, need
    lo, hi = tango_interval(up, down, n)
    if p >= 0.05:  # the mid-p test finds no change: the interval holds 0 (the other way round
        lo, hi = min(lo, 0.0), max(hi, 0.0)  # never happens, see the module notes)
    return (*_holding(lo, hi, (up - down) / n), p, "", -1)


def _rate_rows(x: np.ndarray, y: np.ndarray, diff: float, detect: float, need: int):
    """Wilson intervals of both rates, Tango's of the change (:func:`rate_change`), the
    p-value, the note and the seeds needed."""
    n = x.size
    ends = [rate_interval(int(x.sum()), n), rate_interval(int(y.sum()), n)]
    ends = [_holding(*e, v) for e, v in zip(ends, (x.mean(), y.mean()))]
    lo, hi, p, note, more = rate_change(x, y, detect)
    return [*ends, _holding(lo, hi, diff)], p, note, (more if note else need)


def _student(x: np.ndarray, weights: np.ndarray) -> tuple[float, float, float]:
    """The studentized (bootstrap-t) interval of the mean of per-seed values ``x`` and the
    two-sided p-value of 0 under it: each resample's mean, less the sample's, over the
    resample's own standard error, stands for the sample's distance from the truth."""
    n = x.size
    m, se = float(x.mean()), float(x.std(ddof=1)) / math.sqrt(n)
    tol = 1e-12 * max(1.0, abs(m))
    ms = weights @ x / n
    var = np.maximum((weights @ (x * x) - n * ms * ms) / (n - 1), 0.0)
    ses = np.sqrt(var / n)
    gap = ms - m
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(ses > tol, gap / ses, np.where(np.abs(gap) <= tol, 0.0, np.sign(gap) * np.inf))
    # the order statistics themselves: a resample whose seeds all agree has t = ±inf
    q_lo, q_hi = np.quantile(t, [0.025, 0.975], method="inverted_cdf")
    lo, hi = m - q_hi * se, m - q_lo * se
    t0 = m / se if se > tol else math.copysign(math.inf, m) if abs(m) > tol else 0.0
    p = min(1.0, 2 * min(float(np.mean(t >= t0)), float(np.mean(t <= t0))))
    return float(lo), float(hi), p


def _t_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Student's t interval of the mean of per-seed values ``x`` (n − 1 degrees of freedom) and
    the two-sided p-value of 0 under it (the paired t-test)."""
    from scipy.special import stdtr, stdtrit

    n = x.size
    m, se = float(x.mean()), float(x.std(ddof=1)) / math.sqrt(n)
    q = float(stdtrit(n - 1, 0.975))
    tol = 1e-12 * max(1.0, abs(m))
    if se <= tol:  # every seed alike: no spread (the callers give no interval then)
        return m, m, (1.0 if abs(m) <= tol else 0.0)
    return m - q * se, m + q * se, float(min(1.0, 2 * stdtr(n - 1, -abs(m) / se)))


def _mean_method(m: Metric, A: Mapping[str, np.ndarray], B: Mapping[str, np.ndarray]) -> str:
    """The interval of a mean, by what its per-game values are (measured, module notes):
    ``"bca"`` for a share of NPCs (values in 0…1 with few distinct levels: a resample holding
    only a few seeds that changed has a tiny standard error, and the bootstrap-t's ratio then
    runs off to make the interval far too wide) and for a mean over only the games that have a
    value; ``"t"`` for counts per game (lead changes: a few seeds change by ±1, about as often
    up as down, with no skew for the bootstrap-t to correct, and its lumpy ratios made it too
    narrow); ``"student"`` (the bootstrap-t) for the rest (game length: long-tailed and
    skewed, where only the bootstrap-t held its promise)."""
    col = m.needs[0]
    if m.kind != "mean" or np.isnan(A[col]).any() or np.isnan(B[col]).any():
        return "bca"
    return {"share": "bca", "per game": "t"}.get(m.unit, "student")


def _agree(lo: float, hi: float, p: float) -> tuple[float, float, float]:
    """The interval and the p-value say the same about "changed at the 5 % level" (they can
    part only by the rounding of a few resamples): the interval reaches 0 when p is 5 % or
    more, and p is 5 % when the interval holds 0."""
    if p >= 0.05:
        return min(lo, 0.0), max(hi, 0.0), p
    return lo, hi, (0.05 if lo <= 0 <= hi else p)


def _bootstrap_rows(m: Metric, A: dict, B: dict, boots, jacks, weights, var_d: float,
                    need: int):  # fmt: skip
    """Intervals of both values and of the change, the p-value, note and seeds needed, for a
    metric that is not a yes/no rate: bootstrap-t for means, through the win-rate gap for the
    balance, BCa for the rest."""
    size = weights.shape[1]
    (ba, bb), (ja, jb) = boots, jacks
    full = np.ones((1, size))
    va, vb = float(m.value(_Weighted(A, full))[0]), float(m.value(_Weighted(B, full))[0])
    diff, nan2 = vb - va, (math.nan, math.nan)
    one, change = fewest_seeds(m)
    if size < change:
        note = (
            f"{size} seeds are too few for a trustworthy interval of this change: it "
            f"needs at least {change} seeds (fewer missed the truth too often, see W10)"
        )
        need = max(need, change) if need > 0 else need
        if size < one:
            return [nan2] * 3, math.nan, note, need
    col = m.needs[0]
    if m.kind == "balance":
        return _balance_rows(A, B, weights, var_d, need)
    how = _mean_method(m, A, B)

    def interval(x: np.ndarray, boot: np.ndarray, v: float, jack: np.ndarray):
        if how == "t":
            return _t_interval(x)
        return _student(x, weights) if how == "student" else _bca(boot, v, jack, size)

    ends = []
    for v, x, boot, jack in zip((va, vb), (A[col], B[col]), boots, jacks):
        lo, hi, _ = interval(x, boot, v, jack)
        ends.append(_holding(lo, hi, v) if np.sum(~np.isnan(x)) >= MIN_SEEDS else nan2)
    if size < change:
        return [*ends, nan2], math.nan, note, need
    have = min(int(np.sum(~np.isnan(A[col]))), int(np.sum(~np.isnan(B[col]))))
    if have < MIN_SEEDS:  # a mean over the games that have a value (a winner, for decided at)
        note = (f"too few games with a value here ({have} in one version): an interval needs "
                f"at least {MIN_SEEDS}; play more seeds")  # fmt: skip
        return [*ends, nan2], math.nan, note, need
    if var_d == 0:  # the difference never varies: none of it (p 1) or certain (p 0)
        p = 1.0 if math.isclose(vb, va, rel_tol=1e-12, abs_tol=1e-12) else 0.0
        note = (
            f"the change came out {diff:+.3g} however the {size} seeds were redrawn: no "
            f"spread to draw an interval from; play more seeds (at least {2 * size})"
        )
        return [*ends, nan2], p, note, -1
    lo, hi, p = interval(B[col] - A[col], bb - ba, diff, jb - ja)
    lo, hi, p = _agree(*_holding(lo, hi, diff), p)
    return [*ends, (lo, hi)], p, "", need


def _leader_settled(g: np.ndarray) -> bool:
    """Whether a version's leading side is settled: the interval of the NPC share of the
    decided games (:func:`rate_interval`, Wilson's) misses one half. Not the gap's bootstrap-t:
    with one side winning nearly every game its resamples of that side's wins only have an
    infinite ratio, and 18 NPC wins in 20 games were called too close to even."""
    npc, decided = int(np.sum(g > 0)), int(np.sum(g != 0))
    lo, hi = rate_interval(npc, decided)
    return decided > 0 and not lo <= 0.5 <= hi


def _seeds_to_settle(g: np.ndarray) -> int:
    """Seeds for the NPC share of decided games ``p`` to be told from one half by a two-sided
    5 % test with 80 % power (the one-sample binomial size, ((1.96·½ + 0.84·√(p(1−p))) / |p −
    ½|)² decided games, over the share of seeds decided), and always more than were played
    (those were too few); -1 when the versions' games split exactly even or none was won."""
    from statistics import NormalDist

    npc, decided = int(np.sum(g > 0)), int(np.sum(g != 0))
    if decided == 0 or 2 * npc == decided:
        return -1
    share = npc / decided
    z80 = NormalDist().inv_cdf(0.8)
    games = ((Z_975 * 0.5 + z80 * math.sqrt(share * (1 - share))) / abs(share - 0.5)) ** 2
    return max(g.size + 1, math.ceil(games * g.size / decided))


def _balance_rows(A: dict, B: dict, weights: np.ndarray, var_d: float, need: int):
    """Balance is 1 − |gap| with gap = NPC win − monster win, a mean of each game's +1, 0 or
    −1: its interval is the gap's (bootstrap-t) folded. The change of balance is a paired mean
    only while each version's leading side is settled (the NPC share of its decided games is
    told from one half, :func:`_leader_settled`); near an even game the fold makes any interval
    of the change untrustworthy, and the row says so."""
    size = weights.shape[1]
    ends, gaps = [], []
    for V in (A, B):
        g = V["npc_win"] - V["monster_win"]
        lo, hi, _ = _student(g, weights)
        lo, hi = max(lo, -1.0), min(hi, 1.0)  # (a resample of one winner only: t is infinite)
        far, near = max(abs(lo), abs(hi)), (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)))
        ends.append(_holding(1 - far, 1 - near, 1 - abs(float(g.mean()))))
        gaps.append((g, not _leader_settled(g)))
    (ga, open_a), (gb, open_b) = gaps
    va, vb = 1 - abs(float(ga.mean())), 1 - abs(float(gb.mean()))
    if open_a or open_b:
        which = " and ".join(v for v, o in (("A", open_a), ("B", open_b)) if o)
        wants = [_seeds_to_settle(g) for g, o in gaps if o]
        want = -1 if -1 in wants else max(wants)
        more = f"about {want} seeds would settle it" if want > 0 else "more seeds may settle it"
        note = (f"{which}: too close to even at {size} seeds to say which side leads, so a "
                f"change of balance has no trustworthy interval; {more} (the win-rate rows "
                "show the change)")  # fmt: skip
        return [*ends, (math.nan, math.nan)], math.nan, note, need
    c = np.sign(ga.mean()) * ga - np.sign(gb.mean()) * gb  # each seed's change of 1 − |gap|
    if var_d == 0 or np.ptp(c) == 0:
        note = (
            f"the change came out {vb - va:+.3g} however the {size} seeds were redrawn: "
            f"no spread to draw an interval from; play more seeds (at least {2 * size})"
        )
        return [*ends, (math.nan, math.nan)], 1.0 if vb == va else 0.0, note, -1
    lo, hi, p = _student(c, weights)
    lo, hi, p = _agree(*_holding(lo, hi, vb - va), p)
    return [*ends, (lo, hi)], p, "", need


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
        ``variance_reduction``, ``detect``, ``seeds_needed``, ``seeds_unpaired``, ``pairs``,
        ``note`` (empty, or why a row has no interval, in words: NaN ends then).

    Examples
    --------
    B plays 3 turns longer on every seed: no seed's change differs from another's, so there is
    no spread to draw an interval from, and the row says so instead of a zero-wide interval.

    >>> a = {"turns": np.arange(40.0)}
    >>> b = {"turns": np.arange(40.0) + 3}
    >>> t = paired_table(a, b, metrics=["length_mean"], bootstrap=100)
    >>> t[["label", "diff", "diff_lo", "diff_hi"]].values.tolist()
    [['game length, mean', 3.0, nan, nan]]
    >>> print(t.loc[0, "note"])  # doctest: +NORMALIZE_WHITESPACE
    the change came out +3 however the 40 seeds were redrawn: no spread to draw an interval
    from; play more seeds (at least 80)
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
    if any(not m.binary for m in chosen):
        jack = _jackknife_weights(size)
        ja, jb = _Weighted(A, jack), _Weighted(B, jack)
    rows = []
    for m in chosen:
        va, vb = float(m.value(full_a)[0]), float(m.value(full_b)[0])
        ba, bb = m.value(ra), m.value(rb)
        d = bb - ba
        var_d = float(np.nanvar(d, ddof=1))
        var_u = float(np.nanvar(ba, ddof=1) + np.nanvar(bb, ddof=1))  # as if on other seeds
        if var_d <= 1e-18 * max(var_u, 1.0):  # rounding noise of a difference that never varies
            var_d = 0.0
        dd = detect.get(m.unit, math.nan)
        sd_pair, sd_free = math.sqrt(var_d * size), math.sqrt(var_u * size)
        need = seeds_needed(sd_pair, dd) if dd > 0 else -1
        if m.binary:
            x, y = A[m.needs[0]] != 0, B[m.needs[0]] != 0
            ends, p, note, need = _rate_rows(x, y, vb - va, dd, need)
            test = "McNemar mid-p"
        else:
            ends, p, note, need = _bootstrap_rows(
                m, A, B, (ba, bb), (m.value(ja), m.value(jb)), weights, var_d, need
            )
            test = "paired t" if _mean_method(m, A, B) == "t" else "paired bootstrap"
        if math.isnan(ends[2][0]) and not note:  # (no game of either version had a value)
            note = "no games with a value to draw an interval from; play more seeds"
        if m.unit == "share":  # a share's interval stays in 0…1, a change's in −1…1
            ends = [(max(lo, -k), min(hi, 1.0)) for (lo, hi), k in zip(ends, (0.0, 0.0, 1.0))]
        vr = var_u / var_d if var_d > 0 else (math.inf if var_u > 0 else math.nan)
        rows.append({
            "metric": m.key, "label": m.label, "unit": m.unit,
            "a": va, "a_lo": ends[0][0], "a_hi": ends[0][1],
            "b": vb, "b_lo": ends[1][0], "b_hi": ends[1][1],
            "diff": vb - va, "diff_lo": ends[2][0], "diff_hi": ends[2][1],
            "p_value": p, "test": test, "variance_reduction": vr, "detect": dd,
            "seeds_needed": need,
            "seeds_unpaired": seeds_needed(sd_free, dd) if dd > 0 else -1,
            "pairs": size, "note": note,
        })  # fmt: skip
    return pd.DataFrame(rows)
