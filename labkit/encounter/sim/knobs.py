"""Knobs with ranges, per-game outcomes and the game player shared by ``importance`` and
``tune_many``.

A *knob* is what a sweep varies (a settings field such as ``"npcs"`` or a balance JSON pointer
such as ``"/characters/monster/life"``, :func:`~labkit.encounter.sweep`) with a range
``(low, high)``: both ends ints make a whole-number knob, which only ever takes whole values.
Designers read a knob by its words and unit (:func:`knob_label`: ``"monster life (life
points)"``).

An *outcome* is a number per game (:data:`GAME_OUTCOMES`): the rates of
:data:`~labkit.encounter.sim.sweep.METRICS` (0/1 per game) and the lengths ``steps``, ``turns``
and ``encounters``. :class:`GamePlayer` plays ``(point, seed)`` games, each once per call of its
owner (a design that asks for the same point and seed twice, as integer knobs often do, plays it
once), and hands back per-game outcomes; ``games`` counts what was really played.

Decisions recorded here: a whole-number knob maps the unit interval onto its values in equal
shares (``low + floor(u * (high - low + 1))``), so a uniform draw gives every whole value the
same chance; a real knob maps it linearly.

Examples
--------
>>> ks = knob_list(None, {"/characters/monster/life": (2, 10), "/priority/base": (0.3, 0.7)})
>>> [k.value(0.5) for k in ks], ks[0].integer, ks[1].integer
([6, 0.5], True, False)
>>> knob_label("/characters/monster/life"), knob_label("max_steps")
('monster life (wounds it takes)', 'step limit (steps)')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from labkit import ArgumentError, _renamed
from labkit.glossary import GLOSSARY, parameter_words

__all__ = ["Knob", "knob_list", "knob_label", "GAME_OUTCOMES", "OUTCOME_WORDS", "GamePlayer"]

#: Per-game outcomes: four 0/1 rates and three lengths (means).
GAME_OUTCOMES = ("npc_win", "monster_win", "step_limit", "mutual_death", "steps", "turns",
            "encounters")  # fmt: skip
#: How a sentence names an outcome, and its unit ("" for a share of games).
OUTCOME_WORDS = {
    "npc_win": ("the NPC side wins", ""),
    "monster_win": ("the monster side wins", ""),
    "step_limit": ("a game ends at the step limit", ""),
    "mutual_death": ("both sides die", ""),
    "steps": ("a game lasts", "steps"),
    "turns": ("a game lasts", "turns"),
    "encounters": ("a game has", "encounters"),
}
RATES = GAME_OUTCOMES[:4]


def knob_label(name: str) -> str:
    """A knob in the designer's words with its unit: ``"monster life (wounds it takes)"``, the
    words :mod:`labkit.glossary` gives every app, summary and CLI line.

    Examples
    --------
    >>> knob_label("/weapons/revolver/damage"), knob_label("/tables/hit/3")
    ('revolver damage (wounds)', 'hit chance at index −1')
    >>> knob_label("/card_pool/stock/revolver"), knob_label("npcs")
    ('revolvers in the card pool', 'NPCs in the game (NPCs)')
    """
    if not name.startswith("/") and name not in GLOSSARY:
        return name  # a stand-in model's own knob (tests, response=)
    return parameter_words(name)


@dataclass(frozen=True)
class Knob:
    """One knob: ``name`` (field or pointer), ``low``/``high`` and whether it is whole.

    Examples
    --------
    >>> k = Knob("/characters/monster/life", 2, 4, True)
    >>> [k.value(u) for u in (0.0, 0.34, 0.99, 1.0)], k.label
    ([2, 3, 4, 4], 'monster life (wounds it takes)')
    """

    name: str
    low: float
    high: float
    integer: bool

    @property
    def label(self) -> str:
        return knob_label(self.name)

    @property
    def unit(self) -> str:
        lab = self.label
        return lab[lab.rfind("(") + 1 : -1] if lab.endswith(")") else ""

    def value(self, u: float) -> Any:
        """The knob's value at ``u`` in [0, 1] (whole knobs: every value an equal share)."""
        if self.integer:
            n = int(self.high - self.low) + 1
            return int(self.low) + min(n - 1, int(math.floor(u * n)))
        return float(self.low + u * (self.high - self.low))

    def text(self, v: Any) -> str:
        """``v`` as a designer reads it: whole knobs whole, real ones to 3 significant digits."""
        return f"{int(v)}" if self.integer else f"{float(v):.3g}"


def knob_list(base: Any, knobs: Mapping[str, Any]) -> list[Knob]:
    """Check ``{name: (low, high)}`` and return the knobs in order.

    Both ends are played through the sweep's own check (:func:`~labkit.encounter.design`) when
    ``base`` is given, so a bad name or an unplayable end fails here, named.

    Examples
    --------
    >>> knob_list(None, {"npcs": (3, 1)})
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: knobs['npcs']: needs low < high (got (3, 1))
    """
    if not isinstance(knobs, Mapping) or not knobs:
        raise ArgumentError("must map knob names to (low, high) ranges", argument="knobs",
                            value=knobs)  # fmt: skip
    out = []
    for name, rng in knobs.items():
        try:
            lo, hi = rng
        except (TypeError, ValueError):
            raise ArgumentError("must be (low, high)", argument=f"knobs[{name!r}]",
                                value=rng) from None  # fmt: skip
        numbers = [isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi)]
        if not all(numbers) or not all(math.isfinite(v) for v in (lo, hi)):
            raise ArgumentError("the ends must be finite numbers", argument=f"knobs[{name!r}]",
                                value=rng)  # fmt: skip
        if not lo < hi:
            raise ArgumentError("needs low < high", argument=f"knobs[{name!r}]", value=tuple(rng))
        integer = isinstance(lo, int) and isinstance(hi, int)
        if base is not None:
            from labkit.encounter.sim.sweep import design

            try:
                design(base, {name: [lo, hi]})
            except ArgumentError as exc:  # say "knobs", as the caller wrote it
                msg = str(exc).split(": ", 1)[1]  # "grid[...]: reason": an error names its argument
                raise ArgumentError(msg, argument=f"knobs[{name!r}]") from None
        out.append(Knob(str(name), lo, hi, integer))
    return out


