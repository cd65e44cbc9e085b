""" "Generate a level like this at difficulty X": the panel shared by the workshop and workbench.

A slider sets the target score, a button runs
:func:`~labkit.hexpuzzle.generate_to_target` on the same board size as the level it is
"like", and a progress bar and line report the search while it runs (the bar fills with the
time used of ``time_limit``; the line shows tries and the closest score so far). The found
level goes to ``on_level``; each press uses the seed shown and then moves it on by one, so a
level seen once can be made again from its seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.generator import GeneratorOptionError

__all__ = ["TargetPanel"]


class TargetPanel:
    """Slider, seed, button and progress; :meth:`generate` is the logic tests call.

    Parameters
    ----------
    like : callable returning Level or None
        The level the new one should resemble (its board radius is kept when it is 2 or 3).
    on_level : callable
        Receives each generated level.
    time_limit : float
        Seconds per search.
    """

    def __init__(
        self,
        like: Callable[[], Level | None],
        on_level: Callable[[Level], None],
        *,
        time_limit: float = 10.0,
    ) -> None:
        import ipywidgets as w

        self.like, self.on_level, self.time_limit = like, on_level, time_limit
        self.target = w.IntSlider(50, min=20, max=85, description="difficulty",
                                  continuous_update=False)  # fmt: skip
        self.seed = w.IntText(0, description="seed", layout={"width": "150px"})
        self.button = w.Button(description="generate like this", icon="magic",
                               layout={"width": "auto"})  # fmt: skip
        self.bar = w.FloatProgress(0.0, min=0.0, max=1.0, layout={"width": "120px"})
        # What else the new level must be, in the generator's own limits (rotations 1–3,
        # boards of radius 2 or 3); "as the level" keeps the liked level's board.
        self.board = w.Dropdown(options=[("as the level", 0), ("19 cells (radius 2)", 2),
                                         ("37 cells (radius 3)", 3)],
                                description="board", layout={"width": "250px"})  # fmt: skip
        self.rotations = w.Dropdown(options=[("any (1–3)", 0), ("exactly 1", 1),
                                             ("exactly 2", 2), ("exactly 3", 3)],
                                    description="rotations",
                                    layout={"width": "220px"})  # fmt: skip
        self.status = w.HTML()
        self.button.on_click(lambda _: self.generate())
        self.ui = w.VBox([w.HBox([self.target, self.seed, self.button, self.bar]),
                          w.HBox([self.board, self.rotations]), self.status])  # fmt: skip

    def radius(self) -> int | None:
        """The board radius asked for: the board control's, else the level to resemble's
        (2: 19 cells, 3: 37 cells), else None (either)."""
        if self.board.value:
            return int(self.board.value)
        level = self.like()
        return {19: 2, 37: 3}.get(len(level.board)) if level is not None else None

    def generate(self, target: float | None = None) -> Level | None:
        """Search for a level at ``target`` (default: the slider); ``None`` if none is found."""
        from labkit.hexpuzzle.solving.targets import generate_to_target

        goal = float(self.target.value if target is None else target)
        seed = int(self.seed.value)
        self.button.disabled, self.bar.bar_style, self.bar.value = True, "info", 0.0
        self.status.value = f"searching for a level scoring {goal:g} (seed {seed}) …"

        def report(step: dict[str, Any]) -> None:
            self.bar.value = min(1.0, step["seconds"] / self.time_limit)
            best = "-" if step["best"] is None else f"{step['best']:g}"
            self.status.value = (
                f"searching for {goal:g}: {step['tries']} tries, closest {best}, "
                f"{step['seconds']:.1f} s"
            )

        try:
            level = generate_to_target(seed, score=goal, radius=self.radius(),
                                       rotations=self.rotations.value or None,
                                       time_limit=self.time_limit, id=f"like-{seed}",
                                       progress=report)  # fmt: skip
        except GeneratorOptionError as exc:
            self.bar.bar_style, self.bar.value = "danger", 1.0
            self.status.value = f"<b style='color:#c1121f'>not found</b>: {exc.message}"
            return None
        finally:
            self.button.disabled = False
        self.seed.value = seed + 1
        made = level.metadata["generated"]
        self.bar.bar_style, self.bar.value = "success", 1.0
        self.status.value = (
            f"made <b>{level.id}</b>: score {made['achieved']['score']} for target {goal:g} "
            f"in {made['tries']} tries, {level.metadata['runtime']['seconds']:.1f} s"
        )
        self.on_level(level)
        return level
