"""Telemetry at scale (issue 31), one command: ``python -m benchmarks --only "telemetry at scale"``.

10^7 attempts (850,000 players, 60 levels) are simulated from a known skill world into a folder
of Parquet parts under ``build/telemetry-scale/`` (made on demand, never shipped; kept as a
cache), then, each in a fresh process so its peak memory is its own: the dataset loaded
(``Telemetry.load``), the skill model fitted (and checked against the truth: a median player's
success per level), ``LevelRatings.update`` over every row, and the funnel predicted from that
same model (against the players' observed reach); and 10^6 rows loaded from CSV (made with
numpy). Beside it, a progression table's shape (issue 49): 10^7 attempts by 290,000 players who
go far (about 35 attempts each), retry and quit (``progression`` in ``benchmarks.telemetry_scale``:
fewer alike histories for the fit to collapse: 288,000 players are 173,000 histories),
simulated and fitted the same way.
Rows: seconds (wall), with rows/s, CPU seconds and peak resident memory in the notes.
``LABKIT_TELEMETRY_ROWS`` sets the size (default 10^7).
"""

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


def _row(name: str, r: dict, seconds_key: str, extra: str = "") -> Row:
    cpu = r[seconds_key.replace("_s", "_cpu_s")]
    notes = f"{r['rows']:,} rows, {r['rows_per_s']:,} rows/s, {cpu} s CPU, peak {r['peak_mb']} MB"
    return Row(name, r[seconds_key], None, "-", None, notes + extra, r)


def _truth(fit: dict) -> str:
    """The fit against its world's truth, and issue 31's target at 10^7 rows, in words."""
    said = (f"; median player's success vs truth: max error {fit['success_error_max']}, "
            f"mean {fit['success_error_mean']}; ability sd {fit['ability_sd']} "
            f"(true {fit['ability_sd_true']})")  # fmt: skip
    if fit["rows"] >= 9_900_000:  # issues 31, 49: under 60 s and 2 GB on this machine
        met = fit["fit_s"] < 60 and fit["peak_mb"] < 2048
        said += f"; target (fit < 60 s, peak < 2,048 MB): {'met' if met else 'NOT met'}"
    return said


@benchmark("telemetry at scale")
def bench_telemetry_scale() -> list[Row]:
    rows = int(os.environ.get("LABKIT_TELEMETRY_ROWS", "10000000"))
    folder = ROOT / "build" / "telemetry-scale" / str(rows)
    sim = _run("simulate", str(rows), str(folder))
    load = _run("load", str(folder))
    fit = _run("fit", str(folder))
    rate = _run("rate", str(folder))
    fun = _run("funnel", str(folder))
    far = ROOT / "build" / "telemetry-scale" / f"progression-{rows}"
    far_sim = _run("simulate", str(rows), str(far), "progression")
    far_fit = _run("fit", str(far))
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "t.csv"
        _run("make", "1000000", str(csv))
        load_csv = _run("load", str(csv))
    truth, far_truth = _truth(fit), _truth(far_fit)
    return [
        _row("simulate_telemetry (telemetry_from_skill)", sim, "sim_s",
             "" if sim.get("sim_s", 0) > 1 else " (cached)"),
        _row("Telemetry.load (Parquet dataset)", load, "load_s"),
        _row("fit_skill_model (dropout=model)", fit, "fit_s",
             f" (process, with loading: {fit['load_s']} s); during the fit "
             f"{fit['fit_peak_mb']} MB, of which {fit['before_fit_mb']} MB before it (the "
             f"process {fit['baseline_mb']} MB, the loaded rows "
             f"{fit['loaded_mb'] - fit['baseline_mb']} MB); {fit['players']:,} players{truth}"),
        _row("simulate_telemetry, progression shape", far_sim, "sim_s",
             "" if far_sim.get("sim_s", 0) > 1 else " (cached)"),
        _row("fit_skill_model (dropout=model), progression shape", far_fit, "fit_s",
             f" (with loading: {far_fit['load_s']} s); during the fit {far_fit['fit_peak_mb']} "
             f"MB, of which {far_fit['before_fit_mb']} MB before it; "
             f"{far_fit['players']:,} players{far_truth}"),
        _row("LevelRatings.update", rate, "rate_s"),
        _row("funnel from the fitted model", fun, "funnel_s",
             f"; 10 cohorts x 100,000 players; reach vs observed: max gap {fun['reach_gap_max']}"),
        _row("Telemetry.load 10^6 rows (CSV)", load_csv, "load_s"),
    ]  # fmt: skip
