"""Telemetry at scale (issue 31): loading 10^7 attempts from Parquet and 10^6 from CSV, and
``LevelRatings.update`` over 10^7 rows (target >= 500,000 rows/s), each in a fresh process so
its peak memory is its own. The tables are made with numpy (``benchmarks/telemetry_scale.py``),
not simulated. Rows: seconds (wall), rows/s, CPU seconds and peak resident memory in notes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import Row, benchmark

ROOT = Path(__file__).resolve().parents[1]


def _run(*argv: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "benchmarks.telemetry_scale", *argv], env=env,
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1]) if out.strip() else {}


def _row(name: str, r: dict, seconds_key: str, target: float | None = None) -> Row:
    notes = (f"{r['rows']:,} rows, {r['rows_per_s']:,} rows/s, "
             f"{r[seconds_key.replace('_s', '_cpu_s')]} s CPU, peak {r['peak_mb']} MB")  # fmt: skip
    return Row(name, r[seconds_key], None, "-", target, notes, r)


@benchmark("telemetry at scale")
def bench_telemetry_scale() -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        parquet, csv = Path(folder) / "t.parquet", Path(folder) / "t.csv"
        _run("make", "10000000", str(parquet))
        _run("make", "1000000", str(csv))
        rate = _run("rate", str(parquet))
        load = _run("load", str(csv))
    return [
        _row("Telemetry.load 10^7 rows (Parquet)", rate, "load_s"),
        _row("LevelRatings.update 10^7 rows", rate, "rate_s"),
        _row("Telemetry.load 10^6 rows (CSV)", load, "load_s"),
    ]
