"""The one base of every status and outcome in labkit: a ``StrEnum`` that reads as its value.

Each status is a :class:`Status` subclass defined once (the domain's ``status`` module), with
lowercase ``snake_case`` values. Members are ``str``, so ``outcome == "exit"``, JSON and
DataFrames keep working, and ``repr`` shows the plain value so results print as before.

Examples
--------
>>> class Light(Status):
...     GREEN = "green"
...     RED = "red"
>>> Light.RED == "red", Light("green"), [Light.GREEN], f"{Light.RED}"
(True, 'green', ['green'], 'red')
"""

from __future__ import annotations

import enum

__all__ = ["Status"]


class Status(enum.StrEnum):
    """A ``StrEnum`` whose ``repr`` is its value's (``'exit'``, not ``<Outcome.EXIT: 'exit'>``)."""

    def __repr__(self) -> str:
        return repr(self.value)
