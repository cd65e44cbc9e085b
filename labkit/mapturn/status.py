"""What a player action did, defined once (lowercase ``snake_case`` values).

:class:`ActionKind` is a ``str`` enum: ``act.move("R").kind == "moved"`` holds, and it prints as
its value. :attr:`ActionKind.words` is the same answer for people (``"status on"``).

Examples
--------
>>> ActionKind("moved") is ActionKind.MOVED, ActionKind.NOT_OWNED.words
(True, 'not owned')
"""

from __future__ import annotations

from labkit._status import Status

__all__ = ["ActionKind"]


class ActionKind(Status):
    """The result of one player action (:meth:`labkit.mapturn.Actions.move`, ``use_item``, …).

    Using an item that costs time reports the item's class (``tools``, ``skillrecover``,
    ``skillremote``).

    Examples
    --------
    >>> sorted(k for k in ActionKind if k.startswith("battle"))
    ['battle', 'battle_skill_off', 'battle_skill_on']
    """

    MOVED = "moved"
    BLOCKED = "blocked"
    BATTLE = "battle"
    STAIRS = "stairs"
    DEAD = "dead"
    NOTHING = "nothing"
    PICKED = "picked"
    NOT_OWNED = "not_owned"
    NOT_USABLE = "not_usable"
    STATUS_ON = "status_on"
    STATUS_OFF = "status_off"
    CANNOT_CANCEL = "cannot_cancel"
    BATTLE_SKILL_ON = "battle_skill_on"
    BATTLE_SKILL_OFF = "battle_skill_off"
    TOOLS = "tools"
    SKILLRECOVER = "skillrecover"
    SKILLREMOTE = "skillremote"
    UI = "ui"

    @property
    def words(self) -> str:
        """The kind as a person reads it (``"battle skill on"``)."""
        return self.value.replace("_", " ")
