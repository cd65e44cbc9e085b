"""Balance data: the shipped edition loads; every broken rule names its field and value."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from labkit.encounter.rules.balance import (
    DEFAULT_PATH,
    BalanceError,
    balance_from_dict,
    default_balance,
    load_balance,
)

DOC = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_shipped_edition_matches_the_spec():
    b = load_balance()
    assert b.hit_table.tolist() == [0.02, 0.04, 0.08, 0.14, 0.20, 0.30, 0.45, 0.60, 0.75]
    assert b.pursuit_table.tolist() == [0.01, 0.03, 0.06, 0.10, 0.14, 0.21, 0.32, 0.42, 0.53]
    assert dict(b.pool_stock) == {"long_knife": 2, "revolver": 3, "bullet": 20, "silencer": 1}
    assert (b.priority.base, b.priority.per_agility, b.priority.min, b.priority.max) == (
        0.5,
        0.2,
        0.1,
        0.9,
    )
    assert b.quota_item == "bullet"
    assert "fists" not in b.items and "revolver" in b.items


def test_tables_are_read_only():
    with pytest.raises(ValueError):
        default_balance().hit_table[0] = 0.5


def _broken(path: tuple, value):
    doc = copy.deepcopy(DOC)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "pointer", "words"),
    [
        (("tables", "hit"), [0.1] * 8, "/tables/hit", "9 probabilities"),
        (("tables", "hit", 3), 0.05, "/tables/hit/3", "increasing"),
        (("tables", "pursuit", 8), 1.5, "/tables/pursuit/8", "between 0 and 1"),
        (("tables", "pursuit", 0), "x", "/tables/pursuit/0", "probability"),
        (("card_pool", "stock", "bullet"), -1, "/card_pool/stock/bullet", "between 0"),
        (("card_pool", "stock", "bazooka"), 1, "/card_pool/stock/bazooka", "unknown item"),
        (("card_pool", "quota_item"), "arrow", "/card_pool/quota_item", "unknown item"),
        (("characters", "npc", "weapon"), "spoon", "/characters/npc/weapon", "unknown weapon"),
        (("characters", "npc", "life"), 0, "/characters/npc/life", "between 1"),
        (("weapons", "revolver", "ammo"), "arrow", "/weapons/revolver/ammo", "unknown ammo"),
        (("weapons", "revolver", "magazine"), 0, "/weapons/revolver/magazine", "magazine"),
        (("weapons", "long_knife", "damage"), KeyError, "/weapons/long_knife/damage", "missing"),
        (("priority", "min"), 0.95, "/priority", "min <= max"),
        (("attachments", "silencer", "fits"), "bow", "/attachments/silencer/fits", "unknown"),
        (("version",), 7, "/version", "unsupported version"),
    ],
)
def test_broken_rules_name_field_and_value(path, value, pointer, words):
    with pytest.raises(BalanceError) as info:
        balance_from_dict(_broken(path, value))
    assert info.value.pointer == pointer
    assert words in str(info.value)


def test_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps(_broken(("tables", "hit", 0), 2)), encoding="utf-8")
    with pytest.raises(BalanceError, match="b.json: /tables/hit/0"):
        load_balance(bad)


def test_replace_revalidates_tables():
    b = default_balance()
    edited = b.replace(hit_table=np.linspace(0.1, 0.9, 9))
    assert edited.hit_table[0] == pytest.approx(0.1) and b.hit_table[0] == 0.02
    with pytest.raises(BalanceError, match="increasing"):
        b.replace(pursuit_table=[0.5] * 9)


def test_with_weapon_changes_one_stat():
    b = default_balance()
    edited = b.with_weapon("revolver", pursuit=0)
    assert edited.weapons["revolver"].pursuit == 0 and b.weapons["revolver"].pursuit == 2
    with pytest.raises(BalanceError, match="unknown weapon stat"):
        b.with_weapon("revolver", speed=3)
    with pytest.raises(BalanceError, match="unknown weapon"):
        b.with_weapon("bow", damage=1)
