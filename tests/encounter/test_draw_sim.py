"""Drawing a played game: update_board moves actors, corpses and sounds to a frame."""

from __future__ import annotations

import pytest

from labkit.encounter import draw_sim
from labkit.encounter.records.playback import playback
from tests.test_drawing import (
    TRACE,
    _close_pyplot_figures,  # noqa: F401 - autouse: closes pyplot figures
)

FRAMES = list(playback(TRACE))


def test_update_board_moves_actors_corpses_and_sound_to_the_frame() -> None:
    first, last = FRAMES[0], FRAMES[-1]
    art = draw_sim.draw_board(TRACE.map)
    draw_sim.update_board(art, first)
    assert len(art["corpses"].get_offsets()) == 0
    draw_sim.update_board(art, last)
    alive = {a: st["position"] for a, st in last.actors.items() if st["alive"]}
    offsets = art["actors"].get_offsets()
    assert len(offsets) == len(alive) and len(alive) < len(first.actors)
    for (ox, oy), (x, y) in zip(offsets, alive.values()):  # in its room's square
        assert abs(ox - x) < 0.5 and abs(oy - y) < 0.5
    assert art["corpses"].get_offsets().tolist() == [list(p) for _, p in last.corpses]
    (sx, sy, level), *_ = last.sounds  # a level-N sound reaches N - 1 rooms each way
    square = art["sounds"][0]
    assert square.get_visible()
    assert square.get_x() == pytest.approx(sx - (level - 1) - 0.5)
    assert square.get_width() == pytest.approx(2 * (level - 1) + 1)
    assert f"step {last.step}" in art["ax"].get_title()
