"""The reproducibility stamp printed by the first cell of every notebook.

``labkit.notebook_header(seeds, **params)`` prints labkit's version, the git commit when the
notebook runs inside a checkout, python/numpy/numba versions, the seeds and parameters the
notebook will use, and the time; it returns the same facts as a dict so a notebook can store them
beside its figures.

It also chooses the matplotlib backend: the interactive ipympl canvas (``widget``) in a live
JupyterLab, the static ``inline`` backend when ``LABKIT_STATIC_FIGURES=1`` (set by the test suite
and ``make report`` so that executed notebooks carry real images).
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

from labkit._version import __version__


def git_commit(start: Path | None = None) -> str | None:
    """The current commit of the checkout containing labkit, or ``None`` outside one."""
    here = start or Path(__file__).resolve().parent  # labkit's folder
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _select_backend() -> str:
    static = os.environ.get("LABKIT_STATIC_FIGURES", "") not in ("", "0")
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return "none"
    shell = get_ipython()
    if shell is None:
        return "none"
    backend = "inline" if static else "widget"
    try:
        shell.run_line_magic("matplotlib", backend)
    except Exception:  # ipympl missing or no front-end: static figures still work
        backend = "inline"
        shell.run_line_magic("matplotlib", backend)
    return backend


def notebook_header(seeds: Any = None, **params: Any) -> dict[str, Any]:
    """Print and return the stamp; see the module docstring.

    Examples
    --------
    >>> stamp = notebook_header(seeds={"map": 1}, radius=2)  # doctest: +ELLIPSIS
    labkit 0.1.0 ...
    >>> stamp["seeds"], stamp["params"]
    ({'map': 1}, {'radius': 2})
    """
    import numba
    import numpy

    stamp = {
        "labkit": __version__,
        "commit": git_commit(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "seeds": seeds,
        "params": params,
        "backend": _select_backend(),
        "time": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
    }
    print(
        f"labkit {stamp['labkit']} (commit {stamp['commit'] or 'unknown'}) · "
        f"python {stamp['python']} · numpy {stamp['numpy']} · numba {stamp['numba']}"
    )
    print(f"seeds: {seeds!r}  params: {params!r}")
    print(f"figures: {stamp['backend']} · run at {stamp['time']}")
    return stamp
