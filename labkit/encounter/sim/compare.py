"""Two balance versions (or two settings) compared on common random numbers (issue 28).

:func:`compare` plays version A and version B on the *same* seeds (each seed sets the map and
every die roll, so a game of A and the game of B on its seed differ by the balance, not by
luck) and returns one tidy row per metric (:func:`~labkit.encounter.sim.paired.paired_table`:
both values, the paired difference B − A with a 95 % interval, a mid-p McNemar, t or bootstrap
p-value, the measured variance reduction of the pairing and the seeds needed to detect a change).

The games are a two-point :func:`~labkit.encounter.sweep` (point 0 is A, point 1 is B), so
``out=DIR`` streams them to Parquet parts and re-running resumes, exactly as sweeps do.

A *version* is any of

* :class:`~labkit.encounter.SimulationSettings` (every field and balance patch it sets);
* a mapping ``{JSON pointer or settings field: value}`` (``{"/characters/monster/life": 4}``);
* a path to a balance file: a whole ``labkit.balance`` document (its leaves that differ from
  the shipped edition become the patch) or a ``labkit.balance_patch`` file (as the
  BalanceTuner saves).

Nothing is filled in from the shipped edition (issue 46): a whole document is checked as the
balance loader checks it (a hit table cut to 3 entries, a missing ``/combat``: refused naming
the pointer) and must hold every field the shipped one has; a pointer must be canonical
(``/tables/hit/3``, never ``/tables/hit/03``), so no patch names one cell twice; ``games=``
handed in must have been played by this call's versions on this call's seeds.

Examples
--------
>>> t = compare({"/characters/monster/life": 5}, {"/characters/monster/life": 4}, range(40),
...             metrics=["npc_win", "balance"], bootstrap=200)
>>> t[["metric", "pairs"]].values.tolist()
[['npc_win', 40], ['balance', 40]]
>>> win = t.iloc[0].to_dict()  # 4 seeds up, none down: mid-p McNemar p 1/16, so from 0
>>> round(win["diff"], 3), round(win["diff_lo"], 3), round(win["diff_hi"], 3), win["p_value"]
(0.1, 0.0, 0.231, 0.0625)
>>> print(t.iloc[1]["note"])  # doctest: +NORMALIZE_WHITESPACE
A and B: too close to even at 40 seeds to say which side leads, so a change of balance has no
trustworthy interval; more seeds may settle it (the win-rate rows show the change)
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Mapping, Sized
from pathlib import Path
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.sim.paired import (
    METRICS,
    Metric,
    check_options,
    game_measures,
    paired_table,
)
from labkit.encounter.sim.settings import FIELDS, SimulationSettings, default_balance_document
from labkit.glossary import GLOSSARY

__all__ = ["compare", "play_pair", "version_patch", "survival_bands", "SURVIVAL_TURNS"]

#: Turns after which the share of NPCs alive is a row of the table (points of the curve).
SURVIVAL_TURNS = (10, 20, 40)
Version = SimulationSettings | Mapping[str, Any] | str | os.PathLike


def _leaves(node: Any, at: str, out: dict[str, Any]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _leaves(v, f"{at}/{str(k).replace('~', '~0').replace('/', '~1')}", out)
    elif isinstance(node, list) and node and all(not isinstance(v, (dict, list)) for v in node):
        for i, v in enumerate(node):
            out[f"{at}/{i}"] = v
    else:
        out[at] = node


def version_patch(version: Version) -> dict[str, Any]:
    """The ``{pointer or field: value}`` changes a version makes to the shipped game.

    Examples
    --------
    >>> version_patch({"/characters/monster/life": 4})
    {'/characters/monster/life': 4}
    >>> version_patch(SimulationSettings(npcs=2, balance={"/combat/max_rounds": 9}))
    {'npcs': 2, '/combat/max_rounds': 9}
    """
    if isinstance(version, SimulationSettings):
        plain = SimulationSettings()
        out = {f: getattr(version, f) for f in FIELDS if getattr(version, f) != getattr(plain, f)}
        return {**out, **version.balance}
    if isinstance(version, Mapping):
        from labkit.encounter.sim.settings import balance_value

        for key in version:
            if isinstance(key, str) and key.startswith("/"):
                balance_value(key)  # a canonical pointer to a field of the balance, or refused
        return dict(version)
    if isinstance(version, (str, os.PathLike)):
        from labkit.encounter.rules.balance import balance_file

        return _file_patch(balance_file(version))  # a shipped one by its bare name too
    raise ArgumentError("must be SimulationSettings, a {pointer: value} mapping or a balance "
                        "file path", argument="version", value=type(version).__name__)  # fmt: skip


def _file_patch(path: Path) -> dict[str, Any]:
    from labkit.encounter.sim.sweep import SweepError
    from labkit.io import load_json

    doc = load_json(path, error=SweepError)
    kind = doc.get("format") if isinstance(doc, dict) else None
    if kind == "labkit.balance_patch":
        parts = [doc.get("settings", {}), doc.get("balance", {})]
        for key, part in zip(("settings", "balance"), parts):
            if not isinstance(part, dict):
                raise SweepError(f"{path}: must be an object {{field or pointer: value}}",
                                 pointer="/" + key, value=type(part).__name__)  # fmt: skip
        _check_patch_keys(path, parts[0], parts[1])
        return {**parts[0], **parts[1]}
    if kind != "labkit.balance":
        raise SweepError(f"{path}: not a labkit.balance or labkit.balance_patch file",
                         pointer="/format", value=kind)  # fmt: skip
    from labkit.encounter.rules.balance import balance_from_dict
    from labkit.encounter.rules.balance_file import balance_to_dict

    ship: dict[str, Any] = {}
    mine: dict[str, Any] = {}
    read: dict[str, Any] = {}
    _leaves(default_balance_document(), "", ship)
    _leaves({k: v for k, v in doc.items() if k not in ("format", "version")}, "", mine)
    for ptr in mine:  # (the shipped balance has /edition and /notes: words, never a change)
        if ptr not in ship:
            raise SweepError(f"{path}: a field the shipped balance does not have (a patch can "
                             "only change existing fields)", pointer=ptr)  # fmt: skip
    # the whole document, checked as the loader checks it: a cut table or a missing section is
    # refused here, never played as the shipped edition's
    whole = balance_to_dict(balance_from_dict(doc, file=str(path)), "labkit.balance", 1)
    _leaves({k: v for k, v in whole.items() if k not in ("format", "version")}, "", read)
    for ptr in ship:
        if ptr not in read and ptr not in ("/format", "/version", "/edition", "/notes"):
            raise SweepError(f"{path}: lacks a field the shipped balance has (a whole balance "
                             "document holds every field)", pointer=ptr)  # fmt: skip
    for ptr in read:
        if ptr not in ship:
            raise SweepError(f"{path}: a field the shipped balance does not have (a patch can "
                             "only change existing fields)", pointer=ptr)  # fmt: skip
    mine = {p: read.get(p, v) for p, v in mine.items()}
    mine.update({p: v for p, v in read.items() if p not in mine})
    return {p: v for p, v in mine.items() if p in ship and ship[p] != v
            and p not in ("/edition", "/notes")}  # fmt: skip


def _check_patch_keys(path: Path, settings: dict, balance: dict) -> None:
    """A patch file's ``settings`` name settings fields, its ``balance`` canonical pointers."""
    from labkit.encounter.sim.settings import SimulationError, balance_value
    from labkit.encounter.sim.sweep import SweepError

    for key in settings:
        if key not in FIELDS or key in ("seed", "map_seed", "balance"):
            raise SweepError("unknown setting", file=str(path), pointer="/settings", value=key)
    for key in balance:
        try:
            balance_value(key)
        except SimulationError as exc:
            raise SweepError(str(exc), file=str(path), pointer="/balance") from None


