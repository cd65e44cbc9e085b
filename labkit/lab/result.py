"""The one result shape of every lab study: ``.table``, ``.estimates()``, ``.summary()``,
``.plot()`` and a notebook view.

``.table`` is tidy (one row per game: ``point``, every knob, ``seed``, every outcome);
``.estimates()`` has one row per point and outcome with the number of games, the estimate and
its 95 % interval (Wilson for a rate, normal for a mean); ``.summary()`` says the same in a
designer's words, one sentence per point.

Examples
--------
>>> wilson(8, 10)
(0.4902, 0.9433)
>>> wilson(0, 0)
(nan, nan)
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from labkit.lab.game import Game

__all__ = ["StudyResult", "wilson", "Z95"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` (rounded to 4 places)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


@dataclass(eq=False)
class StudyResult:
    """Games of one study: per outcome a (points, seeds) array of values (see the module)."""

    game: Game
    points: list[dict[str, Any]]
    seeds: np.ndarray
    values: dict[str, np.ndarray]
    study: str = "study"

    @property
    def games(self) -> int:
        """How many games were played (points x seeds)."""
        return len(self.points) * len(self.seeds)

    @property
    def table(self) -> Any:
        """One row per game: ``point``, every knob, ``seed``, every outcome (a DataFrame)."""
        import pandas as pd

        n_p, n_s = len(self.points), len(self.seeds)
        data: dict[str, Any] = {"point": np.repeat(np.arange(n_p, dtype=np.int64), n_s)}
        for k in self.game.knobs:
            col = np.array([p[k.name] for p in self.points],
                           dtype=np.int64 if k.whole else np.float64)  # fmt: skip
            data[k.name] = np.repeat(col, n_s)
        data["seed"] = np.tile(self.seeds, n_p)
        for o in self.game.outcomes:
            data[o.name] = self.values[o.name].reshape(-1)
        return pd.DataFrame(data)

    def estimates(self) -> Any:
        """Per point and outcome: knobs, ``outcome``, ``kind``, ``n``, ``estimate``, ``lo``,
        ``hi`` (a DataFrame)."""
        import pandas as pd

        rows = []
        n = len(self.seeds)
        for i, p in enumerate(self.points):
            for o in self.game.outcomes:
                v = self.values[o.name][i]
                if o.kind == "rate":
                    est = float(v.mean()) if n else math.nan
                    lo, hi = wilson(float(v.sum()), n)
                else:
                    est = float(v.mean()) if n else math.nan
                    half = Z95 * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
                    lo, hi = est - half, est + half
                rows.append({"point": i, **p, "outcome": o.name, "kind": o.kind, "n": n,
                             "estimate": est, "lo": lo, "hi": hi})  # fmt: skip
        return pd.DataFrame(rows)

    def _point_words(self, p: dict[str, Any]) -> str:
        # "hit points 10 hp": the value between the words and the unit
        return ", ".join(f"{k.words or k.name.replace('_', ' ')} {p[k.name]:g}"
                         + (f" {k.unit}" if k.unit else "") for k in self.game.knobs)  # fmt: skip

    def summary(self) -> str:
        """The study in a designer's words: what was played, then one sentence per point."""
        lines = [f"{self.game.name}: {self.study} of {len(self.points)} points x "
                 f"{len(self.seeds)} seeds = {self.games} games (the same seeds at every "
                 "point)."]  # fmt: skip
        est = self.estimates()
        for i, p in enumerate(self.points):
            said = []
            for o in self.game.outcomes:
                r = est[(est["point"] == i) & (est["outcome"] == o.name)].iloc[0]
                val = f"{r['estimate']:.1%}" if o.kind == "rate" else f"{r['estimate']:.3g}"
                band = (f"{r['lo']:.1%}–{r['hi']:.1%}" if o.kind == "rate"
                        else f"{r['lo']:.3g}–{r['hi']:.3g}")  # fmt: skip
                said.append(f"{o.label} {val} (95 % {band})")
            lines.append(f"At {self._point_words(p)}: {'; '.join(said)}.")
        return "\n".join(lines)

    def plot(self, outcome: str | None = None, knob: str | None = None, ax: Any = None) -> Any:
        """An outcome (default the first) against a knob (default the first that varies), one
        line per setting of the other knobs, with 95 % intervals; returns the axes."""
        import matplotlib.pyplot as plt

        o = self.game.outcomes[0] if outcome is None else next(
            x for x in self.game.outcomes if x.name == outcome)  # fmt: skip
        varying = [k for k in self.game.knobs if len({p[k.name] for p in self.points}) > 1]
        varying = varying or list(self.game.knobs)
        x = varying[0] if knob is None else self.game.knob(knob)
        est = self.estimates()
        est = est[est["outcome"] == o.name]
        others = [k.name for k in self.game.knobs if k.name != x.name and k in varying]
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 4))
        groups = est.groupby(others) if others else [((), est)]
        for key, g in groups:
            g = g.sort_values(x.name)
            key = key if isinstance(key, tuple) else (key,)
            label = ", ".join(f"{k} {v:g}" for k, v in zip(others, key)) or None
            ax.errorbar(g[x.name], g["estimate"], yerr=[(g["estimate"] - g["lo"]).clip(0),
                        (g["hi"] - g["estimate"]).clip(0)], marker="o", capsize=3,
                        label=label)  # fmt: skip
        ax.set_xlabel(x.label)
        ax.set_ylabel(o.label)
        ax.set_title(f"{self.game.name}: {o.label} ({len(self.seeds)} seeds a point)")
        if others:
            ax.legend(fontsize="small")
        return ax

    def _repr_html_(self) -> str:
        est = self.estimates()
        cols = [k.name for k in self.game.knobs] + ["outcome", "n", "estimate", "lo", "hi"]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)

        def cell(v: Any) -> str:
            return html.escape(f"{v:.4g}" if isinstance(v, float) else str(v))

        body = "".join("<tr>" + "".join(f"<td>{cell(r[c])}</td>" for c in cols) + "</tr>"
                       for _, r in est.head(200).iterrows())  # fmt: skip
        return (f"<b>{html.escape(self.game.name)}</b>: {html.escape(self.study)}, "
                f"{self.games} games<table><tr>{head}</tr>{body}</table>")  # fmt: skip
