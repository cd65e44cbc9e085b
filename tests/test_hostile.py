"""Hostile input (issue 17): every bad file and argument fails clean, bounded, with nothing altered.

The committed corpus ``tests/data/hostile`` (written by ``scripts/make_hostile_corpus.py``) goes
through each format's Python loader and the ``labkit`` command; special paths (FIFO, folder,
device), size limits, bad command lines, processes and files are tested here too. The
hypothesis mutations are in ``tests/test_fuzz.py``; the full counted audit is
``scripts/hostile_audit.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labkit import ArgumentError, LabkitError
from labkit import io as lio
from tests.hostile_cases import (
    DATA,
    FORMATS,
    NO_COMMAND,
    ROOT,
    _load_telemetry,
    bad_argument_sets,
    run_cli,
    time_limit,
    trace_doc,
)

CORPUS = Path(__file__).parent / "data" / "hostile"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())


def _loader(kind: str):
    return _load_telemetry if kind == "telemetry" else FORMATS[kind].load


def _cli(kind: str, path: str) -> list[str]:
    if kind == "telemetry":
        return ["puzzle", "calibrate", path, "--boot", "1"]
    return FORMATS[kind].cli(path)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_through_the_python_loader(name):
    want = EXPECTED[name]
    path = CORPUS / name
    with time_limit(60):
        if want["expect"] == "error":
            with pytest.raises(LabkitError) as info:
                _loader(want["kind"])(path)
            assert want["match"] in str(info.value)
            assert str(path) in str(info.value)
            if "pointer" in want:
                assert info.value.pointer == want["pointer"]
            assert len(str(info.value)) < 1000  # capped, however long the bad value
            return
        obj = _loader(want["kind"])(path)
        if want["kind"] == "trace":
            from labkit.encounter.records.replay import replay

            found = replay(obj)
            if want["expect"] == "divergence":
                assert found is not None and found.field == want["field"], found
                assert want["field"] in str(found)
            else:
                assert found is None


@pytest.mark.parametrize(
    "name", sorted(n for n, w in EXPECTED.items() if w["kind"] != "balance")
)  # no command reads a balance file
def test_corpus_through_the_command(name, tmp_path):
    want = EXPECTED[name]
    path = str(CORPUS / name)
    verdict, rc, out, err = run_cli(_cli(want["kind"], path))
    assert verdict == "clean", (verdict, err)
    if want["expect"] == "error":
        assert rc == 1
        assert err.count("\n") == 1 and err.startswith("labkit: error: ")
        assert want["match"] in err
    elif want["expect"] == "divergence":
        assert rc == 1 and want["field"] in out
    elif want["kind"] == "telemetry":  # read fine; five rows are too few to calibrate
        assert rc == 0 or "scored levels with telemetry" in err, err
    else:
        assert rc == 0, err


def test_mathtext_tile_id_draws_as_text(tmp_path):
    out = tmp_path / "board.svg"
    rc = run_cli(["puzzle", "show", str(CORPUS / "level-mathtext-tile-id.json"), "--svg",
                  str(out)])  # fmt: skip
    assert rc[:2] == ("clean", 0), rc
    assert "frac" in out.read_text()


def test_trace_html_escapes_strings_from_the_file():
    from labkit.encounter.records.trace import SimulationTrace

    t = SimulationTrace.load(CORPUS / "trace-html-labkit.json")
    html = t._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_difficulty_html_escapes_the_level_id():
    from labkit.hexpuzzle import Level, score

    lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0)], id="<i>x</i>")
    assert "<i>x</i>" not in score(lvl)._repr_html_()


# --- special paths and size limits ---


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("kind", [*FORMATS, "telemetry"])
def test_a_fifo_is_refused_without_blocking(kind, fifo):
    with time_limit(20), pytest.raises(LabkitError, match="not a regular file \\(a FIFO\\)"):
        _loader(kind)(fifo)


@pytest.mark.parametrize("kind", [*FORMATS, "telemetry"])
def test_a_folder_and_a_device_are_refused(kind, tmp_path):
    with pytest.raises(LabkitError, match="a directory"):
        _loader(kind)(tmp_path)
    with time_limit(20), pytest.raises(LabkitError, match="a character device"):
        _loader(kind)("/dev/zero")


@pytest.mark.parametrize("kind", [k for k in FORMATS if k not in NO_COMMAND])
def test_the_command_refuses_a_fifo_in_one_line(kind, fifo):
    verdict, rc, out, err = run_cli(_cli(kind, str(fifo)), seconds=30)
    assert (verdict, rc) == ("clean", 1) and "FIFO" in err and err.count("\n") == 1


def test_size_limit_per_format_and_its_override(tmp_path, monkeypatch):
    from labkit.hexpuzzle.level import MAX_BYTES, Level, LevelError

    path = tmp_path / "big.json"
    path.write_bytes(b'{"version": 2, "pad": "' + b"x" * (MAX_BYTES + 1) + b'"}')
    with pytest.raises(LevelError, match="over this format's limit"):
        Level.load(path)
    monkeypatch.setenv(lio.MAX_BYTES_ENV, "100")
    with pytest.raises(LevelError, match="limit of 100"):
        Level.load(DATA / "levels" / "01-grazing.json")


def test_a_ten_million_cell_map_is_refused_by_its_limit(tmp_path):
    from labkit.pathfinding.map_file import MAX_CELLS, MapError, load_map

    side = 1001  # 1001 x 1001 > MAX_CELLS, each side within MAX_SIDE
    row = "[" + ",".join(["0"] * side) + "]"
    doc = '{"format": "labkit.pathmap", "version": 1, "tiles": [], "event": [' + ",".join(
        [row] * side) + "]}"  # fmt: skip
    path = tmp_path / "huge.json"
    path.write_text(doc)
    with pytest.raises(MapError, match=f"at most {MAX_CELLS} cells"):
        load_map(path)


def test_duplicate_keys_name_key_and_pointer():
    with pytest.raises(lio.FormatError) as info:
        lio.parse_json('{"a": {"b": [1, {"c": 1, "c": 2}]}}')
    assert info.value.pointer == "/a/b/1/c" and "duplicate key 'c'" in str(info.value)


def test_deep_nesting_is_refused_before_parsing():
    with pytest.raises(lio.FormatError, match="deeper than the limit"):
        lio.parse_json("[" * 100_000 + "]" * 100_000)
    assert lio.parse_json('["[[[[", {"a": []}]') == ["[[[[", {"a": []}]


def test_a_long_bad_value_gives_a_short_error(tmp_path):
    path = tmp_path / "long.json"
    path.write_text('{"format": "labkit.pathmap", "version": [' + "1," * 1_000_000 + "1]}")
    with pytest.raises(LabkitError) as info:
        FORMATS["map"].load(path)
    assert len(str(info.value)) < 1000 and "/version" in str(info.value)


# --- domain limits on public functions ---


def test_counts_of_public_functions_are_limited():
    from labkit.encounter.sim.batch import local_executor, run_batch
    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.hexpuzzle.difficulty.fit import calibrate
    from labkit.hexpuzzle.difficulty.players import skill_groups
    from labkit.hexpuzzle.solving.generator import generate_many
    from labkit.mapturn import gauge_timeline

    with pytest.raises(ArgumentError, match="count"):
        generate_many(1, 10**9, progress=False)
    with pytest.raises(ArgumentError, match="count"):
        generate_many(1, -3, progress=False)
    with pytest.raises(ArgumentError, match="n_each"):
        skill_groups(10**6)
    with pytest.raises(ArgumentError, match="n_boot"):
        calibrate([], [], n_boot=10**9)
    with pytest.raises(ArgumentError, match="ticks"):
        gauge_timeline([1.0, 2.0], 10**12)
    with pytest.raises(ArgumentError, match="seeds"):
        run_batch(SimulationSettings(), range(10**9), progress=False)
    with pytest.raises(ArgumentError, match="chunksize"):
        run_batch(SimulationSettings(), range(2), progress=False, chunksize=0)
    with pytest.raises(ArgumentError, match="max_workers"):
        local_executor(0)


def test_kernel_overflow_is_refused_on_load_not_in_the_run():
    from labkit.encounter.sim.settings import SimulationError, SimulationSettings

    for patch in ({"/characters/monster/life": 10**30}, {"/weapons/claws/damage": 2**63},
                  {"/combat/max_rounds/x": 1}, {"/tables/hit/x": 0.5}):  # fmt: skip
        with pytest.raises(SimulationError, match="/balance"):
            SimulationSettings(balance=patch)


def test_strict_values_are_never_coerced():
    from labkit.mapturn import MapTurn, SaveError, World, load_tower

    engine = MapTurn(World(load_tower(DATA / "mapturn" / "tower.json")))
    doc = engine.to_dict()
    before = json.dumps(doc)
    for value in ("1", 1.9, True):
        bad = json.loads(before)
        bad["world"]["floors"]["F1"]["map"][0][0] = value
        with pytest.raises(SaveError, match="a block number is an integer"):
            engine.restore(bad)
    assert json.dumps(engine.to_dict()) == before  # nothing changed by the failed loads


# --- bad command lines ---


def _bad_args():
    import tempfile

    root = tempfile.mkdtemp(prefix="labkit-args-")
    # ids without the temporary folder: every pytest-xdist worker must collect the same ids
    return [(name.replace(root, "TMP"), argv) for name, argv in bad_argument_sets(Path(root))]


BAD_ARGS = _bad_args()


def test_there_are_at_least_seventy_bad_argument_sets():
    assert len(BAD_ARGS) >= 70


@pytest.mark.parametrize(("name", "argv"), BAD_ARGS, ids=[n for n, _ in BAD_ARGS])
def test_bad_arguments_fail_before_any_work(name, argv):
    verdict, rc, out, err = run_cli(argv, seconds=60)
    assert verdict == "clean", (verdict, err)
    assert rc in (1, 2), (rc, out, err)
    assert len(err.strip().splitlines()) == 1, err  # validate's summary line, or the error
    assert "Traceback" not in err


def test_nothing_is_written_by_refused_commands(tmp_path):
    argv_sets = bad_argument_sets(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for _, argv in argv_sets:
        run_cli(argv, seconds=60)
    after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert after == before
    assert (tmp_path / "file").read_text() == "x"


def test_negative_points_parse(capsys):
    from labkit.cli import main

    rc = main(["path", "find", str(DATA / "maps" / "corridors.json"), "--from", "-1,-1", "--to",
               "2,2"])  # fmt: skip
    assert rc == 2 and "INVALID_INPUT" in capsys.readouterr().out


# --- processes and files ---


def test_writes_through_a_symlink_follow_it(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    lio.save_json(link, {"x": 1})
    assert link.is_symlink() and json.loads(target.read_text()) == {"x": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_sigterm_inside_an_atomic_write_removes_the_temporary_file(tmp_path):
    from labkit.cli import _terminate

    old = signal.signal(signal.SIGTERM, _terminate)
    try:
        with pytest.raises(SystemExit):
            with lio.atomic_write(tmp_path / "out.json") as fh:
                fh.write("half")
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)  # the signal arrives before this ends
    finally:
        signal.signal(signal.SIGTERM, old)
    assert list(tmp_path.iterdir()) == []


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}


def _wait(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.mark.slow
def test_interrupted_generate_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "levels"
    proc = subprocess.Popen(
        [sys.executable, "-m", "labkit", "puzzle", "generate", "--seed", "1", "--count", "5000",
         "--out", str(out)], env=_env(), stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert _wait(lambda: out.exists() and any(out.iterdir()), 240), "nothing generated"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 128 + signal.SIGTERM
    finally:
        proc.kill()
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    for p in out.iterdir():
        json.loads(p.read_text())  # every file written is whole


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped) is not running
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


WORKERS_SCRIPT = """
import os, sys
from labkit.encounter.sim.batch import local_executor, run_batch
from labkit.encounter.sim.settings import SimulationSettings
pool = local_executor(2)
fut = pool.submit(os.getpid)
fut.result()
with open(sys.argv[1], "w") as fh:
    fh.write(" ".join(str(p) for p in pool._processes))
