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


def test_the_chance_the_order_is_wrong_reads_as_a_percentage():
    # issue 47: "probability the order is wrong 0.76" was a bare decimal; a designer reads 76 %
    import re
    from types import SimpleNamespace

    import numpy as np

    from labkit.widgets.skill_panel import SkillPanel

    panel = SkillPanel([], None)
    half = 1.959964 * 0.5  # every level's standard error 0.5
    beta = np.array([0.0, 1.0, 0.5, 2.0, -2.0])  # b→c drops 0.5, d→e drops 4.0
    ci = np.column_stack([beta - half, beta + half])
    rows = [{"level": lid, "difficulty": None, "n": 0, "band": "easy"} for lid in "abcde"]
    panel.model = SimpleNamespace(
        level_ids=["a", "b", "c", "d", "e"], player_ids=["p"], difficulty=beta,
        difficulty_ci=ci, ability=np.zeros(3), ability_sd=1.0, table=lambda: rows,
        describe=lambda: "quitting ignored",
    )  # fmt: skip
    loss = {"log_loss": 0.5}
    panel.report = SimpleNamespace(
        folds=2, figure=lambda ax: None,
        metrics={"skill model": loss, "structural score": loss, "calibrate index": loss},
    )  # fmt: skip
    panel.draw()
    text = panel.summary.value
    # Φ(0.5 / 0.7071) = 0.7602 and Φ(4.0 / 0.7071) ≈ 1 − 8e-9 (normal table)
    assert (
        "c looks easier than b (by 0.50 on the difficulty scale): 76 % chance the order is "
        "wrong" in text
    )
    assert (
        "e looks easier than d (by 4.00 on the difficulty scale): over 99 % chance the "
        "order is wrong" in text
    )
    assert not re.search(r"order is wrong \d", text) and "probability" not in text
