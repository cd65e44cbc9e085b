"""Map-turn engine rules pinned one by one (SPEC M1, M2, M5, M7, M8), expected values by hand.

Each test builds a tiny ASCII tower (see ``helpers``), so the runtime ids (``floor:x:y:enemy``),
log entries and messages below are read off the map, not off the engine.
"""

from __future__ import annotations

import json

import pytest

import labkit
from labkit import ArgumentError
from labkit.mapturn import MapTurn, MapTurnError, World, parse_tower
from labkit.mapturn.state import SaveError, SkillState

from .helpers import game, tower_doc

# A skill enemy acting twice per tick (timeCost 0.5, M5) through the handler "probe".
PROBE = {"hp": 10, "atk": 0, "def": 0, "timeCost": 0.5, "actType": "skill",
         "actArgs": {"handler": "probe"}}  # fmt: skip
ONCE = {**PROBE, "timeCost": 1}
HALF_IDLE = {"hp": 10, "atk": 0, "def": 0, "timeCost": 0.5}


class Recording(MapTurn):
    """An engine that records each enemy action with its reason instead of performing it."""

    def __init__(self, world: World, **options) -> None:
        super().__init__(world, **options)
        self.reasons: list[tuple[str, str]] = []

    def perform_enemy_action(self, entry, reason="<not passed>"):
        self.reasons.append((entry.runtime_id, reason))


def build(*floors: str, engine_class=MapTurn, enemies=None, **options):
    """An engine over an ASCII tower; ``enemies`` adds {letter: definition} (id 'x' + letter)."""
    extra = enemies or {}
    doc = tower_doc(*floors, enemies={f"x{k}": v for k, v in extra.items()},
                    letters={k: ("enemy", f"x{k}") for k in extra})  # fmt: skip
    return engine_class(World(parse_tower(doc)), **options)


# -- M2: what an amount of time is --------------------------------------------------------------
@pytest.mark.parametrize("n", [True, False, "3", None])
def test_a_non_number_amount_is_refused_naming_n(n):
    engine, _ = game("#####\n#Hs.#\n#####")
    with pytest.raises(ArgumentError) as err:
        engine.consume_time(n, "bad")
    assert str(err.value) == f"n: time is a whole number of units (got {n!r})"
    assert err.value.argument == "n" and err.value.value is n
    assert engine.state.clock == 0 and engine.advance_calls == 0


@pytest.mark.parametrize("n", [2.5, 0.5, float("inf")])
def test_a_positive_fraction_or_infinity_is_refused_naming_n(n):
    engine, _ = game("#####\n#Hs.#\n#####")
    with pytest.raises(ArgumentError) as err:
        engine.consume_time(n, "bad")
    assert str(err.value) == f"n: time is a whole number of units (got {n!r})"
    assert err.value.argument == "n"
    assert engine.state.clock == 0 and engine.advance_calls == 0


# -- M2: no clock re-entry from inside a tick ---------------------------------------------------
def test_time_cannot_be_consumed_from_inside_a_tick_but_zero_time_is_a_no_op():
    # A skill enemy whose handler tries to spend time while its own tick resolves.
    engine = build("#####\n#Hk.#\n#####", enemies={"k": ONCE})
    seen = []

    def probe(eng, entry):
        seen.append(eng.consume_time(0))  # M2: n <= 0 is a no-op, even here
        with pytest.raises(MapTurnError) as err:
            eng.consume_time(1)
        seen.append(str(err.value))

    engine.register_skill_handler("probe", probe)
    assert engine.consume_time(1, "walk") == 1
    assert seen == [0, "consume_time called from inside a tick (got '')"]
    # the tick ended: time can be spent again, and the handler runs once per tick
    assert engine.consume_time(1, "walk") == 1
    assert engine.state.clock == 2 and engine.advance_calls == 2 and len(seen) == 4


