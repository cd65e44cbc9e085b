"""Numba kernels of the encounter rules: hit sampling, one exchange, fight Monte Carlo, sound.

Arrays and scalars only. Randomness comes from the numpy ``Generator`` passed in (numba draws
from it exactly as numpy would, so a kernel and a plain-Python loop fed the same seed see the
same numbers). Callers go through :mod:`labkit.encounter.rules.combat` and
:mod:`labkit.encounter.rules.sound`, which validate inputs and name the columns below.

Fighter rows (``stats[side, column]``, int64) — see :data:`COLUMNS`.
Exchange outcomes and draw order are documented in :mod:`labkit.encounter.rules.combat`.
"""

from __future__ import annotations

import numpy as np

from labkit._jit import Covered, kernel

# Fighter row columns.
HIT, PURSUIT, GRADE, AGILITY, FIRST_STRIKE, PROTECTION, DAMAGE = 0, 1, 2, 3, 4, 5, 6
USES_AMMO, AMBUSH, RETREAT_AT, LIFE, AMMO = 7, 8, 9, 10, 11
COLUMNS = (
    "hit pursuit grade agility first_strike protection damage uses_ammo ambush retreat_at life ammo"
).split()
NCOL = len(COLUMNS)

# Decisions and exchange outcomes.
ATTACK, RETREAT = 0, 1
CONTINUE, A_WINS, B_WINS, A_ESCAPED, B_ESCAPED, PARTED, STALEMATE = 0, 1, 2, 3, 4, 5, 6

# Counter columns: per side, attempts and successes of strikes and pursuits.
STRIKES, STRUCK, PURSUITS, PURSUED = 0, 1, 2, 3

# Sound directions (compass, y down = south); NONE where nothing is heard.
NONE, HERE = -1, 8
_TAN_OUTER = 2.414213562373095  # 1 + sqrt(2) = cot(22.5 deg): the sector boundary slope


def _example_stats():
    row = np.array([2, 1, 1, 1, 2, 0, 2, 0, 0, 0, 3, 0], dtype=np.int64)
    return np.stack([row, row])


def _example_tables():
    hit = np.array([0.02, 0.04, 0.08, 0.14, 0.2, 0.3, 0.45, 0.6, 0.75])
    pur = np.array([0.01, 0.03, 0.06, 0.1, 0.14, 0.21, 0.32, 0.42, 0.53])
    return hit, pur, np.array([0.5, 0.2, 0.1, 0.9])


_FIGHT_RULES = Covered(
    "a step of a fight; the readable fights() plays whole fights one draw at a time "
    "and must give the same outcomes and tallies",
    "test_fight_kernel_matches_the_readable_reference",
)


@kernel(
    example=lambda: (
        np.arange(-5, 6, dtype=np.int64),
        _example_tables()[0],
        np.random.default_rng(0),
        np.empty(11, dtype=np.bool_),
    ),
    reference=Covered(
        "draws from a Generator: equal to numpy's own draws on the same stream",
        "test_sample_hits_equals_numpy_with_the_same_stream",
    ),
)
def sample_hits(index, table, rng, out):
    """out[i] = one draw < table[clamp(index[i], -4, 4)]; returns out."""
    for i in range(index.shape[0]):
        k = index[i]
        if k < -4:
            k = -4
        elif k > 4:
            k = 4
        out[i] = rng.random() < table[k + 4]
    return out


@kernel(example=lambda: (_example_tables()[0], 3, 1), reference="tests.kernel_references:chance")
def _chance(table, level, agility):
    k = level - agility
    if k < -4:
        k = -4
    elif k > 4:
        k = 4
    return table[k + 4]


@kernel(reference=_FIGHT_RULES)
def _land(stats, life, s, t, min_wound):
    wound = stats[s, DAMAGE] - stats[t, PROTECTION]
    if wound < min_wound:
        wound = min_wound
    life[t] -= wound
    return life[t] <= 0


@kernel(reference=_FIGHT_RULES)
def _strike(stats, life, ammo, s, t, bonus, hit_t, min_wound, rng, counters):
    """One blow by side s on side t; True when t dies. Always one draw."""
    counters[s, STRIKES] += 1
    p = _chance(hit_t, stats[s, HIT] + bonus, stats[t, AGILITY])
    if stats[s, USES_AMMO] != 0:
        if ammo[s] > 0:
            ammo[s] -= 1
        else:
            p = 0.0  # the hammer clicks on an empty chamber
    if rng.random() < p:
        counters[s, STRUCK] += 1
        return _land(stats, life, s, t, min_wound)
    return False


@kernel(reference=_FIGHT_RULES)
def _pursue(stats, life, ammo, s, t, pur_t, min_wound, rng, counters):
    """Side s pursues retreating side t; True when t dies. No draw when the grade is <= 0."""
    if stats[s, GRADE] <= 0:
        return False
    counters[s, PURSUITS] += 1
    p = _chance(pur_t, stats[s, PURSUIT], stats[t, AGILITY])
    if stats[s, USES_AMMO] != 0:
        if ammo[s] > 0:
            ammo[s] -= 1
        else:
            p = 0.0
    if rng.random() < p:
        counters[s, PURSUED] += 1
        return _land(stats, life, s, t, min_wound)
    return False


