"""Simulated players: a noisy solver with limited look-ahead, for telemetry without a player base.

A :class:`Player` has one parameter, ``skill`` in [0, 1]; everything it does follows from it.
One decision at a time, the player

1. *scans* the board: every tile that can exit now is noticed with probability ``notice``
   (lower for tiles whose path has many turns), and every tile that cannot is mistaken for one
   that can with probability ``careless`` (higher for winding paths) — a careless tap that
   collides and costs a step;
2. taps one of the tiles it believes free (at random);
3. when it sees none, *looks ahead* up to ``lookahead`` rotations each way (clockwise first)
   for an orientation where it notices a free tile, and turns the board there;
4. when the look-ahead finds nothing it is *stuck*: it asks for a hint (probability
   ``hint_rate``) and follows it — the next action of the solver's plan
   (:func:`~labkit.hexpuzzle.solving.solver.search`, as
   :func:`~labkit.hexpuzzle.solving.hints.hint`) — or
   turns the board one step at random;
5. after a collision it undoes the tap (probability ``undo_rate``; ``rescue_rate`` when the
   lost step means the level can no longer be won).

Each action takes time: a scan of the tiles still on the board, reading the chosen tile's
path (per turn), the move itself, and a lognormal factor; slower for weaker players and when
stuck. A player plays up to ``max_attempts`` attempts per level and stops at the first win;
each new attempt adds ``learning`` to its skill (it remembers the board).

Decisions the rules leave open
------------------------------
* The game is played on the level's :class:`~labkit.hexpuzzle.solving.contacts.ContactTable` (the
  exact, memoised form of ``trace_tap``); the tests replay recorded games through
  :class:`~labkit.hexpuzzle.game.PuzzleState` and get the same outcomes and counts.
* An attempt that reaches ``6·N + 30`` actions without ending is abandoned (not won); rotation
  is free, so a lost player could otherwise turn the board for ever.
* An *action* of the cap is one decision: a scan and what follows it (a tap with its undo, a
  turn, a hint request), or one hinted action. Before each one the attempt stops when no tile
  is left (won) or every step of ``move_limit`` is used (lost).
* A careless tap is a tap on a tile still on the board that cannot exit; one uniform per tile
  decides both: noticed when free and below ``notice``, mistaken when blocked and below
  ``careless``. Tiles seen are listed in level order and one is chosen uniformly.
* A collision is *hopeless* when fewer steps are left (after the lost one) than tiles.
* A hint is the first action of :func:`~labkit.hexpuzzle.solving.solver.search` from the
  current orientation and tiles, whatever steps are left; the player takes it as its next
  action, with no scan. When the search finds no plan (unsolvable or exhausted) the player gives
  up the attempt. On a board that cannot rotate there is no look-ahead and a stuck player always
  asks for a hint.
* Time per action, in seconds, each times ``pace`` × a fresh lognormal(0, 0.3) factor: a scan
  1.0 + 0.3 per tile on the board; a tap 1.5 + 0.5 per turn of the tapped tile's path (at the
  current orientation); a rotation 1.2; being stuck 4.0; a hint 2.0; an undo 1.5.
* Draw order of a decision: ``N`` uniforms for the scan (one per tile in level order, tiles gone
  included), the scan's time; if nothing is seen, ``N`` uniforms per orientation the look-ahead
  checks (``+k`` before ``-k``, ``k = 1, 2, …``, up to the first notice) and the turn's time; if
  it finds none, the stuck time, one uniform against ``hint_rate`` (drawn also when the board
  cannot rotate), then the hint's time, or a choice of ``(1, -1)`` and the turn's time;
  otherwise an integer choosing the tile, the tap's time, and after a collision one uniform
  against ``rescue_rate`` / ``undo_rate`` and, when undone, the undo's time. A hinted action
  draws only its time.
* Game ``(level, player)`` draws from the named stream ``"{level.id}/{player.id}"`` of ``rng``,
  so adding levels or players never changes the games already simulated.

Examples
--------
>>> from labkit.hexpuzzle.level import Level
>>> lvl = Level.load(_shipped("02-one-turn.json"))
>>> games = play(lvl, Player("ada", 0.9), rng=1)
>>> games[-1].won, games[-1].rotations >= 1
(True, True)
>>> table = simulate_telemetry([lvl], make_players(3, rng=2), rng=3)
>>> table["level"].tolist()[:1], len(set(table["player"].tolist()))
(['one-turn'], 3)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from labkit import ArgumentError
from labkit.hexpuzzle.difficulty.observed import TIME_REF
from labkit.hexpuzzle.difficulty.telemetry import make_table
from labkit.hexpuzzle.geometry import tile_path
from labkit.hexpuzzle.level import Level
from labkit.hexpuzzle.solving.contacts import ContactTable, contact_table
from labkit.hexpuzzle.solving.solver import search
from labkit.rng import RngLike, make_rng, stream

__all__ = [
    "Game",
    "Player",
    "make_players",
    "play",
    "quits",
    "QUIT_RATE",
    "SKILL_GROUPS",
    "simulate_telemetry",
    "skill_groups",
    "telemetry_from_weights",
]

MAX_ATTEMPTS = 3
#: Default chance of quitting per failure in the current run of failures (progression mode).
QUIT_RATE = 0.25
#: Most players :func:`make_players` / :func:`skill_groups` (per group) make.
MAX_PLAYERS = 100_000


@dataclass(frozen=True)
class Player:
    """A simulated player; all behaviour derives from ``skill`` (0 = novice, 1 = expert).

    Examples
    --------
    >>> p = Player("p1", 0.8)
    >>> p.id, p.skill, Player("p2", 0.2).lookahead <= p.lookahead
    ('p1', 0.8, True)
    """

    id: str
    skill: float

    def __post_init__(self) -> None:
        if not 0.0 <= float(self.skill) <= 1.0:
            raise ArgumentError(
                f"must be in [0, 1] (player {self.id!r})", argument="skill", value=self.skill
            )

    @property
    def lookahead(self) -> int:
        """Rotations each way the player plans ahead (1-3)."""
        return 1 + int(self.skill >= 0.35) + int(self.skill >= 0.7)

    def notice(self, turns: NDArray) -> NDArray:
        """Chance to notice that a free tile is free, per tile (winding paths are missed)."""
        return (0.6 + 0.38 * self.skill) * 0.94 ** np.asarray(turns)

    def careless(self, turns: NDArray) -> NDArray:
        """Chance to mistake a blocked tile for a free one in one scan, per tile."""
        return (0.006 + 0.05 * (1 - self.skill)) * (1 + 0.35 * np.asarray(turns))

    @property
    def hint_rate(self) -> float:
        """Chance to ask for a hint when stuck (else turn the board at random)."""
        return 0.15 + 0.5 * (1 - self.skill)

    @property
    def undo_rate(self) -> float:
        """Chance to undo a collision that does not yet cost the level."""
        return 0.15 + 0.6 * self.skill

    @property
    def rescue_rate(self) -> float:
        """Chance to notice, and undo, a collision that leaves too few steps to win."""
        return 0.2 + 0.75 * self.skill

    @property
    def pace(self) -> float:
        """Time factor of every action (1 for an expert, 2 for a novice)."""
        return 2.0 - self.skill


@dataclass
class Game:
    """One attempt: the telemetry counts and the action log (for replay)."""

    level: str
    player: str
    attempt: int
    won: bool = False
    collisions: int = 0
    hints: int = 0
    rotations: int = 0
    undos: int = 0
    seconds: float = 0.0
    actions: list[tuple[str, object]] = field(default_factory=list)

    def row(self) -> tuple:
        """The telemetry row (``labkit.hexpuzzle.difficulty.telemetry.COLUMNS`` order)."""
        first = self.attempt == 1 and self.won
        return (
            self.level, self.player, self.attempt, first, self.collisions, self.hints,
            self.rotations, self.undos, round(self.seconds, 2), self.won,
        )  # fmt: skip


class _Board:
    """What the simulator needs of a level, computed once: contact table and path turns."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.table: ContactTable = contact_table(level)
        self.n = len(level.tiles)
        self.bits = np.left_shift(np.int64(1), np.arange(self.n, dtype=np.int64))
        orientations = range(6) if level.board.symmetric else range(1)
        self.turns = np.zeros((6, self.n))
        for o in orientations:
            board = level.board.rotated(o)
            self.turns[o] = [tile_path(board, t.q, t.r, t.dir).turns for t in level.tiles]

    def free(self, o: int, remaining: int) -> NDArray[np.bool_]:
        """Tiles on the board that would exit if tapped at orientation ``o``."""
        on = (remaining & self.bits) != 0
        return on & self.table.exits[o] & ((self.table.blockers[o] & remaining) == 0)

    def on(self, remaining: int) -> NDArray[np.bool_]:
        return (remaining & self.bits) != 0


