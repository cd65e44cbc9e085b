"""Pictures of a generator's evaluation (matplotlib, imported lazily).

Each drawing is ``draw_x(obj, ax=None, **style) -> artists`` (:func:`labkit._draw.drawing`);
``**style`` takes the keys of the ``*_STYLE`` dict beside it. ``obj`` is a
:class:`~.evaluate.GeneratorReport` or its ``table``.

* :func:`draw_expressive_range` — the expressive range (Smith & Whitehead): a two-dimensional
  histogram of the levels made over two measures (score × tiles by default), the share of
  levels in each cell;
* :func:`draw_control_map` — control-pcgrl's heat map: over the grid of (score target, control
  target) asked for, the share of levels within ±2 with the control met (or any other column,
  e.g. ``"closed"``), each cell written in numbers too.

These are finished results: there is no ``update_x``; a new evaluation is a new figure.

Examples
--------
>>> import pandas as pd
>>> t = pd.DataFrame({"score": [30, 31, 50], "tiles": [5, 5, 9], "score_target": [30, 30, 50],
...                   "rotations_target": [1, 1, 2], "within": [True, False, True]})
>>> art = draw_expressive_range(t)
>>> int(art["counts"].sum()), int(art["counts"].max())
(3, 2)
>>> m = draw_control_map(t, control="rotations")
>>> m["values"].tolist()
[[0.5, nan], [nan, 1.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import drawing, styled

__all__ = ["CONTROL_MAP_STYLE", "EXPRESSIVE_STYLE", "draw_control_map", "draw_expressive_range"]

EXPRESSIVE_STYLE = {"cmap": "viridis", "bins": 12}
CONTROL_MAP_STYLE = {"cmap": "RdYlGn", "fontsize": 8}
_LABELS = {"score": "score (0-100)", "tiles": "tiles", "rotations": "rotations needed",
           "score_target": "score asked for", "rotations_target": "rotations asked for",
           "tiles_target": "tiles asked for", "within": "share within ±2 (control met)",
           "closed": "share of the distance closed"}  # fmt: skip


def _table(obj: Any):
    return getattr(obj, "table", obj)


@drawing
def draw_expressive_range(
    ax: Any, report: Any, *, x: str = "score", y: str = "tiles", **style: Any
) -> dict[str, Any]:
    """Two-dimensional histogram of the levels made, over measures ``x`` and ``y``.

    Returns ``{"mesh": QuadMesh, "counts": (ny, nx) int array, "colorbar": Colorbar}``;
    ``style`` keys: ``cmap``, ``bins`` (at most this many bins per axis; whole-number measures
    get one bin per value when they fit).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"score": [30, 31, 50, 50], "tiles": [5, 5, 9, 9]})
    >>> draw_expressive_range(t, x="score", y="tiles")["counts"].sum().item()
    4
    """
    st = styled(EXPRESSIVE_STYLE, style)
    t = _table(report)
    t = t[t[x].notna() & t[y].notna()]
    xs, ys = np.asarray(t[x], float), np.asarray(t[y], float)
    edges = [_edges(v, st["bins"]) for v in (xs, ys)]
    counts, ex, ey = np.histogram2d(xs, ys, bins=edges)
    counts = counts.T.astype(int)
    share = counts / max(1, counts.sum())
    mesh = ax.pcolormesh(ex, ey, np.ma.masked_equal(share, 0), cmap=st["cmap"])
    bar = ax.figure.colorbar(mesh, ax=ax, label="share of levels")
    ax.set_xlabel(_LABELS.get(x, x))
    ax.set_ylabel(_LABELS.get(y, y))
    ax.set_title(f"expressive range: {counts.sum()} levels", fontsize=9)
    return {"mesh": mesh, "counts": counts, "colorbar": bar}


def _edges(values: np.ndarray, most: int) -> np.ndarray:
    lo, hi = (float(values.min()), float(values.max())) if len(values) else (0.0, 1.0)
    whole = np.all(values == np.round(values))
    if whole and hi - lo + 1 <= most:
        return np.arange(lo - 0.5, hi + 1.5)  # one bin per whole value
    return np.linspace(lo, hi if hi > lo else lo + 1, most + 1)


@drawing
def draw_control_map(
    ax: Any, report: Any, *, control: str = "rotations", value: str = "within", **style: Any
) -> dict[str, Any]:
    """Heat map of ``value`` (mean per cell) over score target × ``control`` target.

    Cells never asked for stay blank. Returns ``{"image": AxesImage, "values": (controls,
    scores) array, "scores": [...], "controls": [...]}``; ``style`` keys: ``cmap``,
    ``fontsize`` (of the numbers written in the cells).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"score_target": [30, 30, 50], "tiles_target": [6, 6, 9],
    ...                   "within": [True, True, False]})
    >>> art = draw_control_map(t, control="tiles")
    >>> art["values"].tolist(), art["scores"], art["controls"]
    ([[1.0, nan], [nan, 0.0]], [30, 50], [6, 9])
    """
    st = styled(CONTROL_MAP_STYLE, style)
    t = _table(report)
    t = t[t[f"{control}_target"].notna()]
    grid = t.pivot_table(index=f"{control}_target", columns="score_target", values=value,
                         aggfunc="mean")  # fmt: skip
    values = grid.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=st["cmap"], vmin=0, vmax=1, origin="lower", aspect="auto")
    ax.set_xticks(range(len(grid.columns)), [f"{v:g}" for v in grid.columns])
    ax.set_yticks(range(len(grid.index)), [f"{v:g}" for v in grid.index])
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            ax.text(j, i, f"{100 * v:.0f} %", ha="center", va="center", fontsize=st["fontsize"])
    ax.set_xlabel(_LABELS["score_target"])
    ax.set_ylabel(_LABELS.get(f"{control}_target", control))
    ax.set_title(_LABELS.get(value, value), fontsize=9)
    ax.figure.colorbar(image, ax=ax, label="share")
    return {"image": image, "values": values, "scores": list(grid.columns),
            "controls": list(grid.index)}  # fmt: skip
