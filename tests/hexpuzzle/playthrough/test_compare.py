"""Comparing two funnels: two level orders against a large independent simulation."""

from __future__ import annotations

import warnings
from html import escape

import numpy as np
import pytest

from labkit import ArgumentError
from labkit.hexpuzzle import (
    FunnelWorld,
    TrueModel,
    compare_funnels,
    funnel,
)
from labkit.hexpuzzle.playthrough.compare import FunnelComparison
from labkit.hexpuzzle.playthrough.simulate import Funnel


def test_compare_two_orders_against_a_large_independent_simulation():
    quit = {"baseline": -2.0, "won": -1.0, "run": 0.6}
    easy_first, hard_first = [-1.5, -0.5, 0.5, 1.5], [1.5, 0.5, -0.5, -1.5]
    a = funnel(["L01", "L02", "L03", "L04"], TrueModel(easy_first, quit=quit), players=3000,
               draws=20, rng=5)  # fmt: skip
    b = funnel(["L01", "L02", "L03", "L04"], TrueModel(hard_first, quit=quit), players=3000,
               draws=20, rng=5)  # fmt: skip
    c = compare_funnels(a, b, labels=("easy first", "hard first"))
    big_a = FunnelWorld(easy_first, quit=quit).funnel(100_000, draws=1, rng=11)
    big_b = FunnelWorld(hard_first, quit=quit).funnel(100_000, draws=1, rng=12)
    truth = big_b.value("reach")[-1] - big_a.value("reach")[-1]
    v, lo, hi = c.reach_difference[-1]
    assert c.paired and lo - 0.005 <= truth <= hi + 0.005 and abs(v - truth) < 0.02
    assert c.summary().startswith("easy first brings more players to the last level")
    assert c.labels == ("easy first", "hard first")
    same = compare_funnels(a, a)
    assert np.all(same.reach_difference == 0.0)


# --- the rules on hand-made funnels (exact values, no simulation) ---------------------------


def _funnel(ids, reach, hazard, *, seed=0, samples=None, draws=None):
    """A funnel whose values are ``reach`` and ``hazard``; ``samples``: name -> (draws, L)."""
    reach, hazard = np.asarray(reach, float), np.asarray(hazard, float)
    fin = reach[-1] * (1 - hazard[-1])
    # value, low, high: the intervals differ from the value, so a reader of the wrong column shows
    stats = {"reach": np.column_stack([reach, reach - 0.01, reach + 0.01]),
             "quit_hazard": np.column_stack([hazard, hazard - 0.01, hazard + 0.01]),
             "finished": np.array([[fin, fin - 0.01, fin + 0.01]])}  # fmt: skip
    samples = {} if samples is None else samples
    d = draws if draws is not None else (len(samples["reach"]) if samples else 1)
    return Funnel(tuple(ids), stats, players=100, draws=d, notes={"seed": seed}, samples=samples)


def _samples(reach, hazard, finished):
    return {"reach": np.asarray(reach, float), "quit_hazard": np.asarray(hazard, float),
            "finished": np.asarray(finished, float)}  # fmt: skip


K = np.arange(41.0) / 100  # 41 paired differences 0.00 .. 0.40: percentiles by hand