def test_the_reentry_error_names_the_reason_of_the_refused_call():
    engine = build("#####\n#Hk.#\n#####", enemies={"k": ONCE})
    messages = []

    def probe(eng, entry):
        try:
            eng.consume_time(2, "nested")
        except MapTurnError as exc:
            messages.append((str(exc), exc.value))

    engine.register_skill_handler("probe", probe)
    engine.consume_time(1, "outer")
    assert messages == [("consume_time called from inside a tick (got 'nested')", "nested")]


# -- M2: the reason reaches every enemy action of every tick ------------------------------------
def test_the_reason_reaches_each_enemy_action():
    # chaser at (2,1) behind walls: scheduled (timeCost 1), acts once per tick
    engine = build("#####\n#H#c#\n#####", engine_class=Recording)
    engine.consume_time(2, "tool")
    engine.advance_one("manual")
    engine.advance_one()
    assert engine.reasons == [("F1:3:1:chaser", "tool"), ("F1:3:1:chaser", "tool"),
                              ("F1:3:1:chaser", "manual"), ("F1:3:1:chaser", "")]  # fmt: skip


def test_time_spent_by_a_won_battle_carries_the_reason_battle_by_default():
    # guard (2,1) is fought; the chaser (4,1) behind a wall then acts once (battle time 1)
    engine = build("######\n#Hg#c#\n######", engine_class=Recording)
    assert engine.settle_battles([(2, 1)]) == [True]
    assert engine.reasons == [("F1:4:1:chaser", "battle")]
    assert engine.settle_battles([(4, 1)], reason="bomb") == [True]
    assert engine.reasons == [("F1:4:1:chaser", "battle")]  # the chaser is gone
    engine = build("######\n#Hg#c#\n######", engine_class=Recording)
    engine.settle_battles([(2, 1)], reason="charge")
    assert engine.reasons == [("F1:4:1:chaser", "charge")]


# -- M5: gauges, fractional costs, idle --------------------------------------------------------
def test_a_half_cost_idle_enemy_idles_twice_per_tick():
    engine = build("#####\n#Hh.#\n#####", enemies={"h": HALF_IDLE})
    engine.consume_time(2)
    rid = "F1:2:1:xh"
    assert engine.log == [(1, rid, "idle"), (1, rid, "idle"), (2, rid, "idle"), (2, rid, "idle")]
    assert engine.gauge("F1", 2, 1) == 0.0


def test_a_half_cost_skill_enemy_acts_twice_per_tick():
    engine = build("#####\n#Hk.#\n#####", enemies={"k": PROBE})
    calls = []
    engine.register_skill_handler("probe", lambda eng, e: calls.append((eng.state.map_turn, e.x)))
    engine.consume_time(1)
    assert calls == [(1, 2), (1, 2)]
    engine.consume_time(1)
    assert calls == [(1, 2), (1, 2), (2, 2), (2, 2)]


def test_a_half_cost_chaser_walks_two_cells_per_tick():
    fast = {"hp": 10, "atk": 5, "def": 0, "timeCost": 0.5, "actType": "chase"}
    engine = build("#######\n#H...f#\n#######", enemies={"f": fast})
    engine.consume_time(1)
    # from (5,1) toward the hero at (1,1): (4,1) then (3,1), gauge 1 - 0.5 - 0.5 = 0
    assert engine.cache.entries("F1") == [("F1:3:1:xf", 3, 1, "xf")]
    assert engine.gauge("F1", 3, 1) == 0.0


def test_an_action_that_kills_the_hero_ends_the_enemys_turn():
    # M1 death first: the second half-tick action of the same enemy does not happen.
    engine = build("#####\n#Hk.#\n#####", enemies={"k": PROBE})
    calls = []

    def probe(eng, entry):
        calls.append(eng.state.map_turn)
        eng.die("probed")

    engine.register_skill_handler("probe", probe)
    engine.consume_time(1)
    assert calls == [1]
    assert engine.world.hero.dead
    assert engine.log[-1] == (1, "hero", "death", "probed")


