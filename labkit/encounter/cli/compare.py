"""``labkit sim compare``: two balance versions on common seeds, one line per metric.

Examples (shell)::

    labkit sim compare --balance-a data/balance/a_edition.json \\
        --balance-b data/balance/a_edition_monster_life4.json --seeds 0:2000 --out DIR

Each version is a balance file (a whole ``labkit.balance`` document or a
``labkit.balance_patch``); a missing side plays the shipped edition. ``--out DIR`` keeps the
games as Parquet parts exactly as ``labkit sim sweep`` does: run the same command again after
an interruption and only the missing games are played. ``--table-out FILE`` writes the metric
table (``.csv`` or ``.parquet``); ``--every-policy`` adds "does B stay balanced against every
policy?" (every NPC policy against every monster policy, on the same seeds).
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from labkit import _args as A
from labkit.encounter.cli.options import parse_seeds, settings_from_args


def register(sub: argparse._SubParsersAction, game_options: Any) -> None:
    """Add ``compare`` to the ``labkit sim`` group."""
    from labkit.encounter.cli.balance import _engine_options

    cp = sub.add_parser("compare", help="compare two balance versions on common seeds")
    game_options(cp)
    cp.add_argument("--balance-a", help="balance file of version A (default: shipped edition)")
    cp.add_argument("--balance-b", help="balance file of version B (default: shipped edition)")
    cp.add_argument("--seeds", default="0:2000", help="A:B (range) or a,b,c (default 0:2000)")
    cp.add_argument("--out", help="directory of Parquet parts for the games (resumable)")
    cp.add_argument("--table-out", type=A.out_file_as(".csv", ".parquet"), metavar="FILE",
                    help="write the metric table (.csv or .parquet)")  # fmt: skip
    cp.add_argument("--bootstrap", type=A.int_range(1, 10_000), default=1000,
                    help="paired resamples (1-10000, default 1000)")  # fmt: skip
    cp.add_argument(
        "--detect",
        type=A.float_range(1e-6, 1.0),
        default=0.02,
        help="change in a share to size seeds for (default 0.02 = 2 points)",
    )
    cp.add_argument(
        "--every-policy",
        action="store_true",
        help="also each NPC policy against each monster policy",
    )
    _engine_options(cp)
    cp.set_defaults(func=_cmd_compare)


def _num(x: float, unit: str) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "-"
    return f"{x:.1f}" if unit == "turns" else f"{x:.3f}"


def format_table(table: Any) -> list[str]:
    """The metric table as aligned text lines (designer labels, B − A with its interval).

    Examples
    --------
    >>> import numpy as np
    >>> from labkit.encounter.sim.paired import paired_table
    >>> a = {"turns": np.arange(12.0), "npc_win": np.zeros(12)}
    >>> b = {"turns": np.arange(12.0) + [2, 3] * 6, "npc_win": np.zeros(12)}
    >>> t = paired_table(a, b, metrics=["length_mean", "npc_win"], bootstrap=200)
    >>> for line in format_table(t)[1:]:  # doctest: +NORMALIZE_WHITESPACE
    ...     print(line)
    game length, mean (turns)   5.5   8.0  +2.5 [+2.2, +2.9]  p<0.001  x80.2  n=3
    NPC win rate              0.000 0.000  +0.000 [no interval]  p=1  -  n=4906
        (A and B ended alike on all 12 seeds: that cannot show how large a change is (no
        interval); play about 4906 seeds to tell a change of 2 points)
    """
    lines = [f"{'metric':<42}{'A':>7}{'B':>9}  B - A [95 % interval]  p  pairing  seeds"]
    for r in table.itertuples():
        unit = f" ({r.unit})" if r.unit == "turns" else ""
        fmt = ".1f" if r.unit == "turns" else ".3f"
        vr = "-" if not math.isfinite(r.variance_reduction) else f"x{r.variance_reduction:.1f}"
        p = ("=-" if math.isnan(r.p_value) else "<0.001" if r.p_value < 0.001
             else f"={r.p_value:.3g}")  # fmt: skip
        ends = ("no interval" if math.isnan(r.diff_lo)  # the note below says why
                else f"{r.diff_lo:+{fmt}}, {r.diff_hi:+{fmt}}")  # fmt: skip
        lines.append(f"{r.label + unit:<42}{_num(r.a, r.unit):>7}{_num(r.b, r.unit):>9}  "
                     f"{r.diff:+{fmt}} [{ends}]  p{p}  {vr}  n={r.seeds_needed}")  # fmt: skip
        if getattr(r, "note", ""):
            lines.append(f"    ({r.note})")
    return lines


def format_policies(every: Any) -> list[str]:
    """The every-policy table (:func:`~labkit.encounter.sim.ratings.policy_balance`) as text
    lines: both balances with their intervals, B − A with its interval, whether B is balanced;
    a change without an interval says "no interval" and its note (why, how many seeds) below.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame([{"npc": "scavenger", "monster": "hunter", "balance_a": 0.9,
    ...     "balance_a_lo": 0.8, "balance_a_hi": 1.0, "balance_b": 0.7, "balance_b_lo": 0.6,
    ...     "balance_b_hi": 0.8, "diff": -0.2, "diff_lo": float("nan"),
    ...     "diff_hi": float("nan"), "b_balanced": False, "note": "A: too close to even"}])
    >>> for line in format_policies(t):  # doctest: +NORMALIZE_WHITESPACE
    ...     print(line)
    NPC scavenger  vs monster hunter     A 0.900 [0.800, 1.000]  B 0.700 [0.600, 0.800]
    B - A -0.200 [no interval]  NOT balanced
        (A: too close to even)
    """
    lines = []
    for r in every.itertuples():
        ends = ("no interval" if math.isnan(r.diff_lo)  # the note below says why
                else f"{r.diff_lo:+.3f}, {r.diff_hi:+.3f}")  # fmt: skip
        lines.append(f"  NPC {r.npc:<10} vs monster {r.monster:<10} A {_num(r.balance_a, '')} "
                     f"[{_num(r.balance_a_lo, '')}, {_num(r.balance_a_hi, '')}]  B "
                     f"{_num(r.balance_b, '')} [{_num(r.balance_b_lo, '')}, "
                     f"{_num(r.balance_b_hi, '')}]  B - A {r.diff:+.3f} [{ends}]  "
                     f"{'balanced' if r.b_balanced else 'NOT balanced'}")  # fmt: skip
        if getattr(r, "note", ""):
            lines.append(f"    ({r.note})")
    return lines


def _cmd_compare(args: argparse.Namespace) -> int:
    from labkit.encounter.cli.balance import _executor
    from labkit.encounter.sim.compare import _check_draws, compare, play_pair, version_patch

    seeds = parse_seeds(args.seeds)
    _check_draws(args.bootstrap, len(seeds), "--bootstrap")  # before a game, not after all
    base = settings_from_args(args, 0)
    a = version_patch(args.balance_a) if args.balance_a else {}
    b = version_patch(args.balance_b) if args.balance_b else {}
    executor, close = _executor(args)
    try:
        games = play_pair(a, b, seeds, base=base, executor=executor, out=args.out,
                          progress=not args.quiet)  # fmt: skip
        table = compare(a, b, seeds, games=games, bootstrap=args.bootstrap,
                        detect={"share": args.detect})  # fmt: skip
        every = None
        if args.every_policy:
            from labkit.encounter.sim.ratings import policy_balance

            every = policy_balance(a, b, seeds, base=base, executor=executor,
                                   progress=not args.quiet)  # fmt: skip
    finally:
        if close is not None:
            close()
    print(f"A: {args.balance_a or 'shipped edition'} ({len(a)} changes); "
          f"B: {args.balance_b or 'shipped edition'} ({len(b)} changes); {len(seeds)} seeds, "
          "each played by both")  # fmt: skip
    for line in format_table(table):
        print(line)
    print(f"(p: mid-p McNemar for yes/no metrics, paired t for lead changes, else paired "
          f"bootstrap; pairing: variance reduction against unpaired seeds; seeds: pairs to "
          f"detect {args.detect:g} in a share or 1 turn at 80 % power)")  # fmt: skip
    if every is not None:
        print("\ndoes B stay balanced against every policy? (balance = 1 - win-rate gap)")
        for line in format_policies(every):
            print(line)
    if args.out:
        print(f"{len(games)} games in {args.out} (run the same command again to resume)")
    if args.table_out:
        from labkit.io import atomic_write

        with atomic_write(args.table_out, "wb") as fh:
            if str(args.table_out).lower().endswith(".parquet"):
                table.to_parquet(fh, index=False)
            else:
                fh.write(table.to_csv(index=False).encode())
        print(f"saved {args.table_out} ({len(table)} metrics)")
    return 0
