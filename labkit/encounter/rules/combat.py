"""Combat (rule E2): loadouts, one exchange, whole fights, and their Monte-Carlo estimates.

A :class:`Loadout` (character base + weapon + armour + stealth) composes into a
:class:`Fighter`: hit level = base hit + weapon HitScore (+ stealth bonus in the first round),
pursuit level = base pursuit + weapon pursuit grade, agility = base + weapon + armour. The curve
decides whether a blow lands; life and protection decide whether it kills.

Decisions the rules leave open, recorded here (one kernel, ``_kernels.exchange``, implements
them for both the session and the Monte Carlo):

* **One exchange.** Each side submits ``"attack"`` or ``"retreat"``.
  Both retreat: the fight ends, *parted*. One retreats: the attacker makes one pursuit attempt
  (only if its weapon's pursuit grade is > 0; pursuit table); if the retreating side survives it
  *escapes*. Both attack: round 1's order follows first strike (higher first), a tie and every
  later round draw the priority rule for side A; the first striker strikes (hit table), then the
  second strikes back if still alive.
* **Stealth** (an ambush) adds ``combat.stealth_hit_bonus`` to the hit level in round 1 only:
  once a blow is struck the ambusher is seen.
* **Wounds.** A landed blow takes ``max(min_wound, damage − target protection)`` life; life ≤ 0
  is death. A fight not over after ``combat.max_rounds`` is a *stalemate*.
* **Ammo.** A weapon with ammo spends one loaded round per strike or pursuit; with an empty
  magazine the attempt still happens but cannot land.
* **Draw order** (so that replays and the reference agree): priority draw (when drawn), then one
  uniform per strike or pursuit attempt, in acting order; a pursuit with grade ≤ 0 draws nothing.
* **Monte-Carlo policies.** :func:`simulate_fights` plays *threshold* policies: a side attacks
  while its life is above its loadout's ``retreat_at`` (0 = fight to the death), else retreats.

Examples
--------
>>> knife = Loadout(weapon="long_knife")
>>> gun = Loadout(weapon="revolver", armour="leather_coat")
>>> a, b = compose(knife), compose(gun)
>>> (a.hit, a.agility, a.first_strike), (b.hit, b.agility, b.protection)
((2, 2, 2), (3, -1, 1))
>>> stats = simulate_fights(knife, gun, 2000, rng=7)
>>> 0 < stats.win_a < 1 and stats.n == 2000
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from labkit import ArgumentError, LabkitError, _renamed
from labkit.encounter import _kernels
from labkit.encounter.rules.balance import Balance, default_balance
from labkit.rng import RngLike, make_rng

__all__ = [
    "CombatError",
    "Loadout",
    "Fighter",
    "compose",
    "Fight",
    "Exchange",
    "FIGHT_OUTCOMES",
    "simulate_fights",
    "FightStats",
    "sample_hits",
    "wilson_interval",
]

FIGHT_OUTCOMES = ("continue", "a_wins", "b_wins", "a_escaped", "b_escaped", "parted", "stalemate")
ACTIONS = {"attack": _kernels.ATTACK, "retreat": _kernels.RETREAT}


class CombatError(LabkitError):
    """A loadout or fight request that the balance cannot serve."""


@dataclass(frozen=True)
class Loadout:
    """What a fighter brings: character base, equipped weapon (None = natural) and armour.

    ``ammo`` is the loaded rounds (None = a full magazine); ``life`` overrides the base life (a
    wounded actor); ``retreat_at`` is the Monte-Carlo policy threshold.

    Examples
    --------
    >>> Loadout().character, Loadout().weapon, Loadout("monster", life=3).life
    ('npc', None, 3)
    """

    character: str = "npc"
    weapon: str | None = None
    armour: str | None = None
    stealth: bool = False
    ammo: int | None = None
    life: int | None = None
    retreat_at: int = 0


@dataclass(frozen=True)
class Fighter:
    """Composed combat levels of one side (what the kernels read)."""

    hit: int
    pursuit: int
    grade: int
    agility: int
    first_strike: int
    protection: int
    damage: int
    uses_ammo: int
    ambush: int
    retreat_at: int
    life: int
    ammo: int

    def row(self) -> np.ndarray:
        """The kernel's fighter row (columns :data:`labkit.encounter._kernels.COLUMNS`)."""
        return np.array([getattr(self, c) for c in _kernels.COLUMNS], dtype=np.int64)


