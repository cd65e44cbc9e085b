""" "Generate a level like this at difficulty X": the panel shared by the workshop and workbench.

A slider sets the target score, a button runs
:func:`~labkit.hexpuzzle.generate_to_target` on the same board size as the level it is
"like", and a progress bar and line report the search while it runs (the bar fills with the
time used of ``time_limit``; the line shows tries and the closest score so far). The found
level goes to ``on_level``; each press uses the seed shown and then moves it on by one, so a
level seen once can be made again from its seed. Board, rotations and tile count are passed to
the generator as exact values ("as the level" takes the liked level's); a combination the
generator refuses is said in its words, not raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from labkit import ArgumentError
from labkit.hexpuzzle import GeneratorOptionError, Level

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
        # 0: any count; -1: as many tiles as the liked level; else exactly that many.
        self.tiles = w.Dropdown(options=[("any", 0), ("as the level", -1),
                                         *((f"exactly {n}", n) for n in range(2, 25))],
                                description="tiles", layout={"width": "220px"})  # fmt: skip
        #: The last level generated (None before the first).
        self.level: Level | None = None
        self.status = w.HTML()
        self.button.on_click(lambda _: self.generate())
        self.ui = w.VBox([w.HBox([self.target, self.seed, self.button, self.bar]),
                          w.HBox([self.board, self.rotations, self.tiles]),
                          self.status])  # fmt: skip

    def radius(self) -> int | None:
        """The board radius asked for: the board control's, else the level to resemble's
        (2: 19 cells, 3: 37 cells), else None (either)."""
        if self.board.value:
            return int(self.board.value)
        level = self.like()
        return {19: 2, 37: 3}.get(len(level.board)) if level is not None else None

    def tile_count(self) -> int | None:
        """The tile count asked for: the tiles control's, the liked level's, or None (any)."""
        if self.tiles.value == -1:
            level = self.like()
            return None if level is None else len(level.tiles)
        return int(self.tiles.value) or None

    def generate(self, target: float | None = None) -> Level | None:
        """Search for a level at ``target`` (default: the slider); ``None`` if none is found."""
        from labkit.hexpuzzle import generate_to_target

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
                                       tiles=self.tile_count(),
                                       time_limit=self.time_limit, id=f"like-{seed}",
                                       progress=report)  # fmt: skip
        except (GeneratorOptionError, ArgumentError) as exc:
            # ArgumentError: board, rotations and tiles that cannot go together (its message
            # says which and what is reachable).
            self.bar.bar_style, self.bar.value = "danger", 1.0
            self.status.value = f"<b style='color:#c1121f'>not found</b>: {exc.message}"
            return None
        finally:
            self.button.disabled = False
        self.seed.value = seed + 1
        self.show(level)
        return level

    def code_lines(self, name: str) -> list[str]:
        """Lines setting the panel called ``name`` as this one: difficulty, seed, board,
        rotations, tiles and the level last generated (as made, with how it was made)."""
        from labkit.widgets._code import level_code, literal, shown

        lines = [f"{name}.{control}.value = {shown(getattr(self, control))!r}"
                 for control in ("target", "seed", "board", "rotations", "tiles")]  # fmt: skip
        if self.level is not None:
            made = f"{level_code(self.level)}.replace(metadata={literal(self.level.metadata)})"
            # a level set in code, not generated here, is kept without "made …" words
            shown_as = "show({})" if "generated" in self.level.metadata else "level = {}"
            lines.append(f"{name}.{shown_as.format(made)}")
        return lines

    def show(self, level: Level) -> None:
        """Take ``level`` as the one generated: say how it was made and pass it to ``on_level``
        (``to_code`` rebuilds a workbench's generated level through this)."""
        made = level.metadata["generated"]
        seconds = level.metadata.get("runtime", {}).get("seconds")
        took = "" if seconds is None else f", {seconds:.1f} s"
        self.level = level
        self.bar.bar_style, self.bar.value = "success", 1.0
        self.status.value = (
            f"made <b>{level.id}</b>: score {made['achieved']['score']} for target "
            f"{made['target']['score']:g} in {made['tries']} tries{took}"
        )
        self.on_level(level)
