"""Balance data for the encounter rules: tables, priority rule, weapons, armour, characters, pool.

Every number the combat and item rules use comes from a balance file (rule E2: "tables and item
stats are data, not code"); the shipped one is ``data/balance/a_edition.json``. The loader checks
everything before building anything and raises :class:`BalanceError` naming the JSON pointer and
the bad value.

Decisions the rules leave open, recorded here:

* A table is 9 probabilities for the clamped index −4…4, each in [0, 1] and strictly increasing
  (a flat or falling curve is almost certainly a typo in a hand-edited file).
* Items fall in four families: ``weapons`` (``hit_score``, ``pursuit`` grade, ``first_strike``,
  ``agility``, ``damage``, ``noise`` = sound exposure level of a blow or shot, optional ``ammo``
  and ``magazine``, ``natural`` for fists/claws that are never cards), ``armour`` (``agility``,
  ``protection``), ``attachments`` (the silencer: ``fits`` a weapon, ``noise`` change) and
  ``ammo``. Item names are unique across families.
* ``characters`` are the bases an actor starts from, each with a natural weapon used when nothing
  is equipped.
* ``combat.min_wound`` is the least life a landed blow takes after protection (so armour never
  makes a fighter immortal); ``combat.max_rounds`` caps a fight (a *stalemate*).
* The card pool's ``quota_item`` (bullets in the A edition) is the item whose global stock is
  spread over the rooms allowed to yield it (see :mod:`labkit.encounter.rules.cards`).

Examples
--------
>>> b = default_balance()
>>> b.edition, float(b.hit_table[4]), b.weapons["revolver"].magazine
('A', 0.2, 6)
>>> sorted(b.pool_stock.items())
[('bullet', 20), ('long_knife', 2), ('revolver', 3), ('silencer', 1)]
"""

from __future__ import annotations

import dataclasses
import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from labkit._data import data_path
from labkit.io import FormatError, as_int, check, check_header, load_json, pointer
from labkit.io import field as get

__all__ = [
    "BalanceError",
    "Weapon",
    "Armour",
    "Attachment",
    "CharacterBase",
    "PriorityRule",
    "Balance",
    "load_balance",
    "balance_from_dict",
    "default_balance",
    "DEFAULT_PATH",
    "TABLE_SIZE",
    "shipped_balance",
    "shipped_balances",
    "balance_file",
]

FORMAT = "labkit.balance"
VERSIONS = (1,)
TABLE_SIZE = 9  # indices −4 … 4
DEFAULT_PATH = data_path("balance", "a_edition.json", must_exist=False)
#: Limits of a balance file. Every stat (hit, pursuit, agility, first strike, damage, noise,
#: protection, magazine, life) lies in [-MAX_STAT, MAX_STAT] (life 1..MAX_STAT), far inside the
#: kernels' int64; a card's stock is at most MAX_STOCK and the whole pool at most MAX_POOL
#: cards (building a map costs time linear in the pool); a fight lasts at most MAX_ROUNDS.
#: Within these a game's set-up is O(MAX_POOL) and a fight O(MAX_ROUNDS).
MAX_STAT = 1_000_000
MAX_STOCK = 10_000
MAX_POOL = 100_000
MAX_ROUNDS = 10_000
#: Bound of the priority rule's base and per-agility slope (probabilities are clamped anyway).
MAX_WEIGHT = 1000
MAX_BYTES = 4 * 1024 * 1024


class BalanceError(FormatError):
    """A balance file (or balance dict) that breaks a rule; names the field and the value."""


@dataclass(frozen=True)
class Weapon:
    """A weapon's stats on each axis (seed: HitScore, 追击等级, 先手, 灵敏, damage)."""

    name: str
    hit_score: int
    pursuit: int
    first_strike: int
    agility: int
    damage: int
    noise: int
    ammo: str | None = None
    magazine: int = 0
    natural: bool = False


@dataclass(frozen=True)
class Armour:
    """Armour: adds to agility (usually negative) and to protection."""

    name: str
    agility: int
    protection: int


