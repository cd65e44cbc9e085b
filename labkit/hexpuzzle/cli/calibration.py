"""``labkit puzzle telemetry`` and ``labkit puzzle calibrate``: simulated players and calibration.

* ``labkit puzzle telemetry --out FILE [--levels FILE…] [--players N] [--seed S] [--mode M]``
  simulates ``N`` players per skill group (novice, regular, expert) on the levels (default: the
  shipped campaign) and writes the telemetry CSV; ``--mode progression`` has them play the
  levels in order and quit after runs of failures.
* ``labkit puzzle calibrate TELEMETRY [--levels FILE…] [--boot B] [--seed S] [--json OUT]``
  fits the score's part weights and band edges to a telemetry CSV and prints the fit report
  and the re-ranked levels.

``--levels`` takes level files, campaign files, JSON lists of levels or folders of level files.
:func:`load_levels` and :func:`read_features` (a CSV of any game's levels) are how every
``puzzle`` command that takes levels reads them (``skill``, ``funnel``).
The lead wires these into the ``puzzle`` group with :func:`register_calibration_commands`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from labkit import _args as A


def register_calibration_commands(puzzle_subparsers: Any) -> None:
    """Add ``telemetry`` and ``calibrate`` to the ``labkit puzzle`` sub-command group."""
    tele = puzzle_subparsers.add_parser(
        "telemetry", help="simulate players on levels and write telemetry CSV"
    )
    tele.add_argument("--out", type=A.out_file_as(".csv"), required=True, metavar="FILE",
                      help="CSV file to write")  # fmt: skip
    tele.add_argument("--levels", nargs="+", metavar="FILE", help="default: the campaign")
    tele.add_argument("--players", type=A.int_range(1, 100_000), default=30, metavar="N",
                      help="per skill group (1-100000)")  # fmt: skip
    tele.add_argument("--seed", type=A.seed, default=0, metavar="S")
    tele.add_argument(
        "--mode",
        choices=["all", "progression"],
        default="all",
        help="progression: levels in order, players quit after runs of failures",
    )
    tele.set_defaults(func=_telemetry)

    cal = puzzle_subparsers.add_parser(
        "calibrate", help="fit the difficulty weights and bands to telemetry (rule H9)"
    )
    cal.add_argument("telemetry", metavar="TELEMETRY", help="telemetry CSV")
    cal.add_argument("--levels", nargs="+", metavar="FILE", help="default: the campaign")
    cal.add_argument("--boot", type=A.int_range(1, 100_000), default=300, metavar="B",
                     help="bootstrap resamples (1-100000)")  # fmt: skip
    cal.add_argument("--seed", type=A.seed, default=0, metavar="S", help="bootstrap seed")
    cal.add_argument("--json", type=A.out_file_as(".json"), metavar="OUT",
                     help="also write the result as JSON")  # fmt: skip
    cal.set_defaults(func=_calibrate)


def load_levels(paths: list[str] | None) -> list:
    """Levels from files, campaign files, lists of levels or folders (default: the campaign)."""
    from labkit.hexpuzzle.cli.solver import read_levels
    from labkit.hexpuzzle.level import Level
    from labkit.hexpuzzle.shipped_campaign import campaign

    if not paths:
        return campaign()
    out = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            out += [Level.load(f) for f in sorted(p.glob("*.json")) if f.name != "campaign.json"]
        else:
            out += read_levels(str(p))
    return out


def read_features(path: str) -> tuple[list[str], Any]:
    """``(level ids in file order, feature table)`` of a CSV with a ``level`` column and
    numeric feature columns, checked whole (:func:`.level_features.feature_table`); each
    refusal is one line naming the file, and the level and column where there is one.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "levels.csv")
    >>> _ = open(path, "w").write("level,enemies,par_time\\na,3,60\\nb,x,95.5\\n")
    >>> read_features(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: --features ...: level 'b', column 'enemies': must be a number (got 'x')
    """
    import numpy as np
    import pandas as pd

    from labkit import ArgumentError
    from labkit.hexpuzzle.difficulty.level_features import feature_table

    where = f"--features {path}"
    if not os.path.isfile(path):
        raise ArgumentError("no such file", argument=where)
    try:
        frame = pd.read_csv(path, dtype={"level": str}, keep_default_na=False,
                            na_values=[""])  # fmt: skip
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ArgumentError(f"not a readable CSV ({first})", argument=where) from None
    if "level" not in frame.columns:
        raise ArgumentError("has no 'level' column (one row per level id)", argument=where)
    levels = frame["level"]
    empty = np.flatnonzero(levels.isna().to_numpy())
    if empty.size:  # the header is line 1
        raise ArgumentError(f"line {int(empty[0]) + 2}: the level is empty", argument=where)
    ids = [str(v) for v in levels]
    frame = frame.assign(level=ids).set_index("level")
    for name in frame.columns:  # a column with a text cell is read as texts: name that cell
        column = frame[name]
        if column.dtype.kind == "O":
            numbers = pd.to_numeric(column, errors="coerce")
            bad = np.flatnonzero(numbers.isna().to_numpy() & column.notna().to_numpy())
            if bad.size:
                k = int(bad[0])
                raise ArgumentError(f"level {ids[k]!r}, column {name!r}: must be a number",
                                    argument=where, value=column.iloc[k])  # fmt: skip
            frame[name] = numbers
    feature_table(frame, ids, argument=where)
    return ids, frame


def write_simulated_telemetry(
    out: str | Path,
    levels: list,
    players_per_group: int,
    seed: int,
    notes: Sequence[str] = (),
    mode: str = "all",
) -> tuple[int, int]:
    """Simulate three skill groups on ``levels`` and save the CSV; (attempts, players)."""
    import labkit
    from labkit.hexpuzzle.difficulty.players import simulate_telemetry, skill_groups
    from labkit.hexpuzzle.difficulty.telemetry import save_telemetry

    players = skill_groups(players_per_group, rng=seed)
    table = simulate_telemetry(levels, players, rng=seed, progress=True, mode=mode)
    save_telemetry(
        out,
        table,
        comments=[
            "simulated players (labkit.hexpuzzle.difficulty.players), not real player data",
            f"labkit {labkit.__version__}; seed {seed}; {players_per_group} players per group "
            "(novice, regular, expert)" + ("" if mode == "all" else f"; {mode} mode"),
            *notes,
        ],
    )
    return len(table), len(players)


def _telemetry(args: argparse.Namespace) -> int:
    levels = load_levels(args.levels)
    attempts, players = write_simulated_telemetry(
        args.out, levels, args.players, args.seed, mode=args.mode
    )
    print(f"wrote {args.out}: {attempts} attempts, {players} players, {len(levels)} levels")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from labkit.hexpuzzle.difficulty.fit import calibrate
    from labkit.hexpuzzle.difficulty.telemetry import load_telemetry

    table = load_telemetry(args.telemetry, frame=False)
    levels = load_levels(args.levels)
    cal = calibrate(table, levels, n_boot=args.boot, rng=args.seed)
    print(cal.report())
    print()
    print(f"{'rank':>4} {'was':>4}  {'level':<14}{'score':>6}  {'band':<13}{'old':>4}  observed")
    for row in cal.ranking():
        print(
            f"{row['rank']:>4} {row['old_rank']:>4}  {row['id']:<14}{_s(row['score']):>6}  "
            f"{row['band'] or '-':<13}{_s(row['original']):>4}  {_s(row['observed'])}"
        )
    if args.json:
        cal.save(args.json)
        print(f"wrote {args.json}")
    return 0


def _s(value: Any) -> str:
    return "-" if value is None else str(value)


def _main(argv: list[str] | None = None) -> int:  # for trying the commands before wiring
    parser = argparse.ArgumentParser(prog="labkit puzzle")
    register_calibration_commands(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(_main())
