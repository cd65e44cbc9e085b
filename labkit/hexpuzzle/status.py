"""Every status and outcome of the hex puzzle, defined once (lowercase ``snake_case`` values).

They are ``str`` enums: ``trace_tap(level, "a").outcome == "exit"`` holds, and they print as their
value.

Examples
--------
>>> from labkit.hexpuzzle import Level, trace_tap
>>> outcome = trace_tap(Level.hexagon(2, tiles=[("a", 0, 0, 0)]), "a").outcome
>>> outcome is Outcome.EXIT, outcome == "exit", outcome
(True, True, 'exit')
>>> sorted(SolutionStatus)
['exhausted', 'solved', 'unsolvable']
"""

from __future__ import annotations

from labkit._status import Status

__all__ = ["Outcome", "SolutionStatus", "GameStatus", "AdviceStatus", "DifficultyStatus"]


class Outcome(Status):
    """What tapping a tile does: leaves the board, hits another tile, or loops forever.

    Examples
    --------
    >>> Outcome("blocked") is Outcome.BLOCKED, Outcome.EXIT == "exit"
    (True, True)
    """

    EXIT = "exit"
    BLOCKED = "blocked"
    LOOP = "loop"


class SolutionStatus(Status):
    """The solver's answer; ``exhausted`` (``max_states`` reached) is undetermined.

    Examples
    --------
    >>> SolutionStatus.EXHAUSTED, SolutionStatus("solved") == "solved"
    ('exhausted', True)
    """

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    EXHAUSTED = "exhausted"


class GameStatus(Status):
    """A game in play, won (board empty) or lost (a tap that did not exit, or no steps left).

    Examples
    --------
    >>> [s.value for s in GameStatus]
    ['playing', 'won', 'lost']
    """

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class AdviceStatus(Status):
    """What :func:`~labkit.hexpuzzle.advise` can say about a position.

    Examples
    --------
    >>> AdviceStatus.OUT_OF_STEPS, AdviceStatus("won") is AdviceStatus.WON
    ('out_of_steps', True)
    """

    OK = "ok"
    WON = "won"
    LOST = "lost"
    OUT_OF_STEPS = "out_of_steps"
    UNSOLVABLE = "unsolvable"
    UNDETERMINED = "undetermined"


class DifficultyStatus(Status):
    """What a :class:`~labkit.hexpuzzle.Difficulty` score carries (see ``scoring``).

    Examples
    --------
    >>> DifficultyStatus.TOO_FEW_STEPS == "too_few_steps"
    True
    """

    OK = "ok"
    INVALID_EMPTY = "invalid_empty"
    UNSOLVABLE = "unsolvable"
    UNDETERMINED = "undetermined"
    TOO_FEW_STEPS = "too_few_steps"
