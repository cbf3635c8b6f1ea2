"""England's battle in the core's engine (pbem/games/fief/battle/engine.py runs ``STEPS``, then
``settle``; the edition's `battle` hook names them): the core's sides, plans and context, with
England's round - projectiles then melee (battle/rounds.py) - and England's endings (7.8);
the sides as plain forces in battle/sides.py, what a battle leaves in battle/after.py.

Rulings: R1 (battle order), R6-R8, R32, R70-R78 (docs/fief-england.md).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pbem.games.fief.battle.coalition import coalition_choices
from pbem.games.fief.battle.context import Battle
from pbem.games.fief.battle.forces import BattleError, Side
from pbem.games.fief.battle.losses import Losses as PawnLosses
from pbem.games.fief_england.battle.after import END_TEXT, defeated, settle
from pbem.games.fief_england.battle.hire import hire_crossbowmen
from pbem.games.fief_england.battle.numbers import ENGINES
from pbem.games.fief_england.battle.plan import LEADER
from pbem.games.fief_england.battle.rounds import SIDES, Losses, RoundResult, Volley, battle_round
from pbem.games.fief_england.battle.sides import (decider, force_of, forces_text, numbers, own_plan, round_setup,
                                                  units_text)
from pbem.games.fief_england.royal.guard import guard_of

__all__ = ["STEPS", "settle"]


# -- the steps ---------------------------------------------------------------------------------

def open_battle(b: Battle) -> None:
    """7.0: a declared battle; "both sides reveal their Troops" (4.1: always, fog of war)."""
    s = b.setup
    if not b.attacker.lords:
        raise BattleError(f"{s.attacker} has no noble in the battle: troops without a noble cannot declare "
                          "a battle (7.0)")
    if not (b.defender.units or b.defender.lords):
        raise BattleError(f"{s.defender} has no forces in the battle in {s.town}")
    kind = "a cavalcade, melee only, the defenders +1f per die (5.2, 5.3)" if s.cavalcade else "7.0"
    b.tell("battle_start", f"{s.attacker} attacks {s.defender} in {s.town} ({kind}). Attacking side: "
           f"{', '.join(b.attacker.families)}; defending side: {', '.join(b.defender.families)}.",
           {"town": s.town, "kind": "cavalcade" if s.cavalcade else "battle",
            "attacker_side": list(b.attacker.families), "defender_side": list(b.defender.families)})
    b.tell("battle_forces", f"Both sides reveal their troops in {s.town} (7.0, 4.1): "
           + "; ".join(forces_text(b, side) for side in (b.attacker, b.defender)) + ".", {"town": s.town})


PASSAGE = "passage"   # the PASSAGE fortune card's id in a hand (cards.yaml `fortune: passage`, 10.2)


def play_passage(b: Battle, side: Side, use: str) -> str | None:
    """10.2: a family of the side (its decider first) plays a PASSAGE card from its hand; the
    family that played it, or None when none holds one."""
    chosen = decider(b, side)
    for fam in [chosen] + [f for f in side.families if f != chosen]:
        hand = b.state.families[fam].hand
        if PASSAGE in hand:
            hand.remove(PASSAGE)
            b.state.events_discard.append(PASSAGE)
            b.tell("passage_played", f"{fam} plays PASSAGE in the battle in {b.setup.town}: {use} (10.2).",
                   {"town": b.setup.town, "family": fam, "use": use})
            return fam
    return None


def tunnels(b: Battle) -> None:
    """10.2 "Attack from the Tunnels": the attacker of a fortress plays PASSAGE (its plan's
    `tunnels`) to cancel all melee attacker penalties for the battle (7.4)."""
    if b.setup.underground or not b.fortress_applies() or not own_plan(b, decider(b, b.attacker)).tunnels:
        return
    if play_passage(b, b.attacker, "attack from the tunnels, no melee penalty (7.4)"):
        b.setup = replace(b.setup, underground=True)


def alone_at_start(b: Battle) -> None:
    """7.0, 7.5: "Nobles, Trebuchets, and Bombards, alone in a City without Troops, are
    immediately captured" (the FAQ's lone Lord: no battle die)."""
    if not force_of(b, b.defender).troops(numbers()):
        b.finish("alone", winner="attacker")
        defeated(b, b.defender)


