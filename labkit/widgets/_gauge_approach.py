"""How many of its own actions an enemy needs to come within N cells of where you stand.

The GaugeTuner's "when does it get to me" answer, for every act type of rule M5, on the floor's
walls alone (enemies and items in the way are taken as cleared, as in the tuner's notes):

* ``chase`` — one step per action along a shortest path (``labkit.pathfinding.grid_path``,
  4-way); no path: it waits where it is;
* ``patrol`` — one step per action toward its current waypoint, x first, then y, waypoints in a
  loop; a blocked step waits, which on walls alone means it waits there for ever. The walk is a
  function of (cell, next waypoint), so it is followed until that pair repeats: then it never
  comes closer than it already has;
* ``idle`` / ``skill`` — it does not walk.

"Within N cells" counts 4-way steps ignoring walls (``|dx| + |dy|``, the reach of rule M7's
drain skill); N = 0 means it steps onto your cell (a battle starts).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Cell = tuple[int, int]


@dataclass(frozen=True)
class Approach:
    """``actions``: the enemy's own actions until it is within N cells (0: already at the start;
    None: never); ``reason``: why never, in words; ``nearest``: the fewest cells it ever gets to."""

    actions: int | None
    reason: str = ""
    nearest: int = 0


def cells_apart(a: Cell, b: Cell) -> int:
    """4-way steps between two cells, walls ignored.

    Examples
    --------
    >>> cells_apart((1, 1), (4, 3))
    5
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _within(n: int) -> str:
    return "reaches you" if n == 0 else f"comes within {n} cell{'s' * (n != 1)} of you"


def chase_approach(start: Cell, walls: np.ndarray, you: Cell, within: int) -> Approach:
    """A chaser's walk along a shortest path through the walls (``walls[y, x]``) to ``you``.

    Examples
    --------
    >>> walls = np.zeros((1, 6), dtype=bool)
    >>> chase_approach((5, 0), walls, (0, 0), within=2)
    Approach(actions=3, reason='', nearest=2)
    >>> walls[0, 2] = True
    >>> chase_approach((5, 0), walls, (0, 0), within=2).reason
    'walls cut it off from you (it waits 5 cells away)'
    """
    from labkit.pathfinding import grid_path

    gap = cells_apart(start, you)
    if gap <= within:
        return Approach(0, nearest=gap)
    cost = np.where(walls, np.inf, 1.0)
    cost[start[1], start[0]] = cost[you[1], you[0]] = 1.0
    path, _ = grid_path(cost, start, you)
    if len(path) < 2:
        return Approach(None, f"walls cut it off from you (it waits {gap} cells away)", gap)
    for k, (x, y) in enumerate(path):
        if (gap := cells_apart((int(x), int(y)), you)) <= within:
            return Approach(k, nearest=gap)
    raise AssertionError("a path ends on your cell")  # pragma: no cover


def patrol_approach(
    start: Cell, waypoints: list[list[int]], walls: np.ndarray, you: Cell, within: int
) -> Approach:
    """A patroller's walk (see the module notes) until it is within ``within`` cells of ``you``.

    Examples
    --------
    >>> walls = np.zeros((3, 5), dtype=bool)
    >>> patrol_approach((0, 0), [[4, 0], [0, 0]], walls, (4, 2), within=2)
    Approach(actions=4, reason='', nearest=2)
    >>> print(patrol_approach((0, 0), [[4, 0], [0, 0]], walls, (4, 2), within=1).reason)
    its route never comes within 1 cell of you (nearest: 2 cells, at 4,0)
    >>> walls[0, 2] = True
    >>> print(patrol_approach((0, 0), [[4, 0]], walls, (4, 2), within=1).reason)
    a wall at 2,0 stops it at 1,0, 5 cells from you
    """
    pos, index = start, 0
    nearest, nearest_at = cells_apart(pos, you), pos
    if nearest <= within:
        return Approach(0, nearest=nearest)
    if not waypoints:
        return Approach(None, f"it has no waypoints, so it stays {nearest} cells away", nearest)
    h, w = walls.shape
    seen: set[tuple[Cell, int]] = set()
    k = 0
    while (pos, index) not in seen:
        seen.add((pos, index))
        k += 1
        tx, ty = waypoints[index % len(waypoints)]
        if (tx, ty) == pos:  # at its waypoint: it heads for the next one in the same action
            index = (index + 1) % len(waypoints)
            tx, ty = waypoints[index]
        dx, dy = int(np.sign(tx - pos[0])), int(np.sign(ty - pos[1]))
        if dx == dy == 0:
            continue  # a waypoint repeated: it waits one action
        step = (pos[0] + dx, pos[1]) if dx else (pos[0], pos[1] + dy)
        if step == you:
            return Approach(k, nearest=0)
        inside = 0 <= step[0] < w and 0 <= step[1] < h
        if not inside or walls[step[1], step[0]]:
            what = f"a wall at {step[0]},{step[1]}" if inside else "the floor's edge"
            return Approach(None, f"{what} stops it at {pos[0]},{pos[1]}, "
                                  f"{cells_apart(pos, you)} cells from you", nearest)  # fmt: skip
        pos = step
        gap = cells_apart(pos, you)
        if gap <= within:
            return Approach(k, nearest=gap)
        if gap < nearest:
            nearest, nearest_at = gap, pos
    at = f"{nearest_at[0]},{nearest_at[1]}"
    return Approach(None, f"its route never {_within(within)} (nearest: {nearest} "
                          f"cell{'s' * (nearest != 1)}, at {at})", nearest)  # fmt: skip


def still_approach(start: Cell, you: Cell, within: int, act: str) -> Approach:
    """An enemy that does not walk (idle, or a skill user): now or never.

    Examples
    --------
    >>> still_approach((0, 0), (3, 0), within=1, act="skill").reason
    'it does not walk (it uses a skill), 3 cells from you'
    """
    gap = cells_apart(start, you)
    if gap <= within:
        return Approach(0, nearest=gap)
    why = "it uses a skill" if act == "skill" else "it stands idle"
    return Approach(None, f"it does not walk ({why}), {gap} cells from you", gap)
