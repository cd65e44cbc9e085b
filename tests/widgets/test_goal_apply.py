"""ProbabilityExplorer's goal seek: an apply button, and to_code keeps the row (issue 24, item 5).

Before: the answer could only be read, and to_code dropped the goal-seek row. Expected values
from the default balance by hand: A = npc (hit 1, agility 1) + long knife (hit +1, agility +1),
B = monster (hit 2, agility 0) + claws (hit +1); leather coat: agility −1; revolver: hit +2,
agility −1. Hit % by index −4…+4: 2 4 8 14 20 30 45 60 75.
"""

from __future__ import annotations

import pytest

from labkit.widgets import ProbabilityExplorer


@pytest.fixture
def app():
    return ProbabilityExplorer(n=300)


def test_apply_puts_an_agility_answer_into_the_loadout(app):
    # A's blow is at +2 (hit 2 vs agility 0): 45 %. At least 50 % needs B agility ≤ -1.
    app.goal.how.value, app.goal.target.value = "at least", 50
    app.goal.button.click()
    assert app.goal_result["value"] == -1
    app.goal.apply.click()
    assert app.side["b"]["armour"].value == "leather_coat"  # the one change that gives -1
    assert app.side["b"]["character"].value == "monster"
    assert app.fighters()[1].agility == -1 and app.mark_a.get_ydata()[0] == 60
    assert (
        app.goal.applied.value
        == "applied: B armour → leather coat (B agility -1 gives A's blow 60 %)"
    )


def test_apply_says_in_one_line_what_it_could_not(app):
    # B's blow against A (hit 3 vs agility 2, +1: 30 %); exactly 2 % needs A agility ≥ 7, and
    # A's agility is at its highest (npc 1 + knife 1): nothing gets nearer, nothing changes.
    app.solve_for(2, "agility", side="b")
    text = app.apply_goal()
    assert text == ("could not apply: no character, weapon or armour of A brings B's blow nearer "
                    "to exactly 2 %; A's agility comes from the balance file's character and "
                    "equipment tables, which the explorer does not edit")  # fmt: skip
    assert app.loadout("a").weapon == "long_knife"
    # At least 75 % for B's blow needs B hit level ≥ 6; the most a B loadout gives is 4
    # (monster 2 + revolver 2, +2 against agility 2: 45 %): applied, and the rest is said.
    app.solve_for(75, "hit level", side="b", how="at least")
    text = app.apply_goal()
    assert app.side["b"]["weapon"].value == "revolver" and app.fighters()[1].hit == 4
    assert text == ("applied what the loadouts allow: B weapon → revolver (B hit level 4 gives "
                    "B's blow 45 %); at least 75 % for B's blow needs B's hit level changed in "
                    "the balance file, which the explorer does not edit")  # fmt: skip
    assert app.goal.applied.value == text


def test_an_answer_already_met_changes_nothing(app):
    app.solve_for(45, "hit level")  # A hit level 2 against agility 0 already gives 45 %
    assert app.apply_goal().startswith("nothing to change: A hit level 2 gives 45 %")


def test_apply_a_table_entry_and_nothing_before_a_solve(app):
    assert app.apply_goal() == "nothing to apply yet: press solve first"
    app.solve_for(50, "table entry")  # A vs B at +2: 50 % lies between 30 and 60
    assert app.hit[6].value == 45  # solving alone changes nothing
    assert app.apply_goal() == "applied: hit % at +2 = 50 %"
    assert app.hit[6].value == 50 and app.balance.hit_table[6] == 0.50


def test_to_code_keeps_the_goal_seek_row(app):
    app.goal.how.value, app.goal.target.value = "at most", 20
    app.goal.what.value, app.goal.side.value = "hit level", "b"
    app.goal.button.click()
    code = app.to_code()
    for line in ("app.goal.how.value = 'at most'", "app.goal.target.value = 20",
                 "app.goal.what.value = 'hit level'", "app.goal.side.value = 'b'",
                 "app.goal.button.click()"):  # fmt: skip
        assert line in code
    ns: dict = {}
    exec(code, ns)
    assert ns["app"].goal.answer.value == app.goal.answer.value != ""
