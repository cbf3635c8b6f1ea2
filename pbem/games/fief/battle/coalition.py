"""Confederates at the end of a battle round (6.2.3.5): continue, stop fighting, or switch
sides with the opposite leader's acceptance (never in a cavalcade, 5.2.4); a besieged
confederate switching opens the gates (6.1)."""
from __future__ import annotations

from typing import Callable

from pbem.games.fief.battle.context import Battle, RoundDice
from pbem.games.fief.battle.forces import Side, side_cp
from pbem.games.fief.state import FiefState


def coalition_choices(b: Battle, rnd: RoundDice | None,
                      strength: Callable[[FiefState, Side], int] = side_cp) -> None:
    """6.2.3.5: in turn order each confederate (neither leader) continues, stops or switches
    sides - switching only with the opposite leader's acceptance, never in a cavalcade.
    ``strength``: a side's CP as the plans' conditions count them (an edition's own, England's SP)."""
    leaders = (b.attacker.leader, b.defender.leader)
    for fam in b.state.turn_order():
        side = b.side_of_family(fam)
        if fam in leaders or side is None:
            continue
        units, lords = b.units_of(side, fam), b.lords_of(side, fam)
        if not units and not lords:
            continue
        other = b.other(side)
        own, theirs = strength(b.state, side), strength(b.state, other)
        plan = b.plan(fam)
        if not b.setup.cavalcade and plan.switch.when.holds(b.round, own, theirs):
            if fam in b.plan(other.leader).switch.accept:
                _switch(b, fam, side, other, units, lords)
                continue
            b.tell("battle_switch_refused", f"{fam} wants to switch sides but {other.leader} does not "
                   f"accept them ({b.cite('6.2.3.5')}).", {"town": b.setup.town, "family": fam})
        if plan.continue_fighting.until.holds(b.round, own, theirs):
            side.families.remove(fam)
            side.units[:] = [p for p in side.units if p not in units]
            side.lords[:] = [n for n in side.lords if n not in lords]
            b.withdrew.append(fam)
            if side is b.attacker:
                b.engines_kept.append(fam)   # 6.1: markers combine until the end of the battle
            b.tell("battle_withdraw", f"{fam} stops fighting after round {b.round}; their forces "
                   f"remain in the town ({b.cite('6.2.3.5')}).", {"town": b.setup.town, "family": fam})


def _switch(b: Battle, fam: str, side: Side, other: Side, units: list[str], lords: list[str]) -> None:
    side.families.remove(fam)
    side.units[:] = [p for p in side.units if p not in units]
    side.lords[:] = [n for n in side.lords if n not in lords]
    other.families.append(fam)
    other.units.extend(units)
    other.lords.extend(lords)
    b.switched.append(fam)
    opened = b.besieged and side is b.defender and not b.gates_opened
    if opened:
        b.gates_opened = True   # 6.1: the besiegers suffer no fortress penalty any more
    b.tell("battle_switch", f"{fam} switches to {other.leader}'s side after round {b.round} ({b.cite('6.2.3.5')})"
           + (f"; the besieged side's gates are open: no more fortress penalty ({b.cite('6.1')})." if opened
              else "."),
           {"town": b.setup.town, "family": fam, "to": other.role})
