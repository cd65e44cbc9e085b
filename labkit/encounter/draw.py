"""Matplotlib drawings of the encounter rules (imported lazily; the rules never import this).

Each function draws on a given ``Axes`` and returns the artists it made, so that apps update
them in place (``set_ydata``, ``set_height``, ``set_UVC``) instead of redrawing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit.encounter import tables
from labkit.encounter.rules.balance import Balance, PriorityRule
from labkit.encounter.rules.sound import DIRECTION_VECTORS, Direction

__all__ = ["draw_curves", "draw_priority", "draw_rounds", "update_rounds", "draw_sound", "DIFFS"]

DIFFS = np.arange(-3, 4)  # agility differences shown for the priority rule


def draw_curves(ax: Any, balance: Balance, *, annotate: bool = True) -> dict[str, Any]:
    """Hit and pursuit % by index −4…4 (seed figures 2 and 3) on one axes."""
    x = tables.INDICES
    (hit,) = ax.plot(x, 100 * balance.hit_table, "o-", color="tab:blue", label="hit")
    (pur,) = ax.plot(x, 100 * balance.pursuit_table, "s--", color="tab:orange", label="pursuit")
    ax.set_xticks(x)
    ax.set_ylim(0, 100)
    ax.set_xlabel("index = attacker level − target agility (clamped)")
    ax.set_ylabel("chance (%)")
    ax.set_title("hit and pursuit curves")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    labels = []
    if annotate:
        for xi, yi in zip(x, 100 * balance.hit_table):
            labels.append(ax.annotate(f"{yi:.0f}", (xi, yi), textcoords="offset points",
                                      xytext=(0, 5), ha="center", fontsize=7))  # fmt: skip
    return {"hit": hit, "pursuit": pur, "labels": labels}


def draw_priority(ax: Any, rule: PriorityRule) -> Any:
    """Later-round priority % by agility difference (seed table 3), as bars."""
    p = 100 * np.asarray(tables.priority_chance(DIFFS, rule=rule))
    bars = ax.bar(DIFFS, p, color="tab:green", alpha=0.8)
    ax.set_xticks(DIFFS)
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", lw=0.6)
    ax.set_xlabel("own agility − other's agility")
    ax.set_ylabel("acts first (%)")
    ax.set_title("later-round priority")
    return bars


def draw_rounds(ax: Any, rounds: np.ndarray, max_shown: int = 15) -> Any:
    """Share of fights by the round they ended in (the last bar gathers the rest)."""
    shares = _round_shares(rounds, max_shown)
    bars = ax.bar(np.arange(1, max_shown + 1), shares, color="tab:purple", alpha=0.8)
    ax.set_xlabel(f"rounds (last bar: {max_shown} or more)")
    ax.set_ylabel("share of fights")
    ax.set_ylim(0, 1)
    ax.set_title("fight length")
    return bars


def _round_shares(rounds: np.ndarray, max_shown: int) -> np.ndarray:
    r = np.asarray(rounds, dtype=np.float64)[1:]
    shown = np.zeros(max_shown)
    shown[: min(max_shown, r.size)] = r[:max_shown]
    shown[-1] += r[max_shown:].sum()
    return shown / max(r.sum(), 1.0)


def update_rounds(bars: Any, rounds: np.ndarray) -> None:
    """Set the bar heights of :func:`draw_rounds` in place and fit the y range."""
    shares = _round_shares(rounds, len(bars))
    for bar, h in zip(bars, shares):
        bar.set_height(h)
    if len(bars):
        bars[0].axes.set_ylim(0, max(0.05, 1.15 * float(shares.max())))


def draw_sound(
    ax: Any,
    strength: np.ndarray,
    direction: np.ndarray,
    sources: np.ndarray | None = None,
    *,
    arrows: bool = True,
) -> dict[str, Any]:
    """Strength map (image, y down) with a quiver of directions toward the winning source."""
    h, w = strength.shape
    image = ax.imshow(strength, cmap="magma", origin="upper", interpolation="nearest",
                      extent=(-0.5, w - 0.5, h - 0.5, -0.5))  # fmt: skip
    out: dict[str, Any] = {"image": image}
    if arrows:
        heard = (direction >= 0) & (direction < Direction.HERE)
        ys, xs = np.nonzero(heard)
        vec = DIRECTION_VECTORS[direction[heard]]
        # Image y grows downward, so the arrow's y component keeps its sign with invert.
        out["quiver"] = ax.quiver(xs, ys, vec[:, 0], vec[:, 1], angles="xy", scale_units="xy",
                                  scale=2.2, color="white", width=0.004)  # fmt: skip
    if sources is not None and len(sources):
        src = np.asarray(sources)
        out["sources"] = ax.scatter(src[:, 0], src[:, 1], marker="*", s=90, c="cyan",
                                    edgecolors="black", linewidths=0.5, zorder=3)  # fmt: skip
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    ax.set_aspect("equal")
    return out
