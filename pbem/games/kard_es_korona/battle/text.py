"""The battle as report lines, for the game's report (every roll, hit and loss, III "Battle")."""
from __future__ import annotations

from typing import Mapping

from pbem.games.kard_es_korona.battle.kinds import ARCHER, KINDS
from pbem.games.kard_es_korona.battle.model import ATTACKER, DEFENDER, SIDES, Battle, BattleResult, Clash, Roll
from pbem.games.kard_es_korona.state import side_name

STEPS = {
    "volley": "the archers' volley", "melee": "close combat", "defenders_volley": "the defenders' archers shoot",
    "assault": "the assault", "pursuit": "the pursuit", "parting_volley": "the defenders' parting volley",
}
ENDS = {
    "destroyed": "{loser}'s army is destroyed", "both_destroyed": "every unit fell: {county} is left without a master",
    "warlord_alone": "both armies fell; {winner_lord} alone stands",
    "duel": "the warlords fought a duel", "withdrawn": "{loser} has no infantry left and must abandon the siege",
    "retreat": "{loser} retreats",
}
FATES = {"defeated": "is defeated", "captured": "is taken prisoner", "killed": "is killed",
         "retreated": "leaves the field with his army"}


def units_text(units: Mapping[str, int]) -> str:
    parts = [f"{units[k]} {'archer' if k == ARCHER and units[k] == 1 else k}" for k in KINDS if units.get(k)]
    return ", ".join(parts) if parts else "no units"


def battle_lines(battle: Battle, result: BattleResult) -> list[str]:
    """One line for the start, one per clash, and the outcome."""
    where = ("siege of the castle of " if battle.castle else "battle of ") + battle.county
    if battle.terrain:
        where += f" ({battle.terrain})"
    lines = [f"The {where}: {_army(battle, result, ATTACKER)} attacks {_army(battle, result, DEFENDER)}."]
    lines += [_clash(battle, clash) for clash in result.clashes]
    if result.retreat and result.retreat.pursuit and result.retreat.pursuit.rolls:
        lines.append(_clash(battle, result.retreat.pursuit))
    if result.retreat and result.retreat.obstacle_losses:
        fleeing = side_name(battle.side(result.retreat.side).owner)
        lines.append(f"On the way across the obstacle {fleeing} loses half its army: "
                     f"{units_text(result.retreat.obstacle_losses)}.")
    if result.duel:
        throws = "; ".join(f"{a}-{d}" for a, d in result.duel.throws)
        lines.append(f"Duel of {battle.attacker.warlord} and {battle.defender.warlord} (attacker-defender): {throws}"
                     + (f" (the Judge Royal re-rolled a {result.duel.rerolled[1]} in throw "
                        f"{result.duel.rerolled[0]})" if result.duel.rerolled else "") + ".")
    lines.append(_outcome(battle, result))
    return lines


def _army(battle: Battle, result: BattleResult, side: str) -> str:
    me = battle.side(side)
    text = f"{side_name(me.owner)} with {units_text(me.units)}"
    if me.warlord:
        leads = result.lord_leads.get(side)
        text += f" and warlord {me.warlord}" + (f" leading the {leads}" if leads else "")
    return text


def _clash(battle: Battle, clash: Clash) -> str:
    rolls = "; ".join(_roll(battle, roll) for roll in clash.rolls)
    lost = "; ".join(f"{side_name(battle.side(s).owner)} loses {units_text(clash.losses[s])}"
                     for s in SIDES if clash.losses[s])
    return f"Round {clash.round}, {STEPS[clash.step]}: {rolls}. {lost or 'No losses'}."


def _roll(battle: Battle, roll: Roll) -> str:
    owner = side_name(battle.side(roll.side).owner)
    faces = ", ".join(map(str, roll.faces))
    mod = f" (+{roll.modifier})" if roll.modifier else ""
    again = f" (Judge Royal's re-roll of {', '.join(map(str, roll.rerolled))})" if roll.rerolled else ""
    return f"{owner}'s {roll.kind} roll {faces}{mod}{again}: {roll.hits} hit{'s' if roll.hits != 1 else ''}"


def _outcome(battle: Battle, result: BattleResult) -> str:
    winner = result.winner
    loser = side_name(battle.side(DEFENDER if winner == ATTACKER else ATTACKER).owner) if winner else ""
    why = ENDS[result.end].format(loser=loser, county=battle.county,
                                  winner_lord=battle.side(winner).warlord if winner else "")
    if winner is None:
        return why[0].upper() + why[1:] + "."
    text = f"{side_name(battle.side(winner).owner)} wins ({why})"
    survivors = units_text(result.survivors[winner])
    text += f", keeping {survivors}"
    if result.castle_taken:
        text += f", and takes the castle of {battle.county}"
    if result.retreat:
        going = side_name(battle.side(result.retreat.side).owner)
        text += (f"; {going} goes to {result.retreat.to or 'a county the movement rules choose'}"
                 f" with {units_text(result.survivors[result.retreat.side])}")
    fates = [f"Warlord {w['name']} {FATES[w['fate']]}." for w in result.warlords.values() if w["fate"] != "won"]
    return " ".join([text + "."] + fates)
