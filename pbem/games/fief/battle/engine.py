"""The battle engine: one battle, resolved from the leaders' and confederates' standing plans
(DESIGN.md "Battle plans instead of round-by-round choices"). Rulebook section 6.2.

``resolve_battle`` runs the table STEPS in the rulebook's order, and ROUND_STEPS for every
battle round (6.2.3) until a case of END_CASES (battle/end.py) stops it. Every step is a small
function named after its rulebook section, so a reader can hold this file against the book.
The state given is a private copy (the judge's rule): it is changed in place.
"""
from __future__ import annotations

from typing import Callable, Mapping

from pbem.games.fief.battle.after import settle
from pbem.games.fief.battle.context import Battle, RoundDice
from pbem.games.fief.battle.dice import PENALTY, Penalty, Roll, cancel_penalty, roll_dice
from pbem.games.fief.battle.taken import ambushes, take_captives
from pbem.games.fief.battle.coalition import coalition_choices
from pbem.games.fief.battle.end import end_of_round, surrender_check
from pbem.games.fief.battle.forces import (BattleError, Side, base_dice, build_sides,
                                           fighters, kinds_count, side_bonus, side_cp)
from pbem.games.fief.battle.losses import Losses, choose_losses
from pbem.games.fief.battle.plan import BattleOutcome, BattlePlan, BattleSetup
from pbem.games.fief.battle.text import losses_text, units_text
from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hooks import BattleRules
from pbem.games.fief.hear_ye.elimination import captive_markers_left
from pbem.games.fief.state import FiefState
from pbem.rules.rng import Rng

__all__ = ["resolve_battle", "opening_dice", "BattleError", "BattleOutcome", "STEPS", "ROUND_STEPS"]


def resolve_battle(state: FiefState, board: Board, setup: BattleSetup,
                   plans: Mapping[str, BattlePlan], rng: Rng, rules: BattleRules | None = None) -> BattleOutcome:
    """Fight one battle (6.2) in ``state`` (changed in place) and tell it round by round.
    ``rules``: an edition's own battle; by default the game's edition's `battle` hook, else France's."""
    attacker, defender = build_sides(state, setup)
    battle = Battle(state, board, setup, dict(plans), rng, attacker, defender)
    own = rules or edition_of(state).hooks.battle     # an edition's own battle (England, E 7)
    for _section, _what, step in (own.steps if own else STEPS):
        if battle.end is not None:
            break
        step(battle)
    (own.settle if own else settle)(battle)
    return battle.outcome()


def opening_dice(state: FiefState, board: Board, setup: BattleSetup) -> dict[str, int]:
    """The battle dice each side would roll in the first round (6.2.3.1-3), rolling nothing and
    changing nothing: 6.4.1 example 2, "Marie cannot attack as she does not have any available
    battle dice because of the stronghold" - for the Battle Phase's declaration check."""
    attacker, defender = build_sides(state, setup)
    battle = Battle(state, board, setup, {}, Rng("opening dice: never rolled"), attacker, defender)
    rnd = RoundDice()
    cp_and_dice(battle, rnd)
    fortress_penalty(battle, rnd)
    return dict(rnd.dice)


# -- the steps before the battle rounds -------------------------------------------------------

def open_battle(b: Battle) -> None:
    """6, 6.1: the sides as they stand; I.2: under fog of war the pawns are shown."""
    s = b.setup
    if not b.attacker.lords:
        raise BattleError(f"{s.attacker} has no lord in the battle: a troop cannot declare a battle (6)")
    if not (b.defender.units or b.defender.lords):
        raise BattleError(f"{s.defender} has no forces in the battle in {s.town}")
    kind = "cavalcade" if s.cavalcade else "battle"
    b.tell("battle_start", f"{s.attacker} attacks {s.defender} in {s.town} "
           f"({'a cavalcade, 5.2.4' if s.cavalcade else '6'}). "
           f"Attacking side: {', '.join(b.attacker.families)}; defending side: "
           f"{', '.join(b.defender.families)}.",
           {"town": s.town, "kind": kind, "attacker_side": list(b.attacker.families),
            "defender_side": list(b.defender.families)})
    if edition_of(b.state).fog(b.state.options):
        edition = edition_of(b.state)
        shown = "; ".join(f"{side.role} {fam}: {units_text(edition, kinds_count(b.state, b.units_of(side, fam)))}"
                          for side in (b.attacker, b.defender) for fam in side.families)
        b.tell("battle_revealed", f"Fog of war lifts on the battle in {s.town} (I.2): {shown}.",
               {"town": s.town, "units": {fam: kinds_count(b.state, b.units_of(side, fam))
                                          for side in (b.attacker, b.defender) for fam in side.families}})
    b.tell("battle_forces",
           f"Forces in {s.town}: " + "; ".join(b.forces_text(side) for side in (b.attacker, b.defender)) + ".",
           {"town": s.town})


