"""How an encounter game ends, defined once (lowercase ``snake_case`` values).

``victory`` (one side left; the trace names the winner), ``mutual_death`` (nobody left) or
``step_limit`` (the step limit was reached: winner ``None``, not a victory). Traces written
before this spelling used UPPERCASE; :mod:`labkit.encounter.records.trace` reads both.

Examples
--------
>>> EndReason.VICTORY == "victory", EndReason("step_limit"), sorted(EndReason)
(True, 'step_limit', ['mutual_death', 'step_limit', 'victory'])
"""

from __future__ import annotations

from labkit._status import Status

__all__ = ["EndReason", "END_REASONS"]


class EndReason(Status):
    """Why a game ended.

    Examples
    --------
    >>> EndReason.STEP_LIMIT, EndReason("victory") is EndReason.VICTORY
    ('step_limit', True)
    """

    VICTORY = "victory"
    STEP_LIMIT = "step_limit"
    MUTUAL_DEATH = "mutual_death"


END_REASONS = tuple(EndReason)
