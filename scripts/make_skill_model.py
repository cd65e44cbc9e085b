"""Regenerate ``data/telemetry/progression.csv`` and the shipped ``skill_model.json``.

Usage: ``python scripts/make_skill_model.py [--seed S] [--players N]``. ``N`` simulated players
(skills uniform in [0, 1]; ids ``q000…``) play the campaign in order and quit after runs of
first-try failures (:func:`labkit.hexpuzzle.simulate_telemetry`, ``mode="progression"``). The
skill model is then fitted to that telemetry and ``sample.csv`` together with the settings held-out
evidence chose (issue 25: quitting modelled jointly with skill, retries with a learning step, one
discrimination for all levels — :data:`labkit.hexpuzzle.difficulty.skill.DEFAULTS`) and saved.
Running it again reproduces both files byte for byte.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import labkit
from labkit.hexpuzzle import (
    campaign,
    fit_skill_model,
    load_telemetry,
    make_players,
    save_telemetry,
    simulate_telemetry,
)
from labkit.hexpuzzle.difficulty.skill import DEFAULTS

DATA = Path(__file__).resolve().parents[1] / "data" / "telemetry"
SEED = 20261130


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--players", type=int, default=300)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    levels = campaign()
    players = make_players(args.players, rng=args.seed, prefix="q")
    table = simulate_telemetry(levels, players, rng=args.seed, mode="progression", progress=True)
    save_telemetry(
        DATA / "progression.csv",
        table,
        comments=[
            "simulated players (labkit.hexpuzzle.difficulty.players), not real player data",
            f"labkit {labkit.__version__}; seed {args.seed}; {args.players} players, skills "
            "uniform in [0, 1]; progression mode (levels in order, quitting after failures)",
            "levels: data/levels/campaign.json",
            "made by scripts/make_skill_model.py",
        ],
    )
    both = np.concatenate([load_telemetry(DATA / "sample.csv", frame=False), table])
    model = fit_skill_model(both, levels, **DEFAULTS)
    model.save(DATA / "skill_model.json")
    print(model.describe())
    print(f"wrote progression.csv ({len(table)} attempts) and skill_model.json ({model!r}), "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
