"""Who beats whom: a round-robin of AI policies (and loadouts), Bradley–Terry ratings, cycles.

:func:`round_robin` plays every NPC entry against every monster entry on the same seeds (an
*entry* is a policy, optionally with a loadout: a balance patch such as
``{"/characters/npc/weapon": "revolver"}``). Each pairing's games give win rates with Wilson
intervals and its **balance** (1 − the gap between the two sides' win rates, Ludii's
definition) with a paired-bootstrap interval.

:func:`bradley_terry` rates the entries from the win matrix: ``P(i beats j) = 1 / (1 +
exp(s_j − s_i))`` with strengths ``s`` (natural-log scale, mean 0), fitted by maximum
likelihood with :func:`choix.ilsr_pairwise_dense`; a game without a winner counts half a win
to each side. The 95 % intervals come from the observed Fisher information (its
pseudo-inverse: the mean-0 constraint takes the one free direction away).

:func:`cycles` lists the "beats" cycles (A beats B beats C … beats A, each step a pairing whose
winner share among decided games has a 95 % interval wholly above 1/2). A cycle means no
single strength order explains the pairings: Bradley–Terry then averages over it.

Examples
--------
>>> import numpy as np
>>> wins = np.array([[0, 30, 40], [20, 0, 30], [10, 20, 0]], dtype=float)
>>> r = bradley_terry(wins, ["a", "b", "c"])
>>> r["player"].tolist(), bool(r["strength"].is_monotonic_decreasing)
(['a', 'b', 'c'], True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from labkit import ArgumentError
from labkit.encounter.rules.combat import wilson_interval

__all__ = ["bradley_terry", "round_robin", "cycles", "win_matrix", "policy_balance"]

Entry = str | tuple[str, Mapping[str, Any]]


def bradley_terry(wins: Any, players: Sequence[str] | None = None, *, tol: float = 1e-12) -> Any:
    """Bradley–Terry strengths with 95 % intervals from a win matrix.

    Parameters
    ----------
    wins : (n, n) array
        ``wins[i, j]`` = games ``i`` won against ``j`` (halves for drawn games are fine).
    players : names, optional
    tol : float
        Convergence of the fit (L1 change of the strengths).

    Returns
    -------
    pandas.DataFrame
        ``player``, ``strength``, ``lo``, ``hi``, ``games`` — strongest first.

    Examples
    --------
    >>> r = bradley_terry([[0, 75], [25, 0]], ["strong", "weak"])
    >>> bool(abs(r["strength"].iloc[0] - r["strength"].iloc[1] - math.log(3)) < 1e-9)
    True
    """
    import choix
    import pandas as pd

    w = np.array(wins, dtype=float)  # a copy: the caller's matrix keeps its diagonal
    if w.ndim != 2 or w.shape[0] != w.shape[1] or w.shape[0] < 2:
        raise ArgumentError("must be a square matrix of at least 2 players", argument="wins",
                            value=w.shape)  # fmt: skip
    if (w < 0).any() or not np.isfinite(w).all():
        raise ArgumentError("must hold game counts >= 0", argument="wins", value=float(w.min()))
    n = w.shape[0]
    names = [str(i) for i in range(n)] if players is None else [str(p) for p in players]
    if len(names) != n:
        raise ArgumentError(f"needs {n} names", argument="players", value=len(names))
    np.fill_diagonal(w, 0.0)
    if not _strongly_connected(w > 0):
        raise ArgumentError("the strengths are not defined: some player never lost (or never "
                            "won) against the rest", argument="wins", value=names)  # fmt: skip
    s = _fit(choix, w, tol)
    s = s - s.mean()
    games = w + w.T
    p = 1.0 / (1.0 + np.exp(s[None, :] - s[:, None]))
    info = -games * p * (1 - p)  # Fisher information of the log-likelihood
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(1))
    se = np.sqrt(np.maximum(np.diag(np.linalg.pinv(info)), 0.0))
    out = pd.DataFrame({"player": names, "strength": s, "lo": s - 1.959963984540054 * se,
                        "hi": s + 1.959963984540054 * se, "games": games.sum(1) / 1})  # fmt: skip
    return out.sort_values("strength", ascending=False, kind="stable").reset_index(drop=True)


def _fit(choix: Any, w: np.ndarray, tol: float) -> np.ndarray:
    """ILSR strengths (no prior, up to 10,000 iterations) at ``tol``, or at the tightest
    tolerance float noise lets the fit reach.

    The L1 change between two iterations can stall at rounding noise (about 1e-12 for six
    players in two groups that met a thousandth of a game): the tolerance is loosened to the
    next power of ten until the fit settles, up to choix's own default of 1e-8.
    """
    for t in [tol] + [t for t in (1e-11, 1e-10, 1e-9, 1e-8) if t > tol]:
        try:
            return np.asarray(choix.ilsr_pairwise_dense(w, alpha=0.0, max_iter=10_000, tol=t))
        except RuntimeError:
            continue
    raise ArgumentError("the strengths do not settle (the players barely met)", argument="wins",
                        value=w.shape)  # fmt: skip


def _strongly_connected(edge: np.ndarray) -> bool:
    """Every player reaches every other along "won against" edges (the ML fit exists)."""
    n = edge.shape[0]
    for graph in (edge, edge.T):
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in np.flatnonzero(graph[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    todo.append(int(j))
        if len(seen) != n:
            return False
    return True


def _entry(e: Entry) -> tuple[str, str, dict[str, Any]]:
    if isinstance(e, str):
        return e, e, {}
    if isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], Mapping):
        label = e[0] + "".join(f" {k.rsplit('/', 1)[-1]}={v}" for k, v in e[1].items())
        return label, e[0], dict(e[1])
    raise ArgumentError("an entry is a policy name or (policy, {pointer: value})",
                        argument="npc/monster", value=e)  # fmt: skip


def _design(npc: Sequence[Entry], monster: Sequence[Entry], version: Mapping) -> tuple:
    """Every (NPC entry, monster entry) pairing and the settings changes it plays."""
    pairs, points = [], []
    for en in map(_entry, npc):
        for em in map(_entry, monster):
            pairs.append((en[0], em[0]))
            points.append({**version, **en[2], **em[2], "policies": [en[1], em[1]]})
    return pairs, points


def _filled(base: Any, points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Design points naming the same parameters: a name a point leaves out keeps the value
    ``base`` plays (a sweep design needs one set of names)."""
    names = list(dict.fromkeys(k for p in points for k in p))
    return [{k: p[k] if k in p else _shipped(base, k) for k in names} for p in points]