def lord_without_army(b: Battle) -> None:
    """6: "A lord without an army being attacked may immediately be captured (6.3)"."""
    if fighters(b.state, b.defender) or not b.defender.lords:
        return
    if not b.plan(b.attacker.leader).take_captives:
        return
    if not captive_markers_left(b.state):   # ruling 39: no captive marker, no capture; fought normally
        return
    b.finish("lord_without_army", winner="attacker")
    take_captives(b, b.defender)


def ambush_at_start(b: Battle) -> None:
    """G.4.2.5: ambush cards played at the start of the battle (the hook)."""
    ambushes(b, 0)


def ambush_this_round(b: Battle, rnd: RoundDice) -> None:
    """G.4.2.5: ambush cards played at the start of this battle round (the hook)."""
    ambushes(b, b.round)


def surrender_now(b: Battle) -> None:
    """6.2: "A side may decide to surrender now to stop the battle"."""
    surrender_check(b)


def scorched_earth(b: Battle) -> None:
    """6.2.1: a defender controlling the town, not besieged, may destroy 1 mill for 1 denier."""
    town = b.state.towns[b.setup.town]
    who = b.setup.defender
    if (b.controller == who and not b.besieged and town.mills > 0
            and b.plan(who).scorched_earth):
        town.mills -= 1
        b.state.families[who].deniers += 1
        b.tell("scorched_earth", f"Scorched earth: {who} destroys a mill in {b.setup.town} and "
               f"gains {edition_of(b.state).money_text(1)} (6.2.1).", {"town": b.setup.town, "family": who})


def archer_shooting(b: Battle) -> None:
    """6.2.2: both sides at once, before the first round; the fortress penalty removes attacking
    archers (6.4.4); I.1: the defender may shoot at a lord instead. The battle stops at once if
    the last attacking lord falls."""
    rolls: dict[str, Roll | None] = {}
    pen = penalty(b)
    for side in (b.attacker, b.defender):
        archers = [p for p in side.units if b.state.pawns[p].kind == "archer"]
        usable = max(0, len(archers) - (pen.left if side is b.attacker else 0))
        if side is b.attacker and len(archers) > usable:
            b.tell("battle_archers_blocked", f"The fortress keeps {len(archers) - usable} of the attacking "
                   f"side's {len(archers)} archers from shooting (6.4.4: {pen.text()}).",
                   {"town": b.setup.town, "blocked": len(archers) - usable})
        rolls[side.role] = None
        if usable and not (side is b.defender and adjusted_shooting(b, archers)):
            roll = roll_dice(b.rng, 1, 0, f"archer shooting in {b.setup.town}: {side.role}")
            roll.archers = usable - 1
            roll.cavalcade = 1 if (side is b.defender and b.setup.cavalcade) else 0
            rolls[side.role] = roll
            b.tell("battle_shooting", f"Archer shooting (6.2.2), {side.role} side, {usable} "
                   f"{'archer' if usable == 1 else 'archers'}: {roll.text()}.",
                   {"town": b.setup.town, "side": side.role, "archers": usable, "faces": roll.faces,
                    "hits": roll.hits})
    hits = {role: (r.hits if r else 0) for role, r in rolls.items()}
    apply_both(b, hits, "archer shooting")
    if b.end is None and not b.attacker.lords:
        b.finish("attacker_no_lord", winner=None)