def test_interval_is_median_and_2_5_97_5_percentiles_of_paired_differences():
    zero = np.zeros((41, 2))
    a = _funnel(["a1", "a2"], [1, 0.5], [0.5, 0], samples=_samples(zero, zero, zero[:, :1]))
    b_reach = np.column_stack([K, 2 * K])
    b_haz = np.column_stack([-K, np.full(41, np.nan)])  # position 2: a hazard nobody reached
    b = _funnel(["b1", "b2"], [1, 0.5], [0.5, 0], samples=_samples(b_reach, b_haz, K[:, None]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an all-NaN position must not warn
        c = compare_funnels(a, b)
    # linear percentiles of 41 evenly spaced values: 50 % -> index 20, 2.5 % -> 1, 97.5 % -> 39
    np.testing.assert_allclose(c.reach_difference, [[0.20, 0.01, 0.39], [0.40, 0.02, 0.78]])
    np.testing.assert_allclose(c.hazard_difference[0], [-0.20, -0.39, -0.01])
    assert np.all(np.isnan(c.hazard_difference[1]))
    np.testing.assert_allclose(c.finished_difference, [0.20, 0.01, 0.39])
    assert c.reach_difference.shape == c.hazard_difference.shape == (2, 3)


def test_nobody_reaching_a_position_counts_as_reach_difference_zero():
    nan = np.full((3, 1), np.nan)
    a = _funnel(["x"], [1], [0], samples=_samples(nan, nan, nan))
    c = compare_funnels(a, a)
    assert c.reach_difference.tolist() == [[0.0, 0.0, 0.0]]


def test_differences_use_the_first_cohorts_of_the_longer_funnel():
    long = _samples([[1, 1], [1, 1], [9, 9]], [[0, 0]] * 3, [[1], [1], [9]])
    a = _funnel(["x", "y"], [1, 1], [0, 0], samples=long)
    b = _funnel(["x", "y"], [1, 1], [0, 0], samples=_samples([[1, 1]] * 2, [[0, 0]] * 2, [[1]] * 2))
    c = compare_funnels(a, b)
    assert c.reach_difference.tolist() == [[0.0, 0.0, 0.0]] * 2
    assert c.finished_difference.tolist() == [0.0, 0.0, 0.0]
    assert not c.paired  # 3 draws against 2


def _pair(seed_a, seed_b, draws_a=2, draws_b=2):
    s = _samples([[1.0]], [[0.0]], [[1.0]])
    rep = {k: np.repeat(v, 2, axis=0) for k, v in s.items()}
    a = _funnel(["x"], [1], [0], seed=seed_a, samples=rep, draws=draws_a)
    b = _funnel(["x"], [1], [0], seed=seed_b, samples=rep, draws=draws_b)
    return compare_funnels(a, b)


def test_paired_only_with_the_same_integer_seed_and_the_same_draws():
    assert _pair(7, 7).paired
    assert not _pair(None, None).paired  # no seed: independent cohorts
    assert not _pair(7, 8).paired
    assert not _pair(7, 7, draws_a=2, draws_b=1).paired
    assert not _pair(7, 7, draws_a=1, draws_b=2).paired


def test_campaigns_of_different_lengths_are_refused_naming_b_and_its_length():
    one = _funnel(["x"], [1], [0], samples=_samples([[1]], [[0]], [[1]]))
    three = _funnel(["x", "y", "z"], [1, 1, 1], [0, 0, 0],
                    samples=_samples([[1, 1, 1]], [[0, 0, 0]], [[1]]))  # fmt: skip
    with pytest.raises(ArgumentError) as exc:
        compare_funnels(one, three)
    assert str(exc.value) == (
        "b: has 3 levels, the first funnel 1: compare campaigns of one length (got 3)"
    )
    assert exc.value.argument == "b"


def test_a_funnel_without_cohort_samples_is_refused_naming_a():
    with_s = _funnel(["x"], [1], [0], samples=_samples([[1]], [[0]], [[1]]))
    without = _funnel(["x"], [1], [0])
    for a, b in ((with_s, without), (without, with_s)):
        with pytest.raises(ArgumentError) as exc:
            compare_funnels(a, b)
        assert str(exc.value) == f"a: has no cohort samples (got {repr(repr(a))})"
        assert exc.value.argument == "a"


SAME = "the two bring as many players to the last level, as far as can be told"


def _comparison(last, paired=True, labels=("A", "B")):
    # exits: A loses 0.2 at a1, 0.3 at a2 (0.8 x 0.375); B loses 0.1 at b1, 0.45 at b3 (0.5 x 0.9)
    a = _funnel(["a1", "a2", "a3"], [1.0, 0.8, 0.5], [0.2, 0.375, 0.0])
    b = _funnel(["b1", "b2", "b3"], [1.0, 0.9, 0.5], [0.1, 0.0, 0.9])
    rd = np.array([[0.9, 0.8, 0.95], [-0.7, -0.8, -0.6], last])
    hd = np.array([[-0.1, -0.2, 0.0], [-0.375, -0.5, -0.3], [0.9, 0.8, 1.0]])
    return FunnelComparison(a, b, labels, paired, rd, hd, np.array(last))


@pytest.mark.parametrize(
    ("last", "verdict"),
    [
        ([0.5, 0.25, 0.75], "B brings more players to the last level"),
        ([1.5, 1.25, 1.75], "B brings more players to the last level"),
        ([-0.5, -0.75, -0.25], "A brings more players to the last level"),
        ([0.1, 0.0, 0.2], SAME),
        ([-0.1, -0.2, 0.0], SAME),
        ([0.1, -0.1, 0.3], SAME),
    ],
)
def test_summary_reads_the_last_position_strictly(last, verdict):
    v, lo, hi = last
    pct = lambda x: f"{x * 100:+.1f}%"  # noqa: E731
    expected = (f"{verdict}: B minus A = {pct(v)} of all players (95 %: {pct(lo)} to "
                f"{pct(hi)}, paired cohorts). Most players leave at a2 in A (30%) and at b3 "
                "in B (45%).")  # fmt: skip
    assert _comparison(last).summary() == expected
    assert repr(_comparison(last)) == f"FunnelComparison({expected})"


def test_summary_without_pairing_says_nothing_of_pairs():
    s = _comparison([0.5, 0.25, 0.75], paired=False).summary()
    assert s == ("B brings more players to the last level: B minus A = +50.0% of all players "
                 "(95 %: +25.0% to +75.0%). Most players leave at a2 in A (30%) and at b3 in B "
                 "(45%).")  # fmt: skip


def test_rows_one_per_position_with_both_levels_and_the_differences():
    rows = _comparison([0.5, 0.25, 0.75], labels=("old", "new")).rows()
    assert len(rows) == 3
    assert rows[2] == {
        "position": 3, "level old": "a3", "level new": "b3", "reach old": 0.5, "reach new": 0.5,
        "reach difference": 0.5, "reach difference low": 0.25, "reach difference high": 0.75,
        "quit old": 0.0, "quit new": 0.9, "quit difference": 0.9,
    }  # fmt: skip
    assert rows[0]["position"] == 1 and rows[0]["level old"] == "a1"
    assert rows[1]["reach old"] == 0.8 and rows[1]["quit difference"] == -0.375
    assert [r["reach difference"] for r in rows] == [0.9, -0.7, 0.5]
    assert [r["reach difference low"] for r in rows] == [0.8, -0.8, 0.25]
    assert [r["reach difference high"] for r in rows] == [0.95, -0.6, 0.75]
    assert [r["quit new"] for r in rows] == [0.1, 0.0, 0.9]
    assert [r["quit old"] for r in rows] == [0.2, 0.375, 0.0]
    assert [r["reach new"] for r in rows] == [1.0, 0.9, 0.5]
    assert [r["level new"] for r in rows] == ["b1", "b2", "b3"]


def test_html_escapes_labels_and_shows_each_position():
    c = _comparison([0.5, 0.25, 0.75], labels=("<a>", "b&c"))
    html = c._repr_html_()
    head = ("<tr><th>#</th><th>level (&lt;a&gt;)</th><th>level (b&amp;c)</th>"
            "<th>reach &lt;a&gt;</th><th>reach b&amp;c</th><th>difference (95 %)</th>"
            "<th>quit &lt;a&gt;</th><th>quit b&amp;c</th></tr>")  # fmt: skip
    row2 = ("<tr><td>2</td><td>a2</td><td>b2</td><td>80%</td><td>90%</td>"
            "<td>-70.0% (-80.0% to -60.0%)</td><td>38%</td><td>0%</td></tr>")  # fmt: skip
    assert html == (f"<p>{escape(c.summary())}</p><table>{head}"
                    + html.split(head, 1)[1])  # fmt: skip
    assert row2 in html
    assert html.endswith("<td>50%</td><td>50%</td><td>+50.0% (+25.0% to +75.0%)</td>"
                         "<td>0%</td><td>90%</td></tr></table>")  # fmt: skip
    assert html.count("<tr>") == 4
    assert "<td>38%</td><td>0%</td></tr><tr><td>3</td>" in html  # rows follow each other
    assert "<td>1</td><td>a1</td><td>b1</td><td>100%</td><td>100%</td>" in html
