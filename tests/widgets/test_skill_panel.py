"""The skill-model panel: neighbours out of order flagged with the chance their order is wrong;
no telemetry says so; the level table in words."""

from __future__ import annotations


def test_skill_view_flags_out_of_order_neighbours_with_the_chance_the_order_is_wrong():
    from types import SimpleNamespace

    import numpy as np

    from labkit.widgets.skill_panel import SkillPanel

    panel = SkillPanel.__new__(SkillPanel)
    half = 1.959964 * 0.5  # every level's standard error 0.5
    beta = np.array([0.0, 1.0, 0.5, 2.0])
    ci = np.column_stack([beta - half, beta + half])
    panel.model = SimpleNamespace(level_ids=["a", "b", "c", "d"], difficulty=beta, difficulty_ci=ci)
    (flag,) = panel.out_of_order()
    assert (flag["earlier"], flag["later"], flag["at"]) == ("b", "c", 2)
    # drop 0.5 over sqrt(0.5² + 0.5²) = 0.7071: Φ(0.7071) = 0.7602 (normal table)
    assert abs(flag["p_wrong"] - 0.7602) < 1e-3


def test_no_telemetry_fits_nothing_and_says_so():
    from labkit.hexpuzzle import campaign, score
    from labkit.widgets.skill_panel import SkillPanel

    panel = SkillPanel([score(lv) for lv in campaign()[:3]], None)
    assert panel.fit() is None and panel.model is None
    assert panel.summary.value == "<b>no telemetry: nothing to fit the skill model to</b>"
    assert panel.rows() == [] and panel.out_of_order() == []


def test_the_level_table_names_its_scales_and_an_unplayed_level():
    from types import SimpleNamespace

    from labkit.widgets.skill_panel import SkillPanel

    panel = SkillPanel.__new__(SkillPanel)
    panel.levels = [
        SimpleNamespace(level_id="a", total=41),
        SimpleNamespace(level_id="b", total=63),
    ]
    played = {
        "level": "a",
        "difficulty": -0.5,
        "low": -0.9,
        "high": -0.1,
        "n": 120,
        "success": 0.62,
        "score": 38,
        "band": "intermediate",
    }
    unplayed = {"level": "b", "difficulty": None, "n": 0, "band": "unplayed"}
    panel.model = SimpleNamespace(table=lambda: [played, unplayed])
    page = panel._table_html()
    assert "<th>skill-model score (0–100, own scale)</th>" in page
    assert (
        "<tr><td>a</td><td>-0.50</td><td>-0.90 to -0.10</td><td>120</td><td>62%</td>"
        "<td>38</td><td>41</td><td>intermediate</td></tr>"
    ) in page
    assert (
        "<tr><td>b</td><td>—</td><td>nobody played it</td><td>0</td><td>—</td><td>—</td>"
        "<td>63</td><td>unplayed</td></tr>"
    ) in page
