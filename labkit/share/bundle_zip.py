"""Reading a bundle someone sent: the zip checked whole before a byte of any entry is extracted.

A bundle is hostile until proven otherwise. Before anything is read:

* the zip's central directory must list at most :data:`MAX_ENTRIES` entries, each name safe
  (relative, no ``..``, no backslash) and unique once normalised, each entry neither
  encrypted nor compressed with anything but stored/deflate, and each declared size at most
  :data:`MAX_ENTRY_BYTES` (the manifest at most :data:`MAX_MANIFEST_BYTES`), all of them
  together at most :data:`MAX_TOTAL_BYTES`;
* every entry is then read through a bounded stream: never more than its declared size (a
  lying header or a bad CRC is refused, not trusted);
* the manifest is checked key by key (types, SHA-256 spelling, paths inside the bundle).

Every problem is a one-line :class:`~labkit.share.bundle.BundleError` naming the bundle and entry.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import PurePosixPath
from typing import Any

from labkit.io import check_header, parse_json
from labkit.share.bundle import FORMAT, VERSION, BundleError

#: Most entries a bundle may hold (a notebook, its manifest and its data files).
MAX_ENTRIES = 10_000
#: Largest uncompressed size of one entry (a data file or the executed notebook).
MAX_ENTRY_BYTES = 256 * 1024 * 1024
#: Largest uncompressed size of ``manifest.json``.
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
#: Largest uncompressed size of all entries together.
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 20


def safe_name(name: str) -> str:
    """``name`` normalised, when it stays inside the bundle; else :class:`BundleError`.

    Examples
    --------
    >>> safe_name("data/./levels/a.json")
    'data/levels/a.json'
    >>> safe_name("../x")
    Traceback (most recent call last):
    ...
    labkit.share.bundle.BundleError: unsafe path inside the bundle (got '../x')
    """
    if not isinstance(name, str):
        raise BundleError("unsafe path inside the bundle", value=name)
    p = PurePosixPath(name)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise BundleError("unsafe path inside the bundle", value=name)
    if "\\" in name or any(ord(c) < 32 for c in name):
        raise BundleError("unsafe path inside the bundle", value=name)
    return str(p)


class BundleZip:
    """A bundle's zip with every entry checked up front (see the module docstring).

    Examples
    --------
    >>> import io, zipfile
    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w") as zf:
    ...     zf.writestr("manifest.json", "{}"); zf.writestr("manifest.json", "{}")
    >>> BundleZip(buf, "b.zip")
    Traceback (most recent call last):
    ...
    labkit.share.bundle.BundleError: b.zip: entry 'manifest.json' appears twice in the bundle
    """

    def __init__(self, source: Any, file: str) -> None:
        self.file = file
        try:
            self._zf = zipfile.ZipFile(source)
            infos = self._zf.infolist()
        except (OSError, zipfile.BadZipFile, ValueError, EOFError) as exc:
            raise BundleError(f"not a readable bundle: {exc}", file=file) from None
        if len(infos) > MAX_ENTRIES:
            raise BundleError(f"{len(infos)} entries, over the limit of {MAX_ENTRIES}", file=file)
        self.entries: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            try:
                name = safe_name(info.filename)
            except BundleError as exc:
                raise BundleError(exc.message, file=file, value=info.filename) from None
            if name in self.entries:
                raise BundleError(f"entry {name!r} appears twice in the bundle", file=file)
            if info.flag_bits & 0x1:
                raise BundleError(f"entry {name!r} is encrypted (not supported)", file=file)
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise BundleError(f"entry {name!r} uses compression method "
                                  f"{info.compress_type} (only stored and deflate)",
                                  file=file)  # fmt: skip
            limit = MAX_MANIFEST_BYTES if name == "manifest.json" else MAX_ENTRY_BYTES
            if info.file_size > limit:
                raise BundleError(f"entry {name!r} declares {info.file_size} bytes, over the "
                                  f"limit of {limit}", file=file)  # fmt: skip
            total += info.file_size
            self.entries[name] = info
        if total > MAX_TOTAL_BYTES:
            raise BundleError(f"entries declare {total} bytes together, over the limit of "
                              f"{MAX_TOTAL_BYTES}", file=file)  # fmt: skip

    def __enter__(self) -> BundleZip:
        return self

    def __exit__(self, *exc: object) -> None:
        self._zf.close()

    def read(self, name: str) -> bytes:
        """An entry's bytes, read in chunks and never past its declared size."""
        info = self.entries.get(name)
        if info is None:
            raise BundleError(f"entry {name!r} is missing from the bundle", file=self.file)
        chunks, got = [], 0
        try:
            with self._zf.open(info) as fh:
                while chunk := fh.read(_CHUNK):
                    got += len(chunk)
                    if got > info.file_size:
                        raise BundleError(f"entry {name!r} holds more than its declared "
                                          f"{info.file_size} bytes", file=self.file)  # fmt: skip
                    chunks.append(chunk)
        except (
            zipfile.BadZipFile,
            OSError,
            EOFError,
            RuntimeError,
            NotImplementedError,
            ValueError,
            zlib.error,
        ) as exc:  # fmt: skip (zlib: damaged deflate data)
            raise BundleError(f"entry {name!r} cannot be read: {exc}", file=self.file) from None
        return b"".join(chunks)

    def manifest(self) -> dict:
        """``manifest.json`` parsed and checked key by key against the zip's entries."""
        data = self.read("manifest.json")
        where = f"{self.file}:manifest.json"
        doc = parse_json(data, file=where, error=BundleError)
        try:
            check_header(doc, format=FORMAT, versions=(VERSION,), error=BundleError)
        except BundleError as exc:
            raise exc.with_file(where) from None
        return check_manifest(doc, self.entries, where)