def _check_games(games: Any, points: list[dict[str, Any]], seeds: Iterable[int]) -> None:
    """Games handed in must be this call's: both versions' values and the very seeds."""
    for k, point in enumerate(points):
        side = games[games["point"] == k] if "point" in games else games.iloc[:0]
        for name, value in point.items():
            if name not in games:
                raise ArgumentError(f"played other versions (no column {name!r})",
                                    argument="games", value=name)  # fmt: skip
            held = side[name].tolist()
            if not held or any(not _same(v, value) for v in held):
                raise ArgumentError(f"played other versions ({name} of version {'AB'[k]} is "
                                    f"{value!r} in this call)", argument="games",
                                    value=held[0] if held else None)  # fmt: skip
    asked = set(int(s) for s in seeds)
    for k in (0, 1):
        played = set(games.loc[games["point"] == k, "seed"].astype(int).tolist())
        if played != asked:
            raise ArgumentError(f"played other seeds than this call's {len(asked)} (version "
                                f"{'AB'[k]}: {len(played)} seeds, {len(played ^ asked)} "
                                "differ)", argument="games", value=len(played))  # fmt: skip


def _same(x: Any, y: Any) -> bool:
    """Equal as JSON values (a tuple and a list alike, numpy numbers as numbers)."""
    plain = [json.loads(json.dumps(v, default=_plain)) for v in (x, y)]
    return bool(plain[0] == plain[1])


