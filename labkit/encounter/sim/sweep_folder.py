"""A sweep's folder: self-describing, exclusive and checked part by part.

* ``manifest.json`` records the sweep (base settings, parameters, points, seeds, mode, labkit
  version) and its identity: the SHA-256 of exactly those values (:func:`identity`).
* Every ``part-*.parquet`` carries, in its Parquet key-value metadata under ``labkit.sweep``,
  that identity and the SHA-256 of its own rows (:func:`rows_digest`). On resume a part whose
  identity differs (copied in from another sweep), that has none, whose rows do not match its
  digest (an edited ``winner``), or whose points/seeds lie outside the sweep is refused naming
  the file; a part that cannot be read at all (cut short by a power loss) is removed and its
  games played again.
* Part files without a manifest are refused: they are another sweep's results.
* One process at a time: :func:`hold` takes an exclusive ``flock`` on ``.lock`` in the folder
  for the whole call; a second process is refused at once. The OS releases the lock however
  the holder ends (exit, exception, ``kill -9``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labkit import LabkitError

MANIFEST = "manifest.json"
LOCK = ".lock"
META_KEY = b"labkit.sweep"


class SweepError(LabkitError):
    """A sweep directory that holds another sweep, or part files that do not fit it."""


def identity(manifest: dict) -> str:
    """The sweep's identity: SHA-256 of its canonical JSON (without the identity itself).

    Examples
    --------
    >>> a = identity({"seeds": [0, 1], "points": [{"npcs": 2}]})
    >>> a == identity({"points": [{"npcs": 2}], "seeds": [0, 1]}), len(a)
    (True, 64)
    """
    body = {k: v for k, v in manifest.items() if k != "sweep_id"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def rows_digest(table: Any) -> str:
    """SHA-256 of a part's rows: column names and values, independent of Parquet encoding."""
    data = {name: table.column(name).to_pylist() for name in table.column_names}
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


@contextlib.contextmanager
def hold(out: Path, what: str = "a sweep") -> Iterator[None]:
    """Hold the folder's exclusive lock for the block; :class:`SweepError` if another does.

    ``what`` is this run (a sweep, a tune, an importance run), written into the lock file so
    that a refused second process is told what holds the folder."""
    import fcntl

    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("ascii", "replace").strip() or "a sweep"
            raise SweepError(f"another process is running {holder} in this folder; wait for "
                             "it or use a new folder", file=str(out)) from None  # fmt: skip
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{what} (process {os.getpid()})".encode("ascii", "replace"), 0)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def open_dir(out: Path, manifest: dict, format: str, version: int) -> str:
    """Check or write the manifest; remove a killed run's temporaries; the sweep's identity."""
    from labkit.io import load_json, save_json

    path = out / MANIFEST
    manifest = {**manifest, "sweep_id": identity(manifest)}
    if path.exists():
        old = load_json(path, format=format, versions=(version,), error=SweepError)
        for key in ("parameters", "points", "seeds", "base", "mode", "labkit_version"):
            if old.get(key) != manifest[key]:
                raise SweepError(
                    f"{out} holds a different sweep ({key} differs); resume it with the same "
                    "call or use a new directory", pointer="/" + key,
                )  # fmt: skip
    else:
        if any(out.glob("part-*.parquet")):
            raise SweepError("holds part files but no manifest.json: they are another sweep's "
                             "results; restore its manifest or use a new folder",
                             file=str(out))  # fmt: skip
        out.mkdir(parents=True, exist_ok=True)
        save_json(path, manifest, format=format, version=version, indent=None)
    for tmp in out.glob(".part-*.tmp"):  # left by a killed run: never a finished part
        tmp.unlink(missing_ok=True)
    return str(manifest["sweep_id"])


def read_parts(out: Path, sweep_id: str, columns: list[str], n_points: int,
               seeds: list[int]) -> list[Any]:  # fmt: skip
    """The tables of the finished part files, each checked to belong to this sweep."""
    import pyarrow.parquet as pq

    known = set(seeds)
    tables = []
    for part in sorted(out.glob("part-*.parquet")):
        try:
            t = pq.read_table(part)
        except (OSError, ValueError):  # ArrowInvalid: a part cut short by a power loss
            part.unlink()  # its games are simply played again
            continue
        meta = (t.schema.metadata or {}).get(META_KEY)
        try:
            stamp = json.loads(meta) if meta else {}
        except ValueError:
            stamp = {}
        if not isinstance(stamp, dict) or "sweep" not in stamp:
            raise SweepError("not a part of this sweep (no sweep identity)", file=str(part))
        if stamp["sweep"] != sweep_id:
            raise SweepError("a part of another sweep (its identity differs from the "
                             "manifest's)", file=str(part))  # fmt: skip
        t = t.replace_schema_metadata(None)
        if t.column_names != columns:
            raise SweepError("a part file does not fit this sweep", file=str(part))
        if stamp.get("sha256") != rows_digest(t):
            raise SweepError("its rows do not match its checksum (edited or damaged)",
                             file=str(part))  # fmt: skip
        points, part_seeds = t.column("point").to_pylist(), t.column("seed").to_pylist()
        if any(not 0 <= k < n_points for k in points) or not known.issuperset(part_seeds):
            raise SweepError("holds games outside this sweep's points or seeds", file=str(part))
        tables.append(t)
    return tables


def write_part(out: Path, table: Any, first_job: int, sweep_id: str) -> None:
    """Write one part atomically, stamped with the sweep's identity and its rows' digest."""
    import pyarrow.parquet as pq

    from labkit.io import atomic_write

    stamp = json.dumps({"sweep": sweep_id, "sha256": rows_digest(table)})
    stamped = table.replace_schema_metadata({META_KEY: stamp.encode()})
    with atomic_write(out / f"part-{first_job:09d}-{os.getpid()}.parquet", "wb") as fh:
        pq.write_table(stamped, fh)
