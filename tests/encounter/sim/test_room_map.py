"""The seeded room map: room ids, compass steps, neighbours at edges and corners, the dealt
loot (bullets only in stores and armouries, the whole A-edition pool dealt), distinct spawns,
and the same map from the same seed. Expected values are worked from the module's rules."""

from __future__ import annotations

import pytest

from labkit.encounter.rules.balance import default_balance
from labkit.encounter.rules.sound import Compass
from labkit.encounter.sim import room_map
from labkit.encounter.sim.room_map import ROOM_KINDS, STEPS, YIELDS_QUOTA, parse_room, room_id

# The map's class, looked up by either of its names (the class is being renamed).
MapClass = room_map.RoomMap
ACTORS = ["npc-0", "npc-1", "monster-0"]


@pytest.mark.parametrize("pos", [(0, 0), (3, 1), (12, 7)])
def test_room_ids_are_x_comma_y_and_parse_back(pos):
    rid = room_id(pos)
    assert rid == f"{pos[0]},{pos[1]}"
    assert parse_room(rid) == pos


def test_compass_steps_have_y_down_as_south():
    assert [d.name for d in STEPS] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert STEPS[Compass.N] == (0, -1) and STEPS[Compass.S] == (0, 1)
    assert STEPS[Compass.E] == (1, 0) and STEPS[Compass.NW] == (-1, -1)
    assert all(max(abs(dx), abs(dy)) == 1 for dx, dy in STEPS.values())


def test_neighbours_in_compass_order_corners_and_edges():
    m = MapClass.generate(4, 3, ACTORS, rng=5)
    assert m.shape == (3, 4) and (m.width, m.height) == (4, 3)
    assert m.neighbours((0, 0)) == [(Compass.E, (1, 0)), (Compass.SE, (1, 1)),
                                    (Compass.S, (0, 1))]  # fmt: skip
    assert [d.name for d, _ in m.neighbours((3, 2))] == ["N", "W", "NW"]
    assert len(m.neighbours((1, 1))) == 8  # an inner room touches eight
    assert [d.name for d, _ in m.neighbours((1, 0))] == ["E", "SE", "S", "SW", "W"]
    assert m.step_to((1, 1), "NE") == (2, 0) and m.step_to((1, 1), "SW") == (0, 2)
    assert m.inside((3, 2)) and not m.inside((4, 2)) and not m.inside((0, -1))


@pytest.mark.parametrize("seed", range(6))
def test_the_whole_pool_is_dealt_bullets_only_where_they_may_be(seed):
    m = MapClass.generate(5, 4, ACTORS, rng=seed)
    stock = dict(default_balance().pool_stock)  # long_knife 2, revolver 3, bullet 20, silencer 1
    dealt: dict[str, int] = {}
    for pos, room in m.rooms.items():
        assert room.id == room_id(pos) and m.kind(pos) in ROOM_KINDS
        for item, n in room.loot.as_dict().items():
            dealt[item] = dealt.get(item, 0) + n
            if item == "bullet":
                assert m.kind(pos) in YIELDS_QUOTA, (pos, m.kind(pos))
    assert any(m.kind(p) in YIELDS_QUOTA for p in m.rooms)  # at least one store or armoury
    for item in ("long_knife", "revolver", "silencer"):
        assert dealt.get(item, 0) == stock[item]
    assert dealt.get("bullet", 0) <= stock["bullet"]
    spawns = list(m.spawns.values())
    assert sorted(m.spawns) == sorted(ACTORS) and len(set(spawns)) == len(ACTORS)
    assert all(m.inside(p) for p in spawns)


def test_the_same_seed_draws_the_same_map_and_another_seed_another():
    a = MapClass.generate(6, 5, ACTORS, rng=11).to_dict()
    b = MapClass.generate(6, 5, ACTORS, rng=11).to_dict()
    c = MapClass.generate(6, 5, ACTORS, rng=12).to_dict()
    assert a == b and a != c
    assert (a["width"], a["height"]) == (6, 5) and len(a["kinds"]) == 5
    assert all(len(row) == 6 and set(row) <= set(ROOM_KINDS) for row in a["kinds"])
    assert a["dropped_loot"] == {}  # nothing dropped before the game
