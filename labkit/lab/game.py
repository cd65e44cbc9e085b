"""A game the lab can study: its knobs, its outcomes and one vectorised play function.

A :class:`Game` is a name, its :class:`Knob` s (what a designer turns: a name, a range, whole or
real, words and a unit), its :class:`Outcome` s (what a game reports: a *rate* of 0/1 results or
a *mean* of numbers, with words and a unit) and one play function over a block of games::

    play(points: dict[knob, array (n_points,)], seeds: array (n_seeds,))
        -> dict[outcome, array (n_points, n_seeds)]

:meth:`Game.from_function` makes one from the function a designer already has, in one call:

* a per-game function ``play(**knob_values, seed=int)`` returning a number (one outcome), a
  mapping of outcome values or a tuple in outcome order; knob values arrive as Python ``int``
  (whole knobs) or ``float``; pure Python, looped over the block here;
* the same function decorated with numba's ``@njit`` (returning a number or a tuple): a jitted
  loop over the block (points x seeds) is built around it and compiled once per process, so a
  small game plays at millions of games a second;
* an already vectorised function (``vectorised=True``) with the signature above.

Seeds and common random numbers: game ``(point, seed)`` is played with that seed as given, the
same integer at every point, so two points differ only by their knobs, seed by seed. A play
function must draw all its randomness from ``seed`` (for example
``numpy.random.default_rng(seed)``): the studies replay a sample of games and refuse a function
whose results differ.

Every block a play function returns is checked (:meth:`Game.play_block`): each outcome present,
numbers of shape (points, seeds), no NaN or infinity, a rate only 0 or 1. A failure, or an
exception inside ``play``, is a :class:`PlayError` in one line naming the game, the outcome,
the knob values and the seed.

Examples
--------
>>> import numpy as np
>>> def duel(hp, damage, seed):
...     rng = np.random.default_rng(seed)
...     return float(rng.integers(1, 7) * damage >= hp)
>>> g = Game.from_function("one blow", duel, knobs={"hp": (1, 20), "damage": (1, 5)},
...                        outcomes={"kill": "rate"})
>>> [k.name for k in g.knobs], g.outcomes[0].kind, g.knobs[0].whole
(['hp', 'damage'], 'rate', True)
>>> out = g.play_block({"hp": np.array([1, 30 // 2]), "damage": np.array([1, 1])}, np.arange(3))
>>> out["kill"].tolist()
[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
"""

from __future__ import annotations

import hashlib
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.lab import _play
from labkit.lab._play import PlayError, _number

__all__ = ["Knob", "Outcome", "Game", "PlayError", "RESERVED", "KINDS"]

#: Names a knob or outcome may not take: they are columns of every study's table.
RESERVED = frozenset({"seed", "point", "game"})
#: What an outcome is: a rate of 0/1 results, or a mean of numbers.
KINDS = ("rate", "mean")


def _check_name(game: str, what: str, name: Any) -> str:
    # Not only identifiers: a vectorised game may name a knob by a JSON pointer into its data
    # (the encounter game's "/characters/monster/life"); a per-game function's knobs are its
    # parameters, so its signature check asks for identifiers there.
    if not isinstance(name, str) or not name.strip() or not name.isprintable() or len(name) > 200:
        article = "an" if what[0] in "aeiou" else "a"
        raise ArgumentError(f"game {game!r}: {article} {what} name must be printable text of "
                            "1-200 characters", argument=what + "s", value=name)  # fmt: skip
    if name in RESERVED:
        raise ArgumentError(f"game {game!r}: {what} {name!r} clashes with a study column "
                            f"({', '.join(sorted(RESERVED))})", argument=what + "s",
                            value=name)  # fmt: skip
    return name


@dataclass(frozen=True)
class Knob:
    """A knob a designer turns: ``low`` … ``high``, whole numbers or real, in words and a unit.

    ``default`` is the value a study uses when its grid leaves the knob out (``None``: the grid
    must give it).

    Examples
    --------
    >>> Knob("hp", 1, 20, whole=True, words="hit points", unit="hp").label
    'hit points (hp)'
    >>> Knob("hp", 1, 20, whole=True).check("duel", 25)
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: grid['hp']: game 'duel': knob hp must be between 1 and 20 (got 25)
    """

    name: str
    low: float
    high: float
    whole: bool = False
    words: str = ""
    unit: str = ""
    default: float | None = None

    @property
    def label(self) -> str:
        """The knob in words, with its unit in brackets."""
        text = self.words or self.name.replace("_", " ")
        return f"{text} ({self.unit})" if self.unit else text

    def check(self, game: str, value: Any) -> int | float:
        """``value`` as this knob's type; :class:`~labkit.ArgumentError` outside its range."""
        where = f"grid[{self.name!r}]"
        if isinstance(value, bool) or not _number(value) or not math.isfinite(float(value)):
            raise ArgumentError(f"game {game!r}: knob {self.name} must be a finite number",
                                argument=where, value=value)  # fmt: skip
        if self.whole and float(value) != int(value):
            raise ArgumentError(f"game {game!r}: knob {self.name} takes whole numbers",
                                argument=where, value=value)  # fmt: skip
        v: int | float = int(value) if self.whole else float(value)
        if not self.low <= v <= self.high:
            raise ArgumentError(f"game {game!r}: knob {self.name} must be between {self.low:g} "
                                f"and {self.high:g}", argument=where, value=value)  # fmt: skip
        return v


