"""The one deterministic SVG writer behind every ``_repr_svg_`` (and every ``*_svg`` function).

Two ways to make SVG, one set of rules so that the same object gives the same bytes on every
run (notebooks stored and diffed, reproducibility tests):

* :func:`figure_svg` saves a matplotlib figure with a fixed hash salt (stable element ids), text
  kept as text, and no creation date;
* :func:`document` wraps hand-written elements (the pathfinding and encounter pictures) in one
  root element with attributes in a fixed order.

Examples
--------
>>> print(document(20, 10, ['<rect width="20" height="10"/>'], font_size=9))
... # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10"
     font-size="9"><rect width="20" height="10"/></svg>
>>> from matplotlib.figure import Figure
>>> fig = Figure(figsize=(1, 1))
>>> _ = fig.add_subplot().plot([0, 1], [1, 0])
>>> figure_svg(fig) == figure_svg(fig)
True
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

__all__ = ["figure_svg", "document"]

#: matplotlib settings that make its SVG output identical run to run
RC: dict[str, Any] = {"svg.hashsalt": "labkit", "svg.fonttype": "none"}


def figure_svg(fig: Any, *, prologue: bool = True) -> str:
    """SVG text of a matplotlib figure, byte-identical for identical figures (no date).

    ``prologue=False`` drops the XML declaration and doctype, for SVG inlined in HTML.
    """
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text if prologue else text[text.index("<svg") :]


def document(width: float, height: float, body: Iterable[str], **attrs: Any) -> str:
    """An ``<svg>`` root of ``width`` x ``height`` user units around ``body``'s elements.

    Extra attributes are written in the order given, ``font_size`` as ``font-size``.
    """
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"{extra}>'
    )
    return head + "".join(body) + "</svg>"
