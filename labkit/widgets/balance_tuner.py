"""BalanceTuner: pick a balance number, a range and a target win rate; tune finds the value.

The parameter dropdown lists every numeric leaf of the balance document (JSON pointers such as
``/characters/monster/life``) and the numeric settings fields (``npcs``, ``monsters`` …). The
range defaults to half to twice the current value; an integer leaf is searched over integers.
*Tune* runs :func:`labkit.encounter.sim.tune` on local worker processes with a progress bar and
draws the response curve with its 95 % intervals, the target and the chosen value with its
interval; for a whole-number parameter the answer line gives the two neighbouring whole values,
each with its rate, the rate's 95 % interval and the games it was measured on, says whether one
of them lies within two points of the target (its interval inside the band), that none does, or
that the games allowed were too few to tell, and gives the continuous crossing separately.
*Save patch* writes the result as JSON (atomically): ``{"format": "labkit.balance_patch",
"version": 1, "balance": {pointer: value}}`` (or ``"settings"`` for a settings field), with the
target, metric, the value's interval (``ci``: for a whole value, of its rate), the crossing and
games spent beside it.

Logic lives in plain methods (:meth:`BalanceTuner.run`, :meth:`BalanceTuner.save`,
:meth:`BalanceTuner.to_code`) that tests call without a browser; ``response=`` replaces the
games by any ``response(value, seeds) -> 0/1`` function (tests, quick demos).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from labkit import LabkitError
from labkit.encounter.sim.settings import SimulationSettings, default_balance_document
from labkit.widgets._busy import prepare_kernels
from labkit.widgets._code import CodeMixin, function_code, literal, shown, source
from labkit.widgets._figure import FigurePane, new_figure
from labkit.widgets._tune_answer import tune_answer
from labkit.widgets.glossary import parameter_words, words

__all__ = ["BalanceTuner", "numeric_parameters"]

FORMAT = "labkit.balance_patch"
# What a Tune plays: loaded (compiled on first use) before the games start, with words shown.
GAME_KERNELS = ("labkit.encounter._kernels", "labkit.encounter._game_kernels")
SETTINGS_FIELDS = ("npcs", "monsters", "width", "height", "max_steps")


def numeric_parameters(doc: Any = None) -> dict[str, int | float]:
    """Every numeric leaf of a balance document by JSON pointer, then the numeric settings
    fields (current values from the defaults).

    Examples
    --------
    >>> p = numeric_parameters()
    >>> p["/characters/monster/life"], p["/tables/hit/4"], p["npcs"]
    (5, 0.2, 3)
    >>> "/version" in p, "/weapons/fists/natural" in p
    (False, False)
    """
    doc = default_balance_document() if doc is None else doc
    out: dict[str, int | float] = {}

    def walk(node: Any, at: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{at}/{str(k).replace('~', '~0').replace('/', '~1')}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{at}/{i}")
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and at != "/version":
            out[at] = node

    walk(doc, "")
    defaults = SimulationSettings()
    out.update({f: getattr(defaults, f) for f in SETTINGS_FIELDS})
    return out


class BalanceTuner(CodeMixin):
    """Tune one balance number (or settings field) to a target rate.

    Examples
    --------
    >>> import numpy as np
    >>> u = np.random.default_rng(0).random(4000)
    >>> app = BalanceTuner(response=lambda v, s: u[s] < 1 / (1 + np.exp(1.5 * (v - 4.3))))
    >>> app.parameter.value = "/characters/monster/life"
    >>> (app.low.value, app.high.value, app.integer)
    (2.0, 10.0, True)
    >>> t = app.run()
    >>> t.value, "4" in app.text.value
    (4.0, True)
    """

    def __init__(
        self,
        base: SimulationSettings | None = None,
        *,
        seeds: Iterable[int] = range(4000),
        start: int = 100,
        budget: int = 6000,
        executor: Any = None,
        response: Any = None,
    ) -> None:
        import ipywidgets as W

        from labkit.encounter.sim.sweep import METRICS

        self.base = SimulationSettings() if base is None else base
        self.seeds = list(seeds)
        self.start, self.executor, self.response = start, executor, response
        self.values = numeric_parameters()
        self.result: Any = None
        self.error: str | None = None
        # Shown in the glossary's words; the value stays the pointer (or settings field).
        self.parameter = W.Dropdown(options=[(parameter_words(p), p) for p in self.values],
                                    description="parameter",
                                    value="/characters/monster/life",
                                    layout=W.Layout(width="420px"))  # fmt: skip
        self.low = W.FloatText(description="low")
        self.high = W.FloatText(description="high")
        self.metric = W.Dropdown(
            options=[(words(m), m) for m in METRICS],
            value="npc_win",
            description="metric",
            layout=W.Layout(width="auto"),  # wide enough for its longest option (issue 47)
        )
        self.target = W.FloatSlider(0.5, min=0.05, max=0.95, step=0.01, description="target")
        self.budget = W.IntText(budget, description="games ≤")
        self.progress = W.IntProgress(0, min=0, max=budget, description="games")
        self.run_button = W.Button(description="Tune", button_style="primary")
        self.path = W.Text("tuned_patch.json", description="patch file")
        self.save_button = W.Button(description="Save patch", disabled=True)
        self.text = W.HTML()
        #: What the app is doing during a Tune (first-run preparation, games played).
        self.status = W.HTML()
        self.parameter.observe(lambda _: self._default_range(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self.save_button.on_click(lambda _: self.save(self.path.value))
        self._default_range()
        self.fig, self.ax = new_figure(figsize=(7.5, 3.6))
        self.ax.set_title("press Tune to measure the response")
        # The target is drawn at once and follows its slider, so the curve is read against it.
        self.target_line = self.ax.axhline(self.target.value, color="#888", ls="--", lw=1,
                                           label="target")  # fmt: skip
        self.ax.set_ylim(-0.02, 1.02)
        self.ax.set_xlabel(parameter_words(self.parameter.value))
        self.ax.set_ylabel(words(self.metric.value))
        self.ax.legend(fontsize=8, loc="best")
        self.pane = FigurePane(self.fig)
        self.pane.refresh()  # a static figure (report, docs) is shown from the start
        self.target.observe(lambda _: self._move_target(), names="value")
        controls = W.VBox([self.parameter, W.HBox([self.low, self.high]),
                           W.HBox([self.metric, self.target]),
                           W.HBox([self.budget, self.run_button]),
                           W.HBox([self.progress, self.status]),
                           W.HBox([self.path, self.save_button])])  # fmt: skip
        self.ui = W.VBox([controls, self.text, self.pane.widget],
                         layout=W.Layout(max_width="1000px"))  # fmt: skip
        self._add_code_button()

    @property
    def integer(self) -> bool:
        """Whether the chosen parameter is searched over integers (its current value is one)."""
        return isinstance(self.values[self.parameter.value], int)

    def _default_range(self) -> None:
        v = self.values[self.parameter.value]
        low, high = (v / 2, v * 2) if v > 0 else (v * 2, v / 2) if v < 0 else (0.0, 1.0)
        if self.integer:
            low, high = float(int(low)), float(max(int(high), int(low) + 1))
        self.low.value, self.high.value = float(low), float(high)

    def run(self) -> Any:
        """Tune the chosen parameter; updates the progress bar, the text and the figure."""
        from labkit.encounter import tune

        bounds: tuple = (self.low.value, self.high.value)
        if self.integer:
            bounds = (int(round(bounds[0])), int(round(bounds[1])))
        self.progress.max = max(1, self.budget.value)
        self.progress.value = 0
        if self.response is None:  # real games: the game kernel must be ready first
            prepare_kernels(GAME_KERNELS, self._say, "the fast simulator")
        self._say(f"playing games (up to {self.progress.max:,})…")

        def tick(games: int, total: int) -> None:
            self.progress.value = min(games, self.progress.max)
            self._say(f"played {games:,} games of up to {total:,}")

        try:
            self.result = tune(self.base, self.parameter.value, shown(self.target),
                               metric=self.metric.value, bounds=bounds, seeds=self.seeds,
                               executor=self.executor, start=self.start,
                               budget=self.budget.value, integer=self.integer, progress=tick,
                               response=self.response)  # fmt: skip
            self.error = None
        except LabkitError as exc:
            self.result, self.error = None, str(exc)
        self._say("")
        self._show()
        return self.result

    def _say(self, words: str) -> None:
        self.status.value = f"<i>{words}</i>" if words else ""

    def _show(self) -> None:
        self.save_button.disabled = self.result is None or not self.result.reachable
        if self.result is None:
            self.text.value = f"<span style='color:#b00'>{html.escape(self.error or '')}</span>"
            return
        self.text.value = f"<b>{html.escape(tune_answer(self.result))}</b>"
        self.ax.cla()  # the number of points changes from run to run
        self.target_line = self.result.plot(self.ax)["target"]
        self.ax.set_title(
            f"{words(self.result.metric)} against {parameter_words(self.result.parameter)}"
        )
        self.ax.set_xlabel(parameter_words(self.result.parameter))
        self.ax.set_ylabel(words(self.result.metric))
        self.fig.tight_layout()
        self.pane.refresh()

    def _move_target(self) -> None:
        """The target line follows the slider (a new tune is needed to hit the new target)."""
        self.target_line.set_ydata([self.target.value, self.target.value])
        self.pane.refresh()

    def patch(self) -> dict:
        """The tuned change as the patch file holds it."""
        t = self.result
        if t is None or not t.reachable:
            raise LabkitError("nothing tuned yet (or the target was not reachable)")
        value = int(t.value) if t.integer else float(t.value)
        where = "balance" if t.parameter.startswith("/") else "settings"
        doc = {where: {t.parameter: value}, "target": t.target, "metric": t.metric,
               "ci": list(t.ci), "crossing": t.root, "crossing_ci": list(t.root_ci),
               "hits": t.hits, "games": t.games}  # fmt: skip
        if t.integer and t.whole is not None:  # both whole neighbours: the choice can be checked
            doc["precision"] = t.precision
            doc["whole"] = [{"value": int(r.value), "games": int(r.n), "rate": r.rate,
                             "lo": r.lo, "hi": r.hi, "verdict": r.verdict}
                            for r in t.whole.itertuples()]  # fmt: skip
        return doc

    def save(self, path: str | Path) -> Path:
        """Write :meth:`patch` as JSON, atomically; returns the path."""
        import labkit
        from labkit.io import save_json

        doc = {**self.patch(), "labkit_version": labkit.__version__}
        save_json(path, doc, format=FORMAT, version=1)
        self.text.value += f"<br>saved {html.escape(str(path))}"
        return Path(path)

    def to_code(self) -> str:
        """Python source that rebuilds this app's current state.

        Every control is set as it is now; when a tune has run, the code runs it again (the
        search is deterministic on its seeds, so it finds the same value). The executor is not
        written (it changes where games run, not what they give). A ``response=`` function is
        imported by name; one that cannot be (a lambda, a function of a notebook cell) raises
        :class:`~labkit.widgets._code.CodeError` saying so.
        """
        imports, response = [], ""
        if self.response is not None:
            line, name = function_code(self.response, "response")
            imports, response = [line], f", response={name}"
        s = self.seeds
        contiguous = bool(s) and s == list(range(s[0], s[0] + len(s)))
        seeds = f"range({s[0]}, {s[0] + len(s)})" if contiguous else literal(s)
        lines = [
            "from labkit.encounter import SimulationSettings",
            "from labkit.widgets import BalanceTuner",
            *imports,
            "",
            f"settings = {literal(self.base.to_dict())}",
            "app = BalanceTuner(SimulationSettings.from_dict(settings),",
            f"                   seeds={seeds}, start={self.start!r}{response})",
            # the parameter first: choosing it resets the range to its default
            f"app.parameter.value = {self.parameter.value!r}",
            f"app.low.value, app.high.value = {shown(self.low)!r}, {shown(self.high)!r}",
            f"app.metric.value, app.target.value = {self.metric.value!r}, "
            f"{shown(self.target)!r}",
            f"app.budget.value = {self.budget.value!r}",
            f"app.path.value = {self.path.value!r}",
        ]  # fmt: skip
        if self.result is not None or self.error is not None:
            lines.append("app.run()")
        return source(lines, "app")
