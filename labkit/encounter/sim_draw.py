"""Matplotlib drawing for simulated encounter games and sweeps (imported lazily).

The rule drawings live in :mod:`labkit.encounter.draw`; these are the simulation's.

* :func:`draw_board` / :func:`update_board` — the room map with loot, corpses, sound reach and
  actors; ``update_board`` changes the artists in place (the trace viewer scrubs with it);
* :func:`plot_win_rates` — win rate per swept value with 95 % Wilson intervals;
* :func:`plot_survival` — share of NPCs alive by turn with 95 % bands
  (:func:`labkit.encounter.sim.batch.survival_curve`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labkit.encounter.records.replay import KIND_COLOURS, SIDE_COLOURS, Frame, actor_spots
from labkit.encounter.sim.world import ROOM_KINDS

__all__ = ["draw_board", "update_board", "plot_win_rates", "plot_survival"]


def draw_board(ax: Any, the_map: dict, max_sounds: int = 8) -> dict[str, Any]:
    """Draw the rooms of a trace map and create the artists a frame updates."""
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
    sounds = [Rectangle((0, 0), 0, 0, fc="#fc0", ec="#e90", alpha=0.25, visible=False)
              for _ in range(max_sounds)]  # fmt: skip
    for c in sounds:
        ax.add_patch(c)
    corpses = ax.scatter([], [], marker="x", s=120, c="#444", linewidths=2.5, zorder=3)
    actors = ax.scatter([], [], s=160, edgecolors="k", zorder=4)
    labels = [ax.text(0, 0, "", fontsize=7, ha="center", va="center", color="w", zorder=5)
              for _ in range(len(the_map["spawns"]))]  # fmt: skip
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    return {"ax": ax, "loot": loot, "sounds": sounds, "corpses": corpses, "actors": actors,
            "labels": labels}  # fmt: skip


def _offsets(frame: Frame) -> dict[str, tuple[float, float]]:
    # Image pixels are centred on integer room coordinates: shift the shared spots by half a room.
    return {aid: (x - 0.5, y - 0.5) for aid, (x, y) in actor_spots(frame).items()}


def update_board(art: dict[str, Any], frame: Frame) -> None:
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
    art["actors"].set_facecolors([SIDE_COLOURS[frame.actors[a]["side"]] for a in ids])
    art["actors"].set_linestyles(["--" if frame.actors[a]["stealth"] else "-" for a in ids])
    for label, aid in zip(art["labels"], ids + [None] * len(art["labels"])):
        if aid is None:
            label.set_text("")
            continue
        label.set_position(pos[aid])
        label.set_text(f"{aid.split('-')[0][0].upper()}{aid.split('-')[1]}")
    alive = sum(st["alive"] for st in frame.actors.values())
    art["ax"].set_title(f"step {frame.step} · turn {frame.turn} · {alive} alive", fontsize=9)


def plot_win_rates(ax: Any, values: Any, summary: np.ndarray, xlabel: str) -> None:
    """Win rate of each side per swept value, with 95 % Wilson error bars and sample sizes."""
    x = np.asarray(values, float)
    for side, colour in SIDE_COLOURS.items():
        p = summary[f"{side}_win"]
        err = np.vstack([p - summary[f"{side}_win_lo"], summary[f"{side}_win_hi"] - p])
        ax.errorbar(x, p, yerr=err, marker="o", capsize=4, color=colour, label=f"{side} wins")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(f"n = {', '.join(str(n) for n in summary['n'])} games per value", fontsize=9)
    ax.legend()


def plot_survival(ax: Any, curves: dict[str, tuple[np.ndarray, ...]]) -> None:
    """Step plots of survival curves ``{label: (t, s, lo, hi)}`` with shaded 95 % bands."""
    for label, (t, s, lo, hi) in curves.items():
        (line,) = ax.step(t, s, where="post", label=label)
        ax.fill_between(t, lo, hi, step="post", alpha=0.2, color=line.get_color())
    ax.set_xlabel("game turn")
    ax.set_ylabel("share of NPCs still alive (95% CI)")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8)