def outcome_rows(rows: Sequence[tuple]) -> np.ndarray:
    """Per-game outcomes (one column per :data:`GAME_OUTCOMES` entry) of engine rows."""
    from labkit.encounter.status import EndReason

    out = np.zeros((len(rows), len(GAME_OUTCOMES)))
    for i, r in enumerate(rows):
        out[i] = (r[1] == "npc", r[1] == "monster", r[2] == EndReason.STEP_LIMIT,
                  r[2] == EndReason.MUTUAL_DEATH, r[3], r[4], r[5])  # fmt: skip
    return out


# A stand-in for the games (tests, other models): (point, seeds) -> {outcome: per-game values}.
Response = Callable[[dict, np.ndarray], Mapping[str, Any]]


class GamePlayer:
    """Plays ``(point, seed)`` games in batches on one executor and keeps their outcomes.

    ``play(points, seeds)`` returns, per point, an array ``(len(seeds[i]), len(GAME_OUTCOMES))``;
    a game already played (same point, same seed) is not played again. With ``response`` the
    games are not played: ``response(point, seeds)`` gives the outcomes it knows, one value per
    seed or one for all of them (missing outcomes are NaN).

    Examples
    --------
    >>> from labkit.encounter.sim.settings import SimulationSettings
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as pool:
    ...     p = GamePlayer(SimulationSettings(), executor=pool)
    ...     a, b = p.play([{"max_steps": 5}, {"max_steps": 5}], [np.arange(3), np.arange(4)])
    >>> a.shape, p.games, bool((b[:, GAME_OUTCOMES.index("step_limit")] == 1).all())
    ((3, 7), 4, True)
    """

    def __init__(self, base: Any, *, executor: Any = None, response: Response | None = None,
                 progress: Any = False) -> None:  # fmt: skip
        self.base, self.response, self.progress = base, response, progress
        self.games = 0
        self._seen: dict[tuple, np.ndarray] = {}
        self._own = None
        if response is None and executor is None:  # one pool for every batch, not one each
            from labkit.encounter.sim.batch import local_executor

            executor = self._own = local_executor()
        self.executor = executor

    def close(self) -> None:
        """Shut down the pool this player started (an executor passed in stays up)."""
        if self._own is not None:
            self._own.shutdown()
            self._own = None

    def play(self, points: Sequence[dict], seeds: Sequence[np.ndarray]) -> list[np.ndarray]:
        # each value's type is in the key: 3.0 or True equal 3 or 1 as keys, but the settings
        # refuse them, so a game played for 3 must not answer for 3.0
        keys = [tuple(sorted((n, type(v).__name__, v) for n, v in p.items())) for p in points]
        if self.response is not None:
            return [self._respond(p, np.asarray(s)) for p, s in zip(points, seeds)]
        from labkit.encounter.sim.engine import play_jobs

        docs: dict[tuple, int] = {}
        jobs: list[tuple[int, int, int, int]] = []
        wanted: list[tuple] = []
        asked: set[tuple] = set()
        for key, ss in zip(keys, seeds):
            for s in np.asarray(ss, dtype=np.int64).tolist():
                if (key, s) in self._seen or (key, s) in asked:
                    continue
                asked.add((key, s))
                wanted.append((key, s))
                k = docs.setdefault(key, len(docs))
                jobs.append((len(jobs), k, s, s))
        doc_list: list[dict] = [{}] * len(docs)
        base_doc = self.base.to_dict()
        for key, k in docs.items():  # the workers check every document they play
            doc = {**base_doc, **{n: v for n, _, v in key if not n.startswith("/")}}
            doc["balance"] = {**base_doc["balance"],
                              **{n: v for n, _, v in key if n.startswith("/")}}  # fmt: skip
            doc_list[k] = doc
        rows: list[tuple] = []
        if jobs:
            play_jobs(doc_list, jobs, lambda chunk, got: rows.extend(got),
                      executor=self.executor, progress=self.progress)  # fmt: skip
        rows.sort()
        for (key, s), value in zip(wanted, outcome_rows(rows)):
            self._seen[(key, s)] = value
        self.games += len(jobs)
        return [np.array([self._seen[(key, int(s))] for s in np.asarray(ss).tolist()]).reshape(
            -1, len(GAME_OUTCOMES)) for key, ss in zip(keys, seeds)]  # fmt: skip

    def _respond(self, point: dict, seeds: np.ndarray) -> np.ndarray:
        assert self.response is not None
        got = self.response(dict(point), seeds)
        out = np.full((seeds.size, len(GAME_OUTCOMES)), np.nan)
        for name, values in got.items():
            if name not in GAME_OUTCOMES:
                raise ArgumentError(f"unknown outcome, known: {', '.join(GAME_OUTCOMES)}",
                                    argument="response", value=name)  # fmt: skip
            v = np.asarray(values, dtype=float)
            if v.ndim == 0:  # a model without luck: the same value for every seed
                v = np.full(seeds.size, float(v))
            if v.shape != (seeds.size,):
                raise ArgumentError("must give one value per seed", argument="response",
                                    value=v.shape)  # fmt: skip
            out[:, GAME_OUTCOMES.index(name)] = v
        self.games += seeds.size
        return out


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
