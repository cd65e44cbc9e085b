"""Numeric difficulty of a level, 0–100 (rule H9).

With N tiles, T the mean turns per tile path (ignoring occupancy, initial orientation), W the
removal layers along the solver's own solution, F the tiles that can exit at the start, R the
minimum rotations, K = N the minimum charged steps and M the move limit::

    size      = min(1, N/37) × 15
    turns     = min(1, T/5) × 20
    layers    = min(1, max(0, W−1)/9) × 20
    blocking  = (1 − F/N) × 15
    rotation  = min(1, R/4) × 20
    pressure  = clamp(1 − (M−K)/max(1, 0.4N), 0, 1) × 10
    total     = round(sum of the unrounded parts)    # half up, like JavaScript's Math.round

Bands: 0–29 easy, 30–49 intermediate, 50–69 hard, 70–100 challenge. The score is a structural
estimate, not calibrated on players.

Decisions the rules leave open
------------------------------
* T and F are read from :func:`~labkit.hexpuzzle.tap_trace.trace_tap` on the level as loaded (the
  same judge as a tap); W and R from :func:`~labkit.hexpuzzle.solving.solver.solve`.
* Statuses: ``"ok"``; ``"invalid_empty"`` (no tiles: total 0, no parts, no band);
  ``"unsolvable"`` and ``"undetermined"`` (solver ``exhausted``): the parts that need no
  solution (size, turns, blocking, pressure) are given, ``layers``/``rotation`` and the total
  are ``None``; ``"too_few_steps"`` (M < K, solvable): every part and the total are computed —
  the board's difficulty is known, the level is just not winnable as shipped.
* Display parts are each rounded half up on their own, so they may not add up to the total.

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> d = score(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=2))
>>> d.status, d.total, d.band
('ok', 21, 'easy')
>>> d.display
{'size': 1, 'turns': 0, 'layers': 2, 'blocking': 8, 'rotation': 0, 'pressure': 10}
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

from labkit.hexpuzzle.difficulty.parts import PARTS, WEIGHTS
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.solver import MAX_STATES, Solution, solve
from labkit.hexpuzzle.status import DifficultyStatus, SolutionStatus
from labkit.hexpuzzle.tap_trace import trace_tap

__all__ = ["BANDS", "PARTS", "WEIGHTS", "Difficulty", "band", "js_round", "score"]

#: ``(lowest total, name)`` of each band.
BANDS = ((0, "easy"), (30, "intermediate"), (50, "hard"), (70, "challenge"))
STATUSES = tuple(DifficultyStatus)


def js_round(x: float) -> int:
    """Round half up, as JavaScript's ``Math.round`` (``js_round(2.5) == 3``, ``-2.5 → -2``).

    Examples
    --------
    >>> js_round(28.5), js_round(28.49), js_round(-2.5), round(28.5)
    (29, 28, -2, 28)
    """
    return int(math.floor(x + 0.5))


def band(total: int) -> str:
    """Band name of a rounded total.

    Examples
    --------
    >>> [band(t) for t in (0, 29, 30, 49, 50, 69, 70, 100)]
    ['easy', 'easy', 'intermediate', 'intermediate', 'hard', 'hard', 'challenge', 'challenge']
    """
    name = BANDS[0][1]
    for lowest, label in BANDS:
        if total >= lowest:
            name = label
    return name


def _fmt(value: object) -> str:
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def parts_from(
    N: int, T: float, W: int | None, F: int, R: int | None, K: int, M: int
) -> dict[str, float | None]:
    """The six unrounded parts from the measured quantities (``None`` where W/R are unknown)."""
    out: dict[str, float | None] = {
        "size": min(1.0, N / 37) * 15,
        "turns": min(1.0, T / 5) * 20,
        "layers": None if W is None else min(1.0, max(0, W - 1) / 9) * 20,
        "blocking": (1 - F / N) * 15,
        "rotation": None if R is None else min(1.0, R / 4) * 20,
        "pressure": min(1.0, max(0.0, 1 - (M - K) / max(1.0, 0.4 * N))) * 10,
    }
    return out


@dataclass(frozen=True)
class Difficulty:
    """A level's difficulty score and everything it was computed from.

    Attributes
    ----------
    status : DifficultyStatus
        ``"ok"``, ``"invalid_empty"``, ``"unsolvable"``, ``"undetermined"`` or
        ``"too_few_steps"``.
    total : int or None
        Rounded sum of the parts (``None`` when the solver could not give W and R).
    parts : dict
        Unrounded parts by name (values ``None`` where unknown; empty for an empty level).
    N, T, W, F, R, K, M
        The measured quantities of rule H9.
    solution : Solution or None
        The solver's result W and R were read from.

    Examples
    --------
    >>> from labkit.hexpuzzle import Level, score
    >>> d = score(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)]))
    >>> d.status, d.total, d.band, sorted(d.parts) == sorted(PARTS)
    ('ok', 21, 'easy', True)
    """

    status: DifficultyStatus
    total: int | None
    parts: dict
    N: int
    T: float
    W: int | None
    F: int
    R: int | None
    K: int
    M: int
    level_id: str = ""
    solution: Solution | None = None

    def __post_init__(self) -> None:
        # a plain string is accepted and checked (the status has one definition: status.py)
        object.__setattr__(self, "status", DifficultyStatus(self.status))

    @property
    def band(self) -> str | None:
        return (
            None
            if self.total is None or self.status == DifficultyStatus.INVALID_EMPTY
            else band(self.total)
        )

    @property
    def display(self) -> dict[str, int | None]:
        """Each part rounded on its own (half up) for display."""
        return {k: None if v is None else js_round(v) for k, v in self.parts.items()}

    def to_dict(self) -> dict:
        """Plain-JSON summary (for tables, campaign files and telemetry joins)."""
        return {
            "id": self.level_id,
            "status": self.status,
            "total": self.total,
            "band": self.band,
            "parts": dict(self.parts),
            "N": self.N,
            "T": self.T,
            "W": self.W,
            "F": self.F,
            "R": self.R,
            "K": self.K,
            "M": self.M,
        }

    def __str__(self) -> str:
        shown = " ".join(f"{k}={'-' if v is None else v}" for k, v in self.display.items())
        total = "-" if self.total is None else self.total
        return f"{self.level_id}: {total} ({self.band or self.status}) {shown}".strip()

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{k}</td><td>{'–' if v is None else f'{v:.2f}'}</td>"
            f"<td>{'–' if d is None else d}</td><td>{WEIGHTS[k]}</td></tr>"
            for (k, v), d in zip(self.parts.items(), self.display.values())
        )
        total = "–" if self.total is None else self.total
        quantities = ", ".join(f"{k}={_fmt(getattr(self, k))}" for k in "NTWFRKM")
        return (
            f"<table><caption>{html.escape(str(self.level_id))}: <b>{total}</b> · "
            f"{self.band or '–'} · "
            f"{self.status}</caption><tr><th>part</th><th>value</th><th>shown</th><th>max</th>"
            f"</tr>{rows}</table><p>{quantities}</p>"
        )

    def plot(self, ax=None):
        """Horizontal bar chart of the parts against their weights (matplotlib, lazily)."""
        from labkit.hexpuzzle.draw_solver import difficulty_bars

        return difficulty_bars([self], ax=ax)


def score(level: Level, max_states: int = MAX_STATES) -> Difficulty:
    """Score ``level`` 0–100 by rule H9.

    Parameters
    ----------
    level : Level
        The level as shipped (its own orientation, all tiles).
    max_states : int
        Passed to the solver; reaching it gives status ``"undetermined"``.

    Returns
    -------
    Difficulty
        See the module docstring for what each status carries.

    Examples
    --------
    >>> from labkit.hexpuzzle.level import Level
    >>> score(Level.hexagon(2)).status, score(Level.hexagon(2)).total
    ('invalid_empty', 0)
    """
    N = len(level.tiles)
    M = level.move_limit
    if N == 0:
        return Difficulty(
            DifficultyStatus.INVALID_EMPTY, 0, {}, 0, 0.0, None, 0, None, 0, M, level.id
        )
    traces = [trace_tap(level, t.id) for t in level.tiles]
    T = sum(t.planned.turns for t in traces) / N
    F = sum(t.outcome == "exit" for t in traces)
    solution = solve(level, max_states=max_states)
    W: int | None
    R: int | None
    if solution.solved:
        W, R = len(solution.layers), solution.rotations
        status = DifficultyStatus.TOO_FEW_STEPS if M < N else DifficultyStatus.OK
    else:
        W = R = None
        status = (
            DifficultyStatus.UNSOLVABLE
            if solution.status == SolutionStatus.UNSOLVABLE
            else DifficultyStatus.UNDETERMINED
        )
    parts = parts_from(N, T, W, F, R, N, M)
    total = None if W is None else js_round(sum(v for v in parts.values() if v is not None))
    return Difficulty(status, total, parts, N, T, W, F, R, N, M, level.id, solution)