def _attempt(board: _Board, player: Player, skill: float, attempt: int, gen) -> Game:
    me = Player(player.id, min(1.0, skill))
    game = Game(board.level.id, player.id, attempt)
    n, limit, can_rotate = board.n, board.level.move_limit, board.table.rotations
    o, remaining, used = 0, board.table.full, 0
    history: list[tuple[int, int, int]] = []
    plan: list = []  # the rest of a hint being followed
    notice = me.notice(board.turns)  # (6, n) per orientation and tile, drawn against below
    careless = me.careless(board.turns)

    def spend(seconds: float) -> None:
        game.seconds += seconds * me.pace * gen.lognormal(0.0, 0.3)

    def turn(step: int) -> None:
        nonlocal o
        history.append((o, remaining, used))
        o = (o + step) % 6
        game.rotations += 1
        game.actions.append(("rotate", step))
        spend(1.2)

    for _ in range(6 * n + 30):
        if remaining == 0 or used >= limit:
            break
        on = board.on(remaining)
        free = board.free(o, remaining)
        if plan:
            kind, arg = plan.pop(0)
            if kind == "rotate":
                turn(arg)
                continue
            chosen = board.level.tile_index(arg)
        else:
            draw = gen.random(n)
            seen = np.where(free, draw < notice[o], on & (draw < careless[o]))
            spend(1.0 + 0.3 * on.sum())
            candidates = np.flatnonzero(seen)
            if len(candidates) == 0:
                step = (
                    _look_ahead(board, me.lookahead, notice, o, remaining, gen) if can_rotate else 0
                )
                if step:
                    turn(step)
                    continue
                spend(4.0)  # stuck: staring at the board
                if gen.random() < me.hint_rate or not can_rotate:
                    game.hints += 1
                    game.actions.append(("hint", None))
                    spend(2.0)
                    sol = search(board.table, o, remaining)
                    plan = [tuple(a) for a in sol.actions[:1]] if sol.solved else []
                    if not plan:
                        break  # no way on from here: the player gives up this attempt
                else:
                    turn(int(gen.choice((1, -1))))
                continue
            chosen = int(candidates[gen.integers(len(candidates))])
        # tap
        history.append((o, remaining, used))
        used += 1
        game.actions.append(("tap", board.level.tiles[chosen].id))
        spend(1.5 + 0.5 * board.turns[o][chosen])
        if free[chosen]:
            remaining &= ~int(board.bits[chosen])
            continue
        game.collisions += 1
        hopeless = limit - used < bin(remaining).count("1")
        if gen.random() < (me.rescue_rate if hopeless else me.undo_rate):
            o, remaining, used = history.pop()
            game.undos += 1
            game.actions.append(("undo", None))
            spend(1.5)
    game.won = remaining == 0
    return game


