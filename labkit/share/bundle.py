"""``labkit bundle``: a notebook, executed fresh, packed with everything needed to check it.

A bundle is a zip file holding

* ``manifest.json`` (format ``labkit.bundle``, version 1): the notebook's name, every data file
  it read through labkit's loaders with its SHA-256 and size, the installed package versions,
  the reproducibility stamp and the tolerances :mod:`labkit.share.verify` applies;
* ``notebook/NAME.ipynb``: the executed notebook (static figures, widget state kept);
* ``data/...``: the files read from labkit's data folder, at their paths inside it;
* ``notebook/...``: files read from beside the notebook, at their paths relative to it.

Reads are recorded by the loaders themselves (:func:`labkit.io.record_read`, switched on through
``$LABKIT_READ_LOG`` in the kernel's environment). A file read from anywhere else is listed in
the manifest with its hash (``"external": true``) but not packed. The zip is written atomically
with fixed timestamps, so the same run gives the same bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import signal
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import labkit
from labkit import LabkitError
from labkit.io import READ_LOG_ENV, atomic_write, dumps

FORMAT = "labkit.bundle"
VERSION = 1
#: Longest per-cell timeout ``bundle`` and ``verify`` take, in seconds (a day).
MAX_TIMEOUT = 86_400
ZIP_DATE = (2000, 1, 1, 0, 0, 0)  # fixed: the same inputs give the same zip bytes
# What verify accepts as "the same" (documented in labkit.share.verify and the README).
TOLERANCE = {
    "numbers_rtol": 1e-6,
    "numbers_atol": 1e-9,
    "pixel_level": 16,
    "pixel_share": 0.005,
}


class BundleError(LabkitError):
    """A bundle that cannot be made, read or trusted."""


@contextlib.contextmanager
def environment(**values: str | None) -> Iterator[None]:
    """Set (or, with None, remove) environment variables for the block; restore them after.

    The kernel nbclient starts inherits this process's environment, which is how the read log,
    static figures and the data folder reach the notebook.
    """
    saved = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _client(nb: Any, km: Any, timeout: int, folder: Path, scratch: list[Path]) -> Any:
    """An nbclient whose SIGINT/SIGTERM stop the run at once (see :func:`_stop_now`).

    nbclient installs loop signal handlers that only schedule a kernel clean-up and let the
    notebook run on; ours replace them right after, before the kernel starts.
    """
    import asyncio

    from nbclient import NotebookClient

    class Client(NotebookClient):  # type: ignore[misc]
        async def async_start_new_kernel(self, **kwargs: Any) -> None:
            loop = asyncio.get_running_loop()
            with contextlib.suppress(RuntimeError, ValueError):  # outside the main thread
                for sig in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(sig)
                    signal.signal(sig, lambda signum, frame: _stop_now(signum, km, scratch))
            await super().async_start_new_kernel(**kwargs)

    return Client(nb, km=km, timeout=timeout, kernel_name="python3", allow_errors=True,
                  resources={"metadata": {"path": str(folder)}})  # fmt: skip


def _stop_now(signum: int, km: Any, scratch: list[Path]) -> None:
    """Kill the kernel, remove the scratch folders and exit 130/143 with one line or none.

    An exception raised here would unwind through nbclient's and asyncio's pending tasks,
    which swallow it or print tracebacks at exit; nothing is being written by us while the
    notebook runs, so a direct exit after the clean-up is the clean one.
    """
    import shutil
    import sys

    with contextlib.suppress(Exception):
        os.kill(km.provisioner.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        Path(km.connection_file).unlink()
    for folder in scratch:
        shutil.rmtree(folder, ignore_errors=True)
    if signum == signal.SIGINT:
        print("labkit: interrupted", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def execute(nb: Any, folder: Path, read_log: Path, timeout: int, **env: str) -> Any:
    """Run ``nb`` (in place) in ``folder`` with static figures, recording data reads.

    The kernel talks over IPC sockets in a private temporary folder, not TCP: nothing listens
    on the network, and the kernel prints no transport-encryption warning meant for kernel
    developers on the user's terminal. SIGINT/SIGTERM stop the kernel and exit 130/143,
    removing ``read_log``'s (scratch) folder.
    """
    from jupyter_client import KernelManager

    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    with (
        environment(LABKIT_STATIC_FIGURES="1", **{READ_LOG_ENV: str(read_log)}, **env),
        tempfile.TemporaryDirectory(prefix="labkit-kernel-") as sockets,
    ):
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "k"))
        try:
            _client(nb, km, timeout, folder, [Path(sockets), read_log.parent]).execute()
        finally:
            if km.has_kernel:
                km.shutdown_kernel(now=True)
            for sig, handler in handlers.items():  # nbclient leaves the defaults behind
                with contextlib.suppress(ValueError, TypeError):
                    signal.signal(sig, handler)
    return nb


def code_cells(nb: Any) -> list[Any]:
    """The notebook's code cells (numbered from 0 in every report)."""
    return [c for c in nb.cells if c.cell_type == "code"]


