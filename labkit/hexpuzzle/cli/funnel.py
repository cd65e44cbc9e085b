"""``labkit puzzle funnel CAMPAIGN MODEL [--players N] [--draws D] [--out funnel.csv]``.

Plays the population of a fitted skill model (``labkit puzzle skill … --out model.json``, fitted
with its quit model) through the campaign in order and prints, per level, the share of players
who reach it, first-try success, attempts per clear and the share who stop there, each with its
95 % interval (parameter draws and Monte-Carlo noise), then where most players leave. ``--out``
writes the same table as CSV (atomic). ``CAMPAIGN`` takes level files, campaign files, JSON
lists of levels or folders; a level the model has no data for is predicted from its parts.
"""

from __future__ import annotations

import argparse
from typing import Any

from labkit import _args as A


def register_funnel_commands(puzzle_subparsers: Any) -> None:
    """Add ``funnel`` to the ``labkit puzzle`` sub-command group."""
    cmd = puzzle_subparsers.add_parser(
        "funnel", help="predict where players stop in a campaign (reach, quit rate per level)"
    )
    cmd.add_argument("campaign", nargs="+", metavar="CAMPAIGN",
                     help="campaign/level files or folders, in play order")  # fmt: skip
    cmd.add_argument("model", metavar="MODEL", help="skill model JSON with a quit model")
    cmd.add_argument("--players", type=A.int_range(1, 1_000_000), default=10_000, metavar="N",
                     help="players per cohort (1-1000000, default 10000)")  # fmt: skip
    cmd.add_argument("--draws", type=A.int_range(1, 1000), default=50, metavar="D",
                     help="cohorts, each its own draw of the fit (1-1000, default 50)")  # fmt: skip
    cmd.add_argument("--seed", type=A.int_range(0, 2**63 - 1), default=0, metavar="S")
    cmd.add_argument("--out", type=A.out_file, metavar="FILE", help="write the funnel as CSV")
    cmd.set_defaults(func=_funnel)


def _funnel(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.cli.calibration import load_levels
    from labkit.hexpuzzle.difficulty.skill import SkillModel
    from labkit.hexpuzzle.playthrough.model import funnel

    model = SkillModel.load(args.model)
    levels = load_levels(args.campaign)
    f = funnel(levels, model, players=args.players, draws=args.draws, rng=args.seed)
    print(f"{len(levels)} levels, {args.draws} cohorts of {args.players} players "
          f"(95 % intervals: the fit's uncertainty and Monte-Carlo noise)")  # fmt: skip
    print(f"{'#':>3}  {'level':<18}{'reach':>15}{'first try':>16}{'attempts/clear':>17}"
          f"{'stop here':>15}")  # fmt: skip
    for r in f.rows():
        print(f"{r['position']:>3}  {r['level']:<18}"
              f"{_pct(r, 'reach'):>15}{_pct(r, 'first_try'):>16}"
              f"{_num(r, 'attempts_per_clear'):>17}{_pct(r, 'quit_hazard'):>15}")  # fmt: skip
    exits = ", ".join(f"{lid} ({share:.0%} of all players)" for lid, share in f.exits(3))
    print(f"most players leave at {exits}; {f.finished:.0%} clear the last level")
    if args.out:
        f.save(args.out)
        print(f"wrote {args.out}")
    return 0


def _pct(row: dict, name: str) -> str:
    v, lo, hi = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if v != v:  # NaN: nobody got this far
        return "-"
    return f"{v:.0%} ({lo:.0%}-{hi:.0%})"


def _num(row: dict, name: str) -> str:
    v, lo, hi = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if v != v:
        return "-"
    return f"{v:.2f} ({lo:.2f}-{hi:.2f})"
