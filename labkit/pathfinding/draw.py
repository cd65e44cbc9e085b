"""SVG pictures of layers and path results (no matplotlib needed: plain SVG text).

Cells are squares of ``CELL`` pixels; ``(x, y)`` is drawn at column x, row y (y downward).
Walls are dark, hit tiles (``event_pass`` false) orange, one-way tiles blue with an arrow per
direction in which one may leave, ``only_events`` tiles of other layers hatched grey; cost
fields shade cells green; terminals of a result's graph get a ring, the path a polyline from a
green start dot to a red target square; cells the search graph reached are tinted.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import numpy as np

from labkit._svg import document

if TYPE_CHECKING:
    from labkit.pathfinding.finder import PathResult
    from labkit.pathfinding.tiles import MapLayer, TileDef

CELL = 24
CAPTION = 18  # strip under the map for a result's status line
WALL, HIT, ONE_WAY, DECO, EMPTY = "#3b3b3b", "#f0a040", "#9cc7f0", "#b8b8b8", "#ffffff"


def _tile_colour(tile: TileDef) -> str:
    if tile.in_pass == 0 and tile.out_pass == 0:
        return WALL
    if not tile.event_pass:
        return HIT
    if tile.in_pass != 15 or tile.out_pass != 15:
        return ONE_WAY
    return "#d8d8d8"


def _arrows(tile: TileDef, cx: float, cy: float) -> list[str]:
    """An arrow per direction a one-way tile may be left in, a bar per side it bars entry from."""
    parts = []
    if tile.in_pass not in (0, 15):
        half = CELL / 2 - 2
        for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
            if not tile.in_pass & bit:
                ex, ey = cx + dx * half, cy + dy * half
                x1, y1 = ex - dy * half, ey - dx * half
                x2, y2 = ex + dy * half, ey + dx * half
                parts.append(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c0392b" '
                    'stroke-width="3"><title>no entry from this side</title></line>'
                )
    if tile.out_pass in (0, 15):
        return parts
    for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
        if tile.out_pass & bit:
            x2, y2 = cx + dx * CELL * 0.38, cy + dy * CELL * 0.38
            parts.append(
                f'<line x1="{cx}" y1="{cy}" x2="{x2}" y2="{y2}" stroke="#1c4f8a" '
                'stroke-width="2" marker-end="url(#arrow)"/>'
            )
    return parts


def layer_svg(
    layer: MapLayer, result: PathResult | None = None, cost: np.ndarray | None = None
) -> str:
    """SVG text of ``layer`` (and its map's other layers), optionally with a result on top.

    Examples
    --------
    >>> from labkit.pathfinding.map_file import load_map, shipped_map_path
    >>> corridors = load_map(shipped_map_path("corridors.json"))
    >>> layer_svg(corridors.game_map.event_layer).startswith("<svg")
    True
    """
    h, w = layer.height, layer.width
    game_map = layer.game_map
    full = h * CELL + (CAPTION if result is not None else 0)
    out = [
        "",
        '<defs><marker id="arrow" markerWidth="6" markerHeight="6" refX="5" refY="3" '
        'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#1c4f8a"/></marker>'
        '<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse">'
        f'<rect width="6" height="6" fill="{DECO}"/><path d="M0,6 L6,0" stroke="#777"/>'
        "</pattern></defs>",
        f'<rect width="{w * CELL}" height="{h * CELL}" fill="{EMPTY}"/>',
    ]
    if cost is not None:
        c = np.asarray(cost, dtype=float)
        finite = c[np.isfinite(c)]
        top = float(finite.max()) if finite.size else 1.0
        for y, x in zip(*np.nonzero(c != 1)):
            shade = 0.15 + 0.5 * min(1.0, float(c[y, x]) / max(top, 1e-9))
            out.append(
                f'<rect x="{x * CELL}" y="{y * CELL}" width="{CELL}" height="{CELL}" '
                f'fill="#4a9d5b" fill-opacity="{shade:.2f}"><title>cost {c[y, x]:g}</title></rect>'
            )
    if result is not None and result.graph is not None:
        for x, y in result.graph.cells:
            out.append(
                f'<rect x="{x * CELL}" y="{y * CELL}" width="{CELL}" height="{CELL}" '
                'fill="#fff2a8" fill-opacity="0.45"/>'
            )
    if game_map is not None:
        others = [x for x in game_map.all_layers() if x is not layer]
        for other in others:
            for y, x in zip(*np.nonzero(other.tiles)):
                tile = other.tile_at(int(x), int(y))
                if tile is not None and tile.only_events:
                    out.append(
                        f'<rect x="{x * CELL}" y="{y * CELL}" width="{CELL}" height="{CELL}" '
                        f'fill="url(#hatch)"><title>{escape(other.name)}: {escape(tile.name)}'
                        "</title></rect>"
                    )
        for y, x in zip(*np.nonzero(layer.tiles)):
            tile = layer.tile_at(int(x), int(y))
            if tile is None:
                continue
            out.append(
                f'<rect x="{x * CELL + 1}" y="{y * CELL + 1}" width="{CELL - 2}" '
                f'height="{CELL - 2}" fill="{_tile_colour(tile)}">'
                f"<title>{escape(tile.name or str(tile.number))} ({x}, {y})</title></rect>"
            )
            out.extend(_arrows(tile, (x + 0.5) * CELL, (y + 0.5) * CELL))
    for i in range(w + 1):
        out.append(f'<line x1="{i * CELL}" y1="0" x2="{i * CELL}" y2="{h * CELL}" stroke="#ddd"/>')
    for j in range(h + 1):
        out.append(f'<line x1="0" y1="{j * CELL}" x2="{w * CELL}" y2="{j * CELL}" stroke="#ddd"/>')
    if result is not None:
        out.extend(_result_marks(result, h * CELL + CAPTION - 5))
    out.append("")
    return document(w * CELL, full, "\n".join(out))


def _result_marks(result: PathResult, caption_y: int) -> list[str]:
    out = []
    g = result.graph
    if g is not None:
        for x, y in g.cells[g.terminal]:
            out.append(
                f'<circle cx="{(x + 0.5) * CELL}" cy="{(y + 0.5) * CELL}" r="{CELL * 0.42}" '
                'fill="none" stroke="#c0392b" stroke-width="2"><title>terminal</title></circle>'
            )
    if len(result.path):
        pts = " ".join(f"{(x + 0.5) * CELL},{(y + 0.5) * CELL}" for x, y in result.path)
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="#8e44ad" stroke-width="3" '
            'stroke-linejoin="round"/>'
        )
    sx, sy = result.start
    tx, ty = result.target
    out.append(f'<circle cx="{(sx + 0.5) * CELL}" cy="{(sy + 0.5) * CELL}" r="6" fill="#27ae60"/>')
    out.append(
        f'<rect x="{(tx + 0.5) * CELL - 6}" y="{(ty + 0.5) * CELL - 6}" width="12" height="12" '
        'fill="#e74c3c"/>'
    )
    cost = "inf" if result.cost == float("inf") else f"{result.cost:g}"
    out.append(
        f'<text x="4" y="{caption_y}" font-family="sans-serif" font-size="12" fill="#000">'
        f"{result.status.name} cost {cost} expanded {result.expanded}</text>"
    )
    return out


def result_svg(result: PathResult) -> str:
    """SVG text of a :class:`PathResult` on its layer (a bare caption if it has none)."""
    if result.layer is None:
        caption = (
            '<text x="4" y="16" font-family="sans-serif" font-size="12">'
            f"{result.status.name}</text>"
        )
        return document(320, 24, [caption])
    return layer_svg(result.layer, result, cost=None)
