"""The rotation solver (rule H7): fewest board turns to clear a level, as a tap/rotate sequence.

Tapping a tile that can exit only takes an obstacle away, so at any orientation removing every
tile that can exit (again and again until none can) never hurts. The solver therefore searches
breadth-first over states ``(orientation, remaining tiles)`` where every state is already
"closed" — nothing left on it can exit — and the only moves are the two rotations. A rotation
costs 1, so BFS finds the minimum number of rotations; the taps are the closures along the way.

Search order (it fixes which of several optimal solutions is returned, and with it H9's W):
FIFO queue; clockwise (+1) before counter-clockwise (−1); the first-found parent of a state is
kept; the goal (no tile left) is tested when a state is generated; every state taken off the
queue counts as *expanded*. At ``max_states`` expansions (20,000 by default) the search stops
with ``"exhausted"`` — undetermined, never "unsolvable".

Decisions the rules leave open
------------------------------
* Inside one closure layer the taps are listed in level tile order; any order works, because
  every tile of a layer exits with the whole layer still on the board.
* A level whose start closure already clears it is ``"solved"`` with 0 rotations and 0
  expanded states. A board that cannot rotate has no moves: its start state is expanded once
  and, unless the closure cleared it, the level is ``"unsolvable"``.
* ``solve`` of a :class:`PuzzleState` plans from its orientation and remaining tiles; steps
  already used are not its concern (see :mod:`.hints`). An empty level is ``"solved"`` by the
  empty sequence here; :func:`~labkit.hexpuzzle.difficulty.scoring.score` reports it as invalid.
* Exits are judged by :mod:`.contacts`, a table memoising
  :func:`~labkit.hexpuzzle.tap_trace.trace_tap` per (orientation, tile) for every remaining set at
  once (its tests check it against ``trace_tap``).

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> lvl = Level.load(_shipped("02-one-turn.json"))
>>> sol = solve(lvl)
>>> sol.status, sol.rotations, len(sol.actions) == len(lvl.tiles) + sol.rotations
('solved', 1, True)
>>> play_actions(lvl, sol.actions).status
'won'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from labkit import ArgumentError, _renamed
from labkit._data import data_path
from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.contacts import ContactTable, contact_table
from labkit.hexpuzzle.status import SolutionStatus

__all__ = ["Action", "Solution", "STATUSES", "solve", "search", "play_actions", "solver_calls",
           "MAX_STATES"]  # fmt: skip

STATUSES = tuple(SolutionStatus)
MAX_STATES = 20_000
#: Searches run in this process (read through :func:`solver_calls`).
_CALLS = [0]


def solver_calls() -> int:
    """How many solver searches this process has run: the cost meter of every generator.

    Generators are compared at an equal number of solver calls (the expensive step), counted
    here whoever makes them (the scorer, the generator's own checks, a baseline).

    Examples
    --------
    >>> from labkit.hexpuzzle import Level
    >>> before = solver_calls()
    >>> _ = solve(Level.hexagon(2, tiles=[("a", 0, 0, 0)]))
    >>> solver_calls() - before
    1
    """
    return _CALLS[0]


class Action(NamedTuple):
    """One player action: ``("tap", tile_id)`` or ``("rotate", +1 | -1)`` (+1 = clockwise).

    Examples
    --------
    >>> a = Action("tap", "t1")
    >>> a.kind, a.arg, Action("rotate", 1) == ("rotate", 1)
    ('tap', 't1', True)
    """

    kind: str
    arg: Any

    def __str__(self) -> str:
        return f"tap {self.arg}" if self.kind == "tap" else f"rotate {self.arg:+d}"


@dataclass(frozen=True)
class Stage:
    """The taps made at one orientation: the closure's layers (tile ids per layer)."""

    orientation: int
    layers: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found.

    Attributes
    ----------
    status : {"solved", "unsolvable", "exhausted"}
        ``"exhausted"`` means the search hit ``max_states`` first: undetermined.
    actions : tuple of Action
        Mixed taps and rotations clearing the board (empty unless solved).
    rotations : int or None
        Minimum number of rotations (``None`` unless solved).
    expanded : int
        States taken off the BFS queue.
    stages : tuple of Stage
        The orientations visited by the solution and the removal layers made at each.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level, solve
    >>> sol = solve(Level.hexagon(2, tiles=[("a", 0, 0, 0)]))
    >>> sol.status, sol.rotations, list(sol.actions), sol.solved
    ('solved', 0, [Action(kind='tap', arg='a')], True)
    """

    status: SolutionStatus
    actions: tuple[Action, ...] = ()
    rotations: int | None = None
    expanded: int = 0
    stages: tuple[Stage, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        # a plain string is accepted and checked (the status has one definition: status.py)
        object.__setattr__(self, "status", SolutionStatus(self.status))

    @property
    def solved(self) -> bool:
        return self.status == "solved"

    @property
    def taps(self) -> int:
        """Taps in the solution: the minimum charged steps (every tile once)."""
        return sum(1 for a in self.actions if a.kind == "tap")

    @property
    def operations(self) -> int:
        """Minimum operations = tiles + minimum rotations (H7)."""
        return len(self.actions)

    @property
    def layers(self) -> tuple[tuple[str, ...], ...]:
        """Every removal layer of the solution in order (H9's W is their number)."""
        return tuple(layer for stage in self.stages for layer in stage.layers)

    def __str__(self) -> str:
        if not self.solved:
            return f"{self.status} after {self.expanded} states"
        return (
            f"solved with {self.rotations} rotation(s), {self.taps} taps "
            f"({self.expanded} states expanded): " + ", ".join(map(str, self.actions))
        )


def _start(level_or_state: Level | PuzzleState) -> tuple[ContactTable, int, int]:
    if isinstance(level_or_state, Level):
        table = contact_table(level_or_state)
        return table, 0, table.full
    if isinstance(level_or_state, PuzzleState):
        table = contact_table(level_or_state.original)
        return table, level_or_state.orientation, table.mask(level_or_state.remaining)
    raise TypeError(f"solve() needs a Level or a PuzzleState, got {type(level_or_state).__name__}")


def search(
    table: ContactTable, orientation: int, remaining: int, max_states: int = MAX_STATES
) -> Solution:
    """BFS from ``(orientation, remaining)`` on a contact table (the engine of :func:`solve`).

    Returns a :class:`Solution` whose actions start at ``orientation``.
    """
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise ArgumentError("must be a positive integer", argument="max_states", value=max_states)
    _CALLS[0] += 1
    o0 = orientation % 6
    left, layers = table.layers(o0, remaining)
    start = (o0, left)
    # state -> (parent state, rotation step, layers removed on arrival)
    parent: dict[tuple[int, int], tuple[Any, int, list[int]]] = {start: (None, 0, layers)}
    if left == 0:
        return _solution(table, parent, start, 0)
    steps = (1, -1) if table.rotations else ()
    queue = deque([start])
    expanded = 0
    while queue:
        if expanded >= max_states:
            return Solution(SolutionStatus.EXHAUSTED, expanded=expanded)
        state = queue.popleft()
        expanded += 1
        o, mask = state
        for step in steps:
            o2 = (o + step) % 6
            left, layers = table.layers(o2, mask)
            child = (o2, left)
            if child in parent:
                continue
            parent[child] = (state, step, layers)
            if left == 0:
                return _solution(table, parent, child, expanded)
            queue.append(child)
    return Solution(SolutionStatus.UNSOLVABLE, expanded=expanded)


def _solution(table: ContactTable, parent: dict, goal: tuple[int, int], expanded: int) -> Solution:
    chain = []
    state = goal
    while state is not None:
        previous, step, layers = parent[state]
        chain.append((state[0], step, layers))
        state = previous
    chain.reverse()
    actions: list[Action] = []
    stages: list[Stage] = []
    for orientation, step, layers in chain:
        if step:
            actions.append(Action("rotate", step))
        names = tuple(table.names(layer) for layer in layers)
        actions += [Action("tap", tile_id) for layer in names for tile_id in layer]
        stages.append(Stage(orientation, names))
    rotations = len(chain) - 1
    return Solution(SolutionStatus.SOLVED, tuple(actions), rotations, expanded, tuple(stages))


def solve(level_or_state: Level | PuzzleState, max_states: int = MAX_STATES) -> Solution:
    """Fewest rotations clearing a level (or a game in progress), with the action sequence.

    Parameters
    ----------
    level_or_state : Level or PuzzleState
        A level (all tiles, its own orientation) or a game (its orientation and tiles left).
    max_states : int
        Expansion cap; reaching it gives ``"exhausted"``.

    Returns
    -------
    Solution
        ``status`` ``"solved"`` (with ``actions`` and minimum ``rotations``), ``"unsolvable"``
        (the whole reachable state space was searched) or ``"exhausted"`` (undetermined).

    Examples
    --------
    >>> from labkit.hexpuzzle.level import Level
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    >>> solve(lvl).actions
    (Action(kind='tap', arg='b'), Action(kind='tap', arg='a'))
    >>> solve(Level.hexagon(1, tiles=[("x", 0, 0, 0)], rotation_enabled=False)).status
    'solved'
    """
    table, orientation, remaining = _start(level_or_state)
    return search(table, orientation, remaining, max_states)


def play_actions(level_or_state: Level | PuzzleState, actions) -> PuzzleState:
    """Play ``actions`` on a fresh game of a level (or on a copy-free game state) and return it.

    Taps go through :meth:`PuzzleState.tap`, so every tap is judged by ``trace_tap`` again.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level, solve
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)])
    >>> play_actions(lvl, solve(lvl).actions).status
    'won'
    """
    state = PuzzleState(level_or_state) if isinstance(level_or_state, Level) else level_or_state
    for kind, arg in actions:
        if kind == "tap":
            state.tap(arg)
        elif kind == "rotate":
            state.rotate(arg)
        else:
            raise ArgumentError("kind must be 'tap' or 'rotate'", argument="actions", value=kind)
    return state


def _shipped(name: str) -> Path:
    """Path of a level shipped in ``data/levels`` (for examples and tests)."""
    return data_path("levels", name, must_exist=False)


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
