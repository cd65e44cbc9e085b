"""Every saver leaves the old file intact when its write fails half-way (DESIGN §3).

"Writers write to a temporary file and rename, so a crash never leaves half a file." The tests
here go through each format's own saver, not through :func:`labkit.io.atomic_write`: a saver
that opened its target directly would pass any test of ``atomic_write`` itself. The fault is
injected below every saver, at ``io.open`` (which ``open``, ``os.fdopen`` and ``Path.open`` all
call): a file opened for writing takes a few characters, then the disk is "full".

Formats with a saver: level, campaign, map, map-turn save, encounter trace, batch table (CSV),
telemetry (CSV, also through ``labkit puzzle telemetry``), calibration (``labkit puzzle
calibrate --json``). Settings, balance and tower files are read-only in labkit (no saver).
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .faults import DiskFull

OLD = "an earlier save, which must survive\n"


# --- one saver per format: (name, function(path) that saves something to path) ---------------


def save_level(path):
    from labkit.hexpuzzle.level import Level

    Level.hexagon(2, tiles=[("a", 0, 0, 0), ("b", 1, 0, 2)], move_limit=3).save(path)


def save_campaign(path):
    from labkit.hexpuzzle import shipped_campaign

    doc = json.loads(shipped_campaign.campaign_path().read_text(encoding="utf-8"))
    shipped_campaign.save(path, doc)


def save_map(path):
    from labkit.pathfinding.map_file import load_map, save_map, shipped_map_path

    save_map(path, load_map(shipped_map_path("corridors.json")))


def save_mapturn(path):
    from labkit.mapturn import MapTurn, World, example_tower_path, load_tower

    engine = MapTurn(World(load_tower(example_tower_path())))
    engine.consume_time(2, "test")
    engine.save(path)


def save_trace(path):
    from labkit.encounter.sim.runner import simulate
    from labkit.encounter.sim.settings import SimulationSettings

    simulate(SimulationSettings(max_steps=40)).save(path)


def save_batch_csv(path):
    from labkit.encounter.sim.batch import run_batch
    from labkit.encounter.sim.settings import SimulationSettings

    with ThreadPoolExecutor(1) as pool:
        res = run_batch(SimulationSettings(max_steps=40), range(3), executor=pool, progress=False)
    res.to_csv(path)


def save_telemetry(path):
    from labkit._data import data_path
    from labkit.hexpuzzle.difficulty.telemetry import load_telemetry, save_telemetry

    table = load_telemetry(data_path("telemetry", "sample.csv"), frame=False)
    save_telemetry(path, table, comments=["a comment"])


def _puzzle_cli(argv):
    from labkit.hexpuzzle.cli.calibration import register_calibration_commands

    parser = argparse.ArgumentParser()
    register_calibration_commands(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture(scope="module")
def level_files(tmp_path_factory):
    from labkit.hexpuzzle.shipped_campaign import campaign

    folder = tmp_path_factory.mktemp("levels")
    for lv in campaign()[:8]:
        lv.save(folder / f"{lv.id}.json")
    return folder


def cli_telemetry(level_files):
    def save(path):
        _puzzle_cli(["telemetry", "--out", str(path), "--levels", str(level_files),
                     "--players", "2"])  # fmt: skip

    return save


def cli_calibration(level_files):
    def save(path):
        tele = Path(path).with_name("telemetry-for-calibration.csv")
        if not tele.exists():
            cli_telemetry(level_files)(tele)
        _puzzle_cli(["calibrate", str(tele), "--levels", str(level_files), "--boot", "5",
                     "--json", str(path)])  # fmt: skip

    return save


SAVERS = {
    "level": save_level,
    "campaign": save_campaign,
    "map": save_map,
    "mapturn-save": save_mapturn,
    "trace": save_trace,
    "batch-csv": save_batch_csv,
    "telemetry": save_telemetry,
}
CLI_SAVERS = {"telemetry-cli": cli_telemetry, "calibration-cli": cli_calibration}
#: The CLI refuses an output whose suffix is not its format's (before any work), so its saves
#: are aimed at files of the right kind; the API savers write whatever path they are given.
CLI_SUFFIX = {"telemetry-cli": ".csv", "calibration-cli": ".json"}


def saver(name, level_files):
    return SAVERS[name] if name in SAVERS else CLI_SAVERS[name](level_files)


@pytest.mark.parametrize("name", [*SAVERS, *CLI_SAVERS])
def test_a_save_that_fails_half_way_leaves_the_old_file(name, tmp_path, monkeypatch, level_files):
    save = saver(name, level_files)
    target = tmp_path / f"{name}{CLI_SUFFIX.get(name, '.out')}"
    # The saver really writes this file (else the fault below would prove nothing) ...
    save(target)
    written = target.read_bytes()
    assert len(written) > 100 and written != OLD.encode()
    target.write_text(OLD, encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    # ... and when the disk fills up half-way, the earlier file is left exactly as it was.
    fault = DiskFull(monkeypatch)
    with pytest.raises(OSError, match="injected"):
        save(target)
    monkeypatch.undo()
    assert fault.tripped == 1
    assert target.read_text(encoding="utf-8") == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no temporary left behind


@pytest.mark.parametrize("name", [*SAVERS])
def test_a_save_that_fails_on_a_new_path_leaves_nothing(name, tmp_path, monkeypatch):
    target = tmp_path / "fresh.out"
    fault = DiskFull(monkeypatch)
    with pytest.raises(OSError, match="injected"):
        SAVERS[name](target)
    monkeypatch.undo()
    assert fault.tripped == 1
    assert list(tmp_path.iterdir()) == []
