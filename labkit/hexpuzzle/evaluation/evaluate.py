"""A generator measured on three axes over targets and seeds: ``evaluate_generator``.

A *generator* here is any callable ``generate(target, rng, budget) -> Level | None``: ``target``
a dict with a ``"score"`` and, optionally, the controls ``"rotations"``, ``"tiles"`` and
``"radius"`` (exact values or ``(lo, hi)``), ``rng`` a numpy Generator, ``budget`` the solver
calls it may spend (:func:`~labkit.hexpuzzle.solving.solver.solver_calls` counts them whoever
makes them). It returns its level, or ``None`` (a :class:`GeneratorError` counts as ``None``).

For every seed, target and ``i < n`` one level is asked for, from the named stream
``eval/{target}/{i}`` of the seed, and judged by labkit's own solver and scorer:

* **quality** — it is *valid* (survives its own file format), *solvable*, *within the level
  rules* (the scorer's status ``ok``: winnable within its move limit) and *meets the
  constraints* (rotations, tiles and radius the target asks for); all four, or not;
* **diversity** — among the ``n`` levels of one seed and target, pcg_benchmark's share of
  distinct levels by solution strings, and the same share by layouts up to rotation
  (:mod:`.measures`; a missing level is distinct from nothing);
* **controllability** — the score within ±2 of the target *and* every control met exactly
  (``within``), the absolute score error, and control-pcgrl's share of the distance closed:
  ``1 − d(level) / d₀``, where ``d`` adds the score's distance over 100 to each control's over
  its range (rotations 3, tiles 19) and ``d₀`` is the mean distance of ten unsteered levels
  (:func:`~labkit.hexpuzzle.generate` with its defaults, the stream ``eval/reference`` of the
  seed) from the same target; clipped to 0–1, 0 for a missing level;
* **cost** — solver calls and CPU seconds per level of quality.

Each figure is computed per seed, then given as the mean over seeds with a 95 % Student-t
interval across seeds, clipped to the figure's own range (no interval from one seed).

Examples
--------
>>> from labkit.hexpuzzle import generate_to_target
>>> def ours(target, rng, budget):
...     return generate_to_target(rng, budget=budget, **target)
>>> report = evaluate_generator(ours, [{"score": 30, "rotations": 1}], n=2, seeds=[0],
...                             budget=300)
>>> report.table[["seed", "score_target", "quality", "within"]].to_dict("list")
{'seed': [0, 0], 'score_target': [30.0, 30.0], 'quality': [True, True], 'within': [True, True]}
>>> list(report.summary["figure"])[:3]
['quality', 'diversity (solutions)', 'diversity (layouts)']
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit._args import check_int
from labkit.hexpuzzle.difficulty.scoring import score
from labkit.hexpuzzle.evaluation.measures import distances as pairwise_distances
from labkit.hexpuzzle.evaluation.measures import diversity
from labkit.hexpuzzle.level import Level, LevelError
from labkit.hexpuzzle.solving.constraints import constraints
from labkit.hexpuzzle.solving.generator import GeneratorError
from labkit.hexpuzzle.solving.generator import generate as generate_backwards
from labkit.hexpuzzle.solving.solver import solver_calls
from labkit.rng import make_rng, stream

__all__ = ["CONTROLS", "DEFAULT_TARGETS", "GeneratorReport", "evaluate_generator",
           "format_summary"]  # fmt: skip

#: Ten targets: five on a score × rotations grid, then five on a score × tiles grid.
DEFAULT_TARGETS = [
    *({"score": s, "rotations": r} for s, r in ((35, 1), (50, 1), (50, 2), (65, 2), (65, 3))),
    *({"score": s, "tiles": t} for s, t in ((35, 6), (50, 6), (50, 10), (65, 10), (65, 14))),
]

#: The controls a target may set, and the range each distance is divided by.
CONTROLS = {"rotations": 3, "tiles": 19, "radius": 1}
#: Most replications (seeds) one evaluation runs.
MAX_SEEDS = 1000
#: Most solver calls one level may cost, and in one evaluation (seeds x targets x n x budget):
#: the default benchmark asks for 45000 per generator.
MAX_BUDGET = 100_000
MAX_SOLVER_CALLS = 10_000_000
Generator = Callable[[dict, np.random.Generator, int], "Level | None"]
#: The figures of a report: (name, column or function of one seed's rows, unit, range).
FIGURES = ("quality", "diversity (solutions)", "diversity (layouts)", "within ±2",
           "score error (MAE)", "distance closed", "solver calls per valid level",
           "CPU s per valid level")  # fmt: skip
_SHARES = {"quality", "diversity (solutions)", "diversity (layouts)", "within ±2",
           "distance closed"}  # fmt: skip


def _span(value: Any) -> tuple[int, int]:
    if isinstance(value, (int, np.integer)):
        return int(value), int(value)
    return int(value[0]), int(value[1])


def _gap(value: float | None, span: tuple[int, int]) -> float:
    """How far ``value`` lies outside the inclusive ``span`` (0 inside)."""
    if value is None:
        return math.inf
    return max(0.0, span[0] - value, value - span[1])


def _check_targets(targets: Sequence[dict]) -> list[dict]:
    if isinstance(targets, (dict, str, bytes)) or not isinstance(targets, Sequence) or not targets:
        raise ArgumentError("must be a non-empty list of dicts with a 'score'", argument="targets",
                            value=targets)  # fmt: skip
    out = []
    for k, t in enumerate(targets):
        if not isinstance(t, dict) or "score" not in t or set(t) - {"score", *CONTROLS}:
            raise ArgumentError(f"needs a 'score' and only the controls {', '.join(CONTROLS)}",
                                argument=f"targets[{k}]", value=t)  # fmt: skip
        sc = t["score"]
        if isinstance(sc, bool) or not isinstance(sc, (int, float)) or not 0 <= sc <= 100:
            raise ArgumentError("a score is a number 0-100", argument=f"targets[{k}]['score']",
                                value=sc)  # fmt: skip
        try:  # the same checks, and the same refusals, as generate_to_target
            constraints(t.get("rotations"), t.get("tiles"), t.get("radius"))
        except ArgumentError as exc:
            raise ArgumentError(exc.message, argument=f"targets[{k}]", value=t) from None
        out.append(dict(t))
    return out


def _distance(target: dict, total: float | None, d: Any, level: Level | None) -> float:
    if level is None or total is None:
        return math.inf
    out = abs(total - target["score"]) / 100
    measured = {"rotations": d.R, "tiles": d.N, "radius": _radius(level)}
    for key, width in CONTROLS.items():
        if key in target:
            out += _gap(measured[key], _span(target[key])) / width
    return out


def _radius(level: Level) -> int:
    return max(max(abs(q), abs(r), abs(q + r)) for q, r in level.board.cells)


def _judge(target: dict, level: Level | None) -> dict[str, Any]:
    row: dict[str, Any] = {"made": level is not None}
    if level is None:
        return {**row, "valid": False, "solvable": False, "within_rules": False,
                "meets_constraints": False, "quality": False, "score": None, "rotations": None,
                "tiles": None, "radius": None, "score_error": None, "within": False}  # fmt: skip
    try:
        Level.from_json(level.to_json())  # the file format's own checks
        valid = True
    except LevelError:
        valid = False
    d = score(level)
    solvable = d.solution is not None and d.solution.solved
    rules = d.status == "ok"
    wanted = {"rotations": d.R, "tiles": d.N, "radius": _radius(level)}
    meets = all(_gap(wanted[k], _span(target[k])) == 0 for k in CONTROLS if k in target)
    error = None if d.total is None else abs(d.total - target["score"])
    return {**row, "valid": valid, "solvable": solvable, "within_rules": rules,
            "meets_constraints": meets, "quality": valid and solvable and rules and meets,
            "score": d.total, "rotations": d.R, "tiles": d.N, "radius": wanted["radius"],
            "score_error": error,
            "within": error is not None and error <= 2 and meets}  # fmt: skip


def evaluate_generator(
    generate: Generator,
    targets: Sequence[dict],
    *,
    n: int,
    seeds: Sequence[int],
    budget: int,
    name: str = "generator",
    progress: bool = False,
) -> GeneratorReport:
    """Run ``generate`` ``n`` times per target and seed; measure quality, diversity, control.

    Parameters
    ----------
    generate : callable ``(target, rng, budget) -> Level | None``
        The generator under test (see the module notes).
    targets : list of dict
        ``{"score": 55, "rotations": 2}`` and the like.
    n : int
        Levels per target and seed (diversity is measured among them).
    seeds : list of int
        Each seed is one replication; intervals are across seeds.
    budget : int
        Solver calls each level may cost (passed to ``generate``; what it spends is recorded).
    name : str
        The generator's name in the report.
    progress : bool
        Show a tqdm bar over the levels.

    Returns
    -------
    GeneratorReport
        ``table`` (one row per level) and ``summary`` (one row per figure).

    Examples
    --------
    A generator that returns one fixed level: valid, on target, and not diverse at all.

    >>> from labkit.hexpuzzle import Level, score
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=2)
    >>> r = evaluate_generator(lambda target, rng, budget: lvl, [{"score": score(lvl).total}],
    ...                        n=2, seeds=[0], budget=10)
    >>> r.figure("quality")[0], r.figure("within ±2")[0], r.figure("diversity (layouts)")[0]
    (1.0, 1.0, 0.5)
    """
    from tqdm.auto import tqdm

    if not callable(generate):
        raise ArgumentError("must be callable as generate(target, rng, budget)",
                            argument="generate", value=generate)  # fmt: skip
    wanted = _check_targets(targets)
    check_int(n, "n", 1, 10_000)
    check_int(budget, "budget", 1, MAX_BUDGET)
    seeds = list(itertools.islice(seeds, MAX_SEEDS + 1))  # range(10**9) is never listed
    if not seeds or len(seeds) > MAX_SEEDS:
        many = f"{len(seeds)}{'+' if len(seeds) > MAX_SEEDS else ''} seeds"
        raise ArgumentError(f"must name 1 to {MAX_SEEDS} seeds (replications)", argument="seeds",
                            value=many)  # fmt: skip
    calls = len(seeds) * len(wanted) * n * budget
    if calls > MAX_SOLVER_CALLS:
        raise ArgumentError(f"{len(seeds)} seeds x {len(wanted)} targets x {n} levels x {budget} "
                            f"solver calls is over {MAX_SOLVER_CALLS} calls", argument="budget",
                            value=budget)  # fmt: skip
    for seed in seeds:
        check_int(seed, "seeds", 0, 2**63 - 1)
    rows: list[dict[str, Any]] = []
    bar = tqdm(total=len(seeds) * len(wanted) * n, desc=name, unit="level", disable=not progress)
    for seed in seeds:
        pool = [generate_backwards(stream(seed, f"eval/reference/{i}")) for i in range(10)]
        scored = [(score(lv), lv) for lv in pool]
        for k, target in enumerate(wanted):
            d0 = float(np.mean([_distance(target, d.total, d, lv) for d, lv in scored]))
            levels = []
            for i in range(n):
                calls, cpu = solver_calls(), time.process_time()
                try:
                    level = generate(target, make_rng(stream(seed, f"eval/{k}/{i}")), budget)
                except GeneratorError:
                    level = None
                if level is not None and not callable(getattr(level, "to_json", None)):
                    raise ArgumentError(f"must return a Level or None (seed {seed}, target {k}, "
                                        f"level {i})", argument="generate",
                                        value=type(level).__name__)  # fmt: skip
                spent, cpu = solver_calls() - calls, time.process_time() - cpu
                row = {"generator": name, "seed": seed, "target": k,
                       "score_target": float(target["score"]),
                       **{f"{c}_target": target.get(c) for c in CONTROLS}, "level": i,
                       **_judge(target, level), "solver_calls": spent, "cpu_s": cpu}  # fmt: skip
                d = score(level) if level is not None else None
                dist = _distance(target, row["score"], d, level)
                row["closed"] = (
                    0.0
                    if not math.isfinite(dist)
                    else float(np.clip(1 - dist / d0, 0, 1) if d0 > 0 else float(dist == 0))
                )
                levels.append(level)
                rows.append(row)
                bar.update()
            for measure in ("solution", "layout"):
                values = diversity(pairwise_distances(levels, measure))
                for row, value in zip(rows[-n:], values):
                    row[f"diverse_{measure}"] = bool(value >= 1) and row["made"]
    bar.close()
    return GeneratorReport(rows, name=name, budget=budget)


def _per_seed(t) -> dict[str, float]:
    good = int(t["quality"].sum())
    errors = t["score_error"].dropna()
    return {
        "quality": float(t["quality"].mean()),
        "diversity (solutions)": float(t["diverse_solution"].mean()),
        "diversity (layouts)": float(t["diverse_layout"].mean()),
        "within ±2": float(t["within"].mean()),
        "score error (MAE)": float(errors.mean()) if len(errors) else math.nan,
        "distance closed": float(t["closed"].mean()),
        "solver calls per valid level": t["solver_calls"].sum() / good if good else math.inf,
        "CPU s per valid level": t["cpu_s"].sum() / good if good else math.inf,
    }


class GeneratorReport:
    """What :func:`evaluate_generator` measured: ``table`` per level, ``summary`` per figure.

    ``summary`` columns: ``generator``, ``figure``, ``mean``, ``low``, ``high`` (95 % interval
    across seeds, inside the figure's range), ``seeds``, ``unit``.

    Examples
    --------
    >>> rows = [{"generator": "g", "seed": s, "target": 0, "quality": True, "within": q,
    ...          "diverse_solution": True, "diverse_layout": True, "score_error": 1.0,
    ...          "closed": 1.0, "solver_calls": 10, "cpu_s": 0.1, "made": True,
    ...          "score_target": 40.0, "rotations_target": 1, "tiles_target": None,
    ...          "radius_target": None, "score": 41, "rotations": 1, "tiles": 5}
    ...         for s, q in ((0, True), (1, False))]
    >>> r = GeneratorReport(rows, name="g", budget=100)
    >>> r.figure("within ±2")
    (0.5, 0.0, 1.0)
    """

    def __init__(self, rows: list[dict], *, name: str, budget: int) -> None:
        import pandas as pd

        self.name, self.budget = name, budget
        self.table = pd.DataFrame(rows)
        self.summary = self._summary()

    def _summary(self):
        import pandas as pd
        from scipy import stats

        per_seed = [_per_seed(t) for _, t in self.table.groupby("seed")]
        out = []
        for fig in FIGURES:
            values = np.array([p[fig] for p in per_seed], float)
            values = values[np.isfinite(values)]
            mean = float(values.mean()) if len(values) else math.nan
            low = high = mean
            if len(values) > 1:
                half = (
                    stats.t.ppf(0.975, len(values) - 1)
                    * values.std(ddof=1)
                    / math.sqrt(len(values))
                )
                low, high = mean - half, mean + half
            top = 1.0 if fig in _SHARES else math.inf
            low, high = max(0.0, low), min(top, high)
            unit = "share" if fig in _SHARES else ("points" if "MAE" in fig else fig.split()[0])
            out.append({"generator": self.name, "figure": fig, "mean": mean, "low": low,
                        "high": high, "seeds": len(per_seed), "unit": unit})  # fmt: skip
        return pd.DataFrame(out)

    def figure(self, name: str) -> tuple[float, float, float]:
        """``(mean, low, high)`` of one figure."""
        row = self.summary[self.summary["figure"] == name]
        if row.empty:
            raise ArgumentError(f"no such figure; known: {', '.join(FIGURES)}", argument="name",
                                value=name)  # fmt: skip
        r = row.iloc[0]
        return float(r["mean"]), float(r["low"]), float(r["high"])

    def grid(self, control: str, value: str = "within"):
        """Mean of ``value`` per (score target, ``control`` target): a heat map's numbers."""
        t = self.table[self.table[f"{control}_target"].notna()]
        return t.pivot_table(index=f"{control}_target", columns="score_target", values=value,
                             aggfunc="mean")  # fmt: skip

    def __str__(self) -> str:
        return format_summary(self.summary)

    def _repr_html_(self) -> str:
        return self.summary.to_html(index=False, float_format=lambda v: f"{v:.3g}")


def _shown(fig: str, v: float) -> str:
    if not math.isfinite(v):
        return "-"
    if fig in _SHARES:
        return f"{100 * v:.0f} %"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def format_summary(summary) -> str:
    """The summary rows of one or more reports as a plain-text table (figure × generator)."""
    lines = [f"{'generator':<22} {'figure':<30} {'mean':>8}  {'95 % interval (seeds)':<22}"]
    for _, r in summary.iterrows():
        interval = (f"{_shown(r['figure'], r['low'])} - {_shown(r['figure'], r['high'])}"
                    if r["seeds"] > 1 else "(one seed)")  # fmt: skip
        if r["seeds"] > 1 and r["figure"] not in _SHARES and r["low"] <= 0 < r["mean"]:
            # the interval reached below 0 and was cut there: the cost could be anything from
            # nothing to twice its mean, which is no interval a reader can use
            interval = f"too few seeds to tell ({r['seeds']})"
        lines.append(f"{r['generator']:<22} {r['figure']:<30} "
                     f"{_shown(r['figure'], r['mean']):>8}  {interval:<22}")  # fmt: skip
    return "\n".join(lines)
