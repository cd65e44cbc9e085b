"""The public surface is the contract: what users read and copy imports only exported names.

Notebooks (code cells), the README's code blocks, the apps' ``to_code()`` text (checked in
``tests/widgets/test_sharing.py`` with the same rule) and the apps' own sources import from
``labkit``, ``labkit.<domain>`` or ``labkit.widgets`` only names in that package's ``__all__``
(:mod:`tests.public_surface`). The apps may also use labkit's shared foundation (``labkit._text``,
``labkit._data``, ``labkit._jit``, ``labkit._renamed`` for old names: they are part of the package,
not users of a domain).

The lists below are the imports still outside the contract, each with its reason; an entry that
is no longer needed fails too, so the lists only shrink.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.public_surface import deep_imports, markdown_code, notebook_code

ROOT = Path(__file__).resolve().parent.parent
FOUNDATION = ("labkit._text", "labkit._data", "labkit._jit", "labkit._renamed")

NOTEBOOK_EXCEPTIONS = {
    # The tour shows the command line and a kernel under the hood on purpose.
    "00_tour.ipynb: from labkit.cli import main",
    "00_tour.ipynb: from labkit import _tour_kernel",
    "02_collision_sweeps.ipynb: from labkit import _jit",
    "02_collision_sweeps.ipynb: from labkit.hexpuzzle import _kernels",
    # Drawing modules used as a namespace (draw.hit_table(...)); issue 30 item 2 renames them.
    "01_probability_tables.ipynb: from labkit.encounter import draw",
    "06_sound_and_knowledge.ipynb: from labkit.encounter import draw",
    "04_solver_and_generator.ipynb: from labkit.hexpuzzle import draw_solver",
    # Not yet exported: each needs a name of its own first (one word, one meaning).
    "02_collision_sweeps.ipynb: from labkit.widgets.collision_viewer import LEVEL_DIR",
    "03_gauge_scheduler.ipynb: from labkit.mapturn.cli import format_event",
    "08_difficulty_calibration.ipynb: from labkit._data import data_path",
}
# Drawing and table internals the apps reuse; to be exported or moved beside the apps.
APP_EXCEPTIONS = {
    "_code.py: from labkit.hexpuzzle.difficulty.telemetry import to_csv",
    "_probability_goal.py: from labkit.encounter.rules.tables import INDICES",
    # the generator the evaluation baselines compare against, wrapped for evaluate_generator
    "_variety_panel.py: from labkit.hexpuzzle.evaluation.baselines import ours",
    "_workshop_check.py: from labkit.hexpuzzle.draw import TILE_COLOURS",
    "balance_tuner.py: from labkit.encounter.sim.settings import SimulationSettings, "
    "default_balance_document",
    "balance_tuner.py: from labkit.encounter.sim.sweep import METRICS",
    "collision_viewer.py: from labkit.hexpuzzle.draw import update",
    "gauge_tuner.py: from labkit.mapturn.draw import draw_raster, update_raster",
    "probability.py: from labkit.encounter import draw",
    "probability.py: from labkit.encounter.rules.balance import Balance, PriorityRule, "
    "default_balance",
    "probability.py: from labkit.encounter.rules.tables import INDICES, table_index",
    "trace_viewer.py: from labkit.encounter.draw_sim import draw_board",
    "trace_viewer.py: from labkit.encounter.draw_sim import SIDE_COLOURS",
    "trace_viewer.py: from labkit.encounter.draw_sim import update_board",
    "trace_viewer.py: from labkit.encounter.animation import save_animation",
    "workbench.py: from labkit.hexpuzzle.difficulty.calibration import BAND_NAMES, "
    "DEFAULT_EDGES, band_of",
    "workbench.py: from labkit.hexpuzzle.difficulty.scoring import PARTS, WEIGHTS, Difficulty, "
    "js_round, score",
    "workshop.py: from labkit.hexpuzzle import coords",
    "workshop.py: from labkit.hexpuzzle.draw import update",
    "workshop.py: from labkit.hexpuzzle.level import MAX_RADIUS, STRAIGHT, Level, LevelError, "
    "all_matchings",
}


def _check(found: list[str], allowed: set[str]) -> None:
    found_set = set(found)
    assert not found_set - allowed, "imports outside labkit's public names:\n" + "\n".join(
        sorted(found_set - allowed)
    )
    assert not allowed - found_set, "no longer needed, take off the list:\n" + "\n".join(
        sorted(allowed - found_set)
    )


def test_notebooks_and_readme_import_only_public_names():
    found = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        found += deep_imports(notebook_code(nb.read_text()), nb.name)
    found += deep_imports(markdown_code((ROOT / "README.md").read_text()), "README.md")
    _check(found, NOTEBOOK_EXCEPTIONS)


def test_apps_import_only_public_names():
    found = []
    for path in sorted((ROOT / "labkit" / "widgets").glob("*.py")):
        found += [
            p
            for p in deep_imports(path.read_text(), path.name, inside="labkit.widgets")
            if not any(f"from {f} import" in p or f"import {f}" in p for f in FOUNDATION)
            and not p.endswith(tuple(f"from labkit import {f.split('.')[1]}" for f in FOUNDATION))
        ]
    _check(found, APP_EXCEPTIONS)


@pytest.mark.parametrize(
    ("code", "problems"),
    [
        ("from labkit.hexpuzzle import Level", 0),
        ("from labkit.hexpuzzle.level import Level", 1),  # deep path
        ("from labkit.hexpuzzle import MAX_RADIUS", 1),  # not in __all__
        ("import labkit.hexpuzzle.level", 1),
        ("from labkit import _data", 1),
        ("from labkit.widgets import TraceViewer", 0),
    ],
)
def test_the_rule_itself(code, problems):
    assert len(deep_imports(code)) == problems, deep_imports(code)
