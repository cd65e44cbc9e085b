"""The passability contract (rules P1–P3): ``PassCheck``, ``PassPredicate``, the default rules.

``can_pass`` answers "can one get there at all" (false: the hero stops, the graph has no edge);
``should_hit`` answers "does one bump into it instead of entering" (true: the hero stops and
touches it, the graph keeps the edge and marks the cell terminal).

Decisions the rules leave open, recorded here:

* ``DefaultPassPredicate.face`` is the 4-way handler it reduces directions with (P3 step 1);
  ``face=None`` stands for "no handler available" and makes ``can_pass`` false.
* A next cell outside the layer has no static tile, so the predicate imposes nothing there:
  bounds are the mover's and the graph builder's business, checked before the predicate.
* The 8-way corner rule. The seed's rules judge a diagonal step on its two end cells only (P3:
  the mask is the union of the two component bits), so the default predicate lets a walker
  squeeze diagonally past a wall's corner. :func:`~labkit.pathfinding.grid_path` forbids that
  (a diagonal needs both orthogonal cells beside it open). :class:`NoCornerCutting` brings the
  grid rule to the object-level search, so the two agree when asked to; the default stays the
  seed's. Apps that show 8-way paths say which rule they use.
* ``pass_table`` is a batch form of the same rules for a whole layer, which the graph builder
  uses to avoid one Python call per edge. It is offered only while ``can_pass`` and
  ``should_hit`` are the default ones, so a subclass overriding either (or an instance whose
  method was replaced) is always asked per edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from labkit.pathfinding.tiles import FOUR_WAY, Direction, DirectionHandler, GameMap

__all__ = [
    "PassCheck",
    "PassPredicate",
    "DefaultPassPredicate",
    "NoTilePassPredicate",
    "NoCornerCutting",
]


@dataclass(frozen=True)
class PassCheck:
    """One judgement's inputs (the seed's IPassCheckHandler): cells are ``(x, y)``.

    Examples
    --------
    >>> from labkit.pathfinding import Direction
    >>> check = PassCheck((0, 0), (1, 0), Direction.RIGHT, None)
    >>> check.next, check.direction.name, check.state
    ((1, 0), 'RIGHT', None)
    """

    curr: tuple[int, int]
    next: tuple[int, int]
    direction: Direction
    map: GameMap | None
    state: Any = None


@runtime_checkable
class PassPredicate(Protocol):
    """The contract both the mover and the graph builder ask (the seed's IPassPredicate).

    Examples
    --------
    >>> class OnlyRight:
    ...     def can_pass(self, check): return check.direction.name == "RIGHT"
    ...     def should_hit(self, check): return False
    >>> from labkit.pathfinding import Direction
    >>> OnlyRight().can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, None))
    True
    """

    def can_pass(self, check: PassCheck) -> bool: ...

    def should_hit(self, check: PassCheck) -> bool: ...


class DefaultPassPredicate:
    """The default rules of P3 over static tiles; stateless, so instances are interchangeable.

    Examples
    --------
    >>> from labkit.pathfinding.tiles import TileDef, PassBit
    >>> one_way = TileDef(1, in_pass=PassBit.LEFT)       # enter only from its left side
    >>> m = GameMap([one_way], event=[[0, 1, 0]])
    >>> p = DefaultPassPredicate()
    >>> p.can_pass(PassCheck((0, 0), (1, 0), Direction.RIGHT, m))
    True
    >>> p.can_pass(PassCheck((2, 0), (1, 0), Direction.LEFT, m))
    False
    """

    def __init__(self, face: DirectionHandler | None = FOUR_WAY) -> None:
        self.face = face

    def can_pass(self, check: PassCheck) -> bool:
        if self.face is None or self.face.reduce(check.direction) is Direction.UNKNOWN:
            return False
        game_map = check.map
        if game_map is None or game_map.event_layer is None:
            return False
        # Masks come from the actual move direction, never from the reduced one.
        leave = int(check.direction.mask)
        enter = int(check.direction.opposite.mask)
        event = game_map.event_layer
        for layer in game_map.all_layers():
            here = layer.tile_at(*check.curr)
            if here is not None and (layer is event or here.only_events):
                if not here.out_pass & leave:
                    return False
            there = layer.tile_at(*check.next)
            if there is not None and (layer is event or there.only_events):
                if not there.in_pass & enter:
                    return False
        return True

    def should_hit(self, check: PassCheck) -> bool:
        game_map = check.map
        if game_map is None or game_map.event_layer is None:
            return False
        tile = game_map.event_layer.tile_at(*check.next)
        return tile is not None and not tile.event_pass

    def pass_table(
        self, game_map: GameMap | None, directions: tuple[Direction, ...]
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]] | None:
        """Batch form of the rules: ``(can[y, x, d], hit[y, x])`` for ``d`` in ``directions``.

        ``can`` is false where the neighbour lies outside the map. Returns ``None`` when this
        object's ``can_pass``/``should_hit`` are overridden (the caller must then ask per edge).
        """
        # Bound methods, so that a replacement on the instance counts as well as a subclass's.
        can_fn = getattr(self.can_pass, "__func__", None)
        hit_fn = getattr(self.should_hit, "__func__", None)
        if (
            can_fn is not DefaultPassPredicate.can_pass
            or hit_fn is not DefaultPassPredicate.should_hit
        ):
            return None
        if game_map is None or game_map.event_layer is None:
            return None
        h, w = game_map.height, game_map.width
        can = np.zeros((h, w, len(directions)), dtype=np.bool_)
        grids = [game_map.pass_grids(layer) for layer in game_map.all_layers()]
        for k, d in enumerate(directions):
            if self.face is None or self.face.reduce(d) is Direction.UNKNOWN:
                continue
            dx, dy = d.offset
            leave, enter = int(d.mask), int(d.opposite.mask)
            # Source cells whose neighbour (x + dx, y + dy) lies inside the map.
            ys = slice(max(0, -dy), h - max(0, dy))
            xs = slice(max(0, -dx), w - max(0, dx))
            nys = slice(max(0, dy), h - max(0, -dy))
            nxs = slice(max(0, dx), w - max(0, -dx))
            ok = np.ones((ys.stop - ys.start, xs.stop - xs.start), dtype=np.bool_)
            for out_grid, in_grid in grids:
                ok &= (out_grid[ys, xs] & leave) != 0
                ok &= (in_grid[nys, nxs] & enter) != 0
            can[ys, xs, k] = ok
        return can, game_map.hit_grid()


class NoTilePassPredicate:
    """The seed's example custom rule: the default rules, and never enter one tile number.

    Wraps a :class:`DefaultPassPredicate`; ``should_hit`` stays the default one.

    Examples
    --------
    >>> from labkit.pathfinding.tiles import TileDef
    >>> lava = TileDef(30, name="lava")
    >>> m = GameMap([lava], event=[[0, 30]])
    >>> check = PassCheck((0, 0), (1, 0), Direction.RIGHT, m)
    >>> DefaultPassPredicate().can_pass(check), NoTilePassPredicate(30).can_pass(check)
    (True, False)
    """

    def __init__(self, blocked_tile: int, base: PassPredicate | None = None) -> None:
        self.blocked_tile = int(blocked_tile)
        self.base = base if base is not None else DefaultPassPredicate()

    def can_pass(self, check: PassCheck) -> bool:
        if not self.base.can_pass(check):
            return False
        if check.map is None or check.map.event_layer is None:
            return False
        return check.map.event_layer.number_at(*check.next) != self.blocked_tile

    def should_hit(self, check: PassCheck) -> bool:
        return self.base.should_hit(check)


class NoCornerCutting:
    """``base``'s rules, and a diagonal step also needs both orthogonal steps from the current
    cell to pass (no squeezing past a wall corner): ``grid_path``'s 8-way rule for tile maps.

    ``should_hit`` stays ``base``'s; a hit tile beside a diagonal does not close it (only
    ``can_pass`` does, as a wall's ``in_pass = 0`` does).

    Examples
    --------
    >>> from labkit.pathfinding.tiles import TileDef
    >>> wall = TileDef(1, in_pass=0, out_pass=0)
    >>> m = GameMap([wall], event=[[0, 1], [0, 0]])
    >>> past_the_corner = PassCheck((0, 0), (1, 1), Direction.DOWN_RIGHT, m)
    >>> DefaultPassPredicate().can_pass(past_the_corner)
    True
    >>> NoCornerCutting().can_pass(past_the_corner)
    False
    """

    def __init__(self, base: PassPredicate | None = None) -> None:
        self.base = base if base is not None else DefaultPassPredicate()

    def can_pass(self, check: PassCheck) -> bool:
        if not self.base.can_pass(check):
            return False
        dx, dy = check.direction.offset
        if dx == 0 or dy == 0:
            return True
        x, y = check.curr
        for ox, oy in ((dx, 0), (0, dy)):
            side = PassCheck(check.curr, (x + ox, y + oy), Direction.from_offset(ox, oy),
                             check.map, check.state)  # fmt: skip
            if not self.base.can_pass(side):
                return False
        return True

    def should_hit(self, check: PassCheck) -> bool:
        return self.base.should_hit(check)
