"""Telemetry that cannot be true (issue 46): attempts after a win, and gaps in attempt numbers.

A player's attempts at one level are numbered 1, 2, 3, ... and end at the first win (a won
board is cleared: there is nothing to retry). So, per ``(level, player)``, in attempt order:

* **after a win** — an attempt that follows a won one (a replay logged as a retry, or rows of
  two players merged under one id);
* **gap** — attempt ``k`` without attempt ``k - 1`` (rows lost on the way; ``k == 1`` missing
  included), or a duplicate number (the loaders refuse those on their own).

Skipping a level is not impossible (some games allow it), nor is starting a campaign at a later
level (:func:`mid_campaign` counts such players: the fit states them, it does not refuse them).

``impossible="refuse"`` (the default of every loader and of the fit) refuses the first such row
in input order, naming it and its player; ``"count"`` keeps the rows and counts them.

Examples
--------
>>> import numpy as np
>>> f = find(np.array([0, 0, 0]), np.array([0, 0, 1]), np.array([1, 2, 2]),
...          np.array([True, False, False]))
>>> f.counts, f.first, f.kind
({'after_win': 1, 'gaps': 1}, 1, 'after_win')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError

CHOICES = ("refuse", "count")


def check_choice(impossible: Any) -> str:
    """``impossible`` as given, if it is one of :data:`CHOICES`."""
    if not isinstance(impossible, str) or impossible not in CHOICES:
        raise ArgumentError("must be 'refuse' or 'count'", argument="impossible",
                            value=impossible)  # fmt: skip
    return impossible


@dataclass(frozen=True)
class Finding:
    """Counts per kind; the first impossible row in input order (None: none) and its facts."""

    counts: dict[str, int]
    first: int | None = None
    kind: str = ""
    attempt: int = 0
    before: int = 0  # the attempt number before it at that level (0: none)

    def words(self, player: str, level: str) -> str:
        """The first impossible row in one line (without where it is)."""
        who = f"player {player!r}, level {level!r}"
        if self.kind == "after_win":
            what = f"an attempt after a win ({who}: attempt {self.attempt} follows a won attempt)"
        elif self.before:
            what = f"attempt {self.attempt} follows attempt {self.before} ({who}: a gap)"
        else:
            what = f"attempt {self.attempt} with no attempt 1 before it ({who}: a gap)"
        return f"{what}; impossible='count' keeps such rows and counts them"


#: Rows looked at together: a larger table is cut into ranges of player codes of about this many
#: rows (a ``(level, player)`` group never spans two), so the sort's memory is a block's, not
#: the table's (10^7 rows at once took 1.1 GB on top of the table).
BLOCK = 1 << 21


def find(level: NDArray, player: NDArray, attempt: NDArray, won: NDArray) -> Finding:
    """The impossible rows of one table (codes per row; any integer codes >= 0)."""
    n = len(attempt)
    player = np.asarray(player)
    if n <= BLOCK or int(player.max()) >= 4 * n:  # (sparse codes: a count per code is no gain)
        return _find(level, player, attempt, won)
    per = np.cumsum(np.bincount(player))  # rows of the players up to each code
    cuts = np.unique(np.r_[0, np.searchsorted(per, np.arange(BLOCK, n, BLOCK)) + 1, len(per)])
    counts = {"after_win": 0, "gaps": 0}
    first: tuple[int, Finding] | None = None
    for a, b in zip(cuts[:-1], cuts[1:]):
        rows = np.flatnonzero((player >= a) & (player < b))
        part = _find(np.asarray(level)[rows], player[rows], np.asarray(attempt)[rows],
                     np.asarray(won)[rows])  # fmt: skip
        counts = {k: counts[k] + part.counts[k] for k in counts}
        if part.first is not None and (first is None or rows[part.first] < first[0]):
            first = (int(rows[part.first]), part)
    if first is None:
        return Finding(counts)
    at, part = first
    return Finding(counts, at, part.kind, part.attempt, part.before)


def _find(level: NDArray, player: NDArray, attempt: NDArray, won: NDArray) -> Finding:
    """:func:`find` on rows small enough to sort at once."""
    n = len(attempt)
    if n == 0:
        return Finding({"after_win": 0, "gaps": 0})
    level = np.asarray(level, dtype=np.int64)
    player = np.asarray(player, dtype=np.int64)
    att = np.asarray(attempt, dtype=np.int64)
    key = level * (int(player.max()) + 1) + player
    order = np.lexsort((att, key))  # by (level, player), then attempt; stable
    ks, at = key[order], att[order]
    w = np.asarray(won, dtype=bool)[order].astype(np.int64)
    start = np.empty(n, dtype=bool)
    start[0] = True
    np.not_equal(ks[1:], ks[:-1], out=start[1:])
    prev = np.empty(n, dtype=np.int64)
    prev[0] = 0
    prev[1:] = at[:-1]
    prev[start] = 0
    gap = at != prev + 1
    wins = np.cumsum(w) - w  # wins before each row, over the whole sorted table
    group = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    after = (wins - wins[group]) > 0
    bad = gap | after
    counts = {"after_win": int(after.sum()), "gaps": int(gap.sum())}
    if not bad.any():
        return Finding(counts)
    where = np.flatnonzero(bad)
    k = int(where[np.argmin(order[where])])  # the first in input order
    kind = "after_win" if after[k] else "gap"
    return Finding(counts, int(order[k]), kind, int(at[k]), int(prev[k]))


def mid_campaign(level: NDArray, player: NDArray, n_players: int) -> int:
    """Players whose first level (the lowest campaign index they played) is not the first."""
    if len(level) == 0:
        return 0
    first = np.full(n_players, np.iinfo(np.int64).max)
    np.minimum.at(first, np.asarray(player, dtype=np.int64), np.asarray(level, dtype=np.int64))
    played = first < np.iinfo(np.int64).max
    return int((first[played] > 0).sum())