def adjusted_shooting(b: Battle, archers: list[str]) -> bool:
    """I.1 (option adjusted_shooting): a battle in a town with a fortress the defensive side
    holds, the attacker without underground: the defender rolls a d6 at a lord, a 6 kills.
    Returns True when it replaced the defender's archer shooting."""
    town = b.state.towns[b.setup.town]
    plan = b.plan(b.setup.defender)
    if not (b.state.options.get("adjusted_shooting") and plan.adjusted_shooting and town.fortress
            and not b.setup.underground and archers and b.fortress_applies() and b.attacker.lords):
        return False
    target = next((n for n in plan.adjusted_target if n in b.attacker.lords), None)
    if target is None:
        target = max(b.attacker.lords, key=lambda n: (b.state.lords[n].title_count(),
                                                       b.state.lords[n].family == b.setup.attacker, n))
    roll = b.rng.d6(f"adjusted shooting in {b.setup.town} at {target}")
    b.tell("battle_adjusted_shooting", f"Adjusted shooting (I.1): {b.setup.defender} aims at {target} "
           f"and rolls {roll}: {'hit, ' + target + ' is eliminated' if roll == 6 else 'missed'}.",
           {"town": b.setup.town, "target": target, "roll": roll})
    if roll == 6:
        b.lose(b.attacker, Losses(lords=[target]))
    return True


def battle_rounds(b: Battle) -> None:
    """6.2.3: battle rounds succeed until the battle stops."""
    while b.end is None:
        b.round += 1
        rnd = RoundDice()
        for _section, _what, step in ROUND_STEPS:
            step(b, rnd)
            if b.end is not None:
                break


# -- the battle round (6.2.3) -----------------------------------------------------------------

def cp_and_dice(b: Battle, rnd: RoundDice) -> None:
    """6.2.3.1: CP of each side and its battle dice before any penalty."""
    for side in (b.attacker, b.defender):
        rnd.cp[side.role] = side_cp(b.state, side)
        rnd.dice[side.role] = base_dice(b.state, side, rnd.cp[side.role])


def penalty(b: Battle) -> Penalty:
    """6.2.3.2-3: the penalty against the attacking side, cancelled in the book's order."""
    town = b.state.towns[b.setup.town]
    fortress = PENALTY.get(town.fortress or "", 0) if b.fortress_applies() else 0
    engines = sum(v for fam, v in town.besiegers.items()
                  if fam in b.attacker.families or fam in b.engines_kept)
    bombards = sum(1 for p in b.attacker.units if b.state.pawns[p].kind == "bombard")
    return cancel_penalty(fortress, engines, bombards, b.setup.underground)


def fortress_penalty(b: Battle, rnd: RoundDice) -> None:
    """6.2.3.2 and 6.2.3.3: apply what is left of the penalty to the attacking side."""
    rnd.penalty = penalty(b)
    rnd.dice["attacker"] = max(0, rnd.dice["attacker"] - rnd.penalty.left)


