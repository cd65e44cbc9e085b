"""The steady notebook runner: a kernel message a long ZMQ poll would sleep past (a missed
wake-up) is picked up by the next short poll, and the caller's timeout still holds."""

from __future__ import annotations

import asyncio
from queue import Empty

import pytest

from labkit_build.notebook_client import POLL_SLICE, SteadyClient, poll_in_slices


def _run(coro):
    # in a thread of its own: asyncio.run() refuses to start in a thread where an earlier test
    # of the worker left a running loop behind (nbclient's run_sync); a new thread has none
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class MissesItsWakeUp:
    """A channel whose message is there from the start, but a poll only sees it when it
    begins (as a ZMQ poll does once the edge is gone): the first poll sleeps out its timeout."""

    def __init__(self, message=None, missed=1):
        self.message, self.missed, self.asked = message, missed, []

    async def get_msg(self, timeout=None):
        self.asked.append(timeout)
        if len(self.asked) <= self.missed or self.message is None:
            await asyncio.sleep(timeout if timeout is not None else 3600)
            raise Empty
        return self.message


def test_a_missed_wake_up_costs_one_slice_not_the_whole_timeout():
    channel = MissesItsWakeUp({"msg": "reply"}, missed=2)
    poll_in_slices(channel, slice_s=0.01)
    assert _run(channel.get_msg(timeout=600)) == {"msg": "reply"}
    assert len(channel.asked) == 3
    assert all(t is not None and t <= 0.01 for t in channel.asked)


def test_no_timeout_keeps_polling_in_slices():
    channel = MissesItsWakeUp({"msg": "reply"}, missed=5)
    poll_in_slices(channel, slice_s=0.01)
    assert _run(channel.get_msg()) == {"msg": "reply"}
    assert len(channel.asked) == 6
    assert all(t is not None and t <= 0.01 for t in channel.asked)


def test_the_callers_timeout_still_ends_in_empty():
    channel = MissesItsWakeUp(None)
    poll_in_slices(channel, slice_s=0.01)
    with pytest.raises(Empty):
        _run(channel.get_msg(timeout=0.05))
    # sliced (more than one poll), and no poll asked for more time than was left
    assert len(channel.asked) > 1
    assert sum(channel.asked) <= 0.05 + 1e-9


def test_the_runner_executes_a_notebook_with_sliced_channels():
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    client = SteadyClient(nb, timeout=60, kernel_name="python3")
    polls = []
    client.on_cell_start = lambda cell, cell_index: polls.extend(
        ch.get_msg.__qualname__ for ch in (client.kc.shell_channel, client.kc.iopub_channel)
    )
    client.execute()
    assert nb.cells[0].outputs[0]["text"] == "42\n"
    assert polls == ["poll_in_slices.<locals>.get_msg"] * 2
    assert 0 < POLL_SLICE <= 1
