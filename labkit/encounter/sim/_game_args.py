"""The arguments of the whole-game kernel (:func:`labkit.encounter._game_kernels.play_game`).

The balance as the kernel's arrays, and the pre-drawn raw outputs of each random stream, for one
game of some :class:`~labkit.encounter.sim.settings.SimulationSettings`. Apart from
:mod:`labkit.encounter.sim.fast_outcome` (which plays the kernel on them) so that the kernel's
warm-up can build its example arguments here without importing the module that imports it.
The table layout (item kinds, columns) is :mod:`labkit.encounter._game_layout`.

Examples
--------
>>> from labkit.encounter.sim.settings import SimulationSettings
>>> args = kernel_args(SimulationSettings(), seed=0, map_seed=0)
>>> args[0] * args[1] == SimulationSettings().width * SimulationSettings().height
True
"""

from __future__ import annotations

import functools
import json

import numpy as np

from labkit.encounter import _game_layout as gk
from labkit.encounter._policy_kernels import HUNTER, RANDOM, SCAVENGER
from labkit.encounter.sim.settings import SimulationSettings

__all__ = ["kernel_args", "FIRST_BUFFER", "SIDES"]

FIRST_BUFFER = 256  # raw draws per policy stream at first; a game that needs more is replayed
_POLICY_CODES = {"scavenger": SCAVENGER, "hunter": HUNTER, "random": RANDOM}
#: The kernel's side codes 0 and 1.
SIDES = ("npc", "monster")


@functools.lru_cache(maxsize=64)
def _tables(patch_text: str) -> dict:
    """The balance as the kernel's arrays (items by sorted name)."""
    from labkit.encounter.sim.policy import _UNIT, SLIP, HunterPolicy, ScavengerPolicy
    from labkit.encounter.sim.room_map import KIND_WEIGHTS, ROOM_KINDS, YIELDS_QUOTA
    from labkit.encounter.sim.settings import _patched

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
    for s, side in enumerate(SIDES):
        c = b.characters[side]
        chars[s] = (c.hit, c.pursuit, c.agility, c.first_strike, c.life, idx[c.weapon])
    cdf = np.asarray(KIND_WEIGHTS, dtype=np.float64).cumsum()
    cdf /= cdf[-1]  # as numpy's Generator.choice builds it
    rank = ("revolver", "long_knife", "leather_coat", "silencer")  # ScavengerPolicy's order
    names_by_dir = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    alpha = np.argsort(np.argsort(names_by_dir, kind="stable"), kind="stable")
    retreat = np.zeros((3, 4), dtype=np.int64)
    retreat[SCAVENGER] = ScavengerPolicy.retreat_life
    retreat[HUNTER] = HunterPolicy.retreat_life
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


@functools.lru_cache(maxsize=256)
def _key(name: str) -> tuple[int, ...]:
    from labkit.rng import _name_key

    return tuple(_name_key(part) for part in name.split("/"))


def _bits(seed: int, name: str) -> np.random.PCG64:
    """The bit generator of ``labkit.rng.stream(seed, name)`` for an int seed, made directly
    (no Generator around it: the kernel reads its raw outputs)."""
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=_key(name)))


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
