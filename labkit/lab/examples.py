"""A designer's own small game, for the docs, the tests and the benchmarks: a dice duel.

Two fighters with ``hp`` hit points take turns, the attacker first; each turn the one whose
turn it is rolls a six-sided die and hits on 4, 5 or 6 for ``damage``. The first to bring the
other to 0 wins. The one outcome, ``attacker_win``, is a rate. The dice come from a small
linear congruential generator seeded with ``seed`` (so the plain-Python and the numba versions
roll the same dice, bit for bit; a real game would use ``numpy.random.default_rng(seed)``).

Examples
--------
>>> import numpy as np
>>> g = dice_duel()
>>> [k.name for k in g.knobs], [o.name for o in g.outcomes]
(['hp', 'damage'], ['attacker_win'])
>>> play_duel(hp=1, damage=1, seed=0) in (0.0, 1.0)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labkit.lab.game import Game

__all__ = ["play_duel", "dice_duel", "KNOBS", "OUTCOMES"]

#: The duel's knobs and outcome, as a designer writes them.
KNOBS: dict[str, Any] = {
    "hp": {"low": 1, "high": 50, "whole": True, "words": "hit points", "unit": "hp"},
    "damage": {"low": 1, "high": 10, "whole": True, "words": "damage per hit", "unit": "hp"},
}
OUTCOMES: dict[str, Any] = {"attacker_win": {"kind": "rate", "words": "attacker win rate"}}

_M = 2147483647  # the Park-Miller modulus: products stay below 2**63 (numba's int64)


def play_duel(hp: int, damage: int, seed: int) -> float:
    """One duel: 1.0 when the attacker (who rolls first) wins, else 0.0."""
    x = (seed % 3037000493 * 2654435761 + 12345) % _M or 1
    a, b, turn = hp, hp, 0
    while a > 0 and b > 0:
        x = x * 48271 % _M
        if x * 6 // _M >= 3:  # a roll of 4, 5 or 6
            if turn == 0:
                b -= damage
            else:
                a -= damage
        turn = 1 - turn
    return 1.0 if b <= 0 else 0.0


def dice_duel(jit: bool = False) -> Game:
    """The dice duel as a :class:`~labkit.lab.Game`; ``jit=True`` plays it through numba."""
    from labkit.lab.game import Game

    play: Any = play_duel
    if jit:
        import numba

        play = numba.njit(nogil=True)(play_duel)
    return Game.from_function("dice duel", play, knobs=KNOBS, outcomes=OUTCOMES)
