"""Playing a population through a campaign: the tables the kernel reads, and the :class:`Funnel`.

A *world* here is everything the kernel needs: per level and attempt the logit of winning, per
level, attempt and outcome the logit of stopping after it, both on an ability grid, and the
ability distribution (normal). :class:`FunnelWorld` builds one from plain numbers (a known
truth for tests and what-ifs); :func:`~labkit.hexpuzzle.playthrough.model.funnel` builds one per
parametric draw from a fitted skill model. :func:`run` plays ``players`` players in each of
several worlds and turns the counts into a :class:`Funnel` whose 95 % intervals are the
2.5 and 97.5 percentiles over the worlds (so they hold the spread of the parameter draws *and*
the Monte-Carlo noise of a cohort of ``players``), and whose values are the medians (always
inside their interval).

Examples
--------
>>> world = FunnelWorld([-1.0, 0.0, 1.0], ability_sd=0.0, quit={"baseline": -1.0})
>>> f = world.funnel(players=2000, rng=1)
>>> f.level_ids, f.value("reach")[0]
(('L01', 'L02', 'L03'), 1.0)
>>> bool(f.value("reach")[1] > f.value("reach")[2])
True
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit._args import check_int
from labkit.hexpuzzle.playthrough import _kernels
from labkit.rng import RngLike, make_rng, stream

__all__ = ["MEASURES", "QUIT_TERMS", "Funnel", "FunnelWorld", "Tables", "quit_logit", "run"]

#: What a funnel reports per level, in designer words.
MEASURES = {
    "reach": "share of players who reach the level",
    "first_try": "share of those who reach it who win at the first try",
    "attempts_per_clear": "attempts played at the level per player who clears it",
    "quit_hazard": "share of those who reach it who stop playing there",
    "seconds": "expected seconds spent at the level by a player who reaches it",
}
#: Grid nodes the logit tables are given on (ability mean ± 6 sd).
GRID = 49
#: Players drawn per kernel call (abilities and seeds held in memory).
CHUNK = 65536
MAX_PLAYERS = 10_000_000


@dataclass(frozen=True, eq=False)
class Tables:
    """One world as the kernel reads it (see :mod:`labkit.hexpuzzle.playthrough._kernels`).

    Examples
    --------
    >>> t = FunnelWorld([0.0, 1.0]).tables()
    >>> t.win.shape, t.quit.shape
    ((2, 3, 49), (2, 3, 2, 11, 49))
    """

    level_ids: tuple[str, ...]
    win: NDArray[np.float64]  # (L, K, G) logits
    quit: NDArray[np.float64]  # (L, K, 2, RUNS, G) logits, -inf = never
    grid0: float
    step: float
    ability_mean: float
    ability_sd: float
    moves_on: bool = True
    #: mean seconds of a won / lost attempt per level (NaN: no time data)
    seconds_won: NDArray[np.float64] | None = None
    seconds_lost: NDArray[np.float64] | None = None

    @property
    def grid(self) -> NDArray[np.float64]:
        """The ability grid (logits)."""
        return self.grid0 + self.step * np.arange(self.win.shape[2], dtype=np.float64)


def reorder(tables: Tables, order: Sequence[int]) -> Tables:
    """The same world with its levels played in ``order`` (indices into the current order).

    What belongs to a level (its win table, its times) moves with it; what belongs to a place
    in the campaign (the stop table: position and run) stays.

    Examples
    --------
    >>> t = FunnelWorld([0.0, 2.0]).tables()
    >>> r = reorder(t, [1, 0])
    >>> r.level_ids, bool(r.win[0, 0, 24] < r.win[1, 0, 24])
    (('L02', 'L01'), True)
    """
    from dataclasses import replace

    idx = [int(i) for i in order]
    if sorted(idx) != list(range(len(tables.level_ids))):
        raise ArgumentError("must be a permutation of the levels", argument="order", value=idx)
    moved: dict[str, Any] = {"level_ids": tuple(tables.level_ids[i] for i in idx),
                             "win": tables.win[idx]}  # fmt: skip
    if tables.seconds_won is not None and tables.seconds_lost is not None:
        moved["seconds_won"], moved["seconds_lost"] = (
            tables.seconds_won[idx],
            tables.seconds_lost[idx],
        )
    return replace(tables, **moved)


def ability_grid(mean: float, sd: float) -> tuple[float, float]:
    """First node and step of the grid over mean ± 6 sd (a tiny grid when sd is 0)."""
    half = 6.0 * max(float(sd), 1e-3)
    return mean - half, 2.0 * half / (GRID - 1)


#: The terms of the logistic stop model, in the skill model's order (QUIT_TERMS).
QUIT_TERMS = ("baseline", "ability", "won", "run", "attempts", "position")
#: Runs of levels not won at the first try the stop model tells apart (0-10; more count as 10).
RUNS = 11


def quit_logit(coef, ability, *, position, won, attempt, run):
    """logit P(stop after a level) = baseline + ability·θ + won·[won] + run·min(run, 10)
    + attempts·(min(attempt, 6) − 1) + position·position/10 (``position`` 0-based)."""
    c = {t: float(coef.get(t, 0.0)) for t in QUIT_TERMS}
    return (c["baseline"] + c["ability"] * np.asarray(ability) + c["won"] * np.asarray(won)
            + c["run"] * np.minimum(run, RUNS - 1)
            + c["attempts"] * (np.minimum(attempt, 6) - 1)
            + c["position"] * np.asarray(position) / 10.0)  # fmt: skip


def world_tables(
    ids: Sequence[str],
    difficulty: NDArray,
    *,
    ability_mean: float,
    ability_sd: float,
    learning: float,
    discrimination: NDArray | None,
    p_quit,
    max_attempts: int,
    moves_on: bool = True,
    times: tuple[NDArray, NDArray] | None = None,
) -> Tables:
    """Tables of the skill model's formulas: win σ(α(θ − β) + λ(min(k, 6) − 1)); stopping
    from ``p_quit(θ, position=, won=, attempt=, run=)`` (None: nobody stops), broadcast once."""
    g0, dg = ability_grid(ability_mean, ability_sd)
    grid = g0 + dg * np.arange(GRID, dtype=np.float64)
    n, k = len(difficulty), max_attempts
    alpha = np.ones(n) if discrimination is None else np.asarray(discrimination, dtype=float)
    step = learning * (np.minimum(np.arange(1, k + 1), 6) - 1)
    win = alpha[:, None, None] * (grid[None, None, :] - difficulty[:, None, None])
    win = win + step[None, :, None]
    quit = np.full((n, k, 2, RUNS, GRID), -np.inf)
    if p_quit is not None:
        pos = np.arange(n)[:, None, None, None, None]
        att = np.arange(1, k + 1)[None, :, None, None, None]
        won = np.array([False, True])[None, None, :, None, None]
        run = np.arange(RUNS)[None, None, None, :, None]
        p = np.broadcast_to(p_quit(grid, position=pos, won=won, attempt=att, run=run), quit.shape)
        with np.errstate(divide="ignore"):
            quit = np.log(p) - np.log1p(-p)
        quit = np.where(p > 0, np.clip(quit, -30.0, 30.0), -np.inf)
    won_s, lost_s = times if times is not None else (None, None)
    return Tables(tuple(ids), win, quit, g0, dg, float(ability_mean), float(ability_sd),
                  bool(moves_on), won_s, lost_s)  # fmt: skip


@dataclass(frozen=True)
class FunnelWorld:
    """A known world: levels, a normal population, retry learning, logistic quitting.

    A player of ability θ wins attempt ``k`` of level ``l`` with probability
    σ(θ − β_l + learning·(min(k, 6) − 1)); once a level is over, it stops playing with the
    probability :func:`quit_logit` gives for ``quit`` (a dict of :data:`QUIT_TERMS`; empty:
    nobody stops). These are the skill model's formulas, so a fitted model can be checked
    against the world its telemetry came from.

    Examples
    --------
    >>> w = FunnelWorld([0.0, 0.0], ability_sd=0.0, max_attempts=1, quit={"baseline": 0.0})
    >>> f = w.funnel(players=4000, rng=0)
    >>> f.value("first_try")[0], f.value("quit_hazard")[0], f.value("reach")[1]  # σ(0) = 0.5
    (0.5, 0.5, 0.5)
    """

    difficulty: Sequence[float]
    ability_sd: float = 1.0
    ability_mean: float = 0.0
    learning: float = 0.0
    quit: dict[str, float] = field(default_factory=dict)
    max_attempts: int = 3
    moves_on: bool = True
    level_ids: Sequence[str] | None = None

    def p_quit(self, ability, *, position, won, attempt, run=None):
        """P(stop after a level), as the skill model's quit model (run: 0 after a first-try
        win, else 1, when not given)."""
        if not self.quit:
            return np.zeros(np.broadcast(np.asarray(ability), position, won, attempt).shape)
        if run is None:
            run = np.where(np.asarray(won) & (np.asarray(attempt) == 1), 0, 1)
        x = quit_logit(self.quit, ability, position=position, won=won, attempt=attempt, run=run)
        return 1.0 / (1.0 + np.exp(-x))

    def tables(self) -> Tables:
        """The kernel's tables for this world."""
        beta = np.asarray(self.difficulty, dtype=np.float64)
        if beta.ndim != 1 or len(beta) == 0 or not np.isfinite(beta).all():
            raise ArgumentError("must be one finite number per level", argument="difficulty",
                                value=self.difficulty)  # fmt: skip
        unknown = set(self.quit) - set(QUIT_TERMS)
        if unknown:
            raise ArgumentError(f"unknown terms; the terms are {QUIT_TERMS}", argument="quit",
                                value=sorted(unknown))  # fmt: skip
        k = check_int(self.max_attempts, "max_attempts", 1, 100)
        if not (np.isfinite(self.ability_sd) and self.ability_sd >= 0):
            raise ArgumentError("must be >= 0", argument="ability_sd", value=self.ability_sd)
        n = len(beta)
        ids = tuple(self.level_ids) if self.level_ids else tuple(f"L{i + 1:02d}" for i in range(n))
        if len(ids) != n:
            raise ArgumentError(f"must name {n} levels", argument="level_ids", value=ids)
        return world_tables(ids, beta, ability_mean=self.ability_mean,
                            ability_sd=self.ability_sd, learning=self.learning,
                            discrimination=None, p_quit=self.p_quit if self.quit else None,
                            max_attempts=k, moves_on=self.moves_on)  # fmt: skip

    def funnel(self, players: int = 10_000, *, draws: int = 20, rng: RngLike = None) -> Funnel:
        """Play ``draws`` cohorts of ``players`` in this world (intervals: Monte-Carlo only)."""
        draws = check_int(draws, "draws", 1, 10_000)
        return run([self.tables()] * draws, players, rng)


