"""Renamed public names (labkit._renamed.RENAMED_NAMES): one word, one meaning across the domains.

Each old name still resolves, for one release, to the new object itself with a
``DeprecationWarning`` naming the new one, from the module that defined it and from the domain
package that exported it. Across the domains' ``__all__``, a name is one object: a name two
domains export for different objects must be listed in :data:`SHARED_ON_PURPOSE` with its reason.
The same holds across every public module's ``__all__`` (:data:`MODULE_NAMES_ON_PURPOSE`: a
format id ``FORMAT`` per file module is one idea and keeps its name). Renamed attributes
(``GameSession.world`` is ``room_map``) warn and return the new one. Nothing in the checkout still
uses an old name (only the table and this test name them).
"""

from __future__ import annotations

import ast
import importlib
import json
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

from labkit._renamed import RENAMED_NAMES, old_name

ROOT = Path(__file__).resolve().parents[1]
DOMAINS = ("hexpuzzle", "pathfinding", "mapturn", "encounter", "widgets", "share")

#: Name -> why two domains may export it for different objects. Only shrinks.
SHARED_ON_PURPOSE = {
    "animate": "one verb, each domain's own thing: hexpuzzle plays a solution, encounter a "
    "recorded game (both return a matplotlib animation)",
}

ROWS = sorted(
    (module, old, new) for module, names in RENAMED_NAMES.items() for old, new in names.items()
)


