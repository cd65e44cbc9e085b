"""Small helpers every app shares: snapped slider values, labels that fit, tooltips.

Why snapping: the browser's slider writes its value back as a float computed in JavaScript
(``min + k * step``), so a slider showing "3.00" may hand Python ``3.0000000000000004``. An app
that compares or accumulates that value (a gauge filling by ``timeCost`` each tick) can then give
a different answer than the same visible "3.00" typed in code. Every app reads decimal sliders
through :func:`snapped`, which puts the value back on the slider's own grid of steps.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

#: Descriptions take the width they need (ipywidgets' default 80 px box cuts longer ones).
WIDE = {"description_width": "initial"}


def _decimals(step: float) -> int:
    """Decimal places of ``step`` as written (0.5 -> 1, 0.01 -> 2, 1 -> 0)."""
    exponent = Decimal(repr(float(step))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def snap(value: float, step: float, origin: float = 0.0) -> float:
    """``value`` moved to the nearest point ``origin + k * step``, rounded to the step's decimals.

    Examples
    --------
    >>> snap(3.0000000000000004, 0.5)
    3.0
    >>> snap(0.30000000000000004, 0.1)
    0.3
    >>> snap(2.26, 0.5, origin=0.5)
    2.5
    """
    k = round((float(value) - origin) / step)
    return round(origin + k * step, _decimals(step) + _decimals(origin))


def snapped(slider: Any) -> float:
    """A float slider's value on its own grid (``min + k * step``): what its readout shows.

    Examples
    --------
    >>> import ipywidgets as W
    >>> s = W.FloatSlider(value=3.0000000000000004, min=0.5, max=8, step=0.5)
    >>> snapped(s)
    3.0
    """
    step = getattr(slider, "step", None)
    if not step:
        return float(slider.value)
    return snap(slider.value, step, float(slider.min))


def tip(widget: Any, text: str) -> Any:
    """Give ``widget`` a tooltip (the full wording of a short label); returns the widget."""
    widget.tooltip = text
    return widget
