"""Play-function adapters (per-game Python, per-game numba, vectorised) and the block checks.

Kept apart from :mod:`labkit.lab.game` so the dataclasses stay small; every adapter is a plain
picklable object (a numba adapter drops its compiled loop when pickled and rebuilds it, once
per process, on first use: see :class:`NumbaLoop`).
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from labkit import ArgumentError, LabkitError


class PlayError(LabkitError):  # re-exported by labkit.lab.game
    """A play function that raised, or returned something that is not its outcomes."""


def _number(value: Any) -> bool:
    return isinstance(value, (numbers.Real, np.number)) and not isinstance(value, complex)


if TYPE_CHECKING:
    from labkit.lab.game import Game


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def at(points: Mapping[str, np.ndarray], i: int, seed: Any) -> str:
    """``hp=3, damage=2, seed=7``: one game, for an error."""
    parts = [f"{k}={np.asarray(v)[i].item()!r}" for k, v in points.items()]
    return ", ".join([*parts, f"seed={int(seed)}"])


def per_game_parameters(game: str, play: Callable, knobs: Sequence[str]) -> dict[str, Any]:
    """Each knob's parameter default in ``play`` (``None``: none); refuse a mismatched signature."""
    try:
        sig = inspect.signature(getattr(play, "py_func", play))
    except (TypeError, ValueError):
        return dict.fromkeys(knobs)
    params = sig.parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict.fromkeys(knobs)
    for name in [*knobs, "seed"]:
        if name not in params:
            raise ArgumentError(f"game {game!r}: play has no parameter {name!r} (a per-game "
                                "play takes every knob and seed by name)", argument="play",
                                value=name)  # fmt: skip
    extra = [n for n, p in params.items()
             if n not in knobs and n != "seed" and p.default is p.empty]  # fmt: skip
    if extra:
        raise ArgumentError(f"game {game!r}: play's parameter {extra[0]!r} is not a knob",
                            argument="knobs", value=extra[0])  # fmt: skip
    return {k: None if params[k].default is params[k].empty else params[k].default
            for k in knobs}  # fmt: skip


class PerGame:
    """A per-game Python function looped over a block; results stored per outcome."""

    def __init__(self, fn: Callable, knobs: list[str], outcomes: list[str]) -> None:
        self.fn, self.knobs, self.outcomes = fn, knobs, outcomes

    def __call__(self, points: Mapping[str, np.ndarray], seeds: np.ndarray) -> dict:
        n_p, n_s = len(points[self.knobs[0]]), len(seeds)
        outs = [np.empty((n_p, n_s)) for _ in self.outcomes]
        cols = [np.asarray(points[k]).tolist() for k in self.knobs]  # Python ints and floats
        seed_list = np.asarray(seeds).tolist()
        fn, single = self.fn, len(self.outcomes) == 1
        for i in range(n_p):
            kw = {k: c[i] for k, c in zip(self.knobs, cols)}
            for j, s in enumerate(seed_list):
                try:
                    r = fn(**kw, seed=s)
                except Exception as exc:
                    raise PlayError(f"play raised {_one_line(exc)} at {at(points, i, s)}") from exc
                if single and _number(r):
                    outs[0][i, j] = r
                else:
                    self._store(r, outs, i, j, points, s)
        return dict(zip(self.outcomes, outs))

    def _store(self, r: Any, outs: list, i: int, j: int, points: Any, s: int) -> None:
        if isinstance(r, Mapping):
            missing = [o for o in self.outcomes if o not in r]
            extra = [k for k in r if k not in self.outcomes]
            if missing or extra:
                what = (
                    f"no outcome {missing[0]!r}" if missing else f"an unknown outcome {extra[0]!r}"
                )
                raise PlayError(f"play returned {what} at {at(points, i, s)}")
            r = [r[o] for o in self.outcomes]
        elif _number(r):
            r = [r]
        elif not isinstance(r, (tuple, list)):
            raise PlayError(f"play returned a {type(r).__name__}, not a number or a mapping of "
                            f"outcomes, at {at(points, i, s)}")  # fmt: skip
        if len(r) != len(self.outcomes):
            raise PlayError(f"play returned {len(r)} values for {len(self.outcomes)} outcomes at "
                            f"{at(points, i, s)}")  # fmt: skip
        for m, (name, v) in enumerate(zip(self.outcomes, r)):
            if isinstance(v, bool) or _number(v):
                outs[m][i, j] = v
            else:
                raise PlayError(f"outcome {name!r} is a {type(v).__name__}, not a number, at "
                                f"{at(points, i, s)}")  # fmt: skip


class Vectorised:
    """A designer's own vectorised play function (checked by :func:`play_checked`)."""

    def __init__(self, fn: Callable) -> None:
        self.fn = fn

    def __call__(self, points: Mapping[str, np.ndarray], seeds: np.ndarray) -> Any:
        try:
            return self.fn(dict(points), seeds)
        except Exception as exc:
            first = at(points, 0, seeds[0]) if len(seeds) else "an empty block"
            raise PlayError(f"play raised {_one_line(exc)} on the block from {first}") from exc


# Compiled loops of this process, by (play dispatcher, knob count, outcome count, argument
# order): a forked worker inherits the parent's, and numba hands back the same dispatcher
# object when one is unpickled in the process that made it (its memo by uuid).
_LOOPS: dict[tuple, tuple[Any, Any]] = {}

_TEMPLATE = """
def lab_loop({knobs}, seeds, out):
    for i in range({first}.shape[0]):
        for j in range(seeds.shape[0]):
            r = play({args})
{stores}
"""


