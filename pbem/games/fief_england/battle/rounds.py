"""One England battle round as pure functions over plain forces (E 7.1-7.5): projectiles -
trebuchets, then bombards, then archers and crossbowmen, each type's losses taken by both sides
at once before the next type fires (7.2) - then melee (7.3-7.5). No state, no I/O: a force is
counts of unit kinds and a list of nobles, the dice a function, the numbers the edition
record's (battle/numbers.py). The players' battles (battle/steps.py) and the Invaders' use them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Mapping

from pbem.games.fief_england.battle.numbers import (ENGINE_CREW, ENGINES, GUARD, LAST_UNITS, SHOOTERS,
                                                    BattleNumbers)

Dice = Callable[[str], int]   # one battle die (7.1): the hits it shows; the text says why it is rolled
SIDES = ("attacker", "defender")
# 7.5: the kinds a side loses first among choices using as many hits; kinds not listed come after.
DEFAULT_ORDER = ("man_at_arms", "archer", "crossbowman", "invader_foot", "knight",
                 "royal_man_at_arms", "royal_knight")
FFF = 3   # 7.2: an aimed volley slays on 'fff'
GRAIL_VOID = 2   # 12.1: "Attacker Dice showing 'ff' have NO effect"


@dataclass(frozen=True)
class Noble:
    name: str
    strength: int = 1   # 7.3: 1 per male Noble and per female Titled Lord, else 0; always 1 Hit (7.5)


@dataclass
class Force:
    """One side's units by kind (troops, royal guard, engines, invaders) and its nobles."""

    units: dict[str, int] = field(default_factory=dict)
    nobles: list[Noble] = field(default_factory=list)

    def count(self, *kinds: str) -> int:
        return sum(self.units.get(k, 0) for k in kinds)

    def troops(self, numbers: BattleNumbers) -> int:
        """Units that fight and take hits (7.5): all but the engines."""
        return sum(n for k, n in self.units.items() if numbers.sp(k) > 0)

    def strength(self, numbers: BattleNumbers) -> int:
        """7.3: the side's Strength Points."""
        return sum(numbers.sp(k) * n for k, n in self.units.items()) + sum(n.strength for n in self.nobles)

    def copy(self) -> "Force":
        return Force(dict(self.units), list(self.nobles))

    def remove(self, losses: "Losses") -> None:
        for kind, n in losses.removed().items():
            left = self.units.get(kind, 0) - n
            if left > 0:
                self.units[kind] = left
            else:
                self.units.pop(kind, None)
        self.nobles = [n for n in self.nobles if n.name not in losses.nobles]


@dataclass
class Losses:
    units: dict[str, int] = field(default_factory=dict)   # defeated by hits (7.5)
    nobles: list[str] = field(default_factory=list)       # slain (7.5, or an aimed volley 7.2)
    wasted: int = 0                                       # hits that could not be taken (7.5)
    exploded: int = 0                                     # bombards that exploded on a blank (7.2)
    crew: int = 0                                         # men-at-arms lost with them (7.2)

    def removed(self) -> dict[str, int]:
        out = dict(self.units)
        if self.exploded:
            out["bombard"] = out.get("bombard", 0) + self.exploded
        if self.crew:
            out[ENGINE_CREW] = out.get(ENGINE_CREW, 0) + self.crew
        return out

    def any(self) -> bool:
        return bool(self.units or self.nobles or self.exploded or self.crew)


@dataclass
class Volley:
    """What one side fired (or could not fire) in one step of a round."""

    kind: str                       # "trebuchets" | "bombards" | "archers" | "melee"
    dice: int = 0
    faces: list[int] = field(default_factory=list)
    bonus: int = 0                  # +1f bonuses (second trebuchet, 3 archers, guard, Excalibur, cavalcade)
    target: str | None = None       # 7.2: the noble or leader aimed at
    silent: str | None = None       # why the side does not fire (R32, 7.2 minimums, 7.4)
    grail: bool = False             # 12.1: against the Holy Grail's side, 'ff' faces do nothing

    @property
    def hits(self) -> int:
        if self.target is not None:
            return 0                # an aimed volley slays or misses (7.2)
        return sum(f for f in self.faces if not (self.grail and f == GRAIL_VOID)) + (self.bonus if self.faces else 0)

    @property
    def blanks(self) -> int:
        return sum(1 for f in self.faces if f == 0)


