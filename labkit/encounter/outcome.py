"""Outcome-only games (SPEC W3): the numbers a batch row needs, without journal or traces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from labkit.encounter.batch import play_chunk

__all__ = ["play_outcomes"]


def play_outcomes(docs: Mapping[int, dict], jobs: Sequence[tuple[int, int, int, int]]) -> list:
    """Play ``jobs`` outcome-only; rows as :func:`~labkit.encounter.batch.play_chunk` gives."""
    return play_chunk(docs, jobs)