def _pairing_rows(games: Any, pairs: list) -> list[dict[str, Any]]:
    """One row per pairing ``k`` (design point ``k``): its games in seed order, win rates and
    balance with their paired-bootstrap intervals (400 resamples, stream ``k``), the winner
    share among decided games with its Wilson interval, and the counts."""
    from labkit.encounter.sim.paired import game_measures, paired_table

    rows = []
    for k, (en, em) in enumerate(pairs):
        g = games[games["point"] == k].sort_values("seed", kind="stable")
        m = game_measures(g)
        t = paired_table(m, m, metrics=["npc_win", "monster_win", "balance"], bootstrap=400,
                         rng=k).set_index("metric")  # fmt: skip
        nw, mw = int(m["npc_win"].sum()), int(m["monster_win"].sum())
        lo, hi = wilson_interval(nw, nw + mw) if nw + mw else (math.nan, math.nan)
        rows.append({
            "npc": en, "monster": em, "games": len(g),
            "npc_win": t.loc["npc_win", "a"], "npc_win_lo": t.loc["npc_win", "a_lo"],
            "npc_win_hi": t.loc["npc_win", "a_hi"], "monster_win": t.loc["monster_win", "a"],
            "balance": t.loc["balance", "a"], "balance_lo": t.loc["balance", "a_lo"],
            "balance_hi": t.loc["balance", "a_hi"], "npc_share_of_decided": nw / max(1, nw + mw),
            "decided_lo": float(lo), "decided_hi": float(hi), "npc_wins": nw, "monster_wins": mw,
            "draws": len(g) - nw - mw,
        })  # fmt: skip
    return rows


def win_matrix(pairings: Any) -> tuple[np.ndarray, list[str]]:
    """The win matrix of a :func:`round_robin` pairing table (players ``npc: X`` and
    ``monster: Y``; a game without a winner is half a win each).

    Examples
    --------
    >>> import pandas as pd
    >>> p = pd.DataFrame({"npc": ["s"], "monster": ["h"], "npc_wins": [6],
    ...                   "monster_wins": [3], "draws": [2]})
    >>> w, names = win_matrix(p)
    >>> names, w.tolist()
    (['npc: s', 'monster: h'], [[0.0, 7.0], [4.0, 0.0]])
    """
    names = [f"npc: {x}" for x in dict.fromkeys(pairings["npc"])]
    names += [f"monster: {x}" for x in dict.fromkeys(pairings["monster"])]
    at = {n: i for i, n in enumerate(names)}
    w = np.zeros((len(names), len(names)))
    for r in pairings.itertuples():
        i, j = at[f"npc: {r.npc}"], at[f"monster: {r.monster}"]
        w[i, j] += r.npc_wins + r.draws / 2
        w[j, i] += r.monster_wins + r.draws / 2
    return w, names


def cycles(pairings: Any) -> list[list[str]]:
    """Every "beats" cycle among the players of a pairing table (each once, from its first
    player in name order); empty when a strength order explains every decided pairing.

    Examples
    --------
    >>> import pandas as pd
    >>> p = pd.DataFrame({"npc": ["a", "a", "b", "b"], "monster": ["x", "y", "x", "y"],
    ...                   "decided_lo": [0.6, 0.1, 0.1, 0.6], "decided_hi": [0.9, 0.4, 0.4, 0.9]})
    >>> cycles(p)
    [['monster: x', 'npc: b', 'monster: y', 'npc: a']]
    """
    beats: dict[str, set[str]] = {}
    for r in pairings.itertuples():
        n, m = f"npc: {r.npc}", f"monster: {r.monster}"
        if r.decided_lo > 0.5:
            beats.setdefault(n, set()).add(m)
        elif r.decided_hi < 0.5:
            beats.setdefault(m, set()).add(n)
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(beats.get(path[-1], ())):
            if nxt == path[0]:
                found.append(list(path))
            elif nxt not in path and nxt > path[0]:
                walk(path + [nxt])

    for start in sorted(beats):
        walk([start])
    return found


