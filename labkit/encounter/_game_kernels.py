"""Numba kernel of one whole encounter game, outcome only (what a batch row needs).

The profile of the plain session (``GameSession`` with ``observations=False``, about 7 ms a
default game) is flat: no single rule dominates; the time is the step loop itself — building
an observation per decision, journal events, notebook scans, sound, legality lists, each a
few microseconds of Python, about 90 steps a game. So the whole loop moves here, with the
same rules in the same order, and :class:`~labkit.encounter.sim.session.GameSession` stays the
readable reference: a test plays thousands of seeds both ways and compares every row.

Random numbers are the session's own, bit for bit: the map and policy streams are numpy's
``Generator`` replayed on pre-drawn raw outputs (:mod:`labkit.encounter._rng_kernels`;
``choice(p=...)`` = one uniform per cell searched in the cdf, ``permutation`` = Fisher-Yates);
the process stream is a real numpy ``Generator`` (fights go through
:func:`~labkit.encounter._kernels.exchange`). A stream that runs out sets a flag; the game
stops with status ``OVERFLOW`` and the caller replays it with longer buffers. The policies and
notebooks are in :mod:`labkit.encounter._policy_kernels`.

Arrays and scalars only; every argument is built by :mod:`labkit.encounter.sim._game_args`
(table layout: :mod:`labkit.encounter._game_layout`).
"""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel
from labkit.encounter._game_layout import (
    ARMOUR,
    ATTACHMENT,
    C_AGI,
    C_FS,
    C_HIT,
    C_LIFE,
    C_PURSUIT,
    C_WEAPON,
    I_AGI,
    I_AMMO,
    I_DMG,
    I_FITS,
    I_FS,
    I_HIT,
    I_KIND,
    I_MAG,
    I_NOISE,
    I_PROT,
    I_PURSUIT,
    I_STOCK,
    MUTUAL_DEATH,
    OK,
    OVERFLOW,
    STEP_LIMIT,
    VICTORY,
    WEAPON,
)
from labkit.encounter._kernels import (
    A_ESCAPED,
    A_WINS,
    ATTACK,
    B_ESCAPED,
    B_WINS,
    CONTINUE,
    NCOL,
    PARTED,
    RETREAT,
    STALEMATE,
    compass,
    exchange,
)
from labkit.encounter._policy_kernels import (
    _DX,
    _DY,
    _GAME_RULES,
    EQUIP,
    EXPLORE,
    FIGHT_ATTACK,
    FIGHT_RETREAT,
    HIDE,
    HUNTER,
    N_DISCOVERY,
    N_EVENT,
    N_SIGNAL,
    N_THREAT,
    N_VISIT,
    PICKUP,
    RANDOM,
    RELOAD,
    SCAVENGER,
    WAIT,
    _decide,
    _note,
    _prune,
)
from labkit.encounter._rng_kernels import _integers, _interval, _random

__all__ = ["play_game", "SCAVENGER", "HUNTER", "RANDOM", "OK", "OVERFLOW", "WAIT",
           "_random", "_integers", "_interval"]  # fmt: skip


# -- the map ----------------------------------------------------------------------------------
@kernel(reference=_GAME_RULES)
def _generate(w, h, n_actors, cdf, quota_kind, armory, items, quota_item, raw, st):
    """Room kinds, dealt loot (cells x items), spawn cells, as ``RoomMap.generate`` draws them."""
    n = w * h
    kinds = np.empty(n, dtype=np.int64)
    for c in range(n):
        kinds[c] = np.searchsorted(cdf, _random(raw, st), side="right")
    some = False
    for c in range(n):
        some = some or quota_kind[kinds[c]]
    if not some:
        y = _integers(raw, st, h)
        x = _integers(raw, st, w)
        kinds[y * w + x] = armory
    yielding = np.array([c for c in range(n) if quota_kind[kinds[c]]], dtype=np.int64)
    quota = np.zeros(n, dtype=np.int64)
    if quota_item >= 0 and yielding.size:
        each = items[quota_item, I_STOCK] // yielding.size
        extra = items[quota_item, I_STOCK] % yielding.size
        for i in range(yielding.size):
            quota[yielding[i]] = each + (1 if i < extra else 0)
    loot = np.zeros((n, items.shape[0]), dtype=np.int64)
    for item in range(items.shape[0]):
        for _ in range(items[item, I_STOCK]):
            if item == quota_item:
                open_rooms = yielding[quota[yielding] > 0]
                if open_rooms.size == 0:
                    break
                target = open_rooms[_integers(raw, st, open_rooms.size)]
                quota[target] -= 1
            else:
                target = _integers(raw, st, n)
            loot[target, item] += 1
    order = np.arange(n)
    for i in range(n - 1, 0, -1):
        j = _interval(raw, st, i)
        order[i], order[j] = order[j], order[i]
    return loot, order[:n_actors].copy()


