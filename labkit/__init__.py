"""labkit — a Jupyter-native research toolkit for turn- and grid-based game mechanics.

Importing :mod:`labkit` is cheap: it loads no numba, compiles no kernel and imports no domain
package. Domain packages (``labkit.hexpuzzle``, ``labkit.pathfinding``, ``labkit.mapturn``,
``labkit.encounter``) and ``labkit.widgets`` are imported on demand.

Examples
--------
>>> import labkit
>>> labkit.__version__
'0.1.0'
>>> issubclass(labkit.LabkitError, Exception)
True
"""

from __future__ import annotations

from typing import Any

from labkit._version import __version__

__all__ = ["__version__", "LabkitError", "ArgumentError", "warmup", "notebook_header"]


class LabkitError(Exception):
    """Base class of every error labkit raises for bad input or bad files.

    Parameters
    ----------
    message : str
        What is wrong, in words.
    file : str, optional
        The file being read or written, if any.
    pointer : str, optional
        JSON pointer (RFC 6901) of the offending field, e.g. ``/cells/3/tracks``.
    value : object, optional
        The offending value; shown with ``repr`` when given.

    Examples
    --------
    >>> err = LabkitError("must be 1-999", file="lvl.json", pointer="/moveLimit", value=0)
    >>> str(err)
    'lvl.json: /moveLimit: must be 1-999 (got 0)'
    >>> err.pointer
    '/moveLimit'
    """

    _NOTHING = object()

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        pointer: str | None = None,
        value: Any = _NOTHING,
    ) -> None:
        self.message = message
        self.file = None if file is None else str(file)
        self.pointer = pointer
        self.value = None if value is LabkitError._NOTHING else value
        self.has_value = value is not LabkitError._NOTHING
        super().__init__(self._render())

    def _render(self) -> str:
        # Every part is capped: a multi-megabyte bad value or file name must not become a
        # multi-megabyte one-line error (the start of it says enough).
        parts = []
        if self.file:
            parts.append(_shorten(self.file, MAX_MESSAGE // 2))
        if self.pointer is not None:
            parts.append(_shorten(self.pointer or "/", MAX_MESSAGE // 4))
        text = ": ".join([*parts, _shorten(self.message, MAX_MESSAGE)])
        if self.has_value:
            text += f" (got {_safe_repr(self.value)})"
        return text

    def with_file(self, file: str) -> LabkitError:
        """Return the same error naming ``file`` (used when a loader knows the path)."""
        self.file = str(file)
        self.args = (self._render(),)
        return self


#: Longest message and value text an error shows (the start of a long value is kept).
MAX_MESSAGE = 400
MAX_VALUE = 160


def _shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[: max(limit - 5, 1)]}… ({len(text)} characters)"


def _safe_repr(value: Any, limit: int = MAX_VALUE) -> str:
    """``repr(value)`` capped at ``limit`` characters, without building a huge repr first."""
    try:
        if isinstance(value, str) and len(value) > limit:
            return f"{repr(value[:limit])[: limit - 5]}… ({len(value)} characters)"
        if isinstance(value, (list, tuple, dict)) and len(value) > 8:
            # the start of a long container, never the repr of all of it
            items = list(value.items())[:8] if isinstance(value, dict) else list(value[:8])
            if isinstance(value, dict):
                head = ", ".join(f"{_safe_repr(k, 40)}: {_safe_repr(v, 40)}" for k, v in items)
                text = f"{{{head}, … ({len(value)} items)}}"
            else:
                head = ", ".join(_safe_repr(v, 40) for v in items)
                text = f"[{head}, … ({len(value)} items)]"
            return text if len(text) <= limit else f"{text[: limit - 20]}… ({len(value)} items)"
        return _shorten(repr(value), limit)
    except Exception:  # a value whose repr fails (e.g. an int over 4300 digits)
        return f"<{type(value).__name__}>"


class ArgumentError(LabkitError, ValueError):
    """A bad argument to a public function or CLI option, naming the argument and the value.

    Being a ``ValueError`` too, it is caught by code that expected the plain ``ValueError`` that
    labkit's functions raised before. File errors stay with their format (``LevelError``, ...) and
    name a JSON pointer or line instead.

    Examples
    --------
    >>> err = ArgumentError("must be >= 1", argument="count", value=0)
    >>> str(err)
    'count: must be >= 1 (got 0)'
    >>> isinstance(err, ValueError), err.argument
    (True, 'count')
    """

    def __init__(self, message: str, *, argument: str, value: Any = LabkitError._NOTHING) -> None:
        self.argument = argument
        super().__init__(f"{argument}: {message}", value=value)


def warmup(progress: bool = True, domains: Any = None) -> dict[str, float]:
    """Compile every registered numba kernel (or only those of ``domains``, e.g.
    ``["pathfinding"]``) and return compile seconds per kernel.

    Kernels are cached on disk (see :mod:`labkit._jit`), so a second call is fast.

    Examples
    --------
    >>> import labkit
    >>> timings = labkit.warmup(progress=False, domains=["pathfinding"])
    >>> sorted(timings) == sorted(t for t in timings if "pathfinding" in t) and len(timings) > 0
    True
    """
    from labkit import _jit

    for name in domains or ():
        if name not in _jit.DOMAINS:
            raise ArgumentError(f"must be one of {', '.join(_jit.DOMAINS)}", argument="domains",
                                value=name)  # fmt: skip
    return _jit.warmup(progress=progress, domains=domains)


def notebook_header(seeds: Any = None, **params: Any) -> dict[str, Any]:
    """Print the reproducibility stamp atop a notebook; see :mod:`labkit._notebook`.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):
    ...     stamp = notebook_header(seeds=7, players=3)
    >>> stamp["seeds"], stamp["params"]["players"]
    (7, 3)
    """
    from labkit import _notebook

    return _notebook.notebook_header(seeds, **params)


# Old module paths of renamed modules keep importing for one release (with a warning).
from labkit import _renamed  # noqa: E402

_renamed.install()
