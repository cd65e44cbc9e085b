"""Drawing a funnel: the reach curve with its band, quit-hazard bars, attempts per clear.

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

__all__ = ["plot_funnel"]

REACH, HAZARD, ATTEMPTS, BASE = "#1d4e89", "#c1121f", "#6a994e", "#999999"


def plot_funnel(funnel: Any, ax: Any = None, *, baseline: Any = None) -> Any:
    """Draw ``funnel`` on three axes (new ones, or a sequence of three); returns the axes.

    ``baseline``: another funnel of the same length, drawn in grey beneath (say, the order
    before a change).
    """
    if ax is None:
        import matplotlib.pyplot as plt

        with plt.ioff():
            _, ax = plt.subplots(1, 3, figsize=(10.5, 3.2), width_ratios=[2.2, 1.4, 1.4],
                                 layout="constrained")  # fmt: skip
    a_reach, a_haz, a_att = ax
    for a in ax:
        a.clear()
    n = len(funnel.level_ids)
    x = np.arange(1, n + 1)
    reach = funnel.stats["reach"]
    if baseline is not None:
        a_reach.plot(x, baseline.stats["reach"][:, 0] * 100, "--", color=BASE, lw=1.2,
                     label="before")  # fmt: skip
        a_haz.step(x, np.nan_to_num(baseline.stats["quit_hazard"][:, 0]) * 100, where="mid",
                   color=BASE, lw=1.0)  # fmt: skip
    a_reach.fill_between(x, reach[:, 1] * 100, reach[:, 2] * 100, color=REACH, alpha=0.2, lw=0)
    a_reach.plot(x, reach[:, 0] * 100, "-o", color=REACH, ms=3, lw=1.5, label="now")
    a_reach.set(xlabel="level (play order)", ylabel="players (%)", ylim=(0, 102),
                title="who reaches each level (95 % band)")  # fmt: skip
    if baseline is not None:
        a_reach.legend(loc="lower left", fontsize=8, frameon=False)
    haz = funnel.stats["quit_hazard"]
    h = np.nan_to_num(haz[:, 0]) * 100
    err = np.nan_to_num(np.abs(haz[:, 1:].T * 100 - h))
    a_haz.bar(x, h, color=HAZARD, alpha=0.8, yerr=err, error_kw={"lw": 0.6})
    a_haz.set(xlabel="level", ylabel="% of those who reach it", title="who stops there")
    att = funnel.stats["attempts_per_clear"]
    v = np.nan_to_num(att[:, 0])
    err = np.nan_to_num(np.abs(att[:, 1:].T - v))
    a_att.bar(x, v, color=ATTEMPTS, alpha=0.8, yerr=err, error_kw={"lw": 0.6})
    a_att.set(xlabel="level", ylabel="attempts", title="attempts per clear")
    return ax
