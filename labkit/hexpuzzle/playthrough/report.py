"""A funnel as text: the CSV file and the HTML table shown in Jupyter.

Examples
--------
>>> from labkit.hexpuzzle.playthrough.simulate import FunnelWorld
>>> f = FunnelWorld([0.0, 1.0], quit={"baseline": -1.0}).funnel(500, draws=4, rng=0)
>>> "<table" in html_table(f), csv_text(f).splitlines()[0].split(",")[:3]
(True, ['position', 'level', 'reach'])
"""

from __future__ import annotations

import csv
import io
import math
from html import escape
from typing import Any

from labkit import io as lio

__all__ = ["csv_text", "html_table", "write_csv"]

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4f}"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA) else text  # a spreadsheet must not run it


def csv_text(funnel: Any) -> str:
    """The rows of ``funnel`` as CSV text (empty cells where nobody got that far)."""
    rows = funnel.rows()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(list(rows[0]))
    for row in rows:
        writer.writerow([_cell(v) for v in row.values()])
    return buf.getvalue()


def write_csv(funnel: Any, path: Any) -> None:
    """Write :func:`csv_text` to ``path`` atomically."""
    with lio.atomic_write(path) as fh:
        fh.write(csv_text(funnel))


def _pct(v: float, lo: float, hi: float) -> str:
    if math.isnan(v):
        return "nobody gets here"
    return f"{v:.0%} <small>({lo:.0%}–{hi:.0%})</small>"


def _num(v: float, lo: float, hi: float) -> str:
    if math.isnan(v):
        return "–"
    return f"{v:.2f} <small>({lo:.2f}–{hi:.2f})</small>"


def html_table(funnel: Any) -> str:
    """An HTML table: one row per level, each value with its 95 % interval."""
    head = ["#", "level", "reach", "first try", "attempts per clear", "quit here"]
    timed = "seconds" in funnel.stats
    if timed:
        head.append("seconds")
    checked = bool(getattr(funnel, "check", ()))
    if checked:
        head.append("check against the data")
    body = []
    for r in funnel.rows():
        cells = [str(r["position"]), escape(str(r["level"])),
                 _pct(r["reach"], r["reach_low"], r["reach_high"]),
                 _pct(r["first_try"], r["first_try_low"], r["first_try_high"]),
                 _num(r["attempts_per_clear"], r["attempts_per_clear_low"],
                      r["attempts_per_clear_high"]),
                 _pct(r["quit_hazard"], r["quit_hazard_low"], r["quit_hazard_high"])]  # fmt: skip
        if timed:
            v, lo, hi = r["seconds"], r["seconds_low"], r["seconds_high"]
            cells.append("no time data" if math.isnan(v) else f"{v:.0f} ({lo:.0f}–{hi:.0f})")
        if checked:
            cells.append(escape(str(r["check"])))
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    caption = escape(repr(funnel))
    header = "".join(f"<th>{h}</th>" for h in head)
    return f"<table><caption>{caption}</caption><tr>{header}</tr>{''.join(body)}</table>"
