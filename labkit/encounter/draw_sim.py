"""Matplotlib drawing for simulated encounter games and sweeps (imported lazily).

The rule drawings live in :mod:`labkit.encounter.draw`; these are the simulation's.

Each drawing is ``draw_x(obj, ax=None, **style) -> artists`` (:func:`labkit._draw.drawing`);
``**style`` takes the keys of the ``*_STYLE`` dict beside it.

* :func:`draw_board` / :func:`update_board` — the room map with loot, corpses, sound reach and
  actors; ``update_board`` changes the artists in place (the trace viewer scrubs with it);
* :func:`frame_svg` — the same picture as a small SVG without matplotlib (the notebook display
  of :class:`~labkit.encounter.SimulationTrace`);
* :func:`draw_win_rates` — win rate per swept value with 95 % Wilson intervals;
* :func:`draw_survival` — share of NPCs alive by turn with 95 % bands
  (:func:`labkit.encounter.sim.batch.survival_curve`);
* :func:`draw_response` — what :func:`~labkit.encounter.tune` measured and chose
  (``Tuned.plot``).

The sweep and tuning drawings have no ``update_x``: a sweep's summary or a tuning is a finished
result that no app animates or redraws; a new one is a new figure.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import numpy as np

from labkit._draw import drawing, styled
from labkit._svg import document
from labkit.encounter.sim.room_map import ROOM_KINDS

if TYPE_CHECKING:
    from labkit.encounter.records.playback import PlaybackFrame
    from labkit.encounter.records.trace import SimulationTrace

__all__ = [
    "draw_board",
    "update_board",
    "draw_win_rates",
    "draw_survival",
    "draw_response",
    "frame_svg",
    "final_state_svg",
]

KIND_COLOURS = {"hall": "#e8e4da", "store": "#d9e8d0", "armory": "#f0d9b5",
                "cellar": "#cfd6e0", "ward": "#eadbe8"}  # fmt: skip
SIDE_COLOURS = {"npc": "#1f77b4", "monster": "#d62728"}

BOARD_STYLE: dict[str, Any] = {"side_colours": SIDE_COLOURS, "sound_colour": "#fc0",
                               "corpse_colour": "#444"}  # fmt: skip
WIN_RATES_STYLE: dict[str, Any] = {"side_colours": SIDE_COLOURS, "capsize": 4, "marker": "o"}
SURVIVAL_STYLE: dict[str, Any] = {"colours": None, "linewidth": 1.5, "band_alpha": 0.2}
RESPONSE_STYLE: dict[str, Any] = {
    "colour": "#1f5fa8",
    "chosen_colour": "#d0021b",
    "interval_colour": "#f5a623",
    "target_colour": "#888",
}


def actor_spots(frame: PlaybackFrame) -> dict[str, tuple[float, float]]:
    """Where each living actor is drawn, in room units from the map's top-left corner.

    Up to four actors share a room side by side (two columns, two rows), in actor order.
    """
    placed: dict[tuple[int, int], int] = {}
    out = {}
    for aid, st in frame.actors.items():
        if not st["alive"]:
            continue
        x, y = st["position"]
        k = placed.get((x, y), 0)
        placed[(x, y)] = k + 1
        out[aid] = (x + 0.3 + 0.4 * (k % 2), y + 0.35 + 0.3 * (k // 2 % 2))
    return out


def frame_svg(frame: PlaybackFrame, the_map: dict, cell: int = 44) -> str:
    """One frame on the room map as SVG: rooms by kind, loot, corpses, sound reach, actors."""
    w, h = the_map["width"], the_map["height"]
    W, H = w * cell, h * cell
    out: list[str] = []
    for y, row in enumerate(the_map["kinds"]):
        for x, kind in enumerate(row):
            out.append(f'<rect x="{x * cell}" y="{y * cell}" width="{cell}" height="{cell}" '
                       f'fill="{KIND_COLOURS[kind]}" stroke="#888"><title>{x},{y} {kind}'
                       f'</title></rect>')  # fmt: skip
            n = sum(frame.loot.get(f"{x},{y}", {}).values())
            if n:
                out.append(f'<text x="{x * cell + 3}" y="{y * cell + 10}" fill="#7a5">'
                           f'loot {n}</text>')  # fmt: skip
    # Sounds and corpses sit on whole cells, actors on fractional spots; the loops share names.
    sx: float
    sy: float
    cx: float
    cy: float
    for sx, sy, level in frame.sounds:
        r = level - 1  # Chebyshev reach: a square of rooms
        side = (2 * r + 1) * cell
        out.append(f'<rect x="{(sx - r) * cell}" y="{(sy - r) * cell}" width="{side}" '
                   f'height="{side}" fill="#fc0" fill-opacity="0.15" stroke="#e90"/>')  # fmt: skip
    for _, (cx, cy) in frame.corpses:
        x0, y0 = cx * cell + cell * 0.2, cy * cell + cell * 0.2
        x1, y1 = x0 + cell * 0.6, y0 + cell * 0.6
        out.append(f'<path d="M{x0},{y0}L{x1},{y1}M{x1},{y0}L{x0},{y1}" stroke="#555" '
                   f'stroke-width="3"/>')  # fmt: skip
    for aid, (sx, sy) in actor_spots(frame).items():
        st = frame.actors[aid]
        cx, cy = sx * cell, sy * cell
        dash = ' stroke-dasharray="2,2"' if st["stealth"] else ""
        colour = SIDE_COLOURS[st["side"]]
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.16}" fill="{colour}"'
                   f' stroke="#000"{dash}><title>{html.escape(aid)} life {st["life"]}</title>'
                   f'</circle>')  # fmt: skip
    return document(W, H, out, font_family="sans-serif", font_size=9)


@drawing
def draw_board(ax: Any, the_map: dict, max_sounds: int = 8, **style: Any) -> dict[str, Any]:
    """Draw the rooms of a trace map and create the artists a frame updates.

    Returns ``{"ax", "loot", "sounds", "corpses", "actors", "labels", "style"}`` for
    :func:`update_board`; ``style`` keys: ``side_colours`` (``{"npc": ..., "monster": ...}``),
    ``sound_colour``, ``corpse_colour``.

    Examples
    --------
    >>> from labkit.encounter import GameSession, SimulationSettings
    >>> from labkit.encounter.records.playback import playback
    >>> t = GameSession(SimulationSettings(seed=2, max_steps=30)).run()
    >>> art = draw_board(t.map, side_colours={"npc": "green", "monster": "black"})
    >>> first = next(iter(playback(t)))
    >>> update_board(art, first)
    >>> len(art["actors"].get_offsets()) == sum(a["alive"] for a in first.actors.values())
    True
    """
    st = styled(BOARD_STYLE, style)
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Rectangle

    w, h = the_map["width"], the_map["height"]
    codes = np.array([[ROOM_KINDS.index(k) for k in row] for row in the_map["kinds"]])
    cmap = ListedColormap([KIND_COLOURS[k] for k in ROOM_KINDS])
    ax.imshow(codes, cmap=cmap, vmin=-0.5, vmax=len(ROOM_KINDS) - 0.5, origin="upper",
              extent=(-0.5, w - 0.5, h - 0.5, -0.5))  # fmt: skip
    ax.set_xticks(np.arange(-0.5, w, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, h, 1), minor=True)
    ax.grid(which="minor", color="#888", lw=0.8)
    ax.tick_params(which="both", length=0)
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    for y, row in enumerate(the_map["kinds"]):
        for x, kind in enumerate(row):
            ax.text(x + 0.45, y + 0.45, kind, fontsize=6, ha="right", va="bottom", color="#666")
    loot = {(x, y): ax.text(x - 0.45, y - 0.45, "", fontsize=7, va="top", color="#4a7a2a")
            for y in range(h) for x in range(w)}  # fmt: skip
    # Hearing is Chebyshev: a level-N sound reaches a square of rooms of side 2N - 1.
    sounds = [Rectangle((0, 0), 0, 0, fc=st["sound_colour"], ec="#e90", alpha=0.25, visible=False)
              for _ in range(max_sounds)]  # fmt: skip
    for c in sounds:
        ax.add_patch(c)
    corpses = ax.scatter([], [], marker="x", s=120, c=st["corpse_colour"], linewidths=2.5,
                         zorder=3)  # fmt: skip
    actors = ax.scatter([], [], s=160, edgecolors="k", zorder=4)
    labels = [ax.text(0, 0, "", fontsize=7, ha="center", va="center", color="w", zorder=5)
              for _ in range(len(the_map["spawns"]))]  # fmt: skip
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    return {"ax": ax, "loot": loot, "sounds": sounds, "corpses": corpses, "actors": actors,
            "labels": labels, "style": st}  # fmt: skip


def _offsets(frame: PlaybackFrame) -> dict[str, tuple[float, float]]:
    # Image pixels are centred on integer room coordinates: shift the shared spots by half a room.
    return {aid: (x - 0.5, y - 0.5) for aid, (x, y) in actor_spots(frame).items()}


def update_board(art: dict[str, Any], frame: PlaybackFrame) -> None:
    """Move the artists of :func:`draw_board` to ``frame`` (no new artists are made)."""
    for (x, y), text in art["loot"].items():
        n = sum(frame.loot.get(f"{x},{y}", {}).values())
        d = sum(frame.dropped.get(f"{x},{y}", {}).values())
        text.set_text(" ".join(s for s in (f"loot {n}" if n else "", f"drop {d}" if d else "")
                               if s))  # fmt: skip
    for square, src in zip(art["sounds"], [*frame.sounds] + [None] * len(art["sounds"])):
        square.set_visible(src is not None)
        if src is not None:
            half = src[2] - 0.5
            square.set_xy((src[0] - half, src[1] - half))
            square.set_width(2 * half)
            square.set_height(2 * half)
    art["corpses"].set_offsets(np.array([p for _, p in frame.corpses], float).reshape(-1, 2))
    pos = _offsets(frame)
    ids = list(pos)
    art["actors"].set_offsets(np.array([pos[a] for a in ids], float).reshape(-1, 2))
    colours = art.get("style", BOARD_STYLE)["side_colours"]
    art["actors"].set_facecolors([colours[frame.actors[a]["side"]] for a in ids])
    art["actors"].set_linestyles(["--" if frame.actors[a]["stealth"] else "-" for a in ids])
    for label, aid in zip(art["labels"], ids + [None] * len(art["labels"])):
        if aid is None:
            label.set_text("")
            continue
        label.set_position(pos[aid])
        label.set_text(f"{aid.split('-')[0][0].upper()}{aid.split('-')[1]}")
    alive = sum(st["alive"] for st in frame.actors.values())
    art["ax"].set_title(f"step {frame.step} · turn {frame.turn} · {alive} alive", fontsize=9)


@drawing
def draw_win_rates(
    ax: Any, summary: Any, *, x: Any = None, xlabel: str | None = None, **style: Any
) -> dict[str, Any]:
    """Win rate of each side per swept value, with 95 % Wilson error bars and sample sizes.

    ``summary`` is a :func:`~labkit.encounter.sweep_summary` frame (or a structured array) with
    ``n`` and, per side drawn, ``{side}_win``, ``{side}_win_lo``, ``{side}_win_hi``; every side of
    ``side_colours`` that has these columns is drawn. ``x`` is the column of swept values (its
    name, the default being the first column) or the values themselves.

    Returns ``{side: ErrorbarContainer}``; ``style`` keys: ``side_colours``, ``capsize``,
    ``marker``.

    Examples
    --------
    >>> import pandas as pd
    >>> s = pd.DataFrame({"life": [3, 5], "n": [10, 10], "npc_win": [0.8, 0.4],
    ...                   "npc_win_lo": [0.5, 0.2], "npc_win_hi": [0.9, 0.7]})
    >>> art = draw_win_rates(s, side_colours={"npc": "black"})
    >>> list(art), art["npc"].lines[0].get_xdata().tolist(), art["npc"].lines[0].axes.get_xlabel()
    (['npc'], [3.0, 5.0], 'life')
    """
    st = styled(WIN_RATES_STYLE, style)
    names = list(summary.columns) if hasattr(summary, "columns") else list(summary.dtype.names)
    if x is None:
        x = names[0]
    if isinstance(x, str):
        xlabel = x if xlabel is None else xlabel
        x = summary[x]
    xs = np.asarray(x, float)
    out = {}
    for side, colour in st["side_colours"].items():
        if f"{side}_win" not in names:
            continue
        p = np.asarray(summary[f"{side}_win"], float)
        lo = np.asarray(summary[f"{side}_win_lo"], float)
        hi = np.asarray(summary[f"{side}_win_hi"], float)
        err = np.vstack([p - lo, hi - p])
        out[side] = ax.errorbar(xs, p, yerr=err, marker=st["marker"], capsize=st["capsize"],
                                color=colour, label=f"{side} wins")  # fmt: skip
    ax.set_xlabel(xlabel or "")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(f"n = {', '.join(str(n) for n in summary['n'])} games per value", fontsize=9)
    ax.legend()
    return out


@drawing
def draw_survival(
    ax: Any, curves: dict[str, tuple[np.ndarray, ...]], **style: Any
) -> dict[str, tuple[Any, Any]]:
    """Step plots of survival curves ``{label: (t, s, lo, hi)}`` with shaded 95 % bands.

    Returns ``{label: (line, band)}``; ``style`` keys: ``colours`` (one per curve, in order;
    ``None`` for matplotlib's cycle), ``linewidth``, ``band_alpha``.

    Examples
    --------
    >>> curve = (np.array([0, 2, 5]), np.array([1.0, 0.5, 0.5]), np.zeros(3), np.ones(3))
    >>> art = draw_survival({"all": curve}, colours=["black"])
    >>> line, band = art["all"]
    >>> line.get_color(), line.get_ydata().tolist()
    ('black', [1.0, 0.5, 0.5])
    """
    st = styled(SURVIVAL_STYLE, style)
    colours = list(st["colours"] or [])
    out = {}
    for k, (label, (t, s, lo, hi)) in enumerate(curves.items()):
        colour = colours[k] if k < len(colours) else None  # past the list: the cycle's
        (line,) = ax.step(t, s, where="post", label=label, color=colour, lw=st["linewidth"])
        band = ax.fill_between(t, lo, hi, step="post", alpha=st["band_alpha"],
                               color=line.get_color())  # fmt: skip
        out[label] = (line, band)
    ax.set_xlabel("game turn")
    ax.set_ylabel("share of NPCs still alive (95% CI)")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8)
    return out


def final_state_svg(trace: SimulationTrace, cell: int = 44) -> str:
    """The last frame of a format-3 trace as SVG (the trace's notebook display).

    Examples
    --------
    >>> from labkit.encounter import GameSession, SimulationSettings
    >>> t = GameSession(SimulationSettings(seed=2, max_steps=30)).run()
    >>> final_state_svg(t).startswith("<svg")
    True
    """
    from labkit.encounter.records.playback import playback

    *_, last = playback(trace)
    assert trace.map is not None, "playback rejects a trace without a map"
    return frame_svg(last, trace.map, cell)


@drawing
def draw_response(ax: Any, tuned: Any, **style: Any) -> dict[str, Any]:
    """A :class:`~labkit.encounter.sim.tune.Tuned` response: measured rates with 95 % intervals,
    the fitted line near the crossing with its interval, the target and the chosen value (for a
    whole-number parameter the two neighbouring whole values with their rate intervals).

    Returns ``{"ax", "points", "target", "value"}``, with ``"interval"`` and ``"fit"`` when the
    target was reached; ``style`` keys: ``colour`` (the measured points), ``chosen_colour``,
    ``interval_colour``, ``target_colour``.

    Examples
    --------
    >>> from labkit.encounter import tune
    >>> def response(value, seeds):
    ...     return ((seeds * 0.6180339887) % 1.0 < value / 10).astype(int)
    >>> t = tune(None, "x", 0.3, bounds=(1.0, 9.0), seeds=range(400), response=response,
    ...          progress=False)
    >>> art = draw_response(t, target_colour="black")
    >>> sorted(art), art["target"].get_color()
    (['ax', 'fit', 'interval', 'points', 'target', 'value'], 'black')
    """
    st = styled(RESPONSE_STYLE, style)
    c = tuned.curve
    # clipped at 0: a Wilson end of a rate of 0 or 1 may miss it by a rounding error
    err = np.clip(np.vstack([c["rate"] - c["lo"], c["hi"] - c["rate"]]), 0, None)
    points = ax.errorbar(c["value"], c["rate"], yerr=err, fmt="o", color=st["colour"], capsize=3,
                         label="measured (95 % CI)")  # fmt: skip
    target = ax.axhline(tuned.target, color=st["target_colour"], ls="--", lw=1, label="target")
    out = {"ax": ax, "points": points, "target": target}
    if tuned.reachable:
        lo, hi = tuned.root_ci
        out["interval"] = ax.axvspan(lo, hi, color=st["interval_colour"], alpha=0.3,
                                     label="crossing 95 % CI")  # fmt: skip
        if tuned.integer and tuned.whole is not None:
            # the whole values the answer is about, each with its measured rate and interval
            w = tuned.whole
            ax.errorbar(w["value"], w["rate"], yerr=np.clip(np.vstack([w["rate"] - w["lo"],
                        w["hi"] - w["rate"]]), 0, None), fmt="s", color=st["chosen_colour"],
                        capsize=4, label="neighbouring whole values")  # fmt: skip
        label = (f"chosen {tuned.value:g}" if tuned.hits
                 else f"nearest {tuned.value:g} (no whole value hits)" if tuned.settled
                 else f"nearest so far {tuned.value:g} (too few games to tell)")  # fmt: skip
        out["value"] = ax.axvline(tuned.value, color=st["chosen_colour"], lw=1.5, label=label)
        icpt, slope = tuned.fit
        xs = np.array([min(lo, tuned.root) - 0.5, max(hi, tuned.root) + 0.5])
        (out["fit"],) = ax.plot(xs, icpt + slope * xs, color=st["chosen_colour"], lw=1, alpha=0.6)
    else:
        out["value"] = ax.axvline(
            tuned.closest[0],
            color=st["chosen_colour"],
            lw=1.5,
            ls=":",
            label=f"closest {tuned.closest[0]:g} (target not reached)",
        )
    ax.set_xlabel(tuned.parameter)
    ax.set_ylabel(tuned.metric.replace("_", " ") + " rate")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=8, loc="best")
    return out
