"""Numba kernels of the encounter AI (``labkit.encounter.sim.policy``) and notebooks, for the game
kernel: the same rules as ``ScavengerPolicy``/``HunterPolicy``/``RandomPolicy.decide`` and
``NoteBook`` (visible = the last 5 turns, pruned to the newest 150), on arrays.

Notes are rows ``(kind, turn, cell or -1, direction or -1, strength)`` per actor, in the order
they were made; turns never decrease, so the visible notes are always a suffix.
"""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel
from labkit.encounter._rng_kernels import _integers, _random

# Action codes (moves are the compass codes 0..7; equip is EQUIP + item index).
EXPLORE, PICKUP, RELOAD, HIDE, WAIT = 8, 9, 10, 11, 12
FIGHT_ATTACK, FIGHT_RETREAT, EQUIP = 13, 14, 16
# Note kinds.
N_EVENT, N_DISCOVERY, N_SIGNAL, N_VISIT, N_THREAT = 0, 1, 2, 3, 4
VISIBLE, CAPACITY = 5, 150
# Policies.
SCAVENGER, HUNTER, RANDOM = 0, 1, 2
# (dx, dy) per compass code, y down.
_DX = (0, 1, 1, 1, 0, -1, -1, -1)
_DY = (-1, -1, 0, 1, 1, 1, 0, -1)


_GAME_RULES = Covered(
    "a step of the game inlined in play_game; the rules in plain Python are "
    "GameSession, which outcome_only must equal seed for seed",
    "test_outcome_only_equals_the_session_over_a_thousand_seeds",
)


# -- notebooks --------------------------------------------------------------------------------
@kernel(reference=_GAME_RULES)
def _note(notes, count, a, kind, turn, cell, direction, strength):
    """Append a note to actor a's book; returns the (possibly grown) notes array."""
    if count[a] == notes.shape[1]:
        bigger = np.empty((notes.shape[0], 2 * notes.shape[1], 5), dtype=np.int64)
        bigger[:, : notes.shape[1]] = notes
        notes = bigger
    k = count[a]
    notes[a, k, 0], notes[a, k, 1], notes[a, k, 2] = kind, turn, cell
    notes[a, k, 3], notes[a, k, 4] = direction, strength
    count[a] = k + 1
    return notes


@kernel(reference=_GAME_RULES)
def _first_visible(notes, count, a, turn):
    """Notes are in turn order, so the visible ones (last 5 turns) are a suffix."""
    k = count[a]
    while k > 0 and notes[a, k - 1, 1] > turn - VISIBLE:
        k -= 1
    return k


@kernel(reference=_GAME_RULES)
def _prune(notes, count, a, turn):
    start = max(_first_visible(notes, count, a, turn), count[a] - CAPACITY)
    kept = count[a] - start
    notes[a, :kept] = notes[a, start : count[a]].copy()
    count[a] = kept


# -- policies ---------------------------------------------------------------------------------
@kernel(reference=_GAME_RULES)
def _heard(notes, count, a, turn, sig, out):
    """fresh_signal: the loudest signal since the last decision, else the freshest signal note.
    Writes (direction, strength) to out; False when nothing was heard."""
    if sig[a, 0] > 0:
        out[0], out[1] = sig[a, 1], sig[a, 0]
        return True
    first = _first_visible(notes, count, a, turn)
    for k in range(count[a] - 1, first - 1, -1):
        if notes[a, k, 0] == N_SIGNAL:
            out[0], out[1] = notes[a, k, 3], notes[a, k, 4]
            return True
    return False


@kernel(reference=_GAME_RULES)
def _toward(moves, nm, direction, sign, unit, alpha):
    """Moves ranked along (sign 1) or away from (-1) a direction; ties by action name."""
    vx, vy = unit[direction, 0], unit[direction, 1]
    score = np.empty(nm)
    for i in range(nm):
        d = moves[i]
        score[i] = -sign * (unit[d, 0] * vx + unit[d, 1] * vy)
    ranked = moves[:nm].copy()
    for i in range(1, nm):  # insertion sort on (score, name): stable and tiny
        j = i
        while j > 0 and (
            score[j] < score[j - 1]
            or (score[j] == score[j - 1] and alpha[ranked[j]] < alpha[ranked[j - 1]])
        ):
            score[j], score[j - 1] = score[j - 1], score[j]
            ranked[j], ranked[j - 1] = ranked[j - 1], ranked[j]
            j -= 1
    return ranked


