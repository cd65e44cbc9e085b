"""The map-turn engine: clock, ticks, gauges, battles, persistence (rules M2, M5–M8).

``consume_time(n)`` adds ``n`` to the clock and then calls ``advance_one`` exactly ``n`` times;
each call is one tick: ``map_turn += 1`` and every scheduled enemy of the current floor fills its
gauge by one and acts once per ``timeCost`` it holds. Three ticks are three separate settlements.

Decisions the rules leave open:

* A battle an *enemy* starts during a tick (a chaser or patroller stepping onto the hero) settles
  at once — layers drop, a failure means death — but adds no time: the tick is already being
  spent, and a clock that re-entered itself would make ``consume_time(3)`` run more than 3 ticks.
  Player-started battles (:class:`~labkit.mapturn.actions.Actions`) do consume the settled time.
* In a player battle the order is settle time → fight → remove the enemy → drop one layer →
  ``consume_time(settled)``.
* A normal floor change resets ``map_turn`` (the seed's per-floor turn) and keeps ``clock``,
  gauges and statuses; entering by load resets nothing. Both are options of :class:`MapTurn`.
* The event log (:attr:`MapTurn.log`) is a list of tuples; it is not part of the saved state.
* Skill handlers (``actType: "skill"``) are code, so they are not saved; register them again
  on the engine a save is loaded into. ``drain`` (hurt the hero within a range) is built in.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from pathlib import Path
from typing import Any

from labkit import ArgumentError, __version__
from labkit.io import check, load_json, save_json
from labkit.io import field as get

from . import battle, behaviour
from .cache import ActiveCache, ActiveEnemy, runtime_id
from .defs import Tower
from .state import SAVE_FORMAT, SAVE_VERSION, MapTurnError, MapTurnState, SaveError, SkillState
from .world import World, WorldEvent

__all__ = ["MapTurn", "MapTurnError"]

SkillHandler = Callable[["MapTurn", ActiveEnemy], None]


class MapTurn:
    """Clock, gauges, active-enemy cache and skill state bound to one :class:`World`.

    Parameters
    ----------
    world : World
        The world to schedule; the engine subscribes to its block operations.
    enabled : bool
        The persisted on/off switch; off makes ``consume_time``/``advance_one`` no-ops.
    resolver : callable
        ``resolver(hero, enemy) -> BattleOutcome``; default
        :func:`~labkit.mapturn.battle.classic_battle`.
    reset_turn_on_floor_change, reset_turn_on_load : bool
        Whether entering a floor normally / by load sets ``map_turn`` to 0 (default True / False).

    Examples
    --------
    >>> from labkit.mapturn import World, load_tower, example_tower_path
    >>> engine = MapTurn(World(load_tower(example_tower_path())))
    >>> engine.consume_time(3, "demo")
    3
    >>> engine.state.clock, engine.state.map_turn, engine.advance_calls
    (3, 3, 3)
    """

    def __init__(
        self,
        world: World,
        *,
        enabled: bool = True,
        resolver: battle.BattleResolver = battle.classic_battle,
        reset_turn_on_floor_change: bool = True,
        reset_turn_on_load: bool = False,
    ) -> None:
        self.world = world
        self.tower: Tower = world.tower
        self.enabled = bool(enabled)
        self.resolver = resolver
        self.reset_turn_on_floor_change = reset_turn_on_floor_change
        self.reset_turn_on_load = reset_turn_on_load
        self.handlers: dict[str, SkillHandler] = dict(behaviour.BUILTIN_HANDLERS)
        self.log: list[tuple] = []
        self.advance_calls = 0  # ticks actually run, for tests of "exactly n"
        self._ticking = False
        self.state = MapTurnState()
        self.skills = SkillState()
        self.cache = ActiveCache(world, self.state.gauges, self.state.memory)
        world.subscribe(self._on_world_event)
        self.cache.rebuild(world.floor)

    # -- clock -----------------------------------------------------------------------------------
    def consume_time(self, n: int, reason: str = "") -> int:
        """Advance ``n`` time units: ``clock += n`` then ``advance_one`` exactly ``n`` times.

        ``n <= 0`` or a disabled engine does nothing. Returns the number of ticks run.
        """
        if isinstance(n, bool) or not isinstance(n, numbers.Real):
            raise ArgumentError("time is a whole number of units", argument="n", value=n)
        if n <= 0:
            return 0  # M2: any n <= 0 (a negative fraction too) is a no-op
        if not math.isfinite(n) or n != int(n):
            raise ArgumentError("time is a whole number of units", argument="n", value=n)
        n = int(n)  # numpy integers and whole floats count as n
        if not self.enabled:
            return 0
        if self._ticking:
            raise MapTurnError("consume_time called from inside a tick", value=reason)
        self.state.clock += n
        for _ in range(n):
            self.advance_one(reason)
        return n

    def advance_one(self, reason: str = "") -> None:
        """One tick (``advanceMapTurnOne``): ``map_turn += 1`` and resolve enemy actions once."""
        if not self.enabled:
            return
        self.state.map_turn += 1
        self.advance_calls += 1
        self._ticking = True
        try:
            self._resolve_tick(reason)
        finally:
            self._ticking = False

    def _resolve_tick(self, reason: str) -> None:
        # Only the current floor's cached list is walked: never a floor scan (M6).
        floor = self.world.floor
        order = self.cache.order(floor)
        gauges = self.state.gauges.setdefault(floor, {})
        turn = self.state.map_turn
        log = self.log
        hero = self.world.hero
        for entry in order:
            if hero.dead:
                break  # death first (M1): nothing else resolves once the hero has died
            if not entry.alive:
                continue  # dropped earlier in this tick (killed, overwritten)
            cost = entry.definition.time_cost
            gauge = gauges.get(entry.runtime_id, 0.0) + 1.0
            gauges[entry.runtime_id] = gauge
            while gauge >= cost:
                gauges[entry.runtime_id] = gauge = gauge - cost
                if entry.definition.act_type == "idle":
                    log.append((turn, entry.runtime_id, "idle"))
                    continue
                self.perform_enemy_action(entry, reason)
                if not entry.alive or hero.dead:
                    break
                gauge = gauges.get(entry.runtime_id, 0.0)  # a move carries the gauge over

    def perform_enemy_action(self, entry: ActiveEnemy, reason: str = "") -> None:
        """Do one action of ``entry`` by its ``actType`` (idle, chase, patrol, skill)."""
        behaviour.perform(self, entry)

    def gauge(self, floor: str, x: int, y: int) -> float:
        """The action gauge of the scheduled enemy at (x, y) (0.0 when it has none yet)."""
        entry = self.cache.by_floor.get(floor, {}).get((x, y))
        return 0.0 if entry is None else self.state.gauges.get(floor, {}).get(entry.runtime_id, 0.0)

    def register_skill_handler(self, name: str, handler: SkillHandler) -> None:
        """Make ``actType: "skill"`` enemies with ``actArgs.handler == name`` call ``handler``."""
        self.handlers[name] = handler

    # -- world hooks -----------------------------------------------------------------------------
    def _on_world_event(self, event: WorldEvent) -> None:
        if event.kind == "floor_changed":
            reset = self.reset_turn_on_load if event.by_load else self.reset_turn_on_floor_change
            if reset:
                self.state.map_turn = 0
        self.cache.handle(event)

    # -- battles and skills ----------------------------------------------------------------------
    def settle_battle_time_cost(self) -> int:
        """Battle time = ``max(1, status battleTimeCosts, active battle skills)`` (M1)."""
        return battle.settle_battle_time_cost(self.skills, self.tower.items)

    def apply_status_after_battle(self, result: str) -> list[str]:
        """``"success"`` drops one layer of every battle-counted status; returns ended ids."""
        return battle.apply_status_after_battle(self.skills, result)

    def clear_on_death(self) -> None:
        """Empty temp state, the active battle skills and all statuses (seed §6.6)."""
        battle.clear_on_death(self.skills)

    def _skill(self, item_id: str, cls: str):
        item = self.tower.items.get(item_id)
        if item is None or item.cls != cls:
            raise MapTurnError(f"not a {cls} skill", value=item_id)
        return item

    def activate_status_skill(self, item_id: str) -> None:
        """Start a status skill (``skillupdate``) by its stack policy; no time passes."""
        battle.activate_status_skill(self.skills, self._skill(item_id, "skillupdate"),
                                     self.tower.items)  # fmt: skip

    def cancel_status_skill(self, item_id: str) -> bool:
        """End a status skill; False when it is not active or cannot be cancelled."""
        return battle.cancel_status_skill(self.skills, self._skill(item_id, "skillupdate"))

    def toggle_battle_skill(self, item_id: str) -> bool:
        """Switch a battle skill on (exclusive in its group) or off; returns the new state."""
        return battle.toggle_battle_skill(self.skills, self._skill(item_id, "skillbattle"))

    def settle_battles(
        self, points: list[tuple[int, int]], *, consume: bool = True, reason: str = "battle"
    ) -> list[bool]:
        """Fight the enemies at ``points`` one by one (multi-capture settles battle by battle).

        Each won battle removes the enemy, drops one status layer and (``consume``) spends its
        settled battle time; the first lost battle kills the hero and stops the rest.
        Returns the outcome of each battle fought.
        """
        world, floor, hero = self.world, self.world.floor, self.world.hero
        results = []
        for x, y in points:
            enemy = world.enemy_at(floor, x, y)
            if enemy is None or hero.dead:
                continue
            cost = self.settle_battle_time_cost()
            outcome = self.resolver(hero, enemy)
            rid = runtime_id(floor, x, y, enemy.id)
            self.log.append((self.state.map_turn, rid, "battle", outcome.won, cost))
            results.append(outcome.won)
            if not outcome.won:
                self.die(f"lost to {rid}")
                break
            hero.hp -= int(outcome.damage)
            world.remove_block(floor, x, y)
            self.apply_status_after_battle("success")
            if consume:
                self.consume_time(cost, reason)
        return results

    def die(self, why: str) -> None:
        """Death first (M1): the hero dies and temporary state is cleared."""
        hero = self.world.hero
        hero.hp, hero.dead = 0, True
        self.clear_on_death()
        self.log.append((self.state.map_turn, "hero", "death", why))

    # -- persistence -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """All runtime state as plain JSON (world, ``mapTurnState``, ``skillState``, switch)."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "labkit": __version__,
            "tower": self.tower.name,
            "mapTurnEnabled": self.enabled,
            "mapTurnState": self.state.to_dict(),
            "skillState": self.skills.to_dict(),
            "world": self.world.to_dict(),
        }

    def restore(self, doc: Any) -> None:
        """Replace this engine's runtime state with a save document (validated first).

        Loading resets nothing; the cache is rebuilt from the loaded map. Raises
        :class:`SaveError` (and changes nothing) for a bad document.
        """
        if not isinstance(doc, dict):
            raise SaveError("a save is a JSON object", pointer="", value=type(doc).__name__)
        from labkit.io import check_header

        doc = check_header(doc, format=SAVE_FORMAT, versions=(SAVE_VERSION,), error=SaveError)
        tower = get(doc, "tower", str, "", SaveError)
        check(tower == self.tower.name, f"a save of another tower (this is {self.tower.name!r})",
              "/tower", tower, SaveError)  # fmt: skip
        enabled = get(doc, "mapTurnEnabled", bool, "", SaveError)
        floors, hidden, hero = self.world.parse_snapshot(doc.get("world"), "/world", SaveError)
        state = MapTurnState.parse(doc.get("mapTurnState"), "/mapTurnState", set(floors))
        skill_state = SkillState.parse(doc.get("skillState"), "/skillState", self.tower.items)
        # Everything is valid: commit.
        self.enabled, self.state, self.skills = enabled, state, skill_state
        self.cache = ActiveCache(self.world, state.gauges, state.memory)
        self.world.restore(floors, hidden, hero)

    @classmethod
    def from_dict(cls, doc: Any, tower: Tower, **options: Any) -> MapTurn:
        """A fresh world and engine for ``tower`` with the state of a save document."""
        engine = cls(World(tower), **options)
        engine.restore(doc)
        return engine

    @classmethod
    def load(cls, path: str | Path, tower: Tower, **options: Any) -> MapTurn:
        """A fresh world and engine for ``tower`` with the state of a save file.

        A save belongs to its tower, so this document's loader takes the tower too (as
        :meth:`from_dict` does); :meth:`restore_file` loads a save into an existing engine.
        """
        engine = cls(World(tower), **options)
        engine.restore_file(path)
        return engine

    def save(self, path: str | Path) -> None:
        """Write the state to a JSON file atomically (through :mod:`labkit.io`)."""
        doc = self.to_dict()
        save_json(path, doc, format=doc["format"], version=doc["version"])

    def restore_file(self, path: str | Path) -> None:
        """Load a save file; a corrupt or wrong-version file raises SaveError, changing nothing."""
        doc = load_json(path, format=SAVE_FORMAT, versions=(SAVE_VERSION,), error=SaveError)
        try:
            self.restore(doc)
        except SaveError as exc:
            raise exc.with_file(str(path)) from None
