""" "How varied are generated levels?": a small generator evaluation inside the workbench.

A button runs :func:`~labkit.hexpuzzle.evaluate_generator` on
:func:`~labkit.hexpuzzle.generate_to_target` over a small grid of asks — the difficulty the
workbench's slider sets, with each rotation count of :data:`ROTATIONS` (:func:`asks`), a few
levels each, one seed — and shows the two pictures of issue 27: the
expressive range (where the levels made fall, score × tiles) and the control map (share of
levels within ±2 points of the score asked for, with the rotations asked for, per ask). One
line answers in words: how many levels are playable and as asked, how many hit the score, and
how many are different puzzles by their solutions and by their boards (even turned). A progress
line names the level being made while it runs.

The evaluation is small on purpose (it runs while a designer waits, about half a second a
level); the full table is ``labkit puzzle evaluate`` and the benchmark "hexpuzzle evaluate".
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from labkit.widgets.glossary import words

__all__ = ["ROTATIONS", "VarietyPanel", "asks"]

#: The rotation counts the panel asks for, each at the slider's difficulty.
ROTATIONS = (1, 2)


def asks(difficulty: float) -> list[dict[str, float]]:
    """What the panel asks the generator for: ``difficulty`` with each of :data:`ROTATIONS`.

    Examples
    --------
    >>> asks(62)
    [{'score': 62, 'rotations': 1}, {'score': 62, 'rotations': 2}]
    """
    return [{"score": difficulty, "rotations": r} for r in ROTATIONS]


class VarietyPanel:
    """Button, progress line, the two pictures and the answer; :meth:`run` is the logic.

    Parameters
    ----------
    levels : int
        Levels made per ask (diversity is measured among them).
    seed : int
        The evaluation's seed (the same seed gives the same pictures).
    budget : int
        Solver calls each level may cost.
    difficulty : callable returning a score, or a score
        The score asked for (the workbench passes its "generate like this" slider).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> panel = VarietyPanel(levels=1)
    >>> panel.button.description
    'How varied are generated levels?'
    """

    def __init__(
        self,
        *,
        levels: int = 3,
        seed: int = 0,
        budget: int = 150,
        difficulty: Callable[[], float] | float = 50,
    ) -> None:
        import ipywidgets as w

        from labkit.widgets._figure import FigurePane, new_figure

        self.levels, self.seed, self.budget = levels, seed, budget
        self.difficulty = difficulty if callable(difficulty) else (lambda: difficulty)
        self.button = w.Button(description="How varied are generated levels?", icon="th",
                               layout={"width": "auto"})  # fmt: skip
        self.progress = w.HTML()
        self.answer = w.HTML(
            f"<i>makes {levels} levels for each of {len(ROTATIONS)} asks (the difficulty above, "
            "with 1 and with 2 rotations) and shows where they fall and how often they hit what "
            "was asked</i>"
        )
        self.fig, _ = new_figure(1, 2, figsize=(9.0, 3.4))
        self.pane = FigurePane(self.fig)
        self.pane.widget.layout.display = "none"  # no empty axes before the first run
        #: The last evaluation (:class:`~labkit.hexpuzzle.GeneratorReport`), None before.
        self.report: Any = None
        self.button.on_click(lambda _: self.run())
        self.ui = w.VBox([w.HBox([self.button, self.progress]), self.answer, self.pane.widget])

    def run(self, difficulty: float | None = None):
        """Evaluate the generator on :func:`asks` at ``difficulty`` (default: the slider's), draw
        both pictures, say the answer."""
        from labkit.hexpuzzle import evaluate_generator
        from labkit.hexpuzzle.evaluation.baselines import ours

        #: The difficulty of the last run (to_code runs it again there).
        self.asked = self.difficulty() if difficulty is None else difficulty
        targets = asks(self.asked)
        total, made = len(targets) * self.levels, [0]

        def generate(target: dict, rng: Any, budget: int):
            made[0] += 1
            self.progress.value = (
                f"<i>making level {made[0]} of {total}: score {target['score']} with "
                f"{_rotations(target['rotations'])}…</i>"
            )
            return ours(target, rng, budget)

        self.button.disabled = True
        # evaluate_generator first makes ten unsteered levels to measure the distance from
        self.progress.value = "<i>making 10 unguided levels to measure against…</i>"
        try:
            self.report = evaluate_generator(
                generate, targets, n=self.levels, seeds=[self.seed], budget=self.budget,
                name="generate to target",
            )  # fmt: skip
        finally:
            self.button.disabled = False
            self.progress.value = ""
        self.draw()
        self.answer.value = self.sentence()
        return self.report

    def sentence(self) -> str:
        """The answer in a designer's words (counts of levels, whole numbers)."""
        t = self.report.table
        n = len(t)
        scores = sorted({int(s) for s in t["score_target"]}) if "score_target" in t else []
        asked = f" at score {', '.join(map(str, scores))}" if scores else ""
        good, hit = int(t["quality"].sum()), int(t["within"].sum())
        by_solution, by_board = int(t["diverse_solution"].sum()), int(t["diverse_layout"].sum())
        return (
            f"Of {n} levels asked for{asked}, <b>{good} of {n}</b> are {words('quality')}; "
            f"<b>{hit} of {n}</b> have {words('within')}; "
            f"<b>{by_solution} of {n}</b> are {words('diverse_solution')} and "
            f"<b>{by_board} of {n}</b> are {words('diverse_layout')} "
            f"(compared among the {self.levels} levels of each ask)."
        )

    def draw(self) -> None:
        """Both pictures of the last evaluation, labelled through the glossary."""
        from labkit.hexpuzzle import draw_control_map, draw_expressive_range

        self.fig.clear()  # a new evaluation is a new picture (the colour bars too)
        left, right = self.fig.subplots(1, 2)
        draw_expressive_range(self.report, x="score", y="tiles", ax=left)
        left.set_xlabel(words("score"))
        left.set_ylabel(words("tiles"))
        left.set_title(f"where the {len(self.report.table)} levels made fall", fontsize=9)
        draw_control_map(self.report, control="rotations", ax=right)
        right.set_xlabel(words("score_target"))
        right.set_ylabel(words("rotations_target"))
        right.set_title(textwrap.fill(f"share of levels with {words('within')}", 48), fontsize=9)
        self.fig.tight_layout()
        self.pane.widget.layout.display = None
        self.pane.refresh()


def _rotations(k: int) -> str:
    return "1 rotation" if k == 1 else f"{k} rotations"
