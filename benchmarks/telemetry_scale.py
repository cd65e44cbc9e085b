"""Synthetic telemetry at scale, made with numpy directly (no game simulated), and a runner that
loads or rates it in a fresh process and reports seconds and peak memory.

``python -m benchmarks.telemetry_scale make ROWS PATH`` writes ``ROWS`` attempts (a tenth as
many players, 60 levels, 10 levels each, first attempts plus one retry in eight) as Parquet
(``.parquet``), a Parquet folder (no suffix) or CSV (``.csv``);
``python -m benchmarks.telemetry_scale load PATH`` / ``rate PATH`` print one JSON line:
rows, seconds, rows/s and peak resident memory (MB) of that process.

``simulate ROWS FOLDER [WORLD]`` draws about ``ROWS`` attempts from a known skill world instead
(60 levels, players quitting more when weaker: :data:`WORLDS`, ``quit-early`` by default, or
``progression``: players who go far, retry and quit) as a folder of Parquet parts, with the
truth in ``truth.npz``; ``fit FOLDER`` loads it, fits the skill model (saved as
``model.json``) and checks it against the truth; ``funnel FOLDER`` predicts the funnel from
that model and compares it with the players' observed reach.
"""

from __future__ import annotations

import gc
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
    # slots 8 and 9 retry the level of slot 7 (attempts 2 and 3), which slots 7 and 8 lost:
    # possible telemetry (no attempt after a win, no gap), as the loaders insist (issue 46)
    level = (player * 7 + np.minimum(slot, 7)) % 60
    attempt = (1 + np.maximum(slot - 7, 0)).astype(np.int64)
    won = (rng.random(rows) < 0.6) & ~((slot == 7) | (slot == 8))
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


#: The simulated world: about 11.8 attempts per player, so 10^7 attempts are 850,000 players.
WORLD = {"levels": 60, "beta_mean": 1.0, "beta_sd": 1.2, "ability_sd": 1.5,
         "per_player": 11.76, "max_attempts": 3, "learning": 0.5, "quit_ability": 1.0,
         "quit_rate": 0.5}  # fmt: skip
#: A progression table's shape (issue 49): the same levels and players, but quitting a fifth as
#: often, so players go far (about 35 attempts each) and fewer histories repeat (288,000 players
#: are 173,000 distinct histories for the fit): 10^7 attempts are 290,000 players.
PROGRESSION = {**WORLD, "beta_mean": 0.0, "per_player": 34.67, "quit_rate": 0.1}
WORLDS = {"quit-early": WORLD, "progression": PROGRESSION}
PIECE = 100_000  # players simulated (and written) at a time


def simulate(rows: int, folder: Path, world: str = "quit-early") -> dict:
    """The simulated dataset (skipped when ``folder`` already holds it: a build/ cache)."""
    import pyarrow.parquet as pq

    from labkit.hexpuzzle import telemetry_from_skill

    start, cpu = time.perf_counter(), time.process_time()
    done = folder / "truth.npz"
    w = WORLDS[world]
    players = round(rows / w["per_player"])
    gen = np.random.default_rng(0)
    ids = [f"L{i:03d}" for i in range(w["levels"])]
    beta = np.sort(gen.normal(w["beta_mean"], w["beta_sd"], w["levels"]))
    theta = gen.normal(0, w["ability_sd"], players)
    made = 0
    if not done.exists() or int(np.load(done)["players"]) != players:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("part-*.parquet"):
            old.unlink()
        for k, a in enumerate(range(0, players, PIECE)):
            t = telemetry_from_skill(
                ids, beta, theta[a : a + PIECE], rng=1000 + k, prefix=f"p{k:03d}-",
                max_attempts=w["max_attempts"], learning=w["learning"],
                quit_ability=w["quit_ability"], quit_rate=w["quit_rate"],
            )  # fmt: skip
            made += len(t)
            pq.write_table(_arrow(t), folder / f"part-{k:03d}.parquet")
        np.savez(done, beta=beta, theta=theta, players=players, rows=made)
    made = int(np.load(done)["rows"])
    seconds = time.perf_counter() - start
    return {"what": "simulate", "rows": made, "sim_s": round(seconds, 2),
            "sim_cpu_s": round(time.process_time() - cpu, 2),
            "rows_per_s": round(made / seconds), "peak_mb": round(_peak_mb())}  # fmt: skip


def _arrow(table) -> object:
    import pyarrow as pa

    return pa.table({n: pa.array(table[n]) for n in table.dtype.names})


