"""The Difficulty record: what an empty level scores, the caps of H9's parts, and how a score
reads (text and HTML), with every expected value written out by hand."""

from __future__ import annotations

import pytest

from labkit.hexpuzzle.difficulty.scoring import Difficulty, parts_from, score
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.solver import Solution


def test_an_empty_level_scores_zero_and_measures_nothing():
    d = score(Level.hexagon(2, move_limit=7, id="empty"))
    assert d == Difficulty("invalid_empty", 0, {}, 0, 0.0, None, 0, None, 0, 7, "empty", None)
    assert (d.N, d.T, d.W, d.F, d.R, d.K, d.M) == (0, 0.0, None, 0, None, 0, 7)
    assert isinstance(d.T, float) and d.band is None and d.level_id == "empty"


def test_a_scored_level_keeps_the_solution_it_was_measured_on():
    level = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=2)
    d = score(level)
    assert isinstance(d.solution, Solution) and d.solution.solved
    assert d.W == len(d.solution.layers) and d.R == d.solution.rotations


def test_every_part_is_capped_at_its_weight():
    # T = 7.5 turns a tile is past H9's 5, R = 6 rotations past its 4, N = 50 past 37.
    parts = parts_from(50, 7.5, 30, 0, 6, 50, 50)
    assert parts == {"size": 15, "turns": 20, "layers": 20, "blocking": 15, "rotation": 20,
                     "pressure": 10}  # fmt: skip
    # Below the caps: T = 2.5 -> 10 points, R = 2 -> 10 points, W = 4 -> 20·3/9.
    parts = parts_from(10, 2.5, 4, 5, 2, 10, 12)
    assert parts["turns"] == pytest.approx(10) and parts["rotation"] == pytest.approx(10)
    assert parts["layers"] == pytest.approx(20 * 3 / 9)
    # Plenty of spare steps: pressure 0, not negative.
    assert parts_from(10, 0, 1, 10, 0, 10, 99)["pressure"] == 0


PARTS = {"size": 2.4324, "turns": 3.3333, "layers": 4.4444, "blocking": 7.5, "rotation": 5.0,
         "pressure": 0.0}  # fmt: skip
OK = Difficulty("ok", 23, PARTS, 6, 0.8333, 3, 3, 1, 6, 9, "main-01")
UNKNOWN = Difficulty("undetermined", None, {**PARTS, "layers": None, "rotation": None},
                     6, 0.8333, None, 3, None, 6, 9, "big")  # fmt: skip


def test_text_shows_total_band_and_rounded_parts():
    assert str(OK) == (
        "main-01: 23 (easy) size=2 turns=3 layers=4 blocking=8 rotation=5 pressure=0"
    )
    assert str(UNKNOWN) == (
        "big: - (undetermined) size=2 turns=3 layers=- blocking=8 rotation=- pressure=0"
    )


def test_html_shows_the_parts_table_and_the_quantities():
    want = (
        "<table><caption>main-01: <b>23</b> · easy · ok</caption><tr><th>part</th>"
        "<th>value</th><th>shown</th><th>max</th></tr>"
        "<tr><td>size</td><td>2.43</td><td>2</td><td>15</td></tr>"
        "<tr><td>turns</td><td>3.33</td><td>3</td><td>20</td></tr>"
        "<tr><td>layers</td><td>4.44</td><td>4</td><td>20</td></tr>"
        "<tr><td>blocking</td><td>7.50</td><td>8</td><td>15</td></tr>"
        "<tr><td>rotation</td><td>5.00</td><td>5</td><td>20</td></tr>"
        "<tr><td>pressure</td><td>0.00</td><td>0</td><td>10</td></tr>"
        "</table><p>N=6, T=0.833, W=3, F=3, R=1, K=6, M=9</p>"
    )
    assert OK._repr_html_() == want
    html = UNKNOWN._repr_html_()
    assert "<caption>big: <b>–</b> · – · undetermined</caption>" in html
    assert "<tr><td>layers</td><td>–</td><td>–</td><td>20</td></tr>" in html
    assert "<p>N=6, T=0.833, W=None, F=3, R=None, K=6, M=9</p>" in html


def test_plot_stacks_the_six_parts_on_the_given_axes():
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    fig = OK.plot(ax=ax)
    assert fig is ax.figure
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx(list(PARTS.values()))
    assert [t.get_text() for t in ax.texts] == ["23"]
    assert OK.plot().axes[0].patches  # a figure of its own without ax


def test_a_status_given_as_text_becomes_the_enum():
    import dataclasses

    from labkit.hexpuzzle import DifficultyStatus, Level, score

    d = score(Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], move_limit=9))
    again = dataclasses.replace(d, status="unsolvable")  # as a file or a caller spells it
    assert type(again.status) is DifficultyStatus and again.status is DifficultyStatus.UNSOLVABLE
    with pytest.raises(ValueError):
        dataclasses.replace(d, status="tricky")
