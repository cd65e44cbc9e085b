"""Drawings: artists carry the rule's numbers (arrows toward sources, curve heights)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from labkit.encounter import default_balance, draw, propagate_sound


def test_sound_quiver_points_toward_the_source():
    strength, direction = propagate_sound((5, 5), [(2, 2, 3)])
    fig, ax = plt.subplots()
    art = draw.draw_sound(ax, strength, direction, np.array([(2, 2, 3)]))
    q = art["quiver"]
    assert len(q.U) == 24  # every heard cell but the source itself
    offsets = q.get_offsets()
    toward = np.array([2, 2]) - offsets
    assert np.all((np.sign(q.U) == np.sign(toward[:, 0])) & (np.sign(q.V) == np.sign(toward[:, 1])))
    plt.close(fig)


def test_curves_and_round_bars():
    fig, (a, b) = plt.subplots(1, 2)
    art = draw.draw_curves(a, default_balance())
    assert art["hit"].get_ydata()[4] == 20 and len(art["labels"]) == 9
    bars = draw.draw_rounds(b, np.zeros(2))
    draw.update_rounds(bars, np.array([0, 2, 6, 0, 2]))
    assert [round(x.get_height(), 2) for x in bars[:4]] == [0.2, 0.6, 0.0, 0.2]
    plt.close(fig)
