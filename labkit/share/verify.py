"""``labkit verify``: re-execute a bundle's notebook here and compare it with what it recorded.

Steps: every packed data file is checked against its SHA-256 in the manifest; the notebook is
re-executed fresh in a scratch folder laid out as in the bundle (labkit's current data folder
with the bundle's files on top, ``$LABKIT_DATA_DIR`` pointing at it); then each code cell's
outputs are compared with the recorded ones:

* **text** (printed output, ``text/plain``, ``text/html``, widget snapshots without their
  images) must be equal once wall-clock timings, memory addresses and the stamp's run time and
  commit are masked;
* **numbers** inside otherwise equal text may differ within ``rtol = 1e-6`` and
  ``atol = 1e-9`` (``|a - b| <= atol + rtol * |b|``, as ``numpy.isclose``);
* **figures** (PNG images, also those inside widget apps) must have the same size, and at most
  0.5 % of their pixels may differ by more than 16 (of 255) in any channel;
* **package versions** recorded in the manifest that differ here (or are missing) are listed.

The result is ok (exit status 0) only when every file, every cell and every package matches.
Nothing in the bundle is evaluated as code other than the notebook's own cells, run by a kernel
as the person verifying asked for.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import io
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labkit.share.bundle import (
    MAX_TIMEOUT,
    TOLERANCE,
    BundleError,
    code_cells,
    errors,
    execute,
    package_versions,
    reads,
)
from labkit.share.bundle_zip import BundleZip, safe_name

TIMING = re.compile(
    r"\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ns|µs|us|ms|s|sec|seconds|min|it/s|s/it|nb/s)\b"
    r"|\[\d\d:\d\d(?:<[\d:?]+)?(?:,\s*[^\]]*)?\]"
)
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
STAMP = re.compile(r"(run at )\S+|(commit )\S+\)")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
PNG_URL = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=\s]+)")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass
class Verdict:
    """What ``labkit verify`` found; ``ok`` only when every list of problems is empty."""

    cells: list[tuple[int, str, bool]] = field(default_factory=list)  # (cell, message, ok)
    files: list[str] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # shown, never a mismatch

    @property
    def ok(self) -> bool:
        return not self.files and not self.packages and all(ok for _, _, ok in self.cells)

    def lines(self) -> list[str]:
        out = [f"data file {m}" for m in self.files] + [f"note: {m}" for m in self.notes]
        out += [f"cell {i}: {m}" for i, m, _ in self.cells]
        out += [f"package {m}" for m in self.packages]
        mismatches = len(self.files) + len(self.packages) + sum(not ok for *_, ok in self.cells)
        out.append("verified: everything matches" if self.ok else f"{mismatches} mismatch(es)")
        return out


def _mask(text: str) -> str:
    text = TIMING.sub("<t>", text)
    text = ADDRESS.sub("0x<addr>", text)
    return STAMP.sub(lambda m: (m.group(1) or m.group(2)) + "<masked>", text)


def compare_text(old: str, new: str) -> tuple[bool, str]:
    """Compare two outputs' text; numbers may differ within the tolerance."""
    a, b = _mask(old), _mask(new)
    if a == b:
        return True, "same text"
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        la, lb = a.splitlines(), b.splitlines()
        i = next((k for k, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
        was = la[i] if i < len(la) else "<nothing>"
        now = lb[i] if i < len(lb) else "<nothing>"
        return False, f"text differs at line {i + 1}: recorded {was[:80]!r}, now {now[:80]!r}"
    rtol, atol = TOLERANCE["numbers_rtol"], TOLERANCE["numbers_atol"]
    worst = 0.0
    for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
        fx, fy = float(x), float(y)
        if abs(fx - fy) > atol + rtol * abs(fy):
            return False, f"number {x} recorded, {y} now (beyond rtol {rtol:g}, atol {atol:g})"
        worst = max(worst, abs(fx - fy))
    return True, f"numbers within tolerance (largest difference {worst:.3g})"


def compare_png(old: bytes, new: bytes) -> tuple[bool, str]:
    """Compare two PNG images pixel by pixel within the documented tolerance."""
    import numpy as np
    from PIL import Image

    a = np.asarray(Image.open(io.BytesIO(old)).convert("RGBA"), dtype=np.int16)
    b = np.asarray(Image.open(io.BytesIO(new)).convert("RGBA"), dtype=np.int16)
    if a.shape != b.shape:
        return (
            False,
            f"figure size {a.shape[1]}x{a.shape[0]} recorded, {b.shape[1]}x{b.shape[0]} now",
        )
    share = float((np.abs(a - b).max(axis=2) > TOLERANCE["pixel_level"]).mean())
    if not share:
        return True, "same figure"
    if share > TOLERANCE["pixel_share"]:
        return False, f"figure differs in {100 * share:.2f} % of pixels (tolerance 0.5 %)"
    return True, f"figure within tolerance ({100 * share:.3f} % of pixels differ)"


def _parts(cell: Any, state: dict) -> tuple[list[str], list[bytes]]:
    """A cell's comparable texts and PNG images (widget views as their static snapshot)."""
    from labkit.share.snapshot import render_widget

    texts, pngs = [], []
    # A kernel splits printed text into stream outputs as it flushes: compare it as one text.
    printed = "".join(
        "".join(o.get("text", "")) for o in cell.get("outputs", [])
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )  # fmt: skip
    if printed:
        texts.append(printed)
    for out in cell.get("outputs", []):
        kind = out.get("output_type")
        if kind == "stream":
            continue  # stdout above; stderr: warnings and progress bars, not results
        if kind == "error":
            texts.append(f"error {out.get('ename')}: {out.get('evalue')}")
            continue
        data = out.get("data", {})
        if WIDGET_VIEW in data:
            html = render_widget(data[WIDGET_VIEW].get("model_id", ""), state)
            pngs += [base64.b64decode(m) for m in PNG_URL.findall(html)]
            texts.append(PNG_URL.sub("data:image/png", html))
            continue
        if "image/png" in data:
            pngs.append(base64.b64decode("".join(data["image/png"])))
        for mime in ("text/html", "text/plain"):
            if mime in data:
                texts.append("".join(data[mime]))
                break
    return texts, pngs


def _state(nb: Any) -> dict:
    widgets = nb.get("metadata", {}).get("widgets", {})
    return widgets.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})


