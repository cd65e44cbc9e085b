"""Widget state as code: every app's ``to_code()`` and its "code" button.

``to_code()`` returns Python source that rebuilds an app in its current state (every control,
selection and edited document) and ends with an expression evaluating to the rebuilt app, so a
notebook cell running it shows the app again. The source is generated from the app's own state;
running it is the reader's choice. Nothing read from disk is ever executed by labkit.

The helpers here turn the values an app holds into source text: plain literals through
:func:`literal`, levels through ``Level.from_json({...})``, telemetry through its CSV text.

Examples
--------
>>> literal({"a": (1, 2.5), "b": [None, "x"]})
"{'a': (1, 2.5), 'b': [None, 'x']}"
>>> print(source(["from labkit.widgets import GaugeTuner", "", "app = GaugeTuner()"], "app"))
from labkit.widgets import GaugeTuner
<BLANKLINE>
app = GaugeTuner()
app
"""

from __future__ import annotations

import os
import pprint
from pathlib import Path
from typing import Any

import numpy as np

from labkit import LabkitError

__all__ = [
    "CodeMixin",
    "literal",
    "shown",
    "source",
    "level_code",
    "path_code",
    "telemetry_code",
    "function_code",
]


class CodeError(LabkitError):
    """An app holds something that cannot be written back as code (say what to pass instead)."""


def literal(value: Any) -> str:
    """Source text of a plain value (numbers, strings, None, bools, lists, tuples, dicts).

    numpy scalars and arrays become Python numbers and lists; floats keep every digit (``repr``),
    so the rebuilt app holds exactly the same values.
    """
    return pprint.pformat(_plain(value), width=96, sort_dicts=False)


def shown(widget: Any) -> Any:
    """A control's value as the designer sees it: a float slider's value on its step grid, a
    float box's without binary noise (``0.39999999999999997`` is shown, and written, as 0.4).

    Examples
    --------
    >>> import ipywidgets as W
    >>> shown(W.FloatSlider(0.39999999999999997, min=0.05, max=0.95, step=0.01))
    0.4
    >>> shown(W.FloatText(2.0000000000000004)), shown(W.IntText(3))
    (2.0, 3)
    """
    from labkit.widgets._controls import snapped

    value = widget.value
    if isinstance(value, float):
        if getattr(widget, "step", None) and hasattr(widget, "min"):
            return snapped(widget)
        return float(f"{value:.15g}")
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, (Path, os.PathLike)):
        return os.fspath(value)
    return value


def source(lines: list[str], name: str) -> str:
    """Join ``lines`` and end with the bare name ``name`` (the cell's displayed value)."""
    return "\n".join([*lines, name]) + "\n"


def path_code(path: str | os.PathLike) -> str:
    """A path as source: absolute, so the code runs from any folder."""
    return repr(os.fspath(Path(path).resolve()))


def level_code(level: Any) -> str:
    """``Level.from_json({...})`` for a :class:`~labkit.hexpuzzle.Level`."""
    return f"Level.from_json({literal(level.to_dict())})"


def telemetry_code(telemetry: Any) -> str:
    """Telemetry as source: a path stays a path, a table becomes ``parse_telemetry(csv_text)``."""
    if isinstance(telemetry, (str, os.PathLike)):
        return path_code(telemetry)
    from labkit.hexpuzzle.difficulty.telemetry import to_csv

    return f"parse_telemetry({to_csv(telemetry)!r})"


def function_code(function: Any, argument: str) -> tuple[str, str]:
    """``(import line, name)`` of a function defined at a module's top level, so the code can
    import it back; a lambda, a nested function or one defined in a notebook cell cannot be
    imported and raises :class:`CodeError` naming ``argument``.

    Examples
    --------
    >>> function_code(literal, "response")
    ('from labkit.widgets._code import literal', 'literal')
    >>> function_code(lambda v, s: v, "response")
    Traceback (most recent call last):
    ...
    labkit.widgets._code.CodeError: response=<lambda> cannot be written as code: ...
    """
    import importlib

    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", getattr(function, "__name__", repr(function)))
    try:
        found = importlib.import_module(module) if module and module != "__main__" else None
    except ImportError:
        found = None
    if found is None or "." in name or "<" in name or getattr(found, name, None) is not function:
        raise CodeError(
            f"{argument}={name} cannot be written as code: only a function defined at the top "
            f"level of an importable module (a .py file, not a notebook cell) can be imported "
            f"back; move {name} into a module and build the app with it from there"
        )
    return f"from {module} import {name}", name


class CodeMixin:
    """Adds the "code" button: a toggle that shows :meth:`to_code` in a text area to copy.

    An app calls ``self._add_code_button()`` at the end of ``__init__`` (after ``self.ui``
    exists) and implements ``to_code()``.
    """

    ui: Any  # the app's root ipywidgets box, built by the app before _add_code_button

    def to_code(self) -> str:  # pragma: no cover - every app overrides it
        raise NotImplementedError

    def _add_code_button(self) -> None:
        import ipywidgets as W

        # Labelled with its app: a workbench holding a workshop shows two, each saying whose.
        owner = type(self).__name__
        self.code_button = W.ToggleButton(
            value=False,
            description=f"{owner} as code",
            icon="code",
            tooltip=f"show Python code rebuilding this {owner} as it is now",
            layout=W.Layout(width="auto"),
        )
        self.code_area = W.Textarea(
            value="",
            layout=W.Layout(width="98%", height="220px", display="none"),
        )
        # Why there is no code, in the app (an exception in a click handler reaches only
        # JupyterLab's log console, so the button would seem to do nothing).
        self.code_error = W.HTML(layout=W.Layout(display="none"))
        self.code_button.observe(lambda ch: self.show_code(ch["new"]), names="value")
        box = W.VBox([self.code_button, self.code_error, self.code_area])
        self.ui.children = (*self.ui.children, box)

    def _ipython_display_(self) -> None:
        # Every app is shown the same way (one place: labkit.widgets._figure.show_app).
        from labkit.widgets._figure import show_app

        show_app(self.ui)

    def show_code(self, visible: bool = True) -> str:
        """Show (or hide) the code rebuilding the app; returns the code shown ("" when the app
        cannot be written as code: the reason is shown in the app instead)."""
        import html

        code, error = "", ""
        if visible:
            try:
                code = self.to_code()
            except Exception as exc:  # noqa: BLE001 - any failure is said in the app, not lost
                error = (
                    "<b style='color:#c1121f'>no code for this app</b>: "
                    f"{html.escape(str(getattr(exc, 'message', None) or exc))}"
                )
        self.code_area.value = code
        self.code_area.layout.display = None if code else "none"
        self.code_error.value = error
        self.code_error.layout.display = None if error else "none"
        if self.code_button.value != visible:
            self.code_button.value = visible
        return code
