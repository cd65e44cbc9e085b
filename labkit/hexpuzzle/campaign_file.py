"""Campaign files: :class:`Campaign`, an ordered list of levels with the campaign's metadata.

The format (``labkit.hexpuzzle.campaign``, version 1; ``data/levels/campaign.json`` is one)::

    {"format": "labkit.hexpuzzle.campaign", "version": 1, "seed": ..., "generator": {...},
     "levels": [{"slot": k, "target": t, "score": {... Difficulty.to_dict() ...},
                 "level": {... level v2 ...}}]}

``slot`` is the generator slot a level came from (the main line reorders its 24 slots by score;
a curve campaign's slot ``k`` is its place ``k``); ``target`` is written for levels generated
to a target (it is the ``target`` of the level's ``metadata["generated"]``); ``score`` is
recomputed from the level on every save (it is derived, never trusted on load). Errors name the
file and the JSON pointer (``/levels/3/level/moveLimit``), as :class:`~labkit.hexpuzzle.LevelError`.

Examples
--------
>>> from labkit.hexpuzzle.shipped_campaign import campaign_path
>>> main = Campaign.load(campaign_path())
>>> len(main), main[0].id, main.seed, main.slots["main-01"]
(24, 'main-01', 20260424, 1)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from labkit import io as lio
from labkit.hexpuzzle.difficulty.scoring import score
from labkit.hexpuzzle.level import MAX_BYTES, Level, LevelError

__all__ = ["FORMAT", "MAX_SLOT", "VERSION", "Campaign"]

FORMAT = "labkit.hexpuzzle.campaign"
VERSION = 1
#: Largest slot number a campaign file may hold (a campaign has a few dozen levels).
MAX_SLOT = 100_000
#: Most levels a campaign may hold, checked before any level is parsed (validation time and
#: memory grow linearly with it).
MAX_LEVELS = 1_000


class Campaign(list):
    """Levels in play order (a plain ``list`` of :class:`Level`) and the campaign's metadata.

    Parameters
    ----------
    levels : iterable of Level
    seed : JSON value, optional
        The seed the campaign was generated from (recorded, not used).
    generator : dict, optional
        How it was generated (recipes, curve, ...), recorded as given.
    slots : mapping of level id to int, optional
        Each level's generator slot; a level not named has its place (0-based) as its slot.

    A campaign compares equal to another list holding the same levels. :meth:`rows`,
    :meth:`report` and :meth:`plot` compare each level's target with what it achieved.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> lvl = Level.hexagon(2, tiles=[("a", 1, 1, 0), ("b", 0, 0, 5)], id="c-1")
    >>> camp = Campaign([lvl], seed=7, generator={"by": "hand"})
    >>> doc = camp.to_dict()
    >>> doc["format"], doc["seed"], doc["levels"][0]["slot"], doc["levels"][0]["score"]["id"]
    ('labkit.hexpuzzle.campaign', 7, 0, 'c-1')
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "campaign.json"
    >>> camp.save(path)
    >>> again = Campaign.load(path)
    >>> again == camp, again.seed, again.generator
    (True, 7, {'by': 'hand'})
    >>> Campaign.from_dict(doc).to_dict() == doc
    True
    """

    def __init__(
        self,
        levels: Iterable[Level] = (),
        *,
        seed: Any = None,
        generator: Mapping[str, Any] | None = None,
        slots: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(levels)
        seen: set[str] = set()
        for k, level in enumerate(self):  # slots are keyed by id: a repeat would lose one
            if level.id in seen:
                from labkit import ArgumentError

                raise ArgumentError("a level id appears twice in the campaign",
                                    argument=f"levels[{k}]", value=level.id)  # fmt: skip
            seen.add(level.id)
        self.seed = seed
        self.generator: dict[str, Any] = dict(generator or {})
        self.slots: dict[str, int] = dict(slots or {})

    # --- the document -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The campaign document (format and version first; scores recomputed)."""
        entries = []
        for k, level in enumerate(self):
            entry: dict[str, Any] = {"slot": self.slots.get(level.id, k)}
            target = _target(level)
            if target is not None:
                entry["target"] = target
            entry["score"] = score(level).to_dict()
            entry["level"] = level.to_dict()
            entries.append(entry)
        return {"format": FORMAT, "version": VERSION, "seed": self.seed,
                "generator": dict(self.generator), "levels": entries}  # fmt: skip

    @classmethod
    def from_dict(cls, doc: Any, *, file: str | None = None) -> Campaign:
        """Check a campaign document (the header may be left out) and build the campaign.

        Raises
        ------
        LevelError
            Naming the JSON pointer (``/levels/3/level/moveLimit``) and the bad value.
        """
        try:
            if isinstance(doc, dict) and ("format" in doc or "version" in doc):
                doc = lio.check_header(doc, format=FORMAT, versions=(VERSION,), error=LevelError)
            lio.check(isinstance(doc, dict), "expected a JSON object", "", type(doc).__name__,
                      LevelError)  # fmt: skip
            entries = lio.field(doc, "levels", list, "", LevelError)
            generator = lio.field(doc, "generator", dict, "", LevelError, default={})
            lio.check(len(entries) <= MAX_LEVELS, f"a campaign holds at most {MAX_LEVELS} levels",
                      "/levels", len(entries), LevelError)  # fmt: skip
            levels, slots = [], {}
            first: dict[str, int] = {}
            for i, entry in enumerate(entries):
                at = lio.pointer("levels", i)
                lio.check(isinstance(entry, dict), "must be an object", at, entry, LevelError)
                raw = lio.field(entry, "level", dict, at, LevelError)
                try:
                    level = Level.from_dict(raw)
                except LevelError as exc:
                    kw = {"value": exc.value} if exc.has_value else {}
                    raise LevelError(exc.message, pointer=f"{at}/level{exc.pointer or ''}",
                                     **kw) from None  # fmt: skip
                lio.check(level.id not in first, f"level id also used at /levels/"
                          f"{first.get(level.id)}", f"{at}/level/id", level.id,
                          LevelError)  # fmt: skip
                first[level.id] = i
                slot = lio.field(entry, "slot", int, at, LevelError, default=i)
                slots[level.id] = lio.as_int(slot, f"{at}/slot", 0, MAX_SLOT, LevelError)
                levels.append(level)
            return cls(levels, seed=doc.get("seed"), generator=generator, slots=slots)
        except LevelError as exc:
            raise exc.with_file(file) if file else exc from None

    def save(self, path: str | os.PathLike) -> None:
        """Write the campaign file atomically; :meth:`load` reads it back."""
        lio.save_json(path, self.to_dict(), format=FORMAT, version=VERSION)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Campaign:
        """Read a campaign file; every level is validated."""
        doc = lio.load_json(path, format=FORMAT, versions=(VERSION,), error=LevelError,
                            max_bytes=MAX_BYTES)  # fmt: skip
        return cls.from_dict(doc, file=str(path))

    # --- target against achieved --------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """One dict per slot: target, achieved, error, within, score, rotations, tiles, …"""
        out = []
        for k, level in enumerate(self, start=1):
            made = level.metadata.get("generated", {})
            kind = "success" if "success" in made.get("target", {}) else "score"
            target = made.get("target", {}).get(kind)
            achieved = made.get("achieved", {}).get(kind)
            d = score(level)
            out.append({
                "slot": k, "id": level.id, "kind": kind, "target": target, "achieved": achieved,
                "error": None if target is None else achieved - target,
                "within": None if target is None else
                abs(achieved - target) <= made["target"]["tolerance"] + 1e-9,
                "score": d.total, "rotations": d.R, "tiles": len(level.tiles),
                "cells": len(level.board), "tries": made.get("tries"),
                "seconds": level.metadata.get("runtime", {}).get("seconds"),
            })  # fmt: skip
        return out

    def report(self):
        """The rows as a pandas DataFrame indexed by slot."""
        import pandas as pd

        return pd.DataFrame(self.rows()).set_index("slot")

    def _repr_html_(self) -> str:
        rows = self.rows()
        within = sum(bool(r["within"]) for r in rows)
        return (
            f"<p><b>{len(rows)} levels</b>, {within} within tolerance of their target</p>"
            + self.report().to_html(float_format=lambda x: f"{x:.3g}")
        )

    def plot(self, ax=None):
        """Target and achieved value per slot (matplotlib, imported here); returns the axes."""
        import matplotlib.pyplot as plt

        rows = self.rows()
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3.2))
        slots = [r["slot"] for r in rows]
        ax.plot(slots, [r["target"] for r in rows], "-", color="#888888", label="target")
        ax.plot(slots, [r["achieved"] for r in rows], "o", color="#c1121f", label="achieved")
        ax.set_xlabel("slot")
        ax.set_ylabel(rows[0]["kind"] if rows else "target")
        ax.legend(loc="best", fontsize=8)
        return ax


def _target(level: Level) -> float | None:
    """The target a generated level was made to (score or success), else None."""
    target = level.metadata.get("generated", {}).get("target", {})
    kind = "success" if "success" in target else "score"
    return target.get(kind)
