"""Outcome-only games (rule W3): the numbers a batch row needs, five times faster and more.

:func:`outcome_row_fast` plays one game in the numba kernel
(:func:`labkit.encounter._game_kernels.play_game`) and returns exactly what
:func:`~labkit.encounter.sim.runner.outcome_row` returns for the same settings — the journalled
:class:`~labkit.encounter.sim.session.GameSession` — with no journal, no observations, no notes
objects and no per-step allocations: the rules run on arrays. Games whose policies are not the
shipped ones (``scavenger``, ``hunter``, ``random``) fall back to the session.

Examples
--------
>>> from labkit.encounter.sim.runner import outcome_row
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> s = SimulationSettings(seed=7, map_seed=7)
>>> outcome_row_fast(s) == outcome_row(s)
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence

import numpy as np

from labkit.encounter import _game_kernels as gk
from labkit.encounter.sim.runner import Row, outcome_row
from labkit.encounter.sim.settings import SimulationSettings
from labkit.encounter.status import EndReason

__all__ = ["play_outcomes", "outcome_row_fast", "kernel_args", "FIRST_BUFFER"]

FIRST_BUFFER = 256  # raw draws per policy stream at first; a game that needs more is replayed
_POLICY_CODES = {"scavenger": gk.SCAVENGER, "hunter": gk.HUNTER, "random": gk.RANDOM}
# the kernel's end codes 0, 1, 2, spelled as the session spells them (one definition)
_END = (str(EndReason.VICTORY), str(EndReason.STEP_LIMIT), str(EndReason.MUTUAL_DEATH))
_SIDES = ("npc", "monster")


@functools.lru_cache(maxsize=64)
def _tables(patch_text: str) -> dict:
    """The balance as the kernel's arrays (items by sorted name)."""
    from labkit.encounter.sim.policy import _UNIT, SLIP, HunterPolicy, ScavengerPolicy
    from labkit.encounter.sim.settings import _patched
    from labkit.encounter.sim.world import KIND_WEIGHTS, ROOM_KINDS, YIELDS_QUOTA

    b = _patched(patch_text)
    names = sorted({*b.weapons, *b.armour, *b.attachments, *b.ammo})
    idx = {n: i for i, n in enumerate(names)}
    items = np.zeros((len(names), 12), dtype=np.int64)
    items[:, gk.I_AMMO] = -1
    items[:, gk.I_FITS] = -1
    for n, w in b.weapons.items():
        items[idx[n], [gk.I_KIND, gk.I_HIT, gk.I_PURSUIT, gk.I_FS, gk.I_AGI, gk.I_DMG, gk.I_NOISE,
                       gk.I_MAG]] = (gk.WEAPON, w.hit_score, w.pursuit, w.first_strike, w.agility,
                                     w.damage, w.noise, w.magazine)  # fmt: skip
        items[idx[n], gk.I_AMMO] = idx[w.ammo] if w.ammo is not None else -1
    for n, a in b.armour.items():
        items[idx[n], [gk.I_KIND, gk.I_AGI, gk.I_PROT]] = (gk.ARMOUR, a.agility, a.protection)
    for n, a in b.attachments.items():
        items[idx[n], [gk.I_KIND, gk.I_NOISE, gk.I_FITS]] = (gk.ATTACHMENT, a.noise, idx[a.fits])
    for n in b.ammo:
        items[idx[n], gk.I_KIND] = gk.AMMO_KIND
    for n, k in b.pool_stock.items():
        items[idx[n], gk.I_STOCK] = k
    chars = np.zeros((2, 6), dtype=np.int64)
    for s, side in enumerate(_SIDES):
        c = b.characters[side]
        chars[s] = (c.hit, c.pursuit, c.agility, c.first_strike, c.life, idx[c.weapon])
    cdf = np.asarray(KIND_WEIGHTS, dtype=np.float64).cumsum()
    cdf /= cdf[-1]  # as numpy's Generator.choice builds it
    rank = ("revolver", "long_knife", "leather_coat", "silencer")  # ScavengerPolicy's order
    names_by_dir = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    alpha = np.argsort(np.argsort(names_by_dir, kind="stable"), kind="stable")
    retreat = np.zeros((3, 4), dtype=np.int64)
    retreat[gk.SCAVENGER] = ScavengerPolicy.retreat_life
    retreat[gk.HUNTER] = HunterPolicy.retreat_life
    return {
        "cdf": cdf,
        "quota_kind": np.array([k in YIELDS_QUOTA for k in ROOM_KINDS]),
        "armory": ROOM_KINDS.index("armory"),
        "items": items,
        "quota_item": idx[b.quota_item] if b.quota_item is not None else -1,
        "chars": chars,
        "combat": np.array([b.stealth_hit_bonus, b.min_wound, b.max_rounds], dtype=np.int64),
        "hit_t": np.ascontiguousarray(b.hit_table),
        "pur_t": np.ascontiguousarray(b.pursuit_table),
        "prio": b.priority.as_array(),
        "slip": np.asarray(SLIP, dtype=np.float64),
        "retreat": retreat,
        "rank": np.array([idx.get(n, -1) for n in rank], dtype=np.int64),
        "bullet": idx.get("bullet", -1),
        "unit": np.array(_UNIT, dtype=np.float64),
        "alpha": alpha.astype(np.int64),
    }