def fit(folder: Path) -> dict:
    """Load, fit, save the model, and the absolute check: a median player's success per level."""
    from scipy.special import expit

    from labkit.hexpuzzle import Telemetry, fit_skill_model, telemetry_from_skill

    truth = np.load(folder / "truth.npz")
    beta, theta = truth["beta"], truth["theta"]
    ids = [f"L{i:03d}" for i in range(len(beta))]
    base = _rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    tel = Telemetry.load(folder, max_rows=50_000_000)
    load_s, load_cpu = time.perf_counter() - start, time.process_time() - cpu
    loaded_mb = _rss_mb()
    # load the kernels outside the timing (on a small table: tel.table would build the
    # structured array of every row, which the fit of a loaded Telemetry never needs)
    fit_skill_model(telemetry_from_skill(ids, beta, theta[:200], rng=0), ids, features=False)
    from labkit.hexpuzzle.difficulty import _skill_kernels as K

    K.marginal_threads(*K._example())
    gc.collect()
    before = _rss_mb()
    _reset_peak()
    start, cpu = time.perf_counter(), time.process_time()
    model = fit_skill_model(tel, ids, features=False)
    seconds = time.perf_counter() - start
    out = {"what": "fit", "rows": len(tel), "fit_s": round(seconds, 2),
           "fit_cpu_s": round(time.process_time() - cpu, 2),
           "rows_per_s": round(len(tel) / seconds), "peak_mb": round(_peak_mb()),
           "before_fit_mb": round(before), "fit_peak_mb": round(_hwm_mb()),
           "load_s": round(load_s, 2), "load_cpu_s": round(load_cpu, 2),
           "baseline_mb": round(base), "loaded_mb": round(loaded_mb)}  # fmt: skip
    model.save(folder / "model.json")
    median = float(np.median(theta))
    true_p = expit(median - beta)
    # the model's ability 0 is the players' mean: the median player sits at median - mean
    got = np.array([model.success(i, median - float(theta.mean())) for i in ids])
    out["success_error_max"] = round(float(np.max(np.abs(got - true_p))), 4)
    out["success_error_mean"] = round(float(np.mean(np.abs(got - true_p))), 4)
    out["ability_sd"] = round(model.ability_sd, 4)
    out["ability_sd_true"] = round(float(theta.std()), 4)
    out["learning"] = round(model.learning, 3)
    out["players"] = len(model.player_ids)
    return out


def predict_funnel(folder: Path) -> dict:
    """The funnel of the fitted model (100,000 players x 10 cohorts) against observed reach."""
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    from labkit.hexpuzzle import SkillModel, funnel

    model = SkillModel.load(folder / "model.json")
    ids = list(model.level_ids)
    start, cpu = time.perf_counter(), time.process_time()
    f = funnel(ids, model, players=100_000, draws=10, rng=0)
    seconds = time.perf_counter() - start
    t = ds.dataset(sorted(folder.glob("part-*.parquet"))).to_table(columns=["level", "attempt"])
    first = t.filter(pc.equal(t["attempt"], 1))["level"].to_numpy(zero_copy_only=False)
    counts = np.array([np.sum(first == i) for i in ids], dtype=float)
    reach = np.asarray(f.value("reach"))
    gap = float(np.max(np.abs(reach - counts / counts[0])))
    return {"what": "funnel", "rows": 1_000_000, "funnel_s": round(seconds, 2),
            "funnel_cpu_s": round(time.process_time() - cpu, 2),
            "rows_per_s": round(1_000_000 / seconds), "peak_mb": round(_peak_mb()),
            "reach_gap_max": round(gap, 4)}  # fmt: skip


def _status_mb(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return float("nan")


def _rss_mb() -> float:
    return _status_mb("VmRSS:")


def _hwm_mb() -> float:
    """Peak resident memory since :func:`_reset_peak` (Linux: VmHWM)."""
    return _status_mb("VmHWM:")


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    except OSError:
        pass


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
        # (tel.table: the structured array of every row, built here for the ratings)
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
    elif sys.argv[1] == "simulate":
        print(json.dumps(simulate(int(sys.argv[2]), Path(sys.argv[3]), *sys.argv[4:5])))
    elif sys.argv[1] == "fit":
        print(json.dumps(fit(Path(sys.argv[2]))))
    elif sys.argv[1] == "funnel":
        print(json.dumps(predict_funnel(Path(sys.argv[2]))))
    else:
        print(json.dumps(run(sys.argv[1], Path(sys.argv[2]))))