def _points(base: SimulationSettings, a: dict, b: dict) -> list[dict[str, Any]]:
    """Both versions as sweep design points naming the same parameters."""
    from labkit.encounter.sim.settings import balance_value

    names = list(dict.fromkeys([*a, *b])) or ["max_steps"]  # A vs A: one shared parameter
    for n in names:
        if n in ("seed", "map_seed"):
            raise ArgumentError("the seeds are the comparison's own axis", argument="version",
                                value=n)  # fmt: skip

    def fill(v: dict) -> dict[str, Any]:
        out = {}
        for n in names:
            if n in v:
                out[n] = v[n]
            elif n.startswith("/"):
                out[n] = base.balance.get(n, balance_value(n))
            else:
                out[n] = getattr(base, n)
        return out

    return [fill(a), fill(b)]


def play_pair(
    a: Version, b: Version, seeds: Iterable[int], *, base: SimulationSettings | None = None,
    executor: Any = None, out: str | os.PathLike | None = None,
    progress: Any = False, mode: str = "outcome",
) -> Any:  # fmt: skip
    """Play both versions on every seed: a sweep frame (point 0 = A, point 1 = B) with a
    ``version`` column (``"A"``/``"B"``); ``out`` resumes as :func:`~labkit.encounter.sweep`.

    Examples
    --------
    >>> g = play_pair({}, {"/characters/monster/life": 4}, range(3))
    >>> g[["version", "seed", "/characters/monster/life"]].values.tolist()[:4]
    [['A', 0, 5], ['A', 1, 5], ['A', 2, 5], ['B', 0, 4]]
    """
    from labkit.encounter.sim.sweep import sweep

    base = SimulationSettings() if base is None else base
    points = _points(base, version_patch(a), version_patch(b))
    frame = sweep(base, points, seeds, executor=executor, out=out, progress=progress, mode=mode)
    frame.insert(0, "version", np.where(frame["point"].to_numpy() == 0, "A", "B"))
    return frame