@dataclass(frozen=True)
class Outcome:
    """What a played game reports: a ``"rate"`` (each game 0 or 1) or a ``"mean"`` (a number).

    Examples
    --------
    >>> Outcome("attacker_win", "rate", words="attacker win rate").label
    'attacker win rate'
    """

    name: str
    kind: str = "rate"
    words: str = ""
    unit: str = ""

    @property
    def label(self) -> str:
        """The outcome in words, with its unit in brackets."""
        text = self.words or self.name.replace("_", " ")
        return f"{text} ({self.unit})" if self.unit else text


def _knob(game: str, name: str, spec: Any) -> Knob:
    _check_name(game, "knob", name)
    if isinstance(spec, Knob):
        knob = spec if spec.name == name else Knob(**{**spec.__dict__, "name": name})
    elif isinstance(spec, Mapping):
        knob = Knob(name, **spec)
    elif isinstance(spec, (tuple, list)) and len(spec) == 2:
        whole = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in spec)
        knob = Knob(name, spec[0], spec[1], whole=whole)
    else:
        raise ArgumentError(f"game {game!r}: knob {name} needs a Knob, a dict or (low, high)",
                            argument="knobs", value=spec)  # fmt: skip
    for end in (knob.low, knob.high):
        if isinstance(end, bool) or not _number(end) or not math.isfinite(float(end)):
            raise ArgumentError(f"game {game!r}: knob {name}'s range must be finite numbers",
                                argument="knobs", value=(knob.low, knob.high))  # fmt: skip
    if not knob.low <= knob.high:
        raise ArgumentError(f"game {game!r}: knob {name}'s low is above its high",
                            argument="knobs", value=(knob.low, knob.high))  # fmt: skip
    if knob.whole and (knob.low != int(knob.low) or knob.high != int(knob.high)):
        raise ArgumentError(f"game {game!r}: whole knob {name} needs whole ends",
                            argument="knobs", value=(knob.low, knob.high))  # fmt: skip
    if knob.default is not None:
        knob.check(game, knob.default)
    return knob


def _outcome(game: str, name: str, spec: Any) -> Outcome:
    _check_name(game, "outcome", name)
    if isinstance(spec, Outcome):
        out = spec if spec.name == name else Outcome(**{**spec.__dict__, "name": name})
    elif isinstance(spec, Mapping):
        out = Outcome(name, **spec)
    elif isinstance(spec, str):
        out = Outcome(name, spec)
    else:
        raise ArgumentError(f"game {game!r}: outcome {name} needs an Outcome, a dict or "
                            "'rate'/'mean'", argument="outcomes", value=spec)  # fmt: skip
    if out.kind not in KINDS:
        raise ArgumentError(f"game {game!r}: outcome {name} must be a 'rate' or a 'mean'",
                            argument="outcomes", value=out.kind)  # fmt: skip
    return out


def _code_version(fn: Callable) -> str:
    """SHA-256 (16 hex digits) of the play function's source, else of its bytecode."""
    fn = getattr(fn, "py_func", fn)
    try:
        text = inspect.getsource(fn).encode()
    except (OSError, TypeError):
        code = getattr(fn, "__code__", None)
        text = code.co_code + repr(code.co_consts).encode() if code else repr(fn).encode()
    return hashlib.sha256(text).hexdigest()[:16]


def _is_numba(fn: Any) -> bool:
    return type(fn).__module__.startswith("numba") and hasattr(fn, "py_func")