def test_an_enemy_removing_itself_does_not_stop_the_others():
    # k (2,1) removes its own block on its first action; the idler (3,1) still acts.
    engine = build("######\n#Hki.#\n######", enemies={"k": PROBE})
    calls = []

    def probe(eng, entry):
        calls.append(entry.runtime_id)
        eng.world.remove_block(eng.world.floor, entry.x, entry.y)

    engine.register_skill_handler("probe", probe)
    engine.consume_time(1)
    assert calls == ["F1:2:1:xk"]  # removed: no second half-tick action
    assert engine.log == [(1, "F1:2:1:xk", "skill"), (1, "F1:3:1:idler", "idle")]


def test_an_enemy_removed_earlier_in_the_tick_is_skipped_and_the_rest_act():
    # k (2,1) removes the idler at (3,1) before its turn; the idler at (4,1) still acts.
    engine = build("#######\n#Hkii.#\n#######", enemies={"k": ONCE})

    def probe(eng, entry):
        if eng.world.enemy_at(eng.world.floor, 3, 1) is not None:
            eng.world.remove_block(eng.world.floor, 3, 1)

    engine.register_skill_handler("probe", probe)
    engine.consume_time(1)
    assert engine.log == [(1, "F1:2:1:xk", "skill"), (1, "F1:4:1:idler", "idle")]


def test_the_builtin_drain_handler_is_registered_on_a_new_engine():
    drainer = {"hp": 10, "atk": 0, "def": 0, "timeCost": 1, "actType": "skill",
               "actArgs": {"handler": "drain", "amount": 7, "range": 1}}  # fmt: skip
    engine = build("#####\n#Hd.#\n#####", enemies={"d": drainer})
    engine.consume_time(2)
    assert engine.world.hero.hp == 100 - 7 - 7


# -- gauge(): 0.0 where there is no gauge -------------------------------------------------------
def test_gauge_is_zero_before_the_first_tick_on_empty_cells_and_unvisited_floors():
    engine = build("#####\n#Hs.#\n#####", "#####\n#s..#\n#####")
    assert engine.gauge("F1", 2, 1) == 0.0  # scheduled, no tick yet
    assert engine.gauge("F1", 3, 1) == 0.0  # an empty cell
    assert engine.gauge("F2", 1, 1) == 0.0  # a floor never entered
    engine.consume_time(1)
    assert engine.gauge("F1", 2, 1) == 1.0  # slow: timeCost 2, one tick filled it by 1
    assert engine.gauge("F1", 3, 1) == 0.0


# -- M3/M7: skills are checked by class ----------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "item", "message"),
    [
        ("activate_status_skill", "strike", "not a skillupdate skill (got 'strike')"),
        ("cancel_status_skill", "heal", "not a skillupdate skill (got 'heal')"),
        ("toggle_battle_skill", "focus", "not a skillbattle skill (got 'focus')"),
        ("toggle_battle_skill", "nothing", "not a skillbattle skill (got 'nothing')"),
        ("activate_status_skill", "nothing", "not a skillupdate skill (got 'nothing')"),
    ],
)
def test_a_skill_of_the_wrong_class_is_refused_by_name(call, item, message):
    engine, _ = game("#####\n#H..#\n#####")
    with pytest.raises(MapTurnError) as err:
        getattr(engine, call)(item)
    assert str(err.value) == message
    assert engine.skills.to_dict() == SkillState().to_dict()  # nothing was activated


# -- M7: battles settle one by one ---------------------------------------------------------------
def test_settle_battles_skips_empty_points_and_logs_each_battle():
    engine, _ = game("######\n#H.g.#\n######")
    assert engine.settle_battles([(2, 1), (3, 1), (4, 1)]) == [True]
    assert engine.log == [(0, "F1:3:1:guard", "battle", True, 1)]
    assert engine.state.clock == 1 and engine.world.enemy_at("F1", 3, 1) is None


def test_a_lost_battle_logs_the_death_naming_the_enemy():
    engine, _ = game("######\n#H.Tg#\n######")
    assert engine.settle_battles([(3, 1), (4, 1)]) == [False]
    assert engine.log == [(0, "F1:3:1:titan", "battle", False, 1),
                          (0, "hero", "death", "lost to F1:3:1:titan")]  # fmt: skip
    assert engine.world.hero.dead and engine.world.hero.hp == 0
    assert engine.world.enemy_at("F1", 4, 1) is not None  # the rest are not fought
    assert engine.settle_battles([(4, 1)]) == []  # a dead hero fights no more


