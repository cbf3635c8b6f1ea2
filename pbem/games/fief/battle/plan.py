"""Battle plans and the battle setup: the data the battle engine (battle/engine.py) reads.

At the table a battle is a conversation (6, 6.2.3.5): the leaders choose losses, decide to
surrender or to stop, confederates continue, stop or switch sides. By mail these choices are
given in advance as a standing plan per family (DESIGN.md "Battle plans instead of round-by-round
choices"). The Battle Phase (battle/phase.py / battle/orders.py) parses orders into these
dataclasses; the engine only reads them. Every field has a documented default, so a family that
never sent a plan still fights (DEFAULT_PLAN, docs/fief-france-battle.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from pbem.rules.api import Event

# Kinds a leader may order in a loss priority (6.2.3.4). Kinds a plan does not name come
# after the named ones, in this order (so by default the royal guard, 1.5.5, is lost last
# among the pawns worth as much).
LOSS_KINDS = ("man_at_arms", "archer", "knight", "kings_knight", "queens_sergeant")


@dataclass(frozen=True)
class Condition:
    """A condition checked at the end of a battle round (6.2.3.5) or before the first one
    (6.2: "a side may decide to surrender now"). True when ANY clause that is set holds; with
    no clause set it is never true (the cautious "never"), with ``always`` it is always true.

    CP are the side's Combat Points (6.2.3.1) counted as they stand at the check."""

    always: bool = False
    after_round: int | None = None    # at the end of battle round N or later (N >= 1)
    cp_at_most: int | None = None     # own side's CP <= N
    outnumbered: int | None = None    # the opposite side's CP >= K x own side's CP (K >= 1)

    def __post_init__(self) -> None:
        for name in ("after_round", "cp_at_most", "outnumbered"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < (0 if name == "cp_at_most" else 1)):
                raise ValueError(f"battle plan condition {name} must be a whole number "
                                 f"{'>= 0' if name == 'cp_at_most' else '>= 1'}, not {value!r}")

    def holds(self, round_no: int, own_cp: int, other_cp: int) -> bool:
        if self.always:
            return True
        if self.after_round is not None and round_no >= self.after_round:
            return True
        if self.cp_at_most is not None and own_cp <= self.cp_at_most:
            return True
        if self.outnumbered is not None and other_cp >= self.outnumbered * own_cp and other_cp > 0:
            return True
        return False


NEVER = Condition()
ALWAYS = Condition(always=True)


@dataclass(frozen=True)
class Stop:
    """Stopping a battle (6.2.3.5 "Both sides agree to stop the battle").

    ``when``: this family, as a leader, asks to stop at the end of a round when it holds. The
    attacker stops alone (unilaterally) when the besieged family is on the defensive side or the
    defensive side has no lord left; otherwise the battle stops when one leader asks and the
    other's ``accept`` holds (or both ask).
    ``accept``: as a leader, agree when the other leader asks to stop. By default a leader
    accepts only when it is outnumbered 2 to 1 itself: a leader who is winning fights on."""

    when: Condition = Condition(outnumbered=2)
    accept: Condition = Condition(outnumbered=2)


@dataclass(frozen=True)
class Switch:
    """Switching sides at the end of a battle round (6.2.3.5), never in a cavalcade (5.2.4).

    ``when``: as a confederate (neither leader), switch to the opposite side when it holds.
    ``accept``: as a leader, the families whose switch to my side I accept (the rule needs the
    opposite leader's acceptance)."""

    when: Condition = NEVER
    accept: tuple[str, ...] = ()


@dataclass(frozen=True)
class Continue:
    """A confederate's "continue or stop to fight" at the end of each battle round (6.2.3.5):
    keep fighting until ``until`` holds, then stop; the forces stay in town (6.2.3.5)."""

    until: Condition = NEVER


