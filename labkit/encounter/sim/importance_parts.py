"""Resumable importance runs (issue 29): the evaluations saved in parts beside a manifest.

:func:`~labkit.encounter.importance` with ``out=DIR`` plays its evaluations (one evaluation =
one block of games at one knob setting) ``PART`` at a time and saves each part's mean outcomes
as ``DIR/part-CC-NNNN.json`` (``CC`` counts the calls for evaluations, ``NNNN`` the parts of
one call). The design and the bootstrap follow from ``rng`` alone, so the same
call again reads the parts it finds, plays only the missing ones and gives the very same table;
another call on the directory (other knobs, seeds, sizes or base) is a
:class:`~labkit.encounter.SweepError` naming what differs.

Examples
--------
>>> import tempfile
>>> calls = []
>>> def play(points, which):
...     calls.append(len(points))
...     return [float(p["x"]) for p in points]
>>> with tempfile.TemporaryDirectory() as d:
...     a = resumable(play, d, {"k": 1}, part=2)([{"x": 1}, {"x": 2}, {"x": 3}], [0, 1, 2])
...     b = resumable(play, d, {"k": 1}, part=2)([{"x": 1}, {"x": 2}, {"x": 3}], [0, 1, 2])
>>> a.tolist() == b.tolist() == [1.0, 2.0, 3.0], calls
(True, [2, 1])
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["resumable", "seeds_digest", "PART", "MANIFEST"]

PART = 2048  # evaluations per saved part: a lost part costs a minute or two of games
MANIFEST = "importance.json"
FORMAT = "labkit.importance"
PART_FORMAT = "labkit.importance_part"


def seeds_digest(blocks: np.ndarray) -> str:
    """A short fingerprint of the seed blocks (the manifest does not list a million seeds)."""
    return hashlib.sha256(np.ascontiguousarray(blocks, dtype=np.int64).tobytes()).hexdigest()[:16]


def _open(out: str | os.PathLike, manifest: Mapping[str, Any]) -> Path:
    return open_run_folder(out, manifest, MANIFEST, FORMAT, "importance run")


def open_run_folder(out: str | os.PathLike, manifest: Mapping[str, Any], name: str,
                    format: str, what: str) -> Path:  # fmt: skip
    """The folder of a resumable run (importance here, ``tune_many``'s study): made with its
    manifest ``name`` on first use; on a resume the manifest must equal ``manifest`` key by key,
    else a :class:`~labkit.encounter.sim.sweep.SweepError` names the key that differs."""
    from labkit.encounter.sim.sweep import SweepError
    from labkit.io import load_json, save_json

    d = Path(out)
    path = d / name
    if path.exists():
        old = load_json(path, format=format, versions=(1,), error=SweepError)
        for key, value in manifest.items():
            if old.get(key) != value:
                raise SweepError(f"{d} holds a different {what} ({key} differs); "
                                 "resume it with the same call or use a new directory",
                                 pointer="/" + key)  # fmt: skip
    else:
        d.mkdir(parents=True, exist_ok=True)
        save_json(path, dict(manifest), format=format, version=1, indent=None)
    return d


def resumable(play: Callable[[list, list], Any], out: str | os.PathLike,
              manifest: Mapping[str, Any], *, part: int = PART) -> Callable:  # fmt: skip
    """``play(points, which)`` (mean outcome per evaluation) made resumable in ``out``."""
    import json

    from labkit.encounter.sim.sweep import SweepError
    from labkit.io import load_json, save_json

    d = _open(out, json.loads(json.dumps(manifest)))  # as the file holds it (lists, not tuples)
    calls = [0]

    def evaluate(points: Sequence[dict], which: Sequence[int]) -> np.ndarray:
        values: list[float] = []
        for start in range(0, len(points), part):
            path = d / f"part-{calls[0]:02d}-{start // part:04d}.json"
            size = len(points[start : start + part])
            if path.exists():
                got = load_json(path, format=PART_FORMAT, versions=(1,), error=SweepError)
                if len(got.get("values", ())) != size:
                    raise SweepError(f"{path} holds {len(got.get('values', ()))} evaluations, "
                                     f"not {size}", pointer="/values")  # fmt: skip
                values.extend(float(v) for v in got["values"])
                continue
            new = [float(v) for v in play(list(points[start : start + part]),
                                          list(which[start : start + part]))]  # fmt: skip
            save_json(path, {"values": new}, format=PART_FORMAT, version=1, indent=None)
            values.extend(new)
        calls[0] += 1
        return np.array(values)

    return evaluate
