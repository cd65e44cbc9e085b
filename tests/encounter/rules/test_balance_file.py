"""Writing a balance back to its document (``balance_to_dict``): the shipped A edition
round-trips to its file byte for byte (as JSON values); optional keys are written only when they
differ from what the reader defaults; free-form notes are copied, not shared."""

from __future__ import annotations

import dataclasses
import json

from labkit.encounter.rules.balance import DEFAULT_PATH, balance_from_dict, default_balance
from labkit.encounter.rules.balance_file import balance_to_dict


def test_the_shipped_edition_is_written_as_its_file():
    shipped = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    assert balance_to_dict(default_balance(), "labkit.balance", 1) == shipped


def test_the_header_is_the_one_asked_for():
    doc = balance_to_dict(default_balance(), "some.format", 7)
    assert (doc["format"], doc["version"]) == ("some.format", 7)
    assert list(doc)[:3] == ["format", "version", "edition"]


def test_weapon_keys_the_reader_defaults_are_left_out():
    weapons = balance_to_dict(default_balance(), "labkit.balance", 1)["weapons"]
    # the shipped file: a knife has no ammo, magazine or natural; fists are natural, unloaded
    assert weapons["long_knife"] == {"hit_score": 1, "pursuit": 1, "first_strike": 2,
                                     "agility": 1, "damage": 2, "noise": 1}  # fmt: skip
    assert weapons["fists"]["natural"] is True and "ammo" not in weapons["fists"]
    assert (weapons["revolver"]["ammo"], weapons["revolver"]["magazine"]) == ("bullet", 6)


def test_no_quota_item_and_no_notes_leave_their_keys_out():
    balance = dataclasses.replace(default_balance(), quota_item=None, notes=None)
    doc = balance_to_dict(balance, "labkit.balance", 1)
    assert doc["card_pool"] == {"stock": {"long_knife": 2, "revolver": 3, "bullet": 20,
                                          "silencer": 1}}  # fmt: skip
    assert "notes" not in doc
    assert balance_to_dict(balance_from_dict(doc), "labkit.balance", 1) == doc


def test_free_form_notes_are_a_copy_not_shared():
    balance = dataclasses.replace(default_balance(), notes={"why": ["first", "second"]})
    doc = balance_to_dict(balance, "labkit.balance", 1)
    assert doc["notes"] == {"why": ["first", "second"]}
    doc["notes"]["why"].append("added by the test")
    assert balance.notes == {"why": ["first", "second"]}