def compose(loadout: Loadout, balance: Balance | None = None) -> Fighter:
    """Compose a loadout's levels from the balance data.

    Raises
    ------
    ArgumentError
        Unknown character, weapon or armour, or a negative ammo/life (naming the field).

    Examples
    --------
    >>> f = compose(Loadout())
    >>> f.damage == default_balance().weapons["fists"].damage, f.uses_ammo
    (True, 0)
    """
    b = default_balance() if balance is None else balance
    if loadout.character not in b.characters:
        raise ArgumentError(
            "unknown character", argument="loadout.character", value=loadout.character
        )
    base = b.characters[loadout.character]
    wname = base.weapon if loadout.weapon is None else loadout.weapon
    if wname not in b.weapons:
        raise ArgumentError("unknown weapon", argument="loadout.weapon", value=wname)
    w = b.weapons[wname]
    if loadout.armour is not None and loadout.armour not in b.armour:
        raise ArgumentError("unknown armour", argument="loadout.armour", value=loadout.armour)
    arm = b.armour.get(loadout.armour) if loadout.armour else None
    ammo = w.magazine if loadout.ammo is None else loadout.ammo
    if ammo < 0 or ammo > max(w.magazine, 0) and w.ammo is not None:
        raise ArgumentError(f"must be 0-{w.magazine}", argument="loadout.ammo", value=ammo)
    life = base.life if loadout.life is None else loadout.life
    if life < 1:
        raise ArgumentError("must be at least 1", argument="loadout.life", value=life)
    return Fighter(
        hit=base.hit + w.hit_score,
        pursuit=base.pursuit + w.pursuit,
        grade=w.pursuit,
        agility=base.agility + w.agility + (arm.agility if arm else 0),
        first_strike=base.first_strike + w.first_strike,
        protection=arm.protection if arm else 0,
        damage=w.damage,
        uses_ammo=int(w.ammo is not None),
        ambush=b.stealth_hit_bonus if loadout.stealth else 0,
        retreat_at=loadout.retreat_at,
        life=life,
        ammo=ammo if w.ammo is not None else 0,
    )


def _fighter(x: Loadout | Fighter, balance: Balance) -> Fighter:
    return x if isinstance(x, Fighter) else compose(x, balance)


@dataclass(frozen=True)
class Exchange:
    """One round: ``outcome`` (see :data:`FIGHT_OUTCOMES`), who struck first, lives after."""

    round: int
    outcome: str
    first: int | None
    life: tuple[int, int]
    ammo: tuple[int, int]

    @property
    def over(self) -> bool:
        return self.outcome != "continue"


