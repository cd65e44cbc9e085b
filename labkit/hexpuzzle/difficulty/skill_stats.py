"""Sufficient statistics of the skill fit (private): telemetry rows to indices, and players with
identical histories collapsed into one weighted row.

The skill model's likelihood is a product over players, and a player enters it only through
its counts per item (:class:`.skill_joint.Events`). Players with the same counts — a player who
lost level 1 and quit, a player who won the first three levels and quit — contribute the same
factor, so each distinct history is computed once and counted ``weight`` times. In telemetry of
a live game most players leave early, so this shrinks the work of every likelihood evaluation
(on 10⁷ attempts by 850,000 players: see the closing note of issue 31) without changing the
likelihood: the fit is the same function of the same data.

:func:`collapse` is exact: histories are grouped by a 64-bit hash of their entries and every
player's entries are then compared with its group's first player; a player that differs (a
hash collision) keeps a row of its own.

:func:`level_player_rows` turns the ``level`` and ``player`` text columns into indices with
Arrow's hash tables (no Python string per row, no sort of 10⁷ strings); :func:`fit_rows` does
the same for loaded telemetry from its compact codes (:class:`.telemetry_columns.Columns`),
without building the structured table at all.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit.hexpuzzle.difficulty import skill_joint as J
from labkit.hexpuzzle.difficulty.skill_joint import Events
from labkit.hexpuzzle.difficulty.skill_quit import ATTEMPT_CAP

#: Rows of the text columns handed to Arrow at a time (bounds the UTF-8 copies).
TEXT_BLOCK = 1 << 20
#: Rows of telemetry turned into events at a time.
EVENT_BLOCK = 1 << 20
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(h: NDArray) -> NDArray:
    """splitmix64's finaliser: a well-spread 64-bit hash of ``h`` (uint64, wraps)."""
    h = (h ^ (h >> np.uint64(30))) * _M1
    h = (h ^ (h >> np.uint64(27))) * _M2
    return h ^ (h >> np.uint64(31))


def _chunks(indptr: NDArray, size: int) -> list[tuple[int, int]]:
    """Ranges ``(a, b)`` of whole players with about ``size`` entries each."""
    n = len(indptr) - 1
    cuts = np.searchsorted(indptr, np.arange(size, indptr[-1], size))
    bounds = np.unique(np.r_[0, np.minimum(cuts, n), n])
    return list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))


def collapse(ev: Events, *, own: bool = False) -> Events:
    """``ev`` with players of identical histories merged into one row each (``weight``: how
    many; ``inverse``: each player's row; rows in order of their first player). Rows that
    already stand for several players (a collapsed part) are merged the same way. The work per
    entry runs :data:`EVENT_BLOCK` entries at a time (its memory is a block's). ``own``: ``ev``
    is the caller's to spend, each of its columns let go as soon as its merged copy is made
    (the table's events are then never held twice over)."""
    n = ev.n_players
    length = np.diff(ev.indptr)
    if n == 0 or (length == 0).any():
        return ev
    chunks = _chunks(ev.indptr, EVENT_BLOCK)
    key = np.empty(n, np.uint64)
    for a, b in chunks:
        e0, e1 = int(ev.indptr[a]), int(ev.indptr[b])
        starts, ln = ev.indptr[a:b] - e0, length[a:b]
        pos = np.arange(e1 - e0) - np.repeat(starts, ln)
        with np.errstate(over="ignore"):
            h = _mix(ev.item[e0:e1].astype(np.uint64) * np.uint64(1_000_003)
                     + pos.astype(np.uint64))  # fmt: skip
            del pos
            h = _mix(h ^ ev.y1[e0:e1].view(np.uint64)) ^ _mix(
                ev.y0[e0:e1].view(np.uint64) + np.uint64(7)
            )
            key[a:b] = _mix(np.add.reduceat(h, starts) ^ ln.astype(np.uint64))
        del h
    _, first, group = np.unique(key, return_index=True, return_inverse=True)
    group = group.ravel()
    rep = first[group]
    del key, first, group
    # exact check: every entry equals its group's first player's entry at the same place
    bad = np.empty(n, bool)
    last = len(ev.item) - 1
    for a, b in chunks:
        e0, e1 = int(ev.indptr[a]), int(ev.indptr[b])
        r, ln = rep[a:b], length[a:b]
        at = np.repeat(ev.indptr[r] - ev.indptr[a:b], ln) + np.arange(e0, e1)
        np.minimum(at, last, out=at)
        differ = ev.item[at] != ev.item[e0:e1]
        differ |= ev.y1[at] != ev.y1[e0:e1]
        differ |= ev.y0[at] != ev.y0[e0:e1]
        del at
        bad[a:b] = (ln != length[r]) | (
            np.add.reduceat(differ.astype(np.int64), ev.indptr[a:b] - e0) > 0
        )
        del differ
    if bad.any():  # a collision: those players keep rows of their own
        rep = np.where(bad, np.arange(n), rep)
    reps, row = np.unique(rep, return_inverse=True)  # rows in order of their first player
    row = row.ravel()
    weight = np.bincount(row, weights=ev.weight, minlength=len(reps))
    if ev.inverse is not None:
        row = row[ev.inverse]
    if len(reps) == n:  # no two histories alike (players who go far): the rows as they are
        return Events(
            ev.n_levels, n, ev.indptr, ev.item, ev.y1, ev.y0, ev.x, ev.counts, ev.n_decisions,
            ev.n_quits, weight, row.astype(np.int64), ev.patterns,
        )  # fmt: skip
    lo, ln = ev.indptr[reps], length[reps]
    indptr = np.r_[0, np.cumsum(ln)].astype(np.int64)
    take = np.repeat(lo - indptr[:-1], ln) + np.arange(indptr[-1])
    kept = {}
    for name in ("item", "y1", "y0"):
        kept[name] = getattr(ev, name)[take]
        if own:
            setattr(ev, name, kept[name])  # the full column goes (nothing else holds it)
    return Events(
        ev.n_levels, len(reps), indptr, kept["item"], kept["y1"], kept["y0"], ev.x,
        ev.counts, ev.n_decisions, ev.n_quits, weight, row.astype(np.int64), ev.patterns,
    )  # fmt: skip