def counts(tables: Tables, players: int, gen: np.random.Generator) -> NDArray[np.int64]:
    """Kernel counts (5, L) of ``players`` players drawn from the world's population."""
    n_levels = tables.win.shape[0]
    out = np.zeros((5, n_levels), dtype=np.int64)
    win = np.ascontiguousarray(tables.win)
    quit = np.ascontiguousarray(tables.quit)
    for start in range(0, players, CHUNK):
        m = min(CHUNK, players - start)
        theta = tables.ability_mean + tables.ability_sd * gen.standard_normal(m)
        seeds = gen.integers(0, 2**64, size=m, dtype=np.uint64)
        _kernels.play(theta, seeds, tables.grid0, tables.step, win, quit, tables.moves_on, out)
    return out


def measures(c: NDArray, players: int, tables: Tables) -> dict[str, NDArray]:
    """Per-level measures of one cohort's counts (NaN where nobody reached / cleared)."""
    reached, first, cleared, attempts, left = (c[i].astype(float) for i in range(5))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {
            "reach": reached / players,
            "first_try": first / reached,
            # A level reached but never cleared has no attempts per clear: NaN, not inf
            # (an inf would drag the cohorts' percentiles; NaN leaves the cohort out).
            "attempts_per_clear": np.where(cleared > 0, attempts / cleared, np.nan),
            "quit_hazard": left / reached,
        }
        if tables.seconds_won is not None and tables.seconds_lost is not None:
            lost = attempts - cleared
            out["seconds"] = (cleared * tables.seconds_won + lost * tables.seconds_lost) / reached
    out["finished"] = np.array([c[2, -1] / players])
    return out


