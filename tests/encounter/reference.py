"""Plain, readable references for the encounter kernels (what the kernels must match)."""

from __future__ import annotations

import math

import numpy as np

SECTORS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def chance(table, level, agility):
    return float(table[min(max(level - agility, -4), 4) + 4])


def fights(a, b, n, balance, rng):
    """Play n fights of two Fighters with threshold policies, one draw at a time."""
    fighters = (a, b)
    tally = np.zeros((2, 4), dtype=np.int64)
    results = []
    for _ in range(n):
        life = [a.life, b.life]
        ammo = [a.ammo, b.ammo]

        def attempt(s, table, level, kind, life=life, ammo=ammo):
            t = 1 - s
            tally[s, kind] += 1
            p = chance(table, level, fighters[t].agility)
            if fighters[s].uses_ammo:
                if ammo[s] > 0:
                    ammo[s] -= 1
                else:
                    p = 0.0
            if rng.random() < p:
                tally[s, kind + 1] += 1
                life[t] -= max(balance.min_wound, fighters[s].damage - fighters[t].protection)
                return life[t] <= 0
            return False

        first, outcome, rounds = -1, "stalemate", balance.max_rounds
        for r in range(1, balance.max_rounds + 1):
            retreat = [life[s] <= fighters[s].retreat_at for s in (0, 1)]
            if all(retreat):
                outcome = "parted"
            elif any(retreat):
                s = 0 if not retreat[0] else 1
                f = fighters[s]
                killed = False
                if f.grade > 0:
                    if r == 1:
                        first = s
                    killed = attempt(s, balance.pursuit_table, f.pursuit, 2)
                names = ("a", "b")
                outcome = f"{names[s]}_wins" if killed else f"{names[1 - s]}_escaped"
            else:
                if r == 1 and a.first_strike != b.first_strike:
                    order = 0 if a.first_strike > b.first_strike else 1
                else:
                    rule = balance.priority
                    p = rule.base + rule.per_agility * (a.agility - b.agility)
                    p = min(max(p, rule.min), rule.max)
                    order = 0 if rng.random() < p else 1
                if r == 1:
                    first = order
                for s in (order, 1 - order):
                    bonus = fighters[s].ambush if r == 1 else 0
                    if attempt(s, balance.hit_table, fighters[s].hit + bonus, 0):
                        outcome = ("a_wins", "b_wins")[s]
                        break
                else:
                    continue
            rounds = r
            break
        results.append((outcome, rounds, first))
    return results, tally


def compass(dx, dy):
    """Nearest compass sector of (dx, dy), y down, by angle (atan2)."""
    if dx == 0 and dy == 0:
        return "HERE"
    bearing = math.degrees(math.atan2(dx, -dy)) % 360.0  # clockwise from north
    return SECTORS[int(round(bearing / 45.0)) % 8]


def sound(shape, sources):
    """For every cell, try every source: (strength, direction name) with the tie rule."""
    strength, direction, _ = sound_sources(shape, sources)
    return strength, direction


def sound_sources(shape, sources):
    """:func:`sound` and, per cell, the index of the source heard (-1 for none)."""
    h, w = shape
    strength = np.zeros(shape, dtype=np.int64)
    direction = np.full(shape, "NONE", dtype=object)
    source = np.full(shape, -1, dtype=np.int64)
    for y in range(h):
        for x in range(w):
            best, best_k = 0, -1
            for k, (sx, sy, level) in enumerate(sources):
                d = max(abs(sx - x), abs(sy - y))
                if d <= level - 1 and level - d > best:
                    best, best_k = level - d, k
            if best_k >= 0:
                sx, sy, _ = sources[best_k]
                strength[y, x] = best
                source[y, x] = best_k
                direction[y, x] = compass(sx - x, sy - y)
    return strength, direction, source