def battle_rounds(b: Battle) -> None:
    """7.1: battle rounds, each projectiles then melee, until the battle ends (7.8)."""
    while b.end is None:
        b.round += 1
        b.fought = b.round
        forces = {side.role: force_of(b, side) for side in (b.attacker, b.defender)}
        result = battle_round(forces, round_setup(b), numbers(), lambda why: b.rng.die(
            numbers().faces, f"battle in {b.setup.town}, round {b.round}, {why}"))
        tell_round(b, result)
        b.quiet_rounds = 0 if result.lost_anything() else b.quiet_rounds + 1
        tactical_destruction(b)
        # 7.0: "Allies may betray each other anytime during the Battle, even switching sides
        # mid-Battle" - the core's confederates' choices at the end of a roll, on England's SP.
        coalition_choices(b, None, strength=lambda state, side: force_of(b, side).strength(numbers()))
        end_of_round(b)


STEP_WORDS = {"trebuchets": "Trebuchets (7.2)", "bombards": "Bombards (7.2)",
              "archers": "Archers and crossbowmen (7.2)", "melee": "Melee (7.3-7.5)"}


def tell_round(b: Battle, result: RoundResult) -> None:
    """Each step as it was fired, and its losses taken from the board (pawns and nobles)."""
    for step in result.steps:
        fired = "; ".join(f"{b.side(role).leader}'s side: {volley_text(v)}"
                          for role, v in step.volleys.items())
        b.tell("battle_melee" if step.name == "melee" else "battle_projectiles",
               f"Battle round {b.round} in {b.setup.town}, {STEP_WORDS[step.name]}: {fired}.",
               {"town": b.setup.town, "round": b.round, "step": step.name,
                "faces": {r: list(v.faces) for r, v in step.volleys.items()},
                "hits": {r: v.hits for r, v in step.volleys.items()}})
        for role in SIDES:
            take(b, b.side(role), step.losses[role], step.name)


def volley_text(v: Volley) -> str:
    if v.silent:
        return f"does not fire: {v.silent}"
    rolled = f"{v.dice} {'die' if v.dice == 1 else 'dice'} {v.faces}"
    if v.target is not None:
        return f"{rolled} aimed at {'the Invader Leader' if v.target == LEADER else v.target}" \
               + (": 'fff', slain" if v.faces == [3] else ": missed")
    bonus = f" +{v.bonus}" if v.bonus and v.faces else ""
    return f"{rolled}{bonus} = {v.hits} {'hit' if v.hits == 1 else 'hits'}"


def take(b: Battle, side: Side, losses: Losses, step: str) -> None:
    """Remove the losses chosen on the plain force from the board: the pawns of each kind (the
    confederates' first, then the decider's - or the other way round, the decider's plan's
    `own_losses_last` - oldest first, the core's order), the nobles slain."""
    if not losses.any():
        return
    chosen = decider(b, side)
    others = [f for f in side.families if f != chosen]
    families = others + [chosen] if b.plan(chosen).own_losses_last else [chosen] + others
    pawns: list[str] = []
    for kind, n in losses.removed().items():
        ids = sorted((p for p in side.units if b.state.pawns[p].kind == kind and p not in pawns),
                     key=lambda p: (families.index(b.state.pawns[p].family), len(p), p))
        pawns += ids[:n]
    what = units_text(losses.units) if losses.units else ""
    if losses.exploded:
        boom = f"{losses.exploded} bombard{'s' if losses.exploded > 1 else ''} exploded"
        what = ", ".join(filter(None, [what, boom + (f" with {units_text({'man_at_arms': losses.crew})}"
                                                     if losses.crew else "")]))
    slain = ", ".join(losses.nobles)
    b.tell("battle_losses", f"{side.leader}'s side loses {', '.join(filter(None, [what, slain and slain + ' slain']))}"
           f"{f' ({losses.wasted} hits without effect)' if losses.wasted else ''} (7.5).",
           {"town": b.setup.town, "side": side.role, "step": step,
            "pawns": dict(Counter(b.state.pawns[p].kind for p in pawns)), "lords": list(losses.nobles),
            "exploded": losses.exploded, "wasted": losses.wasted})
    b.lose(side, PawnLosses(pawns=pawns, lords=list(losses.nobles)))


