"""The Invaders' battles (6.4, 6.8, 7.0-7.8): fought with England's battle round (the pure
functions of pbem/games/fief_england/battle/rounds.py), the Invaders attacking one family's
army. Every Invader army in the city fights together (6.4: "Multiple Invader Armies at the same
City will join together"). Before each battle round the Invaders must still outnumber that
family's Troops (6.8) and, against its Stronghold or Fortified City, still roll at least one
melee die after the penalty (6.4, R14); three rounds in a row without a loss end it (7.8).

Losses (R86): the family's units fall as 7.5 says (as many hits as possible, its cheapest troops
first; nobles only once every troop is down); the Invaders lose Foot Soldiers first, the
moving army's first, and Leaders last (6.4). When the family has no troop left, its nobles
there are the Invaders' captives (7.6; slain instead when no Invader Leader is left), and its
bombards and trebuchets are destroyed (the Invaders have no use for them; R83)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.battle.hire import hire_into
from pbem.games.fief_england.battle.numbers import BattleNumbers, england_numbers
from pbem.games.fief_england.battle.plan import england_plan
from pbem.games.fief_england.battle.rounds import Force, Noble, Setup, battle_round
from pbem.games.fief_england.invaders.armies import (SIEGE_ENGINES, in_city, record,
                                                     troops, units)
from pbem.games.fief_england.invaders.captives import capture
from pbem.games.fief_england.invaders.defeats import defeat_told
from pbem.games.fief_england.invaders.leaders import gone_for_good, leader_lost
from pbem.games.fief_england.royal.garter import invaders_defeated
from pbem.rules.api import Event
from pbem.rules.rng import Rng

LEADER, FOOT = "invader_leader", "invader_foot"   # 7.3, 7.5: the Invaders' unit kinds


@dataclass
class Fought:
    won: bool              # the family has no troop left in the city
    events: list[Event]


def fortress_of(state: FiefState, city: str, family: str) -> str | None:
    """The Stronghold ("stronghold") or Fortified City ("city") that shelters ``family`` in
    ``city``: its controller's (7.4)."""
    town = state.towns[city]
    return town.fortress if town.controller == family else None


def invader_force(state: FiefState, city: str) -> Force:
    armies = [record(state)["armies"][a] for a in in_city(state, city)]
    return Force({LEADER: sum(1 for a in armies if a["leader"]), FOOT: sum(a["foot"] for a in armies)})


def family_force(state: FiefState, city: str, family: str) -> Force:
    kinds: dict[str, int] = {}
    for pawn in state.pawns.values():
        if pawn.location == city and pawn.family == family:
            kinds[pawn.kind] = kinds.get(pawn.kind, 0) + 1
    nobles = [Noble(l.name, 1 if not l.female or l.fief_titles else 0)   # 7.3
              for l in state.lords.values() if l.location == city and l.family == family and not l.captive_of]
    return Force(kinds, nobles)


def may_attack(state: FiefState, city: str, family: str, numbers: BattleNumbers | None = None,
               passage: bool = False) -> str | None:
    """Why the Invaders in ``city`` do not attack ``family`` there (None: they do): 6.4, Ex 6-3,
    Ex 6-4: they must outnumber its Troops; R14: against a fortress, also roll a melee die - unless
    a player's PASSAGE leads them through the tunnels (10.2 "Aid Invaders", R146)."""
    numbers = numbers or england_numbers()
    ours = sum(units(record(state)["armies"][a]) for a in in_city(state, city))
    theirs = troops(state, city).get(family, 0)
    if ours <= theirs:
        return f"{ours} Invader units do not outnumber {family}'s {theirs} Troops (6.4)"
    fortress = fortress_of(state, city, family)
    if fortress and not passage:
        dice = numbers.melee_dice(invader_force(state, city).strength(numbers)) - numbers.penalty[fortress]
        if dice < 1:
            where = "Fortified City" if fortress == "city" else "Stronghold"
            return f"the Invaders roll no melee die against {family}'s {where} (6.4, 7.4, R14)"
    return None