run_batch(SimulationSettings(max_steps=10_000), range(100_000), executor=pool, progress=False)
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_batch_workers_exit_when_the_parent_dies(tmp_path, sig):
    pids_file = tmp_path / "pids"
    proc = subprocess.Popen([sys.executable, "-c", WORKERS_SCRIPT, str(pids_file)], env=_env())
    try:
        assert _wait(lambda: pids_file.exists() and pids_file.read_text(), 240)
        pids = [int(p) for p in pids_file.read_text().split()]
        assert pids and all(_alive(p) for p in pids)
        proc.send_signal(sig)
        proc.wait(60)
        assert _wait(lambda: not any(_alive(p) for p in pids), 60), "workers still running"
    finally:
        proc.kill()
        for p in pids_file.read_text().split() if pids_file.exists() else []:
            try:
                os.kill(int(p), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_replay_checks_every_claim():
    from labkit.encounter.records.replay import replay
    from labkit.encounter.records.trace import SimulationTrace

    doc = trace_doc()
    assert replay(SimulationTrace.from_dict(doc)) is None
    changed = json.loads(json.dumps(doc))
    changed["end_reason"], changed["winner"] = "STEP_LIMIT", None
    found = replay(SimulationTrace.from_dict(changed))
    assert found is not None and found.field in ("winner", "end_reason")
    changed = json.loads(json.dumps(doc))
    changed["entropy"] = {"map": [1], "process": [2]}
    assert replay(SimulationTrace.from_dict(changed)).field == "entropy"


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [["--workers", "2"], []])
def test_sigterm_stops_the_batch_command_and_its_workers(workers):
    proc = subprocess.Popen(
        [sys.executable, "-m", "labkit", "sim", "batch", "--seeds", "0:100000", "--quiet",
         *workers], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    kids: list[int] = []
    try:
        assert _wait(lambda: len(_children(proc.pid)) >= 1, 240), "no worker started"
        time.sleep(1)
        kids = [k for k in _children(proc.pid) if _alive(k)]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(120) == 128 + signal.SIGTERM
        assert _wait(lambda: not any(_alive(k) for k in kids), 60), "workers still running"
        assert b"Traceback" not in proc.stderr.read()
    finally:
        proc.kill()
        for k in kids:
            try:
                os.kill(k, signal.SIGKILL)
            except ProcessLookupError:
                pass


# --- issue 33 (hostile input II): bundles, sweep folders, escaping, numbers -----------------
# (issue 31's telemetry cases live in their own block; these builders: tests/hostile_cases_ii.py)

from tests import hostile_cases_ii as h2  # noqa: E402


@pytest.fixture
def small_bundle_limits(monkeypatch):
    """Bundle limits lowered so that the size cases build in milliseconds (same code path)."""
    from labkit.share import bundle_zip

    monkeypatch.setattr(bundle_zip, "MAX_ENTRIES", 50)
    monkeypatch.setattr(bundle_zip, "MAX_ENTRY_BYTES", 4096)
    monkeypatch.setattr(bundle_zip, "MAX_MANIFEST_BYTES", 2048)
    monkeypatch.setattr(bundle_zip, "MAX_TOTAL_BYTES", 3 * 4096)


@pytest.mark.parametrize("index", range(len(h2.bundle_cases())),
                         ids=[c[0] for c in h2.bundle_cases()])  # fmt: skip
def test_a_malformed_bundle_is_one_line_before_any_kernel(index, tmp_path, small_bundle_limits,
                                                          monkeypatch):  # fmt: skip
    from labkit.share import verify as _verify

    name, build, expected = h2.bundle_cases()[index]
    path = tmp_path / "b.zip"
    path.write_bytes(build())

    def no_kernel(*args, **kwargs):
        raise AssertionError("the notebook ran")

    monkeypatch.setattr(_verify, "execute", no_kernel)
    verdict, rc, out, err = run_cli(["verify", str(path)], seconds=30)
    assert (verdict, rc) == ("clean", 1), (verdict, rc, err)
    assert len(err.strip().splitlines()) == 1 and expected in err, err
    assert str(path) in err


def test_bundle_options_are_refused_before_the_notebook_runs(tmp_path, monkeypatch):
    from labkit.share import bundle

    def no_kernel(*args, **kwargs):
        raise AssertionError("the notebook ran")

    monkeypatch.setattr(bundle, "execute", no_kernel)
    for name, argv in h2.bundle_argument_sets(tmp_path):
        verdict, rc, out, err = run_cli(argv, seconds=30)
        assert verdict == "clean" and rc in (1, 2), (name, verdict, rc, err)
        assert len(err.strip().splitlines()) == 1, (name, err)
    assert not (tmp_path / "o.zip").exists()


def test_verify_never_opens_an_external_path(tmp_path, monkeypatch):
    from labkit.share import verify as _verify

    secret = tmp_path / "secret.txt"
    secret.write_bytes(h2.DATA_FILE)  # same bytes as the listed hash: the old probe said "same"
    external = {**h2.manifest()["files"][0], "path": str(secret), "external": True}
    path = tmp_path / "b.zip"
    path.write_bytes(h2.make_bundle(doc=h2.manifest(files=[h2.manifest()["files"][0], external])))
    opened = []
    real_open = open

    def spy(file, *a, **k):
        opened.append(str(file))
        return real_open(file, *a, **k)

    monkeypatch.setattr(_verify, "execute", lambda nb, *a, **k: nb)
    monkeypatch.setattr("builtins.open", spy)
    monkeypatch.setattr(Path, "read_bytes", lambda self: opened.append(str(self)) or b"")
    verdict = _verify.verify(path)
    assert str(secret) not in opened
    assert verdict.notes == [f"{secret} (external): not checked, verify reads nothing outside "
                             "the bundle"]  # fmt: skip
    assert not verdict.files


def test_verify_refuses_a_negative_timeout_in_the_api(tmp_path):
    from labkit.share.verify import verify

    path = tmp_path / "b.zip"
    path.write_bytes(h2.make_bundle())
    with pytest.raises(ArgumentError, match="timeout: must be between 1 and 86400"):
        verify(path, timeout=-1)


def test_sigterm_during_bundle_is_a_clean_exit_and_stops_the_kernel(tmp_path):
    """The kernel's loop handlers used to swallow SIGTERM and let the notebook run on."""
    nb = tmp_path / "slow.ipynb"
    nb.write_text(h2.NOTEBOOK.replace("print(1)", "import time\\nprint('go', flush=True)\\n"
                                      "time.sleep(120)"))  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "labkit", "bundle", str(nb), "--out",
                             str(tmp_path / "o.zip")], env=env, stderr=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    kernel = None
    deadline = time.monotonic() + 120
    while kernel is None and time.monotonic() < deadline:
        time.sleep(0.5)
        kids = subprocess.run(["ps", "--ppid", str(proc.pid), "-o", "pid=,args="],
                              capture_output=True, text=True).stdout  # fmt: skip
        kernel = next((int(ln.split()[0]) for ln in kids.splitlines() if "ipykernel" in ln), None)
    assert kernel is not None, "no kernel started"
    time.sleep(3)  # inside the cell by now (or still starting: both must stop)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, (out, err)
    assert "Traceback" not in err and "WARNING" not in err, err
    assert not (tmp_path / "o.zip").exists()
    time.sleep(1)
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(kernel)], capture_output=True,
                           text=True).stdout.strip()  # fmt: skip
    assert state == "" or state.startswith("Z"), state  # gone, or a zombie for init to reap