def tactical_destruction(b: Battle) -> None:
    """7.2 Tactical Destruction: at the end of a battle round a family with troops remaining may
    destroy its own trebuchets and bombards there (its plan's `destroy_engines`), so that they do
    not fall into enemy hands."""
    sp = {s.role: force_of(b, s).strength(numbers()) for s in (b.attacker, b.defender)}
    for side in (b.attacker, b.defender):
        other = b.other(side).role
        for fam in side.families:
            engines = [p for p in b.units_of(side, fam) if b.state.pawns[p].kind in ENGINES]
            if not engines or not any(numbers().sp(b.state.pawns[p].kind) for p in b.units_of(side, fam)):
                continue
            if not own_plan(b, fam).destroy_engines.holds(b.round, sp[side.role], sp[other]):
                continue
            gone = dict(Counter(b.state.pawns[p].kind for p in engines))
            b.lose(side, PawnLosses(pawns=engines))
            b.tell("engines_destroyed", f"{fam} destroys their own {units_text(gone)} in {b.setup.town} "
                   "(7.2 Tactical Destruction).", {"town": b.setup.town, "family": fam, "pawns": gone})


def troops(b: Battle, side: Side) -> int:
    return force_of(b, side).troops(numbers())


def end_of_round(b: Battle) -> None:
    """7.8, in the order the facts of the field decide first, then the plans."""
    a_troops, d_troops = troops(b, b.attacker), troops(b, b.defender)
    if not a_troops and not d_troops:
        b.finish("annihilation", winner=None)      # 7.8: only nobles remain; control unchanged
        return
    for side in (b.attacker, b.defender):
        if not troops(b, side):
            b.finish("victory", winner=b.other(side).role)
            defeated(b, side)
            return
    a_sp, d_sp = (force_of(b, s).strength(numbers()) for s in (b.attacker, b.defender))
    sp = {"attacker": (a_sp, d_sp), "defender": (d_sp, a_sp)}
    if b.defender.lords and own_plan(b, decider(b, b.defender)).withdraw.holds(b.round, *sp["defender"]):
        withdraw(b)
        if not troops(b, b.defender):
            b.finish("victory", winner="attacker")
            defeated(b, b.defender)
            return
    for leader in [f for f in b.state.turn_order() if f in (b.attacker.leader, b.defender.leader)]:
        side = b.attacker if leader == b.attacker.leader else b.defender
        if b.plan(decider(b, side)).surrender.holds(b.round, *sp[side.role]):
            surrender(b, side)
            return
    a_asks = b.plan(decider(b, b.attacker)).stop.when.holds(b.round, *sp["attacker"])
    d_plan = b.plan(decider(b, b.defender)).stop
    if a_asks and b.fortress_applies():
        stop(b, "attacker_stops", b.attacker)      # 7.8 Note: the attacker of a fortress alone
    elif not b.defender.lords and a_asks:
        stop(b, "leaderless", b.attacker)          # 7.8 Assassination
    elif not b.attacker.lords and d_plan.when.holds(b.round, *sp["defender"]):
        stop(b, "leaderless", b.defender)
    elif (a_asks and (d_plan.when.holds(b.round, *sp["defender"]) or d_plan.accept.holds(b.round, *sp["defender"]))) \
            or (d_plan.when.holds(b.round, *sp["defender"])
                and b.plan(decider(b, b.attacker)).stop.accept.holds(b.round, *sp["attacker"])):
        stop(b, "truce", b.attacker if a_asks else b.defender)
    elif b.quiet_rounds >= numbers().deadlock_rounds:
        b.finish("deadlock", winner=None)


