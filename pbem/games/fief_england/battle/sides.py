"""An England battle's sides read as plain forces (battle/rounds.py) and told in words: who
decides for a side (7.0, R77), what a round needs (7.2-7.4), England's unit words."""
from __future__ import annotations

from collections import Counter

from pbem.games.fief.battle.context import Battle
from pbem.games.fief.battle.forces import Side
from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.battle.numbers import BattleNumbers, england_numbers
from pbem.games.fief_england.battle.plan import LEADER, EnglandPlan, england_plan
from pbem.games.fief_england.battle.rounds import DEFAULT_ORDER, Force, Noble, Setup
from pbem.games.fief_england.church.relic_powers import grail_defends

# The words of England's pawn kinds that are not units of its record (`units:`): hired, given,
# the Invaders' (11.1, 13.1, 6.0).
WORDS = {"crossbowman": ("crossbowman", "crossbowmen"),
         "royal_knight": ("Royal Knight", "Royal Knights"),
         "royal_man_at_arms": ("Royal Man-at-Arms", "Royal Men-at-Arms"),
         "invader_foot": ("Invader Foot Soldier", "Invader Foot Soldiers"),
         "invader_leader": ("Invader Leader", "Invader Leaders")}


def units_text(units: dict[str, int]) -> str:
    """"2 men-at-arms, 1 trebuchet": the record's words for its units, WORDS for the others."""
    if not units:
        return "no troops"
    edition = load_edition("fief_england")
    return ", ".join(edition.unit_text(k, n) if k in edition.units else f"{n} {WORDS.get(k, (k, k))[n != 1]}"
                     for k, n in sorted(units.items()))


def forces_text(b: Battle, side: Side) -> str:
    parts = []
    for fam in side.families:
        units = dict(Counter(b.state.pawns[p].kind for p in b.units_of(side, fam)))
        what = ", ".join(filter(None, [", ".join(b.lords_of(side, fam)), units_text(units) if units else ""]))
        parts.append(f"{fam}: {what or 'nothing'}")
    return f"{side.role} side ({'; '.join(parts)})"


def numbers() -> BattleNumbers:
    return england_numbers()


# -- reading the battle as plain forces --------------------------------------------------------

def force_of(b: Battle, side: Side) -> Force:
    return force_of_units(b.state, side.units, side.lords)


def force_of_units(state: FiefState, units: list[str], lords: list[str]) -> Force:
    """7.3: these pawns by kind and these nobles (1 SP a man or a female Titled Lord)."""
    nobles = [Noble(n, 1 if (not state.lords[n].female or state.lords[n].fief_titles) else 0) for n in lords]
    return Force(dict(Counter(state.pawns[p].kind for p in units)), nobles)


def decider(b: Battle, side: Side) -> str:
    """7.0: "the Player with the most Strength Points decides which Troops take Hits and which
    Noble takes Captives" - counted as the side stands; a tie goes to the leader, then the
    earlier to join."""
    def sp(fam: str) -> int:
        return force_of(b, Side(side.role, fam, [fam], b.units_of(side, fam), b.lords_of(side, fam))) \
            .strength(numbers())
    return max(side.families, key=lambda f: (sp(f), f == side.leader, -side.families.index(f)))


def own_plan(b: Battle, family: str) -> EnglandPlan:
    return england_plan(b.state.families[family].policies, b.setup.town)


def round_setup(b: Battle) -> Setup:
    """The round's setting: the fortress the defenders hold (7.4), PASSAGE against it (the
    setup's `underground`, 10.2), a sally (the besieged attacking out, 7.9), a cavalcade (5.3),
    aims (7.2), Excalibur (13.2), the Holy Grail (12.1) and who chooses each side's losses (7.0)."""
    town = b.state.towns[b.setup.town]
    aims, excalibur, orders, noble_orders = {}, {}, {}, {}
    holder = excalibur_holder(b)
    for side in (b.attacker, b.defender):
        who = decider(b, side)
        other = b.other(side)
        targets = [t for t in own_plan(b, who).aim_at
                   if t in other.lords or (t == LEADER and any(b.state.pawns[p].kind == LEADER for p in other.units))]
        if targets:
            aims[side.role] = targets[0]
        excalibur[side.role] = holder is not None and holder in side.lords
        first = own_plan(b, who).losses
        orders[side.role] = first + tuple(k for k in DEFAULT_ORDER if k not in first)
        noble_orders[side.role] = tuple(b.plan(who).lords_first)
    return Setup(fortress=town.fortress if b.fortress_applies() else None, passage=b.setup.underground,
                 sally=b.setup.leaving_fortress, cavalcade=b.setup.cavalcade, aims=aims, excalibur=excalibur,
                 grail=grail_defends(b.state, b.defender.lords),   # 12.1
                 orders=orders, noble_orders=noble_orders)


def excalibur_holder(b: Battle) -> str | None:
    """13.2: the noble carrying Excalibur (the crown part's `excalibur` state: its `holder`)."""
    data = b.state.edition_state.get("excalibur")
    return data.get("holder") if isinstance(data, dict) else None
