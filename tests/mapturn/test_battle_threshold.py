"""A battle whose damage equals the hero's HP is lost (SPEC M7; skills module notes: the battle
fails "when ... the damage taken is at least the hero's HP").

Magic-tower arithmetic, worked by hand: a hero with ATK 10 against DEF 5 deals 5 a turn, so an
enemy of HP 25 falls on the hero's 5th blow; it strikes back after each of the first 4, for
ATK 5 − DEF 0 = 5 each: 20 damage in all.
"""

from __future__ import annotations

import math

import pytest

from labkit.mapturn.battle import classic_battle
from labkit.mapturn.defs import EnemyDef
from labkit.mapturn.world import Hero

from .helpers import game

BRUTE = EnemyDef("brute", "brute", hp=25, atk=5, defense=5)


@pytest.mark.parametrize("hp, won", [(19, False), (20, False), (21, True), (100, True)])
def test_damage_equal_to_hp_loses(hp, won):
    outcome = classic_battle(Hero("F1", 0, 0, hp=hp, atk=10, defense=0), BRUTE)
    assert outcome.damage == 20
    assert outcome.won is won


def test_an_enemy_that_cannot_be_hurt_is_a_loss():
    outcome = classic_battle(Hero("F1", 0, 0, hp=10**6, atk=5, defense=0), BRUTE)
    assert outcome.won is False and math.isinf(outcome.damage)


def test_one_point_of_attack_more_kills_in_fewer_turns():
    # ATK 11 vs DEF 5: 6 a turn, 25 HP falls on the 5th blow still (ceil(25/6) = 5): 20 damage;
    # ATK 12: 7 a turn, ceil(25/7) = 4 blows: 15 damage.
    assert classic_battle(Hero("F1", 0, 0, hp=21, atk=11, defense=0), BRUTE).damage == 20
    assert classic_battle(Hero("F1", 0, 0, hp=16, atk=12, defense=0), BRUTE).damage == 15
    # Defence takes off the enemy's blows: DEF 2 -> 3 a blow, 4 blows back: 12.
    assert classic_battle(Hero("F1", 0, 0, hp=13, atk=10, defense=2), BRUTE).damage == 12
    assert classic_battle(Hero("F1", 0, 0, hp=12, atk=10, defense=2), BRUTE).won is False


ROOM = """
#####
#Hi.#
#####
"""


@pytest.mark.parametrize("hp, dead, hp_after", [(20, True, None), (21, False, 1)])
def test_walking_into_a_battle_of_exactly_lethal_damage_kills(hp, dead, hp_after):
    engine, act = game(
        ROOM,
        hero={"hp": hp, "atk": 10, "def": 0},
        enemies={"idler": {"hp": 25, "atk": 5, "def": 5, "timeCost": 0}},
    )
    act.move("R")
    hero = engine.world.hero
    assert hero.dead is dead
    if not dead:
        assert hero.hp == hp_after