# sweep folders: self-describing parts, a manifest required, one process at a time


def _tiny_sweep(out, life=(2, 8), seeds=range(2)):
    from labkit.encounter import SimulationSettings, sweep

    return sweep(SimulationSettings(max_steps=30), {"/characters/monster/life": list(life)},
                 seeds, out=out, progress=False, chunksize=1)  # fmt: skip


def test_sweep_parts_without_their_manifest_are_refused(tmp_path):
    from labkit.encounter import SweepError

    _tiny_sweep(tmp_path / "s")
    (tmp_path / "s" / "manifest.json").unlink()
    with pytest.raises(SweepError, match="holds part files but no manifest.json"):
        _tiny_sweep(tmp_path / "s", life=(3, 9))  # used to report the old values as the new


def test_a_part_from_another_sweep_is_refused_naming_it(tmp_path):
    import shutil

    from labkit.encounter import SweepError

    _tiny_sweep(tmp_path / "a")
    _tiny_sweep(tmp_path / "b", seeds=range(2, 4))
    stray = sorted((tmp_path / "b").glob("part-*.parquet"))[0]
    shutil.copy(stray, tmp_path / "a" / "part-999999999-1.parquet")
    with pytest.raises(SweepError, match=r"part-999999999-1.parquet: a part of another sweep"):
        _tiny_sweep(tmp_path / "a")


