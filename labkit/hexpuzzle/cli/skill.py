"""``labkit puzzle skill TELEMETRY LEVELS [--out model.json]``: fit and report the skill model.

Prints the held-out report (k-fold by player: log-loss, Brier and Spearman beside the structural
score and the calibrate index) and the levels by fitted difficulty; ``--out`` saves the model as
JSON (atomic). ``LEVELS`` takes level files, campaign files, JSON lists of levels or folders.

Any level-based game (issue 49): ``--features FILE.csv`` in place of ``LEVELS`` gives the levels
as a CSV, a ``level`` column (the ids the telemetry uses, in campaign order) and one numeric
column per feature (board size, enemy count, par time, ...); difficulty is explained by those
features instead of the hex puzzle's parts. The file is checked before any work, every refusal
one line naming the file, the level and the column. The held-out report compares with the hex
puzzle's own telemetry columns (collisions, hints, seconds): without them it is left out (an
explicit ``--folds`` is refused before the fit).
"""

from __future__ import annotations

import argparse
from typing import Any

from labkit import _args as A

#: Most held-out folds (each is a whole fit of the model).
MAX_FOLDS = 20
#: Held-out folds unless told (none where the telemetry lacks :data:`REPORT_COLUMNS`).
DEFAULT_FOLDS = 5
#: The telemetry columns the held-out report compares with (the hex puzzle's own).
REPORT_COLUMNS = ("collisions", "hints", "seconds")


def register_skill_commands(puzzle_subparsers: Any) -> None:
    """Add ``skill`` to the ``labkit puzzle`` sub-command group."""
    cmd = puzzle_subparsers.add_parser(
        "skill", help="fit the player-skill model (Rasch + parts) to telemetry and report it"
    )
    cmd.add_argument("telemetry", metavar="TELEMETRY", help="telemetry CSV")
    cmd.add_argument("levels", nargs="*", metavar="LEVELS",
                     help="level/campaign files, folders (none with --features)")  # fmt: skip
    cmd.add_argument("--out", type=A.out_file_as(".json"), metavar="FILE",
                     help="save the model as JSON")  # fmt: skip
    cmd.add_argument("--folds", type=A.int_range(0, MAX_FOLDS), default=None, metavar="K",
                     help=f"held-out folds (default 5; 0: none; at most {MAX_FOLDS})")  # fmt: skip
    cmd.add_argument("--no-features", action="store_true", help="rate levels without the parts")
    cmd.add_argument("--features", metavar="FILE.csv", default=None,
                     help="levels of any game: a CSV with a 'level' column and numeric feature "
                     "columns, in place of LEVELS")  # fmt: skip
    cmd.add_argument(
        "--dropout",
        choices=("model", "ignore"),
        default="model",
        help="model quitting jointly with skill (default) or ignore it",
    )
    cmd.add_argument(
        "--impossible",
        choices=("refuse", "count"),
        default="refuse",
        help="rows that cannot be true (an attempt after a win, a gap in attempt numbers): "
        "refuse the file naming the first (default), or keep and count them",
    )
    cmd.set_defaults(func=_skill)


def _skill(args: argparse.Namespace) -> int:
    from labkit import ArgumentError
    from labkit._text import terminal_text
    from labkit.hexpuzzle.cli.calibration import load_levels, read_features
    from labkit.hexpuzzle.difficulty.skill import fit_skill_model
    from labkit.hexpuzzle.difficulty.telemetry import load_telemetry

    explicit = args.folds is not None
    folds = args.folds if explicit else DEFAULT_FOLDS
    if folds == 1 or folds < 0:
        raise ArgumentError("must be 0 (no report) or >= 2", argument="--folds", value=folds)
    features: Any = not args.no_features
    if args.features is not None:  # checked before the telemetry is read
        if args.no_features:
            raise ArgumentError("cannot go with --no-features", argument="--features",
                                value=args.features)  # fmt: skip
        if args.levels:
            raise ArgumentError("the levels are the feature file's rows: give no LEVELS with "
                                "--features", argument="LEVELS", value=args.levels[0])  # fmt: skip
        ids, features = read_features(args.features)
    elif not args.levels:
        raise ArgumentError("give level files, campaign files or folders (or --features "
                            "FILE.csv for another game's levels)", argument="LEVELS")  # fmt: skip
    table = load_telemetry(args.telemetry, frame=False, impossible=args.impossible)
    lacking = [c for c in REPORT_COLUMNS if c not in (table.dtype.names or ())]
    if lacking and folds:
        if explicit:  # asked for: refused before the fit, not after it
            raise ArgumentError(f"the held-out report needs the telemetry's {lacking[0]!r} "
                                "column (the hex puzzle's own); use --folds 0",
                                argument="--folds", value=folds)  # fmt: skip
        folds = 0
        print(f"no held-out report: the telemetry has no {lacking[0]!r} column")
    players = len(set(table["player"].tolist()))
    if folds > players:  # each fold is a whole fit: more folds than players hold nothing
        raise ArgumentError(f"must be at most the {players} players of the telemetry",
                            argument="--folds", value=folds)  # fmt: skip
    model = fit_skill_model(
        table,
        ids if args.features is not None else load_levels(args.levels),
        features=features,
        dropout=args.dropout,
        impossible=args.impossible,
    )
    info = model.fit_info
    # every line may hold level ids from the files: control and bidi characters shown visibly
    print(terminal_text(f"{model!r}: {info['rows']} attempts ({info['ignored_rows']} of other "
                        "levels)"))  # fmt: skip
    print(terminal_text(model.describe()))
    if model.weights:
        print("weights (logits at full strength): "
              + ", ".join(f"{k} {v:+.2f}" for k, v in model.weights.items())
              + f"; residual sd {model.residual_sd:.2f}")  # fmt: skip
    if folds:
        print(terminal_text(model.report(folds=folds)))
    print()
    print(
        f"{'level':<16}{'beta':>7}  {'95 % interval':<17}{'n':>6}{'success':>9}{'score':>6}  band"
    )
    rows = model.table()
    for row in sorted(rows, key=lambda r: (r["difficulty"] is None, r["difficulty"] or 0.0)):
        if row["difficulty"] is None:  # nobody played it and no parts predict it
            name = terminal_text(row["level"])
            print(f"{name:<16}{'-':>7}  {'nobody played it':<17}{row['n']:>6}")
            continue
        print(f"{terminal_text(row['level']):<16}{row['difficulty']:>+7.2f}  [{row['low']:+.2f}, "
              f"{row['high']:+.2f}]{row['n']:>7}{row['success']:>9.2f}{row['score']:>6}  "
              f"{row['band']}")  # fmt: skip
    if args.out:
        model.save(args.out)
        print(terminal_text(f"wrote {args.out}"))
    return 0
