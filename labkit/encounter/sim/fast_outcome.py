"""Outcome-only games (rule W3): the numbers a batch row needs, five times faster and more.

:func:`outcome_row_fast` plays one game in the numba kernel
(:func:`labkit.encounter._game_kernels.play_game`) and returns exactly what
:func:`~labkit.encounter.sim.runner.outcome_row` returns for the same settings — the journalled
:class:`~labkit.encounter.sim.session.GameSession` — with no journal, no observations, no notes
objects and no per-step allocations: the rules run on arrays. Games whose policies are not the
shipped ones (``scavenger``, ``hunter``, ``random``) fall back to the session.

Examples
--------
>>> from labkit.encounter.sim.runner import outcome_row
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> s = SimulationSettings(seed=7, map_seed=7)
>>> outcome_row_fast(s) == outcome_row(s)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from labkit.encounter import _game_kernels as gk
from labkit.encounter.sim._game_args import FIRST_BUFFER, SIDES, _static, kernel_args
from labkit.encounter.sim.runner import Row, outcome_row
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.status import EndReason

__all__ = ["play_outcomes", "outcome_row_fast", "kernel_args", "FIRST_BUFFER"]

# the kernel's end codes 0, 1, 2, spelled as the session spells them (one definition)
_END = (str(EndReason.VICTORY), str(EndReason.STEP_LIMIT), str(EndReason.MUTUAL_DEATH))


def _shipped(settings: SimulationSettings) -> bool:
    from labkit.encounter.sim import policy

    shipped = {"scavenger": policy.ScavengerPolicy, "hunter": policy.HunterPolicy,
               "random": policy.RandomPolicy}  # fmt: skip
    return all(policy.POLICIES.get(p) is shipped.get(p) for p in settings.policies)


def outcome_row_fast(settings: SimulationSettings) -> Row:
    """:func:`~labkit.encounter.sim.runner.outcome_row`, played by the numba kernel.

    Examples
    --------
    >>> from labkit.encounter.sim.runner import outcome_row
    >>> settings = SimulationSettings(seed=3, max_steps=30)
    >>> outcome_row_fast(settings) == outcome_row(settings)
    True
    """
    return _play(settings, settings.seed, settings.map_seed)


def _play(settings: SimulationSettings, seed: int, map_seed: int, static: tuple = ()) -> Row:
    """One game of ``settings`` with these (already checked) seeds."""
    if not _shipped(settings):
        return outcome_row(settings.replace(seed=seed, map_seed=map_seed))
    size = FIRST_BUFFER
    while True:  # a game that runs out of pre-drawn numbers is replayed with longer buffers
        args = kernel_args(settings, seed, map_seed, size, static)
        gk.play_game(*args)
        out = args[-1]
        if out[0] == gk.OK:
            break
        size *= 4
    n = (out.size - 6) // 2
    return (
        SIDES[out[1]] if out[1] >= 0 else "",
        _END[out[2]],
        int(out[3]),
        int(out[4]),
        int(out[5]),
        tuple(bool(v) for v in out[6 : 6 + n]),
        tuple(int(v) for v in out[6 + n :]),
    )


def play_outcomes(docs: Mapping[int, dict], jobs: Sequence[tuple[int, int, int, int]]) -> list:
    """Play ``jobs`` outcome-only; rows as :func:`~labkit.encounter.sim.batch.play_chunk` gives."""
    base = {k: SimulationSettings.from_dict(doc) for k, doc in docs.items()}
    static = {k: _static(s) if _shipped(s) else () for k, s in base.items()}
    return [(i, *_play(base[k], seed, map_seed, static[k])) for i, k, seed, map_seed in jobs]
