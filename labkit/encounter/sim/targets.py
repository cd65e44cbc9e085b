"""Targets of a multi-target tune: an outcome kept inside a band, read and said in words.

A :class:`Target` is an outcome (:data:`~labkit.encounter.sim.knobs.GAME_OUTCOMES`) and a band
``[low, high]`` (one side may be open). It is written as designers say it:

* ``"npc_win=0.5±0.02"`` (or ``0.5+-0.02``) — an equality with a tolerance, 0.48 to 0.52;
* ``"steps=60:90"`` — a range;
* ``"step_limit<0.05"``, ``"steps>=40"`` — an inequality.

and said back as a sentence (``"the NPC side wins 48–52 % of games"``). How far an estimate
lies outside the band is its *miss* (0 inside), in the outcome's unit; divided by the target's
*scale* (half the band, or the bound of a one-sided target) misses of different outcomes add up.

Examples
--------
>>> t = parse_target("npc_win=0.5±0.02")
>>> t.low, t.high, t.sentence()
(0.48, 0.52, 'the NPC side wins 48–52 % of games')
>>> parse_target("steps=60:90").sentence(), parse_target("step_limit<0.05").sentence()
('a game lasts 60–90 steps on average', 'fewer than 5 % of games end at the step limit')
>>> t.miss(0.55), t.miss(0.5)
(0.03..., 0.0)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.sim.knobs import GAME_OUTCOMES, OUTCOME_WORDS, RATES

__all__ = ["Target", "parse_target", "estimate"]

_SHARE = {"npc_win": ("the NPC side wins", "of games"),
          "monster_win": ("the monster side wins", "of games"),
          "step_limit": ("of games end at the step limit", ""),
          "mutual_death": ("of games end with both sides dead", "")}  # fmt: skip


@dataclass(frozen=True)
class Target:
    """``outcome`` kept in ``[low, high]`` (``-inf``/``inf`` for an open side).

    Examples
    --------
    >>> Target("steps", 60, 90).holds(75.0), Target("steps", 60, 90).miss(50.0)
    (True, 10.0)
    """

    outcome: str
    low: float = -math.inf
    high: float = math.inf

    def __post_init__(self) -> None:
        if self.outcome not in GAME_OUTCOMES:
            raise ArgumentError(f"unknown outcome, known: {', '.join(GAME_OUTCOMES)}",
                                argument="targets", value=self.outcome)  # fmt: skip
        if not self.low < self.high or (math.isinf(self.low) and math.isinf(self.high)):
            raise ArgumentError("needs a band low < high with at least one finite end",
                                argument="targets", value=(self.low, self.high))  # fmt: skip

    @property
    def name(self) -> str:
        return self.outcome

    @property
    def scale(self) -> float:
        """What one unit of miss is worth: half the band, or a one-sided bound's size."""
        if math.isinf(self.low) or math.isinf(self.high):
            bound = self.high if math.isinf(self.low) else self.low
            return abs(bound) if bound else (0.01 if self.outcome in RATES else 1.0)
        return (self.high - self.low) / 2

    def miss(self, value: float) -> float:
        """How far ``value`` lies outside the band (0 inside)."""
        return float(max(self.low - value, value - self.high, 0.0))

    def slack(self, value: float) -> float:
        """How far ``value`` lies inside the band, at most one scale (0 outside)."""
        return float(min(max(min(value - self.low, self.high - value), 0.0), self.scale))

    def holds(self, value: float) -> bool:
        return self.low <= value <= self.high

    def verdict(self, lo: float, hi: float) -> str:
        """The word for a 95 % interval ``[lo, hi]`` of a confirmation: ``"met"`` when it lies
        inside the band, ``"NOT met"`` when it lies wholly outside, ``"unsure"`` when it
        crosses an edge (the one wording of :func:`~labkit.encounter.tune_many`'s summary,
        table, app and command line).

        Examples
        --------
        >>> t = Target("npc_win", 0.48, 0.52)
        >>> t.verdict(0.49, 0.51), t.verdict(0.515, 0.53), t.verdict(0.521, 0.53)
        ('met', 'unsure', 'NOT met')
        """
        if self.holds(lo) and self.holds(hi):
            return "met"
        if hi < self.low or lo > self.high:
            return "NOT met"
        return "unsure"

    def _num(self, v: float) -> str:
        if self.outcome in RATES:
            return f"{100 * v:.3g}"
        return f"{v:.3g}"

    def sentence(self) -> str:
        """The target as a designer says it."""
        rate = self.outcome in RATES
        words, unit = OUTCOME_WORDS[self.outcome]
        lo, hi = self._num(self.low), self._num(self.high)
        if rate:
            head, tail = _SHARE[self.outcome]
            if self.outcome in ("npc_win", "monster_win"):
                band = (
                    f"{lo}–{hi} %"
                    if not (math.isinf(self.low) or math.isinf(self.high))
                    else f"at least {lo} %"
                    if math.isinf(self.high)
                    else f"at most {hi} %"
                )
                return f"{head} {band} {tail}".strip()  # fmt: skip
            if math.isinf(self.low):
                return f"fewer than {hi} % {head}"
            if math.isinf(self.high):
                return f"at least {lo} % {head}"
            return f"{lo}–{hi} % {head}"
        if math.isinf(self.low):
            return f"{words} at most {hi} {unit} on average"
        if math.isinf(self.high):
            return f"{words} at least {lo} {unit} on average"
        return f"{words} {lo}–{hi} {unit} on average"

    def to_text(self) -> str:
        """The command-line spelling (``parse_target(t.to_text()) == t``)."""
        if math.isinf(self.low):
            return f"{self.outcome}<={self.high!r}"
        if math.isinf(self.high):
            return f"{self.outcome}>={self.low!r}"
        return f"{self.outcome}={self.low!r}:{self.high!r}"