def roll_and_hits(b: Battle, rnd: RoundDice) -> None:
    """6.2.3.4: roll; a re-roll per bombard that cancelled no penalty; +1 hit per royal guard
    pawn; in a cavalcade the defender +1 hit per die rolled (5.2.4)."""
    b.fought = b.round
    for side in (b.attacker, b.defender):
        bombards = sum(1 for p in side.units if b.state.pawns[p].kind == "bombard")
        if side is b.attacker:
            bombards -= rnd.penalty.bombards
        n = rnd.dice[side.role]
        roll = roll_dice(b.rng, n, bombards, f"battle in {b.setup.town}, round {b.round}, {side.role}")
        guard = edition_of(b.state).hooks.royal_guard   # 1.5.5: 1 hit per guard pawn
        roll.guard = sum(1 for p in side.units if b.state.pawns[p].kind in guard)
        roll.cavalcade = n if (side is b.defender and b.setup.cavalcade) else 0
        rnd.rolls[side.role] = roll
    a, d = rnd.rolls["attacker"], rnd.rolls["defender"]
    pen = f" ({rnd.penalty.text()})" if rnd.penalty.fortress else ""
    added = {}
    for side in (b.attacker, b.defender):
        bonus = side_bonus(b.state, side)   # G.4.1.1 (France: "D'Arc +1 die")
        added[side.role] = f" ({bonus.title} +{bonus.dice} die)" if bonus and rnd.dice[side.role] else ""
    b.tell("battle_round", f"Battle round {b.round} in {b.setup.town} (6.2.3): {b.setup.attacker}'s side, "
           f"{rnd.cp['attacker']} CP{added['attacker']}{pen}: {a.text()}; {b.setup.defender}'s side, "
           f"{rnd.cp['defender']} CP{added['defender']}: "
           f"{d.text()}.",
           {"town": b.setup.town, "round": b.round, "cp": dict(rnd.cp),
            "dice": {k: r.dice for k, r in rnd.rolls.items()},
            "faces": {k: list(r.faces) for k, r in rnd.rolls.items()},
            "hits": {k: r.hits for k, r in rnd.rolls.items()}, "penalty": rnd.penalty.left})


def losses_step(b: Battle, rnd: RoundDice) -> None:
    """6.2.3.4: both sides' losses at once."""
    lost = apply_both(b, {k: r.hits for k, r in rnd.rolls.items()}, f"round {b.round}")
    b.quiet_rounds = 0 if lost else b.quiet_rounds + 1


def apply_both(b: Battle, hits: Mapping[str, int], when: str) -> bool:
    """Hits on both sides, losses chosen first and then applied together (6.2.3.4: simultaneous).
    Returns True if anything was lost."""
    chosen: list[tuple[Side, Losses]] = []
    for side, other in ((b.attacker, b.defender), (b.defender, b.attacker)):
        taken = hits.get(other.role, 0)
        losses = choose_losses(b.state, side, taken, b.plan(side.leader))
        chosen.append((side, losses))
    lost = False
    for side, losses in chosen:
        taken = hits.get("attacker" if side is b.defender else "defender", 0)
        if not taken:
            continue
        b.tell("battle_losses", f"{when.capitalize()}: {side.leader}'s side takes {taken} "
               f"{'hit' if taken == 1 else 'hits'} and loses {losses_text(b.state, losses)} (6.2.3.4).",
               {"town": b.setup.town, "side": side.role, "hits": taken,
                "pawns": {k: v for k, v in kinds_count(b.state, losses.pawns).items()},
                "lords": list(losses.lords), "wasted": losses.wasted})
        lost = b.lose(side, losses) or lost
    b.drop_lone_bombards("6.2.3.4")
    return lost


STEPS: tuple[tuple[str, str, Callable[[Battle], None]], ...] = (
    ("6, 6.1, I.2", "the sides; under fog of war the pawns are shown", open_battle),
    ("G.4.2.5", "ambush cards played at the start (the hook)", ambush_at_start),
    ("6, 6.3", "a lord without an army may be captured at once", lord_without_army),
    ("6.2", "a side may surrender now", surrender_now),
    ("6.2.1", "scorched earth", scorched_earth),
    ("6.2.2, 6.4.4, I.1", "archer shooting (or adjusted shooting)", archer_shooting),
    ("6.2.3", "battle rounds until the battle stops", battle_rounds),
)

ROUND_STEPS: tuple[tuple[str, str, Callable[[Battle, RoundDice], None]], ...] = (
    ("G.4.2.5", "ambush cards played at the start of the round (the hook)", ambush_this_round),
    ("6.2.3.1", "CP calculation and battle dice", cp_and_dice),
    ("6.2.3.2-3", "the fortress penalty and its cancelling", fortress_penalty),
    ("6.2.3.4", "dice, bombard re-rolls, royal guard and cavalcade hits", roll_and_hits),
    ("6.2.3.4", "losses, both sides at once", losses_step),
    ("6.2.3.5", "confederates continue, stop or switch sides", coalition_choices),
    ("6.2.3.5", "does the battle stop?", end_of_round),
)