@dataclass(frozen=True)
class BattlePlan:
    """One family's standing battle plan (DESIGN.md "Battle plans"). Leader-only fields are
    read from the side's leader's plan (6: the leaders decide losses, surrender, captives)."""

    # 6.2.3.4: kinds to lose first among the choices losing equally much CP. Kinds not named
    # come after, in LOSS_KINDS order.
    losses: tuple[str, ...] = ("man_at_arms", "archer", "knight")
    # 6.2.3.4: lords (by name) to lose first when lords must be lost; others after, fewest
    # titles first (docs "Rulings").
    lords_first: tuple[str, ...] = ()
    # Among equal choices, lose confederates' pawns before the leader's own (docs "Rulings").
    own_losses_last: bool = True
    surrender: Condition = NEVER              # 6.2, 6.2.3.5: leader only
    stop: Stop = field(default_factory=Stop)  # 6.2.3.5: leaders' stop rights
    besiege_if_stopped: bool = False          # 6.4.1 example 1: read by the Battle Phase
    take_captives: bool = True                # 6.3: "may be taken captive" - the winning leader's choice
    captives_to: str | None = None            # who detains captives taken by my side; None = me
    control_to: str | None = None             # 6: the winning leader gives the town to; None = see Rulings
    scorched_earth: bool = False              # 6.2.1: defender controlling the town, not besieged
    adjusted_shooting: bool = False           # I.1 (option adjusted_shooting): defender replaces shooting
    adjusted_target: tuple[str, ...] = ()     # I.1: lords to target, first present one; else most titled
    switch: Switch = field(default_factory=Switch)
    continue_fighting: Continue = field(default_factory=Continue)

    def __post_init__(self) -> None:
        for kind in self.losses:
            if kind not in LOSS_KINDS:
                raise ValueError(f"battle plan losses: unknown kind {kind!r}; use one of "
                                 f"{', '.join(LOSS_KINDS)}")


# The plan of a family that never sent one: lose men-at-arms, then archers, then knights,
# never surrender, ask to stop (and accept a stop) only when outnumbered 2 to 1, take captives for
# oneself, keep or take the town oneself, no scorched earth, no adjusted shooting, never
# switch, accept no switcher, confederates keep fighting.
DEFAULT_PLAN = BattlePlan()


@dataclass(frozen=True)
class Ambush:
    """The hook for an ambush card played in this battle (G.4.2.5): the card's holding and
    discarding belong to the cards rules; the engine makes ``lord`` a captive of ``player``'s
    family at the given moment, if ``player`` then has a lord in the battle."""

    player: str            # the family playing the card
    lord: str              # the lord in the battle made captive (another family's)
    at_round: int = 0      # 0: at the start of the battle; N: at the start of battle round N


@dataclass(frozen=True)
class BattleSetup:
    """One declared battle (6): who attacks whom where, and who fights on each side."""

    town: str
    attacker: str                    # offensive leader (family, 6)
    defender: str                    # defensive leader
    attacker_side: tuple[str, ...]   # families on the attacking side, leader first (6.1)
    defender_side: tuple[str, ...]
    cavalcade: bool = False          # 5.2.4: only the defender has confederates; +1 hit per die; no switching
    underground: bool = False        # G.4.2.2: the attacker ignores the fortress penalty this battle
    leaving_fortress: bool = False   # 6.4.2: the besieged family attacks out: no fortress penalty
    # Only these pawns/lords fight (a cavalcade: the army and the crossed forces). None = all
    # of the side's pawns/lords in `town` (captive lords never fight).
    attacker_units: tuple[str, ...] | None = None
    attacker_lords: tuple[str, ...] | None = None
    defender_units: tuple[str, ...] | None = None
    defender_lords: tuple[str, ...] | None = None
    ambushes: tuple[Ambush, ...] = ()   # G.4.2.5 cards played in this battle (the hook)


@dataclass
class BattleOutcome:
    """What resolve_battle (battle/engine.py) returns; the state it was given is already changed."""

    winner: str | None               # "attacker" | "defender" | None (no winner)
    end: str                         # why it stopped: a name from battle.END_CASES (6.2.3.5)
    rounds: int                      # battle rounds fought (0: stopped before the first)
    attacker_lords_left: int         # lords still fighting on the attacking side (5.2.4 cavalcade)
    events: list[Event]
    captives: list[tuple[str, str]]  # (lord, jailer family) taken in this battle (6.3)
    stopped_by: str | None           # family that stopped the battle (6.4.1 "turn into a siege")
    # Families that switched sides (6.2.3.5) and that stopped fighting, in order.
    switched: list[str] = field(default_factory=list)
    withdrew: list[str] = field(default_factory=list)


