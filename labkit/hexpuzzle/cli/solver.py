"""``labkit puzzle solve | hint | score | generate | campaign``: the solver side of the CLI.

:func:`register_solver_commands` adds the sub-commands to the ``puzzle`` group's sub-parsers
(``labkit/hexpuzzle/cli.py`` calls it). Files given to ``solve``, ``hint`` and ``score`` may be a
level, a JSON list of levels or a campaign file. ``campaign --curve A:B:N`` (or ``--curve
FILE.csv``) generates one level per target instead of the main line: scores, or first-try
success rates (values in 0-1) judged by ``--model`` or the shipped skill model (:mod:`.curve`).
Heavy modules are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from labkit import ArgumentError
from labkit import _args as A


def register_solver_commands(sub: Any) -> None:
    """Add solve, hint, score, generate and campaign to the ``puzzle`` sub-parsers ``sub``."""
    solve = sub.add_parser("solve", help="fewest rotations to clear a level (rule H7)")
    solve.add_argument("file", metavar="FILE")
    solve.add_argument("--max-states", type=A.int_range(1, 10_000_000), default=20_000,
                       metavar="N")  # fmt: skip
    solve.add_argument("--json", action="store_true", help="print the result as JSON")
    solve.set_defaults(func=_solve)

    hint = sub.add_parser("hint", help="the first action of a minimum-rotation solution")
    hint.add_argument("file", metavar="FILE")
    hint.set_defaults(func=_hint)

    score = sub.add_parser("score", help="difficulty 0-100 of levels, as a table (rule H9)")
    score.add_argument("files", nargs="+", metavar="FILE")
    score.set_defaults(func=_score)

    gen = sub.add_parser("generate", help="generate levels backwards from a seed (rule H8)")
    gen.add_argument("--seed", type=A.seed, required=True, metavar="S")
    gen.add_argument("--count", type=A.int_range(1, 10_000), default=1, metavar="N")
    gen.add_argument("--out", type=A.out_dir, required=True, metavar="DIR",
                     help="directory for the level files")  # fmt: skip
    gen.add_argument("--radius", type=int, default=2, choices=(2, 3))
    gen.add_argument("--tiles", type=A.int_range(0, 61), nargs=2, default=(5, 8),
                     metavar=("LO", "HI"))  # fmt: skip
    gen.add_argument("--rotations", type=A.int_range(0, 999), nargs=2, default=(1, 3),
                     metavar=("LO", "HI"))  # fmt: skip
    gen.add_argument("--slack", type=A.int_range(0, 999), nargs=2, default=(0, 3),
                     metavar=("LO", "HI"))  # fmt: skip
    gen.set_defaults(func=_generate)

    camp = sub.add_parser("campaign", help="build the 24-level main line into one file")
    camp.add_argument("--out", type=A.out_file_as(".json"), required=True, metavar="FILE")
    camp.add_argument("--seed", type=A.seed, default=None, metavar="S")
    camp.add_argument(
        "--curve",
        metavar="A:B:N|CSV",
        help="levels to a curve instead: scores (0-100), or success rates if all in 0-1",
    )
    camp.add_argument(
        "--model",
        type=A.in_file,
        metavar="MODEL.json",
        help="skill model judging a success-rate curve (default: the shipped model)",
    )
    camp.add_argument(
        "--ability",
        type=A.float_range(-10.0, 10.0),
        metavar="A",
        help="player ability of a success curve (0; logits, -10 to 10)",
    )
    camp.add_argument("--time-limit", type=A.float_range(0.1, 3600.0), default=10.0,
                      metavar="SECONDS")  # fmt: skip
    for flag, lo, hi, what in (("--rotations", 1, 3, "rotations every level needs"),
                               ("--tiles", 1, 61, "tiles every level has"),
                               ("--radius", 2, 3, "board radius of every level")):  # fmt: skip
        camp.add_argument(flag, type=span(lo, hi), metavar="N|LO-HI",
                          help=f"with --curve: {what}, exact or a range")  # fmt: skip
    camp.set_defaults(func=_campaign)

    from labkit.hexpuzzle.cli.evaluate import register_evaluate

    register_evaluate(sub)


def span(lo: int, hi: int):
    """argparse type: ``N`` or ``LO-HI``, integers within ``[lo, hi]``, as an int or a pair."""
    one = A.int_range(lo, hi)

    def parse(text: str) -> int | tuple[int, int]:
        parts = text.split("-")
        if len(parts) == 1:
            return one(parts[0])
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"expected N or LO-HI, got {text[:40]!r}")
        a, b = one(parts[0]), one(parts[1])
        if a > b:
            raise argparse.ArgumentTypeError(f"LO must not exceed HI (got {text})")
        return a, b

    parse.__name__ = "span"
    return parse


def level_entries(path: str) -> list[tuple[str, Any]]:
    """``(label, level)`` for every level in a file: one level, a JSON list of levels, or a
    campaign file. An invalid level is its ``LevelError`` (naming the file and the pointer), so
    ``validate`` reports every one; the one reader of level files for every ``puzzle`` command.
    """
    from labkit import io as lio
    from labkit.hexpuzzle.campaign_file import FORMAT as CAMPAIGN_FORMAT
    from labkit.hexpuzzle.campaign_file import Campaign
    from labkit.hexpuzzle.level import MAX_BYTES, Level, LevelError

    try:
        doc = lio.load_json(path, error=LevelError, max_bytes=MAX_BYTES)
        if isinstance(doc, dict) and doc.get("format") == CAMPAIGN_FORMAT:
            levels = Campaign.from_dict(doc, file=path)  # the file is read once
            return [(f"{path}[{i}]", level) for i, level in enumerate(levels)]
        if not isinstance(doc, list):
            return [(path, Level.from_json(doc, file=path))]
    except LevelError as exc:
        return [(path, exc)]
    out: list[tuple[str, Any]] = []
    for i, item in enumerate(doc):
        try:
            out.append((f"{path}[{i}]", Level.from_json(item)))
        except LevelError as exc:
            kw = {"value": exc.value} if exc.has_value else {}
            where = f"/{i}{exc.pointer or ''}"
            out.append((f"{path}[{i}]", LevelError(exc.message, file=path, pointer=where, **kw)))
    return out


def read_levels(path: str) -> list[Any]:
    """Every level in a file (see :func:`level_entries`); the first invalid one is raised."""
    levels = []
    for _, level in level_entries(path):
        if isinstance(level, Exception):
            raise level
        levels.append(level)
    return levels


def _solve(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.solving.solver import solve

    if args.max_states < 1:
        from labkit import ArgumentError

        raise ArgumentError("must be at least 1", argument="--max-states", value=args.max_states)
    results = []
    for level in read_levels(args.file):
        sol = solve(level, max_states=args.max_states)
        results.append(
            {
                "id": level.id,
                "status": sol.status,
                "rotations": sol.rotations,
                "expanded": sol.expanded,
                "actions": [list(a) for a in sol.actions],
            }
        )
        if not args.json:
            print(f"{level.id}: {sol}")
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0]))
    return 0 if all(r["status"] == "solved" for r in results) else 2


def _hint(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.game import PuzzleState
    from labkit.hexpuzzle.solving.hints import advise

    for level in read_levels(args.file):
        advice = advise(PuzzleState(level))
        print(f"{level.id}: {advice.message}")
    return 0


def _score(args: argparse.Namespace) -> int:
    from labkit._text import terminal_text
    from labkit.hexpuzzle.difficulty.scoring import PARTS, score

    head = f"{'level':<16} {'total':>5}  {'band':<12} " + " ".join(f"{p:>8}" for p in PARTS)
    print(head + f"  {'status'}")
    print("-" * len(head) + "  ------")
    for path in args.files:
        for level in read_levels(path):
            d = score(level)
            shown = d.display
            cells = " ".join(f"{'-' if shown.get(p) is None else shown[p]:>8}" for p in PARTS)
            total = "-" if d.total is None else d.total
            print(
                f"{terminal_text(level.id):<16} {total:>5}  {d.band or '-':<12} {cells}  {d.status}"
            )
    return 0


def _generate(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.solving.generator import iter_generate

    out = Path(args.out)
    levels = iter_generate(
        args.seed,
        args.count,
        prefix=f"gen-{args.seed}",
        radius=args.radius,
        tiles=tuple(args.tiles),
        rotations=tuple(args.rotations),
        slack=tuple(args.slack),
    )
    written = 0
    for level in levels:  # saved as they come: an interruption keeps every finished level
        level.save(out / f"{level.id}.json")
        written += 1
    print(f"wrote {written} level(s) to {out}")
    return 0


def _campaign(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.shipped_campaign import SEED, build, save

    seed = SEED if args.seed is None else args.seed
    if args.curve is not None:
        from labkit.hexpuzzle.cli.curve import curve_campaign

        wanted = {"rotations": args.rotations, "tiles": args.tiles, "radius": args.radius}
        return curve_campaign(args.curve, args.out, seed, args.time_limit, args.model,
                              args.ability, wanted)  # fmt: skip
    for flag, value in (("--model", args.model), ("--ability", args.ability),
                        ("--rotations", args.rotations), ("--tiles", args.tiles),
                        ("--radius", args.radius)):  # fmt: skip
        if value is not None:
            raise ArgumentError("only goes with --curve", argument=flag, value=value)
    doc = build(seed)
    save(args.out, doc)
    totals = [e["score"]["total"] for e in doc["levels"]]
    print(f"wrote {args.out}: {len(totals)} levels, scores {min(totals)}-{max(totals)}")
    return 0
