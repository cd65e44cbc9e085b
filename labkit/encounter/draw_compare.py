"""Matplotlib drawing for balance comparisons: a forest plot of the differences and the
survival curves of both versions with their bands (imported lazily).

``**style`` takes the keys of the ``*_STYLE`` dict beside each function.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import drawing, styled

__all__ = ["draw_forest", "draw_survival_bands", "FOREST_STYLE", "BANDS_STYLE"]

FOREST_STYLE: dict[str, Any] = {"colour": "#1f77b4", "zero_colour": "#888", "capsize": 3}
BANDS_STYLE: dict[str, Any] = {"colours": ("#1f77b4", "#d62728"), "band_alpha": 0.2}


@drawing
def draw_forest(ax: Any, table: Any, unit: str = "share", **style: Any) -> dict[str, Any]:
    """The paired differences B − A of one unit's metrics with their 95 % intervals, one row
    per metric (shares in percentage points), around a line at 0.

    Returns ``{"ax", "points", "zero"}``.

    Examples
    --------
    >>> import numpy as np
    >>> from labkit.encounter.sim.paired import paired_table
    >>> t = paired_table({"npc_win": np.r_[np.ones(30), np.zeros(30)]},
    ...                  {"npc_win": np.r_[np.ones(40), np.zeros(20)]}, bootstrap=100)
    >>> art = draw_forest(t)
    >>> [tick.get_text() for tick in art["ax"].get_yticklabels()]
    ['NPC win rate']
    """
    st = styled(FOREST_STYLE, style)
    rows = table[table["unit"] == unit].iloc[::-1]  # the first metric on top
    scale = 100.0 if unit == "share" else 1.0
    y = np.arange(len(rows))
    d = rows["diff"].to_numpy() * scale
    err = np.vstack(
        [d - rows["diff_lo"].to_numpy() * scale, rows["diff_hi"].to_numpy() * scale - d]
    )
    points = ax.errorbar(d, y, xerr=err, fmt="o", color=st["colour"], capsize=st["capsize"])
    zero = ax.axvline(0.0, color=st["zero_colour"], lw=1, ls="--")
    ax.set_yticks(y, list(rows["label"]))
    ax.set_xlabel("B − A (percentage points)" if unit == "share" else f"B − A ({unit})")
    ax.set_title("differences with 95 % intervals (paired)")
    return {"ax": ax, "points": points, "zero": zero}


@drawing
def draw_survival_bands(ax: Any, bands: Any, **style: Any) -> dict[str, Any]:
    """Both versions' survival curves (share of NPCs alive after each turn) with 95 % bands,
    from :func:`~labkit.encounter.sim.compare.survival_bands`.

    Returns ``{"ax", "A", "B"}`` (the step lines).

    Examples
    --------
    >>> import pandas as pd
    >>> b = pd.DataFrame({"version": ["A", "A", "B", "B"], "turn": [0, 5, 0, 5],
    ...                   "alive": [1, .5, 1, .7], "lo": [1, .4, 1, .6], "hi": [1, .6, 1, .8]})
    >>> sorted(draw_survival_bands(b))
    ['A', 'B', 'ax']
    """
    st = styled(BANDS_STYLE, style)
    out: dict[str, Any] = {"ax": ax}
    for name, colour in zip(("A", "B"), st["colours"]):
        part = bands[bands["version"] == name]
        (out[name],) = ax.step(part["turn"], part["alive"], where="post", color=colour,
                               label=f"version {name}")  # fmt: skip
        ax.fill_between(part["turn"], part["lo"], part["hi"], step="post", color=colour,
                        alpha=st["band_alpha"], lw=0)  # fmt: skip
    ax.set_xlabel("turn")
    ax.set_ylabel("share of NPCs alive")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=8)
    return out
