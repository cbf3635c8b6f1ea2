"""England's battle as the core's `battle` hook (pbem/games/fief/hooks.py ``BattleRules``)."""
from __future__ import annotations

from pbem.games.fief.battle.plan import BattleSetup
from pbem.games.fief.board import Board
from pbem.games.fief.battle.forces import build_sides
from pbem.games.fief.state import FiefState
from pbem.games.fief.hooks import BattleRules
from pbem.games.fief_england.battle.numbers import england_numbers
from pbem.games.fief_england.battle.pillage import resolve_pillage
from pbem.games.fief_england.battle.hire import WORD as HIRE, check_hire, plan_spends
from pbem.games.fief_england.battle.plan import PLAN_WORDS, england_plan
from pbem.games.fief_england.battle.rounds import archers, bombards, trebuchets
from pbem.games.fief_england.battle.siege import resolve_sieges
from pbem.games.fief_england.church.pillage import check_abbey_key
from pbem.games.fief_england.battle.sides import force_of_units
from pbem.games.fief_england.battle.steps import PASSAGE, STEPS, settle
from pbem.games.fief_england.disasters import storms_at
from pbem.games.fief_england.royal.garter import attack_check, attack_problem, cavalcade_barred, coalition


def declarable(state: FiefState, board: Board, setup: BattleSetup) -> str | None:
    """2.5 STORMS: "No battles are allowed in the Region" while its card lies there. 7.9 (R75):
    an attacker who would roll no melee die (the fortress penalty, 7.4, and no PASSAGE: `tunnels`) and has
    no projectile able to fire does not attack: "if they do not have enough SPs to roll at least
    1 Battle Die" they besiege."""
    region = board.towns[setup.town].fief
    knight = attack_problem(state, setup.town, [setup.attacker], list(setup.defender_side))   # 13.3, R134
    if knight:
        return knight
    if storms_at(state, board, setup.town):   # the card as the disasters step lays it (its Region's numeral)
        return (f"STORMS lie on the {board.fiefs[region].name}: no battle is allowed in the Region until "
                "the end of the round (2.5), unless GOOD WEATHER sends them away")
    attacker, defender = build_sides(state, setup)
    force = force_of_units(state, attacker.units, attacker.lords)
    numbers = england_numbers()
    town = state.towns[setup.town]
    held = town.fortress if (town.fortress and town.controller in defender.families
                             and not setup.leaving_fortress) else None
    dice = numbers.melee_dice(force.strength(numbers))
    if held and not setup.underground and not tunnels(state, setup, attacker.families):
        dice -= numbers.penalty[held]
    if dice > 0:
        return None
    never = lambda why: 0   # noqa: E731 - nothing is rolled: only whether a volley could fire
    fires = [v for v in (trebuchets(force, numbers, never, ""), bombards(force, numbers, never, ""),
                         archers(force, numbers, never, "", held, None)) if v is not None and not v.silent]
    if fires and not setup.leaving_fortress:
        return None
    return ("your side would roll no battle die after the fortress penalty (7.3, 7.4) and has no projectile "
            "able to fire (7.2): besiege it instead (7.9: `siege:`)")


def tunnels(state: FiefState, setup: BattleSetup, families: list[str]) -> bool:
    """10.2 Ex 10-4: the attacker's plan says `tunnels: yes` and its side holds a PASSAGE, which
    the battle's first step plays (steps.tunnels): no melee penalty, so the attack is fought."""
    return (england_plan(state.families[setup.attacker].policies, setup.town).tunnels
            and any(PASSAGE in state.families[f].hand for f in families))


def battle_order(board: Board, battles: list) -> list:
    """R1: within a player's turn, the battles declared are fought in Region Number order (I-VI),
    then in the board's order of cities - the order of the board's cities (Regions I to VI)."""
    order = {town: i for i, town in enumerate(board.towns)}
    return sorted(battles, key=lambda battle: order.get(battle["town"], len(order)))


BATTLE = BattleRules(steps=STEPS, settle=settle, declarable=declarable, sieges=resolve_sieges,
                     plunder=resolve_pillage, battle_order=battle_order,
                     plan_words={**PLAN_WORDS, HIRE: check_hire},   # 11.1, R41: crossbowmen hired in battle
                     plan_spends=plan_spends,   # 13.7, R159: from the one purse
                     plunder_keys={"abbey": check_abbey_key},   # 2.13, 7.10: an Abbey pillaged
                     coalition=coalition, attack_check=attack_check,   # 13.3: no Garter Lord attacks the Sovereign
                     cavalcade_barred=cavalcade_barred)
# The Battle mail's `attack_invaders:` (7.0, 6.8, R137) is the Invaders' part's (invaders/attacked.py,
# which reads this package): England's hooks add it to BATTLE's `verbs`.
