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

The machinery is the lab's, for any game (:mod:`labkit.lab.study_folder`); this module keeps
the sweep's manifest keys, its metadata key and its :class:`SweepError`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labkit import LabkitError
from labkit.lab import study_folder as _folder

# re-exported: the sweep, tune, importance runs and their tests import them from here
from labkit.lab.study_folder import LOCK, MANIFEST, identity, rows_digest  # noqa: F401

META_KEY = b"labkit.sweep"
# The manifest entries a resumed sweep must repeat exactly (the first that differs is named).
KEYS = ("parameters", "points", "seeds", "base", "mode", "labkit_version")


class SweepError(LabkitError):
    """A sweep directory that holds another sweep, or part files that do not fit it."""


@contextlib.contextmanager
def hold(out: Path, what: str = "a sweep") -> Iterator[None]:
    """Hold the folder's exclusive lock for the block; :class:`SweepError` if another does.

    ``what`` is this run (a sweep, a tune, an importance run), written into the lock file so
    that a refused second process is told what holds the folder."""
    with _folder.hold(out, what, error=SweepError):
        yield


def open_dir(out: Path, manifest: dict, format: str, version: int) -> str:
    """Check or write the manifest; remove a killed run's temporaries; the sweep's identity."""
    return _folder.open_dir(out, manifest, format, version, keys=KEYS, error=SweepError)


def read_parts(out: Path, sweep_id: str, columns: list[str], n_points: int,
               seeds: list[int]) -> list[Any]:  # fmt: skip
    """The tables of the finished part files, each checked to belong to this sweep."""
    return _folder.read_parts(out, sweep_id, columns, n_points, seeds, error=SweepError,
                              meta_key=META_KEY)  # fmt: skip


def write_part(out: Path, table: Any, first_job: int, sweep_id: str) -> None:
    """Write one part atomically, stamped with the sweep's identity and its rows' digest."""
    _folder.write_part(out, table, first_job, sweep_id, meta_key=META_KEY)
