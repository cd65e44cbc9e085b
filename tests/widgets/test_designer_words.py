"""Every app speaks the designer's words (issue 24, item 4).

The visible text of each app (labels, HTML, option labels, buttons, the figure's titles, axis
labels and legends; the code view excepted) must hold no JSON pointer (``/tables/hit/0``), no
Python repr (``{'bullet': 7}``, ``features=True``, ``[1, 1]``) and no snake_case identifier
(``npc_win``, ``b_escaped``), nor a bare ``True`` / ``False``. Apps are shown as first
displayed and after their main action; every app in ``labkit.widgets.__all__`` is scanned.
"""

from __future__ import annotations

import html
import re

import pytest

POINTER = re.compile(r"(?<![\w.:/<])/[A-Za-z_]\w*(?:/[\w~]+)+")
REPR = re.compile(r"\{'|\['|\[\d+, \d+\]|\w=(?:True|False|None|\[|\{|')|<\w+ object at")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
FLAG = re.compile(r"\b(?:True|False|nan)\b")  # a bare Python flag in a table cell
# a statistician's scale, not a designer's (issue 47: "logits" throughout the skill view)
JARGON = re.compile(r"\blogits?\b", re.I)
TAG = re.compile(r"<[^>]+>")
# a chance or share shown as a bare decimal (issue 47: "probability the order is wrong 0.35"
# reads as "35 % chance the order is wrong"); a p-value ("p 0.19") is not a share and stays
BARE_SHARE = re.compile(r"\b(?:probability|chance|share|success)\b[^\d%]{0,30}?(?<![\d.])0?\.\d+"
                        r"(?![\d.]|\s*%)", re.I)  # fmt: skip


def visible_texts(widget, out=None):
    """Texts a person reads in ``widget``'s tree (hidden boxes and the code area skipped)."""
    import ipywidgets as W

    out = [] if out is None else out
    layout = getattr(widget, "layout", None)
    if layout is not None and layout.display == "none":
        return out
    if isinstance(widget, W.Textarea):  # the code view
        return out
    for attr in ("description", "value", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str) and not isinstance(widget, (W.Text, W.Textarea)):
            if attr == "value" and not isinstance(widget, (W.HTML, W.Label, W.HTMLMath)):
                continue
            out.append(html.unescape(TAG.sub(" ", value)))
    labels = getattr(widget, "_options_labels", None)
    if labels:
        out.extend(labels)
    for child in getattr(widget, "children", ()):
        visible_texts(child, out)
    return out


