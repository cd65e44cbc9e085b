"""Hostile input II (issue 33): bundles, sweep folders, text reaching HTML/terminals, numbers.

Each builder makes one hostile input and names the one-line error it must give. Shared by
``tests/test_hostile.py`` (issue 33 block) and ``scripts/hostile_audit.py`` (its counted table).
Telemetry cases live in ``tests/hostile_cases.py`` (issue 31's block).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

# --- bundles (``labkit verify``) ---

NOTEBOOK = json.dumps({
    "cells": [{"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {},
               "outputs": [], "source": "print(1)"}],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
})  # fmt: skip
DATA_FILE = b'{"x": 1}\n'


def manifest(**change: Any) -> dict:
    """A valid bundle manifest for :func:`make_bundle`'s default entries, with ``change``."""
    doc = {
        "format": "labkit.bundle",
        "version": 1,
        "notebook": "notebook/n.ipynb",
        "files": [
            {
                "path": "data/x.json",
                "sha256": hashlib.sha256(DATA_FILE).hexdigest(),
                "bytes": len(DATA_FILE),
                "external": False,
            }
        ],  # fmt: skip
        "packages": {},
        "stamp": {},
        "tolerance": {},
    }
    doc.update(change)
    return doc


def make_bundle(
    entries: list[tuple[str, bytes]] | None = None,
    *,
    doc: Any = None,
    raw_manifest: bytes | None = None,
    edit: Callable[[zipfile.ZipInfo], None] | None = None,
) -> bytes:
    """A bundle's bytes: ``manifest.json`` (``doc`` or ``raw_manifest``) then ``entries``."""
    if entries is None:
        entries = [("notebook/n.ipynb", NOTEBOOK.encode()), ("data/x.json", DATA_FILE)]
    body = raw_manifest if raw_manifest is not None else json.dumps(
        manifest() if doc is None else doc).encode()  # fmt: skip
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in [("manifest.json", body), *entries]:
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            if edit is not None:
                edit(info)
            zf.writestr(info, data)
    return buf.getvalue()


def _bad_crc() -> bytes:
    data = bytearray(make_bundle(edit=_stored))
    at = data.index(DATA_FILE)
    data[at + 2] ^= 0x20  # the data entry's bytes change, its recorded CRC-32 does not
    return bytes(data)


def _stored(info: zipfile.ZipInfo) -> None:
    info.compress_type = zipfile.ZIP_STORED


def _encrypted() -> bytes:
    """The data entry flagged as encrypted (bit 0) in its local and central headers."""
    data = bytearray(make_bundle())
    for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + 11] == b"data/x.json":
                data[start + at] |= 0x1
            start += 4
    return bytes(data)


def _lzma(info: zipfile.ZipInfo) -> None:
    if info.filename == "data/x.json":
        info.compress_type = zipfile.ZIP_LZMA


def _zeros(n: int) -> bytes:
    return bytes(n)