@kernel(reference=_GAME_RULES)
def _pick_fresh(options, n, seen, x, y, w, raw, st):
    """``pick(fresh or options)``: a random move into a room not in ``seen``, else any of the
    options; WAIT when there is none."""
    fresh = np.empty(8, dtype=np.int64)
    nf = 0
    for i in range(n):
        if not seen[(y + _DY[options[i]]) * w + x + _DX[options[i]]]:
            fresh[nf] = options[i]
            nf += 1
    if nf:
        return fresh[_integers(raw, st, nf)]
    if n:
        return options[_integers(raw, st, n)]
    return WAIT


@kernel(reference=_GAME_RULES)
def _decide(a, legal, nl, fighting, policy, level, slip, retreat_life, life, max_life, weapon,
            cell, w, h, bag, rank, bullet, explored, known, notes, count, turn, sig, unit, alpha,
            raw, st):  # fmt: skip
    """One decision of actor a's policy (``Policy.decide`` and the subclasses' rules)."""
    r = raw[a]
    s = st[a]
    if policy == RANDOM:
        _random(r, s)
        return legal[_integers(r, s, nl)]
    if _random(r, s) < slip[level]:
        return legal[_integers(r, s, nl)]
    if fighting:
        if policy == SCAVENGER and level >= 2 and weapon[a] < 0 and max_life[a] - life[a] > 0:
            return FIGHT_RETREAT
        return FIGHT_RETREAT if life[a] <= retreat_life[policy, level] else FIGHT_ATTACK
    has = np.zeros(EQUIP + bag.shape[1], dtype=np.bool_)
    for i in range(nl):
        has[legal[i]] = True
    moves = np.empty(8, dtype=np.int64)
    nm = 0
    for i in range(nl):
        if legal[i] < 8:
            moves[nm] = legal[i]
            nm += 1
    x, y = cell % w, cell // w
    heard = np.zeros(2, dtype=np.int64)
    first = _first_visible(notes, count, a, turn)
    if policy == SCAVENGER:
        if has[RELOAD]:
            return RELOAD
        for item in rank:
            if item < 0 or not has[EQUIP + item]:
                continue
            if item == rank[0] and (bullet < 0 or bag[a, bullet] == 0):
                continue  # an empty gun is worse than a knife
            if item == rank[1] and rank[0] >= 0 and weapon[a] == rank[0]:
                continue
            return EQUIP + item
        if has[PICKUP]:
            return PICKUP
        if not explored[a, cell] and has[EXPLORE]:
            explored[a, cell] = True
            return EXPLORE
        got = _heard(notes, count, a, turn, sig, heard)
        if got and heard[1] >= 2 and level >= 1 and has[HIDE]:
            return HIDE
        if got and 0 <= heard[0] < 8:
            moves = _toward(moves, nm, heard[0], -1.0, unit, alpha)
            nm = min(nm, max(1, nm // 2))
        safe = np.empty(8, dtype=np.int64)
        ns = 0
        for i in range(nm):
            t = (y + _DY[moves[i]]) * w + x + _DX[moves[i]]
            threat = False
            for k in range(first, count[a]):
                if notes[a, k, 0] == N_THREAT and notes[a, k, 2] == t:
                    threat = True
            if not threat:
                safe[ns] = moves[i]
                ns += 1
        if ns == 0:
            safe[:nm] = moves[:nm]
            ns = nm
        return _pick_fresh(safe, ns, explored[a], x, y, w, r, s)
    # the hunter
    if _heard(notes, count, a, turn, sig, heard):
        if not 0 <= heard[0] < 8:
            return HIDE if has[HIDE] else WAIT
        if nm:
            return _toward(moves, nm, heard[0], 1.0, unit, alpha)[0]
    last = -1
    for k in range(first, count[a]):
        if notes[a, k, 0] == N_THREAT and notes[a, k, 2] >= 0:
            last = notes[a, k, 2]
    if last >= 0 and nm:
        tx, ty = last % w, last // w
        best, bd = moves[0], 1 << 30
        for i in range(nm):
            d = max(abs(x + _DX[moves[i]] - tx), abs(y + _DY[moves[i]] - ty))
            if d < bd:
                best, bd = moves[i], d
        return best
    if level >= 2 and has[HIDE] and _random(r, s) < 0.3:
        return HIDE
    return _pick_fresh(moves, nm, known[a], x, y, w, r, s)