def figure_texts(fig):
    out = []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += [t.get_text() for t in ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
    for legend in fig.legends:
        out += [t.get_text() for t in legend.get_texts()]
    return [t for t in out if t]


def code_terms(texts):
    found = []
    for text in texts:
        for rx in (POINTER, REPR, SNAKE, FLAG, JARGON, BARE_SHARE):
            found += [m.group(0) for m in rx.finditer(text)]
    return found


def _apps():
    from labkit import encounter, widgets

    def trace_viewer():
        app = widgets.TraceViewer(encounter.simulate(encounter.SimulationSettings(seed=3)))
        app.show(app.step.max // 2)
        return app

    def skill_model():
        bench = widgets.DifficultyWorkbench(n_boot=10)
        bench.mode.value = "skill model"
        return bench

    def workbench():
        bench = widgets.DifficultyWorkbench(n_boot=10)
        return bench

    def balance_tuner():  # after a tune whose whole values both miss the target
        import numpy as np

        u = np.random.default_rng(0).random(4000)
        app = widgets.BalanceTuner(
            response=lambda v, seeds: u[seeds] < 1 / (1 + np.exp(1.5 * (v - 4.3)))
        )
        app.run()
        return app

    def knob_explorer():  # after the importance run and the tune
        def response(point, seeds):
            life = point["/characters/monster/life"]
            return {"npc_win": ((seeds * 0.6180339887) % 1.0 < life / 10) * 1.0}

        app = widgets.KnobExplorer({"/characters/monster/life": (2, 8)}, ["npc_win=0.5±0.1"],
                                   response=response, games=4, trajectories=4, budget=20,
                                   tune_games=100, fresh=100)  # fmt: skip
        app.run_importance()
        app.run_tune()
        return app

    def balance_report():
        from labkit.encounter.rules.balance import DEFAULT_PATH

        app = widgets.BalanceReport(str(DEFAULT_PATH), {"/characters/monster/life": 2}, seeds=20)
        app.run()
        return app

    def funnel_view():
        from labkit.hexpuzzle import TrueModel

        model = TrueModel([1.5, -1.0, 0.0, 0.8], quit={"baseline": -2.0, "won": -1.0, "run": 0.8})
        view = widgets.FunnelView(["L01", "L02", "L03", "L04"], model, players=300, draws=3)
        view.reach_goal.value = 0.95  # missed: the answer says why (issue 47: "regenerate=True")
        view.improve()
        return view

    return {
        "BalanceTunerAnswer": balance_tuner,
        "KnobExplorer": knob_explorer,
        "BalanceReport": balance_report,
        "FunnelView": funnel_view,
        "ProbabilityExplorer": lambda: widgets.ProbabilityExplorer(n=300),
        "GaugeTuner": widgets.GaugeTuner,
        "CollisionViewer": widgets.CollisionViewer,
        "PathfindingPlayground": widgets.PathfindingPlayground,
        "DifficultyWorkbench": workbench,
        "SkillModel": skill_model,
        "LevelWorkshop": lambda: widgets.LevelWorkshop(radius=3),
        "TraceViewer": trace_viewer,
        "BalanceTuner": widgets.BalanceTuner,
    }


def test_the_scan_covers_every_app():
    from labkit import widgets

    scanned = {name.removesuffix("Answer") for name in _apps()}
    assert set(widgets.__all__) <= scanned, f"apps not scanned: {set(widgets.__all__) - scanned}"


@pytest.mark.parametrize("name", list(_apps()))
def test_no_code_terms_in_what_an_app_shows(name):
    app = _apps()[name]()
    texts = visible_texts(app.ui)
    figs = [app.fig] if hasattr(app, "fig") else []
    skill = getattr(app, "skill", None)
    if skill is not None:
        figs.append(skill.fig)
    for fig in figs:
        texts += figure_texts(fig)
    found = code_terms(texts)
    assert not found, f"{name} shows code terms: {sorted(set(found))}"


def test_the_scan_finds_what_the_issue_saw():
    texts = ["npc_win = 0.5", "parameter /tables/hit/0", "features=True",
             "found={'bullet': 7}", "visit position=[1, 1]", "matters True",
             "quit odds x1.00 per logit of skill", "(regenerate=True would also try)",
             "c looks easier than b: probability the order is wrong 0.35",
             "first-try success .62"]  # fmt: skip
    assert len(code_terms(texts)) >= 12
    assert (
        code_terms(
            [
                "35 % chance the order is wrong",
                "first-try success 62 %",
                "share of levels 40 % [31.5 %, 48.0 %]",
                "skill effect p 0.19",
            ]
        )
        == []
    )
    assert code_terms(["NPC win rate 0.5 at monster life 4 (wounds it takes)"]) == []


def test_goal_seek_answers_at_least_and_at_most():
    from labkit.widgets._probability_goal import solve

    hit = [2, 4, 8, 14, 20, 30, 45, 60, 75]  # index −4 … +4
    # A hit level 3: index = 3 − agility; at least 50 % first at 60 % (index +3, agility 0)
    r = solve(hit, 3, 2, 50, "agility", how="at least")
    assert (r["value"], r["chance"]) == (0, 60) and "B agility ≤ 0" in r["text"]
    # at most 20 %: last at index 0 (20 %): agility 3 and above
    r = solve(hit, 3, 2, 20, "agility", how="at most")
    assert (r["value"], r["chance"]) == (3, 20) and "B agility ≥ 3" in r["text"]
    assert not solve(hit, 3, 2, 90, "hit level", how="at least")["feasible"]
    assert solve(hit, 3, 2, 1, "agility", how="at least")["text"].startswith("any B agility")
