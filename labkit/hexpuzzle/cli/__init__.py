"""``labkit puzzle``: validate, show and judge taps of hex-track levels from the shell.

* ``labkit puzzle validate FILE…`` checks every file (a level, a JSON list of levels or a
  campaign file) and prints one line per level, with the solver's verdict; exit status 1 when
  any level is invalid.
* ``labkit puzzle show FILE [--svg OUT] [--orientation K] [--tap TILE]`` prints a summary and
  writes the board (or the sweep of one tap) as SVG.
* ``labkit puzzle tap-trace FILE TILE [--orientation K] [--json]`` judges one tap (``trace``,
  its old name, still works for one release and says so on stderr).

Heavy modules are imported inside the handlers so that ``labkit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from labkit import _args as A


def register(subparsers: Any) -> None:
    """Add the ``puzzle`` command group to the top-level ``labkit`` parser."""
    puzzle = subparsers.add_parser(
        "puzzle", help="hex track puzzle: validate, show, tap-trace levels"
    )
    sub = puzzle.add_subparsers(dest="puzzle_command", metavar="ACTION", required=True)

    validate = sub.add_parser("validate", help="check level files against the format (rule H2)")
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.set_defaults(func=_validate)

    show = sub.add_parser("show", help="summarise a level and draw it as SVG")
    show.add_argument("file", metavar="FILE")
    show.add_argument(
        "--svg",
        type=A.out_file_as(".svg"),
        metavar="OUT",
        help="write the drawing to this SVG file",
    )
    show.add_argument(
        "--orientation",
        type=A.int_range(-1000, 1000),
        default=0,
        metavar="K",
        help="turn the board K steps clockwise first",
    )
    show.add_argument("--tap", metavar="TILE", help="draw the sweep of tapping this tile")
    show.set_defaults(func=_show)

    tap = sub.add_parser("tap-trace", help="judge one tap: exit, blocked (by whom, where) or loop")
    # the old verb, for one release: not listed in --help, notes its new name on stderr
    old_tap = sub.add_parser("trace")
    for parser in (tap, old_tap):
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("tile", metavar="TILE")
        parser.add_argument("--orientation", type=A.int_range(-1000, 1000), default=0, metavar="K")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
    tap.set_defaults(func=_tap_trace)
    old_tap.set_defaults(func=_old_trace)

    from labkit.hexpuzzle.cli.solver import register_solver_commands

    register_solver_commands(sub)

    from labkit.hexpuzzle.cli.calibration import register_calibration_commands

    register_calibration_commands(sub)

    from labkit.hexpuzzle.cli.skill import register_skill_commands

    register_skill_commands(sub)

    from labkit.hexpuzzle.cli.funnel import register_funnel_commands

    register_funnel_commands(sub)


def _describe(level: Any) -> str:
    if level.can_rotate:
        rotation = "rotation on"
    elif not level.board.symmetric:
        rotation = "rotation off (board not six-fold symmetric)"
    else:
        rotation = "rotation off (rotationEnabled false)"
    return (
        f"{level.id!r}: {len(level.board)} cells, {len(level.tiles)} tiles, "
        f"moveLimit {level.move_limit}, {rotation}"
    )


def _validate(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.cli.solver import level_entries
    from labkit.hexpuzzle.solving.solver import solve

    bad = total = 0
    for path in args.files:
        for label, level in level_entries(path):
            total += 1
            if isinstance(level, Exception):
                bad += 1
                message = str(level)
                if message.startswith(label) or message.startswith(path):
                    message = message.split(": ", 1)[1]
                print(f"INVALID  {label}: {message}")
                continue
            notes = []
            if not level.tiles:
                notes.append("no tiles: not a playable level")
            else:
                notes.append(f"solver: {solve(level).status}")
            tail = f" — {'; '.join(notes)}" if notes else ""
            print(f"ok       {label}: {_describe(level)}{tail}")
    if bad:
        print(f"{bad} of {total} level(s) invalid", file=sys.stderr)
        return 1
    return 0


def _load(path: str, orientation: int) -> Any:
    from labkit import ArgumentError
    from labkit.hexpuzzle.cli.solver import read_levels
    from labkit.hexpuzzle.level import LevelError

    levels = read_levels(path)
    if len(levels) != 1:
        raise LevelError(f"holds {len(levels)} levels; this command takes one", file=path)
    level = levels[0]
    if orientation % 6 and not level.board.symmetric:
        raise ArgumentError(
            f"{path}: this board cannot rotate (not six-fold symmetric)",
            argument="--orientation",
            value=orientation,
        )
    return level.rotated(orientation)


def _show(args: argparse.Namespace) -> int:
    from labkit import io as lio
    from labkit.hexpuzzle import draw
    from labkit.hexpuzzle.tap_trace import trace_tap

    level = _load(args.file, args.orientation)
    print(_describe(level))
    for t in level.tiles:
        print(
            f"  {t.id:>8}  cell ({t.q:+d},{t.r:+d})  dir {t.dir}  colour {t.color}  "
            f"tap: {trace_tap(level, t.id).outcome}"
        )
    if args.svg:
        obj = trace_tap(level, args.tap) if args.tap else level
        with lio.atomic_write(args.svg) as fh:
            fh.write(draw.svg(obj))
        print(f"wrote {Path(args.svg)}")
    return 0


def _old_trace(args: argparse.Namespace) -> int:
    print(
        "labkit puzzle trace is renamed labkit puzzle tap-trace: use the new verb "
        "(the old one goes in the next release)",
        file=sys.stderr,
    )
    return _tap_trace(args)


def _tap_trace(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.tap_trace import trace_tap

    level = _load(args.file, args.orientation)
    t = trace_tap(level, args.tile)
    cells = [list(cell) for cell, _, _ in t.visits]
    result: dict[str, Any] = {
        "tile": t.tile,
        "outcome": t.outcome,
        "contact": t.contact,
        "blocker": t.blocker,
        "point": list(t.point) if t.point else None,
        "path_length": t.planned.length,
        "cells": cells,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"tap {t.tile!r} on {level.id!r} (orientation {args.orientation % 6}): {t.outcome}")
    if t.outcome == "blocked":
        assert t.point is not None, "a blocked trace records its contact point"
        x, y = t.point
        print(f"  blocked by {t.blocker!r} after {t.contact:.3f} R at ({x:.3f}, {y:.3f})")
    route = " → ".join(f"({q},{r})" for q, r in cells) or "(straight off the board)"
    print(f"  route: {route}")
    print(f"  planned path {t.planned.length:.3f} R in {len(t.path) - 1} segments")
    return 0
