"""Hostile input III: builders shared by ``tests/test_hostile_iii.py`` and the audit's table.

* Escaping (issue 33.5): every app of :mod:`labkit.widgets` and the ``_repr_html_`` /
  ``_repr_svg_`` of the public classes that show text from files, built from files holding
  :data:`EVIL` (script, an attribute break-out, ``&``, a right-to-left override).
* Grids (issue 32.4): a 3000 x 3000 tower floor or map grid.
* Wave 3's new inputs (issue 32.5): :func:`api_cases` and :func:`cli_cases`, each with the part
  of its one-line error it must give.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"

#: Text from a file that would run, break out of an attribute, or reorder the line if not escaped.
#: (No "/": the same text names files.)
EVIL = '<script>alert(1)<svg onload=alert(3)>"><img src=x onerror=alert(2)>&\u202e'
ESCAPED = ("&lt;script&gt;alert(1)&lt;svg onload=alert(3)&gt;&quot;&gt;&lt;img src=x "
           "onerror=alert(2)&gt;&amp;")  # fmt: skip
#: What every escaped copy of EVIL holds (CSV cells and SVG text may drop or keep the quote).
ESCAPED_CORE = "&lt;svg onload=alert(3)&gt;"

# --- files with hostile ids -------------------------------------------------------------------


def level_doc(i: int = 0) -> dict:
    doc = json.loads((DATA / "levels" / "01-grazing.json").read_text())
    doc["id"] = f"{EVIL}{i}"
    doc["name"] = f"{EVIL} name {i}"
    doc["tiles"][0]["id"] = f"{EVIL}t"
    doc["tiles"][1]["id"] = f"{EVIL}u"
    return doc


def level_file(tmp: Path, i: int = 0) -> Path:
    path = tmp / f"evil-{i}.json"
    path.write_text(json.dumps(level_doc(i)))
    return path


def hostile_levels(tmp: Path) -> Path:
    """The shipped campaign with its first level renamed to a right-to-left id (for the CLI)."""
    doc = json.loads((DATA / "levels" / "campaign.json").read_text())
    doc["levels"][0]["level"]["id"] = "main\u202e-01"
    path = tmp / "campaign.json"
    path.write_text(json.dumps(doc))
    return path


def hostile_telemetry(tmp: Path) -> Path:
    text = (DATA / "telemetry" / "sample.csv").read_text(encoding="utf-8")
    path = tmp / "telemetry.csv"
    path.write_text(text.replace("\nmain-01,", "\nmain\u202e-01,"), encoding="utf-8")
    return path


def tower_file(tmp: Path) -> Path:
    from tests.hostile_cases import tower_doc

    doc = tower_doc()
    text = json.dumps(doc)
    for n, ident in enumerate(list(doc["enemies"])):
        text = text.replace(json.dumps(ident), json.dumps(f"{EVIL}{n}"))
    path = tmp / "tower.json"
    path.write_text(text)
    return path


def trace_file(tmp: Path) -> Path:
    return ROOT / "tests" / "data" / "hostile" / "trace-html-labkit.json"


# --- every app ------------------------------------------------------------------------------


def widget_markup(root: Any) -> str:
    """The HTML every HTML widget under ``root`` shows (ipywidgets renders the rest as text)."""
    import ipywidgets as W

    out, seen, stack = [], set(), [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        if isinstance(w, (W.HTML, W.HTMLMath)):
            out.append(str(w.value))
        for name in ("description", "tooltip", "placeholder"):
            value = getattr(w, name, None)
            if value and getattr(w, "description_allow_html", False):
                out.append(str(value))
        stack.extend(getattr(w, "children", ()) or ())
    return "\n".join(out)


def _collision(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import CollisionViewer

    app = CollisionViewer([level_file(tmp)])
    return app, True


def _workbench(tmp: Path) -> tuple[Any, bool]:
    from labkit.hexpuzzle import Level
    from labkit.widgets import DifficultyWorkbench

    levels = [Level.load(level_file(tmp, i)) for i in range(2)]
    return DifficultyWorkbench(levels, n_boot=10), True


def _workshop(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import LevelWorkshop

    app = LevelWorkshop(level_file(tmp), generate=False)
    named = tmp / f"{EVIL}.json"  # a good level under a hostile name: "loaded <name>"
    named.write_text(json.dumps(level_doc()))
    app._guard(app.load, named)
    seen = widget_markup(app.ui)
    named.write_text(json.dumps({**level_doc(), "moveLimit": "x"}))  # now refused, named
    app._guard(app.load, named)  # what the "load" button does: the error in the status line
    app._h3_markup = seen
    return app, True


def _funnel(tmp: Path) -> tuple[Any, bool]:
    from labkit.hexpuzzle import Level
    from labkit.widgets import FunnelView

    levels = [Level.load(level_file(tmp, i)) for i in range(3)]
    return FunnelView(levels, players=200, draws=2), True


def _gauge(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import GaugeTuner

    return GaugeTuner(str(tower_file(tmp)), ticks=10), True


def _trace(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import TraceViewer

    app = TraceViewer(str(trace_file(tmp)))
    for step in range(3):
        app.show(step)
    return app, False  # the corpus trace holds "<script>", not EVIL


def _balance_report(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import BalanceReport

    app = BalanceReport(seeds=10)
    app.path_b.value = str(tmp / f"{EVIL}.json")  # missing: named in the error
    app.run()
    return app, True


def _balance_tuner(tmp: Path) -> tuple[Any, bool]:
    import numpy as np

    from labkit.widgets import BalanceTuner

    app = BalanceTuner(response=lambda v, seeds: np.zeros(len(seeds), dtype=bool))
    try:
        app.save(tmp / f"{EVIL}" / "x.json")  # a folder that does not exist
    except LabkitErrorOrOS:
        pass
    return app, False


def _knobs(tmp: Path) -> tuple[Any, bool]:
    import numpy as np

    from labkit.widgets import KnobExplorer

    def response(point, seeds):
        return {"npc_win": np.zeros(len(seeds)), "steps": np.full(len(seeds), 50.0)}

    app = KnobExplorer({EVIL: (0.0, 10.0)}, ["npc_win=0.5±0.05"], response=response, games=2,
                       trajectories=4, budget=10, tune_games=20)  # fmt: skip
    app.run_importance()
    return app, True


def _probability(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import ProbabilityExplorer

    return ProbabilityExplorer(n=200), False  # reads the balance (numbers only): nothing to show


def _playground(tmp: Path) -> tuple[Any, bool]:
    from labkit.widgets import PathfindingPlayground

    return PathfindingPlayground(8, 5), False  # built from numbers, no file


try:
    from labkit import LabkitError

    LabkitErrorOrOS: tuple[type[BaseException], ...] = (LabkitError, OSError)
except ImportError:  # pragma: no cover
    LabkitErrorOrOS = (OSError,)

_BUILDERS: dict[str, Callable[[Path], tuple[Any, bool]]] = {
    "BalanceReport": _balance_report,
    "BalanceTuner": _balance_tuner,
    "CollisionViewer": _collision,
    "DifficultyWorkbench": _workbench,
    "FunnelView": _funnel,
    "GaugeTuner": _gauge,
    "KnobExplorer": _knobs,
    "LevelWorkshop": _workshop,
    "PathfindingPlayground": _playground,
    "ProbabilityExplorer": _probability,
    "TraceViewer": _trace,
}


def _apps() -> list[str]:
    from labkit import widgets

    missing = set(widgets.__all__) - set(_BUILDERS)
    assert not missing, f"apps without a hostile builder: {sorted(missing)}"
    return sorted(widgets.__all__)


APPS = _apps()


def render_app(name: str, tmp: Path) -> tuple[str, bool]:
    """(the app's HTML, whether hostile text from a file is expected in it)."""
    import matplotlib.pyplot as plt

    app, shown = _BUILDERS[name](tmp)
    try:
        return widget_markup(app.ui) + getattr(app, "_h3_markup", ""), shown
    finally:
        plt.close("all")


# --- every repr that shows text from files -------------------------------------------------


def _level_svg(tmp: Path) -> str:
    from labkit.hexpuzzle import Level

    return Level.load(level_file(tmp))._repr_svg_()


def _campaign_html(tmp: Path) -> str:
    from labkit.hexpuzzle import Level
    from labkit.hexpuzzle.campaign_file import Campaign

    return Campaign([Level.load(level_file(tmp, i)) for i in range(2)])._repr_html_()


def _difficulty_html(tmp: Path) -> str:
    from labkit.hexpuzzle import Level, score

    return score(Level.load(level_file(tmp)))._repr_html_()


def _tuned_html(tmp: Path) -> str:
    import numpy as np

    from labkit.encounter import tune

    def response(value, seeds):
        return np.asarray(seeds) % 2 == 0

    return tune(None, EVIL, 0.5, bounds=(0.0, 1.0), seeds=range(40), response=response,
                progress=False, budget=80, start=20)._repr_html_()  # fmt: skip


def _telemetry_html(tmp: Path) -> str:
    from labkit.hexpuzzle.difficulty.telemetry_file import Telemetry

    text = (DATA / "telemetry" / "sample.csv").read_text()
    first = next(ln for ln in text.splitlines() if ln[:1] not in "#l").split(",")[0]
    path = tmp / "t.csv"
    path.write_text(text.replace(f"\n{first},", f'\n"{EVIL.replace(chr(34), "")}",'))
    return Telemetry.load(path)._repr_html_()


def _skill_html(tmp: Path) -> str:
    from labkit.hexpuzzle.difficulty.skill import SkillModel

    text = (DATA / "telemetry" / "skill_model.json").read_text()
    path = tmp / "m.json"
    path.write_text(text.replace('"main-01"', json.dumps(EVIL)))
    return SkillModel.load(path)._repr_html_()


REPRS: dict[str, Callable[[Path], str]] = {
    "Level._repr_svg_": _level_svg,
    "Campaign._repr_html_": _campaign_html,
    "Difficulty._repr_html_": _difficulty_html,
    "Tuned._repr_html_": _tuned_html,
    "Telemetry._repr_html_": _telemetry_html,
    "SkillModel._repr_html_": _skill_html,
}


# --- grids ---------------------------------------------------------------------------------


def huge_grid_file(kind: str, tmp: Path) -> tuple[Path, str]:
    """A 3000 x 3000 floor / map grid written compactly, and the error it must give."""
    if kind == "tower":
        from tests.hostile_cases import tower_doc

        doc = tower_doc()
        floor = next(iter(doc["floors"]))
        doc["floors"][floor]["map"] = [[0] * 3000] * 3000
        message = f"/floors/{floor}/map: a floor is at most 256x256 cells (got '3000x3000')"
    else:
        from labkit.pathfinding.map_file import shipped_map_path

        doc = json.loads(Path(shipped_map_path("corridors.json")).read_text())
        doc["event"] = [[0] * 3000] * 3000
        message = "/event: a grid is at most 4096 cells wide and high"
        doc["event"] = [[0] * 5000] * 2
        message = "/event: a grid is at most 4096 cells wide and high (got '5000x2')"
    path = tmp / f"huge-{kind}.json"
    path.write_text(json.dumps(doc, separators=(",", ":")))
    return path, message


def _load_tower(path: Path) -> Any:
    from labkit.mapturn import load_tower

    return load_tower(path)


def _load_map(path: Path) -> Any:
    from labkit.pathfinding.map_file import load_map

    return load_map(path)


LOADERS = {"tower": _load_tower, "map": _load_map}


# --- wave 3's new inputs: filled in below -------------------------------------------------


@functools.cache
def _levels() -> tuple[Any, ...]:
    from labkit.hexpuzzle import campaign

    return tuple(campaign()[:3])


@functools.cache
def _model() -> Any:
    from labkit.hexpuzzle import SkillModel

    return SkillModel.load(DATA / "telemetry" / "skill_model.json")


def _funnel(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle import funnel

        return funnel(_levels(), _model(), **{"players": 10, "draws": 1, **kw})

    return call


def _compare(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.compare import compare

        def never(*a: Any, **k: Any) -> Any:
            raise AssertionError("a game was played before the options were checked")

        import labkit.encounter.sim.compare as c

        keep, c.play_pair = c.play_pair, never
        try:
            return compare({}, {}, range(4), **kw)
        finally:
            c.play_pair = keep

    return call


def _evaluate(targets: Any = ({"score": 40},), **kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle.evaluation.baselines import BASELINES
        from labkit.hexpuzzle.evaluation.evaluate import evaluate_generator

        args = {"n": 1, "seeds": [0], "budget": 10, **kw}
        return evaluate_generator(BASELINES["random search"], list(targets), **args)

    return call


def _generate(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle import generate_to_target

        return generate_to_target(1, score=40, **kw)

    return call


def _improve(**kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle.playthrough.improve import improve_campaign

        return improve_campaign(_levels(), _model(), **kw)

    return call


def _importance(knobs: Any = None, **kw: Any) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.encounter.sim.importance import importance

        return importance(None, knobs or {"/characters/monster/life": (1.0, 5.0)}, **kw)

    return call


def _tune_many(knobs: Any = None, targets: Any = ("npc_win=0.5±0.05",), **kw: Any) -> Callable:
    def call(tmp: Path) -> Any:
        import numpy as np

        from labkit.encounter.sim.tune_many import tune_many

        def response(point: Any, seeds: Any) -> Any:
            return {"npc_win": np.zeros(len(seeds)), "steps": np.full(len(seeds), 50.0)}

        return tune_many(None, knobs or {"a": (0.0, 1.0)}, list(targets), response=response,
                         progress=False, **kw)  # fmt: skip

    return call


def _telemetry(kind: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        from labkit.hexpuzzle import load_telemetry

        if kind == "fifo":
            return load_telemetry(fifo(tmp))
        (tmp / "empty").mkdir(exist_ok=True)
        return load_telemetry(tmp / "empty")

    return call


def _quit(kind: str) -> Callable[[Path], Any]:
    def call(tmp: Path) -> Any:
        import numpy as np

        from labkit.hexpuzzle.difficulty.skill_quit import N_TERMS, QUIT_TERMS, QuitModel

        coef = dict.fromkeys(QUIT_TERMS, 0.0)
        if kind == "nan":
            coef["ability"] = float("nan")
            return QuitModel(coef)
        cov = np.eye(N_TERMS)
        cov[1, 1] = -1.0
        return QuitModel(coef, cov)

    return call


def _quit_file(tmp: Path) -> Any:
    from labkit.hexpuzzle import SkillModel

    doc = json.loads((DATA / "telemetry" / "skill_model.json").read_text())
    doc["quit_model"]["cov"][0][0] = -1.0
    path = tmp / "m.json"
    path.write_text(json.dumps(doc))
    return SkillModel.load(path)


def api_cases() -> list[tuple[str, Callable[[Path], Any], str]]:
    """Wave 3's API inputs with hostile values: (name, call, part of the one-line error)."""
    nan = float("nan")
    return [
        ("funnel players -1", _funnel(players=-1), "players: must be between 1 and 10000000"),
        ("funnel players 1e12", _funnel(players=10**12), "players: must be between 1"),
        ("funnel players NaN", _funnel(players=nan), "players: must be an integer"),
        ("funnel draws True", _funnel(draws=True), "draws: must be an integer"),
        ("funnel max_attempts 1e9", _funnel(max_attempts=10**9), "max_attempts: must be between"),
        ("funnel telemetry FIFO", lambda t: _funnel(telemetry=str(fifo(t)))(t),
         "not a regular file (a FIFO)"),
        ("compare bootstrap -1", _compare(bootstrap=-1), "bootstrap: must be between 1 and 10000"),
        ("compare bootstrap 1e9", _compare(bootstrap=10**9), "bootstrap: must be between 1"),
        ("compare detect NaN", _compare(detect={"share": nan}), "detect['share']: must be a"),
        ("compare detect -1", _compare(detect={"share": -1}), "detect['share']: must be a change"),
        ("compare a FIFO", lambda t: _compare_file(fifo(t)), "not a regular file (a FIFO)"),
        ("compare a folder", lambda t: _compare_file(t), "not a regular file (a directory)"),
        ("evaluate score text", _evaluate([{"score": "x"}]), "targets[0]['score']: a score is"),
        ("evaluate score NaN", _evaluate([{"score": nan}]), "targets[0]['score']: a score is"),
        ("evaluate seeds 1e9", _evaluate(seeds=range(10**9)), "seeds: must name 1 to 1000 seeds"),
        ("evaluate n -1", _evaluate(n=-1), "n: must be between 1 and 10000"),
        ("evaluate budget NaN", _evaluate(budget=nan), "budget: must be an integer"),
        ("generate rotations -1", _generate(rotations=-1), "rotations: must be 1-3"),
        ("generate rotations NaN", _generate(rotations=nan), "rotations: must be 1-3"),
        ("generate rotations (5, 1)", _generate(rotations=(5, 1)), "rotations: must be 1-3"),
        ("generate tiles True", _generate(tiles=True), "tiles: must be 1-61"),
        ("generate tiles 1e9", _generate(tiles=10**9), "tiles: must be 1-61"),
        ("generate radius '2'", _generate(radius="2"), "radius: must be 2-3"),
        ("generate radius 99", _generate(radius=99), "radius: must be 2-3"),
        ("improve evaluations -1", _improve(evaluations=-1), "evaluations: must be between 1"),
        ("improve evaluations NaN", _improve(evaluations=nan), "evaluations: must be an integer"),
        ("improve evaluations True", _improve(evaluations=True), "evaluations: must be an int"),
        ("improve max_regenerate -1", _improve(max_regenerate=-1),
         "max_regenerate: must be between 0 and 1000"),
        ("importance games -1", _importance(games=-1), "games: must be an integer >= 1"),
        ("importance knob NaN", _importance({"/characters/monster/life": (nan, 5.0)}), "knob"),
        ("importance trajectories 2", _importance(trajectories=2), "trajectories: must be"),
        ("tune_many budget -1", _tune_many(budget=-1), "budget"),
        ("tune_many target NaN", _tune_many(targets=["npc_win=nan"]), "npc_win=nan"),
        ("tune_many knob NaN", _tune_many({"a": (nan, 1.0)}), "a"),
        ("tune_many sampler", _tune_many(sampler="x"), "sampler"),
        ("telemetry FIFO", _telemetry("fifo"), "not a regular file (a FIFO)"),
        ("telemetry empty folder", _telemetry("dir"), "a directory with no Parquet files"),
        ("QuitModel NaN logit", _quit("nan"), "coefficients['ability']: must be a finite number"),
        ("QuitModel negative variance", _quit("var"), "cov: must be finite with variances >= 0"),
        ("quit model file negative variance", _quit_file,
         "/quit_model/cov: a variance (diagonal) must not be negative"),
    ]  # fmt: skip


def _compare_file(path: Path) -> Any:
    """A version given as a file path (``compare(a=PATH, ...)`` reads it through this)."""
    from labkit.encounter.sim.compare import version_patch

    return version_patch(str(path))


def cli_cases() -> list[tuple[str, Callable[[Path], list[str]], str]]:
    """One hostile command line per wave-3 command (refused before any game or level)."""
    c, m = str(DATA / "levels" / "campaign.json"), str(DATA / "telemetry" / "skill_model.json")
    life = "/characters/monster/life=1:5"
    return [
        ("puzzle funnel model FIFO", lambda t: ["puzzle", "funnel", c, str(fifo(t))],
         "not a regular file (a FIFO)"),
        ("puzzle evaluate --target 40:bogus=1", lambda t: ["puzzle", "evaluate", "--target",
                                                         "40:bogus=1"], "controls are rotations"),
        ("sim compare --bootstrap -1", lambda t: ["sim", "compare", "--bootstrap", "-1",
                                                 "--seeds", "0:4", "--quiet"], "--bootstrap"),
        ("sim importance --games -1", lambda t: ["sim", "importance", "--knob", life, "--games",
                                                "-1", "--quiet"], "games: must be an integer"),
        ("sim tune --knob --target nan", lambda t: ["sim", "tune", "--knob", life, "--target",
                                                   "npc_win=nan", "--quiet"],
         "targets: bad numbers (VALUE±TOL with TOL > 0, or LOW:HIGH) (got 'npc_win=nan')"),
        ("puzzle funnel --players 0", lambda t: ["puzzle", "funnel", c, m, "--players", "0"],
         "--players"),
    ]  # fmt: skip


def fifo(tmp: Path) -> Path:
    path = tmp / "fifo"
    if not path.exists():
        os.mkfifo(path)
    return path
