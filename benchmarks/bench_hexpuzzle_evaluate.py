"""The generator measured like a research generator (issue 27): one row per axis and generator.

Ten targets — five on a score × rotations grid, five on a score × tiles grid — times
``LABKIT_EVAL_N`` levels (default 100) times ``LABKIT_EVAL_SEEDS`` seeds (default 5), every
generator at ``LABKIT_EVAL_BUDGET`` solver calls per level (default 150): labkit's
``generate_to_target`` and pcg_benchmark's three baselines (random search over recipes, a
(μ+λ) evolution strategy, a genetic algorithm with gated fitness), all judged by labkit's solver
and scorer (:func:`labkit.hexpuzzle.evaluate_generator`).

Goals (issue 27): quality ≥ 95 %, diversity ≥ 90 % (solutions and layouts), ≥ 90 % within ±2
with the control met, and ahead of every baseline on each axis. The "labkit" column of a row is
the CPU seconds that generator spent per valid level; the figures are in the notes.
"""

from __future__ import annotations

import os
import time

from benchmarks import Row, benchmark
from labkit.hexpuzzle import evaluate_generator
from labkit.hexpuzzle.evaluation.baselines import BASELINES
from labkit.hexpuzzle.evaluation.evaluate import DEFAULT_TARGETS, format_summary

#: score × rotations, then score × tiles (the default targets of ``labkit puzzle evaluate``).
TARGETS = DEFAULT_TARGETS
GOALS = {"quality": 0.95, "diversity (solutions)": 0.9, "diversity (layouts)": 0.9,
         "within ±2": 0.9}  # fmt: skip


def _size() -> tuple[int, list[int], int]:
    n = int(os.environ.get("LABKIT_EVAL_N", "100"))
    seeds = list(range(int(os.environ.get("LABKIT_EVAL_SEEDS", "5"))))
    return n, seeds, int(os.environ.get("LABKIT_EVAL_BUDGET", "150"))


def _rows(name: str) -> list[Row]:
    n, seeds, budget = _size()
    start = time.process_time()
    report = evaluate_generator(BASELINES[name], TARGETS, n=n, seeds=seeds, budget=budget,
                                name=name)  # fmt: skip
    cpu = time.process_time() - start
    print(format_summary(report.summary), flush=True)
    rows = []
    per_level = report.figure("CPU s per valid level")[0]
    for _, r in report.summary.iterrows():
        goal = GOALS.get(r["figure"])
        meets = None if goal is None else bool(r["mean"] >= goal)
        rows.append(Row(
            f"hexpuzzle evaluate {name}: {r['figure']}", per_level, None,
            f"10 targets × {n} levels × {len(seeds)} seeds, budget {budget} solver calls",
            None,
            notes=f"{r['mean']:.3g} (95 % across seeds {r['low']:.3g}-{r['high']:.3g})"
            + ("" if goal is None else f", goal >= {goal:g}: {meets}")
            + f"; {cpu:.0f} CPU s in all",
            extra={"generator": name, "figure": r["figure"], "mean": r["mean"],
                   "low": r["low"], "high": r["high"], "goal": goal, "meets": meets,
                   "n": n, "seeds": len(seeds), "budget": budget, "cpu_s": cpu},
        ))  # fmt: skip
    return rows


for _name in BASELINES:
    benchmark(f"hexpuzzle evaluate {_name}")(lambda name=_name: _rows(name))