@dataclass(frozen=True)
class Attachment:
    """A weapon attachment (the silencer): fits one weapon, changes its noise."""

    name: str
    fits: str
    noise: int


@dataclass(frozen=True)
class CharacterBase:
    """An actor's base levels before equipment, and its natural weapon."""

    name: str
    hit: int
    pursuit: int
    agility: int
    first_strike: int
    life: int
    weapon: str


@dataclass(frozen=True)
class PriorityRule:
    """Later-round order: P(act first) = clamp(base + per_agility × Δagility, min, max)."""

    base: float = 0.5
    per_agility: float = 0.2
    min: float = 0.1
    max: float = 0.9

    def as_array(self) -> np.ndarray:
        return np.array([self.base, self.per_agility, self.min, self.max], dtype=np.float64)


@dataclass(frozen=True)
class Balance:
    """One validated balance edition. Tables are read-only float64 arrays of 9.

    Examples
    --------
    >>> b = default_balance()
    >>> b.hit_table.shape, b.hit_table.flags.writeable, "fists" in b.weapons
    ((9,), False, True)
    >>> b.replace(max_rounds=5).max_rounds
    5
    """

    edition: str
    hit_table: np.ndarray
    pursuit_table: np.ndarray
    priority: PriorityRule
    stealth_hit_bonus: int
    min_wound: int
    max_rounds: int
    characters: MappingProxyType
    weapons: MappingProxyType
    armour: MappingProxyType
    attachments: MappingProxyType
    ammo: tuple[str, ...]
    pool_stock: MappingProxyType
    quota_item: str | None
    source: str | None = field(default=None, compare=False)
    notes: Any = field(default=None, compare=False)  # free-form (any JSON), kept for writing

    @classmethod
    def from_dict(cls, doc: Any, *, file: str | None = None) -> Balance:
        """Validate a balance document and build it (see :func:`balance_from_dict`)."""
        return balance_from_dict(doc, file=file)

    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> Balance:
        """Read and validate a balance file (default: the shipped A edition).

        The one loading path of the balance format; :func:`load_balance` is an alias.

        Raises
        ------
        BalanceError
            Unreadable file, wrong format/version, or any broken rule (pointer and value named).

        Examples
        --------
        >>> Balance.load().edition == default_balance().edition
        True
        """
        path = DEFAULT_PATH if path is None else balance_file(path)
        doc = load_json(path, format=FORMAT, versions=VERSIONS, error=BalanceError,
                        max_bytes=MAX_BYTES)  # fmt: skip
        return balance_from_dict(doc, file=str(path))

    def to_dict(self) -> dict[str, Any]:
        """The balance document (format and version first); :meth:`from_dict` reads it back.

        Examples
        --------
        >>> b = default_balance().replace(max_rounds=7)
        >>> again = Balance.from_dict(b.to_dict())
        >>> again.max_rounds, again.to_dict() == b.to_dict()
        (7, True)
        """
        from labkit.encounter.rules.balance_file import balance_to_dict

        return balance_to_dict(self, FORMAT, VERSIONS[-1])

    def save(self, path: str | os.PathLike) -> None:
        """Write the balance file atomically; :meth:`load` reads it back.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "b.json"
        >>> default_balance().with_weapon("revolver", damage=4).save(path)
        >>> Balance.load(path).weapons["revolver"].damage
        4
        """
        from labkit.io import save_json

        save_json(path, self.to_dict(), format=FORMAT, version=VERSIONS[-1])

    @property
    def items(self) -> tuple[str, ...]:
        """Every item name that can be a card or sit in a bag (natural weapons excluded)."""
        names = [n for n, w in self.weapons.items() if not w.natural]
        return (*names, *self.armour, *self.attachments, *self.ammo)

    def replace(self, **changes: Any) -> Balance:
        """A copy with some fields changed, re-checked (used by the probability explorer).

        Examples
        --------
        >>> b = default_balance().replace(hit_table=[.1, .2, .3, .4, .5, .6, .7, .8, .9])
        >>> float(b.hit_table[0])
        0.1
        """
        for key in ("hit_table", "pursuit_table"):
            if key in changes:
                changes[key] = _table(list(np.asarray(changes[key], float)), f"/tables/{key}")
        return dataclasses.replace(self, **changes)

    def with_weapon(self, name: str, **changes: Any) -> Balance:
        """A copy with one weapon's stats changed (for balance sweeps).

        Examples
        --------
        >>> default_balance().with_weapon("long_knife", hit_score=3).weapons["long_knife"].hit_score
        3
        """
        if name not in self.weapons:
            raise BalanceError("unknown weapon", pointer=pointer("weapons", name), value=name)
        bad = set(changes) - {f.name for f in dataclasses.fields(Weapon)}
        if bad:
            raise BalanceError(
                "unknown weapon stat", pointer=pointer("weapons", name), value=sorted(bad)
            )
        weapons = dict(self.weapons)
        weapons[name] = dataclasses.replace(weapons[name], **changes)
        return dataclasses.replace(self, weapons=MappingProxyType(weapons))