def _look_ahead(board: _Board, depth: int, notice: NDArray, o: int, remaining: int, gen) -> int:
    """First rotation step (+1/-1) toward the nearest orientation where a free tile is noticed."""
    for k in range(1, depth + 1):
        for step in (1, -1):
            o2 = (o + step * k) % 6
            free = board.free(o2, remaining)
            if (free & (gen.random(board.n) < notice[o2])).any():
                return step
    return 0


def play(
    level: Level,
    player: Player,
    rng: RngLike = None,
    *,
    max_attempts: int = MAX_ATTEMPTS,
    learning: float = 0.1,
) -> list[Game]:
    """Let ``player`` play ``level`` until it wins or has used ``max_attempts`` attempts.

    Returns
    -------
    list of Game
        One per attempt, in order; only the last can be won.
    """
    if not level.tiles:
        raise ArgumentError("has no tiles: nothing to play", argument="level", value=level.id)
    return _play_board(_Board(level), player, make_rng(rng), max_attempts, learning)


def _play_board(
    board: _Board, player: Player, gen: np.random.Generator, max_attempts: int, learning: float
) -> list[Game]:
    games: list[Game] = []
    for attempt in range(1, max_attempts + 1):
        games.append(_attempt(board, player, player.skill + learning * (attempt - 1), attempt, gen))
        if games[-1].won:
            break
    return games


def make_players(
    n: int,
    rng: RngLike = None,
    *,
    skill: float | tuple[float, float] = (0.0, 1.0),
    prefix: str = "p",
) -> list[Player]:
    """``n`` players ``{prefix}000…`` with skills drawn uniformly from ``skill`` (or all equal).

    Examples
    --------
    >>> [p.id for p in make_players(2, rng=0, skill=0.5, prefix="mid")]
    ['mid000', 'mid001']
    """
    from labkit._args import check_int

    n = check_int(n, "n", 0, MAX_PLAYERS)
    gen = make_rng(rng)
    lo, hi = (skill, skill) if isinstance(skill, (int, float)) else skill
    skills = gen.uniform(lo, hi, size=int(n)) if hi > lo else np.full(int(n), float(lo))
    return [Player(f"{prefix}{i:03d}", float(s)) for i, s in enumerate(skills)]


