"""JSON files: validated loading, version upgrades and atomic writes, shared by every format.

Every labkit file is a JSON object with ``"format"`` (what it is, e.g. ``"labkit.trace"``) and
``"version"`` (an int). :func:`load_json` checks both, runs registered upgrades from older versions,
and raises a :class:`~labkit.LabkitError` subclass that names the file, the JSON pointer and the
problem. :func:`save_json` and :func:`atomic_write` write to a temporary file beside the target
and rename it over the target, so an interrupted save leaves the old file intact.

Nothing read from disk is ever passed to ``pickle``, ``eval`` or ``exec``.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> save_json(d / "a.json", {"x": 1}, format="demo", version=2)
>>> load_json(d / "a.json", format="demo", versions=(2,))["x"]
1
>>> pointer("cells", 3, "tracks")
'/cells/3/tracks'
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from labkit import LabkitError

__all__ = [
    "FormatError",
    "pointer",
    "load_json",
    "parse_json",
    "save_json",
    "dumps",
    "atomic_write",
    "field",
    "check",
    "as_int",
    "record_read",
    "READ_LOG_ENV",
]

# ``labkit bundle`` sets this to a file; every loader then notes each data file it reads there
# (one JSON line: absolute path and SHA-256), so the bundle can pack exactly what a notebook read.
READ_LOG_ENV = "LABKIT_READ_LOG"


def record_read(path: str | os.PathLike) -> None:
    """Note that a loader read ``path`` (only while ``$LABKIT_READ_LOG`` names a log file).

    Loaders call this after reading a data file; outside ``labkit bundle`` it does nothing.

    Examples
    --------
    >>> import tempfile, pathlib, os
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "x.json").write_text("{}")
    2
    >>> os.environ[READ_LOG_ENV] = str(d / "reads.jsonl")
    >>> record_read(d / "x.json")
    >>> del os.environ[READ_LOG_ENV]
    >>> json.loads((d / "reads.jsonl").read_text())["sha256"][:12]
    '44136fa355b3'
    """
    log = os.environ.get(READ_LOG_ENV)
    if not log:
        return
    target = Path(path).resolve()
    try:
        digest = hashlib.sha256(target.read_bytes()).hexdigest()
    except OSError:
        return  # the loader has already reported the unreadable file
    line = json.dumps({"path": str(target), "sha256": digest}) + "\n"
    with open(log, "a", encoding="utf-8") as fh:  # one short append per read: safe enough
        fh.write(line)


class FormatError(LabkitError):
    """A file that is not valid JSON, or not the expected format or version."""


def pointer(*parts: str | int) -> str:
    """Build a JSON pointer (RFC 6901) from path parts.

    Examples
    --------
    >>> pointer()
    ''
    >>> pointer("a/b", "~x", 0)
    '/a~1b/~0x/0'
    """
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not valid JSON")


def parse_json(text: str, *, file: str | None = None, error: type[LabkitError] = FormatError):
    """Parse JSON text strictly (no NaN/Infinity); errors give line and column."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise error(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            file=file,
            pointer="",
        ) from None
    except ValueError as exc:
        raise error(f"not valid JSON: {exc}", file=file, pointer="") from None