def _table(values: Any, at: str) -> np.ndarray:
    check(isinstance(values, list), "must be a list of 9 probabilities", at, values, BalanceError)
    check(
        len(values) == TABLE_SIZE,
        "must hold 9 probabilities (index -4..4)",
        at,
        values,
        BalanceError,
    )
    for i, v in enumerate(values):
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 <= v <= 1.0
        check(ok, "must be a probability between 0 and 1", pointer_join(at, i), v, BalanceError)
    for i in range(1, TABLE_SIZE):
        check(
            values[i] > values[i - 1],
            "must be strictly increasing",
            pointer_join(at, i),
            values[i],
            BalanceError,
        )
    arr = np.array(values, dtype=np.float64)
    arr.setflags(write=False)
    return arr


def pointer_join(at: str, *parts: str | int) -> str:
    return at + pointer(*parts)


def _ints(
    obj: dict, at: str, keys: tuple[str, ...], lo: int | None = None, hi: int = MAX_STAT
) -> dict[str, int]:
    lo = -MAX_STAT if lo is None else lo
    return {
        k: as_int(get(obj, k, int, at, BalanceError), pointer_join(at, k), lo, hi, BalanceError)
        for k in keys
    }


def _names(doc: dict, key: str) -> dict:
    section = get(doc, key, dict, "", BalanceError, default={})
    return section


def balance_from_dict(doc: Any, *, file: str | None = None) -> Balance:
    """Validate a balance document (already parsed) and build a :class:`Balance`.

    Raises
    ------
    BalanceError
        Any rule broken; the message names the JSON pointer and the value.

    Examples
    --------
    >>> import json
    >>> doc = json.loads(DEFAULT_PATH.read_text())
    >>> doc["card_pool"]["stock"]["bullet"] = -1
    >>> balance_from_dict(doc)
    Traceback (most recent call last):
    ...
    labkit.encounter.rules.balance.BalanceError: /card_pool/stock/bullet: must be ... (got -1)
    """
    try:
        doc = check_header(doc, format=FORMAT, versions=VERSIONS, error=BalanceError)
        return _build(doc, file)
    except BalanceError as exc:
        raise exc.with_file(file) if file else exc from None