def fight(state: FiefState, board: Board, city: str, family: str, mover: str, rng: Rng,
          passage: bool = False) -> Fought:
    """``passage``: a PASSAGE lent to the Invaders cancels the fortress's melee penalty (10.2, R146)."""
    numbers = england_numbers()
    events = hire_as_attacked(state, city, family)
    quiet = 0
    rounds = 0
    armies = in_city(state, city)
    while True:
        why = may_attack(state, city, family, numbers, passage)
        if why is not None:
            events.append(Event("invaders_stop", f"The Invaders stop fighting {family} in {city}: {why} (6.8).",
                                data={"city": city, "family": family}))
            return Fought(False, events)
        rounds += 1
        before = {"attacker": invader_force(state, city), "defender": family_force(state, city, family)}
        setup = Setup(fortress=fortress_of(state, city, family), passage=passage)   # 10.2, 7.4
        result = battle_round(before, setup, numbers,
                              lambda why: rng.die(numbers.faces, f"Invaders' battle in {city}: {why}"))
        lost = _apply(state, board, city, family, mover, before, result.forces)
        events.append(Event("invaders_battle_round", f"Battle round {rounds} in {city}, the Invaders against "
                            f"{family}: " + _told(result.steps) + f"; {lost.text} (6.4, 7.1-7.5).",
                            data={"city": city, "family": family, "round": rounds,
                                  "dice": {s.name: {side: v.faces for side, v in s.volleys.items()}
                                           for s in result.steps}}))
        events += lost.events
        if not troops(state, city).get(family):
            events += _defeated(state, board, city, family, mover)
            return Fought(True, events)
        if not in_city(state, city):      # the family destroyed the Invaders who attacked it (13.3)
            lords = [l.name for l in state.lords.values() if l.family == family and l.location == city
                     and not l.captive_of]
            return Fought(False, events + [defeat_told(city, family, armies, lords, state.round)])
        quiet = 0 if lost.any else quiet + 1
        if quiet >= numbers.deadlock_rounds:      # 7.8: deadlock
            events.append(Event("invaders_deadlock", f"{quiet} battle rounds in {city} without a loss: the battle "
                                "ends in a deadlock (7.8).", data={"city": city, "family": family}))
            return Fought(False, events)


def hire_as_attacked(state: FiefState, city: str, family: str) -> list[Event]:
    """11.1 "They may be hired in middle of a Battle" (R138): the family's battle plan's
    `hire_crossbowmen` read as the Invaders' battle begins, as in Phase 7 (battle/hire.py); the
    Invaders then check again that they outnumber it (6.4: "If at any time during a Battle ...")."""
    wanted = england_plan(state.families[family].policies, city).hire_crossbowmen
    return hire_into(state, family, wanted, city)[1] if wanted else []


@dataclass
class _Lost:
    text: str
    events: list[Event]
    any: bool


FACES = {0: "blank", 1: "'f'", 2: "'ff'", 3: "'fff'"}   # 7.1


def _units_text(state: FiefState, kind: str, count: int) -> str:
    """``count`` units as the reports write them: the edition record's words for its units."""
    edition = edition_of(state)
    if kind in edition.units:
        return edition.unit_text(kind, count)
    return f"{count} {kind.replace('_', ' ')}{'s' * (count != 1)}"   # crossbowmen, the royal guard


def _told(steps, names: dict[str, str] | None = None) -> str:
    """Each side's volleys, the sides named by ``names`` (role -> whose; by default the Invaders
    attacking, as in Phase 6)."""
    names = names or {"attacker": "the Invaders'", "defender": "the defenders'"}
    parts = []
    for step in steps:
        for side, volley in step.volleys.items():
            who = names[side]
            if volley.silent:
                parts.append(f"{who} {step.name} do not fire ({volley.silent})")
            elif volley.faces:
                faces = " ".join(FACES.get(f, str(f)) for f in volley.faces)
                parts.append(f"{who} {step.name} roll {faces}" + (f" +{volley.bonus}" if volley.bonus else ""))
    return "; ".join(parts) or "no die is rolled"