def load_json(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    versions: tuple[int, ...] | None = None,
    upgrades: Mapping[int, Callable[[dict], dict]] | None = None,
    error: type[LabkitError] = FormatError,
) -> Any:
    """Read a labkit JSON file, check ``format``/``version`` and upgrade it to the newest version.

    Parameters
    ----------
    path : path-like
        File to read.
    format : str, optional
        Expected value of the ``"format"`` key; ``None`` skips the check (plain JSON).
    versions : tuple of int, optional
        Versions this reader understands; the last one is current.
    upgrades : mapping, optional
        ``{old_version: fn}`` where ``fn(doc) -> doc`` turns version ``old_version`` into the next
        version; applied repeatedly until the document is current.
    error : LabkitError subclass
        The class raised for any problem (e.g. ``TraceError``).

    Returns
    -------
    The parsed (and upgraded) document.

    Raises
    ------
    error
        Unreadable file, invalid JSON, wrong format, unknown version.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error("file not found", file=file) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read file: {exc}", file=file) from None
    record_read(path)
    doc = parse_json(text, file=file, error=error)
    try:
        return check_header(doc, format=format, versions=versions, upgrades=upgrades, error=error)
    except LabkitError as exc:
        raise exc.with_file(file) from None


def check_header(
    doc: Any,
    *,
    format: str | None,
    versions: tuple[int, ...] | None,
    upgrades: Mapping[int, Callable[[dict], dict]] | None = None,
    error: type[LabkitError] = FormatError,
) -> Any:
    """Check an in-memory document's ``format`` and ``version`` and upgrade it (see load_json)."""
    if format is None and versions is None:
        return doc
    if not isinstance(doc, dict):
        raise error("expected a JSON object", pointer="", value=type(doc).__name__)
    if format is not None:
        if "format" not in doc:
            raise error(f"missing key 'format' (expected {format!r})", pointer="/format")
        if doc["format"] != format:
            raise error(
                f"wrong format, expected {format!r}", pointer="/format", value=doc["format"]
            )
    if versions is not None:
        if "version" not in doc:
            raise error("missing key 'version'", pointer="/version")
        version = doc["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version not in versions:
            raise error(
                f"unsupported version, this labkit reads {list(versions)}",
                pointer="/version",
                value=version,
            )
        upgrades = upgrades or {}
        while doc["version"] != versions[-1]:
            step = upgrades.get(doc["version"])
            if step is None:
                raise error(
                    "no upgrade path to the current version",
                    pointer="/version",
                    value=doc["version"],
                )
            doc = step(dict(doc))
    return doc


def dumps(obj: Any, *, indent: int | None = 2) -> str:
    """Deterministic JSON text (key order kept, UTF-8 kept, no NaN) ending in a newline."""
    return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def _target_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8"
) -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success fsync it and rename it over ``path``.

    If the block raises, the temporary file is removed and ``path`` is untouched.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_write(p) as fh:
    ...     _ = fh.write("hello")
    >>> p.read_text()
    'hello'
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if "b" in mode:
        encoding = None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes 0600 files; give the result the mode a plain open() would (or keep the
        # mode of the file it replaces).
        os.chmod(tmp, _target_mode(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def save_json(
    path: str | os.PathLike,
    obj: Mapping[str, Any],
    *,
    format: str | None = None,
    version: int | None = None,
    indent: int | None = 2,
) -> None:
    """Write ``obj`` as JSON atomically, putting ``format``/``version`` first when given.

    The text is produced in full before the file is opened, so a value that cannot be encoded
    never truncates the old file.
    """
    head: dict[str, Any] = {}
    if format is not None:
        head["format"] = format
    if version is not None:
        head["version"] = version
    doc = {**head, **{k: v for k, v in obj.items() if k not in head}}
    text = dumps(doc, indent=indent)
    with atomic_write(path) as fh:
        fh.write(text)


# --- small validation helpers shared by every loader -------------------------------------------

_MISSING = object()

_KIND_NAMES = {
    int: "an integer",
    float: "a number",
    str: "a string",
    bool: "true/false",
    list: "a list",
    dict: "an object",
}


def _is_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
    return isinstance(value, kind)


def field(
    obj: Mapping[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    at: str,
    error: type[LabkitError] = LabkitError,
    default: Any = _MISSING,
) -> Any:
    """``obj[key]`` checked to be of ``kind`` (``int`` excludes bool; ``float`` = finite number).

    ``at`` is the pointer of ``obj``; errors point at ``at/key``.

    Examples
    --------
    >>> field({"q": 1}, "q", int, "/cells/0")
    1
    >>> field({"q": "1"}, "q", int, "/cells/0")
    Traceback (most recent call last):
    ...
    labkit.LabkitError: /cells/0/q: must be an integer (got '1')
    """
    where = f"{at}{pointer(key)}"
    if not isinstance(obj, Mapping):
        raise error("must be an object", pointer=at or "", value=obj)
    if key not in obj:
        if default is not _MISSING:
            return default
        raise error(f"missing key {key!r}", pointer=where)
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not any(_is_kind(value, k) for k in kinds):
        names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
        raise error(f"must be {names}", pointer=where, value=value)
    return value


def check(
    ok: bool, message: str, at: str, value: Any = _MISSING, error: type[LabkitError] = LabkitError
) -> None:
    """Raise ``error(message, pointer=at, value=value)`` unless ``ok``."""
    if not ok:
        if value is _MISSING:
            raise error(message, pointer=at)
        raise error(message, pointer=at, value=value)


def as_int(
    value: Any,
    at: str,
    lo: int | None = None,
    hi: int | None = None,
    error: type[LabkitError] = LabkitError,
) -> int:
    """Check that ``value`` is an integer within ``[lo, hi]`` and return it.

    Examples
    --------
    >>> as_int(0, "/moveLimit", 1, 999)
    Traceback (most recent call last):
    ...
    labkit.LabkitError: /moveLimit: must be between 1 and 999 (got 0)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise error("must be an integer", pointer=at, value=value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        lo_s = "-inf" if lo is None else lo
        hi_s = "inf" if hi is None else hi
        raise error(f"must be between {lo_s} and {hi_s}", pointer=at, value=value)
    return value
