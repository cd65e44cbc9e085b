from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import labkit
from labkit import ArgumentError, _jit, _tour_kernel

ROOT = Path(__file__).resolve().parent.parent


def test_demo_kernel_matches_py_func():
    rng = np.random.default_rng(0)
    for _ in range(20):
        h, w = rng.integers(1, 30, 2)
        y, x = rng.integers(-3, 33, 2)
        args = (int(h), int(w), int(y), int(x))
        assert np.array_equal(
            _tour_kernel.chebyshev_rings(*args), _tour_kernel.chebyshev_rings.py_func(*args)
        )


def test_demo_kernel_is_registered_and_compiled_with_nogil():
    k = _jit.REGISTRY["labkit._tour_kernel.chebyshev_rings"]
    assert k.example is not None
    if not _jit.DISABLED:
        assert k.dispatcher.targetoptions["nogil"] is True
        assert k.dispatcher.targetoptions["nopython"] is True


def test_plain_python_swaps_and_restores():
    before = _tour_kernel.chebyshev_rings
    with _jit.plain_python():
        assert _tour_kernel.chebyshev_rings is before.py_func
        assert np.array_equal(_tour_kernel.rings((3, 3), (0, 0)), [[0, 1, 2], [1, 1, 2], [2, 2, 2]])
    assert _tour_kernel.chebyshev_rings is before


def test_warmup_compiles_every_registered_kernel():
    timings = _jit.warmup(progress=False)
    assert "labkit._tour_kernel.chebyshev_rings" in timings
    assert set(timings) == {k.name for k in _jit.REGISTRY.values() if k.example is not None}


def test_import_labkit_is_fast_and_compiles_nothing():
    code = (
        "import sys, time; t = time.perf_counter(); import labkit; "
        "dt = time.perf_counter() - t; "
        "print(dt, 'numba' in sys.modules, 'matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, numba_loaded, mpl_loaded = out.stdout.split()
    assert numba_loaded == "False" and mpl_loaded == "False"
    assert float(seconds) < 1.0


def _drop_root_privileges() -> list[str]:
    """As root, permission bits do not stop writes: drop every capability for the child."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    assert setpriv, "running as root needs util-linux 'setpriv' to test a read-only install"
    return [setpriv, "--bounding-set=-all", "--inh-caps=-all", "--"]


@pytest.mark.parametrize("user_cache_writable", [True, False])
def test_info_and_warmup_from_read_only_install(tmp_path, installed_wheel, user_cache_writable):
    site = tmp_path / "site"
    shutil.copytree(installed_wheel[1], site)  # the wheel as pip laid it out, made read-only
    cache_home = tmp_path / "cache"
    cache_home.mkdir()
    subprocess.run(["chmod", "-R", "a-w", str(site)], check=True)
    if not user_cache_writable:
        subprocess.run(["chmod", "-R", "a-w", str(cache_home)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(cache_home), HOME=str(cache_home))
    try:
        # one domain's kernels prove where the cache goes; every kernel's example is compiled
        # by tests/test_kernel_registry.py, and a whole cold warm-up cost minutes twice here
        for command in (["info"], ["warmup", "--quiet", "pathfinding"]):
            out = subprocess.run(
                [*_drop_root_privileges(), sys.executable, "-m", "labkit", *command],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp_path,
            )
            assert out.returncode == 0, out.stderr
            assert "cannot cache" not in out.stderr.lower()
        assert "compiled" in out.stdout
        assert not list(site.rglob("*.nbi")), "wrote cache files into the read-only install"
        cached = list(cache_home.rglob("*.nbi"))
        assert bool(cached) == user_cache_writable
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(tmp_path)], check=True)


def test_plain_python_also_swaps_kernels_imported_by_name():
    # _game_kernels calls exchange, compass and _decide through names imported from other kernel
    # modules; a plain-Python run of the game must run those as plain Python too.
    from labkit.encounter import _game_kernels as gk
    from labkit.encounter import _kernels as ek

    before, compass = gk.exchange, gk.compass
    assert before is ek.exchange and compass is ek.compass
    with _jit.plain_python("labkit.encounter._kernels"):
        assert gk.exchange is before.py_func and ek.exchange is before.py_func
        assert gk.compass is compass.py_func is ek.compass
        assert gk.play_game is _jit.REGISTRY[f"{gk.__name__}.play_game"].dispatcher  # not chosen
    assert gk.exchange is before and ek.exchange is before


def test_warmup_names_the_domains_it_knows():
    with pytest.raises(ArgumentError, match="domains: must be one of hexpuzzle, pathfinding"):
        labkit.warmup(progress=False, domains=["puzzles"])
