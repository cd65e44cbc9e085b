"""KnobExplorer: which knob matters, and knob values meeting several targets, without code.

Two views over the same knobs (settings fields or balance pointers with ranges):

* **importance** — :func:`~labkit.encounter.importance` (Morris screening or Sobol indices):
  one bar per knob, by its words and unit, with its 95 % interval; the seed block's bar is the
  noise; the sentence above names the knobs that matter;
* **Pareto** — :func:`~labkit.encounter.tune_many`: every trial by its misses on two targets,
  the Pareto front, the candidates re-played on fresh seeds to choose one and the choice's
  confirmation (green: met — every 95 % interval inside its band on games no choice has seen);
  the targets are listed as sentences and the re-plays as a table of estimates with intervals.

Logic in plain methods (:meth:`run_importance`, :meth:`run_tune`, :meth:`importance_rows`,
:meth:`tune_rows`) that tests call without a browser; ``to_code()`` rebuilds the app and runs
again what was run (both are deterministic on their seeds).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from labkit.encounter import (
    SimulationSettings,
    importance,
    parse_target,
    tune_many,
)
from labkit.widgets._code import CodeMixin, function_code, literal, source
from labkit.widgets._figure import FigurePane, new_figure
from labkit.widgets.glossary import GLOSSARY, words

# The outcomes the explorer offers (labkit.encounter.sim.knobs.GAME_OUTCOMES), by code name.
GAME_OUTCOMES = ("npc_win", "monster_win", "step_limit", "mutual_death", "steps", "turns",
                 "encounters")  # fmt: skip

__all__ = ["KnobExplorer"]


class KnobExplorer(CodeMixin):
    """Importance and several-target tuning of ``knobs``; ``.ui`` is the widget.

    Examples
    --------
    >>> def response(point, seeds):
    ...     return {"steps": 5.0 * point["b"] + 0 * seeds, "npc_win": point["a"] / 10 + 0 * seeds}
    >>> app = KnobExplorer({"a": (0.0, 10.0), "b": (0, 30)}, ["npc_win=0.5±0.05", "steps=40:60"],
    ...                    response=response, games=1, trajectories=6, budget=30,
    ...                    tune_games=10, fresh=10)
    >>> app.run_importance().ranking()   # for the NPC win rate: a moves it, b does not
    ['a', 'b']
    >>> app.run_tune().met, app.tune_rows()[-1]["the NPC side wins 45–55 % of games"][-3:]
    (True, 'met')
    """

    def __init__(
        self,
        knobs: Mapping[str, Any],
        targets: Sequence[Any] = (),
        *,
        base: SimulationSettings | None = None,
        outcome: str = "npc_win",
        method: str = "morris",
        games: int = 20,
        n: int = 256,
        trajectories: int = 20,
        budget: int = 100,
        tune_games: int = 400,
        fresh: int = 2000,
        response: Any = None,
        executor: Any = None,
    ) -> None:
        import ipywidgets as W

        self.knobs = {k: tuple(v) for k, v in knobs.items()}
        self.targets = [parse_target(t) for t in targets]
        # as the designer wrote them ("step_limit<0.05" stays "<", not Target.to_text's "<=")
        self._target_texts = [t if isinstance(t, str) else parse_target(t).to_text()
                              for t in targets]  # fmt: skip
        self.base = base or SimulationSettings()
        self.response, self.executor = response, executor  # where games run: not in to_code
        self.n, self.trajectories, self.budget = n, trajectories, budget
        self.tune_games, self.fresh = tune_games, fresh
        self.importance: Any = None
        self.tuned: Any = None
        # labelled beside it: a ToggleButtons' own description gets no width and vanishes
        self.method = W.ToggleButtons(options=["morris", "sobol"], value=method)
        # shown in the glossary's words; the values stay the outcome's code name
        # width auto: the box fits its longest option, not cut mid-word (issue 47)
        self.outcome = W.Dropdown(options=[(words(o), o) for o in GAME_OUTCOMES],
                                  value=outcome, description="outcome",
                                  layout=W.Layout(width="auto"))  # fmt: skip
        self.games = W.IntSlider(value=games, min=1, max=200, description="games / evaluation",
                                 style={"description_width": "initial"})  # fmt: skip
        self.importance_button = W.Button(description="which knob matters",
                                          layout=W.Layout(width="auto"))  # fmt: skip
        self.tune_button = W.Button(description="tune to the targets", disabled=not self.targets,
                                    layout=W.Layout(width="auto"))  # fmt: skip
        self.importance_button.on_click(lambda _: self.run_importance())
        self.tune_button.on_click(lambda _: self.run_tune())
        self.text = W.HTML()
        # what a run is doing and how far it is (empty and hidden when idle): a Sobol run takes
        # seconds to minutes (issue 47)
        self.activity = W.HTML()
        self.bar = W.FloatProgress(0.0, min=0.0, max=1.0,
                                   layout=W.Layout(width="240px", visibility="hidden"))  # fmt: skip
        self.fig, (self.ax_importance, self.ax_pareto) = new_figure(
            1, 2, figsize=(9.6, 3.6), layout="constrained"
        )
        self.pane = FigurePane(self.fig)
        method = W.HBox([W.Label("method"), self.method])
        controls = W.HBox([W.VBox([method, self.outcome, self.games]),
                           W.VBox([self.importance_button, self.tune_button, self.bar,
                                   self.activity])])  # fmt: skip
        # The figure right under the buttons, the summaries and tables it draws right under it:
        # an answer and its picture on one screen (issue 24).
        self.ui = W.VBox([controls, self.pane.widget, self.text])
        self._add_code_button()
        # before any run: what each button will do, and what it costs with the controls' values
        self._hint(self.ax_importance, "press “which knob matters”")
        self._hint(self.ax_pareto, "press “tune to the targets”" if self.targets else "no targets")
        for control in (self.method, self.games):
            control.observe(lambda _: self._refresh(), names="value")
        self._refresh()

    # -- logic (no browser needed) ---------------------------------------------------------------

    def run_importance(self) -> Any:
        """Run :func:`~labkit.encounter.importance` with the controls' values and redraw; while
        it runs, the bar and line say how many games are played of how many, and the old
        answer is taken down."""
        evaluations, _ = self._design()
        total = evaluations * self.games.value
        self.importance = None  # the old answer is not shown beside a run that replaces it
        self.ax_importance.clear()
        self._hint(self.ax_importance, "running…")
        tick = self._start("which knob matters", lambda done: (
            f"{done:,} games played of at most {total:,}", done / total))  # fmt: skip
        try:
            self.importance = importance(
                self.base, self.knobs, method=self.method.value, outcome=self.outcome.value,
                games=self.games.value, n=self.n, trajectories=self.trajectories,
                response=self.response, executor=self.executor, progress=_Batches(tick),
            )  # fmt: skip
            self.bar.value = 1.0  # every game asked for is answered (repeats were not replayed)
        finally:
            self._stop()
        self.ax_importance.clear()
        self.ax_importance.set_axis_on()
        self.importance.plot(ax=self.ax_importance)
        self._importance_in_words()
        self._refresh()
        return self.importance

    def run_tune(self) -> Any:
        """Run :func:`~labkit.encounter.tune_many` on the targets and redraw the Pareto view;
        while it runs, the bar and line say which trial it is on, then that the candidates are
        re-played, and the old answer is taken down."""
        self.tuned = None
        self.ax_pareto.clear()
        self._hint(self.ax_pareto, "running…")
        budget = self.budget

        def line(done: int) -> tuple[str, float]:
            if done >= budget:
                return (f"{budget} trials done; re-playing the best on fresh games, then "
                        "confirming the choice on new ones", 1.0)  # fmt: skip
            return f"trial {done} of {budget}", done / budget

        tick = self._start("tuning to the targets", line)
        try:
            self.tuned = tune_many(
                self.base, self.knobs, self.targets, budget=budget, games=self.tune_games,
                fresh=self.fresh, response=self.response, executor=self.executor,
                progress=lambda done, _total: tick(done),
            )  # fmt: skip
            self.bar.value = 1.0
        finally:
            self._stop()
        self.ax_pareto.clear()
        self.ax_pareto.set_axis_on()
        self.tuned.plot(ax=self.ax_pareto)
        self._refresh()
        return self.tuned

    def importance_rows(self) -> list[dict[str, Any]]:
        """One row per knob (largest first, the seed block last): words, value, interval."""
        if self.importance is None:
            return []
        imp = self.importance
        t = imp.table[imp.table["index"] == imp.main].sort_values("rank", na_position="last")
        return [{"knob": r.label, imp.main: round(r.value, 3),
                 "95 % interval": f"{r.lo:.3f} to {r.hi:.3f}", "matters": bool(r.matters)}
                for r in t.itertuples()]  # fmt: skip

    def tune_rows(self) -> list[dict[str, Any]]:
        """One row per re-played candidate: which games (the choice's fresh ones or the
        confirmation's), knob values, then per target sentence the estimate, its interval and
        the word of :meth:`~labkit.encounter.TunedMany.verdict` (met / unsure / NOT met on the
        confirmation only; in band / outside where the choice was made)."""
        if self.tuned is None:
            return []
        rows = []
        tuned = self.tuned
        for r in tuned.checked.to_dict("records"):
            games = (f"confirmation ({tuned.confirm_games} new games)" if r["stage"] == "confirm"
                     else f"choice ({tuned.fresh_games} fresh games)")  # fmt: skip
            row = {"games": games, **{k.label: k.text(r[k.name]) for k in tuned.knobs}}
            for t in tuned.targets:
                rate = t.outcome in ("npc_win", "monster_win", "step_limit", "mutual_death")
                f = (lambda v: f"{100 * v:.1f} %") if rate else (lambda v: f"{v:.1f}")
                row[t.sentence()] = (f"{f(r['est:' + t.name])} ({f(r['lo:' + t.name])} to "
                                     f"{f(r['hi:' + t.name])}) "
                                     f"{tuned.verdict(r, t)}")  # fmt: skip
            rows.append(row)
        return rows

    # -- display ---------------------------------------------------------------------------------

    def _targets_html(self) -> str:
        if not self.targets:
            return "<i>no targets: give targets=[...] to tune</i>"
        items = "".join(f"<li>{html.escape(t.sentence())}</li>" for t in self.targets)
        return f"<b>Targets</b><ul>{items}</ul>"

    def _importance_in_words(self) -> None:
        """The importance figure's title, axis and legend in the glossary's words."""
        imp, ax = self.importance, self.ax_importance
        what = "share of variance" if imp.method == "sobol" else "change over the knob's range"
        ax.set_title(f"what moves the {words(imp.outcome)}", fontsize="medium")
        ax.set_xlabel(f"{GLOSSARY[imp.main][0]} ({what}; 95 % interval)")
        legend = ax.get_legend()
        if legend is not None:
            for text in legend.get_texts():
                text.set_text(GLOSSARY.get(text.get_text(), (text.get_text(), ""))[0])

    def _importance_summary(self) -> str:
        # the domain's sentence names its index by code ("mu_star"): say it in words
        imp = self.importance
        return imp.summary().replace(f"({imp.main}, ", f"({GLOSSARY[imp.main][0]}, ", 1)

    @staticmethod
    def _table(rows: list[dict[str, Any]]) -> str:
        if not rows:
            return ""
        head = "".join(f"<th>{html.escape(_header(k))}</th>" for k in rows[0])
        body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in r.values())
                       + "</tr>" for r in rows)  # fmt: skip
        return f"<table><tr>{head}</tr>{body}</table>"

    @staticmethod
    def _hint(ax: Any, text: str) -> None:
        ax.set_axis_off()
        ax.text(0.5, 0.5, text, ha="center", va="center", color="0.4", transform=ax.transAxes)

    def _design(self) -> tuple[int, str]:
        """Evaluations of the chosen design (the counts of :func:`~labkit.encounter.importance`'s
        designs) and what it measures."""
        k = len(self.knobs)
        if self.method.value == "morris":
            return self.trajectories * (k + 2), "screening"
        return self.n * (k + 3), "variance shares"

    def _cost_html(self) -> str:
        """What "which knob matters" will play with the controls' values and, after a run, the
        games it played: a game the design asks for twice (same knob values, same seed) is
        played once, so the two counts may differ, and the line says by how many."""
        games = self.games.value
        evaluations, how = self._design()
        line = (f"Which knob matters ({how}): {evaluations:,} evaluations of {games} "
                f"game{'s' * (games != 1)} each, {evaluations * games:,} games.")  # fmt: skip
        imp = self.importance
        if imp is not None:
            asked = imp.evaluations * imp.games_per_evaluation
            again = asked - imp.games
            line += f" The last run asked for {asked:,} games and played {imp.games:,} games"
            line += (f": {again:,} repeated a game already played (same knob values, same "
                     "seed) and were not played again." if again else ".")  # fmt: skip
        return f"<p>{line}</p>"

    def _start(self, doing: str, line: Any) -> Any:
        """Show the bar and "``doing``: …"; returns ``tick(done)`` that updates both from
        ``line(done) -> (words, share done)``, at most five times a second."""
        import time

        began, last = time.monotonic(), [0.0]
        self.bar.value, self.bar.bar_style = 0.0, "info"
        self.bar.layout.visibility = "visible"
        self.activity.value = f"<i>{html.escape(doing)}: starting…</i>"
        self._refresh()  # the old answer goes now, not when the new one comes

        def tick(done: int) -> None:
            now = time.monotonic()
            words, share = line(done)
            if now - last[0] < 0.2 and share < 1.0:
                return
            last[0] = now
            self.bar.value = min(1.0, share)
            self.activity.value = (f"<i>{html.escape(doing)}: {html.escape(words)}, "
                                   f"{now - began:.0f} s</i>")  # fmt: skip

        return tick

    def _stop(self) -> None:
        self.bar.layout.visibility = "hidden"
        self.activity.value = ""

    def _refresh(self) -> None:
        running = bool(self.activity.value)
        parts = [self._cost_html()]
        if running:
            parts.append("<p><i>running: the answer shows here when it is done</i></p>")
        if self.importance is not None:
            parts.append(f"<p>{html.escape(self._importance_summary())}</p>")
            parts.append(self._table(self.importance_rows()))
        parts.append(self._targets_html())
        if self.tuned is not None:
            parts.append(f"<p>{html.escape(self.tuned.summary())}</p>")
            parts.append(self._table(self.tune_rows()))
        self.text.value = "".join(parts)
        self.pane.refresh()

    def to_code(self) -> str:
        """Python source that rebuilds this app and re-runs what it ran (same seeds, same
        answers). A ``response=`` function is imported by name; one that cannot be (a lambda,
        a function of a notebook cell) raises ``CodeError`` saying so. Where games run
        (``executor=``) is left out: it changes no answer.
        """
        response = ""
        imports = []
        if self.response is not None:
            line, name = function_code(self.response, "response")
            imports.append(line)
            response = f", response={name}"
        lines = [
            "from labkit.encounter import SimulationSettings",
            "from labkit.widgets import KnobExplorer",
            *imports,
            "",
            f"knobs = {literal(self.knobs)}",
            f"targets = {literal(self._target_texts)}",
            f"settings = {literal(self.base.to_dict())}",
            "app = KnobExplorer(knobs, targets, base=SimulationSettings.from_dict(settings),",
            f"                   outcome={self.outcome.value!r}, method={self.method.value!r}, "
            f"games={self.games.value!r}, n={self.n!r},",
            f"                   trajectories={self.trajectories!r}, budget={self.budget!r}, "
            f"tune_games={self.tune_games!r}, fresh={self.fresh!r}{response})",
        ]  # fmt: skip
        if self.importance is not None:
            lines.append("app.run_importance()")
        if self.tuned is not None:
            lines.append("app.run_tune()")
        return source(lines, "app")


class _Batches:
    """``progress(done, total)`` of each batch of games summed into games played so far (a
    Morris run plays one batch per trajectory, a Sobol run one batch in all)."""

    def __init__(self, tick: Any) -> None:
        self.tick, self.before, self.current = tick, 0, 0

    def __call__(self, done: int, total: int) -> None:
        if done < self.current:  # a new batch started
            self.before += self.current
        self.current = done
        self.tick(self.before + done)
        if done >= total:
            self.before, self.current = self.before + done, 0


def _header(key: str) -> str:
    """A table column: an index's code name in words, any other header as it is."""
    return GLOSSARY[key][0] if key in ("mu_star", "total") else str(key)


def _cell(value: Any) -> str:
    """A table cell: yes / no for a flag (never ``True`` / ``False``)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)
