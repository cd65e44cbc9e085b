"""The ProbabilityExplorer's table rule check and goal seeking, in the app's own terms.

Both work on what the sliders show (whole percent, index −4…+4), so their messages can quote the
screen: "hit % at +3 = 68 %", never a JSON pointer counted from 0 or a fraction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.rules.tables import INDICES


def table_problem(
    tables: Mapping[str, Sequence[int]], changed: tuple[str, int] | None = None
) -> str | None:
    """What breaks "each entry higher than the one to its left", named as on screen, or None.

    ``tables`` maps "hit"/"pursuit" to the 9 slider values (percent); ``changed`` is the slider
    just moved (name, position 0–8): that is the one blamed when it is part of the break.

    Examples
    --------
    >>> hit = [2, 4, 8, 14, 20, 30, 45, 60, 75]
    >>> table_problem({"hit": hit}) is None
    True
    >>> print(table_problem({"hit": hit[:7] + [68, 75]}, changed=("hit", 7)))
    None
    >>> msg = table_problem({"hit": hit[:7] + [80, 75]}, changed=("hit", 7))
    >>> msg.split(":")[0], "(+2 is 45 %, +4 is 75 %)" in msg
    ('hit % at +3 = 80 %', True)
    """
    for name, values in tables.items():
        v = list(values)
        for i in range(1, len(v)):
            if v[i] > v[i - 1]:
                continue
            j = i
            if changed is not None and changed[0] == name and changed[1] in (i - 1, i):
                j = changed[1]
            left = f"{INDICES[j - 1]:+d} is {v[j - 1]} %" if j > 0 else ""
            right = f"{INDICES[j + 1]:+d} is {v[j + 1]} %" if j + 1 < len(v) else ""
            around = ", ".join(x for x in (left, right) if x)
            return (
                f"{name} % at {INDICES[j]:+d} = {v[j]} %: each {name} % must be higher than the "
                f"one to its left and lower than the one to its right ({around}); the sliders "
                f"are back at the last valid table"
            )
    return None


HOW = ("exactly", "at least", "at most")


def solve(
    table: Sequence[int],
    hit_level: int,
    agility: int,
    target: float,
    what: str,
    side: str = "a",
    how: str = "exactly",
) -> dict[str, Any]:
    """Which B agility, A hit level or hit-table entry gives the attacker ``target`` % to hit.

    The chance is ``table[clamp(hit_level − agility, −4, 4)]`` (percent, as the sliders show).
    For ``what`` = "agility" or "hit level" the answer is the value whose index gives the chance
    nearest to ``target`` (exact when one entry equals it, else the two values around it are
    named); at the clamped ends a whole range of values gives the same chance. For "table entry"
    the entry at the current index is the answer when setting it to ``target`` keeps the table
    increasing.

    Returns a dict: ``what``, ``value`` (agility / hit level / percent), ``index``, ``chance``,
    ``exact``, ``feasible`` and a one-line ``text`` for the app.

    Examples
    --------
    >>> hit = [2, 4, 8, 14, 20, 30, 45, 60, 75]
    >>> r = solve(hit, hit_level=3, agility=2, target=45, what="agility")
    >>> r["value"], r["chance"], r["exact"]
    (1, 45, True)
    >>> print(solve(hit, 3, 2, 50, "agility")["text"])
    no agility gives exactly 50 %: B agility 1 gives 45 %, B agility 0 gives 60 % (A's hit level 3)
    >>> solve(hit, 3, 2, 25, "table entry")["feasible"]
    True

    ``how`` = "at least" / "at most" names the range of values whose chance is at least / at
    most ``target`` (``value`` is its boundary):

    >>> print(solve(hit, 3, 2, 50, "agility", how="at least")["text"])
    B agility ≤ 0 gives at least 50 % (B agility 0 gives 60 %; A's hit level 3)
    >>> print(solve(hit, 3, 2, 50, "hit level", how="at most")["text"])
    A hit level ≤ 4 gives at most 50 % (A hit level 4 gives 45 %; B's agility 2)
    """
    if how not in HOW:
        raise ArgumentError("must be 'exactly', 'at least' or 'at most'", argument="how",
                            value=how)  # fmt: skip
    t = np.asarray(table, dtype=float)
    other, me = ("B", "A") if side == "a" else ("A", "B")
    now = int(np.clip(hit_level - agility, -4, 4))
    if what == "table entry":
        k = now + 4
        lo = t[k - 1] if k > 0 else -1.0
        hi = t[k + 1] if k < 8 else 101.0
        ok = bool(lo < target < hi)
        text = (
            f"set hit % at {now:+d} to {target:g} % (the {me} vs {other} matchup uses index "
            f"{now:+d})"
            if ok
            else f"hit % at {now:+d} cannot be {target:g} %: it must lie between its neighbours "
            f"({lo:g} % and {hi:g} %)"
        )
        return {"what": what, "value": target, "index": now, "chance": target,
                "exact": ok, "feasible": ok, "text": text}  # fmt: skip
    if what not in ("agility", "hit level"):
        raise ArgumentError("must be 'agility', 'hit level' or 'table entry'", argument="what",
                            value=what)  # fmt: skip
    best = int(np.argmin(np.abs(t - target)))
    exact = bool(abs(t[best] - target) < 1e-9)

    def value_at(k: int) -> int:
        i = k - 4
        return hit_level - i if what == "agility" else agility + i

    def name(k: int) -> str:
        v = value_at(k)
        edge = (k == 0 and what == "agility") or (k == 8 and what == "hit level")
        low_edge = (k == 8 and what == "agility") or (k == 0 and what == "hit level")
        v_text = f"≥ {v}" if edge else f"≤ {v}" if low_edge else f"{v}"
        who = f"{other} agility" if what == "agility" else f"{me} hit level"
        return f"{who} {v_text} gives {t[k]:g} %"

    fixed = f"{me}'s hit level {hit_level}" if what == "agility" else f"{other}'s agility {agility}"
    who = f"{other} agility" if what == "agility" else f"{me} hit level"
    if how != "exactly":
        # The chance grows with the index (hit level − agility): "at least" holds from the
        # lowest index reaching the target up, "at most" up to the highest index not above it.
        reach = [k for k in range(9) if (t[k] >= target if how == "at least" else t[k] <= target)]
        if not reach:
            text = (f"no {what} gives {how} {target:g} %: the table runs from {t[0]:g} % to "
                    f"{t[8]:g} % ({fixed})")  # fmt: skip
            return {"what": what, "value": None, "index": None, "chance": None,
                    "exact": False, "feasible": False, "text": text}  # fmt: skip
        k = reach[0] if how == "at least" else reach[-1]
        v = value_at(k)
        up = (how == "at least") == (what == "hit level")  # which side of v the range lies
        if (how == "at least" and k == 0) or (how == "at most" and k == 8):
            text = f"any {who} gives {how} {target:g} % ({fixed})"
        else:
            text = (f"{who} {'≥' if up else '≤'} {v} gives {how} {target:g} % "
                    f"({who} {v} gives {t[k]:g} %; {fixed})")  # fmt: skip
        return {"what": what, "value": v, "index": k - 4, "chance": int(t[k]),
                "exact": bool(t[k] == target), "feasible": True, "text": text}  # fmt: skip
    if exact:
        text = f"{name(best)} ({fixed})"
    else:
        below = [k for k in range(9) if t[k] < target]
        above = [k for k in range(9) if t[k] > target]
        around = [name(k) for k in (below[-1:] + above[:1])]
        text = f"no {what} gives exactly {target:g} %: {', '.join(around)} ({fixed})"
    return {"what": what, "value": value_at(best), "index": best - 4, "chance": int(t[best]),
            "exact": exact, "feasible": True, "text": text}  # fmt: skip


#: The goal-seek row's choices when the app starts (to_code writes only those moved from them).
_ROW_START: dict[str, Any] = {"how": "exactly", "target": 50, "what": "agility", "side": "a"}


class GoalSeek:
    """The explorer's goal-seeking row: target %, what to solve for, whose blow; pin/compare."""

    def __init__(self, W: Any, app: Any) -> None:
        from labkit.widgets._controls import WIDE

        self.target = W.BoundedIntText(_ROW_START["target"], min=0, max=100, style=WIDE,
                                       description="target hit %",
                                       layout=W.Layout(width="160px"))  # fmt: skip
        self.what = W.Dropdown(options=["agility", "hit level", "table entry"],
                               description="solve for", style=WIDE,
                               layout=W.Layout(width="200px"))  # fmt: skip
        self.how = W.Dropdown(options=list(HOW), description="", style=WIDE,
                              layout=W.Layout(width="100px"))  # fmt: skip
        self.side = W.Dropdown(options=[("A's blow", "a"), ("B's blow", "b")], style=WIDE,
                               description="of", layout=W.Layout(width="140px"))  # fmt: skip
        self.button = W.Button(description="solve", icon="bullseye",
                               layout=W.Layout(width="90px"))  # fmt: skip
        self.pin = W.Button(
            description="pin this version",
            layout=W.Layout(width="140px"),
            tooltip="keep the balance in force now to compare with edits",
        )
        self.unpin = W.Button(description="unpin", layout=W.Layout(width="70px"))
        self.apply = W.Button(description="apply", icon="check", layout=W.Layout(width="80px"),
                              tooltip="put the answer into the app: the hit % entry, or the "
                                      "loadout that gives the agility or hit level")  # fmt: skip
        self.answer = W.HTML()
        self.applied = W.HTML()
        self.button.on_click(lambda _: app.solve_for(self.target.value, self.what.value,
                                                     self.side.value, self.how.value))  # fmt: skip
        self.apply.on_click(lambda _: app.apply_goal())
        self.pin.on_click(lambda _: app.pin())
        self.unpin.on_click(lambda _: app.unpin())
        row = [self.how, self.target, self.what, self.side, self.button, self.apply, self.pin,
               self.unpin]  # fmt: skip
        self.box = W.VBox([W.HBox(row, layout=W.Layout(flex_flow="row wrap")), self.answer,
                           self.applied])  # fmt: skip

    def show(self, choice: dict[str, Any]) -> None:
        """Set the row to a goal asked in code (``solve_for``), so the row shows what was asked."""
        self.target.value = int(round(choice["target"]))
        for key in ("what", "side", "how"):
            getattr(self, key).value = choice[key]

    def code_lines(self, solved: bool) -> list[str]:
        """``app.goal.<choice>.value = …`` for each choice moved from its start, and a click on
        solve when an answer is shown (it is recomputed from the row as it stands)."""
        moved = [key for key, start in _ROW_START.items() if getattr(self, key).value != start]
        lines = [f"app.goal.{key}.value = {getattr(self, key).value!r}" for key in moved]
        return [*lines, "app.goal.button.click()"] if solved else lines