# -- the game ---------------------------------------------------------------------------------
@kernel(reference=_GAME_RULES)
def _legal(a, side, cell, w, h, dropped, bag, weapon, armour, attachment, loaded, stealth,
           items, out):  # fmt: skip
    """``Actor.legal_actions`` as codes, in the same order; returns how many."""
    x, y = cell % w, cell // w
    n = 0
    for d in range(8):
        if 0 <= x + _DX[d] < w and 0 <= y + _DY[d] < h:
            out[n] = d
            n += 1
    if side[a] == 0:
        out[n] = EXPLORE
        n += 1
        if dropped[cell].sum() > 0:
            out[n] = PICKUP
            n += 1
        wp = weapon[a]
        for item in range(items.shape[0]):
            if bag[a, item] == 0 or item == wp or item == armour[a] or item == attachment[a]:
                continue
            kind = items[item, I_KIND]
            fits = kind == ATTACHMENT and wp >= 0 and items[item, I_FITS] == wp
            if kind == WEAPON or kind == ARMOUR or fits:
                out[n] = EQUIP + item
                n += 1
        if wp >= 0:
            ammo = items[wp, I_AMMO]
            if ammo >= 0 and loaded[a] < items[wp, I_MAG] and bag[a, ammo] > 0:
                out[n] = RELOAD
                n += 1
    if not stealth[a]:
        out[n] = HIDE
        n += 1
    out[n] = WAIT
    return n + 1


@kernel(reference=_GAME_RULES)
def _move(x, to, w, cell, stealth, known, notes, count, turn, snd, emit, ns):
    """``GameSession._move``: enter room ``to`` (seen, noted, heard at level 2)."""
    cell[x] = to
    stealth[x] = False
    known[x, to] = True
    notes = _note(notes, count, x, N_VISIT, turn, to, -1, 0)
    snd[ns, 0], snd[ns, 1], snd[ns, 2] = to % w, to // w, 2
    emit[ns] = x
    return notes, ns + 1


@kernel(reference=_GAME_RULES)
def _unequip_weapon(a, bag, weapon, attachment, loaded, items):
    wp = weapon[a]
    if wp >= 0 and items[wp, I_AMMO] >= 0 and loaded[a] > 0:
        bag[a, items[wp, I_AMMO]] += loaded[a]
    loaded[a] = 0
    weapon[a] = -1
    attachment[a] = -1


@kernel(reference=_GAME_RULES)
def _fighter(a, side, life, weapon, armour, loaded, stealth, items, chars, bonus, row):
    """``compose(bag.loadout(...))``: the kernel's fighter row of actor a."""
    c = side[a]
    wp = weapon[a] if weapon[a] >= 0 else chars[c, C_WEAPON]
    ar = armour[a]
    row[0] = chars[c, C_HIT] + items[wp, I_HIT]
    row[1] = chars[c, C_PURSUIT] + items[wp, I_PURSUIT]
    row[2] = items[wp, I_PURSUIT]
    row[3] = chars[c, C_AGI] + items[wp, I_AGI] + (items[ar, I_AGI] if ar >= 0 else 0)
    row[4] = chars[c, C_FS] + items[wp, I_FS]
    row[5] = items[ar, I_PROT] if ar >= 0 else 0
    row[6] = items[wp, I_DMG]
    row[7] = 1 if items[wp, I_AMMO] >= 0 else 0
    row[8] = bonus if stealth[a] else 0
    row[9] = 0
    row[10] = life[a]
    row[11] = loaded[a] if items[wp, I_AMMO] >= 0 else 0


