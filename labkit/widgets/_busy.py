"""No silent waits: an app says what it is doing whenever work takes more than about a second.

Two kinds of wait:

* **First use of a kernel on this machine.** numba compiles a kernel the first time it runs and
  keeps the machine code on disk; the game kernel behind *Tune* takes about two minutes cold and
  a fraction of a second afterwards (measured: 1,041 s
  on a loaded 2-core machine). :func:`prepare_kernels` compiles the kernels an action
  needs *before* the action starts and, when one of them is not on disk yet, says so in the
  app's words ("preparing the fast simulator, first run on this machine") with the part it is on
  and the seconds spent, refreshed every second from a helper thread (widget messages reach the
  browser while the kernel is busy). ``labkit warmup`` (run by ``make lab``) does this ahead.
* **Ordinary long work** (fitting, generating, playing games): :func:`busy` puts one line in the
  app's status box while the block runs.
* **An app that takes seconds to build** (FunnelView plays its first funnel, the workbench
  scores the campaign): there is no app on screen yet to say so, so :func:`loading` shows
  "loading …" under the cell at once (in a kernel) and removes it when the app is ready.

Examples
--------
>>> said = []
>>> prepare_kernels(["labkit._tour_kernel"], said.append, "the demo kernel") >= 0
True
>>> with busy(said.append, "fitting the skill model"):
...     pass
>>> said[-2:]
['fitting the skill model…', '']
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["prepare_kernels", "cold_kernels", "busy", "loading", "FIRST_RUN"]

#: The words shown while a kernel compiles for the first time on this machine.
FIRST_RUN = "preparing {what}, first run on this machine"

Say = Callable[[str], Any]


def _on_disk(dispatcher: Any) -> bool:
    """Whether numba's cache holds an index for ``dispatcher`` (compiled on an earlier run)."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return isinstance(index, str) and os.path.exists(index)


def _kernels(modules: Sequence[str]) -> list[Any]:
    from labkit import _jit

    for name in modules:
        importlib.import_module(name)
    return [k for k in _jit.REGISTRY.values() if k.module in modules and k.example is not None]


def cold_kernels(modules: Sequence[str]) -> list[str]:
    """Names of the kernels of ``modules`` neither compiled in this process nor cached on disk.

    Examples
    --------
    >>> isinstance(cold_kernels(["labkit._tour_kernel"]), list)
    True
    """
    from labkit import _jit

    if _jit.DISABLED:
        return []
    return [
        k.name
        for k in _kernels(modules)
        if not getattr(k.dispatcher, "signatures", ()) and not _on_disk(k.dispatcher)
    ]


def prepare_kernels(modules: Sequence[str], say: Say, what: str = "the fast simulator") -> int:
    """Compile (or load from disk) the kernels of ``modules``; returns how many were cold.

    When some are cold, ``say`` receives :data:`FIRST_RUN` with the part and the seconds so far,
    at once and then every second until done, and finally ``""``.
    """
    cold = set(cold_kernels(modules))
    kernels = _kernels(modules)
    if not cold:
        for k in kernels:  # loads from disk: a fraction of a second
            k.dispatcher(*k.example())
        return 0
    start = time.monotonic()
    state = {"part": 1}
    done = threading.Event()
    total = len(kernels)

    def line() -> str:
        spent = time.monotonic() - start
        return (
            f"{FIRST_RUN.format(what=what)}: part {state['part']} of {total}, "
            f"{spent:.0f} s so far (minutes, once per machine; "
            f"<code>labkit warmup</code> does it ahead of time)"
        )

    def tick() -> None:
        while not done.wait(1.0):
            say(line())

    say(line())
    ticker = threading.Thread(target=tick, name="labkit-first-run", daemon=True)
    ticker.start()
    try:
        for i, k in enumerate(kernels, 1):
            state["part"] = i
            k.dispatcher(*k.example())
    finally:
        done.set()
        ticker.join()
        say("")
    return len(cold)


@contextlib.contextmanager
def busy(say: Say, doing: str) -> Iterator[None]:
    """Show ``doing…`` through ``say`` while the block runs, then clear it."""
    say(f"{doing}…")
    try:
        yield
    finally:
        say("")


def _in_kernel() -> bool:
    from labkit.widgets._figure import _in_kernel as in_kernel

    return in_kernel()


_shown: dict[str, Any] = {}


def _show(text: str) -> None:
    """Show ``text`` under the running cell (one line, updated in place); ``""`` removes it."""
    from IPython.display import HTML, display

    handle = _shown.get("handle")
    if text and handle is None:
        _shown["handle"] = display(HTML(f"<i>{text}</i>"), display_id=True)
    elif text and handle is not None:
        handle.update(HTML(f"<i>{text}</i>"))
    elif handle is not None:
        handle.update({"text/plain": ""}, raw=True)
        _shown.pop("handle")


@contextlib.contextmanager
def loading(what: str) -> Iterator[Say]:
    """While an app builds: "loading ``what``…" under the cell at once (kernel only), removed
    at the end; yields a ``say`` that adds what it is doing now.

    Examples
    --------
    >>> with loading("the funnel") as say:  # outside a kernel: nothing is shown
    ...     say("playing the players")
    """
    if not _in_kernel():
        yield lambda _doing: None
        return
    _show(f"loading {what}…")
    try:
        yield lambda doing: _show(f"loading {what}: {doing}…")
    finally:
        _show("")