def player_events(level, player, attempt, won, n_levels, n_players, *, retries, dropout):
    """:func:`.skill_joint.events`, collapsed (:func:`collapse`), built from blocks of about
    :data:`EVENT_BLOCK` rows of whole players: the preparation's memory is a block's, not the
    table's (the events of 10⁷ rows would take gigabytes at once). Rows already in player
    order are not copied (the fit sorts them first, letting each original column go)."""
    if len(level) <= EVENT_BLOCK:
        return collapse(J.events(level, player, attempt, won, n_levels, n_players,
                                 retries=retries, dropout=dropout))  # fmt: skip
    if (np.diff(player) < 0).any():  # a player's rows together (their order does not matter)
        order = np.argsort(player, kind="stable")
        level, player, attempt, won = level[order], player[order], attempt[order], won[order]
        del order
    played = np.flatnonzero(np.bincount(level, minlength=n_levels))
    ends = (int(played[-1]), len(played))  # the campaign's end is everyone's
    cuts = np.searchsorted(player, player[np.arange(EVENT_BLOCK, len(player), EVENT_BLOCK)])
    bounds = np.unique(np.r_[0, cuts, len(player)])
    parts = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        p1 = n_players if b == len(player) else int(player[b - 1]) + 1
        lo = int(player[a - 1]) + 1 if a else 0  # players without rows belong to this part
        ev = J.events(level[a:b], player[a:b] - lo, attempt[a:b], won[a:b], n_levels, p1 - lo,
                      retries=retries, dropout=dropout, ends=ends)  # fmt: skip
        parts.append(collapse(ev))
        del ev
    return collapse(_join(parts, n_levels, n_players), own=True)


def _join(parts: list[Events], n_levels: int, n_players: int) -> Events:
    """Parts of consecutive players as one :class:`Events` (decision patterns renumbered).
    ``parts`` is emptied: each field's pieces are let go once joined."""
    nr = n_levels * ATTEMPT_CAP
    pats = np.unique(np.concatenate([e.patterns for e in parts if e.patterns is not None]))
    items, inverse, offset = [], [], 0
    for e in parts:
        item = e.item  # renumbered in place: the parts are this function's to spend
        dec = item >= nr
        if dec.any() and e.patterns is not None:
            item[dec] = nr + np.searchsorted(pats, e.patterns)[item[dec] - nr]
        items.append(item)
        inv = np.arange(e.n_players) if e.inverse is None else e.inverse
        inverse.append(inv + offset)
        offset += e.n_players
    lengths = np.concatenate([np.diff(e.indptr) for e in parts])
    y1s, y0s = [e.y1 for e in parts], [e.y0 for e in parts]
    weights = [e.weight for e in parts if e.weight is not None]
    x = J.pattern_design(pats, n_levels) if len(pats) else parts[0].x
    counts = np.sum([e.counts for e in parts], axis=0)
    n_dec, n_quit = sum(e.n_decisions for e in parts), sum(e.n_quits for e in parts)
    parts.clear()

    def joined(pieces: list[NDArray]) -> NDArray:
        out = np.concatenate(pieces)
        pieces.clear()
        return out

    inv_all = joined(inverse)
    assert len(inv_all) == n_players
    item_all = joined(items)
    return Events(
        n_levels, offset, np.r_[0, np.cumsum(lengths)].astype(np.int64), item_all, joined(y1s),
        joined(y0s), x, counts, n_dec, n_quit, joined(weights), inv_all, pats,
    )  # fmt: skip


