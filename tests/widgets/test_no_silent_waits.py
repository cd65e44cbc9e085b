"""No silent waits (issue 24, item 2): a first run on this machine says so before it compiles.

A kernel module written to a fresh file has nothing in numba's cache: preparing it is a first
run, and the app's status line must say so before the work starts; a second preparation is
silent (the kernel is compiled). Tune then reports the games it plays.
"""

from __future__ import annotations

import sys
import textwrap

import pytest

KERNEL_SOURCE = textwrap.dedent(
    """
    import numpy as np
    from labkit import _jit

    @_jit.kernel(example=lambda: (np.arange(3.0),))
    def twice(a):
        return a * 2.0
    """
)


@pytest.fixture
def fresh_kernel_module(tmp_path, monkeypatch):
    from labkit import _jit

    if _jit.DISABLED:
        pytest.skip("kernels run as plain Python")
    name = f"labkit_first_run_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(KERNEL_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)
    for key in [k for k in _jit.REGISTRY if k.startswith(name + ".")]:
        del _jit.REGISTRY[key]


def test_first_run_is_announced_then_silent(fresh_kernel_module):
    from labkit.widgets._busy import cold_kernels, prepare_kernels

    assert cold_kernels([fresh_kernel_module]) == [f"{fresh_kernel_module}.twice"]
    said: list[str] = []
    assert prepare_kernels([fresh_kernel_module], said.append, "the fast simulator") == 1
    assert said[0].startswith("preparing the fast simulator, first run on this machine: part 1")
    assert "labkit warmup" in said[0] and said[-1] == ""
    again: list[str] = []
    assert prepare_kernels([fresh_kernel_module], again.append) == 0
    assert again == []


def test_tune_says_first_run_then_the_games(fresh_kernel_module, monkeypatch):
    from labkit.encounter.sim import tune as tune_module
    from labkit.widgets import balance_tuner

    monkeypatch.setattr(balance_tuner, "GAME_KERNELS", (fresh_kernel_module,))
    app = balance_tuner.BalanceTuner()
    shown: list[str] = []
    app.status.observe(lambda ch: shown.append(ch["new"]), names="value")

    def fake_tune(*args, progress, **kwargs):
        shown.append("<tune started>")
        progress(100, 6000)
        raise tune_module.ArgumentError("stop here", argument="bounds", value=None)

    monkeypatch.setattr(tune_module, "tune", fake_tune)
    monkeypatch.setattr("labkit.encounter.tune", fake_tune)  # the app calls the public name
    app.run()
    start = shown.index("<tune started>")
    assert any("first run on this machine" in s for s in shown[:start]), shown
    assert "played 100 games of up to 6,000" in shown[start + 1], shown
    assert app.status.value == ""  # done: nothing left that looks like work in progress


def test_make_lab_warms_the_kernels_before_starting_jupyterlab():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    recipe = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert "labkit warmup" in recipe, recipe
    assert recipe.index("labkit warmup") < recipe.index("jupyter lab"), recipe


def test_the_workbench_says_what_it_fits_while_it_fits():
    from labkit.hexpuzzle import Level
    from labkit.widgets import DifficultyWorkbench

    level = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    bench = DifficultyWorkbench([level])
    said: list[str] = []
    bench.activity.observe(lambda ch: said.append(ch["new"]), names="value")
    bench.mode.value = "skill model"  # no telemetry: the fit says so, but the wait is announced
    assert said and "fitting the skill model" in said[0] and said[-1] == ""


def test_the_workbench_says_loading_before_it_scores_the_campaign(monkeypatch):
    # issue 47: nothing on screen for seconds while DifficultyWorkbench() starts
    from labkit.hexpuzzle import Level
    from labkit.widgets import DifficultyWorkbench, _busy
    from labkit.widgets import workbench as wb

    said: list[str] = []
    monkeypatch.setattr(_busy, "_in_kernel", lambda: True)
    monkeypatch.setattr(_busy, "_show", said.append)
    real = wb.score
    monkeypatch.setattr(wb, "score", lambda lv: said.append("score") or real(lv))
    level = Level.hexagon(2, tiles=[("mover", 1, 1, 0), ("post", 0, 0, 5, 1)], id="grazing")
    DifficultyWorkbench([level], n_boot=10)
    assert said[0] == "loading the difficulty workbench…" and "score" in said and said[-1] == ""
