"""Writing a :class:`~labkit.encounter.rules.balance.Balance` back to its file document.

The inverse of :func:`~labkit.encounter.rules.balance.balance_from_dict`: optional keys the
reader defaults (a weapon's ``ammo``, ``magazine``, ``natural``; the pool's ``quota_item``;
``notes``) are written only when they differ from that default, so the shipped A edition
round-trips to the same document. Kept apart from the reader so that ``balance.py`` stays short.

Examples
--------
>>> from labkit.encounter.rules.balance import default_balance
>>> sorted(balance_to_dict(default_balance(), "labkit.balance", 1)["card_pool"])
['quota_item', 'stock']
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labkit.encounter.rules.balance import Balance

__all__ = ["balance_to_dict"]


def _weapon(w: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "hit_score": w.hit_score,
        "pursuit": w.pursuit,
        "first_strike": w.first_strike,
        "agility": w.agility,
        "damage": w.damage,
        "noise": w.noise,
    }
    if w.ammo is not None:
        doc["ammo"] = w.ammo
    if w.ammo is not None or w.magazine:
        doc["magazine"] = w.magazine
    if w.natural:
        doc["natural"] = True
    return doc


def balance_to_dict(balance: Balance, format: str, version: int) -> dict[str, Any]:
    """The JSON-ready document of ``balance`` under the header ``format`` / ``version``."""
    doc: dict[str, Any] = {"format": format, "version": version, "edition": balance.edition}
    if balance.notes is not None:
        doc["notes"] = copy.deepcopy(balance.notes)  # free-form JSON: no shared lists
    p = balance.priority
    pool: dict[str, Any] = {"stock": dict(balance.pool_stock)}
    if balance.quota_item is not None:
        pool["quota_item"] = balance.quota_item
    doc |= {
        "tables": {
            "hit": [float(v) for v in balance.hit_table],
            "pursuit": [float(v) for v in balance.pursuit_table],
        },
        "priority": {"base": p.base, "per_agility": p.per_agility, "min": p.min, "max": p.max},
        "combat": {
            "stealth_hit_bonus": balance.stealth_hit_bonus,
            "min_wound": balance.min_wound,
            "max_rounds": balance.max_rounds,
        },
        "characters": {
            name: {
                "hit": c.hit,
                "pursuit": c.pursuit,
                "agility": c.agility,
                "first_strike": c.first_strike,
                "life": c.life,
                "weapon": c.weapon,
            }
            for name, c in balance.characters.items()
        },
        "weapons": {name: _weapon(w) for name, w in balance.weapons.items()},
        "armour": {
            name: {"agility": a.agility, "protection": a.protection}
            for name, a in balance.armour.items()
        },
        "attachments": {
            name: {"fits": a.fits, "noise": a.noise} for name, a in balance.attachments.items()
        },
        "ammo": list(balance.ammo),
        "card_pool": pool,
    }
    return doc
