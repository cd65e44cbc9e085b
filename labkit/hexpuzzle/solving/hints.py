"""Hints: the next action of a minimum-rotation solution from where the player stands.

:func:`advise` answers in full (:class:`Advice`: a status, the action, a sentence for the
player); :func:`hint` is the one-call form returning just the action or ``None``. Both count the
request in ``state.hints_used``.

Decisions the rules leave open
------------------------------
* The plan is :func:`~labkit.hexpuzzle.solving.solver.solve` from the state's orientation and the
  tiles still on the board, so following hints always uses the fewest further rotations.
* Every tap must remove one tile, so a game with fewer steps left than tiles left cannot be won:
  ``"out_of_steps"``, even when the board itself would be solvable.
* Every request counts as a hint used, also when the answer is "no solution from here"
  (the player asked for help). The counter is telemetry, not game state: undo does not give
  hints back.

Examples
--------
>>> from labkit.hexpuzzle.game import PuzzleState
>>> from labkit.hexpuzzle.level import Level
>>> game = PuzzleState(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)]))
>>> hint(game)
Action(kind='tap', arg='b')
>>> _ = game.tap("b"); _ = game.tap("a")
>>> advise(game).message, game.hints_used
('nothing left to do: the board is clear', 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from labkit.hexpuzzle.game import PuzzleState
from labkit.hexpuzzle.solving.solver import MAX_STATES, Action, Solution, solve
from labkit.hexpuzzle.status import AdviceStatus, GameStatus, SolutionStatus

__all__ = ["Advice", "advise", "hint"]

MESSAGES = {
    "ok": "{action}",
    "won": "nothing left to do: the board is clear",
    "lost": "the game is over: undo or restart",
    "out_of_steps": "no win from here: {left} tiles left but only {steps} steps; undo or restart",
    "unsolvable": "no solution from here: undo or restart",
    "undetermined": "undetermined: the search stopped after {expanded} states",
}


@dataclass(frozen=True)
class Advice:
    """The answer to a hint request.

    Attributes
    ----------
    status : AdviceStatus
        ``"ok"``, ``"won"``, ``"lost"``, ``"out_of_steps"``, ``"unsolvable"`` or
        ``"undetermined"``.
    action : Action or None
        The next action (only when ``status == "ok"``).
    solution : Solution or None
        The full plan from here, when the solver ran.
    message : str
        A sentence for the player.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level, PuzzleState
    >>> advice = advise(PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 0)])))
    >>> advice.status, advice.action, advice.message
    ('ok', Action(kind='tap', arg='a'), 'tap a')
    """

    status: AdviceStatus
    action: Action | None
    solution: Solution | None
    message: str

    def __post_init__(self) -> None:
        # a plain string is accepted and checked (the status has one definition: status.py)
        object.__setattr__(self, "status", AdviceStatus(self.status))


def advise(state: PuzzleState, max_states: int = MAX_STATES) -> Advice:
    """What to do next in ``state``, and why not when nothing helps (counts one hint).

    Returns
    -------
    Advice
        ``status == "ok"`` with the next action of a minimum-rotation solution, or a status
        saying there is none: the board is clear (``"won"``), the game is lost, too few steps
        are left, no solution exists from here, or the search was undetermined.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level, PuzzleState
    >>> state = PuzzleState(Level.hexagon(2, tiles=[("a", 0, 0, 0)]))
    >>> advise(state).status, state.hints_used
    ('ok', 1)
    >>> _ = state.tap("a")
    >>> advise(state).message
    'nothing left to do: the board is clear'
    """
    state.hints_used = getattr(state, "hints_used", 0) + 1
    left, steps = len(state.remaining), state.steps_left
    solution = None
    if state.status != GameStatus.PLAYING:
        status = AdviceStatus(state.status)
    elif steps < left:
        status = AdviceStatus.OUT_OF_STEPS
    else:
        solution = solve(state, max_states=max_states)
        status = {
            SolutionStatus.SOLVED: AdviceStatus.OK,
            SolutionStatus.UNSOLVABLE: AdviceStatus.UNSOLVABLE,
            SolutionStatus.EXHAUSTED: AdviceStatus.UNDETERMINED,
        }[solution.status]
    action = solution.actions[0] if solution is not None and status == AdviceStatus.OK else None
    expanded = solution.expanded if solution else 0
    message = MESSAGES[status].format(action=action, left=left, steps=steps, expanded=expanded)
    return Advice(status, action, solution, message)


def hint(state: PuzzleState, max_states: int = MAX_STATES) -> Action | None:
    """The next action of a minimum-rotation solution, or ``None`` (see :func:`advise` for why).

    Examples
    --------
    >>> from labkit.hexpuzzle.level import Level
    >>> game = PuzzleState(Level.load(_shipped("02-one-turn.json")))
    >>> [str(hint(game)) for _ in range(2)], game.hints_used
    (['tap t0', 'tap t0'], 2)
    """
    return advise(state, max_states).action


def _shipped(name: str):
    from labkit.hexpuzzle.solving.solver import _shipped as path

    return path(name)