def round_robin(
    base: Any = None,
    seeds: Iterable[int] = range(200),
    *,
    npc: Sequence[Entry] = ("scavenger", "hunter", "random"),
    monster: Sequence[Entry] = ("hunter", "scavenger", "random"),
    version: Mapping[str, Any] | None = None,
    executor: Any = None,
    out: Any = None,
    progress: Any = False,
) -> dict[str, Any]:
    """Play every NPC entry against every monster entry on the same seeds.

    Returns ``{"pairings", "ratings", "cycles", "games"}``: the pairing table (win rates,
    balance with intervals), the Bradley–Terry ratings, the beats cycles and the games.

    Examples
    --------
    >>> rr = round_robin(seeds=range(30), npc=["scavenger", "random"], monster=["hunter"])
    >>> rr["pairings"][["npc", "monster", "games"]].values.tolist()
    [['scavenger', 'hunter', 30], ['random', 'hunter', 30]]
    >>> sorted(rr["ratings"]["player"])
    ['monster: hunter', 'npc: random', 'npc: scavenger']
    """
    import pandas as pd

    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.encounter.sim.sweep import sweep

    base = SimulationSettings() if base is None else base
    pairs, points = _design(npc, monster, dict(version or {}))
    games = sweep(base, _filled(base, points), seeds, executor=executor, out=out, progress=progress)
    pairings = pd.DataFrame(_pairing_rows(games, pairs))
    w, names = win_matrix(pairings)
    try:
        ratings = bradley_terry(w, names)
    except ArgumentError:  # a player that never lost: no finite strength to report
        ratings = pd.DataFrame(columns=["player", "strength", "lo", "hi", "games"])
    return {"pairings": pairings, "ratings": ratings, "cycles": cycles(pairings), "games": games,
            "wins": w, "players": names}  # fmt: skip


def policy_balance(
    a: Any, b: Any, seeds: Iterable[int] = range(200), *, base: Any = None,
    npc: Sequence[Entry] = ("scavenger", "hunter", "random"),
    monster: Sequence[Entry] = ("hunter", "scavenger", "random"),
    balanced: float = 0.8, executor: Any = None, progress: Any = False,
) -> Any:  # fmt: skip
    """ "Does B stay balanced against every policy?": per pairing, both versions' balance with
    95 % intervals, the paired difference B − A and whether B's balance is at least
    ``balanced`` (default 0.8: win rates within 20 points).

    A change that the seeds cannot carry an interval for (too few seeds, or a version too
    close to even to say which side leads: :func:`~labkit.encounter.sim.paired.paired_table`'s
    balance row) has NaN ends, and its ``note`` says why and how many seeds would settle it
    (empty when the change has its interval).

    Examples
    --------
    >>> t = policy_balance({}, {"/characters/monster/life": 4}, range(30), npc=["scavenger"],
    ...                    monster=["hunter"])
    >>> list(t.columns)[:4], list(t.columns)[-1], len(t)
    (['npc', 'monster', 'balance_a', 'balance_a_lo'], 'note', 1)
    """
    import pandas as pd

    from labkit.encounter.sim.compare import version_patch
    from labkit.encounter.sim.paired import game_measures, paired_table
    from labkit.encounter.sim.settings import SimulationSettings
    from labkit.encounter.sim.sweep import sweep

    base = SimulationSettings() if base is None else base
    pairs, pts_a = _design(npc, monster, version_patch(a))
    _, pts_b = _design(npc, monster, version_patch(b))
    games = sweep(base, _filled(base, pts_a + pts_b), seeds, executor=executor,
                  progress=progress)  # fmt: skip
    rows = []
    for k, (en, em) in enumerate(pairs):
        ga = games[games["point"] == k].sort_values("seed", kind="stable")
        gb = games[games["point"] == k + len(pairs)].sort_values("seed", kind="stable")
        t = paired_table(game_measures(ga), game_measures(gb), metrics=["balance"],
                         bootstrap=400, rng=k).iloc[0]  # fmt: skip
        rows.append({"npc": en, "monster": em, "balance_a": t["a"], "balance_a_lo": t["a_lo"],
                     "balance_a_hi": t["a_hi"], "balance_b": t["b"], "balance_b_lo": t["b_lo"],
                     "balance_b_hi": t["b_hi"], "diff": t["diff"], "diff_lo": t["diff_lo"],
                     "diff_hi": t["diff_hi"], "b_balanced": bool(t["b"] >= balanced),
                     "games": int(t["pairs"]), "note": t["note"]})  # fmt: skip
    return pd.DataFrame(rows)


def _shipped(base: Any, name: str) -> Any:
    from labkit.encounter.sim.settings import balance_value

    return base.balance.get(name, balance_value(name)) if name.startswith("/") else getattr(
        base, name)  # fmt: skip