def _measures(games: Any, turns: Iterable[int]) -> tuple[dict, dict, list[Metric]]:
    from labkit.encounter.sim.paired import npcs_alive_after

    sides = []
    for k in (0, 1):
        g = games[games["point"] == k].sort_values("seed", kind="stable")
        m = game_measures(g)
        for t in turns:
            m[f"npcs_alive_after_{t}"] = npcs_alive_after(g, t)
        sides.append((m, g["seed"].to_numpy()))
    (ma, sa), (mb, sb) = sides
    if not np.array_equal(sa, sb):
        raise ArgumentError("A and B must have played the same seeds", argument="games",
                            value=int(np.setxor1d(sa, sb).size))  # fmt: skip
    said = GLOSSARY["npcs_alive_after"][0]
    extra = [Metric(f"npcs_alive_after_{t}", f"{said} {t}", "share",
                    (f"npcs_alive_after_{t}",)) for t in turns]  # fmt: skip
    return ma, mb, extra


def _check_draws(bootstrap: int, seeds: int, argument: str) -> None:
    """The paired bootstrap draws ``bootstrap x seeds`` indices: bounded before any game.

    Examples
    --------
    >>> _check_draws(10_000, 6_000, "b")
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: b: 10000 resamples x 6000 seeds is more than 50000000 draws (got 10000)
    """
    from labkit.encounter.sim.paired import MAX_DRAWS

    if bootstrap * seeds > MAX_DRAWS:
        raise ArgumentError(f"{bootstrap} resamples x {seeds} seeds is more than {MAX_DRAWS} "
                            "draws", argument=argument, value=bootstrap)  # fmt: skip


#: Most survival points, and the latest turn one may name (a game is at most this long).
MAX_SURVIVAL_TURNS = 20
MAX_TURN = 100_000


def _survival_turns(value: Any) -> list[int]:
    """``survival_turns`` as distinct whole turns in 1..MAX_TURN, at most MAX_SURVIVAL_TURNS.

    Examples
    --------
    >>> _survival_turns([float("nan")])
    Traceback (most recent call last):
    ...
    labkit.ArgumentError: survival_turns[0]: must be an integer (got nan)
    """
    from labkit._args import check_int

    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError("must be a list of turns", argument="survival_turns", value=value)
    items = list(itertools.islice(value, MAX_SURVIVAL_TURNS + 1))
    if len(items) > MAX_SURVIVAL_TURNS:
        raise ArgumentError(f"at most {MAX_SURVIVAL_TURNS} turns", argument="survival_turns",
                            value=len(items))  # fmt: skip
    # a whole float (7.0) names a turn; NaN, 7.5 or text does not
    turns = [
        check_int(int(t) if isinstance(t, float) and t.is_integer() else t,
                  f"survival_turns[{i}]", 1, MAX_TURN)
        for i, t in enumerate(items)
    ]  # fmt: skip
    if len(set(turns)) != len(turns):
        raise ArgumentError("names a turn twice", argument="survival_turns", value=turns)
    return turns


