"""One glossary for every answer a designer reads: apps, summaries and CLI lines alike."""

from __future__ import annotations

import re

import pytest

from labkit import glossary
from labkit.encounter.sim.knobs import Knob, knob_label


@pytest.mark.parametrize(
    ("pointer", "said"),
    [
        ("/characters/monster/life", "monster life (wounds it takes)"),
        ("/characters/npc/agility", "NPC agility (index steps)"),
        ("/weapons/long_knife/noise", "long knife noise (rooms it carries)"),
        ("/armour/vest/protection", "vest protection (wounds blocked)"),
        # the tables are indexed by attacker level − target agility, −4 … +4 (docs/rules)
        ("/tables/hit/0", "hit chance at index −4"),
        ("/tables/hit/4", "hit chance at index 0"),
        ("/tables/pursuit/8", "pursuit chance at index +4"),
        ("/card_pool/stock/long_knife", "long knives in the card pool"),
        ("max_steps", "step limit (steps)"),
        ("npcs", "NPCs in the game (NPCs)"),
    ],
)
def test_a_knob_reads_as_the_apps_say_it(pointer, said):
    assert glossary.parameter_words(pointer) == said
    assert knob_label(pointer) == said  # tune_many, importance and the CLI
    assert Knob(pointer, 1, 2, True).label == said


def test_a_stand_in_models_own_knob_keeps_its_name():
    assert knob_label("a") == "a" and knob_label("some_knob") == "some_knob"


def test_the_apps_glossary_is_this_one():
    from labkit.widgets import glossary as apps

    for name in apps.__all__:
        assert getattr(apps, name) is getattr(glossary, name)
    assert glossary.words("npc_win") == "NPC win rate"
    assert glossary.words("unknown_field") == "unknown field"


def test_the_new_sentences_speak_the_glossary():
    # issue 47: verdicts and summaries hold no code word ("logits", "mu_star", "regenerate=True",
    # a raw option name) and shares read as percentages
    import math

    import matplotlib
    import numpy as np
    import pandas as pd

    matplotlib.use("Agg")
    from labkit.hexpuzzle import FunnelGoal, TrueModel, improve_campaign
    from labkit.hexpuzzle.difficulty.skill_quit import QUIT_TERMS, QuitModel
    from labkit.hexpuzzle.evaluation.evaluate import GeneratorReport
    from labkit.widgets import BalanceReport, FunnelView
    from tests.hexpuzzle.difficulty.test_skill_rules import made
    from tests.hexpuzzle.evaluation.test_evaluate_rules import _rows
    from tests.widgets.test_designer_words import code_terms

    truth = TrueModel([1.5, -1.0, 0.0], quit={"baseline": -2.0, "run": 1.0})
    imp = improve_campaign(["L01", "L02", "L03"], truth, FunnelGoal(reach_last=0.99),
                           players=300, draws=2, evaluations=5)  # fmt: skip
    view = FunnelView(["L01", "L02", "L03"], truth, players=300, draws=2)
    view.move("L01", 3)
    coef = dict(zip(QUIT_TERMS, [-1.0, -0.5, -2.0, 0.6, 1.0, 1.2, 1.4, 0.1, 0.05]))
    skill = [made(quit_model=QuitModel(coef, np.eye(9) * v), learning=0.25).describe()
             for v in (0.01, 9.0)]  # fmt: skip
    report = BalanceReport(b={"/characters/monster/life": 2})
    report.table = pd.DataFrame([
        {"metric": "npc_win", "label": "NPC win rate", "unit": "share", "diff": 0.1,
         "diff_lo": 0.08, "diff_hi": 0.13, "p_value": 0.001, "seeds_needed": 900, "note": ""},
        {"metric": "balance", "label": "balance", "unit": "share", "diff": 0.0,
         "diff_lo": math.nan, "diff_hi": math.nan, "p_value": math.nan, "seeds_needed": 40,
         "note": ""}])  # fmt: skip
    rows = _rows([0], cpu=(0.1, 0.1)) + _rows([1], cpu=(0.2, 0.2)) + _rows([2], cpu=(0.6, 0.6))
    texts = [
        imp.summary(),
        view.summary_html(),
        *skill,
        report.verdict(),
        report.describe("b"),
        str(GeneratorReport(rows, name="g", budget=1)),
    ]
    found = code_terms(texts)
    assert not found, found
    assert all("cannot tell" in t for t in (skill[1], report.verdict()))
    assert not any(re.search(r"\b0\.\d\d\b", t) for t in texts[:2] + [report.verdict()])
