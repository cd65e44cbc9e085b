"""The 24-level main line (rule H8): recipes, building, and the shipped ``campaign.json``.

Each of the 24 *slots* is a generator recipe (board radius, tile count, rotations to build in,
spare steps, share of straight track), rising from small straight-tracked radius-2 boards with
one rotation to 20-tile radius-3 boards with three. Slot ``k`` is generated from the named stream
``slot/k`` of the campaign seed, so any slot can be regenerated alone; the levels are then scored
(H9) and ordered by non-decreasing total (ties keep slot order) and renamed ``main-01`` …
``main-24``.

The file (``data/levels/campaign.json``) is a campaign file, read and written by
:class:`~labkit.hexpuzzle.Campaign` (:mod:`.campaign_file` describes the format); the
generator section records the 24 recipes, and each level's ``slot`` the recipe it came from.

``scripts/make_campaign.py`` (and ``labkit puzzle campaign --out FILE``) writes it; the output
depends only on the seed and this module, byte for byte.

Examples
--------
>>> levels = campaign()
>>> len(levels), levels[0].id, levels[-1].id
(24, 'main-01', 'main-24')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from labkit import LabkitError
from labkit import io as lio
from labkit._data import data_path
from labkit.hexpuzzle.campaign_file import FORMAT, VERSION, Campaign
from labkit.hexpuzzle.difficulty.scoring import score
from labkit.hexpuzzle.level import Level, LevelError
from labkit.hexpuzzle.solving.generator import generate
from labkit.rng import stream

__all__ = ["FORMAT", "RECIPES", "SEED", "build", "campaign", "campaign_path", "load", "slot_level"]

#: Seed of the shipped campaign.
SEED = 20260424


def _recipe(radius, tiles, rotations, slack, straight):
    return {
        "radius": radius,
        "tiles": tiles,
        "rotations": rotations,
        "slack": slack,
        "straight": straight,
    }


#: The 24 slots: six easy, six intermediate, six hard, six challenge recipes.
RECIPES: tuple[dict[str, Any], ...] = (
    *[_recipe(2, [4, 6], [1, 1], [3, 3], 0.6)] * 6,
    *[_recipe(2, [7, 9], [1, 2], [2, 2], 0.3)] * 6,
    *[_recipe(3, [11, 14], [2, 2], [1, 1], 0.2)] * 6,
    *[_recipe(3, [17, 21], [3, 3], [0, 0], 0.0)] * 6,
)


def slot_level(seed: int, slot: int, recipe: dict[str, Any] | None = None) -> Level:
    """Generate slot ``slot`` of the campaign of ``seed`` (before ordering and renaming)."""
    recipe = RECIPES[slot] if recipe is None else recipe
    options: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in recipe.items()}
    return generate(stream(seed, f"slot/{slot}"), id=f"slot-{slot:02d}", **options)


def build(seed: int = SEED, *, progress: bool = True) -> dict[str, Any]:
    """Generate, score and order the campaign; returns the JSON document (without header keys).

    Shows a tqdm bar over the 24 slots unless ``progress`` is false.
    """
    from tqdm.auto import tqdm

    entries = []
    for slot in tqdm(range(len(RECIPES)), desc="campaign", unit="level", disable=not progress):
        level = slot_level(seed, slot)
        entries.append((score(level).total, slot, level))
    entries.sort(key=lambda e: (e[0], e[1]))
    levels, slots = [], {}
    for rank, (_, slot, level) in enumerate(entries, start=1):
        levels.append(level.replace(id=f"main-{rank:02d}", name=f"Main line {rank}"))
        slots[levels[-1].id] = slot
    doc = Campaign(levels, seed=seed, generator={"recipes": list(RECIPES)}, slots=slots).to_dict()
    return {k: v for k, v in doc.items() if k not in ("format", "version")}


def save(path: str | os.PathLike, doc: dict[str, Any]) -> None:
    """Write a campaign document atomically with its format header."""
    lio.save_json(path, doc, format=FORMAT, version=VERSION)


def campaign_path() -> Path:
    """Where the shipped ``data/levels/campaign.json`` lives."""
    try:
        return data_path("levels", "campaign.json")
    except LabkitError as exc:
        raise LevelError(f"the campaign is not installed: {exc.message}", file=exc.file) from None


def load(path: str | os.PathLike) -> Campaign:
    """Read a campaign file: its levels in main-line order (see :meth:`Campaign.load`)."""
    return Campaign.load(path)


def campaign() -> Campaign:
    """The shipped 24-level main line, ordered by non-decreasing difficulty.

    Examples
    --------
    >>> levels = campaign()
    >>> len(levels), levels[0].id
    (24, 'main-01')
    """
    return load(campaign_path())