#: Skill ranges of the three player groups used by the sample telemetry and the notebook.
SKILL_GROUPS = {"novice": (0.0, 0.35), "regular": (0.35, 0.7), "expert": (0.7, 1.0)}


def skill_groups(n_each: int, rng: RngLike = None) -> list[Player]:
    """``n_each`` players of each :data:`SKILL_GROUPS` group (ids ``novice000``, …).

    Each group draws its skills from the named stream of its name.

    Examples
    --------
    >>> [p.id for p in skill_groups(1, rng=0)]
    ['novice000', 'regular000', 'expert000']
    """
    from labkit._args import check_int

    check_int(n_each, "n_each", 0, MAX_PLAYERS)
    root = make_rng(rng)
    return [
        player
        for name, span in SKILL_GROUPS.items()
        for player in make_players(n_each, stream(root, name), skill=span, prefix=name)
    ]


def simulate_telemetry(
    levels: Sequence[Level],
    players: Sequence[Player] | int,
    rng: RngLike = None,
    *,
    max_attempts: int = MAX_ATTEMPTS,
    progress: bool = False,
    mode: str = "all",
    quit_rate: float = QUIT_RATE,
    quit_ability: float = 0.0,
    learning: float = 0.1,
) -> NDArray:
    """Players play levels; the attempts as a telemetry table.

    Parameters
    ----------
    levels : sequence of Level
        Any levels with tiles (a campaign, generated or hand-made ones); in ``"progression"``
        mode, the order they are met in.
    players : sequence of Player, or int
        The players, or how many to make with :func:`make_players` (skills uniform in [0, 1],
        drawn from the stream ``"players"`` of ``rng``).
    rng : int, SeedSequence or Generator
        Game ``(level, player)`` uses the named stream ``"{level.id}/{player.id}"``; a
        player's decisions to quit use ``"quit/{player.id}"``.
    max_attempts : int
        Attempts per player and level (stops at the first win).
    progress : bool
        Show a tqdm progress bar.
    mode : {"all", "progression"}
        ``"all"`` (the default): every player plays every level. ``"progression"``: each player
        plays the levels in order and, after every level not won at the first try, quits with
        probability ``min(1, quit_rate × run)``, where ``run`` counts the failures in a row.
        Weaker players fail more, so they quit earlier and late levels are seen mostly by
        strong players: the selection bias of a real campaign. Quitting depends only on
        outcomes in the telemetry (missing at random), and the games played are the very games
        ``"all"`` mode plays with the same seed.
    quit_rate : float
        Chance of quitting per failure in the current run (``"progression"`` mode).
    quit_ability : float
        c ≥ 0 makes weaker players less persistent given the same outcomes (quitting *not*
        at random): the chance becomes σ(logit(min(1, quit_rate × run)) − c·a), with
        a = (skill − 0.5) / 0.25 the player's skill in quarters from the middle. 0 (the
        default) is today's rule, and the same games and quits as before.
    learning : float
        Skill added per retry (the player remembers the board); 0.1 as before.

    Returns
    -------
    numpy structured array
        Columns of :data:`labkit.hexpuzzle.difficulty.telemetry.COLUMNS`, one row per attempt.

    Examples
    --------
    >>> lvl = Level.load(_shipped("02-one-turn.json"))
    >>> t = simulate_telemetry([lvl], 2, rng=1, mode="progression")
    >>> sorted(set(t["player"].tolist()))
    ['p000', 'p001']
    """
    from tqdm.auto import tqdm

    if mode not in ("all", "progression"):
        raise ArgumentError("must be 'all' or 'progression'", argument="mode", value=mode)
    if not 0.0 <= float(quit_rate) <= 1.0:
        raise ArgumentError("must be in [0, 1]", argument="quit_rate", value=quit_rate)
    for name, v in (("quit_ability", quit_ability), ("learning", learning)):
        if not (np.isfinite(float(v)) and 0.0 <= float(v) <= 10.0):
            raise ArgumentError("must be a number in [0, 10]", argument=name, value=v)
    root = make_rng(rng)
    if isinstance(players, (int, np.integer)):
        players = make_players(int(players), stream(root, "players"))
    ids = [lv.id for lv in levels]
    if len(set(ids)) != len(ids):
        raise ArgumentError(
            "ids must be unique to join telemetry to levels", argument="levels", value=ids
        )
    rows = []
    if mode == "all":
        for level in tqdm(levels, desc="simulating players", unit="level", disable=not progress):
            for player in players:
                gen = stream(root, f"{level.id}/{player.id}")
                rows += [
                    g.row()
                    for g in play(level, player, gen, max_attempts=max_attempts, learning=learning)
                ]
        return make_table(rows)
    boards: dict[str, _Board] = {}  # contact tables are built once per level, not once per player
    for player in tqdm(players, desc="simulating players", unit="player", disable=not progress):
        quit_gen, run = stream(root, f"quit/{player.id}"), 0
        for level in levels:
            board = boards.get(level.id) or boards.setdefault(level.id, _Board(level))
            gen = stream(root, f"{level.id}/{player.id}")
            games = _play_board(board, player, gen, max_attempts, learning)
            rows += [g.row() for g in games]
            run = 0 if games[0].won else run + 1
            if quits(run, quit_rate, quit_gen, ability=(player.skill - 0.5) / 0.25, c=quit_ability):
                break
    return make_table(rows)