def compare_cells(recorded: Any, fresh: Any) -> list[tuple[int, str, bool]]:
    """One ``(cell, message, ok)`` row per code cell."""
    rows = []
    old_cells, new_cells = code_cells(recorded), code_cells(fresh)
    if len(old_cells) != len(new_cells):
        return [(0, f"{len(old_cells)} code cells recorded, {len(new_cells)} now", False)]
    old_state, new_state = _state(recorded), _state(fresh)
    for i, (old, new) in enumerate(zip(old_cells, new_cells)):
        if errors(new):
            rows.append((i, f"raised now: {errors(new)[0]}", False))
            continue
        (ot, op), (nt, np_) = _parts(old, old_state), _parts(new, new_state)
        problems: list[str] = []
        notes: list[str] = []
        if len(ot) != len(nt):
            problems.append(f"{len(ot)} text outputs recorded, {len(nt)} now")
        for a, b in zip(ot, nt):
            same, why = compare_text(a, b)
            (notes if same else problems).append(why)
        if len(op) != len(np_):
            problems.append(f"{len(op)} figures recorded, {len(np_)} now")
        for old_png, new_png in zip(op, np_):
            same, why = compare_png(old_png, new_png)
            (notes if same else problems).append(why)
        if problems:
            rows.append((i, "; ".join(problems), False))
        else:
            loose = [n for n in notes if not n.startswith("same ")]
            rows.append((i, "ok" + (f" ({'; '.join(loose)})" if loose else ""), True))
    return rows


def _notebook(raw: bytes, name: str, file: str) -> Any:
    import nbformat

    try:
        return nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception as exc:  # noqa: BLE001 - nbformat raises many kinds for a bad notebook
        why = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise BundleError(f"entry {name!r} is not a readable notebook: {why}", file=file) from None


def verify(path: str | Path, *, timeout: int = 600) -> Verdict:
    """Check a bundle's files and re-execute its notebook here; see the module docstring.

    Every entry is checked before extraction (:mod:`labkit.share.bundle_zip`: limits, names,
    duplicates, manifest keys); files marked external are listed, never opened.
    """
    from labkit._args import check_int
    from labkit._data import data_dir

    timeout = check_int(timeout, "timeout", 1, MAX_TIMEOUT)
    verdict = Verdict()
    file = str(path)
    if not os.path.isfile(path):  # a FIFO would block, a folder or device is no bundle
        why = "not a regular file" if os.path.exists(path) else "file not found"
        raise BundleError(why, file=file)
    with BundleZip(path, file) as bz, tempfile.TemporaryDirectory(prefix="labkit-verify-") as tmp:
        if "manifest.json" not in bz.entries:
            raise BundleError("no manifest.json", file=file)
        manifest = bz.manifest()
        nb_name = safe_name(manifest["notebook"])
        recorded = _notebook(bz.read(nb_name), nb_name, file)
        root = Path(tmp)
        if data_dir().is_dir():  # unrecorded reads of shipped files still find them
            shutil.copytree(data_dir(), root / "data")
        (root / "notebook").mkdir()
        for entry in manifest["files"]:
            if entry.get("external"):
                verdict.notes.append(f"{entry['path']} (external): not checked, verify reads "
                                     "nothing outside the bundle")  # fmt: skip
                continue
            name = safe_name(entry["path"])
            if name not in bz.entries:
                verdict.files.append(f"{name}: listed in the manifest but not in the bundle")
                continue
            data = bz.read(name)
            if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                sizes = "" if len(data) == entry["bytes"] else (
                    f", {len(data)} bytes, {entry['bytes']} recorded")  # fmt: skip
                verdict.files.append(f"{name}: SHA-256 differs from the manifest (altered{sizes})")
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        fresh = copy.deepcopy(recorded)
        for cell in code_cells(fresh):
            cell.outputs, cell.execution_count = [], None
        fresh.metadata.pop("widgets", None)
        log = root / "reads.jsonl"
        execute(fresh, root / "notebook", log, timeout, LABKIT_DATA_DIR=str(root / "data"))
        verdict.cells = compare_cells(recorded, fresh)
        listed = {e["path"] for e in manifest["files"]}
        base = root.resolve()
        for name in reads(log):
            read = Path(name)
            rel = read.relative_to(base).as_posix() if read.is_relative_to(base) else name
            if rel not in listed:
                verdict.files.append(f"{rel}: read now but not recorded in the bundle")
    installed = package_versions()
    for name, version in manifest["packages"].items():
        now = installed.get(name)
        if now != version:
            verdict.packages.append(f"{name}: {version} recorded, {now or 'not installed'} here")
    return verdict
