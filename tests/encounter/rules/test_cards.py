"""Items: pool and quotas, bags and equipment, and conservation under any action sequence."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from labkit import ArgumentError
from labkit.encounter.rules.balance import default_balance
from labkit.encounter.rules.cards import Bag, CardPool, ItemCounts, ItemError, Room, census

B = default_balance()
ITEMS = list(B.pool_stock)


def test_a_edition_stock_and_even_bullet_quota():
    pool = CardPool.a_edition(["r1", "r2", "r3"])
    assert {i: pool.remaining(i) for i in ITEMS} == {
        "long_knife": 2,
        "revolver": 3,
        "bullet": 20,
        "silencer": 1,
    }
    assert pool.quotas == {"r1": 7, "r2": 7, "r3": 6} and sum(pool.quotas.values()) == 20


def test_try_take_checks_stock_and_room_quota():
    pool = CardPool.a_edition(["r1", "r2"])
    assert not pool.try_take("bullet", room="kitchen")  # no quota: yields no bullets
    assert pool.try_take("bullet", room="r1", n=10)
    assert not pool.try_take("bullet", room="r1")  # quota spent, stock left
    assert pool.remaining("bullet") == 10 and pool.quota("r1") == 0
    assert pool.try_take("bullet", n=10)  # without a room: global stock only
    assert not pool.try_take("bullet")
    assert pool.try_take("revolver", room="kitchen")  # quotas only bind the quota item
    assert pool.try_take("revolver", n=2) and not pool.try_take("revolver")
    with pytest.raises(ItemError, match="unknown item"):
        pool.try_take("bazooka")
    with pytest.raises(ItemError, match="positive"):
        pool.try_take("bullet", n=0)
    with pytest.raises(ItemError, match="non-negative"):
        CardPool({"bullet": -2})


def test_bad_item_arguments_name_the_argument_and_the_value():
    pool = CardPool({"bullet": 3}, quotas={"r1": 1}, quota_item="bullet")
    cases = [
        (lambda: pool.try_take("bazooka"), "item: unknown item (got 'bazooka')"),
        (lambda: pool.try_take("bullet", n=0), "n: count must be a positive integer (got 0)"),
        (
            lambda: CardPool({"bullet": -2}),
            "stock['bullet']: must be a non-negative integer (got -2)",
        ),
        (
            lambda: CardPool({"bullet": 1}, quota_item="knife"),
            "quota_item: not in the stock (got 'knife')",
        ),
    ]
    for call, message in cases:
        with pytest.raises(ArgumentError) as err:
            call()
        assert isinstance(err.value, ItemError) and str(err.value) == message


def test_room_keeps_loot_and_dropped_loot_apart():
    pool, room, bag = CardPool.a_edition(["hall"]), Room("hall"), Bag()
    assert room.stock_from(pool, "bullet", 3)
    assert bag.pick_up(room, "bullet", 2)
    assert bag.drop("bullet", room) == 1
    assert room.loot.as_dict() == {"bullet": 1} and room.dropped_loot.as_dict() == {"bullet": 1}
    assert not bag.pick_up(room, "bullet", 2, dropped=True)
    assert bag.pick_up(room, "bullet", dropped=True)


def test_dropping_the_last_gun_unequips_and_unloads():
    room, bag = Room("r"), Bag({"revolver": 2, "bullet": 5, "silencer": 1})
    assert bag.equip("revolver") and bag.equip("silencer") and bag.load(3) == 3
    assert bag.count("bullet") == 2 and bag.holding("bullet") == 5
    assert bag.drop("revolver", room) == 1
    assert bag.weapon == "revolver" and bag.loaded == 3  # one revolver is still held
    assert bag.drop("revolver", room) == 1
    assert (bag.weapon, bag.attachment, bag.loaded) == (None, None, 0)
    assert bag.count("bullet") == 5  # the magazine came back to the bag
    assert bag.load() == 0 and not bag.fire()
    assert not bag.equip("silencer")  # nothing for it to fit on


def test_equipment_and_firing():
    bag = Bag({"long_knife": 1, "leather_coat": 1, "revolver": 1, "bullet": 8})
    assert not bag.equip("bazooka") and not bag.equip("silencer")
    assert bag.equip("long_knife") and bag.equip("leather_coat")
    assert bag.loadout().weapon == "long_knife" and bag.loadout().armour == "leather_coat"
    assert bag.noise() == B.weapons["long_knife"].noise
    assert bag.equip("revolver") and bag.load() == 6 and bag.fire()
    assert (bag.loaded, bag.spent, bag.loadout().ammo) == (5, {"bullet": 1}, 5)
    assert bag.equip("long_knife") and bag.count("bullet") == 7  # switching unloads
    assert bag.drop("leather_coat", Room("r")) == 1 and bag.armour is None
    assert bag.unequip("long_knife") and not bag.unequip("long_knife")
    with pytest.raises(ItemError):
        bag.add("claws")  # natural weapons are not items


def test_item_counts():
    c = ItemCounts({"a": 2, "b": 0})
    assert c.as_dict() == {"a": 2} and not c.remove("a", 3) and c.remove("a", 2)
    assert c.total() == 0 and c == ItemCounts()


class Economy(RuleBasedStateMachine):
    """Take / pick up / equip / load / fire / drop / die in any order conserve every item."""

    ROOMS = ("hall", "cellar", "attic")

    def __init__(self):
        super().__init__()
        self.pool = CardPool.a_edition(self.ROOMS[:2])
        self.rooms = {r: Room(r) for r in self.ROOMS}
        self.bags = [Bag(), Bag(), Bag()]
        self.graves: list[Bag] = []  # bags of the dead: must stay empty
        self.start = {i: self.pool.remaining(i) for i in ITEMS}

    actor = st.integers(0, 2)
    room = st.sampled_from(ROOMS)
    item = st.sampled_from(ITEMS)
    n = st.integers(1, 4)

    @rule(room=room, item=item, n=n)
    def stock_room(self, room, item, n):
        self.rooms[room].stock_from(self.pool, item, n)

    @rule(a=actor, item=item, room=st.none() | room, n=n)
    def take_card(self, a, item, room, n):
        self.bags[a].take_card(self.pool, item, room, n)

    @rule(a=actor, room=room, item=item, n=n, dropped=st.booleans())
    def pick_up(self, a, room, item, n, dropped):
        self.bags[a].pick_up(self.rooms[room], item, n, dropped=dropped)

    @rule(a=actor, gun=st.sampled_from(["revolver", "long_knife"]), n=n)
    def arm(self, a, gun, n):
        bag = self.bags[a]
        if bag.take_card(self.pool, gun) and bag.equip(gun):
            bag.take_card(self.pool, "bullet", n=n)
            bag.take_card(self.pool, "silencer")
            bag.equip("silencer")
            bag.load()

    @rule(a=actor, room=room, all_copies=st.booleans())
    def drop_weapon(self, a, room, all_copies):
        bag = self.bags[a]
        if bag.weapon:
            bag.drop(bag.weapon, self.rooms[room], bag.count(bag.weapon) if all_copies else 1)

    @rule(a=actor, data=st.data())
    def equip_held(self, a, data):
        held = sorted(self.bags[a].as_dict())
        if held:
            self.bags[a].equip(data.draw(st.sampled_from(held)))

    @rule(a=actor, room=room, data=st.data())
    def drop_held(self, a, room, data):
        bag = self.bags[a]
        held = sorted(bag.as_dict())
        if held:
            item = data.draw(st.sampled_from(held))
            n = data.draw(st.integers(1, bag.count(item)))
            assert bag.drop(item, self.rooms[room], n) == n

    @rule(a=actor, item=item)
    def equip(self, a, item):
        self.bags[a].equip(item)

    @rule(a=actor, item=item)
    def unequip(self, a, item):
        self.bags[a].unequip(item)

    @rule(a=actor, n=st.none() | n)
    def load(self, a, n):
        self.bags[a].load(n)

    @rule(a=actor)
    def fire(self, a):
        self.bags[a].fire()

    @rule(a=actor, room=room, item=item, n=n)
    def drop(self, a, room, item, n):
        self.bags[a].drop(item, self.rooms[room], n)

    @rule(a=actor, room=room)
    def die(self, a, room):
        self.bags[a].die_into(self.rooms[room])
        self.graves.append(self.bags[a])
        self.bags[a] = Bag()  # another actor takes the place

    @invariant()
    def every_item_is_conserved(self):
        for item in ITEMS:
            bags = self.bags + self.graves
            assert census(item, self.pool, self.rooms.values(), bags) == self.start[item]

    @invariant()
    def nobody_keeps_what_they_no_longer_hold(self):
        for bag in self.bags:
            for slot in (bag.weapon, bag.armour, bag.attachment):
                assert slot is None or bag.count(slot) >= 1
            if bag.attachment:
                assert B.attachments[bag.attachment].fits == bag.weapon
            if bag.loaded:
                gun = B.weapons[bag.weapon]
                assert gun.ammo is not None and bag.loaded <= gun.magazine
        for bag in self.graves:
            assert bag.total() == 0 and bag.loaded == 0 and bag.weapon is None


TestEconomy = Economy.TestCase
