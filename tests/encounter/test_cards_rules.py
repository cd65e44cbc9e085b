"""Items (SPEC E5), rule by rule: defaults, counts, quotas, magazines, noise, records.

Expected values are worked by hand from SPEC E5 and the A-edition balance file
(``data/balance/a_edition.json``: revolver noise 5, ammo ``bullet``, magazine 6; long knife
noise 1; fists noise 1, claws noise 2; silencer fits the revolver, noise -3).
"""

from __future__ import annotations

from types import MappingProxyType

import pytest

from labkit.encounter.rules.balance import default_balance
from labkit.encounter.rules.cards import Bag, CardPool, ItemCounts, ItemError, Room

B = default_balance()


# -- counts -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [True, False, 2.5, 1.0, "1", 0, -1])
def test_a_count_must_be_a_positive_integer_not_a_bool_or_float(n):
    with pytest.raises(ItemError):
        ItemCounts().add("a", n)


def test_add_and_remove_move_one_copy_by_default():
    c = ItemCounts({"a": 3})
    c.add("a")
    assert c.count("a") == 4
    assert c.remove("a") and c.count("a") == 3


def test_item_counts_equal_only_item_counts_with_the_same_counts():
    assert ItemCounts({"a": 1}) == ItemCounts({"a": 1})
    assert ItemCounts({"a": 1}) != ItemCounts({"a": 2})
    assert (ItemCounts() == {}) is False
    assert (ItemCounts() == 0) is False


def test_records_of_counts_and_pool():
    c = ItemCounts({"b": 1, "a": 2})
    assert repr(c) == "ItemCounts({'a': 2, 'b': 1})"
    assert repr(Bag({"bullet": 2})) == "Bag({'bullet': 2})"
    pool = CardPool({"bullet": 4, "revolver": 1}, quotas={"r1": 4}, quota_item="bullet")
    expected = {"stock": {"bullet": 4, "revolver": 1}, "quotas": {"r1": 4}, "quota_item": "bullet"}
    assert pool.to_dict() == expected and pool.as_dict() == expected
    assert CardPool({"bullet": 1}).to_dict() == {
        "stock": {"bullet": 1},
        "quotas": {},
        "quota_item": None,
    }


# -- the pool -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [True, 2.5, -1])
def test_pool_stock_must_be_a_non_negative_integer(n):
    with pytest.raises(ItemError):
        CardPool({"bullet": n})


def test_an_empty_stock_is_allowed_and_yields_nothing():
    pool = CardPool({"bullet": 0})
    assert pool.remaining("bullet") == 0 and pool.quota_item is None
    assert not pool.try_take("bullet")


def test_a_edition_uses_the_given_balance():
    # 5 bullet cards over 2 rooms: 2 each, the remainder 1 to the first room.
    stock = MappingProxyType({"revolver": 1, "bullet": 5})
    pool = CardPool.a_edition(["a", "b"], balance=B.replace(pool_stock=stock))
    assert pool.quotas == {"a": 3, "b": 2}
    assert pool.remaining("bullet") == 5 and pool.remaining("revolver") == 1


# -- rooms --------------------------------------------------------------------------------


def test_stocking_a_room_takes_one_card_by_default_within_its_quota():
    pool = CardPool({"bullet": 3}, quotas={"r1": 1}, quota_item="bullet")
    room, kitchen = Room("r1"), Room("kitchen")
    assert room.stock_from(pool, "bullet")
    assert room.loot.to_dict() == {"bullet": 1} and pool.remaining("bullet") == 2
    assert room.stock_from(pool, "bullet") is False  # its quota of 1 is spent
    assert kitchen.stock_from(pool, "bullet") is False  # no quota: no bullets
    assert room.loot.to_dict() == {"bullet": 1} and kitchen.loot.total() == 0
    assert pool.remaining("bullet") == 2


def test_picking_up_dropped_loot_leaves_the_loot_alone():
    room, bag = Room("r"), Bag()
    room.dropped_loot.add("bullet", 2)
    room.loot.add("bullet", 5)
    assert bag.pick_up(room, "bullet", 2, dropped=True)
    assert room.dropped_loot.total() == 0 and room.loot.count("bullet") == 5
    assert bag.count("bullet") == 2
    assert not bag.pick_up(room, "bullet", dropped=True)  # nothing dropped is left


# -- bags ---------------------------------------------------------------------------------


def test_a_new_bag_is_empty_with_nothing_equipped_or_loaded():
    bag = Bag()
    assert (bag.weapon, bag.armour, bag.attachment, bag.loaded, bag.spent) == (
        None,
        None,
        None,
        0,
        {},
    )
    assert bag.total() == 0 and bag.loadout().ammo == 0


