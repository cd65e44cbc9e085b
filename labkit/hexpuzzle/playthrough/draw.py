"""Drawing a funnel: the reach curve with its band, quit-hazard bars, attempts per clear.

Where the funnel's model was checked against its data and the data disagree at a level (its
``check``), the reach curve is ringed there, with the check's words in the legend: the band was
widened to the data at that level (:mod:`labkit.hexpuzzle.playthrough.model`).

:func:`draw_funnel` makes the artists once; :func:`update_funnel` moves them to another funnel
of the same length in place (what an app does on every redraw: clearing and redrawing three
axes costs most of a second, moving their artists a few milliseconds).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from labkit.hexpuzzle.playthrough.simulate import FunnelWorld
>>> f = FunnelWorld([0.0, 0.5, 1.0], quit={"baseline": -2.0}).funnel(500, draws=4, rng=0)
>>> axes = plot_funnel(f)
>>> [ax.get_title() for ax in axes]
['who reaches each level (95 % band)', 'who stops there', 'attempts per clear']
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["draw_funnel", "plot_funnel", "update_funnel"]

REACH, HAZARD, ATTEMPTS, BASE, MISS = "#1d4e89", "#c1121f", "#6a994e", "#999999", "#e07a00"


def _new_axes():
    import matplotlib
    import matplotlib.pyplot as plt

    # Not plt.ioff(): it also unhooks IPython's display hook, which fails once the shell that
    # installed it is gone (a doctest after a kernel test); the caller shows the figure.
    was = matplotlib.is_interactive()
    matplotlib.interactive(False)
    try:
        _, ax = plt.subplots(1, 3, figsize=(10.5, 3.2), width_ratios=[2.2, 1.4, 1.4],
                             layout="constrained")  # fmt: skip
    finally:
        matplotlib.interactive(was)
    return ax


def draw_funnel(axes: Any, n: int) -> dict[str, Any]:
    """Artists for a funnel of ``n`` levels on three axes (empty until :func:`update_funnel`)."""
    a_reach, a_haz, a_att = axes
    x = np.arange(1, n + 1)
    zero = np.zeros(n)
    art: dict[str, Any] = {"axes": axes, "x": x}
    (art["before"],) = a_reach.plot(x, zero, "--", color=BASE, lw=1.2, label="before",
                                    visible=False)  # fmt: skip
    (art["reach"],) = a_reach.plot(x, zero, "-o", color=REACH, ms=3, lw=1.5, label="now")
    (art["missed"],) = a_reach.plot(x, zero, "o", mfc="none", mec=MISS, ms=8, mew=1.5,
                                    visible=False)  # fmt: skip
    art["band"] = None
    a_reach.set(xlabel="level (play order)", ylabel="players (%)", ylim=(0, 102),
                xlim=(0.5, n + 0.5), title="who reaches each level (95 % band)")  # fmt: skip
    (art["before_stop"],) = a_haz.step(x, zero, where="mid", color=BASE, lw=1.0, visible=False)
    art["stop"] = a_haz.bar(x, zero, color=HAZARD, alpha=0.8)
    art["stop_err"] = a_haz.vlines(x, zero, zero, color="#333333", lw=0.6)
    a_haz.set(xlabel="level", ylabel="% of those who reach it", title="who stops there")
    art["tries"] = a_att.bar(x, zero, color=ATTEMPTS, alpha=0.8)
    art["tries_err"] = a_att.vlines(x, zero, zero, color="#333333", lw=0.6)
    a_att.set(xlabel="level", ylabel="attempts", title="attempts per clear")
    return art


def _bars(bars, err, x, stat, scale):
    v = np.nan_to_num(stat[:, 0]) * scale
    lo, hi = np.nan_to_num(stat[:, 1]) * scale, np.nan_to_num(stat[:, 2]) * scale
    for rect, h in zip(bars.patches, v):
        rect.set_height(h)
    err.set_segments([[(xi, a), (xi, b)] for xi, a, b in zip(x, lo, hi)])
    return max(float(np.max(hi, initial=0.0)), 1e-9)


def update_funnel(art: dict[str, Any], funnel: Any, baseline: Any = None) -> None:
    """Move the artists of :func:`draw_funnel` to ``funnel`` (and ``baseline``, or none)."""
    a_reach, a_haz, a_att = art["axes"]
    x = art["x"]
    reach = funnel.stats["reach"] * 100
    art["reach"].set_ydata(reach[:, 0])
    if art["band"] is not None:
        art["band"].remove()
    art["band"] = a_reach.fill_between(x, reach[:, 1], reach[:, 2], color=REACH, alpha=0.2, lw=0)
    shown = baseline is not None
    art["before"].set_visible(shown)
    art["before_stop"].set_visible(shown)
    top = 0.0
    if shown:
        art["before"].set_ydata(baseline.stats["reach"][:, 0] * 100)
        b = np.nan_to_num(baseline.stats["quit_hazard"][:, 0]) * 100
        art["before_stop"].set_ydata(b)
        top = float(b.max(initial=0.0))
    # the check's own words name the rings (no import of the model: it draws with this module)
    missed = np.array(getattr(funnel, "widened", ()) or [False] * len(x), dtype=bool)
    art["missed"].set_data(x[missed], reach[missed, 0])
    art["missed"].set_visible(bool(missed.any()))
    if missed.any():
        said, n = funnel.check[int(np.argmax(missed))], int(missed.sum())
        art["missed"].set_label(f"{said} (at {n} level{'' if n == 1 else 's'})")
    # the legend names what is on show: before/now with a baseline, the rings when any
    handles = [h for h in (art["before"], art["reach"]) if shown] + (
        [art["missed"]] if missed.any() else [])  # fmt: skip
    legend = a_reach.get_legend()
    if legend is not None:
        legend.remove()
    if handles:
        a_reach.legend(handles=handles, loc="lower left", fontsize=8, frameon=False)
    top = max(top, _bars(art["stop"], art["stop_err"], x, funnel.stats["quit_hazard"], 100.0))
    a_haz.set_ylim(0, top * 1.1)
    a_att.set_ylim(0, _bars(art["tries"], art["tries_err"], x, funnel.stats["attempts_per_clear"],
                            1.0) * 1.1)  # fmt: skip


def plot_funnel(funnel: Any, ax: Any = None, *, baseline: Any = None) -> Any:
    """Draw ``funnel`` on three axes (new ones, or a sequence of three); returns the axes.

    ``baseline``: another funnel of the same length, drawn in grey beneath (say, the order
    before a change).
    """
    axes = _new_axes() if ax is None else ax
    for a in axes:
        a.clear()
    art = draw_funnel(axes, len(funnel.level_ids))
    update_funnel(art, funnel, baseline)
    return axes
