"""Put a generated level into a chosen slot of a campaign file and save it (issue 24).

A file box, a slot box (1 is the first level played) and a button. The campaign is read from
the file when it exists, else it starts as the workbench's own levels; the level at the slot is
replaced (the new level takes over its generator slot), one slot past the last appends. The
file is written atomically (:meth:`~labkit.hexpuzzle.Campaign.save`) and one line names it.
A slot outside the campaign, a level id the campaign already holds elsewhere, or an unreadable
file is refused in words and nothing is written. A level whose score breaks the campaign's rise
(harder than the level after it, or easier than the one before) is saved with a warning naming
both neighbours' scores. The saved campaign goes to ``on_saved`` (the workbench shows it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from labkit import ArgumentError
from labkit._text import html_text
from labkit.hexpuzzle import Campaign, Level, LevelError

__all__ = ["CampaignSlot"]


class CampaignSlot:
    """File, slot and "put into campaign" button; :meth:`put` is the logic tests call.

    Parameters
    ----------
    level : callable returning Level or None
        The level to put in (the one last generated).
    start : sequence of Level
        The campaign when the file does not exist yet.
    on_saved : callable, optional
        Receives each saved campaign.
    """

    def __init__(
        self,
        level: Callable[[], Level | None],
        start: Sequence[Level],
        on_saved: Callable[[Campaign], None] | None = None,
    ) -> None:
        import ipywidgets as w

        self.level, self.start, self.on_saved = level, list(start), on_saved
        self.path = w.Text("my-campaign.json", description="campaign")
        self.slot = w.IntText(1, description="slot", layout={"width": "150px"})
        self.button = w.Button(description="put into campaign and save", icon="save",
                               layout={"width": "auto"})  # fmt: skip
        self.status = w.HTML()
        self.button.on_click(lambda _: self.put())
        self.ui = w.VBox([w.HBox([self.path, self.slot, self.button]), self.status])

    def put(self) -> Campaign | None:
        """Put the level into the slot and save; returns the saved campaign, None if refused."""
        level, path, slot = self.level(), Path(self.path.value), int(self.slot.value)
        if level is None:
            return self._refuse("no level yet: press “generate like this” first")
        try:
            camp = Campaign.load(path) if path.is_file() else Campaign(self.start)
        except LevelError as exc:
            return self._refuse(f"{path} cannot be read as a campaign: {exc}")
        except ArgumentError:  # the workbench's levels repeat an id: no campaign can hold them
            return self._refuse(f"{path} does not exist and the workbench's levels cannot start "
                                "it: two of them have the same id")  # fmt: skip
        where = f"{path}" if path.is_file() else f"a new {path} (the workbench's levels)"
        if not 1 <= slot <= len(camp) + 1:
            return self._refuse(
                f"slot {slot} is not in {where}: it has {len(camp)} levels, so choose 1–"
                f"{len(camp) + 1} ({len(camp) + 1} adds the level at the end)"
            )
        other = next((k for k, lv in enumerate(camp, 1) if lv.id == level.id), None)
        if other is not None and other != slot:
            return self._refuse(f"{where} already holds {level.id} in slot {other}")
        levels, slots = list(camp), dict(camp.slots)
        if slot <= len(camp):
            old = levels[slot - 1]
            slots[level.id] = slots.pop(old.id, slot - 1)
            levels[slot - 1] = level
            did = f"replacing {old.id}"
        else:
            slots[level.id] = max([*slots.values(), len(camp) - 1]) + 1
            levels.append(level)
            did = "at the end"
        new = Campaign(levels, seed=camp.seed, generator=camp.generator, slots=slots)
        new.save(path)
        self.status.value = html_text(
            f"put {level.id} into slot {slot} of {len(new)} ({did}); saved {path.resolve()}"
        ) + _order_warning(levels, slot)
        if self.on_saved is not None:
            self.on_saved(new)
        return new

    def _refuse(self, why: str) -> Campaign | None:  # None: nothing was saved
        self.status.value = f"<b style='color:#c1121f'>not saved</b>: {html_text(why)}"
        return None


def _order_warning(levels: Sequence[Level], slot: int) -> str:
    """A warning when the level in ``slot`` (1-based) breaks the rise of scores ("" if not).

    Examples
    --------
    >>> from labkit.hexpuzzle import generate
    >>> _order_warning([generate(1, radius=2, tiles=8), generate(2, radius=2, tiles=5)], 2)
    ''
    """
    from labkit.hexpuzzle import score

    def total(k: int) -> int | None:  # k: 1-based slot, None outside or unscored
        return score(levels[k - 1]).total if 1 <= k <= len(levels) else None

    mine, before, after = total(slot), total(slot - 1), total(slot + 1)
    if mine is None or not ((before is not None and mine < before)
                            or (after is not None and mine > after)):  # fmt: skip
        return ""
    around = " and ".join(f"{v} (slot {k})" for k, v in ((slot - 1, before), (slot + 1, after))
                          if v is not None)  # fmt: skip
    return (
        f" · <b style='color:#c1121f'>⚠ out of order</b>: slot {slot} now scores {mine}, "
        f"next to {html_text(around)}: the campaign no longer rises in difficulty here"
    )
