"""Regenerate ``data/telemetry/sample.csv``: simulated players on the 24-level campaign.

Usage: ``python scripts/make_telemetry.py [--seed S] [--players N] [--out FILE]``. Three groups
of ``N`` players (novice, regular, expert;
:data:`labkit.hexpuzzle.difficulty.players.SKILL_GROUPS`) play
every campaign level, up to three attempts each. The output depends only on the seed, the
campaign file and ``labkit.hexpuzzle.difficulty.players``: running it again reproduces it byte for
byte.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from labkit.hexpuzzle.cli.calibration import write_simulated_telemetry
from labkit.hexpuzzle.shipped_campaign import campaign

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "telemetry" / "sample.csv"
SEED = 20260309


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--players", type=int, default=30, help="players per skill group")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    levels = campaign()
    attempts, players = write_simulated_telemetry(
        args.out,
        levels,
        args.players,
        args.seed,
        notes=["levels: data/levels/campaign.json", "made by scripts/make_telemetry.py"],
    )
    print(
        f"wrote {args.out}: {attempts} attempts by {players} players on {len(levels)} "
        f"levels, {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