# -- plain data (YAML scenarios, stored policies) -> dataclasses -------------------------------
# The Battle Phase's order parser checks mail with line numbers (battle/orders.py); these
# builders take data already known to be well-formed and raise ValueError naming a bad key.

def condition_from_data(data: Any) -> Condition:
    """``never`` | ``always`` | {always, after_round, cp_at_most, outnumbered}."""
    if data is None or data is False or data in ("never", "no", "false"):
        return NEVER
    if data is True or data in ("always", "yes", "true"):
        return ALWAYS
    if not isinstance(data, Mapping):
        raise ValueError(f"a battle plan condition is never, always or a mapping, not {data!r}")
    _known(data, ("always", "after_round", "cp_at_most", "outnumbered"), "condition")
    return Condition(always=_bool(data.get("always", False)),
                     after_round=_int(data.get("after_round")), cp_at_most=_int(data.get("cp_at_most")),
                     outnumbered=_int(data.get("outnumbered")))


def plan_from_data(data: Mapping[str, Any] | None) -> BattlePlan:
    """A BattlePlan from a mapping with the field names of BattlePlan; missing = default."""
    if not data:
        return DEFAULT_PLAN
    _known(data, tuple(f.name for f in fields(BattlePlan)), "battle plan")
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("losses", "lords_first", "adjusted_target"):
            out[key] = tuple(str(v) for v in value or ())
        elif key == "surrender":
            out[key] = condition_from_data(value)
        elif key == "stop":
            value = value or {}
            _known(value, ("when", "accept"), "stop")
            out[key] = Stop(when=condition_from_data(value["when"]) if "when" in value else Stop().when,
                            accept=condition_from_data(value["accept"]) if "accept" in value else Stop().accept)
        elif key == "switch":
            value = value or {}
            _known(value, ("when", "accept"), "switch")
            out[key] = Switch(when=condition_from_data(value.get("when")),
                              accept=tuple(str(v) for v in value.get("accept") or ()))
        elif key == "continue_fighting":
            value = value or {}
            _known(value, ("until",), "continue_fighting")
            out[key] = Continue(until=condition_from_data(value.get("until")))
        elif key in ("captives_to", "control_to"):
            out[key] = None if value is None else str(value)
        else:
            out[key] = _bool(value)
    return replace(DEFAULT_PLAN, **out)


def setup_from_data(data: Mapping[str, Any]) -> BattleSetup:
    """A BattleSetup from a mapping with its field names; sides default to the leader alone."""
    _known(data, tuple(f.name for f in fields(BattleSetup)), "battle setup")
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("cavalcade", "underground", "leaving_fortress"):
            out[key] = _bool(value)
        elif key == "ambushes":
            out[key] = tuple(Ambush(str(a["player"]), str(a["lord"]), int(a.get("at_round", 0)))
                             for a in value or ())
        elif key.endswith(("_side", "_units", "_lords")):
            out[key] = None if value is None else tuple(str(v) for v in value)
        else:
            out[key] = str(value)
    for side in ("attacker", "defender"):
        if out.get(f"{side}_side") is None:
            out[f"{side}_side"] = (out[side],)
    return BattleSetup(**out)


def _known(data: Mapping[str, Any], keys: tuple[str, ...], what: str) -> None:
    for key in data:
        if key not in keys:
            raise ValueError(f"{what}: unknown key {key!r}; known keys: {', '.join(keys)}")


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "yes", "on"):
        return True
    if str(value).lower() in ("false", "no", "off"):
        return False
    raise ValueError(f"expected yes or no, not {value!r}")


def _int(value: Any) -> int | None:
    if value is None:
        return None
    try:
        return int(str(value))
    except ValueError:
        raise ValueError(f"expected a whole number, not {value!r}") from None
