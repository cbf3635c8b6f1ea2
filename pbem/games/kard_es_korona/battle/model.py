"""The battle's plain data: what the caller passes in (Battle, BattleSide, BattlePlan) and what
it gets back (BattleResult with its Clashes and Rolls). Every field is JSON-able;
``battle_from_data`` / ``plan_from_data`` build the input from JSON and say what is wrong in
it, ``BattleResult.to_data`` writes the output.

At the table a battle is a conversation: whom each hit removes, which weapon type the warlord
leads, whether to retreat or pursue. By mail the players give these decisions in advance as a
battle plan (DESIGN.md "Battle plans instead of round-by-round choices"; orders.py reads the
`battle:` part of an order mail into one). Every field has a documented default (docs/kard-es-korona.md,
"Battles"), so a side without a plan still fights.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from pbem.games.kard_es_korona.battle.kinds import KINDS

ATTACKER, DEFENDER = "attacker", "defender"
SIDES = (ATTACKER, DEFENDER)
TERRAINS = ("mountain", "marsh")
OPEN_GROUND = "plain"   # the board's word for a county without an obstacle: read as no terrain


@dataclass(frozen=True)
class Condition:
    """When a side retreats (VI "Retreat / Flight"), checked at the end of each complete round:
    true when ANY clause that is set holds; with none set, never (the default).

    ``outnumbered``: the enemy has at least K times as many units as this side."""

    always: bool = False
    after_round: int | None = None
    outnumbered: int | None = None
    units_at_most: int | None = None

    def __post_init__(self) -> None:
        for name in ("after_round", "outnumbered", "units_at_most"):
            value = getattr(self, name)
            low = 0 if name == "units_at_most" else 1
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < low):
                raise ValueError(f"retreat condition {name} must be a whole number >= {low}, not {value!r}")

    def holds(self, round_no: int, own: int, enemy: int) -> bool:
        return (self.always
                or (self.after_round is not None and round_no >= self.after_round)
                or (self.outnumbered is not None and enemy >= self.outnumbered * own)
                or (self.units_at_most is not None and own <= self.units_at_most))


NEVER = Condition()


@dataclass(frozen=True)
class BattlePlan:
    """One player's decisions for a battle, given in advance.

    - ``priorities``: enemy weapon types this side's hits remove first (II "Melee": "the loss may
      always be taken by the side that achieved the hit"); kinds left out follow in the
      default order (rules.default_priorities).
    - ``losses``: own weapon types lost first where the loss is this side's own choice (the
      halving of a retreat across an obstacle); kinds left out follow archers, infantry, cavalry.
    - ``lord_leads``: the weapon type the warlord supports with +1 (II "Royal / Neutral
      Units"): the first listed that the army has when the battle starts; none listed or none
      present: the type with the most units (ties: cavalry, infantry, archers).
    - ``retreat`` (advanced): when to retreat after a complete round; never by default.
    - ``pursue`` (advanced): strike at a retreating enemy; yes by default.
    - ``reroll`` (the Judge Royal only, IV): re-roll, once a battle, the first roll of one
      weapon type of this side with at least this many dice that scored at most
      ``reroll_hits`` hits (0 by default: no hit; l.294 lets him re-roll a roll that hit too,
      all its dice again); None: never.
    """

    priorities: tuple[str, ...] = ()
    losses: tuple[str, ...] = ()
    lord_leads: tuple[str, ...] = ()
    retreat: Condition = NEVER
    pursue: bool = True
    reroll: int | None = 2
    reroll_hits: int = 0

    def __post_init__(self) -> None:
        for name in ("priorities", "losses", "lord_leads"):
            kinds = getattr(self, name)
            if not isinstance(kinds, tuple) or any(k not in KINDS for k in kinds) or len(set(kinds)) != len(kinds):
                raise ValueError(f"battle plan {name} must list distinct weapon types among "
                                 f"{', '.join(KINDS)}, not {kinds!r}")
        if self.reroll is not None and (not isinstance(self.reroll, int) or self.reroll < 1):
            raise ValueError(f"battle plan reroll must be a whole number >= 1 or None, not {self.reroll!r}")
        if not isinstance(self.reroll_hits, int) or self.reroll_hits < 0:
            raise ValueError(f"battle plan reroll_hits must be a whole number >= 0, not {self.reroll_hits!r}")


DEFAULT_PLAN = BattlePlan()


@dataclass(frozen=True)
class BattleSide:
    """One side of a battle: one owner's units (combined attacks from several counties are
    one army, III "Attack"), counted by weapon type.

    - ``owner``: the player, or for neutral units whoever they belong to ("royal", or a
      province whose lord is not in play); ``neutral``: royal / neutral units, which never
      retreat and are never the attacker (II "Royal / Neutral Units").
    - ``warlord``: the province lord's name when he takes part, else None.
    - ``retreat_to``: where this side goes if it retreats or must withdraw (the caller picks it
      from the board and the player's orders, VI "Retreat / Flight"); None: no voluntary
      retreat is possible (a compulsory withdrawal from a siege still happens).
    - ``retreat_obstacle``: the way to ``retreat_to`` crosses a great river or enters a
      mountain or marsh (the fleeing army loses half its strength, rounded down).
    """

    owner: str
    units: Mapping[str, int]
    neutral: bool = False
    warlord: str | None = None
    plan: BattlePlan = DEFAULT_PLAN
    retreat_to: str | None = None
    retreat_obstacle: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.owner, str) or not self.owner:
            raise ValueError(f"a battle side needs an owner (a player's name or e.g. 'royal'), not {self.owner!r}")
        for kind, count in self.units.items():
            if kind not in KINDS:
                raise ValueError(f"{self.owner}'s units: {kind!r} is not a weapon type ({', '.join(KINDS)})")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ValueError(f"{self.owner}'s units: {kind} must be a whole number >= 0, not {count!r}")
        if self.neutral and self.warlord:
            raise ValueError(f"neutral units ({self.owner}) have no warlord (II 'Royal / Neutral Units')")


@dataclass(frozen=True)
class Battle:
    """One battle: in a county with a castle it is a siege (III "Open Battle": an open battle
    takes place where there is no castle); ``terrain`` is "mountain", "marsh" or None ("plain"
    is read as None); ``judge_royal`` the player holding that office (IV), if any;
    ``lord_attack_bonus``: added to every roll of the attacker's units while the attacking
    warlord takes part (an event card's effect, e.g. Vintage; never in the duel, l.260)."""

    county: str
    attacker: BattleSide
    defender: BattleSide
    castle: bool = False
    terrain: str | None = None
    advanced: bool = False
    judge_royal: str | None = None
    lord_attack_bonus: int = 0

    def __post_init__(self) -> None:
        if self.terrain == OPEN_GROUND:
            object.__setattr__(self, "terrain", None)
        if self.terrain is not None and self.terrain not in TERRAINS:
            raise ValueError(f"terrain must be mountain, marsh, plain or none, not {self.terrain!r}")
        if not isinstance(self.lord_attack_bonus, int) or self.lord_attack_bonus < 0:
            raise ValueError(f"lord_attack_bonus must be a whole number >= 0, not {self.lord_attack_bonus!r}")
        if self.attacker.neutral:
            raise ValueError("neutral units never attack (II 'Royal / Neutral Units'): "
                             "the attacker must be a player")
        if not sum(self.attacker.units.values()):
            raise ValueError(f"the attacker ({self.attacker.owner}) has no units in the battle")
        if not sum(self.defender.units.values()):
            raise ValueError(f"the defender ({self.defender.owner}) has no units: moving into an empty county "
                             f"is no battle (III 'Movement into an Empty County')")
        if self.attacker.owner == self.defender.owner:
            raise ValueError(f"{self.attacker.owner} cannot fight a battle against itself")

    def side(self, name: str) -> BattleSide:
        return self.attacker if name == ATTACKER else self.defender


@dataclass(frozen=True)
class Roll:
    """One weapon type of one side rolling its dice in a clash: the faces, the modifier added
    to each, how many dice hit, and the faces before the Judge Royal's re-roll (if any)."""

    side: str
    kind: str
    faces: list[int]
    modifier: int
    hits: int
    rerolled: list[int] | None = None


@dataclass(frozen=True)
class Clash:
    """One clash (III "Melee"): ``step`` is ``volley`` (the archers' first round of an open
    battle), ``melee``, ``defenders_volley`` and ``assault`` (a siege's two halves of a round),
    ``pursuit`` or ``parting_volley`` (on a retreat); the units each side lost in it."""

    round: int
    step: str
    rolls: list[Roll]
    losses: dict[str, dict[str, int]]


@dataclass(frozen=True)
class Retreat:
    """A side that left the battle: by its own retreat (advanced) or by the compulsory
    withdrawal from a siege (III "Siege"); ``to`` is the side's ``retreat_to``;
    ``obstacle_losses``: the half lost on the way across an obstacle."""

    side: str
    to: str | None
    compulsory: bool
    pursuit: Clash | None = None
    obstacle_losses: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Duel:
    """The warlords' duel (III "The Clash of Warlords"): each throw as [attacker's die,
    defender's die]; ``rerolled``: the Judge Royal's re-roll, [throw number, old face, new face]."""

    throws: list[list[int]]
    winner: str
    rerolled: list[int] | None = None


@dataclass(frozen=True)
class BattleResult:
    """What a battle did.

    - ``winner``: ``attacker``, ``defender`` or None (every unit fell and no warlord stands:
      the county is left without a master, III "Melee").
    - ``end``: ``destroyed`` (the loser's units are all gone), ``both_destroyed`` (no winner),
      ``warlord_alone`` (both armies fell, one warlord stands: ruling B7), ``duel``, ``withdrawn``
      (a siege without infantry), ``retreat``.
    - ``rounds``: the rounds fought (the last one may have ended after its volley); ``clashes``:
      every clash in order (a clash in which no die was rolled is left out).
    - ``losses`` / ``survivors``: per side, units by weapon type (survivors after the
      retreat's pursuit and obstacle).
    - ``warlords``: per side with a warlord, ``{"name", "fate"}``; fate is ``won``,
      ``defeated`` (by a player: vassal oath or escape follow, V/"Elimination"), ``captured``
      (by royal/neutral units: the timescale ransom), ``killed`` (lost the duel: ruling B9) or
      ``retreated``.
    - ``castle_taken``: a siege the attacker won.
    """

    county: str
    siege: bool
    winner: str | None
    end: str
    rounds: int
    clashes: list[Clash]
    losses: dict[str, dict[str, int]]
    survivors: dict[str, dict[str, int]]
    warlords: dict[str, dict[str, str]]
    retreat: Retreat | None = None
    duel: Duel | None = None
    castle_taken: bool = False
    lord_leads: dict[str, str] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def captured(self) -> list[str]:
        """Warlords taken prisoner by royal/neutral units."""
        return [w["name"] for w in self.warlords.values() if w["fate"] == "captured"]

    @property
    def defeated(self) -> list[str]:
        """Warlords defeated by another player's army (the vassal oath or escape follow)."""
        return [w["name"] for w in self.warlords.values() if w["fate"] == "defeated"]


# ---- building the input from JSON ------------------------------------------------------------

_PLAN_KEYS = ("priorities", "losses", "lord_leads", "retreat", "pursue", "reroll", "reroll_hits")
_SIDE_KEYS = ("owner", "units", "neutral", "warlord", "plan", "retreat_to", "retreat_obstacle")
_BATTLE_KEYS = ("county", "attacker", "defender", "castle", "terrain", "advanced", "judge_royal",
                "lord_attack_bonus")


def plan_from_data(data: Mapping[str, Any] | None) -> BattlePlan:
    """A BattlePlan from its JSON (as orders.check_battle_plan writes it); ValueError names a
    wrong field."""
    data = dict(data or {})
    _no_unknown(data, _PLAN_KEYS, "battle plan")
    retreat = data.get("retreat", "never")
    if retreat == "never" or retreat is None:
        condition = NEVER
    elif retreat == "always":
        condition = Condition(always=True)
    elif isinstance(retreat, Mapping):
        _no_unknown(retreat, ("always", "after_round", "outnumbered", "units_at_most"), "retreat condition")
        condition = Condition(**retreat)
    else:
        raise ValueError(f"battle plan retreat must be never, always or a mapping of conditions, not {retreat!r}")
    reroll, reroll_hits = data.get("reroll", 2), data.get("reroll_hits", 0)
    if isinstance(reroll, Mapping):   # {dice: N, hits_at_most: H}: a roll that hit may be re-rolled (l.294)
        wanted: Mapping[str, Any] = reroll
        _no_unknown(wanted, ("dice", "hits_at_most"), "reroll")
        reroll, reroll_hits = wanted.get("dice"), wanted.get("hits_at_most", 0)
    return BattlePlan(priorities=tuple(data.get("priorities", ())), losses=tuple(data.get("losses", ())),
                      lord_leads=tuple(data.get("lord_leads", ())), retreat=condition,
                      pursue=_flag(data, "pursue", True), reroll=reroll, reroll_hits=reroll_hits)


def side_from_data(data: Mapping[str, Any]) -> BattleSide:
    _no_unknown(data, _SIDE_KEYS, "battle side")
    if "owner" not in data or "units" not in data:
        raise ValueError("a battle side needs `owner` and `units`")
    if not isinstance(data["units"], Mapping):
        raise ValueError(f"a battle side's units map weapon types to counts, not {data['units']!r}")
    return BattleSide(owner=data["owner"], units=dict(data["units"]), neutral=_flag(data, "neutral"),
                      warlord=data.get("warlord"), plan=plan_from_data(data.get("plan")),
                      retreat_to=data.get("retreat_to"), retreat_obstacle=_flag(data, "retreat_obstacle"))


def battle_from_data(data: Mapping[str, Any]) -> Battle:
    """A Battle from its JSON; ValueError names what is wrong."""
    _no_unknown(data, _BATTLE_KEYS, "battle")
    for key in ("county", "attacker", "defender"):
        if key not in data:
            raise ValueError(f"a battle needs `{key}`")
    return Battle(county=data["county"], attacker=side_from_data(data["attacker"]),
                  defender=side_from_data(data["defender"]), castle=_flag(data, "castle"),
                  terrain=data.get("terrain"), advanced=_flag(data, "advanced"),
                  judge_royal=data.get("judge_royal"), lord_attack_bonus=data.get("lord_attack_bonus", 0))


def _flag(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"`{key}` must be true or false, not {value!r}")
    return value


def _no_unknown(data: Mapping[str, Any], allowed: tuple[str, ...], what: str) -> None:
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise ValueError(f"unknown {what} field(s) {', '.join(map(str, unknown))}: the fields are {', '.join(allowed)}")