def run(worlds: Sequence[Tables], players: int, rng: RngLike = None) -> Funnel:
    """Play ``players`` players in each world; the funnel of medians and 2.5–97.5 percentiles.

    Cohort ``b`` draws from the named stream ``"cohort/{b}"`` of ``rng``.

    Examples
    --------
    >>> f = run([FunnelWorld([0.0, 0.5]).tables()] * 4, 500, rng=2)
    >>> f.draws, f.players, f.value("reach")[0]
    (4, 500, 1.0)
    """
    players = check_int(players, "players", 1, MAX_PLAYERS)
    if not worlds:
        raise ArgumentError("need at least one world", argument="worlds", value=len(worlds))
    root = make_rng(rng)
    per_draw = [measures(counts(t, players, stream(root, f"cohort/{b}")), players, t)
                for b, t in enumerate(worlds)]  # fmt: skip
    names = [m for m in (*MEASURES, "finished") if m in per_draw[0]]
    stats = {}
    for name in names:
        a = np.stack([d[name] for d in per_draw])  # (draws, L)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN: nobody got that far
            lo, mid, hi = np.nanpercentile(a, [2.5, 50.0, 97.5], axis=0)
        stats[name] = np.column_stack([mid, lo, hi])
    samples = {name: np.stack([d[name] for d in per_draw]) for name in names}
    seed = int(rng) if isinstance(rng, (int, np.integer)) else None
    return Funnel(worlds[0].level_ids, stats, players=players, draws=len(worlds),
                  notes={"seed": seed}, samples=samples)  # fmt: skip


