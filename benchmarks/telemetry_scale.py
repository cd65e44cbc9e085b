"""Synthetic telemetry at scale, made with numpy directly (no game simulated), and a runner that
loads or rates it in a fresh process and reports seconds and peak memory.

``python -m benchmarks.telemetry_scale make ROWS PATH`` writes ``ROWS`` attempts (a tenth as
many players, 60 levels, 10 levels each, first attempts plus one retry in eight) as Parquet
(``.parquet``), a Parquet folder (no suffix) or CSV (``.csv``);
``python -m benchmarks.telemetry_scale load PATH`` / ``rate PATH`` print one JSON line:
rows, seconds, rows/s and peak resident memory (MB) of that process.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

import numpy as np


def columns(rows: int, seed: int = 0) -> dict:
    """The ten telemetry columns as Arrow arrays: ids dictionary-built, numbers from numpy."""
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    i = np.arange(rows, dtype=np.int64)
    player = i // 10
    slot = i % 10
    level = (player * 7 + slot - (slot >= 8)) % 60  # slots 8, 9 retry the level of slot 7, 8
    attempt = np.where(slot >= 8, 2, 1).astype(np.int64)
    won = rng.random(rows) < 0.6
    n_players = int(player.max()) + 1 if rows else 0
    names = pa.array([f"p{k:07d}" for k in range(n_players)])
    levels = pa.array([f"L{k:02d}" for k in range(60)])
    text = lambda idx, words: pa.DictionaryArray.from_arrays(  # noqa: E731
        pa.array(idx.astype(np.int32)), words
    ).cast(pa.string())
    return {
        "level": text(level, levels), "player": text(player, names), "attempt": pa.array(attempt),
        "first_try": pa.array(won & (attempt == 1)), "collisions": pa.array(rng.poisson(1.0, rows)),
        "hints": pa.array(rng.poisson(0.3, rows)), "rotations": pa.array(rng.poisson(4.0, rows)),
        "undos": pa.array(rng.poisson(0.5, rows)),
        "seconds": pa.array(np.round(rng.gamma(2.0, 20.0, rows), 2)), "won": pa.array(won),
    }  # fmt: skip


def make(rows: int, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    table = pa.table(columns(rows))
    if path.suffix == ".parquet":
        pq.write_table(table, path, row_group_size=1 << 20)
    elif path.suffix == ".csv":
        cast = pa.table({n: (c.cast(pa.int8()) if pa.types.is_boolean(c.type) else c)
                         for n, c in zip(table.column_names, table.columns)})  # fmt: skip
        pcsv.write_csv(cast, path, pcsv.WriteOptions(quoting_style="none"))
    else:
        path.mkdir(parents=True, exist_ok=True)
        step = max(1, rows // 8)
        for k in range(0, rows, step):
            pq.write_table(table.slice(k, step), path / f"part-{k // step:03d}.parquet")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(what: str, path: Path) -> dict:
    from labkit.hexpuzzle import LevelRatings, Telemetry

    base = _peak_mb()
    start, cpu = time.perf_counter(), time.process_time()
    tel = Telemetry.load(path, max_rows=50_000_000)
    seconds = time.perf_counter() - start
    out = {"what": what, "rows": len(tel), "load_s": round(seconds, 2),
           "load_cpu_s": round(time.process_time() - cpu, 2)}  # fmt: skip
    if what == "rate":
        LevelRatings().update(tel.table[:100])  # compile/load the kernel outside the timing
        start, cpu = time.perf_counter(), time.process_time()
        LevelRatings().update(tel)
        seconds = time.perf_counter() - start
        out["rate_s"] = round(seconds, 2)
        out["rate_cpu_s"] = round(time.process_time() - cpu, 2)
    out["rows_per_s"] = round(len(tel) / seconds)
    out["peak_mb"] = round(_peak_mb())
    out["baseline_mb"] = round(base)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        print(json.dumps(run(sys.argv[1], Path(sys.argv[2]))))