@dataclass
class Setup:
    """What one battle round needs besides the forces."""

    fortress: str | None = None      # the defender's "stronghold" or "city" when it protects it (7.4)
    passage: bool = False            # 10.2: the attacker cancels all melee penalties (7.4)
    sally: bool = False              # 7.9: melee only, no fortress, no engines
    cavalcade: bool = False          # 5.2-5.3: melee only; the defender +1f per die
    aims: Mapping[str, str] = field(default_factory=dict)        # side -> noble (or invader_leader) aimed at
    excalibur: Mapping[str, bool] = field(default_factory=dict)  # side -> Excalibur fights with it (13.2)
    grail: bool = False              # 12.1: the Holy Grail's bearer is on the defending side
    orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)         # side -> kinds lost first
    noble_orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # side -> nobles lost first


@dataclass
class Step:
    name: str                                   # "trebuchets" | "bombards" | "archers" | "melee"
    volleys: dict[str, Volley]                  # by side (a side with nothing to fire is absent)
    losses: dict[str, Losses]                   # by side


@dataclass
class RoundResult:
    forces: dict[str, Force]
    steps: list[Step]

    def lost_anything(self) -> bool:
        return any(loss.any() for step in self.steps for loss in step.losses.values())


# -- losses (7.5) --------------------------------------------------------------------------------