#: A level's check of the model against its data (:attr:`Funnel.check`), in designer words
#: (the funnel's table, its plot's legend; :mod:`labkit.hexpuzzle.playthrough.model`).
CHECK = {
    "fits": "fits the data",
    "misses": "the data disagree: band widened to them",
    "none": "no data to check",
}


@dataclass(frozen=True, eq=False)
class Funnel:
    """Per level: reach, first-try success, attempts per clear, quit hazard (and time).

    ``stats[name]`` is an (L, 3) array of value, low, high (95 %); see :data:`MEASURES`.
    ``stats["finished"]`` (1, 3) is the share of all players who clear the last level.

    Examples
    --------
    >>> f = FunnelWorld([-2.0, 2.0], ability_sd=0.0, quit={"baseline": -2.0}).funnel(1000, rng=0)
    >>> row = f.rows()[1]
    >>> row["level"], 0 < row["reach"] < 1, row["reach_low"] <= row["reach"] <= row["reach_high"]
    ('L02', True, True)
    """

    level_ids: tuple[str, ...]
    stats: dict[str, NDArray[np.float64]]
    players: int
    draws: int
    notes: dict[str, object] = field(default_factory=dict)
    #: every cohort's measures, name → (draws, L) (for paired comparisons)
    samples: dict[str, NDArray[np.float64]] = field(default_factory=dict, repr=False)
    #: per level, the check of the model against its data in designer words (empty: no check;
    #: see :mod:`labkit.hexpuzzle.playthrough.model`)
    check: tuple[str, ...] = ()

    def value(self, name: str) -> list[float]:
        """The values of one measure, level by level, rounded for reading (3 decimals)."""
        return [round(float(v), 3) for v in self._stat(name)[:, 0]]

    def interval(self, name: str) -> NDArray[np.float64]:
        """(L, 2) low and high of one measure."""
        return self._stat(name)[:, 1:]

    def _stat(self, name: str) -> NDArray[np.float64]:
        if name not in self.stats:
            raise ArgumentError(f"not in this funnel; it has {sorted(self.stats)}",
                                argument="name", value=name)  # fmt: skip
        return self.stats[name]

    @property
    def widened(self) -> tuple[bool, ...]:
        """Per level, whether the check found the data disagreeing with the model there (its
        bands widened to the data); empty without a check."""
        return tuple(c == CHECK["misses"] for c in self.check)

    @property
    def finished(self) -> float:
        """Share of players who clear the last level."""
        return float(self.stats["finished"][0, 0])

    def rows(self) -> list[dict[str, object]]:
        """One dict per level: position, id, each measure with its low and high, and the
        model's ``check`` against its data when the funnel has one."""
        out = []
        for i, lid in enumerate(self.level_ids):
            row: dict[str, object] = {"position": i + 1, "level": lid}
            for name in MEASURES:
                if name in self.stats:
                    v, lo, hi = (float(x) for x in self.stats[name][i])
                    row[name], row[f"{name}_low"], row[f"{name}_high"] = v, lo, hi
            if self.check:
                row["check"] = self.check[i]
            out.append(row)
        return out

    def exits(self, top: int = 3) -> list[tuple[str, float]]:
        """The ``top`` levels where most of the starting players stop (level, share of all)."""
        reach = self.stats["reach"][:, 0]
        lost = np.nan_to_num(reach * self.stats["quit_hazard"][:, 0])
        order = np.argsort(-lost, kind="stable")[:top]
        return [(self.level_ids[i], float(lost[i])) for i in order]

    def save(self, path) -> None:
        """Write :meth:`rows` as CSV, atomically (ids that would read as formulas get a ``'``)."""
        from labkit.hexpuzzle.playthrough.report import write_csv

        write_csv(self, path)

    def __repr__(self) -> str:
        top = ", ".join(f"{lid} {share:.0%}" for lid, share in self.exits(2))
        return (f"Funnel({len(self.level_ids)} levels, {self.finished:.0%} finish; most leave at "
                f"{top}; {self.draws} draws × {self.players} players)")  # fmt: skip

    def _repr_html_(self) -> str:
        from labkit.hexpuzzle.playthrough.report import html_table

        return html_table(self)

    def plot(self, ax=None, *, baseline: Funnel | None = None):
        """Reach curve with its band, quit-hazard bars and attempts per clear (matplotlib);
        ``ax``: three axes (default: a new figure's); ``baseline``: a funnel drawn beneath."""
        from labkit.hexpuzzle.playthrough.draw import plot_funnel

        return plot_funnel(self, ax=ax, baseline=baseline)

    def draw(self, artists: Any, *, baseline: Funnel | None = None) -> Any:
        """Move ``artists`` to this funnel in place, for fast redraws; ``artists`` is what the
        previous call returned, or three axes for the first call. Returns the artists.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> _, axes = plt.subplots(1, 3)
        >>> f = FunnelWorld([0.0, 1.0], quit={"baseline": -1.0}).funnel(300, draws=3, rng=0)
        >>> art = f.draw(axes)
        >>> art is f.draw(art), len(art["stop"].patches)
        (True, 2)
        """
        from labkit.hexpuzzle.playthrough.draw import draw_funnel, update_funnel

        if not isinstance(artists, dict):
            artists = draw_funnel(artists, len(self.level_ids))
        update_funnel(artists, self, baseline)
        return artists