def test_an_edited_part_is_refused_by_its_checksum(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from labkit.encounter import SweepError

    _tiny_sweep(tmp_path / "s")
    part = sorted((tmp_path / "s").glob("part-*.parquet"))[0]
    t = pq.read_table(part)
    winner = ["npc" if w != "npc" else "monster" for w in t.column("winner").to_pylist()]
    edited = t.set_column(t.column_names.index("winner"), "winner", pa.array(winner))
    pq.write_table(edited.replace_schema_metadata(t.schema.metadata), part)
    with pytest.raises(SweepError, match=f"{part.name}: its rows do not match its checksum"):
        _tiny_sweep(tmp_path / "s")


def test_a_part_without_identity_is_refused(tmp_path):
    import pyarrow.parquet as pq

    from labkit.encounter import SweepError

    _tiny_sweep(tmp_path / "s")
    part = sorted((tmp_path / "s").glob("part-*.parquet"))[0]
    pq.write_table(pq.read_table(part).replace_schema_metadata(None), part)
    with pytest.raises(SweepError, match="no sweep identity"):
        _tiny_sweep(tmp_path / "s")


def test_a_second_process_on_the_same_folder_is_refused(tmp_path):
    from labkit.encounter import SweepError
    from labkit.encounter.sim.sweep_folder import hold

    folder = tmp_path / "s"
    with hold(folder):  # flock: a second open file description conflicts like another process
        with pytest.raises(SweepError, match="another process is running a sweep"):
            _tiny_sweep(folder)
    frame = _tiny_sweep(folder)  # released on exit: the next run goes ahead
    assert len(frame) == 4


def test_the_sweep_lock_is_released_when_its_holder_is_killed(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    code = (
        "import sys, time; from pathlib import Path; "
        "from labkit.encounter.sim.sweep_folder import hold\n"
        "with hold(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE,
                            env=env, text=True)  # fmt: skip
    assert proc.stdout.readline().strip() == "held"
    from labkit.encounter import SweepError
    from labkit.encounter.sim.sweep_folder import hold

    with pytest.raises(SweepError, match="another process"), hold(folder):
        pass
    proc.kill()
    proc.wait()
    with hold(folder):  # kill -9 released it
        pass


# one escaping rule: every string from a file is text in HTML and visible on the terminal

EVIL_HTML = "<img src=x onerror=alert(1)>"
EVIL_TERMINAL = "lvl\x1b[31m-red\u202egnp"


def _active_markup(markup: str) -> list[str]:
    """Tags a browser would build from ``markup`` that carry script: on* attributes, <script>."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Spy(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "script" or any(name.startswith("on") for name, _ in attrs):
                found.append(tag)

    Spy().feed(markup)
    return found


def _evil_level(tmp_path, level_id=EVIL_TERMINAL):
    doc = json.loads((DATA / "levels" / "01-grazing.json").read_text())
    doc["id"] = level_id
    doc["tiles"][0]["id"] = EVIL_HTML  # the mover: the collision viewer names it
    doc["tiles"][1]["id"] = EVIL_HTML + "2"  # the post it is blocked by
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(doc))
    return path


def test_score_shows_control_and_bidi_characters_visibly(tmp_path):
    verdict, rc, out, err = run_cli(["puzzle", "score", str(_evil_level(tmp_path))])
    assert rc == 0, err
    assert "\x1b" not in out and "\u202e" not in out
    assert "lvl\\x1b[31m-red\\u202egnp" in out


def test_apps_and_reprs_escape_ids_from_files(tmp_path):
    from labkit.hexpuzzle import Level, score
    from labkit.widgets import CollisionViewer, DifficultyWorkbench

    level = Level.load(_evil_level(tmp_path, level_id=EVIL_HTML))
    viewer = CollisionViewer([level])
    bench = DifficultyWorkbench([level])
    rendered = {
        "collision viewer": viewer.describe(),
        "workbench table": bench._table_html(),
        "difficulty repr": score(level)._repr_html_(),
    }
    for name, markup in rendered.items():
        assert not _active_markup(markup), (name, markup)
        assert "&lt;img src=x onerror=alert(1)&gt;" in markup, (name, markup)


def test_gauge_tuner_escapes_enemy_ids():
    from labkit.widgets import gauge_tuner

    row = {"per_action": {EVIL_HTML: 1.0}, "until": {EVIL_HTML: {"first_action_tick": 3}}}
    markup = gauge_tuner.GaugeTuner._table_html(None, row)
    assert not _active_markup(markup) and "&lt;img" in markup


def test_the_snapshot_sanitises_html_it_did_not_generate():
    from labkit.share.snapshot import render_widget

    state = {"m": {"model_name": "HTMLModel", "state": {
        "value": f"<b>kept</b> {EVIL_HTML}<script>alert(2)</script>"
                 "<img src='data:image/png;base64,AAAA'>"}}}  # fmt: skip
    markup = render_widget("m", state)
    assert not _active_markup(markup), markup
    assert "<b>kept</b>" in markup and "&lt;img src=x onerror=alert(1)&gt;" in markup
    assert '<img src="data:image/png;base64,AAAA">' in markup  # labkit's own figures stay


# every number bounded and typed, API and command line alike, errors naming the argument


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda s, e: s(
                e(), {"npcs": range(2, 1000), "/combat/max_rounds": range(1, 1000)}, range(2)
            ),
            r"grid\['/combat/max_rounds'\]: the grid has more than",
        ),
        (
            lambda s, e: s(e(), {"/combat/max_rounds": range(1, 10**7)}, range(2)),
            r"grid\['/combat/max_rounds'\]: the grid has more than",
        ),
        (
            lambda s, e: s(e(), [{"npcs": 2}] * 200_000, range(2)),
            "grid: more than 100000 design points",
        ),
        (lambda s, e: s(e(), {"npcs": [2]}, range(10**9)), "seeds: more than 1000000 seeds"),
        (
            lambda s, e: s(e(), {"/characters/monster/life": list(range(1, 29))}, range(500_000)),
            "seeds: 28 points x 500000 seeds is more than",
        ),
    ],
    ids=["grid 1e6 points", "grid 1e7 values", "design 2e5 points", "seeds 1e9", "games 1.4e7"],
)
def test_sweep_sizes_are_refused_before_any_game(call, message):
    from labkit.encounter import SimulationSettings, sweep

    with time_limit(20), pytest.raises(ArgumentError, match=message):
        call(sweep, SimulationSettings)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"start": 0}, "start: must be between 10"),
        ({"budget": -1}, "budget: must be between 1"),
        ({"tol": -1}, "tol: must be a finite number > 0"),
        ({"tol": float("nan")}, "tol: must be a finite number > 0"),
        ({"tol": True}, "tol: must be a finite number > 0"),
        ({"bootstrap": -1}, "bootstrap: must be between 1"),
        ({"bounds": (0, float("inf"))}, "bounds: needs finite low < high"),
        ({"seeds": range(10**9)}, "seeds: more than 1000000 seeds"),
    ],
    ids=lambda v: str(v)[:30],
)
def test_tune_arguments_are_checked_before_any_game(change, message):
    from labkit.encounter import tune

    def response(value, seeds):  # never reached
        raise AssertionError("played")

    kwargs = {"bounds": (0.0, 10.0), "seeds": range(100), "response": response,
              "progress": False, **change}  # fmt: skip
    with time_limit(20), pytest.raises(ArgumentError, match=message):
        tune(None, "x", 0.3, **kwargs)


@pytest.mark.parametrize(
    "extra",
    [["--start", "0"], ["--budget", "-1"], ["--start", "5"]],
    ids=lambda v: " ".join(v),
)
def test_sim_tune_options_fail_in_one_line(extra):
    argv = ["sim", "tune", "--param", "/characters/monster/life", "--target", "0.5",
            "--bounds", "1,12", "--seeds", "0:80", "--quiet", *extra]  # fmt: skip
    verdict, rc, out, err = run_cli(argv, seconds=60)
    assert (verdict, rc) == ("clean", 2), (verdict, rc, err)
    assert len(err.strip().splitlines()) == 1 and extra[0] in err, err


def test_sim_sweep_grid_range_is_limited_and_named():
    argv = ["sim", "sweep", "--grid", "/characters/monster/life=1:1000000", "--seeds", "0:2",
            "--quiet"]  # fmt: skip
    verdict, rc, out, err = run_cli(argv, seconds=30)
    assert (verdict, rc) == ("clean", 2), (verdict, rc, err)
    assert "--grid" in err and "999999 values, more than a grid's 100000 points" in err, err
    argv[3] = "/characters/monster/life=0:3000000000"
    verdict, rc, out, err = run_cli(argv, seconds=30)
    assert (verdict, rc) == ("clean", 2) and "--grid" in err and "out of memory" not in err, err


# issue 32 leftovers: parse errors at their line and column


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": 1,\n "b": [2, 1e999]}', "line 2 column 11"),
        ('{"s": "1e999", "x": NaN}', "line 1 column 21"),
        ("[1, 2,,]", "line 1 column 7"),
    ],
    ids=["overflow", "constant after a string that looks like a number", "syntax"],
)
def test_parse_errors_name_line_and_column_not_the_root_pointer(text, where):
    with pytest.raises(LabkitError) as info:
        lio.parse_json(text, file="f.json")
    assert where in str(info.value) and ": /:" not in str(info.value), str(info.value)
    assert info.value.pointer is None


def test_a_huge_floor_is_refused_by_its_stated_limit(tmp_path):
    """3000 x 3000 cells: refused naming the limit, without a stack entry per cell."""
    from labkit.mapturn import TowerError, load_tower
    from labkit.mapturn.defs import MAX_SIDE
    from tests.hostile_cases import tower_doc

    doc = tower_doc()
    floor = next(iter(doc["floors"]))
    doc["floors"][floor]["map"] = [[0] * 3000 for _ in range(3000)]
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(doc, separators=(",", ":")))
    with pytest.raises(TowerError, match=f"a floor is at most {MAX_SIDE}x{MAX_SIDE} cells"):
        load_tower(path)


def test_rows_of_numbers_are_skipped_but_keys_inside_lists_are_still_checked():
    with pytest.raises(LabkitError) as info:
        lio.parse_json('{"m": [[0, 1], [2, {"a": 1, "a": 2}]], "n": [[3, "x"]]}')
    assert info.value.pointer == "/m/1/1/a" and "duplicate key 'a'" in str(info.value)
    with pytest.raises(LabkitError, match="not encodable"):
        lio.parse_json('{"n": [[3, "\ud800"]]}')


# campaigns: unique level ids, kept slots, a stated size limit


def _campaign_doc():
    return json.loads((DATA / "levels" / "campaign.json").read_text())


def test_a_campaign_refuses_a_repeated_level_id(tmp_path):
    from labkit.hexpuzzle.campaign_file import Campaign

    doc = _campaign_doc()
    doc["levels"][3]["level"]["id"] = doc["levels"][1]["level"]["id"]
    with pytest.raises(LabkitError, match=r"/levels/3/level/id: level id also used at /levels/1"):
        Campaign.from_dict(doc)
    levels = list(Campaign.from_dict(_campaign_doc()))
    with pytest.raises(ArgumentError, match=r"levels\[2\]: a level id appears twice"):
        Campaign([levels[0], levels[1], levels[0]])


def test_a_campaign_keeps_its_slots_on_save(tmp_path):
    from labkit.hexpuzzle.campaign_file import Campaign

    doc = _campaign_doc()
    slots = [e.get("slot", i) for i, e in enumerate(doc["levels"])]
    path = tmp_path / "c.json"
    Campaign.from_dict(doc).save(path)
    assert [e["slot"] for e in json.loads(path.read_text())["levels"]] == slots


def test_a_campaign_over_its_level_limit_is_refused_before_parsing_levels():
    from labkit.hexpuzzle.campaign_file import MAX_LEVELS, Campaign

    doc = _campaign_doc()
    doc["levels"] = [{"level": "never parsed"}] * (MAX_LEVELS + 1)
    with time_limit(5), pytest.raises(LabkitError, match=f"at most {MAX_LEVELS} levels"):
        Campaign.from_dict(doc)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"time_limit": True}, "time_limit: must be a number of seconds"),
     ({"time_limit": 10**9}, "time_limit: must be a number of seconds"),
     ({"tolerance": True}, "tolerance: must be a number"),
     ({"id": "x" * 10_000}, "id: must be text of 1 to 200 characters"),
     ({"id": ""}, "id: must be text of 1 to 200 characters")],
    ids=["time_limit True", "time_limit 1e9", "tolerance True", "10000-character id", "empty id"],
)  # fmt: skip
def test_generate_to_target_checks_its_arguments_before_searching(kwargs, message):
    from labkit.hexpuzzle import generate_to_target

    with time_limit(10), pytest.raises(ArgumentError, match=message):
        generate_to_target(1, score=40, **kwargs)