@dataclass
class Fight:
    """A fight between side A (0) and side B (1), advanced one exchange at a time.

    Holds only the fight's own numbers (lives, ammo, round, counters) — the session owns actors.

    Examples
    --------
    >>> import numpy as np
    >>> fight = Fight(Loadout(weapon="long_knife"), Loadout(character="monster"))
    >>> rng = np.random.default_rng(1)
    >>> while not fight.over:
    ...     _ = fight.exchange("attack", "attack", rng)
    >>> fight.outcome in ("a_wins", "b_wins", "stalemate")
    True
    """

    a: Loadout | Fighter
    b: Loadout | Fighter
    balance: Balance = field(default_factory=default_balance)

    def __post_init__(self) -> None:
        self.fighters = (_fighter(self.a, self.balance), _fighter(self.b, self.balance))
        self.stats = np.stack([f.row() for f in self.fighters])
        self.life = self.stats[:, _kernels.LIFE].copy()
        self.ammo = self.stats[:, _kernels.AMMO].copy()
        self.counters = np.zeros((2, 4), dtype=np.int64)
        self.round = 0
        self.outcome = "continue"
        self.history: list[Exchange] = []

    @property
    def over(self) -> bool:
        return self.outcome != "continue"

    def exchange(self, act_a: str, act_b: str, rng: RngLike) -> Exchange:
        """Resolve one round with both decisions (``"attack"`` or ``"retreat"``)."""
        if self.over:
            raise CombatError("the fight is over", value=self.outcome)
        try:
            codes = ACTIONS[act_a], ACTIONS[act_b]
        except KeyError as exc:
            raise CombatError("decision must be 'attack' or 'retreat'", value=exc.args[0]) from None
        b = self.balance
        self.round += 1
        res, first = _kernels.exchange(
            self.stats, self.life, self.ammo, self.round, codes[0], codes[1],
            b.hit_table, b.pursuit_table, b.priority.as_array(), b.min_wound,
            make_rng(rng), self.counters,
        )  # fmt: skip
        if res == _kernels.CONTINUE and self.round >= b.max_rounds:
            res = _kernels.STALEMATE
        self.outcome = FIGHT_OUTCOMES[res]
        ex = Exchange(
            self.round,
            self.outcome,
            None if first < 0 else int(first),
            (int(self.life[0]), int(self.life[1])),
            (int(self.ammo[0]), int(self.ammo[1])),
        )
        self.history.append(ex)
        return ex