def _new_object(module_name: str, new: str) -> object:
    module = importlib.import_module(module_name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name itself never warns
        return getattr(module, new)


def test_the_table_covers_the_renames_of_issue_30():
    olds = {old for _, old, _ in ROWS}
    assert olds == {"World", "Direction", "Frame", "Trace", "trace", "replay", "data_path",
                    "CollisionSweepViewer", "DIRECTIONS", "OUTCOMES",
                    "DIRECTION_VECTORS", "sweep_animation"}  # fmt: skip


@pytest.mark.parametrize(("module_name", "old", "new"), ROWS)
def test_an_old_name_warns_and_is_the_new_object(module_name, old, new):
    module = importlib.import_module(module_name)
    obj = _new_object(module_name, new)
    assert old not in getattr(module, "__all__", ()), "the old name is still exported"
    assert old not in vars(module), "the old name is a real attribute: the shim never runs"
    with pytest.warns(
        DeprecationWarning, match=rf"^{module_name}\.{old} is renamed {module_name}\.{new}: "
    ):
        assert getattr(module, old) is obj
    with pytest.warns(DeprecationWarning, match=rf"is renamed {module_name}\.{new}"):
        namespace: dict = {}
        exec(f"from {module_name} import {old}", namespace)  # noqa: S102 - the user's own spelling
    assert namespace[old] is obj


@pytest.mark.parametrize(("module_name", "old", "new"), ROWS)
def test_the_domain_package_serves_the_old_name_it_exported(module_name, old, new):
    # a module's renamed name that its domain package exports (the same object) is an old name
    # of the package too, so ``from labkit.<domain> import <old>`` keeps working
    domain = ".".join(module_name.split(".")[:2])
    package = importlib.import_module(domain)
    if new in getattr(package, "__all__", ()) and _new_object(domain, new) is _new_object(
        module_name, new
    ):
        assert RENAMED_NAMES.get(domain, {}).get(old) == new, f"{domain} lacks {old} -> {new}"


def test_a_name_that_never_existed_is_still_an_attribute_error():
    import labkit.encounter
    import labkit.widgets

    for module in (labkit.encounter, labkit.widgets):
        with pytest.raises(AttributeError, match="has no attribute 'NoSuchName'"):
            module.NoSuchName  # noqa: B018
    with pytest.raises(AttributeError):
        old_name("labkit.mapturn", "World")  # mapturn's World was never renamed


def _exported() -> dict[str, dict[int, tuple[object, list[str]]]]:
    by_name: dict[str, dict[int, tuple[object, list[str]]]] = defaultdict(dict)
    for domain in DOMAINS:
        package = importlib.import_module(f"labkit.{domain}")
        for name in getattr(package, "__all__", ()):
            obj = _new_object(f"labkit.{domain}", name)
            by_name[name].setdefault(id(obj), (obj, []))[1].append(domain)
    return by_name


def test_no_word_means_two_things_across_the_domains():
    by_name = _exported()
    assert len(by_name) > 150  # the walk saw the domains' names
    clashes = {
        name: sorted(d for _, domains in objects.values() for d in domains)
        for name, objects in by_name.items()
        if len(objects) > 1
    }
    unexplained = {
        name: domains for name, domains in clashes.items() if name not in SHARED_ON_PURPOSE
    }
    assert not unexplained, f"one name, different objects in different domains: {unexplained}"
    stale = sorted(set(SHARED_ON_PURPOSE) - set(clashes))
    assert not stale, f"no longer shared; take off SHARED_ON_PURPOSE: {stale}"


def test_the_clash_check_can_fail():
    # before the renames, World was mapturn's and encounter's: the walk tells the objects apart
    from labkit.encounter import RoomMap
    from labkit.mapturn import World

    assert World is not RoomMap
    assert len(_exported()["animate"]) == 2


#: Name -> why public modules may export it for different objects. Only shrinks.
MODULE_NAMES_ON_PURPOSE = {
    "animate": SHARED_ON_PURPOSE["animate"],
    # One idea per file module, "this module's file format": FORMAT is the format id its files
    # carry and VERSION the version it writes, read beside the module's name
    # (campaign_file.FORMAT, skill.FORMAT). A prefixed name per module (CAMPAIGN_FORMAT, ...)
    # would repeat the module's name, and no domain package exports either.
    "FORMAT": "each file module's own format id (one idea; the module's name says which)",
    "VERSION": "each file module's own format version, beside its FORMAT",
    "MAX_COUNT": "each file format's own import limit on a count (calibration, telemetry)",
    # the same idea in two places, one representation each; to merge, not to rename
    "METRICS": "the per-game metrics by key: paired's Metric records (labels), sweep's "
    "indicator functions",
    # issue 48: the lab's game-agnostic research layer, and the encounter study it generalises;
    # to merge (encounter's sweep and Knob become the lab's when encounter moves onto lab.Game)
    "sweep": "lab.sweep plays any Game's grid; encounter.sweep the encounter game's (to merge)",
    "Knob": "lab.Knob is any game's knob; encounter.sim.knobs.Knob the encounter's (to merge)",
    # issue 48 names these two; the other meaning is each domain's own record
    "Game": "lab.Game is a game the lab can study; hexpuzzle's players.Game one player's "
    "attempt at a level (telemetry counts and action log)",
    "Outcome": "lab.Outcome is what a studied game reports (a rate or a mean); hexpuzzle's "
    "Outcome the status a tap ends in",
    "QUIT_TERMS": "the terms of a quit model: the fitted skill model's (skill_quit) and the "
    "simulated players' (playthrough.simulate), each in its model's order",
}


def _public_modules() -> list[str]:
    import pkgutil

    import labkit

    found = [m.name for m in pkgutil.walk_packages(labkit.__path__, "labkit.")]
    return ["labkit"] + [m for m in found if not any(p.startswith("_") for p in m.split("."))]


def _exported_by_modules() -> dict[str, dict[int, tuple[object, list[str]]]]:
    by_name: dict[str, dict[int, tuple[object, list[str]]]] = defaultdict(dict)
    for module_name in _public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = _new_object(module_name, name)
            by_name[name].setdefault(id(obj), (obj, []))[1].append(module_name)
    return by_name


def test_no_name_means_two_things_across_the_public_modules():
    # every public module's __all__, not only the domain packages': a constant such as
    # OUTCOMES meant a tap's, a fight's and a simulated game's outcomes in three modules
    by_name = _exported_by_modules()
    assert len(_public_modules()) > 100 and len(by_name) > 500  # the walk saw the modules
    clashes = {
        name: sorted(m for _, modules in objects.values() for m in modules)
        for name, objects in by_name.items()
        if len(objects) > 1
    }
    unexplained = {
        name: modules for name, modules in clashes.items() if name not in MODULE_NAMES_ON_PURPOSE
    }
    assert not unexplained, f"one name, different objects in different modules: {unexplained}"
    stale = sorted(set(MODULE_NAMES_ON_PURPOSE) - set(clashes))
    assert not stale, f"no longer shared; take off MODULE_NAMES_ON_PURPOSE: {stale}"


def test_the_module_clash_check_can_fail():
    # the renamed constants are different objects: exported under one name they would clash
    from labkit.encounter.rules.combat import FIGHT_OUTCOMES
    from labkit.encounter.sim.knobs import GAME_OUTCOMES
    from labkit.hexpuzzle.coords import HEX_DIRECTIONS
    from labkit.hexpuzzle.tap_trace import TAP_OUTCOMES
    from labkit.mapturn.world import GRID_DIRECTIONS

    assert len({id(FIGHT_OUTCOMES), id(GAME_OUTCOMES), id(TAP_OUTCOMES)}) == 3
    assert HEX_DIRECTIONS != GRID_DIRECTIONS
    assert len(_exported_by_modules()["FORMAT"]) >= 4


def test_a_renamed_attribute_warns_and_is_the_new_one():
    from labkit._renamed import RENAMED_ATTRIBUTES
    from labkit.encounter import GameSession, SimulationSettings

    assert RENAMED_ATTRIBUTES == {"labkit.encounter.sim.session.GameSession": {"world": "room_map"}}
    game = GameSession(SimulationSettings(seed=1, map_seed=2))
    assert "world" not in vars(game)
    with pytest.warns(
        DeprecationWarning, match=r"^GameSession\.world is renamed GameSession\.room_map: "
    ) as record:
        assert game.world is game.room_map
    assert record[0].filename == __file__  # the warning points at the user's line


def _sources():
    skip = {ROOT / "labkit" / "_renamed.py", Path(__file__).resolve()}
    for folder in ("labkit", "tests", "benchmarks", "scripts", "labkit_build"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path not in skip:
                yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = "\n".join(
            "".join(c["source"]) for c in cells if c["cell_type"] == "code"
        ).splitlines()
        yield (
            path.name,
            "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in code),
        )


def _uses_of_old_names(where: str, code: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom) and node.module in RENAMED_NAMES:
            found += [f"{where}:{node.lineno}: from {node.module} import {a.name}"
                      for a in node.names if a.name in RENAMED_NAMES[node.module]]  # fmt: skip
        elif isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
            owner = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            for module, names in RENAMED_NAMES.items():
                if owner == module.rpartition(".")[2] and node.attr in names:
                    found.append(f"{where}:{node.lineno}: {owner}.{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            dotted = {f"{module}.{old}" for module, names in RENAMED_NAMES.items() for old in names}
            if node.value in dotted:
                found.append(f"{where}:{node.lineno}: {node.value!r}")
    return found


def test_nothing_in_the_checkout_uses_an_old_name():
    found = [use for where, code in _sources() for use in _uses_of_old_names(where, code)]
    assert found == []


def test_the_old_name_scan_can_fail():
    code = (
        "from labkit.hexpuzzle import trace\nfrom labkit import widgets\n"
        "widgets.CollisionSweepViewer()\nmock.patch('labkit.hexpuzzle.solving.solver.replay')\n"
        "from labkit.mapturn import World\nhexpuzzle.trace_tap(level, 'a')\n"
    )
    assert [u.split(": ", 1)[1] for u in _uses_of_old_names("x", code)] == [
        "from labkit.hexpuzzle import trace",
        "widgets.CollisionSweepViewer",
        "'labkit.hexpuzzle.solving.solver.replay'",
    ]