# -- M8: persistence ---------------------------------------------------------------------------
def test_the_save_names_the_labkit_version_and_starts_with_format_and_version(tmp_path):
    engine, _ = game("#####\n#Hs.#\n#####")
    assert engine.to_dict()["labkit"] == labkit.__version__
    engine.save(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    assert list(doc)[:2] == ["format", "version"]
    assert (doc["format"], doc["version"]) == ("labkit.mapturn.save", 1)


def test_a_load_resets_the_map_turn_only_when_asked():
    engine, _ = game("#####\n#Hs.#\n#####")
    engine.consume_time(3)
    doc, tower = engine.to_dict(), engine.tower
    kept = MapTurn.from_dict(doc, tower)
    assert (kept.state.clock, kept.state.map_turn) == (3, 3)
    reset = MapTurn.from_dict(doc, tower, reset_turn_on_load=True)
    assert (reset.state.clock, reset.state.map_turn) == (3, 0)


def _save(**changes):
    engine, _ = game("#####\n#Hs.#\n#####")
    doc = engine.to_dict()
    for key, value in changes.items():
        if value is KeyError:
            del doc[key]
        else:
            doc[key] = value
    return engine, doc


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "x"}, "/format: wrong format, expected 'labkit.mapturn.save' (got 'x')"),
        ({"version": 99}, "/version: unsupported version, this labkit reads [1] (got 99)"),
        ({"tower": KeyError}, "/tower: missing key 'tower'"),
        ({"tower": 5}, "/tower: must be a string (got 5)"),
        ({"tower": "other"}, "/tower: a save of another tower (this is 'test') (got 'other')"),
        ({"mapTurnEnabled": KeyError}, "/mapTurnEnabled: missing key 'mapTurnEnabled'"),
        ({"mapTurnEnabled": "yes"}, "/mapTurnEnabled: must be true/false (got 'yes')"),
    ],
)
def test_a_bad_save_header_names_the_field_and_the_value(changes, message):
    engine, doc = _save(**changes)
    engine.consume_time(1)
    with pytest.raises(SaveError) as err:
        engine.restore(doc)
    assert str(err.value) == message
    assert engine.state.clock == 1  # nothing changed


@pytest.mark.parametrize(("doc", "kind"), [([1, 2], "list"), ("save", "str"), (None, "NoneType")])
def test_a_save_that_is_not_an_object_is_refused(doc, kind):
    engine, _ = game("#####\n#Hs.#\n#####")
    with pytest.raises(SaveError) as err:
        engine.restore(doc)
    assert str(err.value) == f"/: a save is a JSON object (got {kind!r})"
    assert err.value.pointer == ""


def test_a_save_file_of_another_format_is_refused_for_its_format_first(tmp_path):
    # format and version both wrong: the format is checked first (it says what the file is)
    path = tmp_path / "other.json"
    path.write_text('{"format": "x", "version": 99}')
    engine, _ = game("#####\n#Hs.#\n#####")
    with pytest.raises(SaveError) as err:
        engine.restore_file(path)
    expected = "/format: wrong format, expected 'labkit.mapturn.save' (got 'x')"
    assert str(err.value) == f"{path}: {expected}"


def test_load_builds_an_engine_for_the_tower_from_a_save_file_with_options(tmp_path):
    engine, _ = game("#####\n#Hs.#\n#####")
    engine.consume_time(3)
    engine.save(tmp_path / "s.json")
    loaded = MapTurn.load(tmp_path / "s.json", engine.tower)
    assert (loaded.state.clock, loaded.state.map_turn) == (3, 3)
    assert loaded.gauge("F1", 2, 1) == 1.0  # slow (timeCost 2): 3 ticks fill 3, one act takes 2
    reset = MapTurn.load(tmp_path / "s.json", engine.tower, reset_turn_on_load=True)
    assert (reset.state.clock, reset.state.map_turn) == (3, 0)
