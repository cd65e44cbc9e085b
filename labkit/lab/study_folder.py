"""A study's folder: self-describing, exclusive and checked part by part (any game, any study).

* ``manifest.json`` records the study (its game, knobs, points, seeds, settings, code version,
  labkit version) and its identity: the SHA-256 of exactly those values (:func:`identity`).
* Every ``part-*.parquet`` carries, in its Parquet key-value metadata (under the study's
  ``meta_key``), that identity and the SHA-256 of its own rows (:func:`rows_digest`). On resume
  a part whose identity differs (copied in from another study), that has none, whose rows do
  not match its digest (an edited outcome), or whose points/seeds lie outside the study is
  refused in one line naming the file; a part that cannot be read at all (cut short by a power
  loss) is removed and its games played again.
* Part files without a manifest are refused: they are another study's results.
* One process at a time: :func:`hold` takes an exclusive ``flock`` on ``.lock`` in the folder
  for the whole call; a second process is refused at once. The OS releases the lock however
  the holder ends (exit, exception, ``kill -9``).

Every function takes ``error``, the :class:`StudyError` subclass to raise, so that a study
keeps its own error (the encounter sweep's :class:`~labkit.encounter.sim.sweep.SweepError`).

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> man = {"game": "dice duel", "points": [{"hp": 3}], "seeds": [0, 1]}
>>> with hold(folder, "a sweep"):
...     sid = open_dir(folder, man, "labkit.lab.sweep", 1, keys=("game", "points", "seeds"))
>>> sid == identity(man), (folder / MANIFEST).exists()
(True, True)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from labkit import LabkitError

__all__ = ["StudyError", "identity", "rows_digest", "hold", "open_dir", "read_parts", "write_part"]


MANIFEST = "manifest.json"
LOCK = ".lock"
#: The metadata key a lab study's parts are stamped under.
META_KEY = b"labkit.lab"


class StudyError(LabkitError):
    """A study folder that holds another study, or part files that do not fit it."""


def identity(manifest: dict) -> str:
    """The study's identity: SHA-256 of its canonical JSON (without the identity itself).

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
def hold(out: Path, what: str = "a sweep", *, error: type[LabkitError] = StudyError,
         ) -> Iterator[None]:  # fmt: skip
    """Hold the folder's exclusive lock for the block; ``error`` if another process does.

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
            raise error(f"another process is running {holder} in this folder; wait for "
                        "it or use a new folder", file=str(out)) from None  # fmt: skip
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{what} (process {os.getpid()})".encode("ascii", "replace"), 0)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def open_dir(out: Path, manifest: dict, format: str, version: int, *, keys: Sequence[str],
             error: type[LabkitError] = StudyError, what: str = "sweep") -> str:  # fmt: skip
    """Check or write the manifest; remove a killed run's temporaries; the study's identity.

    ``keys`` are the manifest entries that must agree with an existing manifest (the first
    that differs is named)."""
    from labkit.io import load_json, save_json

    path = out / MANIFEST
    manifest = {**manifest, "sweep_id": identity(manifest)}
    if path.exists():
        old = load_json(path, format=format, versions=(version,), error=error)
        for key in keys:
            if old.get(key) != manifest[key]:
                raise error(
                    f"{out} holds a different {what} ({key} differs); resume it with the same "
                    "call or use a new directory", pointer="/" + key,
                )  # fmt: skip
    else:
        if any(out.glob("part-*.parquet")):
            raise error(f"holds part files but no manifest.json: they are another {what}'s "
                        "results; restore its manifest or use a new folder",
                        file=str(out))  # fmt: skip
        out.mkdir(parents=True, exist_ok=True)
        save_json(path, manifest, format=format, version=version, indent=None)
    for tmp in out.glob(".part-*.tmp"):  # left by a killed run: never a finished part
        tmp.unlink(missing_ok=True)
    return str(manifest["sweep_id"])


def read_parts(out: Path, sweep_id: str, columns: list[str], n_points: int, seeds: list[int],
               *, error: type[LabkitError] = StudyError, meta_key: bytes = META_KEY,
               what: str = "sweep") -> list[Any]:  # fmt: skip
    """The tables of the finished part files, each checked to belong to this study."""
    import pyarrow.parquet as pq

    known = set(seeds)
    tables = []
    for part in sorted(out.glob("part-*.parquet")):
        try:
            t = pq.read_table(part)
        except (OSError, ValueError):  # ArrowInvalid: a part cut short by a power loss
            part.unlink()  # its games are simply played again
            continue
        meta = (t.schema.metadata or {}).get(meta_key)
        try:
            stamp = json.loads(meta) if meta else {}
        except ValueError:
            stamp = {}
        if not isinstance(stamp, dict) or "sweep" not in stamp:
            raise error(f"not a part of this {what} (no {what} identity)", file=str(part))
        if stamp["sweep"] != sweep_id:
            raise error(f"a part of another {what} (its identity differs from the "
                        "manifest's)", file=str(part))  # fmt: skip
        t = t.replace_schema_metadata(None)
        if t.column_names != columns:
            raise error(f"a part file does not fit this {what}", file=str(part))
        if stamp.get("sha256") != rows_digest(t):
            raise error("its rows do not match its checksum (edited or damaged)",
                        file=str(part))  # fmt: skip
        points, part_seeds = t.column("point").to_pylist(), t.column("seed").to_pylist()
        if any(not 0 <= k < n_points for k in points) or not known.issuperset(part_seeds):
            raise error(f"holds games outside this {what}'s points or seeds", file=str(part))
        tables.append(t)
    return tables


def write_part(out: Path, table: Any, first_job: int, sweep_id: str, *,
               meta_key: bytes = META_KEY) -> None:  # fmt: skip
    """Write one part atomically, stamped with the study's identity and its rows' digest."""
    import pyarrow.parquet as pq

    from labkit.io import atomic_write

    stamp = json.dumps({"sweep": sweep_id, "sha256": rows_digest(table)})
    stamped = table.replace_schema_metadata({meta_key: stamp.encode()})
    with atomic_write(out / f"part-{first_job:09d}-{os.getpid()}.parquet", "wb") as fh:
        pq.write_table(stamped, fh)
