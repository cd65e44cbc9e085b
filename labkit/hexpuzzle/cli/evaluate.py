"""``labkit puzzle evaluate``: generators measured on quality, diversity, controllability, cost.

Runs :func:`~labkit.hexpuzzle.evaluate_generator` for labkit's ``generate_to_target`` and the
baselines (:mod:`labkit.hexpuzzle.evaluation.baselines`) at one solver budget and prints one
table: every figure per generator, with its 95 % interval across seeds. ``--target SCORE`` or
``SCORE:rotations=R`` / ``SCORE:tiles=T`` (repeatable) sets the targets; the default is the
benchmark's ten (five score × rotations, five score × tiles).
"""

from __future__ import annotations

import argparse
from typing import Any

from labkit import _args as A


def target(text: str) -> dict:
    """argparse type: ``SCORE`` or ``SCORE:rotations=R`` / ``SCORE:tiles=T`` (``,`` joins)."""
    head, _, rest = text.partition(":")
    try:
        out: dict[str, Any] = {"score": float(head)}
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SCORE[:rotations=R][,tiles=T], got "
                                         f"{text[:40]!r}") from None  # fmt: skip
    if not 0 <= out["score"] <= 100:
        raise argparse.ArgumentTypeError(f"a score is 0-100 (got {head})")
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        if key not in ("rotations", "tiles", "radius"):
            raise argparse.ArgumentTypeError(f"controls are rotations, tiles, radius (got {key!r})")
        out[key] = A.int_range(1, 61)(value)
    return out


def register_evaluate(sub: Any) -> None:
    """Add ``evaluate`` to the ``puzzle`` sub-parsers."""
    from labkit.hexpuzzle.evaluation.baselines import BASELINES

    ev = sub.add_parser("evaluate", help="measure generators: quality, diversity, control, cost")
    ev.add_argument("--target", type=target, action="append", metavar="SCORE[:rotations=R]",
                    help="a target (repeatable); default: the benchmark's ten")  # fmt: skip
    ev.add_argument("--n", type=A.int_range(1, 1000), default=10, metavar="N",
                    help="levels per target and seed (default 10)")  # fmt: skip
    ev.add_argument("--seeds", type=A.seed_range, default=[0, 1, 2], metavar="A:B|a,b",
                    help="seeds (replications; default 0:3)")  # fmt: skip
    ev.add_argument("--budget", type=A.int_range(1, 100_000), default=150, metavar="CALLS",
                    help="solver calls per level, for every generator (default 150)")  # fmt: skip
    ev.add_argument("--generator", action="append", choices=list(BASELINES),
                    help="generators to run (repeatable; default all)")  # fmt: skip
    ev.set_defaults(func=_evaluate)


def _evaluate(args: argparse.Namespace) -> int:
    import pandas as pd

    from labkit.hexpuzzle.evaluation.baselines import BASELINES
    from labkit.hexpuzzle.evaluation.evaluate import (
        DEFAULT_TARGETS,
        evaluate_generator,
        format_summary,
    )

    targets = args.target or DEFAULT_TARGETS
    names = args.generator or list(BASELINES)
    summaries = []
    for name in names:
        report = evaluate_generator(BASELINES[name], targets, n=args.n, seeds=args.seeds,
                                    budget=args.budget, name=name, progress=True)  # fmt: skip
        summaries.append(report.summary)
    print(f"{len(targets)} targets × {args.n} levels × {len(args.seeds)} seeds, "
          f"{args.budget} solver calls per level")  # fmt: skip
    print(format_summary(pd.concat(summaries)))
    return 0