_FORM = re.compile(r"^\s*([a-z_]+)\s*(<=|>=|<|>|=)\s*(.+?)\s*$")


def parse_target(text: Any) -> Target:
    """A target from ``"npc_win=0.5±0.02"``, ``"steps=60:90"``, ``"step_limit<0.05"`` (or a
    :class:`Target`, returned as it is).

    Examples
    --------
    >>> parse_target("steps>=40")
    Target(outcome='steps', low=40.0, high=inf)
    >>> parse_target("wins=0.5")
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: targets: unknown outcome, known: ... (got 'wins')
    """
    if isinstance(text, Target):
        return text
    m = _FORM.match(text) if isinstance(text, str) else None
    if not m:
        raise ArgumentError("write OUTCOME=VALUE±TOL, OUTCOME=LOW:HIGH or OUTCOME<VALUE",
                            argument="targets", value=text)  # fmt: skip
    outcome, op, rest = m.groups()
    if outcome not in GAME_OUTCOMES:
        raise ArgumentError(f"unknown outcome, known: {', '.join(GAME_OUTCOMES)}",
                            argument="targets", value=outcome)  # fmt: skip
    try:
        if op == "=":
            for sep in ("±", "+-", "+/-"):
                if sep in rest:
                    centre, tol = (float(v) for v in rest.split(sep))
                    if not tol > 0:
                        raise ValueError
                    return Target(outcome, round(centre - tol, 12), round(centre + tol, 12))
            low, high = (float(v) for v in rest.split(":"))
            return Target(outcome, low, high)
        value = float(rest)
    except ValueError:
        raise ArgumentError("bad numbers (VALUE±TOL with TOL > 0, or LOW:HIGH)", argument="targets",
                            value=text) from None  # fmt: skip
    return Target(outcome, high=value) if op.startswith("<") else Target(outcome, low=value)


def estimate(outcome: str, values: np.ndarray) -> tuple[float, float, float]:
    """Mean of per-game ``values`` with its 95 % interval (Wilson for a rate, normal for a
    mean).

    Examples
    --------
    >>> estimate("npc_win", np.array([1, 0, 1, 1.0]))
    (0.75, 0.30..., 0.95...)
    """
    from labkit.encounter.rules.combat import wilson_interval

    v = np.asarray(values, dtype=float)
    m = float(v.mean())
    if outcome in RATES:
        lo, hi = wilson_interval(int(round(v.sum())), v.size)
        return m, min(float(lo), m), max(float(hi), m)
    half = 1.96 * float(v.std(ddof=1)) / math.sqrt(v.size) if v.size > 1 else math.inf
    return m, m - half, m + half