def withdraw(b: Battle) -> None:
    """7.8 Withdraw: with a PASSAGE card the defenders' nobles leave to an adjacent city, each
    taking one of their troops (the strongest; R76: a royal guard goes with its lord besides);
    every other troop stays in the battle."""
    plan = own_plan(b, decider(b, b.defender))
    to = withdrawal_city(b, plan.withdraw_to)
    if to is None or not play_passage(b, b.defender, f"the defenders' nobles withdraw to {to} (7.8)"):
        return
    gone: list[str] = []
    nobles = list(b.defender.lords)
    for name in nobles:
        family = b.state.lords[name].family
        mine = [p for p in b.defender.units if b.state.pawns[p].family == family and p not in gone
                and numbers().sp(b.state.pawns[p].kind) > 0]
        guard = [p for p in mine if p in guard_of(b.state, name)]   # 13.1: the markers given to this noble
        rest = sorted((p for p in mine if p not in guard),
                      key=lambda p: (-numbers().sp(b.state.pawns[p].kind), len(p), p))
        for pid in guard + rest[:1]:
            b.state.pawns[pid].location = to
            b.defender.units.remove(pid)
            gone.append(pid)
        b.state.lords[name].location = to
        b.defender.lords.remove(name)
    b.tell("battle_withdraw", f"{', '.join(nobles)} withdraw{'s' if len(nobles) == 1 else ''} from "
           f"{b.setup.town} to {to} with {units_text(dict(Counter(b.state.pawns[p].kind for p in gone)))}; "
           "the other troops stay in the battle (7.8).",
           {"town": b.setup.town, "to": to, "lords": nobles, "pawns": len(gone)})


def withdrawal_city(b: Battle, wanted: str | None) -> str | None:
    """The plan's city if a road joins it to the battle's; else (R76) an adjacent city a
    defending family controls, else the first adjacent city in the board's order."""
    near = b.board.neighbours(b.setup.town)
    if wanted in near:
        return wanted
    held = [t for t in near if b.state.towns[t].controller in b.defender.families]
    return next(iter(held or near), None)


def stop(b: Battle, end: str, side: Side) -> None:
    b.finish(end, winner=None, stopped_by=side.leader)
    b.tell("battle_stopped", f"{side.leader} ends the battle in {b.setup.town} after round {b.round}: "
           f"{END_TEXT[end]}. Both armies remain in the city.", {"town": b.setup.town, "end": end,
                                                                   "stopped_by": side.leader, "round": b.round})


def surrender(b: Battle, side: Side) -> None:
    """7.8: "All remaining Troops of the surrendering Army are taken off the Map and its Nobles
    are taken Captive"."""
    b.finish("surrender", winner=b.other(side).role)
    gone = [p for p in side.units if b.state.pawns[p].kind not in ENGINES]
    b.tell("battle_surrender", f"{side.leader} surrenders: {len(gone)} troop{'s are' if len(gone) != 1 else ' is'} "
           "taken off the map (7.8).", {"town": b.setup.town, "family": side.leader, "side": side.role,
                                       "pawns": len(gone)})
    b.lose(side, PawnLosses(pawns=gone))
    defeated(b, side)


STEPS = (
    ("7.0, 4.1", "the battle declared, both sides reveal their troops", open_battle),
    ("10.2, 7.4", "PASSAGE: attack from the tunnels (the attacker's plan)", tunnels),
    ("11.1, R41", "mercenary crossbowmen hired by the plans (battle/hire.py)", hire_crossbowmen),
    ("7.0, 7.5, 7.6", "nobles, trebuchets and bombards alone are captured at once", alone_at_start),
    ("7.1-7.8", "battle rounds - projectiles then melee - until the battle ends", battle_rounds),
)
