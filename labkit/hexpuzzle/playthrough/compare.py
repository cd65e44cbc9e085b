"""Two funnels side by side: two orders, two campaigns, a level swapped.

Levels are compared by *position* (the 5th level of one against the 5th of the other), since
a funnel is about when players stop. When both funnels were made with the same integer seed and
the same number of draws, cohort ``b`` of one used the same parameter draw and the same players
as cohort ``b`` of the other (common random numbers), so each difference is taken cohort by
cohort and its interval is the 2.5–97.5 percentiles of those paired differences: far narrower
than comparing two separate intervals. Otherwise the cohorts are independent and the
difference's interval comes from pairing them in order all the same (still honest, wider).

Examples
--------
>>> from labkit.hexpuzzle.playthrough.simulate import FunnelWorld
>>> quit = {"baseline": -2.0, "won": -1.0}
>>> easy_first = FunnelWorld([-1.0, 0.0, 1.0], quit=quit).funnel(3000, draws=10, rng=4)
>>> hard_first = FunnelWorld([1.0, 0.0, -1.0], quit=quit).funnel(3000, draws=10, rng=4)
>>> c = compare_funnels(easy_first, hard_first, labels=("easy first", "hard first"))
>>> c.paired, bool(c.reach_difference[-1, 2] < 0)  # hard first: fewer reach the last level
(True, True)
>>> c.summary().split(":")[0]
'easy first brings more players to the last level'
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.playthrough.simulate import Funnel

__all__ = ["FunnelComparison", "compare_funnels"]


def _interval(samples: NDArray) -> NDArray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a position nobody reaches
        mid, lo, hi = np.nanpercentile(samples, [50.0, 2.5, 97.5], axis=0)
    return np.stack([mid, lo, hi], axis=-1)


@dataclass(frozen=True, eq=False)
class FunnelComparison:
    """``b`` minus ``a``, position by position: reach and quit hazard (value, low, high).

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.simulate import FunnelWorld
    >>> a = FunnelWorld([0.0, 0.0], quit={"baseline": -1.0}).funnel(1000, draws=5, rng=1)
    >>> compare_funnels(a, a).reach_difference[:, 0].tolist()
    [0.0, 0.0]
    """

    a: Funnel
    b: Funnel
    labels: tuple[str, str]
    paired: bool
    reach_difference: NDArray[np.float64]  # (n, 3)
    hazard_difference: NDArray[np.float64]  # (n, 3)
    #: share of all players who clear the last level, b minus a (value, low, high)
    finished_difference: NDArray[np.float64]

    def rows(self) -> list[dict[str, Any]]:
        """One dict per position: both levels, both reaches and hazards, the differences."""
        out = []
        ra, rb = self.a.stats["reach"], self.b.stats["reach"]
        ha, hb = self.a.stats["quit_hazard"], self.b.stats["quit_hazard"]
        for i in range(len(self.reach_difference)):
            out.append({
                "position": i + 1,
                f"level {self.labels[0]}": self.a.level_ids[i],
                f"level {self.labels[1]}": self.b.level_ids[i],
                f"reach {self.labels[0]}": float(ra[i, 0]),
                f"reach {self.labels[1]}": float(rb[i, 0]),
                "reach difference": float(self.reach_difference[i, 0]),
                "reach difference low": float(self.reach_difference[i, 1]),
                "reach difference high": float(self.reach_difference[i, 2]),
                f"quit {self.labels[0]}": float(ha[i, 0]),
                f"quit {self.labels[1]}": float(hb[i, 0]),
                "quit difference": float(self.hazard_difference[i, 0]),
            })  # fmt: skip
        return out

    def summary(self) -> str:
        """One designer sentence on who keeps more players to the end."""
        v, lo, hi = (float(x) for x in self.reach_difference[-1])
        a, b = self.labels
        if lo > 0:
            verdict = f"{b} brings more players to the last level"
        elif hi < 0:
            verdict = f"{a} brings more players to the last level"
        else:
            verdict = "the two bring as many players to the last level, as far as can be told"
        worst_a = self.a.exits(1)[0]
        worst_b = self.b.exits(1)[0]
        return (f"{verdict}: {b} minus {a} = {v:+.1%} of all players (95 %: {lo:+.1%} to "
                f"{hi:+.1%}{', paired cohorts' if self.paired else ''}). Most players leave at "
                f"{worst_a[0]} in {a} ({worst_a[1]:.0%}) and at {worst_b[0]} in {b} "
                f"({worst_b[1]:.0%}).")  # fmt: skip

    def __repr__(self) -> str:
        return f"FunnelComparison({self.summary()})"

    def _repr_html_(self) -> str:
        a, b = self.labels
        head = ["#", f"level ({a})", f"level ({b})", f"reach {a}", f"reach {b}",
                "difference (95 %)", f"quit {a}", f"quit {b}"]  # fmt: skip
        body = []
        for r in self.rows():
            cells = [r["position"], r[f"level {a}"], r[f"level {b}"],
                     f"{r[f'reach {a}']:.0%}", f"{r[f'reach {b}']:.0%}",
                     f"{r['reach difference']:+.1%} ({r['reach difference low']:+.1%} to "
                     f"{r['reach difference high']:+.1%})",
                     f"{r[f'quit {a}']:.0%}", f"{r[f'quit {b}']:.0%}"]  # fmt: skip
            body.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
        header = "".join(f"<th>{escape(h)}</th>" for h in head)
        return (f"<p>{escape(self.summary())}</p><table><tr>{header}</tr>"
                f"{''.join(body)}</table>")  # fmt: skip


def compare_funnels(
    a: Funnel, b: Funnel, *, labels: tuple[str, str] = ("A", "B")
) -> FunnelComparison:
    """Compare two funnels position by position (see the module notes on pairing).

    Parameters
    ----------
    a, b : Funnel
        Funnels of campaigns with the same number of levels.
    labels : (str, str)
        What to call them in the table and the summary.

    Examples
    --------
    >>> from labkit.hexpuzzle.playthrough.simulate import FunnelWorld
    >>> a = FunnelWorld([0.0, 1.0], quit={"baseline": -1.0}).funnel(2000, draws=8, rng=3)
    >>> b = FunnelWorld([1.0, 0.0], quit={"baseline": -1.0}).funnel(2000, draws=8, rng=3)
    >>> c = compare_funnels(a, b)
    >>> c.paired, len(c.rows()), c.rows()[1]["level B"]
    (True, 2, 'L02')
    """
    if len(a.level_ids) != len(b.level_ids):
        raise ArgumentError(f"has {len(b.level_ids)} levels, the first funnel "
                            f"{len(a.level_ids)}: compare campaigns of one length",
                            argument="b", value=len(b.level_ids))  # fmt: skip
    if not (a.samples and b.samples):
        raise ArgumentError("has no cohort samples", argument="a", value=repr(a))
    seed_a, seed_b = a.notes.get("seed"), b.notes.get("seed")
    paired = a.draws == b.draws and seed_a is not None and seed_a == seed_b
    n = min(a.draws, b.draws)

    def diff(name: str) -> NDArray:
        return b.samples[name][:n] - a.samples[name][:n]

    reach = np.nan_to_num(_interval(diff("reach")))
    hazard = _interval(diff("quit_hazard"))
    finished = _interval(diff("finished"))[0]
    return FunnelComparison(a, b, (str(labels[0]), str(labels[1])), paired, reach, hazard,
                            finished)  # fmt: skip