def _shipped(settings: SimulationSettings) -> bool:
    from labkit.encounter.sim import policy

    shipped = {"scavenger": policy.ScavengerPolicy, "hunter": policy.HunterPolicy,
               "random": policy.RandomPolicy}  # fmt: skip
    return all(policy.POLICIES.get(p) is shipped.get(p) for p in settings.policies)


@functools.lru_cache(maxsize=256)
def _key(name: str) -> tuple[int, ...]:
    from labkit.rng import _name_key

    return tuple(_name_key(part) for part in name.split("/"))


def _bits(seed: int, name: str) -> np.random.PCG64:
    """The bit generator of ``labkit.rng.stream(seed, name)`` for an int seed, made directly
    (no Generator around it: the kernel reads its raw outputs)."""
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=_key(name)))


def outcome_row_fast(settings: SimulationSettings) -> Row:
    """:func:`~labkit.encounter.sim.runner.outcome_row`, played by the numba kernel."""
    return _play(settings, settings.seed, settings.map_seed)


def _static(settings: SimulationSettings) -> tuple:
    """The parts of :func:`kernel_args` that do not depend on the seeds (one per settings in a
    chunk, not one per game: a game of a small map costs less than building them)."""
    t = _tables(json.dumps(settings.balance, sort_keys=True))
    side = np.array([0] * settings.npcs + [1] * settings.monsters, dtype=np.int64)
    codes = [_POLICY_CODES[p] for p in settings.policies]
    policy = np.array([codes[s] for s in side], dtype=np.int64)
    level = np.array([settings.difficulty[s] for s in side], dtype=np.int64)
    return t, settings.actor_ids, side, policy, level, int(t["items"][:, gk.I_STOCK].sum())


def kernel_args(
    settings: SimulationSettings, seed: int, map_seed: int, size: int = 0, static: tuple = ()
) -> tuple:
    """The arguments of :func:`~labkit.encounter._game_kernels.play_game` for one game, with
    ``size`` raw draws per policy stream (default :data:`FIRST_BUFFER`); ``static`` is
    ``_static(settings)`` when the caller already has it."""
    t, ids, side, policy, level, stock = static or _static(settings)
    n = len(ids)
    size = size or FIRST_BUFFER
    cells = settings.width * settings.height
    map_size = (2 * cells + 4 * stock + 64) * max(1, size // 64)
    raw = np.empty((n, size), dtype=np.uint64)
    for i, a in enumerate(ids):
        raw[i] = _bits(seed, f"policy/{a}").random_raw(size)
    raw_map = _bits(map_seed, "map").random_raw(map_size)
    process = np.random.Generator(_bits(seed, "process"))
    return (
        settings.width, settings.height, side, policy, level, settings.max_steps, t["cdf"],
        t["quota_kind"], t["armory"], t["items"], t["quota_item"], t["chars"], t["combat"],
        t["hit_t"], t["pur_t"], t["prio"], t["slip"], t["retreat"], t["rank"], t["bullet"],
        t["unit"], t["alpha"], raw_map, np.zeros(4, dtype=np.uint64), raw,
        np.zeros((n, 4), dtype=np.uint64), process, np.zeros(6 + 2 * n, dtype=np.int64),
    )  # fmt: skip


def _play(settings: SimulationSettings, seed: int, map_seed: int, static: tuple = ()) -> Row:
    """One game of ``settings`` with these (already checked) seeds."""
    if not _shipped(settings):
        return outcome_row(settings.replace(seed=seed, map_seed=map_seed))
    size = FIRST_BUFFER
    while True:  # a game that runs out of pre-drawn numbers is replayed with longer buffers
        args = kernel_args(settings, seed, map_seed, size, static)
        gk.play_game(*args)
        out = args[-1]
        if out[0] == gk.OK:
            break
        size *= 4
    n = (out.size - 6) // 2
    return (
        _SIDES[out[1]] if out[1] >= 0 else "",
        _END[out[2]],
        int(out[3]),
        int(out[4]),
        int(out[5]),
        tuple(bool(v) for v in out[6 : 6 + n]),
        tuple(int(v) for v in out[6 + n :]),
    )


def play_outcomes(docs: Mapping[int, dict], jobs: Sequence[tuple[int, int, int, int]]) -> list:
    """Play ``jobs`` outcome-only; rows as :func:`~labkit.encounter.sim.batch.play_chunk` gives."""
    base = {k: SimulationSettings.from_dict(doc) for k, doc in docs.items()}
    static = {k: _static(s) if _shipped(s) else () for k, s in base.items()}
    return [(i, *_play(base[k], seed, map_seed, static[k])) for i, k, seed, map_seed in jobs]
