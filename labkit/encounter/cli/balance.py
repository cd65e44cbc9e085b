"""``labkit sim sweep`` and ``labkit sim tune``: the balance lab on the command line.

(``labkit sim importance`` and ``tune``'s several-target form live in
:mod:`labkit.encounter.cli.search`.)

Examples (shell)::

    labkit sim sweep --grid '/characters/monster/life=3:8' --seeds 0:500 --out DIR
    labkit sim sweep --grid npcs=2,3 --grid /weapons/revolver/hit_score=1:4 --seeds 0:200
    labkit sim tune --param /characters/monster/life --target 0.5 --bounds 2,10

``--grid NAME=VALUES`` (repeatable, crossed in full): ``A:B`` or ``A:B:STEP`` is a range that
stops before ``B`` (as ``--seeds`` does), ``a,b,c`` a list; each value is read as JSON when it
can be (``3``, ``0.5``, ``true``), else kept as text. ``sweep --out DIR`` resumes: run the same
command again after an interruption.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from labkit import ArgumentError
from labkit import _args as A
from labkit._args import int_range
from labkit.encounter.cli.options import (
    cluster_options,
    dask_client,
    pair,
    parse_seeds,
    settings_from_args,
)

MAX_POINTS = 100_000  # as labkit.encounter.sim.sweep.MAX_POINTS (not imported for --help)


def register(sub: argparse._SubParsersAction, game_options: Any) -> None:
    """Add ``sweep`` and ``tune`` to the ``labkit sim`` group."""
    sw = sub.add_parser("sweep", help="play a parameter grid on common seeds (resumable)")
    game_options(sw)
    sw.add_argument(
        "--grid",
        action="append",
        required=True,
        metavar="NAME=VALUES",
        help="settings field or balance pointer and its values (repeatable)",
    )
    sw.add_argument("--seeds", default="0:100", help="A:B (range) or a,b,c (default 0:100)")
    sw.add_argument("--baseline", type=int, help="point index for paired differences")
    sw.add_argument("--out", help="directory of Parquet parts (resumable)")
    sw.add_argument("--csv", type=A.out_file_as(".csv"), help="also write the rows as CSV")
    _engine_options(sw)
    sw.set_defaults(func=_cmd_sweep)
    tu = sub.add_parser("tune", help="find the value of a parameter that hits a target rate")
    game_options(tu)
    tu.add_argument("--param", help="settings field or balance pointer")
    tu.add_argument("--target", action="append", required=True,
                    help="rate to hit, e.g. 0.5; with --knob (repeatable): npc_win=0.5±0.02, "
                         "steps=60:90, step_limit<0.05")  # fmt: skip
    tu.add_argument("--bounds", help="LOW,HIGH (integers search integers)")
    tu.add_argument("--metric", help="npc_win (default), monster_win, step_limit or "
                    "mutual_death")  # fmt: skip
    tu.add_argument("--seeds", default="0:4000", help="seed list (each point plays a prefix)")
    tu.add_argument(
        "--budget",
        type=int_range(1, 100_000_000),
        help="most games to play (default 20000); with --knob: trials (default 300)",
    )
    tu.add_argument("--start", type=int_range(10, 1_000_000),
                    help="seeds per point at first (at least 10; default 200)")  # fmt: skip
    tu.add_argument("--precision", type=_precision,
                    help="whole-number parameters: a value hits when its rate's 95 %% interval "
                         "lies within target ± this (default 0.02)")  # fmt: skip
    tu.add_argument("--patch-out", type=A.out_file_as(".json"),
                    help="write {pointer: value} as JSON (atomic)")  # fmt: skip
    _engine_options(tu)
    from labkit.encounter.cli import search

    search.add_tune_options(tu)
    tu.set_defaults(func=_cmd_tune, make_executor=_executor)
    search.register(sub, game_options, _engine_options, _executor)  # importance


def _engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=int, help="local processes (default: one per core)")
    cluster_options(p)
    p.add_argument("--chunksize", type=int, help="games per task")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_grid(items: list[str]) -> dict[str, list]:
    """``["/a=3:6", "npcs=2,3"]`` -> ``{"/a": [3, 4, 5], "npcs": [2, 3]}``.

    Examples
    --------
    >>> parse_grid(["/characters/monster/life=3:8:2", "npcs=2,3"])
    {'/characters/monster/life': [3, 5, 7], 'npcs': [2, 3]}
    >>> parse_grid(["npcs=2,3", "npcs=3,4"])
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: --grid: names a parameter already given (got 'npcs=3,4')
    """
    grid: dict[str, list] = {}
    for item in items:
        name, sep, values = item.partition("=")
        if not sep or not name or not values:
            raise ArgumentError("needs NAME=VALUES, e.g. /characters/monster/life=3:8",
                                argument="--grid", value=item)  # fmt: skip
        if name in grid:  # the later values would silently replace the first
            raise ArgumentError("names a parameter already given", argument="--grid", value=item)
        if ":" in values and "," not in values:
            try:
                parts = [int(p) for p in values.split(":")]
                if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] == 0):
                    raise ValueError
            except ValueError:
                raise ArgumentError("a range is A:B or A:B:STEP of integers (STEP not 0)",
                                    argument="--grid", value=item) from None  # fmt: skip
            span = range(*parts)
            if len(span) > MAX_POINTS:
                raise ArgumentError(f"{len(span)} values, more than a grid's {MAX_POINTS} points",
                                    argument="--grid", value=item)  # fmt: skip
            grid[name] = list(span)
        else:
            grid[name] = [_value(v.strip()) for v in values.split(",") if v.strip()]
        if not grid[name]:
            raise ArgumentError("selects no value", argument="--grid", value=item)
    return grid


def _executor(args: argparse.Namespace) -> tuple[Any, Any]:
    """(executor, closer) from --scheduler / --scheduler-file / --workers."""
    client = dask_client(args)
    if client is not None:
        return client, client.close
    if args.workers:
        from labkit.encounter.sim.batch import local_executor

        pool = local_executor(args.workers)
        return pool, pool.shutdown
    return None, None


def _cmd_sweep(args: argparse.Namespace) -> int:
    from labkit.encounter.sim.sweep import summary, sweep

    grid = parse_grid(args.grid)
    seeds = parse_seeds(args.seeds)
    base = settings_from_args(args, 0)
    executor, close = _executor(args)
    try:
        frame = sweep(base, grid, seeds, executor=executor, out=args.out,
                      progress=not args.quiet, chunksize=args.chunksize)  # fmt: skip
    finally:
        if close is not None:
            close()
    s = summary(frame, baseline=args.baseline)
    params = frame.attrs["parameters"]
    for rec in s.to_dict("records"):
        values = ", ".join(f"{p}={rec[p]}" for p in params)
        line = (f"point {rec['point']} ({values}): n={rec['n']}, NPC win {rec['npc_win']:.3f} "
                f"[{rec['npc_win_lo']:.3f}, {rec['npc_win_hi']:.3f}], mean steps "
                f"{rec['mean_steps']:.1f}")  # fmt: skip
        if args.baseline is not None:
            ends = ("no interval" if math.isnan(rec["diff_lo"])  # the note below says why
                    else f"{rec['diff_lo']:+.3f}, {rec['diff_hi']:+.3f}")  # fmt: skip
            line += (
                f", vs point {args.baseline}: {rec['diff']:+.3f} [{ends}] ({rec['pairs']} pairs)"
            )
            if rec["note"]:
                line += f"\n    ({rec['note']})"
        print(line)
    if args.out:
        print(f"{len(frame)} games in {args.out} (run the same command again to resume)")
    if args.csv:
        from labkit.io import atomic_write

        with atomic_write(args.csv) as fh:
            frame.to_csv(fh, index=False)
        print(f"saved {args.csv} ({len(frame)} rows)")
    return 0


def _precision(text: str) -> float:
    """``--precision``: a number strictly between 0 and 0.5 (tune's own bounds)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not 0 < value < 0.5:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 0.5 (got {text})")
    return value


_precision.__name__ = "number"


def _cmd_tune(args: argparse.Namespace) -> int:
    from labkit.encounter.cli.search import MANY_ONLY, cmd_tune_many
    from labkit.encounter.sim.tune import tune

    # One form or the other: an option of the other form would be ignored without a word.
    if args.knob:  # several targets over several knobs
        for name in ("param", "bounds", "metric", "start", "precision"):
            if getattr(args, name) is not None:
                raise ArgumentError("belongs to the one-parameter form (without --knob); "
                                    "with --knob each knob carries its range",
                                    argument=f"--{name}", value=getattr(args, name))  # fmt: skip
        return cmd_tune_many(args)
    for name in MANY_ONLY:
        if getattr(args, name) is not None:
            raise ArgumentError("belongs to the several-target form: give --knob NAME=LOW:HIGH",
                                argument=f"--{name}", value=getattr(args, name))  # fmt: skip
    if args.param is None or args.bounds is None or len(args.target) != 1:
        raise ArgumentError("the one-parameter form needs --param, --bounds and one --target "
                            "rate; several targets need --knob NAME=LOW:HIGH",
                            argument="--target", value=args.target)  # fmt: skip
    try:
        target = float(args.target[0])
    except ValueError:
        raise ArgumentError("a rate such as 0.5 (or give --knob for several targets)",
                            argument="--target", value=args.target[0]) from None  # fmt: skip

    low, high = pair(args.bounds, "bounds", float)
    integer = all(float(v).is_integer() and "." not in v for v in args.bounds.split(","))
    bounds = (int(low), int(high)) if integer else (low, high)
    base = settings_from_args(args, 0)
    executor, close = _executor(args)
    try:
        t = tune(base, args.param, target, metric=args.metric or "npc_win", bounds=bounds,
                 seeds=parse_seeds(args.seeds), executor=executor, start=args.start or 200,
                 budget=args.budget or 20_000, progress=not args.quiet,
                 precision=0.02 if args.precision is None else args.precision)  # fmt: skip
    finally:
        if close is not None:
            close()
    print(t.summary())
    for r in t.curve.itertuples():
        print(f"  {args.param} = {r.value:g}: {t.metric} {r.rate:.3f} [{r.lo:.3f}, {r.hi:.3f}] "
              f"(n={r.n})")  # fmt: skip
    if args.patch_out:
        from labkit.io import save_json

        value = int(t.value) if t.integer else t.value
        save_json(args.patch_out, {args.param: value})
        print(f"saved {args.patch_out}")
    return 0 if t.reachable else 1