def compare(
    a: Version,
    b: Version,
    seeds: Iterable[int],
    *,
    metrics: Iterable[str] | None = None,
    executor: Any = None,
    base: SimulationSettings | None = None,
    out: str | os.PathLike | None = None,
    games: Any = None,
    bootstrap: int = 1000,
    detect: Mapping[str, float] | None = None,
    survival_turns: Iterable[int] = SURVIVAL_TURNS,
    progress: Any = False,
) -> Any:
    """Compare version ``b`` with version ``a`` on common seeds: one row per metric.

    Parameters
    ----------
    a, b : SimulationSettings, mapping or balance file path
        The two versions (see the module notes).
    seeds : iterable of int
        Every seed is played by both versions (the pairs).
    metrics : iterable of str, optional
        Keys of :data:`~labkit.encounter.sim.paired.METRICS` (default all, plus the NPC
        survival points ``npcs_alive_after_T`` for ``T`` in ``survival_turns``).
    executor, out, progress :
        As :func:`~labkit.encounter.sweep` (``out`` resumes).
    base : SimulationSettings, optional
        What both versions share (map size, counts, policies); default the shipped game.
    games : DataFrame, optional
        Games already played by :func:`play_pair` (then nothing is played).
    bootstrap, detect :
        As :func:`~labkit.encounter.sim.paired.paired_table`.

    Returns
    -------
    pandas.DataFrame
        One row per metric (columns in :func:`~labkit.encounter.sim.paired.paired_table`);
        ``attrs`` holds both versions' patches and the seed count.

    Examples
    --------
    A monster with 2 life points instead of 5, on the same 40 seeds:

    >>> t = compare({}, {"/characters/monster/life": 2}, range(40), metrics=["npc_win"],
    ...             bootstrap=200)
    >>> row = t.iloc[0].to_dict()
    >>> row["label"], row["b"] > row["a"], row["diff_lo"] <= row["diff"] <= row["diff_hi"]
    ('NPC win rate', True, True)
    """
    turns = _survival_turns(survival_turns)
    check_options(bootstrap, detect)  # before a game is played
    if metrics is not None:  # names checked before a game too (they were after every game)
        metrics = list(metrics)
        known_keys = {*METRICS, *(f"npcs_alive_after_{t}" for t in turns)}
        for k in metrics:
            if k not in known_keys:
                raise ArgumentError(f"unknown metric, known: {sorted(known_keys)}",
                                    argument="metrics", value=k)  # fmt: skip
    if games is None and isinstance(seeds, Sized):  # the bootstrap's size, before a game
        _check_draws(bootstrap, len(seeds), "bootstrap")
    if games is None:
        games = play_pair(a, b, seeds, base=base, executor=executor, out=out,
                          progress=progress)  # fmt: skip
    else:  # results from elsewhere must be this pair's, on these seeds (else: mislabelled)
        _check_games(games, _points(SimulationSettings() if base is None else base,
                                    version_patch(a), version_patch(b)), seeds)  # fmt: skip
    ma, mb, extra = _measures(games, turns)
    if metrics is None:
        chosen: list[Any] = [*METRICS.values(), *extra]
    else:
        known = {m.key: m for m in [*METRICS.values(), *extra]}
        chosen = []
        for k in metrics:
            if k not in known:
                raise ArgumentError(f"unknown metric, known: {sorted(known)}",
                                    argument="metrics", value=k)  # fmt: skip
            chosen.append(known[k])
        if not chosen:
            raise ArgumentError("must name at least one metric", argument="metrics", value=[])
    table = paired_table(ma, mb, metrics=chosen, bootstrap=bootstrap, detect=detect)
    table.attrs.update(a=json.loads(json.dumps(version_patch(a), default=_plain)),
                       b=json.loads(json.dumps(version_patch(b), default=_plain)),
                       seeds=int(np.unique(games["seed"]).size))  # fmt: skip
    return table


def _plain(value: Any) -> Any:
    """JSON for what ``json`` cannot write: numpy numbers and arrays (a knob value from
    ``np.arange``), and other sequences as lists."""
    return value.tolist() if hasattr(value, "tolist") else list(value)


def survival_bands(games: Any, side: str = "npc") -> Any:
    """The survival curve of one side in each version, with 95 % bands: a DataFrame
    ``version``, ``turn``, ``alive`` (share still alive after the turn), ``lo``, ``hi``
    (:func:`~labkit.encounter.survival_curve` per version).

    Examples
    --------
    >>> g = play_pair({}, {"/characters/monster/life": 4}, range(20))
    >>> s = survival_bands(g)
    >>> sorted(set(s["version"])), bool((s["lo"] <= s["alive"]).all())
    (['A', 'B'], True)
    """
    import pandas as pd

    from labkit.encounter.sim.batch import survival_curve

    parts = []
    for k, name in ((0, "A"), (1, "B")):
        t, s, lo, hi = survival_curve(games, side, settings_index=k)
        parts.append(pd.DataFrame({"version": name, "turn": t, "alive": s, "lo": lo, "hi": hi}))
    return pd.concat(parts, ignore_index=True)
