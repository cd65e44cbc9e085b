"""labkit.share.bundle, rule by rule, without a kernel (the kernel and its client are replaced).

From the module docstring: the manifest names the notebook, every data file read (SHA-256, size,
external or not), the package versions, the stamp and the tolerances; data-folder files go under
``data/``, files beside the notebook under ``notebook/``, any other file is listed ``external``
and not packed; a file that changed while the notebook ran is refused; the zip has fixed
timestamps, so the same run gives the same bytes. The kernel runs are in test_bundle.py.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import zipfile
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

import labkit
from labkit import ArgumentError
from labkit._data import data_dir
from labkit.io import READ_LOG_ENV
from labkit.share import bundle as b
from labkit.share.bundle import BundleError

# -- small pieces ---------------------------------------------------------------------------------


def test_the_stated_format_limits_and_tolerances():
    assert (b.FORMAT, b.VERSION, b.MAX_TIMEOUT) == ("labkit.bundle", 1, 86_400)
    assert b.ZIP_DATE == (2000, 1, 1, 0, 0, 0)
    assert b.TOLERANCE == {
        "numbers_rtol": 1e-6,
        "numbers_atol": 1e-9,
        "pixel_level": 16,
        "pixel_share": 0.005,
    }


def test_environment_sets_removes_and_restores(monkeypatch):
    monkeypatch.setenv("LK_A", "old")
    monkeypatch.delenv("LK_B", raising=False)
    monkeypatch.setenv("LK_C", "gone-inside")
    with b.environment(LK_A="new", LK_B="made", LK_C=None):
        assert os.environ["LK_A"] == "new" and os.environ["LK_B"] == "made"
        assert "LK_C" not in os.environ
    assert os.environ["LK_A"] == "old" and os.environ["LK_C"] == "gone-inside"
    assert "LK_B" not in os.environ
    with pytest.raises(RuntimeError), b.environment(LK_A="x", LK_B=None):
        raise RuntimeError
    assert os.environ["LK_A"] == "old" and "LK_B" not in os.environ
    with b.environment(LK_B=None):  # removing what is not set
        assert "LK_B" not in os.environ
    assert "LK_B" not in os.environ


def out(kind, **kw):
    return nbformat.v4.new_output(kind, **kw)


def test_code_cells_and_their_errors():
    nb = nbformat.v4.new_notebook()
    c0, c1 = nbformat.v4.new_code_cell("a"), nbformat.v4.new_code_cell("b")
    c1.outputs = [
        out("stream", name="stdout", text="x"),
        out("error", ename="ValueError", evalue="bad"),
        out("error", ename="KeyError", evalue="'k'"),
    ]
    nb.cells = [nbformat.v4.new_markdown_cell("m"), c0, c1]
    assert b.code_cells(nb) == [c0, c1]
    assert b.errors(c0) == []
    assert b.errors(c1) == ["ValueError: bad", "KeyError: 'k'"]
    assert b.errors({}) == []


def test_reads_are_the_first_hash_of_each_path(tmp_path):
    log = tmp_path / "reads.jsonl"
    assert b.reads(log) == {}
    rows = [{"path": "/a", "sha256": "1"}, {"path": "/b", "sha256": "2"},
            {"path": "/a", "sha256": "3"}]  # fmt: skip
    log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert b.reads(log) == {"/a": "1", "/b": "2"}
    assert b.reads(tmp_path) == {}  # a folder is no log


def test_a_read_file_is_placed_by_where_it_lies(tmp_path):
    level = data_dir() / "levels" / "campaign.json"
    assert b.place(level, tmp_path) == ("data/levels/campaign.json", False)
    (tmp_path / "sub").mkdir()
    assert b.place(tmp_path / "sub" / "x.json", tmp_path) == ("notebook/sub/x.json", False)
    elsewhere = tmp_path.parent / "elsewhere.json"
    assert b.place(elsewhere, tmp_path / "sub") == (elsewhere.as_posix(), True)


def test_package_versions_are_lower_case_sorted_and_complete():
    import importlib.metadata as md

    versions = b.package_versions()
    assert list(versions) == sorted(versions)
    assert versions["numpy"] == md.version("numpy")
    assert versions["labkit"] == md.version("labkit")
    assert all(name == name.lower() for name in versions)
    assert "pyyaml" in versions  # "PyYAML" as distributed


def test_package_versions_skip_a_distribution_without_a_name(monkeypatch):
    import importlib.metadata as md

    dists = [SimpleNamespace(metadata={"Name": "Zeta"}, version="2"),
             SimpleNamespace(metadata={"Name": None}, version="9"),
             SimpleNamespace(metadata={"Name": "alpha"}, version="1")]  # fmt: skip
    monkeypatch.setattr(md, "distributions", lambda: dists)
    assert list(b.package_versions().items()) == [("alpha", "1"), ("zeta", "2")]


def test_the_stamp_holds_this_runs_facts_and_the_header_cells_printout(monkeypatch):
    import platform

    monkeypatch.setattr("labkit._notebook.git_commit", lambda: "abc1234")
    nb = nbformat.v4.new_notebook()
    first = nbformat.v4.new_code_cell("x = 1")
    first.outputs = [out("stream", name="stdout", text="not this")]
    header = nbformat.v4.new_code_cell("labkit.notebook_header()")
    header.outputs = [out("stream", name="stdout", text="labkit 1 "),
                      out("stream", name="stderr", text="warn"),
                      out("stream", name="stdout", text="seed 3\n")]  # fmt: skip
    later = nbformat.v4.new_code_cell("labkit.notebook_header()")
    later.outputs = [out("stream", name="stdout", text="second")]
    nb.cells = [nbformat.v4.new_markdown_cell("notebook_header"), first, header, later]
    s = b.stamp(nb)
    assert s["header"] == "labkit 1 seed 3\n"
    assert s["labkit"] == labkit.__version__ and s["commit"] == "abc1234"
    assert s["python"] == platform.python_version() and s["platform"] == platform.platform()
    import datetime as dt

    when = dt.datetime.fromisoformat(s["time"])
    assert when.tzinfo is not None and when.microsecond == 0
    assert abs((dt.datetime.now().astimezone() - when).total_seconds()) < 3600
    assert list(s) == ["labkit", "commit", "python", "platform", "time", "header"]
    assert b.stamp(nbformat.v4.new_notebook())["header"] == ""


# -- the kernel's client and its stop -------------------------------------------------------------


def test_the_client_runs_in_the_folder_with_errors_allowed(tmp_path):
    nb = nbformat.v4.new_notebook()
    km = SimpleNamespace()
    client = b._client(nb, km, 17, tmp_path, [])
    assert client.nb is nb and client.km is km and client.timeout == 17
    assert client.kernel_name == "python3" and client.allow_errors is True
    assert client.resources == {"metadata": {"path": str(tmp_path)}}


def _run(coro):
    """``asyncio.run`` on this (the main) thread, where signal handlers can be added, even when
    an earlier test of the same pytest-xdist worker left a loop marked as running here (seen
    under ``make test``; alone the file passes)."""
    left = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        return asyncio.run(coro)
    finally:
        asyncio.events._set_running_loop(left)


def test_the_clients_signal_handlers_stop_at_once(tmp_path, monkeypatch):
    from nbclient import NotebookClient

    started, stopped = [], []

    async def start(self, **kwargs):
        started.append(kwargs)

    monkeypatch.setattr(NotebookClient, "async_start_new_kernel", start)
    monkeypatch.setattr(b, "_stop_now", lambda *args: stopped.append(args))
    km, scratch = SimpleNamespace(), [tmp_path]
    client = b._client(nbformat.v4.new_notebook(), km, 5, tmp_path, scratch)
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:

        async def go():
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGINT, lambda: None)  # as nbclient does
            await client.async_start_new_kernel(extra=1)
            return loop

        _run(go())
        assert started == [{"extra": 1}]
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.getsignal(sig)(sig, None)
        assert stopped == [(signal.SIGINT, km, scratch), (signal.SIGTERM, km, scratch)]
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


@pytest.mark.parametrize(("signum", "said"), [(signal.SIGINT, "labkit: interrupted\n"),
                                              (signal.SIGTERM, "")])  # fmt: skip
def test_a_stop_kills_the_kernel_removes_scratch_and_exits_128_plus_the_signal(
    tmp_path, monkeypatch, capsys, signum, said
):
    killed, exits = [], []
    monkeypatch.setattr(b.os, "kill", lambda pid, sig: killed.append((pid, sig)))

    class Exit(Exception):
        pass

    def fake_exit(code):
        exits.append(code)
        raise Exit

    monkeypatch.setattr(b.os, "_exit", fake_exit)
    conn = tmp_path / "kernel.json"
    conn.write_text("{}")
    scratch = [tmp_path / "s1", tmp_path / "s2", tmp_path / "absent"]
    for s in scratch[:2]:
        (s / "deep").mkdir(parents=True)
    km = SimpleNamespace(provisioner=SimpleNamespace(pid=4242), connection_file=str(conn))
    with pytest.raises(Exit):
        b._stop_now(signum, km, scratch)
    assert killed == [(4242, signal.SIGKILL)] and exits == [128 + signum]
    assert not conn.exists() and not any(s.exists() for s in scratch)
    assert capsys.readouterr().err == said
    # a kernel that is gone already (no provisioner, no file): still removes and exits
    (tmp_path / "s1").mkdir()
    with pytest.raises(Exit):
        b._stop_now(signum, SimpleNamespace(), [tmp_path / "s1"])
    assert exits[-1] == 128 + signum and not (tmp_path / "s1").exists()


def test_execute_runs_over_ipc_with_static_figures_and_the_read_log(tmp_path, monkeypatch):
    import jupyter_client

    seen = {}

    class KM:
        def __init__(self, **kw):
            seen["km"] = kw
            self.has_kernel = True

        def shutdown_kernel(self, now=False):
            seen["shutdown"] = now

    class Client:
        def __init__(self, nb, km, timeout, folder, scratch):
            seen.update(nb=nb, timeout=timeout, folder=folder, scratch=scratch)

        def execute(self):
            seen["env"] = {k: os.environ.get(k) for k in
                           ("LABKIT_STATIC_FIGURES", READ_LOG_ENV, "LK_EXTRA")}  # fmt: skip
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # as nbclient leaves them
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    monkeypatch.setattr(jupyter_client, "KernelManager", KM)
    monkeypatch.setattr(b, "_client", Client)
    monkeypatch.delenv("LABKIT_STATIC_FIGURES", raising=False)
    marker_int, marker_term = (lambda *a: None), (lambda *a: None)
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, marker_int)
    signal.signal(signal.SIGTERM, marker_term)
    try:
        nb = nbformat.v4.new_notebook()
        log = tmp_path / "scratch" / "reads.jsonl"
        assert b.execute(nb, tmp_path, log, 9, LK_EXTRA="e") is nb
        assert signal.getsignal(signal.SIGINT) is marker_int
        assert signal.getsignal(signal.SIGTERM) is marker_term
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    assert seen["env"] == {"LABKIT_STATIC_FIGURES": "1", READ_LOG_ENV: str(log), "LK_EXTRA": "e"}
    assert "LABKIT_STATIC_FIGURES" not in os.environ and "LK_EXTRA" not in os.environ
    assert seen["km"]["kernel_name"] == "python3" and seen["km"]["transport"] == "ipc"
    sockets = Path(seen["km"]["ip"]).parent
    assert Path(seen["km"]["ip"]).name == "k" and sockets.name.startswith("labkit-kernel-")
    assert not sockets.exists()  # the socket folder is removed after the run
    assert seen["scratch"] == [sockets, log.parent]
    assert (seen["timeout"], seen["folder"], seen["shutdown"]) == (9, tmp_path, True)


def test_execute_shuts_the_kernel_down_even_when_the_run_fails(tmp_path, monkeypatch):
    import jupyter_client

    shut = []

    class KM:
        def __init__(self, **kw):
            self.has_kernel = kw.get("transport") == "ipc"

        def shutdown_kernel(self, now=False):
            shut.append(now)

    class Client:
        def __init__(self, *args):
            pass

        def execute(self):
            raise RuntimeError("kernel died")

    monkeypatch.setattr(jupyter_client, "KernelManager", KM)
    monkeypatch.setattr(b, "_client", Client)
    with pytest.raises(RuntimeError, match="kernel died"):
        b.execute(nbformat.v4.new_notebook(), tmp_path, tmp_path / "r.jsonl", 1)
    assert shut == [True]


# -- bundle: the notebook's run replaced ----------------------------------------------------------


def write_notebook(folder, *sources):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(nb, folder / "nb.ipynb")
    return folder / "nb.ipynb"


class Run:
    """Stands in for the kernel: records ``reads`` (paths), adds ``outputs`` to each cell."""

    def __init__(self, reads=(), outputs=(), change=None):
        self.reads, self.outputs, self.change, self.seen = reads, outputs, change, {}

    def __call__(self, nb, folder, log, timeout, **env):
        self.seen.update(folder=folder, timeout=timeout, env=env, log=log)
        with open(log, "w") as fh:
            for path in self.reads:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
                fh.write(json.dumps({"path": str(path), "sha256": digest}) + "\n")
        if self.change:
            self.change.write_bytes(b"changed")
        for cell, outputs in zip(b.code_cells(nb), self.outputs):
            cell.outputs = outputs
        return nb


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "nb").mkdir()
    (tmp_path / "nb" / "level.json").write_bytes(b"{}\n")
    (tmp_path / "other.json").write_bytes(b"[1]")
    return tmp_path


def test_a_bundle_packs_what_the_notebook_read(folder, monkeypatch):
    campaign = data_dir() / "levels" / "campaign.json"
    run = Run(reads=[folder / "nb" / "level.json", campaign, folder / "other.json"],
              outputs=[[out("stream", name="stdout", text="hi")]])  # fmt: skip
    monkeypatch.setattr(b, "execute", run)
    monkeypatch.setattr(b, "package_versions", lambda: {"numpy": "9"})
    monkeypatch.setattr(b, "stamp", lambda nb: {"fixed": 1})
    path = write_notebook(folder / "nb", "print('hi')")
    manifest = b.bundle(path, folder / "b.zip", timeout=33)
    assert run.seen["folder"] == path.parent and run.seen["timeout"] == 33
    assert run.seen["env"] == {} and run.seen["log"].name == "reads.jsonl"
    assert not run.seen["log"].parent.exists()  # the scratch log is gone after the run
    sha = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in run.reads}
    other = (folder / "other.json").as_posix()
    files = [
        {"path": other, "sha256": sha[folder / "other.json"], "bytes": 3, "external": True},
        {"path": "data/levels/campaign.json", "sha256": sha[campaign],
         "bytes": campaign.stat().st_size, "external": False},
        {"path": "notebook/level.json", "sha256": sha[folder / "nb" / "level.json"], "bytes": 3,
         "external": False},
    ]  # fmt: skip
    assert sorted(manifest["files"], key=lambda f: f["path"]) == sorted(
        files, key=lambda f: f["path"]
    )
    # in the order of the read files' paths
    by_source = sorted(str(p) for p in run.reads)
    assert [f["path"] for f in manifest["files"]] == [b.place(Path(p), path.parent)[0]
                                                      for p in by_source]  # fmt: skip
    assert manifest == {
        "format": "labkit.bundle",
        "version": 1,
        "notebook": "notebook/nb.ipynb",
        "files": manifest["files"],
        "packages": {"numpy": "9"},
        "stamp": {"fixed": 1},
        "tolerance": b.TOLERANCE,
    }
    with zipfile.ZipFile(folder / "b.zip") as zf:
        infos = zf.infolist()
        names = [i.filename for i in infos]
        assert names == ["manifest.json", "data/levels/campaign.json", "notebook/level.json",
                         "notebook/nb.ipynb"]  # fmt: skip
        assert json.loads(zf.read("manifest.json")) == manifest
        assert zf.read("notebook/level.json") == b"{}\n"
        assert zf.read("data/levels/campaign.json") == campaign.read_bytes()
        executed = nbformat.reads(zf.read("notebook/nb.ipynb").decode(), as_version=4)
    assert executed.cells[0].outputs[0]["text"] == "hi"
    for info in infos:
        assert info.date_time == (2000, 1, 1, 0, 0, 0)
        assert info.compress_type == zipfile.ZIP_DEFLATED
        assert info.external_attr == 0o644 << 16
    first = (folder / "b.zip").read_bytes()
    b.bundle(path, folder / "c.zip", timeout=33)
    assert (folder / "c.zip").read_bytes() == first  # the same run, the same bytes


def test_a_bundle_runs_with_the_default_timeout(folder, monkeypatch):
    run = Run()
    monkeypatch.setattr(b, "execute", run)
    monkeypatch.setattr(b, "package_versions", dict)
    monkeypatch.setattr(b, "stamp", lambda nb: {})
    b.bundle(write_notebook(folder / "nb", "1"), folder / "b.zip")
    assert run.seen["timeout"] == 600
    b.bundle(write_notebook(folder / "nb", "1"), folder / "b.zip", timeout=b.MAX_TIMEOUT)
    b.bundle(write_notebook(folder / "nb", "1"), folder / "b.zip", timeout=1)
    assert run.seen["timeout"] == 1


def test_a_file_changed_while_the_notebook_ran_is_refused(folder, monkeypatch):
    level = folder / "nb" / "level.json"
    monkeypatch.setattr(b, "execute", Run(reads=[level], change=level))
    with pytest.raises(BundleError, match="data file changed while the notebook ran") as err:
        b.bundle(write_notebook(folder / "nb", "1"), folder / "b.zip")
    assert err.value.file == str(level)
    assert not (folder / "b.zip").exists()


def test_a_cell_that_raised_is_named_and_nothing_is_written(folder, monkeypatch):
    outs = [[], [out("error", ename="ZeroDivisionError", evalue="division by zero")],
            [out("error", ename="KeyError", evalue="x")]]  # fmt: skip
    monkeypatch.setattr(b, "execute", Run(outputs=outs))
    path = write_notebook(folder / "nb", "1", "1 / 0", "{}['x']")
    with pytest.raises(BundleError) as err:
        b.bundle(path, folder / "b.zip")
    assert err.value.message == "code cell 1 raised: ZeroDivisionError: division by zero"
    assert err.value.file == str(path)
    assert not (folder / "b.zip").exists()


def test_refusals_before_any_run(folder, monkeypatch):
    def never(*args, **kw):
        raise AssertionError("the notebook ran")

    monkeypatch.setattr(b, "execute", never)
    path = write_notebook(folder / "nb", "1")
    for bad in (0, b.MAX_TIMEOUT + 1):
        with pytest.raises(ArgumentError, match="timeout"):
            b.bundle(path, folder / "b.zip", timeout=bad)
    with pytest.raises(IsADirectoryError):
        b.bundle(path, folder)
    with pytest.raises(BundleError) as err:
        b.bundle(folder / "nope.ipynb", folder / "b.zip")
    assert (err.value.message, err.value.file) == ("notebook not found", str(folder / "nope.ipynb"))
    with pytest.raises(BundleError, match="notebook not found"):
        b.bundle(folder / "nb", folder / "b.zip")  # a folder
    bad = folder / "bad.ipynb"
    bad.write_text("not json")
    with pytest.raises(BundleError) as err:
        b.bundle(bad, folder / "b.zip")
    assert err.value.message.startswith("not a readable notebook: ")
    assert err.value.file == str(bad)
    assert not (folder / "b.zip").exists()


# -- what the first mutation run left alive (scripts/mutate.py bundle) ----------------------------


@pytest.mark.parametrize("exc", [RuntimeError("cannot"), ValueError("not the main thread")])
def test_a_loop_that_cannot_give_up_its_signal_handlers_still_starts_the_kernel(
    tmp_path, monkeypatch, exc
):
    from nbclient import NotebookClient

    started = []

    async def start(self, **kwargs):
        started.append(True)

    def refuse(sig):
        raise exc

    monkeypatch.setattr(NotebookClient, "async_start_new_kernel", start)
    client = b._client(nbformat.v4.new_notebook(), SimpleNamespace(), 5, tmp_path, [])

    async def go():
        asyncio.get_running_loop().remove_signal_handler = refuse
        await client.async_start_new_kernel()

    _run(go())
    assert started == [True]


def test_the_interrupted_line_is_flushed_before_the_process_exits(tmp_path, monkeypatch):
    import io
    import sys

    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(raw, encoding="utf-8"))
    at_exit = []

    class Exit(Exception):
        pass

    def fake_exit(code):  # os._exit flushes nothing: what is not written by now is lost
        at_exit.append(raw.getvalue())
        raise Exit

    monkeypatch.setattr(b.os, "_exit", fake_exit)
    with pytest.raises(Exit):
        b._stop_now(signal.SIGINT, SimpleNamespace(), [])
    assert at_exit == [b"labkit: interrupted\n"]


class FakeKM:
    made: list = []

    def __init__(self, **kw):
        FakeKM.made.append(self)
        self.has_kernel = False


def test_execute_hands_the_notebook_and_its_kernel_to_the_client(tmp_path, monkeypatch):
    import jupyter_client

    seen = {}

    class Client:
        def __init__(self, nb, km, *args):
            seen.update(nb=nb, km=km)

        def execute(self):
            pass

    monkeypatch.setattr(jupyter_client, "KernelManager", FakeKM)
    monkeypatch.setattr(b, "_client", Client)
    nb = nbformat.v4.new_notebook()
    b.execute(nb, tmp_path, tmp_path / "r.jsonl", 1)
    assert seen["nb"] is nb and seen["km"] is FakeKM.made[-1]


def test_execute_outside_the_main_thread_or_with_foreign_handlers(tmp_path, monkeypatch):
    import threading

    import jupyter_client

    class Client:
        def __init__(self, *args):
            pass

        def execute(self):
            pass

    monkeypatch.setattr(jupyter_client, "KernelManager", FakeKM)
    monkeypatch.setattr(b, "_client", Client)
    nb = nbformat.v4.new_notebook()
    failures = []

    def in_thread():  # signal.signal raises ValueError outside the main thread
        try:
            b.execute(nb, tmp_path, tmp_path / "r.jsonl", 1)
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    t = threading.Thread(target=in_thread)
    t.start()
    t.join()
    assert failures == []
    # a handler installed outside Python reads back as None, which signal.signal refuses
    monkeypatch.setattr(b.signal, "getsignal", lambda sig: None)
    assert b.execute(nb, tmp_path, tmp_path / "r.jsonl", 1) is nb


def test_the_header_of_a_cell_without_outputs_or_with_textless_ones_is_empty():
    nb = nbformat.from_dict({"cells": [
        {"cell_type": "code", "source": "labkit.notebook_header()", "metadata": {}},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})  # fmt: skip
    assert b.stamp(nb)["header"] == ""
    nb.cells[0]["outputs"] = [{"output_type": "stream", "name": "stdout"},
                              {"output_type": "stream", "name": "stdout", "text": "h"}]  # fmt: skip
    assert b.stamp(nb)["header"] == "h"


def test_the_refusals_word_for_word(folder, monkeypatch):
    monkeypatch.setattr(b, "execute", Run())
    path = write_notebook(folder / "nb", "1")
    with pytest.raises(ArgumentError) as err:
        b.bundle(path, folder / "b.zip", timeout=0)
    assert str(err.value) == "timeout: must be between 1 and 86400 (got 0)"
    monkeypatch.setenv("LABKIT_MAX_BYTES", "10")  # a notebook too large to read is a BundleError
    with pytest.raises(BundleError) as err:
        b.bundle(path, folder / "b.zip")
    size = path.stat().st_size
    assert err.value.message == (  # read_bytes' own refusal, not "not a readable notebook"
        f"file is {size} bytes, over this format's limit of 10 (set LABKIT_MAX_BYTES to raise it)"
    )
    assert err.value.file == str(path)
    monkeypatch.delenv("LABKIT_MAX_BYTES")

    def raises(exc):
        def reads(*args, **kw):
            raise exc

        return reads

    monkeypatch.setattr(nbformat, "reads", raises(ValueError("y" * 200 + "\nsecond line")))
    with pytest.raises(BundleError) as err:
        b.bundle(path, folder / "b.zip")
    assert err.value.message == f"not a readable notebook: {'y' * 120}"
    monkeypatch.setattr(nbformat, "reads", raises(KeyError()))
    with pytest.raises(BundleError) as err:
        b.bundle(path, folder / "b.zip")
    assert err.value.message == "not a readable notebook: KeyError"


def test_the_changed_file_refusal_word_for_word(folder, monkeypatch):
    level = folder / "nb" / "level.json"
    monkeypatch.setattr(b, "execute", Run(reads=[level], change=level))
    with pytest.raises(BundleError) as err:
        b.bundle(write_notebook(folder / "nb", "1"), folder / "b.zip")
    assert err.value.message == "data file changed while the notebook ran"


def test_the_read_log_lies_in_bundles_own_scratch_folder_and_the_stamp_reads_the_run(
    folder, monkeypatch
):
    run = Run(outputs=[[out("stream", name="stdout", text="ran")]])
    monkeypatch.setattr(b, "execute", run)
    monkeypatch.setattr(b, "package_versions", dict)
    stamped = []
    monkeypatch.setattr(b, "stamp", lambda nb: stamped.append(nb.cells[0].outputs) or {})
    b.bundle(write_notebook(folder / "nb", "1"), folder / "b.zip")
    assert run.seen["log"].parent.name.startswith("labkit-bundle-")
    assert stamped[0][0]["text"] == "ran"  # the stamp of the executed notebook