def _example() -> tuple:
    from labkit.encounter.sim._game_args import kernel_args
    from labkit.encounter.sim.settings import SimulationSettings

    return kernel_args(SimulationSettings(), 0, 0)


@kernel(
    example=_example,
    reference=Covered(
        "the whole game; its rules in plain Python are GameSession, which outcome_only (this "
        "kernel) must equal seed for seed",
        "test_outcome_only_equals_the_session_over_a_thousand_seeds",
    ),
)
def play_game(w, h, side, policy, level, max_steps, cdf, quota_kind, armory, items, quota_item,
              chars, combat, hit_t, pur_t, prio, slip, retreat_life, rank, bullet, unit, alpha,
              raw_map, st_map, raw, st, process, out):  # fmt: skip
    """Play one game; writes (status, winner, end reason, steps, turns, encounters, alive...,
    survival...) to out. ``combat`` = (stealth bonus, min wound, max rounds)."""
    n_act = side.shape[0]
    n_cells = w * h
    loot, spawn = _generate(w, h, n_act, cdf, quota_kind, armory, items, quota_item, raw_map,
                            st_map)  # fmt: skip
    if st_map[3] != 0:
        out[0] = OVERFLOW
        return
    n_items = items.shape[0]
    dropped = np.zeros((n_cells, n_items), dtype=np.int64)
    cell = spawn.copy()
    life = np.array([chars[side[a], C_LIFE] for a in range(n_act)], dtype=np.int64)
    max_life = life.copy()
    phase = np.zeros(n_act, dtype=np.int64)  # 0 action, 1 encounter, 2 finished
    stealth = np.zeros(n_act, dtype=np.bool_)
    death = np.full(n_act, -1, dtype=np.int64)
    bag = np.zeros((n_act, n_items), dtype=np.int64)
    weapon = np.full(n_act, -1, dtype=np.int64)
    armour = np.full(n_act, -1, dtype=np.int64)
    attachment = np.full(n_act, -1, dtype=np.int64)
    loaded = np.zeros(n_act, dtype=np.int64)
    known = np.zeros((n_act, n_cells), dtype=np.bool_)
    explored = np.zeros((n_act, n_cells), dtype=np.bool_)
    sig = np.zeros((n_act, 2), dtype=np.int64)  # loudest signal since the last decision
    notes = np.empty((n_act, 64, 5), dtype=np.int64)
    count = np.zeros(n_act, dtype=np.int64)
    legal = np.empty(EQUIP + n_items + 8, dtype=np.int64)
    snd = np.empty((2 * n_act + 2, 3), dtype=np.int64)  # x, y, level
    emit = np.empty(2 * n_act + 2, dtype=np.int64)
    stats = np.empty((2, NCOL), dtype=np.int64)
    flife = np.empty(2, dtype=np.int64)
    fammo = np.empty(2, dtype=np.int64)
    counters = np.zeros((2, 4), dtype=np.int64)
    turn, steps, poll, encounters = 1, 0, 0, 0
    enc_a, enc_b, rnd = -1, -1, 0
    winner, reason = -1, -1
    for a in range(n_act):
        known[a, cell[a]] = True
        notes = _note(notes, count, a, N_VISIT, turn, cell[a], -1, 0)
    while reason < 0:
        steps += 1
        ns = 0
        if enc_a >= 0:
            pair = (enc_a, enc_b)
            acts = np.empty(2, dtype=np.int64)
            for i in range(2):
                x = pair[i]
                legal[0], legal[1] = FIGHT_ATTACK, FIGHT_RETREAT
                acts[i] = _decide(x, legal, 2, True, policy[x], level[x], slip, retreat_life,
                                  life, max_life, weapon, cell[x], w, h, bag, rank, bullet,
                                  explored, known, notes, count, turn, sig, unit, alpha, raw,
                                  st)  # fmt: skip
                sig[x, 0] = 0
            before0, before1 = fammo[0], fammo[1]
            rnd += 1
            res, _ = exchange(stats, flife, fammo, rnd,
                              ATTACK if acts[0] == FIGHT_ATTACK else RETREAT,
                              ATTACK if acts[1] == FIGHT_ATTACK else RETREAT,
                              hit_t, pur_t, prio, combat[1], process, counters)  # fmt: skip
            if res == CONTINUE and rnd >= combat[2]:
                res = STALEMATE
            noise = 0
            for i in range(2):
                x = pair[i]
                life[x] = flife[i]
                spent = (before0 - fammo[0]) if i == 0 else (before1 - fammo[1])
                wp = weapon[x]
                if wp >= 0 and items[wp, I_AMMO] >= 0:
                    loaded[x] -= min(spent, loaded[x])
                stealth[x] = False
                if acts[i] == FIGHT_ATTACK:
                    used = wp if wp >= 0 else chars[side[x], C_WEAPON]
                    lv = items[used, I_NOISE] + (
                        items[attachment[x], I_NOISE] if attachment[x] >= 0 else 0
                    )
                    noise = max(noise, max(lv, 1))
            if noise:
                for i in range(2):
                    x = pair[i]
                    snd[ns, 0], snd[ns, 1], snd[ns, 2] = cell[x] % w, cell[x] // w, noise
                    emit[ns] = x
                    ns += 1
            if res != CONTINUE:
                a, b = enc_a, enc_b
                room = cell[a]
                if res == A_WINS or res == B_WINS:
                    dead, by = (b, a) if res == A_WINS else (a, b)
                    _unequip_weapon(dead, bag, weapon, attachment, loaded, items)
                    armour[dead] = -1
                    dropped[cell[dead]] += bag[dead]
                    bag[dead] = 0
                    phase[dead] = 2
                    life[dead] = min(life[dead], 0)
                    death[dead] = turn
                    notes = _note(notes, count, by, N_EVENT, turn, cell[dead], -1, 0)
                for x in pair:
                    if phase[x] != 2:
                        phase[x] = 0
                        notes = _note(notes, count, x, N_THREAT, turn, room, -1, 0)
                for i in range(2):
                    x = pair[i]
                    flees = res == PARTED or (res == A_ESCAPED if i == 0 else res == B_ESCAPED)
                    if not flees:
                        continue
                    px, py = cell[x] % w, cell[x] // w
                    nb = np.empty(8, dtype=np.int64)
                    k = 0
                    for d in range(8):
                        if 0 <= px + _DX[d] < w and 0 <= py + _DY[d] < h:
                            nb[k] = (py + _DY[d]) * w + px + _DX[d]
                            k += 1
                    notes, ns = _move(x, nb[process.integers(0, k)], w, cell, stealth, known,
                                      notes, count, turn, snd, emit, ns)  # fmt: skip
                enc_a, enc_b = -1, -1
        else:
            a = poll
            here = cell[a]
            nl = _legal(a, side, here, w, h, dropped, bag, weapon, armour, attachment, loaded,
                        stealth, items, legal)  # fmt: skip
            act = _decide(a, legal, nl, False, policy[a], level[a], slip, retreat_life, life,
                          max_life, weapon, here, w, h, bag, rank, bullet, explored, known,
                          notes, count, turn, sig, unit, alpha, raw, st)  # fmt: skip
            sig[a, 0] = 0
            moved = act < 8
            if moved:
                to = (here // w + _DY[act]) * w + here % w + _DX[act]
                notes, ns = _move(a, to, w, cell, stealth, known, notes, count, turn, snd, emit,
                                  ns)  # fmt: skip
            elif act == EXPLORE or act == PICKUP:
                source = loot if act == EXPLORE else dropped
                bag[a] += source[here]
                source[here] = 0
                notes = _note(notes, count, a, N_DISCOVERY, turn, here, -1, 0)
                snd[ns, 0], snd[ns, 1], snd[ns, 2] = here % w, here // w, 2
                emit[ns] = a
                ns += 1
            elif act >= EQUIP:
                item = act - EQUIP
                kind = items[item, I_KIND]
                if bag[a, item] >= 1:
                    if kind == WEAPON:
                        if item != weapon[a]:
                            _unequip_weapon(a, bag, weapon, attachment, loaded, items)
                            weapon[a] = item
                    elif kind == ARMOUR:
                        armour[a] = item
                    elif kind == ATTACHMENT and items[item, I_FITS] == weapon[a]:
                        attachment[a] = item
            elif act == RELOAD:
                wp = weapon[a]
                if wp >= 0 and items[wp, I_AMMO] >= 0:
                    ammo = items[wp, I_AMMO]
                    k = min(items[wp, I_MAG] - loaded[a], bag[a, ammo])
                    if k > 0:
                        bag[a, ammo] -= k
                        loaded[a] += k
            elif act == HIDE:
                stealth[a] = True
            # meeting: the first living enemy in this room (a hidden one ambushes a mover)
            first_enemy, first_hidden = -1, -1
            for o in range(n_act):
                if phase[o] != 2 and side[o] != side[a] and cell[o] == cell[a]:
                    if first_enemy < 0:
                        first_enemy = o
                    if stealth[o] and first_hidden < 0:
                        first_hidden = o
            if first_enemy >= 0:
                if moved and first_hidden >= 0:
                    enc_a, enc_b = first_hidden, a
                else:
                    enc_a, enc_b = a, first_enemy
                _fighter(enc_a, side, life, weapon, armour, loaded, stealth, items, chars,
                         combat[0], stats[0])  # fmt: skip
                _fighter(enc_b, side, life, weapon, armour, loaded, stealth, items, chars,
                         combat[0], stats[1])  # fmt: skip
                flife[0], flife[1] = stats[0, 10], stats[1, 10]
                fammo[0], fammo[1] = stats[0, 11], stats[1, 11]
                phase[enc_a], phase[enc_b] = 1, 1
                rnd = 0
                encounters += 1
        # sound: each living listener (not an emitter) hears the strongest source
        if ns:
            for x in range(n_act):
                if phase[x] == 2:
                    continue
                emitter = False
                for k in range(ns):
                    if emit[k] == x:
                        emitter = True
                if emitter:
                    continue
                lx, ly = cell[x] % w, cell[x] // w
                best, src = 0, -1
                for k in range(ns):
                    lv = snd[k, 2] - max(abs(snd[k, 0] - lx), abs(snd[k, 1] - ly))
                    if lv > best:
                        best, src = lv, k
                if src < 0:
                    continue
                d = compass(snd[src, 0] - lx, snd[src, 1] - ly)
                if best > sig[x, 0]:
                    sig[x, 0], sig[x, 1] = best, d
                notes = _note(notes, count, x, N_SIGNAL, turn, -1, d, best)
        # the end
        npc_alive, monster_alive = False, False
        for x in range(n_act):
            if phase[x] != 2:
                if side[x] == 0:
                    npc_alive = True
                else:
                    monster_alive = True
        if not npc_alive and not monster_alive:
            reason = MUTUAL_DEATH
        elif npc_alive != monster_alive and enc_a < 0:
            reason, winner = VICTORY, (0 if npc_alive else 1)
        elif steps >= max_steps:
            reason = STEP_LIMIT
        if reason >= 0:
            break
        if enc_a < 0:
            for _ in range(n_act):
                poll += 1
                if poll == n_act:
                    poll = 0
                    turn += 1
                    for x in range(n_act):
                        if phase[x] != 2:
                            _prune(notes, count, x, turn)
                if phase[poll] != 2:
                    break
        if st[:, 3].any():
            out[0] = OVERFLOW
            return
    if st[:, 3].any():
        out[0] = OVERFLOW
        return
    out[0], out[1], out[2], out[3], out[4], out[5] = OK, winner, reason, steps, turn, encounters
    for x in range(n_act):
        out[6 + x] = 1 if phase[x] != 2 else 0
        out[6 + n_act + x] = death[x] if death[x] >= 0 else turn
