"""The notebook runner of ``make report``, ``make docs`` and the test suite.

nbclient waits for a kernel's messages with one ZMQ poll as long as the whole cell budget. A
ZMQ socket's readiness is edge-triggered, and under load (several kernels starting, a widget's
comm messages) asyncio sometimes misses the edge: the reply sits in the socket while the poll
sleeps out the budget, then returns it, and the run goes on as if nothing happened — five
minutes lost on a cell that took one second (nbclient issue 312; seen in one notebook run of
about twenty). :class:`SteadyClient` polls in short slices instead, so a missed edge costs at
most :data:`POLL_SLICE` seconds; the budget and its timeout error are nbclient's as before.
(``labkit bundle`` and ``verify`` hand nbclient a blocking kernel manager, whose channels
poll with ``zmq_poll`` and cannot miss it.)
"""

from __future__ import annotations

import inspect
import time
from queue import Empty
from typing import Any

from nbclient import NotebookClient

__all__ = ["POLL_SLICE", "SteadyClient", "poll_in_slices"]

#: Longest a missed wake-up can hold a run up, in seconds.
POLL_SLICE = 0.5


def poll_in_slices(channel: Any, slice_s: float = POLL_SLICE) -> None:
    """Make ``channel.get_msg(timeout)`` wait in polls of at most ``slice_s`` seconds: the same
    message, or :class:`queue.Empty` once ``timeout`` has passed (never with ``None``)."""
    whole = channel.get_msg

    async def get_msg(timeout: float | None = None) -> dict[str, Any]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = slice_s if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                return await whole(timeout=min(slice_s, left))
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise

    channel.get_msg = get_msg


class SteadyClient(NotebookClient):  # type: ignore[misc]
    """An nbclient ``NotebookClient`` whose kernel channels poll in short slices."""

    async def async_start_new_kernel_client(self) -> Any:
        kc = await super().async_start_new_kernel_client()
        for channel in (kc.shell_channel, kc.iopub_channel):
            # only asyncio channels miss wake-ups: a blocking client (given a blocking kernel
            # manager, as ``labkit bundle`` does) polls with zmq_poll, which cannot
            if inspect.iscoroutinefunction(channel.get_msg):
                poll_in_slices(channel)
        return kc