def _need(ok: bool, message: str, file: str, at: str, value: Any = None) -> None:
    if not ok:
        raise BundleError(message, file=file, pointer=at, value=value)


def check_manifest(doc: dict, entries: dict[str, zipfile.ZipInfo], file: str) -> dict:
    """The manifest's keys and types; packed files named inside the bundle.

    A packed file whose size or hash differs from the zip's is not refused here: ``verify``
    reports it as altered, cell by cell (the zip's own declared sizes are what bound reads).
    """
    for key, kind, words in (("notebook", str, "a string"), ("files", list, "a list"),
                             ("packages", dict, "an object")):  # fmt: skip
        _need(key in doc, f"missing key {key!r}", file, f"/{key}")
        _need(isinstance(doc[key], kind), f"must be {words}", file, f"/{key}",
              type(doc[key]).__name__)  # fmt: skip
    try:
        nb = safe_name(doc["notebook"])
    except BundleError:
        _need(False, "unsafe path inside the bundle", file, "/notebook", doc["notebook"])
    _need(nb.endswith(".ipynb"), "must name a .ipynb entry", file, "/notebook", nb)
    for i, entry in enumerate(doc["files"]):
        at = f"/files/{i}"
        _need(isinstance(entry, dict), "must be an object", file, at, type(entry).__name__)
        for key, kinds in (("path", (str,)), ("sha256", (str,)), ("bytes", (int,)),
                           ("external", (bool,))):  # fmt: skip
            _need(key in entry, f"missing key {key!r}", file, f"{at}/{key}")
            v = entry[key]
            ok = isinstance(v, kinds) and (key != "bytes" or not isinstance(v, bool))
            _need(ok, f"must be {'true/false' if key == 'external' else kinds[0].__name__}",
                  file, f"{at}/{key}", v)  # fmt: skip
        _need(bool(_SHA256.fullmatch(entry["sha256"])), "must be 64 lowercase hex digits",
              file, f"{at}/sha256", entry["sha256"])  # fmt: skip
        _need(0 <= entry["bytes"] <= MAX_ENTRY_BYTES, f"must be between 0 and {MAX_ENTRY_BYTES}",
              file, f"{at}/bytes", entry["bytes"])  # fmt: skip
        if entry["external"]:
            continue  # hash only: verify never opens a path outside the bundle
        try:
            safe_name(entry["path"])
        except BundleError:
            _need(False, "unsafe path inside the bundle", file, f"{at}/path", entry["path"])
    for name, version in doc["packages"].items():
        _need(isinstance(version, str), "must be a string", file,
              f"/packages/{name}", version)  # fmt: skip
    return doc