def _codes(column: NDArray, words: Any = None) -> tuple[NDArray, Any]:
    """Indices of a text column into ``words`` (an Arrow array; -1 where absent), or, without
    ``words``, into its own distinct values (returned, in first-seen order)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    parts = [pa.array(column[a : a + TEXT_BLOCK], type=pa.string())
             for a in range(0, len(column), TEXT_BLOCK)]  # fmt: skip
    text = pa.chunked_array(parts, type=pa.string())
    if words is not None:
        idx = pc.index_in(text, value_set=words)
        return pc.fill_null(idx, -1).to_numpy().astype(np.int64), words
    enc = pc.dictionary_encode(text).combine_chunks()  # one dictionary over every block
    return enc.indices.to_numpy(zero_copy_only=False).astype(np.int64), enc.dictionary


def level_player_rows(table: NDArray, ids: list[str]) -> tuple[NDArray, NDArray, NDArray]:
    """``(level index or -1, player index, player ids sorted)`` of every row of ``table``."""
    import pyarrow as pa

    level, _ = _codes(table["level"], pa.array(ids, type=pa.string()))
    code, names = _codes(table["player"])
    return (level, *_ranked(code, names))


def _ranked(code: NDArray, names: Any) -> tuple[NDArray, NDArray]:
    """Codes into ``names`` (Arrow) as indices into ``names`` sorted, and the sorted ids."""
    players = np.asarray(names.to_numpy(zero_copy_only=False), dtype=str)
    order = np.argsort(players, kind="stable")
    rank = np.empty(len(order), code.dtype)
    rank[order] = np.arange(len(order))
    return rank[code] if len(code) else code, players[order]


def fit_rows(
    telemetry: Any, ids: list[str]
) -> tuple[Any, NDArray, NDArray, NDArray, NDArray, NDArray]:
    """``(source, level index or -1, player index, player ids sorted, attempt, won)`` of
    telemetry, what the fit reads. A loaded :class:`~.telemetry_file.Telemetry` whose table
    has not been built is read from its compact rows (``int32``; ``source`` is the document
    itself, its table built only if a report asks for it); anything else through
    :func:`~.telemetry.as_table` (``source`` is that table)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from labkit.hexpuzzle.difficulty.telemetry import as_table
    from labkit.hexpuzzle.difficulty.telemetry_file import Telemetry

    if isinstance(telemetry, Telemetry) and telemetry._columns is not None:
        c = telemetry._columns
        where = pc.index_in(c.level_words, value_set=pa.array(ids, type=pa.string()))
        where = pc.fill_null(where, -1).to_numpy(zero_copy_only=False).astype(np.int32)
        level = where[c.level] if len(c) else c.level
        code, players = _ranked(c.player, c.player_words)
        return telemetry, level, code, players, c.numbers["attempt"], c.numbers["won"]
    table = as_table(telemetry)
    level, code, players = level_player_rows(table, ids)
    return table, level, code, players, table["attempt"], table["won"]


def observed_counts(level, player, attempt, won, n_levels: int, n_players: int) -> dict[str, Any]:
    """What the fitted players did, in the fit's level order: how many there were, and per
    level how many reached it, won it at the first try and stopped after it (a player's last
    level in order; nobody stops at the last level: it finished). The funnel checks its model
    against these (:mod:`labkit.hexpuzzle.playthrough.model`); kept in the model file.

    Examples
    --------
    >>> c = observed_counts(np.array([0, 1, 0, 0]), np.array([0, 0, 1, 1]),
    ...                     np.array([1, 1, 1, 2]), np.array([True, False, False, True]), 2, 2)
    >>> c["players"], c["reached"], c["first_try"], c["stopped"]
    (2, [2, 1], [1, 0], [1, 0])
    """
    lv, p = np.asarray(level, dtype=np.int64), np.asarray(player, dtype=np.int64)
    seen = np.zeros((n_players, n_levels), dtype=bool)
    seen[p, lv] = True
    played = seen.any(axis=1)
    last = n_levels - 1 - np.argmax(seen[:, ::-1], axis=1)
    last = last[played & (last < n_levels - 1)]
    first = (np.asarray(attempt) == 1) & np.asarray(won, dtype=bool)
    return {
        "players": int(played.sum()),
        "reached": seen.sum(axis=0).astype(int).tolist(),
        "first_try": np.bincount(lv[first], minlength=n_levels).astype(int).tolist(),
        "stopped": np.bincount(last, minlength=n_levels).astype(int).tolist(),
    }