def quits(
    run: int, quit_rate: float, gen: np.random.Generator, *, ability: float = 0.0, c: float = 0.0
) -> bool:
    """Whether a player quits after ``run`` first-try failures in a row (one draw per call):
    with probability min(1, quit_rate × run), its log-odds lowered by ``c × ability``.

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> quits(0, 0.5, gen), quits(4, 0.5, gen)
    (False, True)
    """
    q = min(1.0, quit_rate * run)
    if c and 0.0 < q < 1.0:
        q = 1.0 / (1.0 + (1.0 - q) / q * math.exp(c * ability))
    return bool(gen.random() < q)


def _shipped(name: str):
    from labkit.hexpuzzle.solving.solver import _shipped as path

    return path(name)


def telemetry_from_weights(
    levels: Sequence,
    weights: Mapping[str, float],
    players: int = 200,
    rng: RngLike = None,
    *,
    intercept: float = 0.0,
    time_ref: float = TIME_REF,
) -> NDArray:
    """Synthetic telemetry whose *expected* observed index is ``intercept + Σ w_j x_j``.

    For checking :func:`~labkit.hexpuzzle.difficulty.fit.calibrate`: with ``p`` that target / 100
    (clipped to [0, 1]), each player makes one attempt per level with ``won ~ Bernoulli(1 − p)``,
    ``collisions ~ Binomial(N, p)``, a hint and an undo each with probability ``p`` and
    ``seconds = time_ref × Beta(4p, 4(1 − p))``, so every component of
    :mod:`~labkit.hexpuzzle.difficulty.observed` has expectation ``p``. Rotations are ``R`` plus
    ``Poisson(2p)`` noise (not in the index).

    Parameters
    ----------
    levels : sequence of Level or Difficulty
    weights : mapping
        Points per part at full strength; parts not named weigh 0.
    players : int
        Players per level (ids ``s000…``).

    Examples
    --------
    >>> from labkit.hexpuzzle.difficulty.fit import example_difficulties
    >>> levels = example_difficulties(3, rng=1)
    >>> rows = telemetry_from_weights(levels, {"rotation": 60}, players=10, rng=2)
    >>> len(rows), sorted(set(rows["level"].tolist()))
    (30, ['x00', 'x01', 'x02'])
    """
    from labkit.hexpuzzle.difficulty.calibration import strengths
    from labkit.hexpuzzle.difficulty.scoring import PARTS, Difficulty, score

    unknown = set(weights) - set(PARTS)
    if unknown:
        raise ArgumentError(
            f"unknown parts; the parts are {PARTS}", argument="weights", value=sorted(unknown)
        )
    w = np.array([float(weights.get(p, 0.0)) for p in PARTS])
    gen = make_rng(rng)
    rows = []
    for lv in levels:
        d = lv if isinstance(lv, Difficulty) else score(lv)
        p = float(np.clip((intercept + strengths(d) @ w) / 100.0, 0.0, 1.0))
        k = int(players)
        won = gen.random(k) >= p
        collisions = gen.binomial(d.N, p, k)
        hints, undos = gen.random(k) < p, gen.random(k) < p
        if 0.0 < p < 1.0:
            seconds = time_ref * gen.beta(4 * p, 4 * (1 - p), k)
        else:
            seconds = np.full(k, time_ref * p)
        rotations = (d.R or 0) + gen.poisson(2 * p, k)
        for j in range(k):
            rows.append(
                (d.level_id, f"s{j:03d}", 1, bool(won[j]), int(collisions[j]), int(hints[j]),
                 int(rotations[j]), int(undos[j]), round(float(seconds[j]), 2), bool(won[j]))
            )  # fmt: skip
    return make_table(rows)
