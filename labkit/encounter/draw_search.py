"""Matplotlib drawing for the balance search: knob importance and the tuning's trade-offs.

Each drawing is ``draw_x(obj, ax=None, **style) -> artists`` (:func:`labkit._draw.drawing`).

* :func:`draw_importance` — one bar per knob (by its words and unit) with its 95 % interval,
  the seed block (noise) in grey; Sobol results show first- and total-order bars side by side;
* :func:`draw_pareto` — every candidate of :func:`~labkit.encounter.tune_many` by its misses on
  two targets, the Pareto front joined, the re-checked candidates marked (met or not).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import drawing, styled
from labkit.glossary import GLOSSARY, words

__all__ = ["draw_importance", "draw_pareto", "IMPORTANCE_STYLE", "PARETO_STYLE"]

IMPORTANCE_STYLE: dict[str, Any] = {
    "colour": "#1f5fa8",
    "first_colour": "#9ecae1",
    "noise_colour": "#999",
    "matters_colour": "#d0021b",
}
PARETO_STYLE: dict[str, Any] = {"colour": "#bbb", "front_colour": "#1f5fa8",
                                "met_colour": "#2ca02c", "failed_colour": "#d0021b"}  # fmt: skip


@drawing
def draw_importance(ax: Any, imp: Any, **style: Any) -> dict[str, Any]:
    """An :class:`~labkit.encounter.Importance` as bars with 95 % intervals, largest on top.

    Returns ``{"ax", "bars"}`` (and ``"first"`` for Sobol); ``style`` keys: ``colour``,
    ``first_colour``, ``noise_colour``, ``matters_colour`` (the labels of knobs that matter).

    Examples
    --------
    >>> import numpy as np
    >>> from labkit.encounter import importance
    >>> imp = importance(None, {"x": (0, 3)}, seeds=range(200), games=1, outcome="steps",
    ...                  response=lambda p, s: {"steps": p["x"] + s % 2}, progress=False)
    >>> art = draw_importance(imp)
    >>> len(art["bars"]), [t.get_text() for t in art["ax"].get_yticklabels()]
    (2, ['x', 'seed block (1 game)'])
    """
    st = styled(IMPORTANCE_STYLE, style)
    t = imp.table
    main = t[t["index"] == imp.main].copy()
    main["order"] = main["rank"].astype("float").fillna(len(main) + 1)
    main = main.sort_values("order")
    y = np.arange(len(main))[::-1].astype(float)
    colours = [st["noise_colour"] if r.rank is None or r.knob == "seed block" else st["colour"]
               for r in main.itertuples()]  # fmt: skip
    height = 0.4 if imp.method == "sobol" else 0.7
    # Both indices are shares of variance (Sobol) or means of absolute effects (Morris): never
    # below 0, and a share never above 1. An estimate outside is noise around the end: the bar
    # and its interval stop there, and a bar estimated below 0 is labelled "about 0".
    top = 1.0 if imp.method == "sobol" else np.inf

    def bars(rows: Any, y_at: Any, **kw: Any) -> Any:
        v, lo, hi = (np.clip(rows[k].to_numpy(float), 0.0, top) for k in ("value", "lo", "hi"))
        drawn = ax.barh(y_at, v, height=height, xerr=np.vstack([v - lo, hi - v]), capsize=3,
                        **kw)  # fmt: skip
        for yi, raw in zip(y_at, rows["value"].to_numpy(float)):
            if raw < 0:
                ax.annotate("about 0", (0.0, yi), xytext=(3, 0), textcoords="offset points",
                            va="center", fontsize="small")  # fmt: skip
        return drawn

    out: dict[str, Any] = {"ax": ax}
    shift = height / 2 if imp.method == "sobol" else 0.0
    out["bars"] = bars(main, y + shift, color=colours, label=words(imp.main).split(" (")[0])
    if imp.method == "sobol":
        first = t[t["index"] == "first"].set_index("knob").loc[main["knob"]]
        out["first"] = bars(first, y - shift, color=st["first_colour"],
                            label=words("first"))  # fmt: skip
        ax.legend(loc="lower right", fontsize="small")
    ax.set_yticks(y, list(main["label"]))
    for tick, matters in zip(ax.get_yticklabels(), main["matters"]):
        if matters:
            tick.set_color(st["matters_colour"])
    if imp.method == "sobol":
        ax.set_xlabel("share of variance (95 % interval)")
    else:
        said, unit = GLOSSARY.get(imp.main, (words(imp.main), ""))
        ax.set_xlabel(f"{said} ({unit}; 95 % interval)" if unit else f"{said} (95 % interval)")
    ax.set_title(f"what moves {imp.outcome}", fontsize="medium")
    ax.axvline(0, color="k", lw=0.8)
    return out


@drawing
def draw_pareto(ax: Any, tuned: Any, x: str | None = None, y: str | None = None,
                **style: Any) -> dict[str, Any]:  # fmt: skip
    """A :class:`~labkit.encounter.TunedMany`'s candidates by their misses on two targets.

    ``x``, ``y`` name the targets (default: the first two; with one target the trial number
    is the x axis). A miss is how far the estimate lies outside the target (0 inside), in the
    outcome's unit. Returns ``{"ax", "trials", "front"}`` and ``"checked"`` when candidates
    were re-played; ``style`` keys: ``colour``, ``front_colour``, ``met_colour``,
    ``failed_colour``.
    """
    st = styled(PARETO_STYLE, style)
    trials = tuned.trials
    names = [t.name for t in tuned.targets]
    x = x or (names[0] if len(names) > 1 else None)
    y = y or (names[1] if len(names) > 1 else names[0])
    xs = trials[f"miss:{x}"] if x else trials["trial"]
    ys = trials[f"miss:{y}"]
    out: dict[str, Any] = {"ax": ax}
    out["trials"] = ax.scatter(xs, ys, s=12, color=st["colour"], label="trials")
    front = trials[trials["front"]].sort_values(f"miss:{x}" if x else "trial")
    fx = front[f"miss:{x}"] if x else front["trial"]
    (out["front"],) = ax.plot(fx, front[f"miss:{y}"], "o-", color=st["front_colour"], ms=5,
                              label="Pareto front")  # fmt: skip
    checked = tuned.checked
    if checked is not None and len(checked):
        # only the confirmation gives a verdict: the choice's rows are estimates picked for
        # looking good (green would promise what they cannot)
        confirmed = (checked["stage"] == "confirm") & checked["met"].astype(bool)
        colours = [st["met_colour"] if m else st["failed_colour"] for m in confirmed]
        cx = checked[f"miss:{x}"] if x else checked["trial"]
        out["checked"] = ax.scatter(cx, checked[f"miss:{y}"], s=70, facecolors="none",
                                    edgecolors=colours, linewidths=2,
                                    label="re-played (green: met on confirmation)")  # fmt: skip
    by = {t.name: t for t in tuned.targets}
    ax.set_xlabel(f"miss: {by[x].sentence()}" if x else "trial")
    ax.set_ylabel(f"miss: {by[y].sentence()}")
    ax.legend(fontsize="small")
    return out