def errors(cell: Any) -> list[str]:
    """``"Name: message"`` of each error output of a cell."""
    return [f"{o.get('ename')}: {o.get('evalue')}" for o in cell.get("outputs", [])
            if o.get("output_type") == "error"]  # fmt: skip


def reads(log: Path) -> dict[str, str]:
    """``{absolute path: sha256}`` of every file recorded in a read log (first read wins)."""
    found: dict[str, str] = {}
    if log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            found.setdefault(row["path"], row["sha256"])
    return found


def place(path: Path, notebook_dir: Path) -> tuple[str, bool]:
    """Where a read file goes inside the bundle: ``(arcname, external)``."""
    from labkit._data import data_dir

    for root, prefix in ((data_dir().resolve(), "data"), (notebook_dir.resolve(), "notebook")):
        with contextlib.suppress(ValueError):
            return f"{prefix}/{path.relative_to(root).as_posix()}", False
    return path.as_posix(), True


def package_versions() -> dict[str, str]:
    """Installed distributions and their versions, sorted by name."""
    import importlib.metadata as md

    versions = {}
    for dist in md.distributions():
        name = dist.metadata["Name"]
        if name:
            versions[name.lower()] = dist.version
    return dict(sorted(versions.items()))


def stamp(nb: Any) -> dict[str, Any]:
    """The facts of this run: labkit's stamp fields plus the header cell's printed stamp."""
    import datetime as dt

    from labkit._notebook import git_commit

    header = ""
    for cell in nb.cells:
        if cell.cell_type == "code" and "notebook_header" in cell.source:
            header = "".join(
                o.get("text", "") for o in cell.get("outputs", []) if o.get("name") == "stdout"
            )
            break
    return {
        "labkit": labkit.__version__,
        "commit": git_commit(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "time": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "header": header,
    }


def bundle(notebook: str | os.PathLike, out: str | os.PathLike, *, timeout: int = 600) -> dict:
    """Execute ``notebook`` fresh and write the bundle ``out``; returns the manifest.

    Raises
    ------
    BundleError
        The notebook is missing or unreadable, or a data file changed while the notebook ran.
    ArgumentError
        ``timeout`` outside 1 to :data:`MAX_TIMEOUT` seconds; OSError: ``out`` is not writable
        (both checked before the notebook runs).
    """
    import nbformat

    from labkit._args import check_int
    from labkit.io import check_writable, read_bytes

    timeout = check_int(timeout, "timeout", 1, MAX_TIMEOUT)
    check_writable(out)
    path = Path(notebook)
    if not path.is_file():
        raise BundleError("notebook not found", file=str(path))
    try:
        nb = nbformat.reads(read_bytes(path, error=BundleError).decode("utf-8"), as_version=4)
    except BundleError:
        raise
    except Exception as exc:  # noqa: BLE001 - nbformat raises many kinds for a bad notebook
        why = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise BundleError(f"not a readable notebook: {why}", file=str(path)) from None
    with tempfile.TemporaryDirectory(prefix="labkit-bundle-") as tmp:
        log = Path(tmp) / "reads.jsonl"
        execute(nb, path.parent, log, timeout)
        read = reads(log)
    failed = [i for i, cell in enumerate(code_cells(nb)) if errors(cell)]
    if failed:
        raise BundleError(f"code cell {failed[0]} raised: {errors(code_cells(nb)[failed[0]])[0]}",
                          file=str(path))  # fmt: skip
    files, payload = [], {}
    for name, digest in sorted(read.items()):
        src = Path(name)
        data = src.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            raise BundleError("data file changed while the notebook ran", file=name)
        arcname, external = place(src, path.parent)
        files.append({"path": arcname, "sha256": digest, "bytes": len(data), "external": external})
        if not external:
            payload[arcname] = data
    notebook = f"notebook/{path.name}"
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "notebook": notebook,
        "files": files,
        "packages": package_versions(),
        "stamp": stamp(nb),
        "tolerance": TOLERANCE,
    }
    payload[notebook] = nbformat.writes(nb).encode("utf-8")
    payload["manifest.json"] = dumps(manifest).encode("utf-8")
    with atomic_write(out, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname in ["manifest.json", *sorted(k for k in payload if k != "manifest.json")]:
            info = zipfile.ZipInfo(arcname, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, payload[arcname])
    return manifest