def wilson_interval(k: ArrayLike, n: int, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of the proportion k/n (95 % by default); works on arrays.

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(float(lo), 3), round(float(hi), 3)
    (0.404, 0.596)
    """
    k = np.asarray(k, dtype=np.float64)
    if n <= 0:
        return np.zeros_like(k), np.ones_like(k)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


@dataclass(frozen=True)
class FightStats:
    """Monte-Carlo estimates for a pair of loadouts (n fights).

    Examples
    --------
    >>> stats = simulate_fights(Loadout(), Loadout("monster"), 200, rng=3)
    >>> isinstance(stats, FightStats), sum(stats.outcomes.values()) == stats.n
    (True, True)
    """

    n: int
    outcomes: dict[str, int]
    rounds: np.ndarray  # rounds[r] = fights that ended after r rounds (index 0 unused)
    first_strikes: tuple[int, int, int]  # A first, B first, nobody struck in round 1
    hits: np.ndarray  # (2, 4): strikes, landed, pursuits, pursuits landed per side
    a: Fighter
    b: Fighter

    def share(self, outcome: str) -> float:
        return self.outcomes[outcome] / self.n

    def interval(self, outcome: str) -> tuple[float, float]:
        lo, hi = wilson_interval(self.outcomes[outcome], self.n)
        return float(lo), float(hi)

    @property
    def win_a(self) -> float:
        return self.share("a_wins")

    @property
    def win_b(self) -> float:
        return self.share("b_wins")

    @property
    def first_strike_a(self) -> float:
        """Share of fights in which A struck first in round 1."""
        return self.first_strikes[0] / self.n

    @property
    def mean_rounds(self) -> float:
        r = np.arange(self.rounds.size)
        return float((r * self.rounds).sum() / max(self.n, 1))

    def hit_rate(self, side: int) -> float:
        """Landed / attempted strikes of side 0 (A) or 1 (B); NaN without attempts."""
        s, k = self.hits[side, 0], self.hits[side, 1]
        return float(k / s) if s else float("nan")

    def summary(self) -> dict:
        """Plain numbers for a table or a JSON record."""
        return {
            "n": self.n,
            **{k: v for k, v in self.outcomes.items() if k != "continue"},
            "win_a": self.win_a,
            "win_a_ci": self.interval("a_wins"),
            "win_b": self.win_b,
            "mean_rounds": self.mean_rounds,
            "first_strike_a": self.first_strike_a,
            "a": asdict(self.a),
            "b": asdict(self.b),
        }


def simulate_fights(
    a: Loadout | Fighter,
    b: Loadout | Fighter,
    n: int,
    rng: RngLike = None,
    *,
    balance: Balance | None = None,
) -> FightStats:
    """Play ``n`` fights between two loadouts (numba kernel) and tally the results.

    Parameters
    ----------
    a, b : Loadout or Fighter
        The two sides; a :class:`Loadout`'s ``retreat_at`` sets its policy threshold.
    n : int
        Number of fights (≥ 1).
    rng : int, SeedSequence or Generator
        Randomness; the same seed gives the same estimates.
    balance : Balance, optional
        Tables and stats to use (default: the shipped A edition).

    Returns
    -------
    FightStats
        Outcome counts (``a_wins``, ``b_wins``, ``a_escaped``, ``b_escaped``, ``parted``,
        ``stalemate``), the rounds histogram, first-strike counts and strike/pursuit tallies.

    Examples
    --------
    >>> stats = simulate_fights(Loadout(), Loadout("monster"), 500, rng=1)
    >>> stats.n, stats.mean_rounds >= 1, 0 <= stats.win_a <= 1
    (500, True, True)
    >>> simulate_fights(Loadout(), Loadout("monster"), 500, rng=1).win_a == stats.win_a  # seeded
    True
    """
    bal = default_balance() if balance is None else balance
    if int(n) < 1:
        raise ArgumentError("must be at least 1", argument="n", value=n)
    fa, fb = _fighter(a, bal), _fighter(b, bal)
    stats = np.stack([fa.row(), fb.row()])
    outcome, rounds, first, counters = _kernels.fight_monte_carlo(
        stats, int(n), bal.hit_table, bal.pursuit_table, bal.priority.as_array(),
        bal.min_wound, bal.max_rounds, make_rng(rng),
    )  # fmt: skip
    counts = np.bincount(outcome, minlength=len(FIGHT_OUTCOMES))
    return FightStats(
        n=int(n),
        outcomes={name: int(c) for name, c in zip(FIGHT_OUTCOMES, counts)},
        rounds=np.bincount(rounds, minlength=bal.max_rounds + 1),
        first_strikes=(int((first == 0).sum()), int((first == 1).sum()), int((first < 0).sum())),
        hits=counters,
        a=fa,
        b=fb,
    )


def sample_hits(
    index: ArrayLike, rng: RngLike = None, *, table: ArrayLike | None = None
) -> np.ndarray:
    """Draw one blow per entry: ``True`` where it lands (numba, one uniform per draw).

    Parameters
    ----------
    index : array of int
        Hit index per draw (attacker level − target agility; clamped to −4…4 here).
    rng : int, SeedSequence or Generator
        Randomness; a Generator is advanced by exactly ``index.size`` uniforms, in order.
    table : array of 9 floats, optional
        Table to sample (default :data:`labkit.encounter.rules.tables.HIT`; pass ``PURSUIT`` for
        pursuits).

    Returns
    -------
    ndarray of bool, same shape as ``index``.

    Examples
    --------
    >>> import numpy as np
    >>> hits = sample_hits(np.full(100_000, 2), rng=1)   # index 2: 45 %
    >>> round(float(hits.mean()), 2)
    0.45
    """
    from labkit.encounter.rules.tables import HIT

    t = HIT if table is None else np.asarray(table, dtype=np.float64)
    if t.shape != (9,) or not np.all((t >= 0) & (t <= 1)):
        raise ArgumentError("must hold 9 probabilities", argument="table", value=t.tolist())
    idx = np.asarray(index)
    if idx.dtype.kind not in "iu":
        raise ArgumentError("must be integers", argument="index", value=str(idx.dtype))
    flat = np.ascontiguousarray(idx.reshape(-1), dtype=np.int64)
    out = np.empty(flat.size, dtype=np.bool_)
    _kernels.sample_hits(flat, np.ascontiguousarray(t), make_rng(rng), out)
    return out.reshape(idx.shape)


def __getattr__(name: str) -> Any:
    """Old names kept for one release (:data:`labkit._renamed.RENAMED_NAMES`), with a warning."""
    return _renamed.old_name(__name__, name)
