"""The end of a battle round and of a battle (6.2.3.5) and surrender (6.2), decided from the
plans.

END_CASES lists every way a battle stops, in the order they are checked. The facts of the
field come first (a side wiped out, only lords left, no attacking lord): when one holds the
battle is decided and a plan's "stop" or "surrender" has nothing left to decide (Rulings).
"""
from __future__ import annotations

from typing import Callable

from pbem.games.fief.battle.context import Battle, RoundDice
from pbem.games.fief.battle.taken import take_captives
from pbem.games.fief.battle.forces import Side, fighters, side_cp


def _empty(b: Battle, side: Side) -> bool:
    return not fighters(b.state, side) and not side.lords


def _only_lords(b: Battle, side: Side) -> bool:
    # A bombard takes no hit and cannot fight alone (6.2.3.4): a side with lords and bombards
    # has "only lords left" (Rulings).
    return not fighters(b.state, side) and bool(side.lords)


def both_wiped_out(b: Battle) -> bool:
    """Both sides have no more unit pawns nor lords left: control by 5.2.2 (battle_after)."""
    if _empty(b, b.attacker) and _empty(b, b.defender):
        b.finish("both_wiped_out", winner=None)
        return True
    return False


def side_wiped_out(b: Battle) -> bool:
    """One side has no more unit pawns nor lords left."""
    for side in (b.attacker, b.defender):
        if _empty(b, side):
            b.finish("side_wiped_out", winner=b.other(side).role)
            return True
    return False


def only_lords_both(b: Battle) -> bool:
    """There are only lords left on both sides: they remain in town, control does not change."""
    if _only_lords(b, b.attacker) and _only_lords(b, b.defender):
        b.finish("only_lords_both", winner=None)
        return True
    return False


def only_lords(b: Battle) -> bool:
    """One of the sides has only lords left: they may be taken captive (6.3)."""
    for side in (b.attacker, b.defender):
        if _only_lords(b, side):
            b.finish("only_lords", winner=b.other(side).role)
            take_captives(b, side)
            return True
    return False


def attacker_no_lord(b: Battle) -> bool:
    """The attacking side has no lord left: control does not change."""
    if not b.attacker.lords:
        b.finish("attacker_no_lord", winner=None)
        return True
    return False


def surrender_check(b: Battle) -> bool:
    """6.2, 6.2.3.5: a leader surrenders when its plan says so (leaders in turn order, H.3).
    All the side's unit pawns are eliminated; its lords may be taken captive."""
    order = [f for f in b.state.turn_order() if f in (b.attacker.leader, b.defender.leader)]
    for leader in order:
        side = b.attacker if leader == b.attacker.leader else b.defender
        other = b.other(side)
        own, theirs = side_cp(b.state, side), side_cp(b.state, other)
        if not b.plan(leader).surrender.holds(b.round, own, theirs):
            continue
        b.finish("surrender", winner=other.role)
        gone = list(side.units)
        b.tell("battle_surrender", f"{leader} surrenders ({side.role} side, {own} CP against {theirs}): "
               f"{len(gone)} unit {'pawn is' if len(gone) == 1 else 'pawns are'} eliminated (6.2.3.5).",
               {"town": b.setup.town, "family": leader, "side": side.role, "pawns": len(gone)})
        for pid in gone:
            side.units.remove(pid)
            del b.state.pawns[pid]
        take_captives(b, side)
        return True
    return False


def agreed_stop(b: Battle) -> bool:
    """Both sides agree to stop: a leader asks (its plan's stop.when) and the other accepts
    (stop.accept). The attacker decides alone when the besieged family is on the defensive side
    or the defensive side has no lord left."""
    a_plan, d_plan = b.plan(b.attacker.leader).stop, b.plan(b.defender.leader).stop
    a_cp, d_cp = side_cp(b.state, b.attacker), side_cp(b.state, b.defender)
    a_asks = a_plan.when.holds(b.round, a_cp, d_cp)
    d_asks = d_plan.when.holds(b.round, d_cp, a_cp)
    alone = (b.besieged and b.controller in b.defender.families) or not b.defender.lords
    if alone:
        who = b.attacker.leader if a_asks else None
        why = "the attacker decides alone (6.2.3.5)"
    elif a_asks and (d_asks or d_plan.accept.holds(b.round, d_cp, a_cp)):
        who, why = b.attacker.leader, f"{b.defender.leader} agrees"
    elif d_asks and a_plan.accept.holds(b.round, a_cp, d_cp):
        who, why = b.defender.leader, f"{b.attacker.leader} agrees"
    else:
        return False
    if who is None:
        return False
    b.finish("agreed_stop", winner=None, stopped_by=who)
    b.tell("battle_stopped", f"{who} stops the battle in {b.setup.town} after round {b.round}; {why}. "
           "Surviving forces remain in the town (6.2.3.5).",
           {"town": b.setup.town, "stopped_by": who, "round": b.round})
    return True


def three_quiet_rounds(b: Battle) -> bool:
    """3 consecutive battle rounds occurred with no loss on both sides."""
    if b.quiet_rounds >= 3:
        b.finish("three_quiet_rounds", winner=None)
        return True
    return False


END_CASES: tuple[tuple[str, str, Callable[[Battle], bool]], ...] = (
    ("both_wiped_out", "both sides have no more unit pawns nor lords left", both_wiped_out),
    ("side_wiped_out", "one side has no more unit pawns nor lords left", side_wiped_out),
    ("only_lords_both", "there are only lords left on both sides", only_lords_both),
    ("only_lords", "one of the sides has only lords left", only_lords),
    ("attacker_no_lord", "the attacking side has no lord left", attacker_no_lord),
    ("surrender", "one of the sides surrenders", surrender_check),
    ("agreed_stop", "both sides agree to stop the battle", agreed_stop),
    ("three_quiet_rounds", "3 consecutive battle rounds with no loss on both sides", three_quiet_rounds),
)
# Ends that happen outside the round-end check: at the start (6) and after archer shooting (6.2.2).
OTHER_ENDS = {"lord_without_army": "a lord without an army is captured at once (6, 6.3)"}
# (attacker_no_lord also ends the battle at once after the archer shooting, 6.2.2, or an ambush.)
END_TEXT = {name: words for name, words, _check in END_CASES} | OTHER_ENDS


def end_of_round(b: Battle, rnd: RoundDice) -> None:
    """6.2.3.5: the battle stops at the first case that holds; otherwise a new round begins."""
    for _name, _words, check in END_CASES:
        if check(b):
            return