def choose_losses(force: Force, hits: int, numbers: BattleNumbers, order: tuple[str, ...] = DEFAULT_ORDER,
                  noble_order: tuple[str, ...] = ()) -> Losses:
    """7.5: "must remove as many SPs as possible up to the number of Hits taken"; a unit falls
    only to its full hits (a Knight needs 3); Invader Leaders after every Foot Soldier (6.4);
    nobles, 1 hit each, only once every troop is defeated. Among the choices using as many hits,
    the kinds of ``order`` go first; nobles in ``noble_order``, then the others in force order."""
    rank = {k: i for i, k in enumerate(order)}
    kinds = sorted((k for k, n in force.units.items() if n and numbers.sp(k) > 0 and k not in LAST_UNITS),
                   key=lambda k: (rank.get(k, len(rank)), k))
    by_value: dict[int, list[str]] = {}
    for k in kinds:
        by_value.setdefault(numbers.sp(k), []).append(k)
    values = sorted(by_value)
    totals = [sum(force.units[k] for k in by_value[v]) for v in values]
    best: tuple | None = None
    chosen: dict[str, int] = {}
    for combo in product(*(range(t + 1) for t in totals)):
        used = sum(v * c for v, c in zip(values, combo, strict=True))
        if used > hits:
            continue
        picked: dict[str, int] = {}
        for v, c in zip(values, combo, strict=True):
            for k in by_value[v]:           # within a value, the preferred kinds first
                take = min(c, force.units[k])
                if take:
                    picked[k] = take
                c -= take
        score = (used, [picked.get(k, 0) for k in kinds])
        if best is None or score > best:
            best, chosen = score, picked
    left = hits - (best[0] if best else 0)
    losses = Losses(units=chosen)
    if sum(chosen.values()) == sum(totals):
        for k in LAST_UNITS:                # 6.4: the leader last
            n = min(force.units.get(k, 0), left // max(numbers.sp(k), 1))
            if n:
                losses.units[k] = n
                left -= n * numbers.sp(k)
        if all(losses.units.get(k, 0) == force.units.get(k, 0) for k in LAST_UNITS) and left > 0:
            names = [n for n in noble_order if any(x.name == n for x in force.nobles)]
            names += [x.name for x in force.nobles if x.name not in names]
            losses.nobles = names[:left]
            left -= len(losses.nobles)
    losses.wasted = left
    return losses


def simultaneous(forces: Mapping[str, Force], hits: Mapping[str, int], setup: Setup,
                 numbers: BattleNumbers, slain: Mapping[str, str] | None = None,
                 exploded: Mapping[str, int] | None = None) -> dict[str, Losses]:
    """Both sides' losses chosen on the forces as they stood, then taken together (7.2, 7.3).
    ``hits`` are the hits each side takes; ``slain`` a noble (or leader) an aimed volley killed;
    ``exploded`` each side's bombards that blew up - each takes a man-at-arms of its side if one
    is left after the hits (7.2; R6: Ex 7-2's explosion finds no man-at-arms left)."""
    out: dict[str, Losses] = {}
    for side in SIDES:
        force = forces[side]
        losses = choose_losses(force, hits.get(side, 0), numbers, setup.orders.get(side, DEFAULT_ORDER),
                               setup.noble_orders.get(side, ()))
        target = (slain or {}).get(side)
        if target in LAST_UNITS:
            losses.units[target] = losses.units.get(target, 0) + 1
        elif target is not None and target not in losses.nobles:
            losses.nobles.append(target)
        boom = (exploded or {}).get(side, 0)
        if boom:
            losses.exploded = boom
            crew_left = force.count(ENGINE_CREW) - losses.units.get(ENGINE_CREW, 0)
            losses.crew = min(boom, max(crew_left, 0))
        out[side] = losses
    for side in SIDES:
        forces[side].remove(out[side])
    return out


# -- projectiles (7.2) ----------------------------------------------------------------------------

def _roll(dice: Dice, n: int, why: str) -> list[int]:
    return [dice(why) for _ in range(n)]


def trebuchets(force: Force, numbers: BattleNumbers, dice: Dice, who: str) -> Volley | None:
    """7.2: 2 battle dice for the trebuchets, +1f if a second fires; only beside a man-at-arms
    of their side (R32); no fortress penalty."""
    n = force.count("trebuchet")
    if not n:
        return None
    if not force.count(ENGINE_CREW):
        return Volley("trebuchets", silent="no man-at-arms beside them (7.2, R32)")
    bonus = numbers.second_trebuchet_bonus if n >= 2 else 0   # R52: a third adds nothing more
    return Volley("trebuchets", numbers.trebuchet_dice, _roll(dice, numbers.trebuchet_dice, f"{who} trebuchets"),
                  bonus)


def bombards(force: Force, numbers: BattleNumbers, dice: Dice, who: str) -> Volley | None:
    """7.2: 1 battle die per bombard, only beside a man-at-arms (R32); each blank explodes one
    bombard with a man-at-arms of its side."""
    n = force.count("bombard")
    if not n:
        return None
    if not force.count(ENGINE_CREW):
        return Volley("bombards", silent="no man-at-arms beside them (7.2, R32)")
    return Volley("bombards", n, _roll(dice, n, f"{who} bombards"))


def archers(force: Force, numbers: BattleNumbers, dice: Dice, who: str, fortress: str | None,
            aim: str | None) -> Volley | None:
    """7.2: 1 battle die for all archers and crossbowmen, +1f with 3 or more; into a Stronghold
    at least 2, a Fortified City at least 3, and no bonus; or aimed at a noble or Invader
    Leader, who is slain on 'fff' (any other face: no loss)."""
    n = force.count(*SHOOTERS)
    if not n:
        return None
    if fortress:
        need = numbers.archers_needed[fortress]
        if n < need:
            where = "a Fortified City" if fortress == "city" else "a Stronghold"
            return Volley("archers", silent=f"{n} cannot shoot into {where}: at least {need} are needed (7.2)")
    bonus = 0 if fortress or aim else (1 if n >= numbers.archer_bonus_from else 0)
    return Volley("archers", 1, _roll(dice, 1, f"{who} archers and crossbowmen"), bonus, target=aim)


# -- the round (7.1) ---------------------------------------------------------------------------------

def over(forces: Mapping[str, Force], numbers: BattleNumbers) -> bool:
    """A side without troops left: the round (and the battle) stops (7.5, 7.8)."""
    return any(not forces[s].troops(numbers) for s in SIDES)


def projectiles(forces: dict[str, Force], setup: Setup, numbers: BattleNumbers, dice: Dice) -> list[Step]:
    """7.2: trebuchets, bombards, then archers and crossbowmen; each type's losses simultaneous."""
    steps: list[Step] = []
    for name in ("trebuchets", "bombards", "archers"):
        if over(forces, numbers):
            break
        volleys: dict[str, Volley] = {}
        for side in SIDES:
            force = forces[side]
            if name == "trebuchets":
                v = trebuchets(force, numbers, dice, side)
            elif name == "bombards":
                v = bombards(force, numbers, dice, side)
            else:
                aim = setup.aims.get(side)
                other = forces[_other(side)]
                if aim is not None and not (any(n.name == aim for n in other.nobles) or
                                            (aim in LAST_UNITS and other.count(aim))):
                    aim = None       # the target is gone: the volley is fired at troops
                v = archers(force, numbers, dice, side, setup.fortress if side == "attacker" else None, aim)
            if v is not None:
                v.grail = setup.grail and side == "attacker"
                volleys[side] = v
        if not volleys:
            continue
        hits = {side: volleys[_other(side)].hits if _other(side) in volleys else 0 for side in SIDES}
        slain: dict[str, str] = {}
        for side in SIDES:
            shot = volleys.get(_other(side))
            if shot is not None and shot.target is not None and shot.faces == [FFF]:
                slain[side] = shot.target
        exploded = {side: volleys[side].blanks for side in SIDES
                    if name == "bombards" and side in volleys and volleys[side].blanks}
        losses = simultaneous(forces, hits, setup, numbers, slain, exploded)
        steps.append(Step(name, volleys, losses))
    return steps


def melee(forces: dict[str, Force], setup: Setup, numbers: BattleNumbers, dice: Dice) -> Step:
    """7.3-7.5: dice by Strength Points; the attacker's fortress penalty (-1 Stronghold, -2
    Fortified City) unless PASSAGE or a sally; +1f a royal guard marker (R8) and +1f Excalibur
    (13.2) to a roll of at least one die; in a cavalcade the defender +1f per die (5.3)."""
    volleys: dict[str, Volley] = {}
    for side in SIDES:
        force = forces[side]
        n = numbers.melee_dice(force.strength(numbers))
        silent = None
        if side == "attacker" and setup.fortress and not (setup.passage or setup.sally):
            penalty = numbers.penalty[setup.fortress]
            if n and n <= penalty:
                silent = f"{n} {'die' if n == 1 else 'dice'} -{penalty} for the fortress (7.4)"
            n = max(0, n - penalty)
        bonus = sum(numbers.guard_hits.get(k, 0) * force.count(k) for k in GUARD)
        bonus += 1 if setup.excalibur.get(side) else 0
        if setup.cavalcade and side == "defender":
            bonus += numbers.cavalcade_bonus * n
        volleys[side] = Volley("melee", n, _roll(dice, n, f"{side} melee"), bonus, silent=silent,
                               grail=setup.grail and side == "attacker")
    hits = {side: volleys[_other(side)].hits for side in SIDES}
    return Step("melee", volleys, simultaneous(forces, hits, setup, numbers))


def battle_round(forces: Mapping[str, Force], setup: Setup, numbers: BattleNumbers, dice: Dice) -> RoundResult:
    """7.1: one battle round - projectiles (skipped in a sally or a cavalcade) then melee - on
    copies of ``forces``; it stops as soon as a side has no troop left."""
    now = {side: forces[side].copy() for side in SIDES}
    steps = [] if (setup.sally or setup.cavalcade) else projectiles(now, setup, numbers, dice)
    if not over(now, numbers):
        steps.append(melee(now, setup, numbers, dice))
    return RoundResult(now, steps)


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


__all__ = ["Dice", "Force", "Noble", "Losses", "Volley", "Setup", "Step", "RoundResult", "choose_losses",
           "simultaneous", "trebuchets", "bombards", "archers", "projectiles", "melee", "battle_round",
           "over", "ENGINES", "DEFAULT_ORDER"]
