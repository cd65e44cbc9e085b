"""Resumable importance runs (issue 29): the evaluations saved in parts beside a manifest.

:func:`~labkit.encounter.importance` with ``out=DIR`` plays its evaluations (one evaluation =
one block of games at one knob setting) ``PART`` at a time and saves each part's mean outcomes
as ``DIR/part-CC-NNNN.json`` (``CC`` counts the calls for evaluations, ``NNNN`` the parts of
one call). The design and the bootstrap follow from ``rng`` alone, so the same
call again reads the parts it finds, plays only the missing ones and gives the very same table;
another call on the directory (other knobs, seeds, sizes or base) is a
:class:`~labkit.encounter.SweepError` naming what differs.

Parts are checked as a sweep's are (:mod:`~labkit.encounter.sim.sweep_folder`, whose pieces are
reused): each carries the run's identity (``run``: the SHA-256 of the manifest) and the SHA-256
of its values (``sha256``). A part of another run, one without an identity, one whose values
are not all finite numbers (``true`` or ``"0.5"`` edited in: named, never read as 1.0 or 0.5)
or do not match its checksum is refused naming the file; part files without a manifest are
another run's results and are refused, never played over.

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
import json
import math
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
    return open_run_folder(out, manifest, MANIFEST, FORMAT, "importance run",
                           leftovers=("part-*.json", "part files"))  # fmt: skip


def values_digest(values: Sequence[float]) -> str:
    """SHA-256 of a part's values as its file holds them (the canonical JSON list)."""
    text = json.dumps(list(values), separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _part_values(got: Any, path: Path, run: str, size: int) -> list[float]:
    """A part's values, after checking it belongs to run ``run`` and is as it was written."""
    from labkit.encounter.sim.sweep import SweepError

    if not isinstance(got.get("run"), str):
        raise SweepError("not a part of this importance run (no run identity)", file=str(path))
    if got["run"] != run:
        raise SweepError("a part of another importance run (its identity differs from the "
                         "manifest's)", file=str(path))  # fmt: skip
    values = got.get("values")
    if not isinstance(values, list):
        raise SweepError("must be a list of numbers", pointer="/values", value=values,
                         file=str(path))  # fmt: skip
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise SweepError("must be a finite number", pointer=f"/values/{i}", value=v,
                             file=str(path))  # fmt: skip
    if got.get("sha256") != values_digest(values):
        raise SweepError("its values do not match its checksum (edited or damaged)",
                         file=str(path))  # fmt: skip
    if len(values) != size:
        raise SweepError(f"{path} holds {len(values)} evaluations, not {size}", pointer="/values")
    return [float(v) for v in values]


def open_run_folder(out: str | os.PathLike, manifest: Mapping[str, Any], name: str,
                    format: str, what: str, *,
                    leftovers: tuple[str, str] | None = None) -> Path:  # fmt: skip
    """The folder of a resumable run (importance here, ``tune_many``'s study): made with its
    manifest ``name`` on first use; on a resume the manifest must equal ``manifest`` key by key,
    else a :class:`~labkit.encounter.sim.sweep.SweepError` names the key that differs.
    ``leftovers`` is ``(glob, words)``: files matching it without a manifest are another run's
    results, refused in those words."""
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
        if leftovers is not None and d.is_dir() and any(d.glob(leftovers[0])):
            raise SweepError(f"holds {leftovers[1]} but no {name}: they are another "
                             f"{what}'s results; restore its manifest or use a new folder",
                             file=str(d))  # fmt: skip
        d.mkdir(parents=True, exist_ok=True)
        save_json(path, dict(manifest), format=format, version=1, indent=None)
    return d


def resumable(play: Callable[[list, list], Any], out: str | os.PathLike,
              manifest: Mapping[str, Any], *, part: int = PART) -> Callable:  # fmt: skip
    """``play(points, which)`` (mean outcome per evaluation) made resumable in ``out``."""
    from labkit.encounter.sim.sweep import SweepError
    from labkit.encounter.sim.sweep_folder import identity
    from labkit.io import load_json, save_json

    plain = json.loads(json.dumps(manifest))  # as the file holds it (lists, not tuples)
    d = _open(out, plain)
    run = identity(plain)
    calls = [0]

    def evaluate(points: Sequence[dict], which: Sequence[int]) -> np.ndarray:
        values: list[float] = []
        for start in range(0, len(points), part):
            path = d / f"part-{calls[0]:02d}-{start // part:04d}.json"
            size = len(points[start : start + part])
            if path.exists():
                got = load_json(path, format=PART_FORMAT, versions=(1,), error=SweepError)
                values.extend(_part_values(got, path, run, size))
                continue
            new = [float(v) for v in play(list(points[start : start + part]),
                                          list(which[start : start + part]))]  # fmt: skip
            stamp = {"values": new, "run": run, "sha256": values_digest(new)}
            save_json(path, stamp, format=PART_FORMAT, version=1, indent=None)
            values.extend(new)
        calls[0] += 1
        return np.array(values)

    return evaluate


#: The key under which a tune's study journal carries its run's identity (a study user attr).
RUN_ATTR = "labkit.run"
#: Optuna journal operations (``optuna.storages.journal``): 0 create study ... 9 set a trial's
#: system attribute; the ones checked below.
_CREATE_STUDY, _STUDY_ATTR, _CREATE_TRIAL, _TRIAL_PARAM, _LAST_OP = 0, 2, 4, 5, 9


class JournalRepaired(UserWarning):
    """A study journal's torn last line (a power loss mid-write) was dropped on resume."""


def check_journal(path: Path, study: str, params: Sequence[str], run: str) -> bool:
    """Check a tune's Optuna journal before Optuna reads it; True when it carries ``run``.

    Every line must be one JSON journal operation of study ``study`` (id 0) naming only the
    parameters ``params``, and a journal holding trials must carry the run's identity ``run``
    (written by :func:`stamp_journal`). A last line cut short (no newline: a power loss
    mid-write) is dropped, said in one :class:`JournalRepaired` warning; any other bad
    line is a :class:`~labkit.encounter.SweepError` naming the file and the line, and the
    journal is left as it was (never written to).

    Examples
    --------
    >>> import tempfile
    >>> from labkit import LabkitError
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d) / "study.journal"
    ...     _ = p.write_text('{"op_code": 0, "study_name": "s"}\\nnonsense\\n')
    ...     try:
    ...         check_journal(p, "s", ["a"], "id")
    ...     except LabkitError as err:
    ...         print(str(err).replace(d, "DIR"))
    DIR/study.journal: line 2: not a journal line (got 'nonsense')
    """
    import warnings

    from labkit.encounter.sim.sweep import SweepError

    if not path.exists():
        return False
    data = path.read_bytes()
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline, as every written line does
    stamped = trials = False
    known = set(params)

    def refuse(number: int, message: str, value: Any = None) -> None:
        kw = {} if value is None else {"value": value}
        raise SweepError(message, file=str(path), pointer=f"line {number}", **kw)

    for number, raw in enumerate(lines, start=1):
        try:
            op = json.loads(raw)
        except ValueError:
            op = None  # (refused below, outside the except: one line, no chained traceback)
        if op is None and raw.strip() != b"null":
            refuse(number, "not a journal line", raw[:60].decode("utf-8", "replace"))
        code = op.get("op_code") if isinstance(op, dict) else None
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code <= _LAST_OP:
            refuse(number, "not a journal operation (an object with an op_code 0-9)")
        if code == _CREATE_STUDY and op.get("study_name") != study:
            refuse(number, "another study's journal (a study of another name)",
                   op.get("study_name"))  # fmt: skip
        if op.get("study_id", 0) != 0:
            refuse(number, "another study's journal (a second study)", op.get("study_id"))
        if code == _TRIAL_PARAM and op.get("param_name") not in known:
            refuse(number, "a parameter this tune does not have", op.get("param_name"))
        if code == _STUDY_ATTR and RUN_ATTR in (op.get("user_attr") or {}):
            if op["user_attr"][RUN_ATTR] != run:
                refuse(number, "another study's journal (its identity differs from the "
                       "manifest's)")  # fmt: skip
            stamped = True
        trials = trials or code == _CREATE_TRIAL
    if trials and not stamped:
        raise SweepError("another study's journal (no run identity)", file=str(path))
    if torn:  # Optuna writes each line whole with its newline: a line without one was cut
        from labkit.io import atomic_write

        with atomic_write(path, "wb") as fh:  # the whole lines, as they were written
            fh.write(data[: len(data) - len(torn)])
        warnings.warn(f"{path}: line {len(lines) + 1}: a torn last line (cut short by a crash, "
                      f"{len(torn)} bytes) was dropped; the study resumes from the line before",
                      JournalRepaired, stacklevel=3)  # fmt: skip
    return stamped


def stamp_journal(study: Any, run: str) -> None:
    """Write the run's identity into a new study's journal (a study user attribute)."""
    study.set_user_attr(RUN_ATTR, run)
