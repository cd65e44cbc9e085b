"""One glossary for every answer a designer reads: apps, summaries and CLI lines alike."""

from __future__ import annotations

import pytest

from labkit import glossary
from labkit.encounter.sim.knobs import Knob, knob_label


@pytest.mark.parametrize(
    ("pointer", "said"),
    [
        ("/characters/monster/life", "monster life (wounds it takes)"),
        ("/characters/npc/agility", "NPC agility (index steps)"),
        ("/weapons/long_knife/noise", "long knife noise (rooms it carries)"),
        ("/armour/vest/protection", "vest protection (wounds blocked)"),
        # the tables are indexed by attacker level − target agility, −4 … +4 (docs/rules)
        ("/tables/hit/0", "hit chance at index −4"),
        ("/tables/hit/4", "hit chance at index 0"),
        ("/tables/pursuit/8", "pursuit chance at index +4"),
        ("/card_pool/stock/long_knife", "long knives in the card pool"),
        ("max_steps", "step limit (steps)"),
        ("npcs", "NPCs in the game (NPCs)"),
    ],
)
def test_a_knob_reads_as_the_apps_say_it(pointer, said):
    assert glossary.parameter_words(pointer) == said
    assert knob_label(pointer) == said  # tune_many, importance and the CLI
    assert Knob(pointer, 1, 2, True).label == said


def test_a_stand_in_models_own_knob_keeps_its_name():
    assert knob_label("a") == "a" and knob_label("some_knob") == "some_knob"


def test_the_apps_glossary_is_this_one():
    from labkit.widgets import glossary as apps

    for name in apps.__all__:
        assert getattr(apps, name) is getattr(glossary, name)
    assert glossary.words("npc_win") == "NPC win rate"
    assert glossary.words("unknown_field") == "unknown field"
