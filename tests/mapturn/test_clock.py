"""M2 edge cases of ``consume_time``: what counts as a no-op and what counts as n."""

from __future__ import annotations

import numpy as np

from .helpers import game


def test_any_non_positive_amount_is_a_no_op():
    # M2: "n <= 0 or disabled -> no-op" -- a negative fraction is n <= 0 too.
    engine, _ = game("#####\n#Hs.#\n#####")
    for n in (0, -1, 0.0, -0.5, -2.25):
        assert engine.consume_time(n, "nothing") == 0
    assert engine.state.clock == 0 and engine.state.map_turn == 0 and engine.advance_calls == 0
    engine.enabled = False
    assert engine.consume_time(-0.5) == 0 and engine.consume_time(3) == 0
    assert engine.state.clock == 0 and engine.advance_calls == 0


def test_numpy_integers_are_whole_amounts():
    # n is a count of time units; an integer from numpy (e.g. out of a timeline) is one.
    engine, _ = game("#####\n#Hs.#\n#####")
    assert engine.consume_time(np.int64(3), "tool") == 3
    assert engine.state.clock == 3 and engine.state.map_turn == 3 and engine.advance_calls == 3
    assert isinstance(engine.state.clock, int)
