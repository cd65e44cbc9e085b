"""Items (rule E5): the global card pool, room loot, bags, equipment and magazines.

The :class:`CardPool` holds the global remaining stock (A edition: 2 long knives, 3 revolvers,
20 bullet cards, 1 silencer — from the balance file). Once a card is taken it no longer counts
in the pool: it sits in a room's ``loot``, in a :class:`Bag`, in a gun's magazine or in a room's
``dropped_loot`` (dropped or left by the dead), so the total of every item is conserved
(:func:`census` adds it all up).

Decisions the rules leave open, recorded here:

* **Quotas.** The quota item's whole stock (bullets) is spread evenly over the rooms that may
  yield it, in the order given; the remainder goes one each to the first rooms. A quota is a cap,
  not a reservation. ``try_take(item)`` checks the global stock only; ``try_take(item, room)``
  also checks and spends that room's quota for the quota item (a room without a quota yields
  none); other items ignore the room. Taking is all or nothing.
* **One bullet card = one round.** A gun's magazine holds up to ``magazine`` rounds; loaded
  rounds belong to the equipped gun, not the bag count. Firing spends a round (it leaves the
  item economy and is tallied in ``Bag.spent``).
* **Dropping.** Dropping the last equipped item unequips it. When the last copy of the equipped
  gun leaves the bag its magazine is first unloaded into the bag (the owner keeps the rounds)
  and a fitted attachment comes off. Switching guns unloads the same way. On death everything —
  bag, equipment and loaded rounds — goes to the room's ``dropped_loot``.
* Unknown item names raise :class:`ItemError`; impossible requests (too few held, nothing to
  fit on) return ``False``/``0`` so a policy may try them.

Examples
--------
>>> pool = CardPool.a_edition(rooms=["hall", "cellar", "attic"])
>>> pool.quota("hall"), pool.quota("attic"), pool.remaining("bullet")
(7, 6, 20)
>>> pool.try_take("bullet", room="attic", n=6), pool.try_take("bullet", room="attic")
(True, False)
>>> bag = Bag()
>>> bag.add("revolver"); bag.add("bullet", 4)
>>> bag.equip("revolver"), bag.load(), bag.loaded
(True, 4, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from labkit import ArgumentError
from labkit.encounter.rules.balance import Balance, default_balance
from labkit.encounter.rules.combat import Loadout

__all__ = ["ItemError", "ItemCounts", "CardPool", "Room", "Bag", "census"]


class ItemError(ArgumentError):
    """Unknown item or room, or a malformed count (an :class:`~labkit.ArgumentError` naming it)."""


def _check_n(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ItemError("count must be a positive integer", argument="n", value=n)
    return n


class ItemCounts:
    """A multiset of item names with non-negative counts (seed: ItemCollection).

    Examples
    --------
    >>> c = ItemCounts({"bullet": 2})
    >>> c.add("bullet", 3); c.count("bullet"), c.total(), c.to_dict()
    (5, 5, {'bullet': 5})
    """

    def __init__(self, counts: Mapping[str, int] | None = None) -> None:
        self._counts: dict[str, int] = {}
        for item, n in (counts or {}).items():
            if n:
                self.add(item, n)

    def count(self, item: str) -> int:
        return self._counts.get(item, 0)

    def add(self, item: str, n: int = 1) -> None:
        self._counts[item] = self._counts.get(item, 0) + _check_n(n)

    def remove(self, item: str, n: int = 1) -> bool:
        """Remove ``n`` of ``item``; all or nothing; False when fewer are held."""
        have = self._counts.get(item, 0)
        if have < _check_n(n):
            return False
        if have == n:
            del self._counts[item]
        else:
            self._counts[item] = have - n
        return True

    def total(self) -> int:
        return sum(self._counts.values())

    def as_dict(self) -> dict[str, int]:
        """The same as :meth:`to_dict` (the older name)."""
        return self.to_dict()

    def to_dict(self) -> dict[str, int]:
        return dict(sorted(self._counts.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ItemCounts) and self._counts == other._counts

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.as_dict()})"


class CardPool:
    """Global remaining stock plus per-room quotas of the quota item (seed: CardPool).

    Examples
    --------
    >>> pool = CardPool.a_edition()
    >>> pool.remaining("bullet"), pool.quota_item
    (20, 'bullet')
    """

    def __init__(
        self,
        stock: Mapping[str, int],
        quotas: Mapping[str, int] | None = None,
        quota_item: str | None = None,
    ) -> None:
        for item, n in stock.items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ItemError(
                    "must be a non-negative integer", argument=f"stock[{item!r}]", value=n
                )
        if quota_item is not None and quota_item not in stock:
            raise ItemError("not in the stock", argument="quota_item", value=quota_item)
        self._stock = dict(stock)
        self._quotas = dict(quotas or {})
        self.quota_item = quota_item

    @classmethod
    def a_edition(cls, rooms: Iterable[str] = (), balance: Balance | None = None) -> CardPool:
        """The balance's edition stock, quota item spread over ``rooms`` (those that may yield it).

        Examples
        --------
        >>> CardPool.a_edition(["a", "b", "c"]).quotas
        {'a': 7, 'b': 7, 'c': 6}
        """
        b = default_balance() if balance is None else balance
        rooms = list(dict.fromkeys(rooms))
        quotas: dict[str, int] = {}
        if b.quota_item is not None and rooms:
            each, extra = divmod(b.pool_stock[b.quota_item], len(rooms))
            quotas = {r: each + (1 if i < extra else 0) for i, r in enumerate(rooms)}
        return cls(dict(b.pool_stock), quotas, b.quota_item)

    @property
    def quotas(self) -> dict[str, int]:
        return dict(self._quotas)

    def remaining(self, item: str) -> int:
        if item not in self._stock:
            raise ItemError("unknown item", argument="item", value=item)
        return self._stock[item]

    def quota(self, room: str) -> int:
        """Remaining quota-item allowance of ``room`` (0 for a room without a quota)."""
        return self._quotas.get(room, 0)

    def try_take(self, item: str, room: str | None = None, n: int = 1) -> bool:
        """Take ``n`` cards of ``item`` if the global stock (and the room's quota) allow it."""
        if self.remaining(item) < _check_n(n):
            return False
        if room is not None and item == self.quota_item:  # the quota applies
            if self.quota(room) < n:
                return False
            self._quotas[room] -= n
        self._stock[item] -= n
        return True

    def as_dict(self) -> dict:
        """The same as :meth:`to_dict` (the older name)."""
        return self.to_dict()

    def to_dict(self) -> dict:
        return {
            "stock": dict(self._stock),
            "quotas": dict(self._quotas),
            "quota_item": self.quota_item,
        }


@dataclass
class Room:
    """A room's items: ``loot`` found by exploring, ``dropped_loot`` left by actors.

    Examples
    --------
    >>> room = Room("2,1")
    >>> room.id, room.loot.total(), room.dropped_loot.total()
    ('2,1', 0, 0)
    """

    id: str
    loot: ItemCounts = field(default_factory=ItemCounts)
    dropped_loot: ItemCounts = field(default_factory=ItemCounts)

    def stock_from(self, pool: CardPool, item: str, n: int = 1) -> bool:
        """Move ``n`` cards from the pool into this room's loot (quota checked)."""
        if pool.try_take(item, room=self.id, n=n):
            self.loot.add(item, n)
            return True
        return False


class Bag(ItemCounts):
    """An actor's bag with equipment slots and the equipped gun's magazine (seed: Bag).

    Examples
    --------
    >>> bag = Bag({"long_knife": 1, "bullet": 2})
    >>> bag.count("bullet"), bag.total()
    (2, 3)
    """

    def __init__(self, counts: Mapping[str, int] | None = None, balance: Balance | None = None):
        self.balance = default_balance() if balance is None else balance
        super().__init__(counts)
        self.weapon: str | None = None
        self.armour: str | None = None
        self.attachment: str | None = None
        self.loaded = 0
        self.spent: dict[str, int] = {}  # rounds fired, per ammo item

    def add(self, item: str, n: int = 1) -> None:
        if item not in self.balance.items:
            raise ItemError("unknown item", argument="item", value=item)
        super().add(item, n)

    def _gun(self):
        w = self.balance.weapons.get(self.weapon) if self.weapon else None
        return w if w is not None and w.ammo is not None else None

    def holding(self, item: str) -> int:
        """Copies held, counting the rounds in the magazine for the ammo item."""
        gun = self._gun()
        return self.count(item) + (self.loaded if gun and gun.ammo == item else 0)

    def equip(self, item: str) -> bool:
        """Equip a held weapon, armour or attachment; False if not held or nothing to fit on."""
        b = self.balance
        if self.count(item) < 1:
            return False
        if item in b.weapons:
            if item != self.weapon:
                self._unequip_weapon()
                self.weapon = item
            return True
        if item in b.armour:
            self.armour = item
            return True
        if item in b.attachments and b.attachments[item].fits == self.weapon:
            self.attachment = item
            return True
        return False

    def _unequip_weapon(self) -> None:
        self.unload()
        self.weapon = None
        self.attachment = None

    def unequip(self, item: str) -> bool:
        """Take off an equipped item (it stays in the bag)."""
        if item == self.weapon:
            self._unequip_weapon()
        elif item == self.armour:
            self.armour = None
        elif item == self.attachment:
            self.attachment = None
        else:
            return False
        return True

    def load(self, n: int | None = None) -> int:
        """Move rounds from the bag into the equipped gun (up to its magazine); returns how many."""
        gun = self._gun()
        if gun is None:
            return 0
        room = gun.magazine - self.loaded
        k = min(room, self.count(gun.ammo), room if n is None else _check_n(n))
        if k > 0:
            self.remove(gun.ammo, k)
            self.loaded += k
        return max(k, 0)

    def unload(self) -> int:
        """Empty the magazine back into the bag; returns the rounds moved."""
        gun, k = self._gun(), self.loaded
        if gun is not None and k:
            super().add(gun.ammo, k)
        self.loaded = 0
        return k

    def fire(self) -> bool:
        """Spend one loaded round; False with an empty magazine or no gun."""
        if self._gun() is None or self.loaded == 0:
            return False
        self.loaded -= 1
        ammo = self._gun().ammo
        self.spent[ammo] = self.spent.get(ammo, 0) + 1
        return True

    def drop(self, item: str, room: Room, n: int = 1) -> int:
        """Drop ``n`` copies into ``room.dropped_loot``; returns how many were dropped (0 or n)."""
        if self.count(item) < _check_n(n):
            return 0
        last = self.count(item) == n
        if last and item in (self.weapon, self.armour, self.attachment):
            self.unequip(item)  # unloading first: the rounds stay in the bag
        self.remove(item, n)
        room.dropped_loot.add(item, n)
        return n

    def pick_up(self, room: Room, item: str, n: int = 1, *, dropped: bool = False) -> bool:
        """Move ``n`` of ``item`` from the room's loot (or its dropped loot) into the bag."""
        source = room.dropped_loot if dropped else room.loot
        if not source.remove(item, n):
            return False
        self.add(item, n)
        return True

    def take_card(self, pool: CardPool, item: str, room: str | None = None, n: int = 1) -> bool:
        """Draw straight from the pool into the bag (exploring finds a card)."""
        if pool.try_take(item, room=room, n=n):
            self.add(item, n)
            return True
        return False

    def die_into(self, room: Room) -> None:
        """Death: everything held, loaded rounds included, goes to ``room.dropped_loot``."""
        self._unequip_weapon()
        self.armour = None
        for item, n in self.as_dict().items():
            self.remove(item, n)
            room.dropped_loot.add(item, n)

    def loadout(self, character: str = "npc", *, stealth: bool = False, **kw) -> Loadout:
        """The combat loadout of this bag's equipment (loaded rounds as ammo)."""
        return Loadout(character, self.weapon, self.armour, stealth, ammo=self.loaded, **kw)

    def noise(self, natural: str = "fists") -> int:
        """Exposure level of a blow with the equipped weapon (else the ``natural`` one), >= 1."""
        b = self.balance
        level = b.weapons[self.weapon or natural].noise
        if self.attachment:
            level += b.attachments[self.attachment].noise
        return max(level, 1)


def census(item: str, pool: CardPool, rooms: Iterable[Room], bags: Iterable[Bag]) -> int:
    """Every copy of ``item`` anywhere: pool + loot + dropped loot + bags + magazines + spent.

    Examples
    --------
    >>> pool = CardPool.a_edition()
    >>> census("bullet", pool, [Room("0,0")], [Bag({"bullet": 2})]) == pool.remaining("bullet") + 2
    True
    """
    total = pool.remaining(item)
    total += sum(r.loot.count(item) + r.dropped_loot.count(item) for r in rooms)
    return total + sum(bag.holding(item) + bag.spent.get(item, 0) for bag in bags)
