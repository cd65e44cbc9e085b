"""The telemetry table's columns, limits and error, shared by its readers and checker.

Defined below :mod:`.telemetry` (which re-exports every name here) so the column checker and
the streaming readers can use them without an import cycle.

Examples
--------
>>> list(COLUMNS)[:3], MAX_TEXT, MAX_ROWS
(['level', 'player', 'attempt'], 200, 10000000)
"""

from __future__ import annotations

from labkit.io import FormatError

__all__ = ["COLUMNS", "MAX_BYTES", "MAX_COUNT", "MAX_ROWS", "MAX_SECONDS", "MAX_TEXT", "REQUIRED",
           "TelemetryError", "present"]  # fmt: skip

#: Column name -> kind ("text", "count" (int >= 0), "attempt" (int >= 1), "flag", "seconds").
COLUMNS: dict[str, str] = {
    "level": "text",
    "player": "text",
    "attempt": "attempt",
    "first_try": "flag",
    "collisions": "count",
    "hints": "count",
    "rotations": "count",
    "undos": "count",
    "seconds": "seconds",
    "won": "flag",
}

#: The columns every game's telemetry has (issue 49): who, which level, which attempt, won.
#: The others of :data:`COLUMNS` are optional: ``seconds`` any game may log, the rest the hex
#: puzzle's own (``first_try``, ``collisions``, ``hints``, ``rotations``, ``undos``); each is
#: checked where it is present and absent from the loaded table where it is not.
REQUIRED: tuple[str, ...] = ("level", "player", "attempt", "won")


def present(names: object) -> tuple[str, ...]:
    """The columns of :data:`COLUMNS` among ``names``, in :data:`COLUMNS` order (the order of
    the loaded table); columns of no known kind are left out (a real export carries more).

    >>> present(["won", "player", "boss", "level", "attempt", "seconds"])
    ('level', 'player', 'attempt', 'seconds', 'won')
    """
    have = set(names)  # type: ignore[call-overload]
    return tuple(c for c in COLUMNS if c in have)


def missing_required(names: object) -> str | None:
    """The first required column not among ``names`` (None: all there)."""
    have = set(names)  # type: ignore[call-overload]
    return next((c for c in REQUIRED if c not in have), None)


#: Limits of telemetry: a CSV file's size (it is read in blocks: memory does not grow with it),
#: the rows read by default (every reader checks before it holds more: a Parquet file's row
#: count is read from its metadata before any row; ``max_rows=`` raises it), a text field's
#: length (level and player ids), the largest count or attempt number (the int32 it is kept
#: in holds twice as much; no real player comes near), the longest attempt in seconds (a
#: year). Loaded rows take about 38 bytes each (ids as int32 codes:
#: :class:`~.telemetry_columns.Columns`); the structured table, built when it is asked for,
#: about 100 (ids as fixed-width text).
MAX_BYTES = 4 * 1024**3
MAX_ROWS = 10_000_000
MAX_TEXT = 200
MAX_COUNT = 1_000_000_000
MAX_SECONDS = 365 * 24 * 3600.0


class TelemetryError(FormatError):
    """A telemetry file or table that breaks the format; names line, column and value."""


# Its public home is the telemetry module (error tables, tracebacks and pickles name it there).
TelemetryError.__module__ = "labkit.hexpuzzle.difficulty.telemetry"