def _build(doc: dict, file: str | None) -> Balance:
    tables = get(doc, "tables", dict, "", BalanceError)
    hit = _table(get(tables, "hit", list, "/tables", BalanceError), "/tables/hit")
    pursuit = _table(get(tables, "pursuit", list, "/tables", BalanceError), "/tables/pursuit")

    pr = get(doc, "priority", dict, "", BalanceError)
    rule = PriorityRule(
        *(
            float(get(pr, k, float, "/priority", BalanceError))
            for k in ("base", "per_agility", "min", "max")
        )
    )
    check(
        0.0 <= rule.min <= rule.max <= 1.0,
        "needs 0 <= min <= max <= 1",
        "/priority",
        pr,
        BalanceError,
    )
    for key in ("base", "per_agility"):
        value = getattr(rule, key)
        check(abs(value) <= MAX_WEIGHT, f"must be between -{MAX_WEIGHT} and {MAX_WEIGHT}",
              f"/priority/{key}", value, BalanceError)  # fmt: skip

    combat = _ints(
        get(doc, "combat", dict, "", BalanceError),
        "/combat",
        ("stealth_hit_bonus", "min_wound"),
        0,
    )
    combat["max_rounds"] = as_int(
        get(get(doc, "combat", dict, "", BalanceError), "max_rounds", int, "/combat", BalanceError),
        "/combat/max_rounds", 1, MAX_ROUNDS, BalanceError,
    )  # fmt: skip
    check(
        combat["max_rounds"] >= 1,
        "must be at least 1",
        "/combat/max_rounds",
        combat["max_rounds"],
        BalanceError,
    )

    weapons: dict[str, Weapon] = {}
    for name, w in get(doc, "weapons", dict, "", BalanceError).items():
        at = pointer("weapons", name)
        stats = _ints(w, at, ("hit_score", "pursuit", "first_strike", "agility", "damage", "noise"))
        check(
            stats["damage"] >= 0,
            "must be >= 0",
            pointer_join(at, "damage"),
            stats["damage"],
            BalanceError,
        )
        ammo = get(w, "ammo", str, at, BalanceError, default=None)
        magazine = as_int(
            get(w, "magazine", int, at, BalanceError, default=0),
            pointer_join(at, "magazine"),
            0,
            MAX_STAT,
            BalanceError,
        )
        check(
            ammo is None or magazine >= 1,
            "a weapon with ammo needs magazine >= 1",
            pointer_join(at, "magazine"),
            magazine,
            BalanceError,
        )
        natural = get(w, "natural", bool, at, BalanceError, default=False)
        weapons[name] = Weapon(name, ammo=ammo, magazine=magazine, natural=natural, **stats)

    armour = {}
    for name, a in _names(doc, "armour").items():
        at = pointer("armour", name)
        stats = _ints(a, at, ("agility", "protection"))
        armour[name] = Armour(name, **stats)

    ammo_names = get(doc, "ammo", list, "", BalanceError, default=[])
    for i, a in enumerate(ammo_names):
        check(
            isinstance(a, str) and a != "",
            "must be an item name",
            pointer("ammo", i),
            a,
            BalanceError,
        )

    attachments = {}
    for name, a in _names(doc, "attachments").items():
        at = pointer("attachments", name)
        fits = get(a, "fits", str, at, BalanceError)
        check(fits in weapons, "unknown weapon", pointer_join(at, "fits"), fits, BalanceError)
        noise = as_int(get(a, "noise", int, at, BalanceError), pointer_join(at, "noise"),
                       -MAX_STAT, MAX_STAT, BalanceError)  # fmt: skip
        attachments[name] = Attachment(name, fits, noise)

    seen: dict[str, str] = {}
    for family, names in (
        ("weapons", weapons),
        ("armour", armour),
        ("attachments", attachments),
        ("ammo", ammo_names),
    ):
        for n in names:
            check(
                n not in seen,
                f"item name already used in /{seen.get(n)}",
                pointer(family, n),
                n,
                BalanceError,
            )
            seen[n] = family
    for name, w in weapons.items():
        if w.ammo is not None:
            check(
                w.ammo in ammo_names,
                "unknown ammo item",
                pointer("weapons", name, "ammo"),
                w.ammo,
                BalanceError,
            )

    characters = {}
    for name, c in get(doc, "characters", dict, "", BalanceError).items():
        at = pointer("characters", name)
        stats = _ints(c, at, ("hit", "pursuit", "agility", "first_strike"))
        life = as_int(
            get(c, "life", int, at, BalanceError),
            pointer_join(at, "life"),
            1,
            MAX_STAT,
            BalanceError,
        )
        weapon = get(c, "weapon", str, at, BalanceError)
        check(weapon in weapons, "unknown weapon", pointer_join(at, "weapon"), weapon, BalanceError)
        characters[name] = CharacterBase(name, life=life, weapon=weapon, **stats)

    pool = get(doc, "card_pool", dict, "", BalanceError)
    stock_doc = get(pool, "stock", dict, "/card_pool", BalanceError)
    cards = (
        {n for n, w in weapons.items() if not w.natural}
        | set(armour)
        | set(attachments)
        | set(ammo_names)
    )
    stock = {}
    for name, count in stock_doc.items():
        at = pointer("card_pool", "stock", name)
        check(name in cards, "unknown item", at, name, BalanceError)
        stock[name] = as_int(count, at, 0, MAX_STOCK, BalanceError)
    check(sum(stock.values()) <= MAX_POOL, f"the pool holds at most {MAX_POOL} cards",
          "/card_pool/stock", sum(stock.values()), BalanceError)  # fmt: skip
    quota_item = get(pool, "quota_item", str, "/card_pool", BalanceError, default=None)
    if quota_item is not None:
        check(
            quota_item in stock,
            "unknown item (not in the stock)",
            "/card_pool/quota_item",
            quota_item,
            BalanceError,
        )

    return Balance(
        edition=str(get(doc, "edition", str, "", BalanceError, default="?")),
        hit_table=hit,
        pursuit_table=pursuit,
        priority=rule,
        stealth_hit_bonus=combat["stealth_hit_bonus"],
        min_wound=combat["min_wound"],
        max_rounds=combat["max_rounds"],
        characters=MappingProxyType(characters),
        weapons=MappingProxyType(weapons),
        armour=MappingProxyType(armour),
        attachments=MappingProxyType(attachments),
        ammo=tuple(ammo_names),
        pool_stock=MappingProxyType(stock),
        quota_item=quota_item,
        source=file,
        notes=doc.get("notes"),
    )


