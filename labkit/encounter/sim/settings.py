"""Settings of one simulated game (seed: ``SimulationSettings``), checked and JSON-ready.

A game is fully decided by its settings: the map seed (rooms, loot, spawn rooms), the process
seed (fights, flights) from which each actor's policy stream is also derived, the NPC and
monster counts, the map size, both sides' difficulty, the step limit and whether per-step
snapshots are kept.

Decisions the rules leave open, recorded here:

* ``difficulty`` is ``(npc level, monster level)``, each 0 (easy) … 3 (expert); the policy
  classes turn a level into their own thresholds (see :mod:`labkit.encounter.sim.policy`).
* ``policies`` names the policy of each side in :data:`labkit.encounter.sim.policy.POLICIES`, so a
  trace can say which AI played.
* ``balance`` is a small patch of the shipped balance file, ``{JSON pointer: value}`` (e.g.
  ``{"/characters/monster/life": 4}``), so a sweep over one balance parameter is just a list of
  settings and every trace records the exact numbers it was played with.
* The default game (4 × 4 rooms, 3 NPCs against 1 monster, 300 steps) is small on purpose: it
  lasts about 90 steps, the two sides win about equally often, and a 1,000-game sweep takes
  well under a minute on two cores.

Examples
--------
>>> s = SimulationSettings(seed=3, balance={"/characters/monster/life": 4})
>>> s.resolved_balance().characters["monster"].life
4
>>> SimulationSettings.from_dict(s.to_dict()) == s
True
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from labkit import LabkitError
from labkit.encounter.rules.balance import DEFAULT_PATH, Balance, balance_from_dict, default_balance
from labkit.io import as_int, check, load_json, pointer, save_json
from labkit.io import field as get

__all__ = [
    "SimulationError",
    "SimulationSettings",
    "MAX_LEVEL",
    "MAX_SEED",
    "balance_value",
    "FIELDS",
    "default_balance_document",
]

MAX_LEVEL = 3
#: Seeds are integers 0 … 2**63 - 1 (they go into int64 table columns).
MAX_SEED = 2**63 - 1
#: Entries in a settings' balance patch.
MAX_PATCH = 256


#: The file format of :meth:`SimulationSettings.save` (the settings alone, no game).
SETTINGS_FORMAT = "labkit.encounter.settings"


class SimulationError(LabkitError):
    """Settings (or a request to the session) that cannot be played."""


@dataclass(frozen=True)
class SimulationSettings:
    """Everything that decides one game; ``to_dict``/``from_dict`` round-trip through JSON.

    Examples
    --------
    >>> s = SimulationSettings(seed=4, npcs=3)
    >>> s.actor_ids[:3], SimulationSettings.from_dict(s.to_dict()) == s
    (('npc-0', 'npc-1', 'npc-2'), True)
    """

    map_seed: int = 0
    seed: int = 0
    npcs: int = 3
    monsters: int = 1
    width: int = 4
    height: int = 4
    difficulty: tuple[int, int] = (1, 1)
    max_steps: int = 300
    snapshots: bool = False
    policies: tuple[str, str] = ("scavenger", "hunter")
    balance: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "difficulty", tuple(self.difficulty))
        object.__setattr__(self, "policies", tuple(self.policies))
        object.__setattr__(self, "balance", dict(self.balance))
        _validate(self.to_dict(), SimulationError)

    def replace(self, **changes: Any) -> SimulationSettings:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return {
            "map_seed": self.map_seed,
            "seed": self.seed,
            "npcs": self.npcs,
            "monsters": self.monsters,
            "width": self.width,
            "height": self.height,
            "difficulty": list(self.difficulty),
            "max_steps": self.max_steps,
            "snapshots": self.snapshots,
            "policies": list(self.policies),
            "balance": dict(self.balance),
        }

    @classmethod
    def from_dict(
        cls, doc: Any, *, at: str = "", error: type[LabkitError] = SimulationError
    ) -> SimulationSettings:
        """Build from a JSON object, raising ``error`` with the pointer of a bad field."""
        _validate(doc, error, at)
        return cls(**{k: doc[k] for k in _KEYS if k in doc})

    def save(self, path: str | os.PathLike) -> None:
        """Write the settings atomically as a ``labkit.encounter.settings`` file.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "settings.json"
        >>> SimulationSettings(seed=3).save(path)
        >>> SimulationSettings.load(path) == SimulationSettings(seed=3)
        True
        """
        save_json(path, self.to_dict(), format=SETTINGS_FORMAT, version=1)

    @classmethod
    def load(cls, path: str | os.PathLike) -> SimulationSettings:
        """Read and validate a settings file written by :meth:`save`."""
        doc = load_json(path, format=SETTINGS_FORMAT, versions=(1,), error=SimulationError)
        doc = {k: v for k, v in doc.items() if k not in ("format", "version")}
        try:
            return cls.from_dict(doc)
        except SimulationError as exc:
            raise exc.with_file(str(path)) from None

    def resolved_balance(self) -> Balance:
        """The balance these settings play with (the shipped edition plus ``balance``)."""
        return _patched(json.dumps(self.balance, sort_keys=True))

    @property
    def actor_ids(self) -> tuple[str, ...]:
        return tuple(f"npc-{i}" for i in range(self.npcs)) + tuple(
            f"monster-{i}" for i in range(self.monsters)
        )


_KEYS = tuple(f.name for f in dataclasses.fields(SimulationSettings))
# Settings fields a sweep may vary (the seeds are the sweep's own axis, the patch its pointers).
FIELDS = tuple(k for k in _KEYS if k not in ("seed", "map_seed", "balance"))


def _validate(doc: Any, error: type[LabkitError], at: str = "") -> None:
    check(isinstance(doc, dict), "settings must be an object", at or "", doc, error)
    unknown = sorted(set(doc) - set(_KEYS))
    check(not unknown, "unknown setting", at + pointer(unknown[0]) if unknown else at, None, error)
    for key, lo, hi in (
        ("map_seed", 0, MAX_SEED),
        ("seed", 0, MAX_SEED),
        ("npcs", 1, 64),
        ("monsters", 1, 64),
        ("width", 1, 64),
        ("height", 1, 64),
        ("max_steps", 1, 10_000_000),
    ):
        if key in doc:
            as_int(doc[key], at + pointer(key), lo, hi, error)
    w, h = doc.get("width", 4), doc.get("height", 4)
    n = doc.get("npcs", 3) + doc.get("monsters", 1)
    check(w * h >= 2, "the map needs at least 2 rooms", at + "/width", w, error)
    check(n <= w * h, f"{n} actors do not fit in {w}x{h} rooms", at + "/npcs", n, error)
    if "difficulty" in doc:
        d = get(doc, "difficulty", (list, tuple), at, error)
        check(len(d) == 2, "must be [npc level, monster level]", at + "/difficulty", d, error)
        for i, v in enumerate(d):
            as_int(v, at + pointer("difficulty", i), 0, MAX_LEVEL, error)
    if "snapshots" in doc:
        get(doc, "snapshots", bool, at, error)
    if "policies" in doc:
        from labkit.encounter.sim.policy import POLICIES

        p = get(doc, "policies", (list, tuple), at, error)
        check(len(p) == 2, "must be [npc policy, monster policy]", at + "/policies", p, error)
        for i, v in enumerate(p):
            check(v in POLICIES, f"unknown policy, known: {sorted(POLICIES)}",
                  at + pointer("policies", i), v, error)  # fmt: skip
    if "balance" in doc:
        patch = get(doc, "balance", dict, at, error)
        check(len(patch) <= MAX_PATCH, f"at most {MAX_PATCH} entries", at + "/balance",
              len(patch), error)  # fmt: skip
        try:
            _patched(json.dumps(patch, sort_keys=True))
        except LabkitError as exc:
            raise error(f"balance patch: {exc}", pointer=at + "/balance") from None


@functools.lru_cache(maxsize=64)
def _patched(patch_text: str) -> Balance:
    patch = json.loads(patch_text)
    if not patch:
        return default_balance()
    doc = _default_doc()
    for ptr, value in patch.items():
        parts = pointer_parts(ptr)
        node: Any = doc
        for depth, part in enumerate(parts):
            last = depth == len(parts) - 1
            if isinstance(node, list):
                if not (_index(part, ptr) < len(node)):
                    raise SimulationError("no such balance field (bad list index)", pointer=ptr)
                key: Any = int(part)
            elif isinstance(node, dict):
                if part not in node:
                    raise SimulationError("no such balance field", pointer=ptr)
                key = part
            else:
                raise SimulationError("no such balance field (a number has no fields)",
                                      pointer=ptr)  # fmt: skip
            if last:
                old = node[key]
                if isinstance(old, (dict, list)) and not isinstance(value, type(old)):
                    raise SimulationError(f"must be a JSON {type(old).__name__}", pointer=ptr,
                                          value=value)  # fmt: skip
                node[key] = value
            else:
                node = node[key]
    return balance_from_dict(doc)


def balance_value(ptr: str) -> Any:
    """The shipped balance document's value at JSON pointer ``ptr``.

    Raises
    ------
    SimulationError
        ``ptr`` is not a JSON pointer to a field of the balance document.

    Examples
    --------
    >>> balance_value("/characters/monster/life")
    5
    """
    node: Any = json.loads(_default_doc_text())
    for part in pointer_parts(ptr):
        if isinstance(node, list) and _index(part, ptr) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise SimulationError("no such balance field", pointer=ptr)
    return node


_CANONICAL = re.compile(r"(/([^~/]|~[01])*)+")
_INDEX = re.compile(r"0|[1-9][0-9]*")


def pointer_parts(ptr: Any) -> list[str]:
    """The reference tokens of a canonical JSON pointer (RFC 6901), unescaped.

    One spelling per field, so a patch cannot name one cell twice: ``~`` only as ``~0``/``~1``,
    and list indices (checked where a list is met) in ASCII digits without leading zeros.

    Examples
    --------
    >>> pointer_parts("/weapons/a~1b/damage")
    ['weapons', 'a/b', 'damage']
    >>> try:
    ...     pointer_parts("/tables/hit/~2")
    ... except SimulationError as err:
    ...     print(err)
    /tables/hit/~2: not a canonical JSON pointer (``~`` only as ~0 or ~1)
    """
    if not isinstance(ptr, str) or not ptr.startswith("/") or ptr == "/":
        raise SimulationError("must be a JSON pointer such as /combat/max_rounds", value=ptr)
    if not _CANONICAL.fullmatch(ptr):
        raise SimulationError("not a canonical JSON pointer (``~`` only as ~0 or ~1)", pointer=ptr)
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr.split("/")[1:]]


def _index(part: str, ptr: str) -> int:
    """A list index as a canonical pointer writes it (``3``, never ``03``, ``+3`` or ``٣``)."""
    if not _INDEX.fullmatch(part):
        raise SimulationError("not a canonical JSON pointer (a list index is written in digits "
                              "0-9 without leading zeros)", pointer=ptr)  # fmt: skip
    return int(part) if len(part) < 10 else 10**9  # (no list is that long: no such field)


@functools.lru_cache(maxsize=1)
def _default_doc_text() -> str:
    from labkit.io import record_read

    record_read(DEFAULT_PATH)
    return DEFAULT_PATH.read_text(encoding="utf-8")


def _default_doc() -> dict:
    return copy.deepcopy(json.loads(_default_doc_text()))


def default_balance_document() -> dict:
    """A fresh copy of the shipped balance document (``data/balance``), as parsed JSON.

    Examples
    --------
    >>> doc = default_balance_document()
    >>> doc["characters"]["monster"]["life"] == balance_value("/characters/monster/life")
    True
    >>> doc["characters"]["monster"]["life"] = 99  # a copy: the shipped values stay
    >>> default_balance_document()["characters"]["monster"]["life"]
    5
    """
    return _default_doc()