def bundle_cases() -> list[tuple[str, Callable[[], bytes], str]]:
    """``(name, build, expected part of the one error line)`` for ``labkit verify``.

    Size-limit cases read :mod:`labkit.share.bundle_zip`'s limits when built (a test lowers them).
    """
    from labkit.share import bundle_zip as bz

    nb = ("notebook/n.ipynb", NOTEBOOK.encode())
    good = [nb, ("data/x.json", DATA_FILE)]
    entry = manifest()["files"][0]
    return [
        ("not a zip", lambda: b"PK\x03\x04 not really", "not a readable bundle"),
        ("empty file", lambda: b"", "not a readable bundle"),
        ("no manifest", lambda: _no_manifest(good),
         "no manifest.json"),
        ("manifest not UTF-8", lambda: make_bundle(raw_manifest=b'{"a": "\xff\xfe"}'),
         "UTF-8"),
        ("manifest not JSON", lambda: make_bundle(raw_manifest=b"{'format':"), "not valid JSON"),
        ("manifest a list", lambda: make_bundle(doc=[1]), "expected a JSON object"),
        ("manifest wrong format", lambda: make_bundle(doc=manifest(format="x")), "wrong format"),
        ("manifest missing files", lambda: make_bundle(doc=_without("files")),
         "/files: missing key 'files'"),
        ("manifest missing notebook", lambda: make_bundle(doc=_without("notebook")),
         "/notebook: missing key 'notebook'"),
        ("files not a list", lambda: make_bundle(doc=manifest(files="data/x.json")),
         "/files: must be a list"),
        ("notebook not a string", lambda: make_bundle(doc=manifest(notebook=3)),
         "/notebook: must be a string"),
        ("packages not an object", lambda: make_bundle(doc=manifest(packages=[])),
         "/packages: must be an object"),
        ("package version a number", lambda: make_bundle(doc=manifest(packages={"numpy": 2})),
         "/packages/numpy: must be a string"),
        ("file entry not an object", lambda: make_bundle(doc=manifest(files=["x"])),
         "/files/0: must be an object"),
        ("file entry missing sha256", lambda: make_bundle(doc=manifest(files=[
            {k: v for k, v in entry.items() if k != "sha256"}])),
         "/files/0/sha256: missing key"),
        ("file bytes a string", lambda: make_bundle(doc=manifest(files=[{**entry, "bytes": "9"}])),
         "/files/0/bytes: must be int"),
        ("file bytes negative", lambda: make_bundle(doc=manifest(files=[{**entry, "bytes": -1}])),
         "/files/0/bytes: must be between 0"),
        ("file sha256 not hex", lambda: make_bundle(doc=manifest(files=[{**entry,
         "sha256": "zz"}])), "/files/0/sha256: must be 64 lowercase hex digits"),
        ("external not a bool", lambda: make_bundle(doc=manifest(files=[{**entry,
         "external": "no"}])), "/files/0/external: must be true/false"),
        ("file path outside", lambda: make_bundle(doc=manifest(files=[{**entry,
         "path": "../../etc/passwd"}])), "/files/0/path: unsafe path inside the bundle"),
        ("file path absolute", lambda: make_bundle(doc=manifest(files=[{**entry,
         "path": "/etc/passwd"}])), "/files/0/path: unsafe path inside the bundle"),
        ("notebook path outside", lambda: make_bundle(doc=manifest(notebook="../n.ipynb")),
         "/notebook: unsafe path inside the bundle"),
        ("notebook not .ipynb", lambda: make_bundle(doc=manifest(notebook="data/x.json")),
         "/notebook: must name a .ipynb entry"),
        ("notebook missing", lambda: make_bundle([("data/x.json", DATA_FILE)]),
         "entry 'notebook/n.ipynb' is missing from the bundle"),
        ("notebook not JSON", lambda: make_bundle([("notebook/n.ipynb", b"{not json"),
                                                   ("data/x.json", DATA_FILE)]),
         "entry 'notebook/n.ipynb' is not a readable notebook"),
        ("notebook not a notebook", lambda: make_bundle([("notebook/n.ipynb", b"{}"),
                                                         ("data/x.json", DATA_FILE)]),
         "entry 'notebook/n.ipynb' is not a readable notebook"),
        ("notebook not UTF-8", lambda: make_bundle([("notebook/n.ipynb", b"\xff{}"),
                                                    ("data/x.json", DATA_FILE)]),
         "entry 'notebook/n.ipynb' is not a readable notebook"),
        ("entry name outside", lambda: make_bundle([*good, ("../evil", b"x")]),
         "unsafe path inside the bundle"),
        ("entry name absolute", lambda: make_bundle([*good, ("/tmp/evil", b"x")]),
         "unsafe path inside the bundle"),
        ("entry name backslash", lambda: make_bundle([*good, ("..\\evil", b"x")]),
         "unsafe path inside the bundle"),
        ("two manifests", lambda: make_bundle([*good, ("manifest.json", b"{}")]),
         "entry 'manifest.json' appears twice"),
        ("two data entries", lambda: make_bundle([*good, ("data/./x.json", b"{}")]),
         "entry 'data/x.json' appears twice"),
        ("encrypted entry", _encrypted, "is encrypted"),
        ("lzma entry", lambda: make_bundle(edit=_lzma), "only stored and deflate"),
        ("bad CRC", _bad_crc, "Bad CRC-32"),
        ("too many entries", lambda: make_bundle([*good, *((f"data/{i}", b"")
         for i in range(bz.MAX_ENTRIES))]), f"over the limit of {bz.MAX_ENTRIES}"),
        ("entry over its limit", lambda: make_bundle([*good, ("data/big",
         _zeros(bz.MAX_ENTRY_BYTES + 1))]), f"over the limit of {bz.MAX_ENTRY_BYTES}"),
        ("manifest over its limit", lambda: make_bundle(raw_manifest=b" " * (
            bz.MAX_MANIFEST_BYTES + 1)), f"over the limit of {bz.MAX_MANIFEST_BYTES}"),
        ("entries over the total", lambda: make_bundle([*good, *((f"data/big{i}", _zeros(
            bz.MAX_ENTRY_BYTES)) for i in range(bz.MAX_TOTAL_BYTES // bz.MAX_ENTRY_BYTES))]),
         "together, over the limit"),
    ]  # fmt: skip


def _without(key: str) -> dict:
    doc = manifest()
    del doc[key]
    return doc


def _no_manifest(entries: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buf.getvalue()


def bundle_argument_sets(tmp: Path) -> list[tuple[str, list[str]]]:
    """``labkit bundle``/``verify`` command lines refused before any notebook runs."""
    (tmp / "dir").mkdir(exist_ok=True)
    nb = tmp / "n.ipynb"
    nb.write_text(NOTEBOOK)
    zipped = tmp / "b.zip"
    zipped.write_bytes(make_bundle())
    return [
        ("bundle --out a folder", ["bundle", str(nb), "--out", str(tmp / "dir")]),
        ("bundle --timeout -1", ["bundle", str(nb), "--out", str(tmp / "o.zip"), "--timeout",
                                 "-1"]),
        ("bundle --timeout 0", ["bundle", str(nb), "--out", str(tmp / "o.zip"), "--timeout",
                                "0"]),
        ("bundle --timeout huge", ["bundle", str(nb), "--out", str(tmp / "o.zip"), "--timeout",
                                   str(10**12)]),
        ("bundle not a notebook", ["bundle", str(zipped), "--out", str(tmp / "o.zip")]),
        ("verify --timeout -1", ["verify", str(zipped), "--timeout", "-1"]),
        ("verify a folder", ["verify", str(tmp / "dir")]),
        ("verify /dev/zero", ["verify", "/dev/zero"]),
    ]  # fmt: skip