@dataclass(frozen=True)
class Game:
    """A game: ``name``, ``knobs``, ``outcomes`` and a vectorised ``play`` (see the module).

    ``code`` is the version of the play code (a digest of its source): a study folder records
    it, so results of an edited play function are never mixed with older ones.
    """

    name: str
    knobs: tuple[Knob, ...]
    outcomes: tuple[Outcome, ...]
    play: Callable[[dict[str, np.ndarray], np.ndarray], Mapping[str, Any]] = field(repr=False)
    code: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ArgumentError("a game needs a name", argument="name", value=self.name)
        if not self.knobs or not self.outcomes:
            raise ArgumentError(f"game {self.name!r} needs at least one knob and one outcome",
                                argument="knobs" if not self.knobs else "outcomes",
                                value=len(self.knobs or self.outcomes))  # fmt: skip
        seen: dict[str, str] = {}
        for what, items in (("knob", self.knobs), ("outcome", self.outcomes)):
            for item in items:
                _check_name(self.name, what, item.name)
                if item.name in seen:
                    raise ArgumentError(f"game {self.name!r}: {what} {item.name!r} clashes with "
                                        f"the {seen[item.name]} of that name",
                                        argument=what + "s", value=item.name)  # fmt: skip
                seen[item.name] = what
        if not callable(self.play):
            raise ArgumentError(f"game {self.name!r}: play must be a function",
                                argument="play", value=self.play)  # fmt: skip

    @classmethod
    def from_function(
        cls,
        name: str,
        play: Callable,
        *,
        knobs: Mapping[str, Any],
        outcomes: Mapping[str, Any],
        vectorised: bool = False,
    ) -> Game:
        """A game from a per-game (Python or numba) or vectorised play function; see the module.

        ``knobs`` maps each knob's name to a :class:`Knob`, a dict of its fields or
        ``(low, high)`` (whole when both are ints); ``outcomes`` maps each outcome's name to an
        :class:`Outcome`, a dict or ``"rate"``/``"mean"``. A per-game function's parameter
        defaults become its knobs' defaults.
        """
        if not isinstance(knobs, Mapping) or not isinstance(outcomes, Mapping):
            raise ArgumentError(f"game {name!r}: knobs and outcomes are dicts by name",
                                argument="knobs", value=type(knobs).__name__)  # fmt: skip
        kn = [_knob(name, k, v) for k, v in knobs.items()]
        oc = tuple(_outcome(name, k, v) for k, v in outcomes.items())
        if not callable(play):
            raise ArgumentError(f"game {name!r}: play must be a function", argument="play",
                                value=play)  # fmt: skip
        if vectorised:
            adapter: Callable = _play.Vectorised(play)
        else:
            params = _play.per_game_parameters(name, play, [k.name for k in kn])
            kn = [
                k if k.default is not None or params[k.name] is None
                else Knob(**{**k.__dict__, "default": k.check(name, params[k.name])})
                for k in kn
            ]  # fmt: skip
            names = ([k.name for k in kn], [o.name for o in oc])
            if _is_numba(play):
                adapter = _play.NumbaLoop(play, *names, [k.whole for k in kn])
            else:
                adapter = _play.PerGame(play, *names)
        return cls(name, tuple(kn), oc, adapter, _code_version(play))

    def knob(self, name: str) -> Knob:
        """The knob called ``name``."""
        for k in self.knobs:
            if k.name == name:
                return k
        raise ArgumentError(f"game {self.name!r} has no knob {name!r} (its knobs: "
                            f"{', '.join(k.name for k in self.knobs)})", argument="grid",
                            value=name)  # fmt: skip

    def point(self, values: Mapping[str, Any]) -> dict[str, int | float]:
        """Every knob's value at one point: ``values`` checked, defaults for the rest."""
        for name in values:
            self.knob(name)
        out = {}
        for k in self.knobs:
            if k.name in values:
                out[k.name] = k.check(self.name, values[k.name])
            elif k.default is not None:
                out[k.name] = k.check(self.name, k.default)
            else:
                raise ArgumentError(f"game {self.name!r}: knob {k.name} has no default; give "
                                    "it in the grid", argument="grid", value=k.name)  # fmt: skip
        return out

    def play_block(self, points: Mapping[str, np.ndarray], seeds: np.ndarray,
                   ) -> dict[str, np.ndarray]:  # fmt: skip
        """Play every (point, seed) of a block; outcomes as float arrays (points, seeds), checked.

        ``points`` holds one array per knob (whole knobs as int64, real as float64)."""
        return _play.play_checked(self, points, seeds)

    def to_dict(self) -> dict[str, Any]:
        """The game's identity as JSON-ready data (name, knobs, outcomes, code version)."""
        return {
            "name": self.name,
            "knobs": [dict(k.__dict__) for k in self.knobs],
            "outcomes": [dict(o.__dict__) for o in self.outcomes],
            "code": self.code,
        }
