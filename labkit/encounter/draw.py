"""Matplotlib drawings of the encounter rules (imported lazily; the rules never import this).

Each is ``draw_x(obj, ax=None, **style) -> artists`` (:func:`labkit._draw.drawing`; a new
figure's axes when ``ax`` is omitted, and the older axes-first order still works) and returns
the artists it made; ``update_x(artists, obj)`` changes them in place for a new object, which is
how the probability explorer follows its sliders without redrawing:

* :func:`draw_curves` / :func:`update_curves` — hit and pursuit chance by index;
* :func:`draw_priority` / :func:`update_priority` — later-round priority by agility difference;
* :func:`draw_rounds` / :func:`update_rounds` — fight length;
* :func:`draw_sound` — a sound map (no update: a new map is a new picture, nothing animates it).

``**style`` takes the keys of the ``*_STYLE`` dict beside each drawing (an unknown key raises
:class:`labkit.ArgumentError`).

Examples
--------
>>> from labkit.encounter import default_balance
>>> art = draw_curves(default_balance(), hit_colour="black")
>>> art["hit"].get_color(), art["hit"].axes is art["pursuit"].axes
('black', True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit._draw import drawing, styled
from labkit.encounter.rules import tables
from labkit.encounter.rules.balance import Balance, PriorityRule
from labkit.encounter.rules.sound import COMPASS_VECTORS, Compass

__all__ = [
    "draw_curves",
    "update_curves",
    "draw_priority",
    "update_priority",
    "draw_rounds",
    "update_rounds",
    "draw_sound",
    "DIFFS",
]

DIFFS = np.arange(-3, 4)  # agility differences shown for the priority rule

CURVES_STYLE = {"hit_colour": "tab:blue", "pursuit_colour": "tab:orange", "linewidth": 1.5}
PRIORITY_STYLE = {"colour": "tab:green", "alpha": 0.8}
ROUNDS_STYLE = {"colour": "tab:purple", "alpha": 0.8}
SOUND_STYLE = {"cmap": "magma", "arrow_colour": "white", "source_colour": "cyan"}


@drawing
def draw_curves(
    ax: Any, balance: Balance, *, annotate: bool = True, **style: Any
) -> dict[str, Any]:
    """Hit and pursuit % by index −4…4 (seed figures 2 and 3) on one axes.

    Returns ``{"hit", "pursuit", "labels"}`` (two lines and the hit values written over the
    points when ``annotate``); ``style`` keys: ``hit_colour``, ``pursuit_colour``, ``linewidth``.

    Examples
    --------
    >>> from labkit.encounter import default_balance
    >>> art = draw_curves(default_balance(), linewidth=3)
    >>> art["pursuit"].get_linewidth(), len(art["labels"])
    (3.0, 9)
    """
    st = styled(CURVES_STYLE, style)
    x = tables.INDICES
    (hit,) = ax.plot(x, 100 * balance.hit_table, "o-", color=st["hit_colour"],
                     lw=st["linewidth"], label="hit")  # fmt: skip
    (pur,) = ax.plot(x, 100 * balance.pursuit_table, "s--", color=st["pursuit_colour"],
                     lw=st["linewidth"], label="pursuit")  # fmt: skip
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


def update_curves(art: dict[str, Any], balance: Balance) -> None:
    """Put ``balance``'s tables into the artists of :func:`draw_curves` (no new artists).

    Examples
    --------
    >>> from labkit.encounter import default_balance
    >>> b = default_balance()
    >>> art = draw_curves(b)
    >>> update_curves(art, b.replace(hit_table=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]))
    >>> [round(y) for y in art["hit"].get_ydata()][:3], art["labels"][0].get_text()
    ([10, 20, 30], '10')
    """
    hit = 100 * np.asarray(balance.hit_table, float)
    art["hit"].set_ydata(hit)
    art["pursuit"].set_ydata(100 * np.asarray(balance.pursuit_table, float))
    for label, x, y in zip(art["labels"], tables.INDICES, hit):
        label.set_text(f"{y:.0f}")
        label.xy = (x, y)


@drawing
def draw_priority(ax: Any, rule: PriorityRule, **style: Any) -> Any:
    """Later-round priority % by agility difference (seed table 3), as bars.

    Returns the ``BarContainer``; ``style`` keys: ``colour``, ``alpha``.

    Examples
    --------
    >>> bars = draw_priority(PriorityRule(), colour="black")
    >>> len(bars), bars[0].get_facecolor()[:3]
    (7, (0.0, 0.0, 0.0))
    """
    st = styled(PRIORITY_STYLE, style)
    bars = ax.bar(DIFFS, _priority_heights(rule), color=st["colour"], alpha=st["alpha"])
    ax.set_xticks(DIFFS)
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", lw=0.6)
    ax.set_xlabel("own agility − other's agility")
    ax.set_ylabel("acts first (%)")
    ax.set_title("later-round priority")
    return bars


def _priority_heights(rule: PriorityRule) -> np.ndarray:
    return 100 * np.asarray(tables.priority_chance(DIFFS, rule=rule), float)


def update_priority(bars: Any, rule: PriorityRule) -> None:
    """Set the bar heights of :func:`draw_priority` to ``rule``'s chances, in place.

    Examples
    --------
    >>> bars = draw_priority(PriorityRule())
    >>> update_priority(bars, PriorityRule(base=0.5, per_agility=0.0))
    >>> {round(b.get_height()) for b in bars}
    {50}
    """
    for bar, h in zip(bars, _priority_heights(rule)):
        bar.set_height(h)


@drawing
def draw_rounds(ax: Any, rounds: np.ndarray, max_shown: int = 15, **style: Any) -> Any:
    """Share of fights by the round they ended in (the last bar gathers the rest).

    ``rounds[k]`` counts the fights that ended in round ``k`` (index 0 unused); returns the
    ``BarContainer``. ``style`` keys: ``colour``, ``alpha``.

    Examples
    --------
    >>> bars = draw_rounds([0, 2, 1, 1], max_shown=3, alpha=0.5)
    >>> [float(b.get_height()) for b in bars], bars[0].get_alpha()
    ([0.5, 0.25, 0.25], 0.5)
    """
    st = styled(ROUNDS_STYLE, style)
    shares = _round_shares(rounds, max_shown)
    bars = ax.bar(np.arange(1, max_shown + 1), shares, color=st["colour"], alpha=st["alpha"])
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
    """Set the bar heights of :func:`draw_rounds` in place and fit the y range.

    Examples
    --------
    >>> bars = draw_rounds([0, 2, 1, 1], max_shown=3)
    >>> update_rounds(bars, [0, 0, 0, 4, 4])
    >>> [float(b.get_height()) for b in bars]
    [0.0, 0.0, 1.0]
    """
    shares = _round_shares(rounds, len(bars))
    for bar, h in zip(bars, shares):
        bar.set_height(h)
    if len(bars):
        bars[0].axes.set_ylim(0, max(0.05, 1.15 * float(shares.max())))


@drawing
def draw_sound(
    ax: Any,
    strength: np.ndarray,
    direction: np.ndarray,
    sources: np.ndarray | None = None,
    *,
    arrows: bool = True,
    **style: Any,
) -> dict[str, Any]:
    """Strength map (image, y down) with a quiver of directions toward the winning source.

    Returns ``{"image", "quiver", "sources"}`` (the last two when drawn); ``style`` keys:
    ``cmap``, ``arrow_colour``, ``source_colour``.

    Examples
    --------
    >>> from labkit.encounter import propagate_sound
    >>> strength, direction = propagate_sound((4, 5), [(1, 1, 3)])
    >>> art = draw_sound(strength, direction, [(1, 1, 3)], cmap="viridis")
    >>> sorted(art), art["image"].get_cmap().name
    (['image', 'quiver', 'sources'], 'viridis')
    """
    st = styled(SOUND_STYLE, style)
    h, w = strength.shape
    image = ax.imshow(strength, cmap=st["cmap"], origin="upper", interpolation="nearest",
                      extent=(-0.5, w - 0.5, h - 0.5, -0.5))  # fmt: skip
    out: dict[str, Any] = {"image": image}
    if arrows:
        heard = (direction >= 0) & (direction < Compass.HERE)
        ys, xs = np.nonzero(heard)
        vec = COMPASS_VECTORS[direction[heard]]
        # Image y grows downward, so the arrow's y component keeps its sign with invert.
        out["quiver"] = ax.quiver(xs, ys, vec[:, 0], vec[:, 1], angles="xy", scale_units="xy",
                                  scale=2.2, color=st["arrow_colour"], width=0.004)  # fmt: skip
    if sources is not None and len(sources):
        src = np.asarray(sources)
        out["sources"] = ax.scatter(src[:, 0], src[:, 1], marker="*", s=90, c=st["source_colour"],
                                    edgecolors="black", linewidths=0.5, zorder=3)  # fmt: skip
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    ax.set_aspect("equal")
    return out