def test_bag_add_takes_one_by_default_and_names_an_unknown_item():
    bag = Bag()
    bag.add("bullet")
    assert bag.count("bullet") == 1
    with pytest.raises(ItemError) as err:
        bag.add("claws")
    assert str(err.value) == "item: unknown item (got 'claws')"


def test_a_bag_uses_the_given_balance():
    bag = Bag({"revolver": 1, "bullet": 5}, balance=B.with_weapon("revolver", magazine=2))
    assert bag.equip("revolver") and bag.load() == 2 and bag.count("bullet") == 3


def test_take_card_draws_one_by_default_and_honours_the_room_quota():
    pool = CardPool({"bullet": 3, "revolver": 2}, quotas={"r1": 1}, quota_item="bullet")
    bag = Bag()
    assert bag.take_card(pool, "revolver") is True
    assert bag.count("revolver") == 1 and pool.remaining("revolver") == 1
    assert bag.take_card(pool, "bullet", room="kitchen") is False  # no quota there
    assert bag.take_card(pool, "bullet", room="r1", n=2) is False  # quota 1
    assert bag.count("bullet") == 0 and pool.remaining("bullet") == 3
    assert bag.take_card(pool, "bullet", room="r1") is True and pool.quota("r1") == 0


def test_loading_fills_the_magazine_up_to_six():
    bag = Bag({"revolver": 1, "bullet": 12})
    assert bag.equip("revolver")
    assert bag.load(1) == 1 and (bag.loaded, bag.count("bullet")) == (1, 11)
    assert bag.load(10) == 5 and (bag.loaded, bag.count("bullet")) == (6, 6)  # room for 5
    assert bag.load() == 0 and (bag.loaded, bag.count("bullet")) == (6, 6)  # full


def test_loading_tops_up_only_the_free_room():
    bag = Bag({"revolver": 1, "bullet": 10})
    assert bag.equip("revolver") and bag.load(2) == 2
    assert bag.load() == 4 and (bag.loaded, bag.count("bullet")) == (6, 4)


def test_loading_without_bullets_or_without_a_gun_moves_nothing():
    bag = Bag({"revolver": 1})
    assert bag.equip("revolver") and bag.load() == 0 and bag.loaded == 0
    knife = Bag({"long_knife": 1, "bullet": 3})
    assert knife.equip("long_knife")
    # A melee weapon has no magazine: nothing to load, whatever is asked.
    assert knife.load() == 0 and knife.load(0) == 0 and knife.count("bullet") == 3


def test_firing_spends_each_loaded_round_then_stops():
    bag = Bag({"revolver": 1, "bullet": 2})
    assert bag.equip("revolver")
    assert bag.fire() is False and bag.loaded == 0  # empty magazine
    assert bag.load() == 2
    assert bag.fire() and bag.fire()
    assert bag.loaded == 0 and bag.spent == {"bullet": 2}
    assert bag.fire() is False and bag.loaded == 0 and bag.spent == {"bullet": 2}


def test_one_loaded_round_can_be_fired():
    bag = Bag({"revolver": 1, "bullet": 1})
    assert bag.equip("revolver") and bag.load() == 1
    assert bag.fire() is True and bag.loaded == 0 and bag.spent == {"bullet": 1}


def test_silencer_fits_the_revolver_and_comes_off_cleanly():
    bag = Bag({"revolver": 1, "silencer": 1})
    assert bag.noise() == 1  # fists
    assert bag.noise("claws") == 2
    assert bag.equip("revolver") and bag.noise() == 5
    assert bag.equip("silencer") and bag.attachment == "silencer"
    assert bag.noise() == 2  # 5 - 3
    assert bag.unequip("silencer") and bag.attachment is None and bag.noise() == 5


def test_dropping_what_is_not_held_drops_nothing():
    room, bag = Room("r"), Bag({"bullet": 1})
    assert bag.drop("revolver", room) == 0
    assert bag.drop("bullet", room, 2) == 0
    assert room.dropped_loot.total() == 0 and bag.count("bullet") == 1


def test_death_takes_off_the_armour():
    room, bag = Room("r"), Bag({"leather_coat": 1})
    assert bag.equip("leather_coat")
    bag.die_into(room)
    assert bag.armour is None and room.dropped_loot.to_dict() == {"leather_coat": 1}


def test_loadout_passes_character_stealth_and_extras():
    bag = Bag({"long_knife": 1})
    assert bag.equip("long_knife")
    plain = bag.loadout()
    assert (plain.character, plain.weapon, plain.stealth, plain.ammo) == (
        "npc",
        "long_knife",
        False,
        0,
    )
    sneaky = bag.loadout("monster", stealth=True, life=2)
    assert (sneaky.character, sneaky.stealth, sneaky.life) == ("monster", True, 2)