@kernel(
    example=lambda: (
        _example_stats(),
        np.array([3, 3], dtype=np.int64),
        np.array([0, 0], dtype=np.int64),
        1,
        0,
        0,
        *_example_tables(),
        1,
        np.random.default_rng(0),
        np.zeros((2, 4), dtype=np.int64),
    ),
    reference=_FIGHT_RULES,
)
def exchange(
    stats, life, ammo, round_no, act_a, act_b, hit_t, pur_t, prio, min_wound, rng, counters
):
    """Resolve one round; mutates life, ammo, counters. Returns (outcome, first striker or -1)."""
    if act_a == RETREAT and act_b == RETREAT:
        return PARTED, -1
    if act_a == RETREAT or act_b == RETREAT:
        s = 0 if act_a == ATTACK else 1
        t = 1 - s
        if _pursue(stats, life, ammo, s, t, pur_t, min_wound, rng, counters):
            return (A_WINS if s == 0 else B_WINS), s
        first = s if stats[s, GRADE] > 0 else -1
        return (B_ESCAPED if t == 1 else A_ESCAPED), first
    # Both attack: round 1 follows first strike; ties and later rounds use the priority rule.
    fs_a, fs_b = stats[0, FIRST_STRIKE], stats[1, FIRST_STRIKE]
    if round_no == 1 and fs_a != fs_b:
        first = 0 if fs_a > fs_b else 1
    else:
        p = prio[0] + prio[1] * (stats[0, AGILITY] - stats[1, AGILITY])
        p = min(max(p, prio[2]), prio[3])
        first = 0 if rng.random() < p else 1
    second = 1 - first
    bonus_f = stats[first, AMBUSH] if round_no == 1 else 0
    bonus_s = stats[second, AMBUSH] if round_no == 1 else 0
    if _strike(stats, life, ammo, first, second, bonus_f, hit_t, min_wound, rng, counters):
        return (A_WINS if first == 0 else B_WINS), first
    if _strike(stats, life, ammo, second, first, bonus_s, hit_t, min_wound, rng, counters):
        return (A_WINS if second == 0 else B_WINS), first
    return CONTINUE, first


@kernel(
    example=lambda: (
        _example_stats(),
        3,
        *_example_tables(),
        1,
        30,
        np.random.default_rng(0),
    ),
    reference=_FIGHT_RULES,
)
def fight_monte_carlo(stats, n, hit_t, pur_t, prio, min_wound, max_rounds, rng):
    """Play n fights with threshold policies (retreat once life <= retreat_at, else attack).

    Returns (outcome int8[n], rounds int32[n], first int8[n], counters int64[2, 4]).
    """
    outcome = np.empty(n, dtype=np.int8)
    rounds = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int8)
    counters = np.zeros((2, 4), dtype=np.int64)
    life = np.empty(2, dtype=np.int64)
    ammo = np.empty(2, dtype=np.int64)
    for i in range(n):
        for s in range(2):
            life[s] = stats[s, LIFE]
            ammo[s] = stats[s, AMMO]
        result = STALEMATE
        r = 1
        first[i] = -1
        while r <= max_rounds:
            act_a = RETREAT if life[0] <= stats[0, RETREAT_AT] else ATTACK
            act_b = RETREAT if life[1] <= stats[1, RETREAT_AT] else ATTACK
            res, f = exchange(
                stats, life, ammo, r, act_a, act_b, hit_t, pur_t, prio, min_wound, rng, counters
            )
            if r == 1:
                first[i] = f
            if res != CONTINUE:
                result = res
                break
            r += 1
        outcome[i] = result
        rounds[i] = min(r, max_rounds)
    return outcome, rounds, first, counters


@kernel(example=lambda: (3, -1), reference="tests.kernel_references:compass")
def compass(dx, dy):
    """Compass code of the vector (dx, dy) (y down = south): 0 N, 1 NE ... 7 NW, 8 HERE."""
    if dx == 0 and dy == 0:
        return HERE
    ax = abs(dx)
    ay = abs(dy)
    if ay > _TAN_OUTER * ax:
        return 0 if dy < 0 else 4
    if ax > _TAN_OUTER * ay:
        return 2 if dx > 0 else 6
    if dx > 0:
        return 1 if dy < 0 else 3
    return 7 if dy < 0 else 5


@kernel(
    example=lambda: (
        6,
        7,
        np.array([1, 5], dtype=np.int64),
        np.array([2, 4], dtype=np.int64),
        np.array([3, 2], dtype=np.int64),
    ),
    reference="tests.kernel_references:propagate_sound",
)
def propagate_sound(height, width, xs, ys, levels):
    """Strongest audible source per cell (Chebyshev rule); returns (strength, direction, source).

    Each source only touches its own (2N-1)-square, so the cost is the sum of those areas, not
    cells x sources. Sources are visited in index order and replace a cell's value only when
    strictly stronger, which is the lower-index-wins tie rule.
    """
    strength = np.zeros((height, width), dtype=np.int32)
    source = np.full((height, width), -1, dtype=np.int32)
    direction = np.full((height, width), NONE, dtype=np.int8)
    for k in range(xs.shape[0]):
        level = levels[k]
        r = level - 1
        if r < 0:
            continue
        sx, sy = xs[k], ys[k]
        y0, y1 = max(sy - r, 0), min(sy + r, height - 1)
        x0, x1 = max(sx - r, 0), min(sx + r, width - 1)
        for y in range(y0, y1 + 1):
            ddy = abs(y - sy)
            for x in range(x0, x1 + 1):
                d = max(abs(x - sx), ddy)
                s = level - d
                if s > strength[y, x]:
                    # Compass point on every win, inside the box only: no second full-grid pass.
                    strength[y, x] = s
                    source[y, x] = k
                    direction[y, x] = compass(sx - x, sy - y)
    return strength, direction, source
