"""``labkit puzzle funnel CAMPAIGN MODEL [--players N] [--draws D] [--attempts K] [--out F]``.

Plays the population of a fitted skill model (``labkit puzzle skill … --out model.json``, fitted
with its quit model) through the campaign in order and prints, per level, the share of players
who reach it, first-try success, attempts per clear and the share who stop there, each with its
95 % interval (parameter draws and Monte-Carlo noise), then where most players leave. ``--out``
writes the same table as CSV (atomic). ``CAMPAIGN`` takes level files, campaign files, JSON
lists of levels or folders; a level the model has no data for is predicted from its parts.

Any level-based game (issue 49): ``--features FILE.csv`` in place of ``CAMPAIGN`` gives the
campaign as the rows of a CSV in play order (a ``level`` column, one numeric column per feature,
as for ``labkit puzzle skill --features``) for a model fitted with such a file; a level the
model has no data for is predicted from its row. The file is checked before the model is read,
every refusal one line naming the file, the level and the column.

Players get as many attempts per level as the model's data allowed (recorded in the model
file; 3 for a file that does not record it); ``--attempts K`` plays another cap. Where the
model file keeps what its players did, every level is checked against it: a level whose band
the data disagree with is widened and marked ``data disagree`` (see
:mod:`labkit.hexpuzzle.playthrough.model`).
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
    cmd.add_argument("campaign", nargs="*", metavar="CAMPAIGN",
                     help="campaign/level files or folders, in play order (none with "
                          "--features)")  # fmt: skip
    cmd.add_argument("model", metavar="MODEL", help="skill model JSON with a quit model")
    cmd.add_argument("--players", type=A.int_range(1, 1_000_000), default=10_000, metavar="N",
                     help="players per cohort (1-1000000, default 10000)")  # fmt: skip
    cmd.add_argument("--draws", type=A.int_range(1, 1000), default=50, metavar="D",
                     help="cohorts, each its own draw of the fit (1-1000, default 50)")  # fmt: skip
    cmd.add_argument("--attempts", type=A.int_range(1, 100), default=None, metavar="K",
                     help="attempts per level (1-100; default: the cap the model's data "
                          "allowed, 3 if the model file does not record it)")  # fmt: skip
    cmd.add_argument("--seed", type=A.int_range(0, 2**63 - 1), default=0, metavar="S")
    cmd.add_argument("--out", type=A.out_file_as(".csv"), metavar="FILE",
                     help="write the funnel as CSV")  # fmt: skip
    cmd.add_argument("--features", metavar="FILE.csv", default=None,
                     help="levels of any game: a CSV with a 'level' column and numeric feature "
                     "columns, its rows the campaign in play order, in place of "
                     "CAMPAIGN")  # fmt: skip
    cmd.set_defaults(func=_funnel)


def _funnel(args: argparse.Namespace) -> int:
    from labkit import ArgumentError
    from labkit._text import terminal_text
    from labkit.hexpuzzle.cli.calibration import load_levels, read_features
    from labkit.hexpuzzle.difficulty.skill import SkillModel
    from labkit.hexpuzzle.playthrough.model import funnel

    features = None
    if args.features is not None:  # checked before the model is read
        if args.campaign:
            raise ArgumentError("the levels are the feature file's rows: give no CAMPAIGN with "
                                "--features", argument="CAMPAIGN",
                                value=args.campaign[0])  # fmt: skip
        levels, features = read_features(args.features)
    elif not args.campaign:
        raise ArgumentError("give level files, campaign files or folders (or --features "
                            "FILE.csv for another game's levels)", argument="CAMPAIGN")  # fmt: skip
    model = SkillModel.load(args.model)
    if features is None:
        levels = load_levels(args.campaign)
    # funnel checks the table against the model (its columns, a row per new level), one line
    f = funnel(levels, model, players=args.players, draws=args.draws, rng=args.seed,
               max_attempts=args.attempts, features=features)  # fmt: skip
    k = args.attempts or model.max_attempts
    cap = f"{k} attempts per level" if k else "3 attempts per level (the model file has no cap)"
    print(f"{len(levels)} levels, {args.draws} cohorts of {args.players} players, "
          f"{cap} (95 % intervals: the fit's uncertainty and Monte-Carlo "
          f"noise{', widened where the data disagree' if f.check else ''})")  # fmt: skip
    print(f"{'#':>3}  {'level':<18}{'reach':>15}{'first try':>16}{'attempts/clear':>17}"
          f"{'stop here':>15}{'  check' if f.check else ''}")  # fmt: skip
    for r in f.rows():
        mark = "  " + _mark(str(r["check"])) if f.check else ""
        print(f"{r['position']:>3}  {terminal_text(r['level']):<18}"
              f"{_pct(r, 'reach'):>15}{_pct(r, 'first_try'):>16}"
              f"{_num(r, 'attempts_per_clear'):>17}{_pct(r, 'quit_hazard'):>15}{mark}")  # fmt: skip
    # level ids come from files: control characters shown as escapes, never sent raw
    exits = ", ".join(f"{terminal_text(lid)} ({share:.0%} of all players)"
                      for lid, share in f.exits(3))  # fmt: skip
    print(f"most players leave at {exits}; {f.finished:.0%} clear the last level")
    if args.out:
        f.save(args.out)
        print(f"wrote {args.out}")
    return 0


def _mark(check: str) -> str:
    """The check, short for a terminal column."""
    from labkit.hexpuzzle.playthrough.model import CHECK

    return {CHECK["fits"]: "ok", CHECK["misses"]: "data disagree"}.get(check, "-")


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