def _apply(state: FiefState, board: Board, city: str, family: str, mover: str,
           before: dict[str, Force], after: dict[str, Force], losers: Sequence[str] = ()) -> _Lost:
    """The round's losses on the board. ``family``'s nobles there defeat an army destroyed (13.3);
    ``losers``: the families whose pawns take the side's losses, in this order (a coalition
    against the Invaders, R145; default ``family`` alone)."""
    events: list[Event] = []
    texts = []
    losers = tuple(losers) or (family,)
    # the families' units in ``losers`` order, the newest pawns of each kind first
    for kind, n in before["defender"].units.items():
        gone = n - after["defender"].units.get(kind, 0)
        for fam in losers:
            mine = (p for p in state.pawns.values() if p.location == city and p.family == fam and p.kind == kind)
            pawns = sorted(mine, key=lambda p: (len(p.id), p.id), reverse=True)[:gone]
            for pawn in pawns:
                del state.pawns[pawn.id]
            gone -= len(pawns)
            if pawns:
                texts.append(f"{fam} loses {_units_text(state, kind, len(pawns))}")
    slain = [n.name for n in before["defender"].nobles if n.name not in {x.name for x in after["defender"].nobles}]
    for name in slain:
        texts.append(f"{name} is slain")
        events += eliminate_lord(state, board, name)
    # the Invaders: Foot Soldiers first, the mover's first; Leaders last (6.4)
    foot = before["attacker"].units.get(FOOT, 0) - after["attacker"].units.get(FOOT, 0)
    leaders = before["attacker"].units.get(LEADER, 0) - after["attacker"].units.get(LEADER, 0)
    armies = record(state)["armies"]
    order = [mover] + [a for a in in_city(state, city) if a != mover]
    standing = {a for a in order if armies[a]["leader"] or armies[a]["foot"]}
    if foot:
        texts.append(f"the Invaders lose {foot} Foot Soldier{'s' * (foot != 1)}")
    for army_id in order:
        take = min(foot, armies[army_id]["foot"])
        armies[army_id]["foot"] -= take
        foot -= take
    for army_id in order:
        if leaders and armies[army_id]["leader"]:
            leaders -= 1
            events += leader_lost(state, army_id, f"falls in battle in {city} (7.5)")
    for army_id in order:
        army = armies[army_id]
        if army["city"] == city and not army["leader"] and not army["foot"]:
            events += gone_for_good(state, army_id)
    beaten = [a for a in order if a in standing and not armies[a]["leader"] and not armies[a]["foot"]]
    for army_id in beaten:   # 13.3 (R132): the family's nobles there defeated it
        invaders_defeated(state, [l.name for l in state.lords.values()
                                  if l.family == family and l.location == city and not l.captive_of], army_id)
    return _Lost("; ".join(texts) or "no loss", events, bool(texts))


def _defeated(state: FiefState, board: Board, city: str, family: str, mover: str) -> list[Event]:
    """7.5, 7.6, R84: the family's nobles there are captured (slain without an Invader Leader to
    take them); its siege engines are destroyed (R83)."""
    events: list[Event] = []
    engines = [p for p in state.pawns.values() if p.location == city and p.family == family and p.kind in SIEGE_ENGINES]
    for pawn in engines:
        del state.pawns[pawn.id]
    if engines:
        events.append(Event("invaders_engines_destroyed", f"The Invaders destroy {family}'s {len(engines)} siege "
                            f"engine{'s' * (len(engines) != 1)} in {city} (R83).",
                            data={"city": city, "family": family, "count": len(engines)}))
    armies = record(state)["armies"]
    here = [mover] + in_city(state, city)
    captor = next((a for a in here if armies[a]["city"] == city and armies[a]["leader"]), None)
    for lord in [l for l in state.lords.values() if l.location == city and l.family == family and not l.captive_of]:
        if captor is None:   # 7.6: Foot Soldiers without a Leader slay instead
            events.append(Event("invaders_slay", f"{lord.name} ({family}) is slain: Invader Foot Soldiers without a "
                                "Leader take no captives (7.6).", data={"lord": lord.name, "city": city}))
            events += eliminate_lord(state, board, lord.name)
        else:
            events += capture(state, captor, lord.name)
    return events
