"""A tune's answer in the designer's words (BalanceTuner's answer line).

:meth:`labkit.encounter.Tuned.summary` speaks the API's terms (``/characters/monster/life``,
``npc_win = 0.5``, rates as shares); the app says the same thing through the glossary: the
parameter and metric in words with units, rates in per cent, whole values as whole numbers. The
domain package cannot import the glossary (widgets sit above it), hence this module.

Examples
--------
>>> from types import SimpleNamespace
>>> import pandas as pd
>>> whole = pd.DataFrame({"value": [4.0, 5.0], "n": [4000, 3000], "rate": [0.536, 0.427],
...                       "lo": [0.521, 0.409], "hi": [0.551, 0.445],
...                       "verdict": ["off", "off"]})
>>> t = SimpleNamespace(parameter="/characters/monster/life", metric="npc_win", target=0.5,
...                     reachable=True, integer=True, hits=False, value=4.0, whole=whole,
...                     root=4.31, root_ci=(4.1, 4.5), games=7000, precision=0.02,
...                     settled=True)
>>> print(tune_answer(t))  # doctest: +NORMALIZE_WHITESPACE
no whole value of monster life (wounds it takes) gives NPC win rate within ±2 points of 50 %:
4 gives 53.6 % (95 % interval 52.1–55.1 %, 4,000 games); 5 gives 42.7 % (95 % interval
40.9–44.5 %, 3,000 games); nearest 4 (the rate crosses 50 % at 4.31, 95 % interval 4.10–4.50;
7,000 games in all)
"""

from __future__ import annotations

from typing import Any

from labkit.widgets.glossary import parameter_words, words

__all__ = ["tune_answer"]


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def _side(r: Any) -> str:
    """One whole value: its rate, the rate's 95 % interval and the games it was measured on."""
    if not r.n:
        return f"{r.value:.0f} was not played"
    return (f"{r.value:.0f} gives {_pct(r.rate)} (95 % interval {100 * r.lo:.1f}–"
            f"{100 * r.hi:.1f} %, {r.n:,} games)")  # fmt: skip


def tune_answer(t: Any) -> str:
    """What a :class:`labkit.encounter.Tuned` found, in one line of designer words."""
    what, metric = parameter_words(t.parameter), words(t.metric)
    goal = f"{_pct(t.target).replace('.0 %', ' %')}"
    if not t.reachable:
        v, r = t.closest
        value = f"{v:.0f}" if t.integer else f"{v:.3g}"
        return (f"{metric} {goal} is out of reach for {what} between the bounds: the "
                f"closest, {value}, gives {_pct(r)} ({t.games:,} games)")  # fmt: skip
    if not t.integer or t.whole is None:
        lo, hi = t.ci
        return (f"{what} = {t.value:.3f} gives {metric} {goal} (95 % interval "
                f"{lo:.3f}–{hi:.3f}; {t.games:,} games)")  # fmt: skip
    crossing = (f"the rate crosses {goal} at {t.root:.2f}, 95 % interval {t.root_ci[0]:.2f}–"
                f"{t.root_ci[1]:.2f}; {t.games:,} games in all")  # fmt: skip
    band = f"within ±{100 * t.precision:g} points of {goal}"
    sides = "; ".join(_side(r) for r in t.whole.itertuples())
    if t.hits:
        return f"{what} = {t.value:.0f} gives {metric} {band}: {sides} ({crossing})"
    if t.settled:
        return (f"no whole value of {what} gives {metric} {band}: {sides}; nearest "
                f"{t.value:.0f} ({crossing})")  # fmt: skip
    return (f"{t.games:,} games were too few to tell whether a whole value of {what} gives "
            f"{metric} {band} (raise games ≤ or the seeds): {sides}; nearest so far "
            f"{t.value:.0f} ({crossing})")  # fmt: skip
