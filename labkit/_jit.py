"""The one place numba is configured.

Every kernel in ``labkit/*/_kernels.py`` is decorated with :func:`kernel`, which

* compiles in nopython mode with ``nogil=True`` (threads can run kernels side by side);
* caches machine code on disk when a writable cache location exists, and otherwise runs
  uncached rather than failing (an install in a read-only place must still work);
* registers the kernel with an example-argument factory so that :func:`warmup` (and
  ``labkit warmup``) can compile every kernel up front;
* records the kernel's plain-Python reference (``reference=``): a function with the kernel's
  arguments and results, a ``"module:function"`` path to one (resolved only when asked, so a
  reference can live in the test tree), or a :class:`Covered` note saying why the kernel has no
  twin of its own and which rule test checks it. ``tests/test_kernel_registry.py`` walks the
  registry; ``python -m labkit._jit`` prints it;
* can be switched to plain Python, process-wide with ``LABKIT_DISABLE_JIT=1`` or for a block of
  code with :func:`plain_python` (used by benchmarks to time kernels against their own
  ``.py_func``).

Public code calls a kernel through its module (``_kernels.first_contact(...)``); kernels call other
kernels by name, and :func:`plain_python` swaps those names too.

Cache location, in order of preference: ``NUMBA_CACHE_DIR`` if set, writable and private;
numba's default (``__pycache__`` beside the source) if the package directory is writable and
private; ``labkit/numba`` under the user's cache directory (``XDG_CACHE_HOME`` or ``~/.cache``,
created mode 0700); otherwise no on-disk cache.

The trust boundary (rule W5, ``docs/rules/research.md``): numba's cache index and entries are
pickles, and unpickling runs code, so a cache file is only ever read if *this user* wrote it.

* A cache folder is used only when it is owned by the current user and not writable by group or
  others, and none of its parents is writable by others without the sticky bit (``/tmp`` is
  fine, a shared ``chmod 777`` folder is not). ``NUMBA_CACHE_DIR`` failing this is refused with
  one line on stderr naming the folder and the reason, and the next place above is used
  (``NUMBA_CACHE_DIR`` is set to it, so worker processes agree without repeating the line).
* Every index and entry file is opened without following links and checked on the open
  handle: a regular file, owned by the current user, not group/other-writable, at most
  :data:`MAX_CACHE_FILE` bytes. Anything else is treated as absent: the kernel compiles and
  numba's atomic rename replaces the file.
* An entry that is truncated, garbage, from another numba, or fails to rebuild is discarded
  and the kernel recompiles; a broken cache never ends in a traceback.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import pickle
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import FunctionCache, IndexDataCacheFile

# Domain modules that hold kernels; warmup imports each one that exists.
KERNEL_MODULES = (
    "labkit._tour_kernel",
    "labkit.hexpuzzle._kernels",
    "labkit.hexpuzzle.solving._kernels",
    "labkit.hexpuzzle.difficulty._rating_kernels",
    "labkit.hexpuzzle.difficulty._skill_kernels",
    "labkit.hexpuzzle.playthrough._kernels",
    "labkit.pathfinding._kernels",
    "labkit.mapturn._kernels",
    "labkit.encounter._kernels",
    "labkit.encounter._rng_kernels",
    "labkit.encounter._policy_kernels",
    "labkit.encounter._game_kernels",
)

DISABLED = os.environ.get("LABKIT_DISABLE_JIT", "").strip() not in ("", "0", "false", "False")


#: The largest cache index or entry file read (a kernel's machine code is well under this).
MAX_CACHE_FILE = 256 * 2**20


def _writable_dir(path: Path) -> bool:
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".labkit-probe-"):
            pass
        return True
    except OSError:
        return False


def untrusted_reason(path: str | os.PathLike, uid: int | None = None) -> str | None:
    """Why another user could plant files in the cache folder ``path``; None when it is private.

    Private means: owned by ``uid`` (the current user by default), not writable by group or
    others, and no parent writable by others without the sticky bit (``/tmp`` is fine).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> untrusted_reason(folder) is None
    True
    >>> os.chmod(folder, 0o777)
    >>> untrusted_reason(folder)
    'is writable by others (mode 0o777)'
    >>> untrusted_reason(folder, uid=os.geteuid() + 1).startswith("is owned by uid")
    True
    """
    uid = os.geteuid() if uid is None else uid
    real = Path(os.path.realpath(path))
    try:
        st = real.stat()
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != uid:
        return f"is owned by uid {st.st_uid}, not {uid}"
    if st.st_mode & 0o022:
        return f"is writable by others (mode {oct(stat.S_IMODE(st.st_mode))})"
    for parent in real.parents:
        try:
            pst = parent.stat()
        except OSError:
            return f"has a parent that cannot be read ({parent})"
        if pst.st_mode & 0o022 and not pst.st_mode & stat.S_ISVTX:
            return (
                f"has a parent writable by others ({parent}, mode {oct(stat.S_IMODE(pst.st_mode))})"
            )
    return None


def _usable(path: Path) -> str | None:
    """None when ``path`` can hold the cache; else why not."""
    if not _writable_dir(path):
        return "is not writable"
    return untrusted_reason(path)


def _choose_cache() -> tuple[bool, str]:
    """Decide whether kernels cache and where; returns (cache enabled, description)."""
    env_dir = os.environ.get("NUMBA_CACHE_DIR")
    refused = None
    if env_dir:
        why = _usable(Path(env_dir))
        if why is None:
            numba.config.CACHE_DIR = env_dir
            return True, env_dir
        refused = f"labkit: NUMBA_CACHE_DIR={env_dir!r} {why}; not used for the numba cache"
        numba.config.CACHE_DIR = ""  # unusable: fall through to the other places
    enabled, where = _fallback_cache()
    if refused is not None:
        # One line, once: children inherit the place chosen here and stay quiet.
        print(f"{refused} (using {where})", file=sys.stderr)
        if enabled and numba.config.CACHE_DIR:
            os.environ["NUMBA_CACHE_DIR"] = numba.config.CACHE_DIR
        else:
            os.environ.pop("NUMBA_CACHE_DIR", None)
    return enabled, where


def _fallback_cache() -> tuple[bool, str]:
    package_dir = Path(__file__).resolve().parent
    pycache = package_dir / "__pycache__"
    if os.access(package_dir, os.W_OK) and _usable(pycache) is None:
        return True, f"{package_dir}/**/__pycache__ (beside the sources)"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    user_dir = base / "labkit" / "numba"
    if _usable(user_dir) is None:
        numba.config.CACHE_DIR = str(user_dir)
        return True, str(user_dir)
    return False, "none (no writable private cache location; kernels compile on every run)"


def _read_own_file(path: str) -> bytes | None:
    """The bytes of a cache file this user wrote, or None (missing, a link, someone else's, ...).

    The checks run on the opened handle, so the file cannot be swapped between check and read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (
            not stat.S_ISREG(st.st_mode)
            or st.st_uid != os.geteuid()
            or st.st_mode & 0o022
            or st.st_size > MAX_CACHE_FILE
        ):
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(MAX_CACHE_FILE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _discard(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


class _OwnIndex(IndexDataCacheFile):
    """numba's index/entry files, read only when this user wrote them; broken ones discarded."""

    def _load_index(self) -> dict:
        raw = _read_own_file(self._index_path)
        if raw is None:
            return {}
        try:
            f = io.BytesIO(raw)
            if pickle.load(f) != self._version:
                return {}  # another numba's index: numba's own rule, rewritten on save
            stamp, overloads = pickle.loads(f.read())
            if not isinstance(overloads, dict):
                raise TypeError("index is not a dict")
        except Exception:  # a truncated or garbage index: recompile, never a traceback
            _discard(self._index_path)
            return {}
        return overloads if stamp == self._source_stamp else {}

    def _load_data(self, name: str) -> Any:
        path = self._data_path(name)
        raw = _read_own_file(path)
        if raw is None:
            raise OSError(f"cache entry {path} is missing or not ours")  # numba: a cache miss
        try:
            return pickle.loads(raw)
        except Exception:
            _discard(path)
            raise OSError(f"cache entry {path} is corrupt") from None


class _OwnCache(FunctionCache):
    """numba's per-function cache over :class:`_OwnIndex`; an entry that fails to rebuild is
    dropped and the kernel recompiles."""

    def __init__(self, py_func: Callable) -> None:
        super().__init__(py_func)
        self._cache_file.__class__ = _OwnIndex

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return super().load_overload(sig, target_context)
        except Exception:
            with contextlib.suppress(Exception):
                self._cache_file.flush()
            return None


CACHE_ENABLED, CACHE_DIR = _choose_cache()


@dataclass(frozen=True)
class Covered:
    """Why a kernel has no plain-Python twin of its own, and the test that checks it.

    For helpers inlined into a bigger kernel (checked through that kernel's reference) and for
    kernels whose reference is a whole readable model with other arguments (the game session,
    a Dijkstra over an explicit graph). ``test`` is the name of a test function under ``tests/``.
    """

    why: str
    test: str


@dataclass
class Kernel:
    """A registered kernel: its dispatcher, home module, example arguments and reference."""

    name: str
    module: str
    dispatcher: Any
    example: Callable[[], tuple] | None
    reference: Callable | str | Covered | None = None

    def reference_function(self) -> Callable | None:
        """The reference as a callable (a ``"module:function"`` path imported now), else None."""
        ref = self.reference
        if isinstance(ref, str):
            module, _, attr = ref.partition(":")
            return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]
        return ref if callable(ref) else None

    def describe_reference(self) -> str:
        """One line for the registry table."""
        ref = self.reference
        if ref is None:
            return "MISSING"
        if isinstance(ref, Covered):
            return f"covered by {ref.test}: {ref.why}"
        if isinstance(ref, str):
            return ref
        return f"{ref.__module__}:{ref.__qualname__}"


REGISTRY: dict[str, Kernel] = {}


def kernel(
    fn: Callable | None = None,
    *,
    example: Callable[[], tuple] | None = None,
    reference: Callable | str | Covered | None = None,
    parallel: bool = False,
    fastmath: bool = False,
    cache: bool = True,
) -> Any:
    """Decorate a kernel: ``@kernel`` or ``@kernel(example=lambda: (args,), reference=...)``.

    ``example`` returns a tuple of arguments with the dtypes the public function passes, used
    by :func:`warmup` to compile ahead of time and by the registry test to compare the kernel
    with its ``reference`` (see the module docstring for what a reference may be). With JIT
    disabled the plain function is returned, given a ``py_func`` attribute so references read the
    same either way.

    Examples
    --------
    >>> import numpy as np
    >>> @kernel(example=lambda: (np.arange(3.0),))
    ... def total(a):
    ...     s = 0.0
    ...     for x in a:
    ...         s += x
    ...     return s
    >>> float(total(np.arange(4.0))), float(total.py_func(np.arange(4.0)))
    (6.0, 6.0)
    """

    def wrap(f: Callable) -> Any:
        if DISABLED:
            f.py_func = f  # type: ignore[attr-defined]
            compiled = f
        else:
            # Functions without a source file (doctests, notebooks) have nowhere to cache.
            has_file = os.path.isfile(f.__code__.co_filename)
            cached = cache and CACHE_ENABLED and has_file
            compiled = numba.njit(nogil=True, cache=cached, parallel=parallel, fastmath=fastmath)(f)
            if cached:
                compiled._cache = _OwnCache(f)  # numba's FunctionCache, reading only our files
        name = f"{f.__module__}.{f.__qualname__}"
        if not f.__module__.startswith("labkit._jit") and "<" not in f.__qualname__:
            REGISTRY[name] = Kernel(name, f.__module__, compiled, example, reference)
        return compiled

    return wrap(fn) if fn is not None else wrap


@contextlib.contextmanager
def plain_python(*modules: str) -> Iterator[None]:
    """Run registered kernels as their plain-Python ``py_func`` inside the block.

    With no arguments every registered kernel is swapped; otherwise only kernels living in the
    named modules. A kernel is swapped wherever a labkit module holds it, also under a name
    imported with ``from ... import``, so kernels calling kernels pick up the swap too (globals
    are looked up at call time in plain Python).

    Examples
    --------
    >>> from labkit import _tour_kernel
    >>> with plain_python("labkit._tour_kernel"):
    ...     type(_tour_kernel.chebyshev_rings).__name__
    'function'
    >>> _tour_kernel.chebyshev_rings.__module__
    'labkit._tour_kernel'
    """
    chosen = {id(k.dispatcher): k for k in REGISTRY.values() if not modules or k.module in modules}
    swapped: list[tuple[Any, str, Any]] = []
    try:
        # Every labkit module holding a chosen kernel under any name: its home module, and any
        # module that imported it by name (``from ._kernels import exchange``).
        for mod in [m for n, m in list(sys.modules.items()) if n.startswith("labkit") and m]:
            for short, value in list(vars(mod).items()):
                k = chosen.get(id(value))
                if k is None or value is not k.dispatcher:
                    continue
                swapped.append((mod, short, value))
                setattr(mod, short, getattr(value, "py_func", value))
        yield
    finally:
        for mod, short, disp in reversed(swapped):
            setattr(mod, short, disp)


def import_kernel_modules() -> list[str]:
    """Import every domain ``_kernels`` module that exists; return the names imported."""
    found = []
    for name in KERNEL_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only a missing domain package is tolerated, never a missing dependency inside it.
            if exc.name is None or not name.startswith(exc.name):
                raise
            continue
        found.append(name)
    return found


#: What ``labkit warmup DOMAIN`` may name: a domain's kernels are those of its package.
DOMAINS = ("hexpuzzle", "pathfinding", "mapturn", "encounter")


def warmup(progress: bool = True, domains: Sequence[str] | None = None) -> dict[str, float]:
    """Compile every registered kernel (or only those of ``domains``, names from
    :data:`DOMAINS`, checked by the callers) with its example arguments; seconds per kernel."""
    from tqdm.auto import tqdm

    wanted = tuple(domains or ())
    import_kernel_modules()
    timings: dict[str, float] = {}
    kernels = [
        k
        for k in REGISTRY.values()
        if k.example is not None
        and (not wanted or any(k.module.startswith(f"labkit.{d}.") for d in wanted))
    ]
    for k in tqdm(kernels, desc="compiling kernels", unit="kernel", disable=not progress):
        start = time.perf_counter()
        k.dispatcher(*k.example())
        timings[k.name] = time.perf_counter() - start
    return timings


def registry_table() -> list[tuple[str, str]]:
    """(kernel, reference) for every kernel of every domain, for the docs and the closing note.

    Examples
    --------
    >>> rows = dict(registry_table())
    >>> rows["labkit._tour_kernel.chebyshev_rings"]
    'tests.kernel_references:chebyshev_rings'
    """
    import_kernel_modules()
    return [(k.name, k.describe_reference()) for k in REGISTRY.values()]


def info() -> dict[str, str]:
    """Numba facts for ``labkit info``: version, cache directory, threading layer, JIT switch."""
    layer: str
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = "not yet initialised (no parallel kernel has run)"
    return {
        "numba": numba.__version__,
        "numba cache": CACHE_DIR,
        "threading layer": layer,
        "numba threads": str(numba.config.NUMBA_NUM_THREADS),
        "jit": "disabled (LABKIT_DISABLE_JIT)" if DISABLED else "enabled",
    }


if __name__ == "__main__":  # python -m labkit._jit: the registry table
    from labkit import _jit as _registered  # the imported module, not this __main__ copy

    for _name, _ref in _registered.registry_table():
        print(f"{_name}\t{_ref}")