def shipped_balances() -> list[str]:
    """The names of the balance files shipped with labkit (``data/balance/*.json``).

    Examples
    --------
    >>> "a_edition_monster_life4" in shipped_balances()
    True
    """
    return sorted(p.stem for p in data_path("balance", must_exist=False).glob("*.json"))


def shipped_balance(name: str) -> Path:
    """The path of a shipped balance file by its name, from any notebook or folder.

    ``name`` is the file's name with or without ``.json`` (see :func:`shipped_balances`).

    Examples
    --------
    >>> shipped_balance("a_edition_monster_life4").name
    'a_edition_monster_life4.json'
    >>> shipped_balance("b_edition")
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: name: no shipped balance of that name; shipped: a_edition, \
a_edition_monster_life4 (got 'b_edition')
    """
    from labkit import ArgumentError

    stem = str(name).removesuffix(".json")
    known = shipped_balances()
    if stem not in known:
        raise ArgumentError(f"no shipped balance of that name; shipped: {', '.join(known)}",
                            argument="name", value=name)  # fmt: skip
    return data_path("balance", f"{stem}.json")


def balance_file(path: str | os.PathLike) -> Path:
    """A balance file path as given, or, when no such file exists and ``path`` is a bare name
    (no folder), the shipped balance of that name: ``"a_edition_monster_life4"`` works from a
    notebook outside the checkout as ``data/balance/a_edition_monster_life4.json`` does inside.

    Examples
    --------
    >>> balance_file("a_edition_monster_life4") == shipped_balance("a_edition_monster_life4")
    True
    >>> balance_file("my_balance.json").name  # not shipped: the path as given
    'my_balance.json'
    """
    given = Path(path)
    # a bare name, or the README's data/balance/<name>.json read from outside the checkout
    if given.exists() or given.parts[:-1] not in ((), ("data", "balance")):
        return given
    stem = given.name.removesuffix(".json")
    return shipped_balance(stem) if stem in shipped_balances() else given


def load_balance(path: str | os.PathLike | None = None) -> Balance:
    """Load and validate a balance file: an alias of :meth:`Balance.load`.

    Examples
    --------
    >>> load_balance().edition == default_balance().edition
    True
    """
    return Balance.load(path)


@functools.lru_cache(maxsize=1)
def default_balance() -> Balance:
    """The shipped A edition, loaded once.

    Examples
    --------
    >>> default_balance() is default_balance()  # loaded once
    True
    """
    return load_balance(DEFAULT_PATH)
