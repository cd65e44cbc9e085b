"""JSON files: validated loading, version upgrades and atomic writes, shared by every format.

Every labkit file is a JSON object with ``"format"`` (what it is, e.g. ``"labkit.trace"``) and
``"version"`` (an int). :func:`load_json` checks both, runs registered upgrades from older versions,
and raises a :class:`~labkit.LabkitError` subclass that names the file, the JSON pointer and the
problem. :func:`save_json` and :func:`atomic_write` write to a temporary file beside the target
and rename it over the target, so an interrupted save leaves the old file intact.

Every format reads through one hardened path: :func:`read_bytes` (regular files only: a FIFO,
device, socket or folder is refused before it is opened, so nothing blocks; at most the
format's ``max_bytes``, which ``LABKIT_MAX_BYTES`` overrides), :func:`decode_text` (UTF-8, a
byte-order mark accepted, a bad byte named by line and column) and :func:`parse_json` (no
NaN/Infinity, no number that overflows to infinity, no duplicate key, no nesting deeper than
:data:`MAX_DEPTH`, no lone surrogate; each refusal names the JSON pointer). Error messages are
capped in length (:class:`~labkit.LabkitError` shows the start of a long value).

Writes are atomic. A target that is a symbolic link is followed (the file it points to is
replaced, the link stays); a target that is a folder is an error before anything is written.

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
import errno
import hashlib
import json
import math
import os
import re
import stat
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
    "read_bytes",
    "read_text",
    "decode_text",
    "nesting_depth",
    "shorten",
    "DEFAULT_MAX_BYTES",
    "MAX_DEPTH",
    "save_json",
    "dumps",
    "atomic_write",
    "check_writable",
    "check_writable_dir",
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


#: Default size limit of a file read through :func:`read_text` (each format passes its own).
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
#: Deepest nesting of arrays and objects a JSON document may have (no format needs more than ~8).
MAX_DEPTH = 64
#: Environment variable that overrides every format's size limit (a number of bytes).
MAX_BYTES_ENV = "LABKIT_MAX_BYTES"


def _size_limit(max_bytes: int | None) -> int:
    override = os.environ.get(MAX_BYTES_ENV)
    if override:
        try:
            return max(0, int(override))
        except ValueError:
            raise FormatError(
                f"environment variable {MAX_BYTES_ENV} must be a number of bytes", value=override
            ) from None
    return DEFAULT_MAX_BYTES if max_bytes is None else max_bytes


def read_bytes(
    path: str | os.PathLike,
    *,
    max_bytes: int | None = None,
    error: type[LabkitError] = FormatError,
) -> bytes:
    """The bytes of a regular file, refusing anything else before it can block or grow.

    FIFOs, devices, sockets and directories are refused after ``os.stat`` and before opening
    (opening a FIFO would block until a writer appears); the file is then opened with
    ``O_NONBLOCK`` and checked again (it may have been swapped), and at most ``max_bytes + 1``
    bytes are read. ``max_bytes`` defaults to :data:`DEFAULT_MAX_BYTES`; the environment
    variable ``LABKIT_MAX_BYTES`` overrides every format's limit.

    Examples
    --------
    >>> read_bytes("/dev/null")
    Traceback (most recent call last):
    ...
    labkit.io.FormatError: /dev/null: not a regular file (a character device)
    """
    file = str(path)
    limit = _size_limit(max_bytes)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error("file not found", file=file) from None
    except (OSError, ValueError) as exc:
        raise error(f"cannot read file: {_os_reason(exc)}", file=file) from None
    kind = _file_kind(st.st_mode)
    if kind is not None:
        raise error(f"not a regular file ({kind})", file=file)
    if st.st_size > limit:
        raise error(
            f"file is {st.st_size} bytes, over this format's limit of {limit} "
            f"(set {MAX_BYTES_ENV} to raise it)",
            file=file,
        )
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise error(f"cannot read file: {_os_reason(exc)}", file=file) from None
    try:
        kind = _file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise error(f"not a regular file ({kind})", file=file)
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read file: {_os_reason(exc)}", file=file) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise error(f"file is over this format's limit of {limit} bytes", file=file)
    return data


def _file_kind(mode: int) -> str | None:
    """None for a regular file, else what it is in words."""
    if stat.S_ISREG(mode):
        return None
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _os_reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def decode_text(data: bytes, *, file: str | None = None, error: type[LabkitError] = FormatError):
    r"""UTF-8 text with an optional byte-order mark; a bad byte names its line and column.

    Examples
    --------
    >>> decode_text(b"\xef\xbb\xbfid,level\n")
    'id,level\n'
    >>> decode_text(b"ok\nab\xe9", file="t.csv")
    Traceback (most recent call last):
    ...
    labkit.io.FormatError: t.csv: not UTF-8 text: byte 0xe9 at line 2 column 3
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # the utf-8-sig codec reports positions in the bytes after the mark (``exc.object``)
        text = exc.object
        before = text[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - before.rfind(b"\n")  # rfind is -1 on the first line
        raise error(
            f"not UTF-8 text: byte 0x{text[exc.start]:02x} at line {line} column {column}",
            file=file,
        ) from None


def read_text(
    path: str | os.PathLike,
    *,
    max_bytes: int | None = None,
    error: type[LabkitError] = FormatError,
) -> str:
    r"""A regular file's UTF-8 text (BOM accepted), through :func:`read_bytes`'s checks.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "a.csv"), "wb") as fh:
    ...     _ = fh.write(b"\xef\xbb\xbfplayer,level\n")
    >>> read_text(os.path.join(folder, "a.csv"))
    'player,level\n'
    >>> read_text(folder)
    Traceback (most recent call last):
    ...
    labkit.io.FormatError: ...: not a regular file (a directory)
    """
    data = read_bytes(path, max_bytes=max_bytes, error=error)
    return decode_text(data, file=str(path), error=error)


class _DuplicateKeys(dict):
    """An object in which a key occurred twice (marks it for :func:`_find_duplicate`)."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen: set[str] = set()
    marked = _DuplicateKeys(pairs)
    for key, _ in pairs:
        if key in seen:
            marked.duplicate = key
            break
        seen.add(key)
    return marked


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SURROGATE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def nesting_depth(text: str | bytes) -> int:
    """Deepest nesting of ``[``/``{`` in JSON text, strings ignored (no parser recursion).

    Examples
    --------
    >>> nesting_depth('{"a": [[1], "[[["]}')
    3
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"[" not in data and b"{" not in data:
        return 0
    import numpy as np

    bare = np.frombuffer(_STRING.sub(b'""', data), dtype=np.uint8)
    deepest, level = 0, 0
    for start in range(0, len(bare), 1 << 20):  # in slices: bounded memory on big files
        chunk = bare[start : start + (1 << 20)]
        step = (chunk == ord("[")).astype(np.int32) + (chunk == ord("{"))
        step -= (chunk == ord("]")).astype(np.int32) + (chunk == ord("}"))
        running = np.cumsum(step) + level
        deepest = max(deepest, int(running.max(initial=level)))
        level = int(running[-1]) if len(running) else level
    return deepest


_NESTED = {dict, list, _DuplicateKeys}
_STRING_TYPES = {dict, list, _DuplicateKeys, str}


def _walk_checks(doc: Any, check_strings: bool) -> tuple[str, str] | None:
    """(pointer, problem) of the first duplicate key or unencodable string, else None."""
    stack: list[tuple[Any, tuple]] = [(doc, ())]
    while stack:
        node, parts = stack.pop()
        if isinstance(node, dict):
            if isinstance(node, _DuplicateKeys):
                return pointer(*parts, node.duplicate), f"duplicate key {shorten(node.duplicate)}"
            for key, value in node.items():
                if check_strings and not _encodable(key):
                    return pointer(*parts), f"key {shorten(key)} is not encodable text"
                stack.append((value, (*parts, key)))
        elif isinstance(node, list):
            # a list of numbers (a map row) holds nothing to check: one C-speed pass over its
            # types instead of one stack entry per cell (a 3000 x 3000 floor: 9 s -> 0.3 s)
            if set(map(type, node)).isdisjoint(_STRING_TYPES if check_strings else _NESTED):
                continue
            stack.extend((value, (*parts, i)) for i, value in enumerate(node))
        elif check_strings and isinstance(node, str) and not _encodable(node):
            return pointer(*parts), "string is not encodable text (a lone surrogate escape)"
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shorten(value: Any, limit: int = 120) -> str:
    """``repr(value)`` cut to about ``limit`` characters, saying how long it was.

    Examples
    --------
    >>> shorten("x" * 1000, 20)
    "'xxxxxxxxxxxxxx… (1000 characters)"
    """
    from labkit import _safe_repr

    return _safe_repr(value, limit)


def parse_json(
    text: str | bytes,
    *,
    file: str | None = None,
    error: type[LabkitError] = FormatError,
    max_depth: int = MAX_DEPTH,
):
    """Parse JSON text strictly; errors give line and column, or the pointer of the problem.

    Refused: NaN/Infinity, numbers that overflow to infinity (``1e999``), duplicate keys in
    one object, nesting deeper than ``max_depth``, strings that are not encodable text (lone
    surrogate escapes such as ``"\\ud800"``). Bytes are decoded as UTF-8 (BOM accepted).

    Examples
    --------
    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    labkit.io.FormatError: /a: duplicate key 'a'
    """
    given_text = isinstance(text, str)
    if isinstance(text, bytes):
        text = decode_text(text, file=file, error=error)
    text = str(text)
    if text.startswith("\ufeff"):
        text = text[1:]
    depth = nesting_depth(text)
    if depth > max_depth:
        raise error(f"JSON nested {depth} deep, deeper than the limit of {max_depth}",
                    file=file, pointer="")  # fmt: skip
    try:
        doc = json.loads(
            text, parse_constant=_reject_constant, parse_float=_finite, object_pairs_hook=_pairs
        )
    except json.JSONDecodeError as exc:
        # line and column say where; a pointer "/" would only blame the whole document
        raise error(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=file
        ) from None
    except (ValueError, RecursionError) as exc:
        where = _locate_token(text)
        raise error(
            f"not valid JSON: {exc}{where}", file=file, pointer=None if where else ""
        ) from None
    # decoded bytes hold no surrogates, but text from a caller may hold a raw one
    suspect = bool(_SURROGATE.search(text)) or (given_text and not _encodable(text))
    found = _walk_checks(doc, check_strings=suspect)
    if found is not None:
        raise error(found[1], file=file, pointer=found[0])
    return doc


# A JSON string, or a number / constant token outside strings (for locating a refused token).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(-?(?:\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|NaN|-?Infinity)')


def _locate_token(text: str) -> str:
    """`` at line L column C`` of the first number that overflows or constant JSON refuses."""
    for m in _TOKEN.finditer(text):
        token = m.group(1)
        if token is None:
            continue
        if token in ("NaN", "Infinity", "-Infinity") or not math.isfinite(float(token)):
            line = text.count("\n", 0, m.start(1)) + 1
            column = m.start(1) - (text.rfind("\n", 0, m.start(1)) + 1) + 1
            return f" at line {line} column {column}"
    return ""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is too large (it overflows to infinity)")
    return value


def load_json(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    versions: tuple[int, ...] | None = None,
    upgrades: Mapping[int, Callable[[dict], dict]] | None = None,
    error: type[LabkitError] = FormatError,
    max_bytes: int | None = None,
    check_text: Callable[[bytes], None] | None = None,
) -> Any:
    """Read a labkit JSON file, check ``format``/``version`` and upgrade it to the newest version.

    The file goes through the hardened reader (:func:`read_bytes`: regular files only, at most
    ``max_bytes``) and the strict parser (:func:`parse_json`: BOM accepted, duplicate keys,
    deep nesting and non-finite numbers refused).

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
    max_bytes : int, optional
        The format's size limit (default :data:`DEFAULT_MAX_BYTES`; ``LABKIT_MAX_BYTES``
        overrides).
    check_text : callable, optional
        Called with the file's bytes before they are parsed: a format refuses what it can
        see in the text (an oversized grid) without building the document.

    Returns
    -------
    The parsed (and upgraded) document.

    Raises
    ------
    error
        Unreadable file, invalid JSON, wrong format, unknown version.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> save_json(d / "old.json", {"hp": 3}, format="demo", version=1)
    >>> up = {1: lambda doc: {**doc, "version": 2, "hp": doc["hp"] * 10}}
    >>> load_json(d / "old.json", format="demo", versions=(1, 2), upgrades=up)
    {'format': 'demo', 'version': 2, 'hp': 30}
    >>> load_json(d / "old.json", format="other")
    Traceback (most recent call last):
    ...
    labkit.io.FormatError: .../old.json: /format: wrong format, expected 'other' (got 'demo')
    """
    file = str(path)
    data = read_bytes(path, max_bytes=max_bytes, error=error)
    record_read(path)
    if check_text is not None:
        try:
            check_text(data)
        except LabkitError as exc:
            raise exc.with_file(file) from None
    doc = parse_json(data, file=file, error=error)
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
    """Deterministic JSON text (key order kept, UTF-8 kept, no NaN) ending in a newline.

    Examples
    --------
    >>> print(dumps({"b": 1, "a": "é"}, indent=None), end="")
    {"b": 1, "a": "é"}
    >>> dumps({}, indent=None).splitlines(), len(dumps({}, indent=None))  # '{}' and a newline
    (['{}'], 3)
    >>> dumps({"x": float("nan")})
    Traceback (most recent call last):
    ...
    ValueError: Out of range float values are not JSON compliant...
    """
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

    If the block raises (or the process is interrupted: the CLI turns SIGTERM into an
    exception), the temporary file is removed and ``path`` is untouched.

    A ``path`` that is a symbolic link is *followed*: the file it points to is replaced
    (atomically, beside that file) and the link stays a link. A ``path`` that is a directory,
    or whose parent is a file, raises ``IsADirectoryError`` / ``NotADirectoryError`` before
    anything is written.

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
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
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


def check_writable(path: str | os.PathLike) -> Path:
    """Check, before any work, that :func:`atomic_write` could write ``path``; return it.

    Raises ``OSError`` naming the problem: the path is a directory, a parent is a file, or the
    (nearest existing) folder is not writable. Nothing is created.

    Examples
    --------
    >>> import tempfile
    >>> check_writable(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    IsADirectoryError: [Errno 21] is a directory: '...'
    """
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    return _creatable_in(target.parent, path)


def check_writable_dir(path: str | os.PathLike) -> Path:
    """Check, before any work, that files can be written into the folder ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> check_writable_dir(os.path.join(folder, "new", "parts")).name
    'parts'
    >>> open(os.path.join(folder, "f"), "w").close()
    >>> check_writable_dir(os.path.join(folder, "f"))
    Traceback (most recent call last):
    ...
    NotADirectoryError: [Errno 20] not a directory: '...'
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(path))
    return _creatable_in(target, path)


def _creatable_in(folder: Path, path: str | os.PathLike) -> Path:
    """``path`` when its nearest existing folder (from ``folder`` up) is a writable folder."""
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a directory", str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"folder {folder} is not writable", str(path))
    return Path(path)


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

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.json"
    >>> save_json(path, {"x": 1, "version": 9}, format="demo", version=2)
    >>> path.read_text().splitlines()[1:3]
    ['  "format": "demo",', '  "version": 2,']
    >>> save_json(path, {"x": float("inf")})
    Traceback (most recent call last):
    ...
    ValueError: Out of range float values are not JSON compliant...
    >>> load_json(path)["x"]              # the failed save left the old file whole
    1
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
    if not isinstance(obj, Mapping):
        raise error("must be an object", pointer=at or "", value=obj)
    if key not in obj:
        if default is not _MISSING:
            return default
        raise error(f"missing key {key!r}", pointer=f"{at}{pointer(key)}")
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not any(_is_kind(value, k) for k in kinds):
        names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
        raise error(f"must be {names}", pointer=f"{at}{pointer(key)}", value=value)
    return value


def check(
    ok: bool, message: str, at: str, value: Any = _MISSING, error: type[LabkitError] = LabkitError
) -> None:
    """Raise ``error(message, pointer=at, value=value)`` unless ``ok``.

    Examples
    --------
    >>> check(2 > 1, "must be positive", "/hp", 2)
    >>> check(-1 > 0, "must be positive", "/hp", -1)
    Traceback (most recent call last):
    ...
    labkit.LabkitError: /hp: must be positive (got -1)
    """
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
