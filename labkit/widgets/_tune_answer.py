"""A tune's answer in the designer's words (BalanceTuner's answer line).

:meth:`labkit.encounter.Tuned.summary` speaks the API's terms (``/characters/monster/life``,
``npc_win = 0.5``, rates as shares); the app says the same thing through the glossary: the
parameter and metric in words with units, rates in per cent, whole values as whole numbers. The
domain package cannot import the glossary (widgets sit above it), hence this module.

Examples
--------
>>> from types import SimpleNamespace
>>> import pandas as pd
>>> whole = pd.DataFrame({"value": [4.0, 5.0], "n": [400, 400], "rate": [0.536, 0.42],
...                       "lo": [0.487, 0.372], "hi": [0.585, 0.469]})
>>> t = SimpleNamespace(parameter="/characters/monster/life", metric="npc_win", target=0.5,
...                     reachable=True, integer=True, hits=False, value=4.0, whole=whole,
...                     root=4.31, root_ci=(4.1, 4.5), games=800)
>>> print(tune_answer(t))  # doctest: +NORMALIZE_WHITESPACE
no whole value of monster life (wounds it takes) gives NPC win rate 50 %: 4 gives 53.6 %
(95 % interval 48.7–58.5 %); 5 gives 42.0 % (95 % interval 37.2–46.9 %); nearest 4
(the rate crosses 50 % at 4.31, 95 % interval 4.10–4.50; 800 games)
"""

from __future__ import annotations

from typing import Any

from labkit.widgets.glossary import parameter_words, words

__all__ = ["tune_answer"]


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def _span(lo: float, hi: float) -> str:
    return f"95 % interval {100 * lo:.1f}–{100 * hi:.1f} %"


def tune_answer(t: Any) -> str:
    """What a :class:`labkit.encounter.Tuned` found, in one line of designer words."""
    what, metric = parameter_words(t.parameter), words(t.metric)
    goal = f"{_pct(t.target).replace('.0 %', ' %')}"
    if not t.reachable:
        v, r = t.closest
        value = f"{v:.0f}" if t.integer else f"{v:.3g}"
        return (f"{metric} {goal} is out of reach for {what} between the bounds: the "
                f"closest, {value}, gives {_pct(r)} ({t.games:,} games)")  # fmt: skip
    if not t.integer:
        lo, hi = t.ci
        return (f"{what} = {t.value:.3f} gives {metric} {goal} (95 % interval "
                f"{lo:.3f}–{hi:.3f}; {t.games:,} games)")  # fmt: skip
    crossing = (f"the rate crosses {goal} at {t.root:.2f}, 95 % interval {t.root_ci[0]:.2f}–"
                f"{t.root_ci[1]:.2f}; {t.games:,} games")  # fmt: skip
    sides = "; ".join(
        f"{r.value:.0f} gives {_pct(r.rate)} ({_span(r.lo, r.hi)})" for r in t.whole.itertuples()
    )
    if t.hits:
        return (f"{what} = {t.value:.0f} gives {metric} {goal} within its interval: "
                f"{sides} ({crossing})")  # fmt: skip
    return (f"no whole value of {what} gives {metric} {goal}: {sides}; nearest "
            f"{t.value:.0f} ({crossing})")  # fmt: skip
