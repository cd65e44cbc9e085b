"""Regenerate ``data/levels/campaign.json``, the 24-level main line (rule H8).

Usage: ``python scripts/make_campaign.py [--seed S] [--out FILE]``. The output depends only on the
seed and ``labkit.hexpuzzle.shipped_campaign``: running it again reproduces the file byte for byte.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from labkit.hexpuzzle.shipped_campaign import SEED, build, save

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "levels" / "campaign.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    doc = build(args.seed)
    save(args.out, doc)
    totals = [entry["score"]["total"] for entry in doc["levels"]]
    print(
        f"wrote {args.out}: {len(totals)} levels, scores {min(totals)}-{max(totals)}, "
        f"{time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