class NumbaLoop:
    """A numba per-game function, played by a jitted loop over (points x seeds).

    The loop's source is a fixed template filled with argument positions only (no text of the
    designer's goes into it), compiled through :func:`labkit._jit.kernel` (nopython, no GIL),
    uncached: the designer's function may live in a notebook, with no file to key a cache by.
    """

    def __init__(self, play: Any, knobs: list[str], outcomes: list[str], whole: list[bool]):
        self.play, self.knobs, self.outcomes, self.whole = play, knobs, outcomes, whole
        params = list(inspect.signature(play.py_func).parameters)
        self.order = [p for p in params if p == "seed" or p in knobs]

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_loop"}

    def _build(self, scalar: bool) -> Any:
        from labkit import _jit

        names = [f"k{n}" for n in range(len(self.knobs))]
        args = ["seeds[j]" if p == "seed" else f"k{self.knobs.index(p)}[i]" for p in self.order]
        if scalar:
            stores = "            out[0, i, j] = r"
        else:
            stores = "\n".join(f"            out[{m}, i, j] = r[{m}]"
                               for m in range(len(self.outcomes)))  # fmt: skip
        source = _TEMPLATE.format(knobs=", ".join(names), first=names[0], args=", ".join(args),
                                  stores=stores)  # fmt: skip
        space: dict[str, Any] = {"play": self.play, "__name__": __name__}
        exec(compile(source, "<labkit.lab loop>", "exec"), space)  # our template, see above
        fn = space["lab_loop"]
        fn.__qualname__ = "<labkit.lab loop>"  # not a house kernel: kept out of the registry
        return _jit.kernel(fn, cache=False)

    def __call__(self, points: Mapping[str, np.ndarray], seeds: np.ndarray) -> dict:
        cols = [np.ascontiguousarray(points[k], dtype=np.int64 if w else np.float64)
                for k, w in zip(self.knobs, self.whole)]  # fmt: skip
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        out = np.zeros((len(self.outcomes), len(cols[0]), len(seeds)))
        key = (id(self.play), len(self.knobs), len(self.outcomes), tuple(self.order))
        loop = _LOOPS.get(key, (None, None))[1]
        try:
            if loop is not None:
                loop(*cols, seeds, out)
            else:
                loop = self._compile(cols, seeds, out)
                _LOOPS[key] = (self.play, loop)
        except PlayError:
            raise
        except Exception as exc:
            self._locate(exc, points, seeds)
        return dict(zip(self.outcomes, out))

    def _compile(self, cols: list, seeds: np.ndarray, out: np.ndarray) -> Any:
        from numba.core.errors import TypingError

        first: Exception | None = None
        for scalar in (len(self.outcomes) == 1, False):
            loop = self._build(scalar)
            try:
                loop(*cols, seeds, out)
                return loop
            except TypingError as exc:
                first = first or exc
        raise PlayError(
            "numba could not play it over the knobs (a numba play returns a number "
            f"or a tuple in outcome order): {_one_line(first or Exception())[:200]}"
        )

    def _locate(self, exc: Exception, points: Mapping, seeds: np.ndarray) -> None:
        """Name the game that raised: replay the block in plain Python until it raises."""
        fn = self.play.py_func
        n_p = len(points[self.knobs[0]])
        for i in range(n_p):
            kw = {k: np.asarray(points[k])[i].item() for k in self.knobs}
            for s in np.asarray(seeds).tolist():
                try:
                    fn(**kw, seed=s)
                except Exception as inner:
                    raise PlayError(f"play raised {_one_line(inner)} at "
                                    f"{at(points, i, s)}") from exc  # fmt: skip
        raise PlayError(f"play raised {_one_line(exc)} on the block from "
                        f"{at(points, 0, seeds[0])}") from exc  # fmt: skip


def play_checked(game: Game, points: Mapping[str, np.ndarray], seeds: np.ndarray,
                 ) -> dict[str, np.ndarray]:  # fmt: skip
    """``game.play`` over a block, every outcome checked (see :mod:`labkit.lab.game`)."""
    n_p, n_s = len(points[game.knobs[0].name]), len(seeds)
    try:
        got = game.play(dict(points), seeds)
    except PlayError as exc:
        raise PlayError(f"game {game.name!r}: {exc}") from exc.__cause__
    except Exception as exc:  # a Game built by hand around a raw function
        raise PlayError(f"game {game.name!r}: play raised {_one_line(exc)} on the block from "
                        f"{at(points, 0, seeds[0])}") from exc  # fmt: skip
    pre = f"game {game.name!r}:"
    if not isinstance(got, Mapping):
        raise PlayError(f"{pre} play returned a {type(got).__name__}, not a dict of outcomes")
    for o in game.outcomes:
        if o.name not in got:
            raise PlayError(f"{pre} play returned no outcome {o.name!r}")
    extra = [k for k in got if k not in {o.name for o in game.outcomes}]
    if extra:
        raise PlayError(f"{pre} play returned an unknown outcome {extra[0]!r}")
    out = {}
    for o in game.outcomes:
        a = np.asarray(got[o.name])
        if a.dtype.kind not in "biuf":
            raise PlayError(f"{pre} outcome {o.name!r} holds {a.dtype} values, not numbers")
        if a.shape != (n_p, n_s):
            raise PlayError(f"{pre} outcome {o.name!r} has shape {a.shape}, not (points, "
                            f"seeds) = {(n_p, n_s)}")  # fmt: skip
        a = a.astype(np.float64, copy=False)
        bad = ~np.isfinite(a)
        if o.kind == "rate":
            bad |= (a != 0) & (a != 1)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            what = "a rate must be 0 or 1" if np.isfinite(a[i, j]) else "not a number"
            raise PlayError(f"{pre} outcome {o.name!r} = {float(a[i, j])!r} ({what}) at "
                            f"{at(points, i, seeds[j])}")  # fmt: skip
        out[o.name] = a
    return out
