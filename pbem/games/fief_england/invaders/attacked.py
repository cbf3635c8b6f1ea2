"""Players attacking the Invaders in the Battle Phase (E 7.0 with 6.4-6.8; R137): an army the
Invaders no longer outnumber, or that stopped in the City Outskirts, "could be attacked by Players
in Phase 7 - Battles" (6.8). By mail the Battle Phase's own order (the core's battle `verbs`
hook, ``BattleVerb``):

    orders:
      - attack_invaders: York   # 7.0: your army in York attacks every Invader army there

It is fought in the player's turn among their declared battles (R1: Region Number order, then the
board's order of cities) with England's battle round (battle/rounds.py): projectiles then melee,
the Invaders defending with every army in the city together (6.4) and, in a Fortified City they
took and hold (6.6), its -2 melee dice against the attacker (7.4). They never retreat in Phase 7
(6.8 is their Phase 6 move). It ends when one side has no troop left (7.8 Victory), after 3 rolls
in a row without a loss (7.8 Deadlock), when the attacker's plan stops it (`stop: {when: ...}`:
the Invaders, who cannot move now, stay; R137) or surrenders (`surrender:`; 6.5 "Invaders always
accept the surrender": the troops off the map, the nobles their captives). The player's plan's
`losses`, `aim_at` (an Invader Leader: `invader leader`) and `hire_crossbowmen` are read as in a
battle between players.

Other families in the city join the attack by the core's coalition policies (7.0 Ally Attacks,
R145): a family whose `coalition.join` names the attacker there, accepted by the attacker's
`coalition.accept`. Their troops and nobles combine; the family with the most Strength Points
decides each round's losses (its plan's `losses`, `own_losses_last`, `aim_at`, `stop`,
`surrender`, 7.0); each family hires its own crossbowmen (R138). The attacker heads the coalition
(13.3): its nobles' deed, its city retaken.

An Invader army destroyed this way - or by a family it attacked in Phase 6 (invaders/battle.py) -
is told to everyone (invaders/defeats.py); the Order of the Garter's deed (13.3, R28) is recorded
per army destroyed where the losses are applied (invaders/battle.py `_apply`)."""
from __future__ import annotations

from collections import Counter

from pbem.games.fief.battle.orders import has_troop
from pbem.games.fief.battle.phase import form_coalition
from pbem.games.fief.battle.plan_orders import plan_for
from pbem.games.fief.board import Board
from pbem.games.fief.hooks import BattleVerb
from pbem.games.fief.movement.disasters import no_battle_for_weather
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.battle.hire import WORD as HIRE, hire_into
from pbem.games.fief_england.battle.numbers import england_numbers
from pbem.games.fief_england.battle.plan import LEADER, PLAN_WORDS, england_plan
from pbem.games.fief_england.battle.rounds import DEFAULT_ORDER, Force, Setup, battle_round
from pbem.games.fief_england.battle.sides import units_text
from pbem.games.fief_england.disasters import storms_at
from pbem.games.fief_england.invaders.armies import SIEGE_ENGINES, army_name, in_city, record, troops
from pbem.games.fief_england.invaders.battle import _apply, _defeated, _told, family_force, invader_force
from pbem.games.fief_england.invaders.defeats import defeat_told
from pbem.orders.reading import Problems
from pbem.rules.api import Event
from pbem.rules.rng import Rng

VERB = "attack_invaders"


def check(view: dict, board: Board, me: str, item: dict, town: str, line: int | None,
          problems: Problems) -> dict | None:
    """7.0 on the player's view: Invaders in the city, and an army of the player's there (a free
    noble with a troop: "Troops without a Noble cannot declare a Battle"); no STORMS (2.5)."""
    armies = (view.get("invaders") or {}).get("armies") or {}
    if not any(a.get("city") == town for a in armies.values()):
        problems.add(line, f"no Invader army is in {town}",
                     "attack the Invaders where one of their armies stands (the report's `invaders`)")
        return None
    mine = view["towns"][town]["forces"].get(me) or {}
    if not mine.get("lords"):
        problems.add(line, f"you have no free noble in {town}", "troops without a noble cannot declare a battle (7.0)")
        return None
    if not has_troop({k: n for k, n in (mine.get("units") or {}).items() if k not in SIEGE_ENGINES}):
        problems.add(line, f"you have no troop in {town}", "a noble alone offers no resistance (7.5): bring troops")
        return None
    weather = no_battle_for_weather(board, [(e["card"], e["target"]) for e in view.get("board_effects") or []], town)
    if weather:
        problems.add(line, f"no battle in {town}: {weather}", "remove this order")
        return None
    return {}


def template(view: dict, player: str) -> list[str]:
    lines = []
    armies = (view.get("invaders") or {}).get("armies") or {}
    for town in sorted({a["city"] for a in armies.values() if a.get("city")}):
        if ((view["towns"].get(town) or {}).get("forces") or {}).get(player, {}).get("lords"):
            lines.append(f"  # - {VERB}: {town}     # the Invaders there (7.0, 6.8)")
    return lines


def _problem(state: FiefState, board: Board, player: str, city: str) -> str | None:
    if not in_city(state, city):
        return f"no Invader army is left in {city}"
    if not any(l.family == player and l.location == city and not l.captive_of for l in state.lords.values()):
        return f"you have no free noble left in {city} (7.0)"
    if not troops(state, city).get(player):
        return f"you have no troop left in {city}"
    if storms_at(state, board, city):
        return "STORMS lie on its Region: no battle is allowed there (2.5)"
    return None


def fight(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    city = order["town"]
    why = _problem(state, board, player, city)
    if why:
        return [Event("battle_not_fought", f"{player}'s battle against the Invaders in {city} is not fought: {why}.",
                      data={"player": player, "target": "invaders", "town": city, "reason": why})]
    numbers = england_numbers()
    side, joined = coalition(state, city, player)
    armies = in_city(state, city)
    held = state.towns[city].fortress == "city" and any(record(state)["armies"][a]["holds"] for a in armies)
    events = joined + [Event("invaders_attacked", f"{' and '.join(side)} attack{'s' * (len(side) == 1)} "
                             f"{' and '.join(army_name(a) for a in armies)} in {city} (7.0, 6.8)"
                             + (", the Fortified City they hold: -2 melee dice (6.6, 7.4)" if held else "") + ".",
                             data={"player": player, "town": city, "armies": armies, "coalition": side})]
    for fam in side:   # 11.1, R41, R138: each family's own plan, its own card and shillings
        wanted = england_plan(state.families[fam].policies, city).hire_crossbowmen
        if wanted:
            events += hire_into(state, fam, wanted, city)[1]
    revealed = "; ".join(f"{fam}: " + ", ".join(filter(None, [", ".join(n.name for n in mine.nobles),
                                                                    units_text(mine.units)]))
                         for fam, mine in ((f, family_force(state, city, f)) for f in side))
    events.append(Event("battle_forces", f"Both sides reveal their troops in {city} (7.0, 4.1): {revealed}; "
                        f"the Invaders: {units_text(invader_force(state, city).units)}.", data={"town": city}))
    lords = [n.name for n in family_force(state, city, player).nobles]
    names = {"attacker": f"{player}'s" if len(side) == 1 else f"{player}'s coalition's", "defender": "the Invaders'"}
    quiet = rounds = 0
    while True:
        rounds += 1
        head = decider(state, city, side, player)   # 7.0: the most SP decides the side's losses
        plan = england_plan(state.families[head].policies, city)
        core = plan_for(state.families[head].policies, city, (*PLAN_WORDS, HIRE))   # England's words apart
        before = {"attacker": side_force(state, city, side), "defender": invader_force(state, city)}
        aim = next((t for t in plan.aim_at if t == LEADER and before["defender"].units.get(LEADER)), None)
        setup = Setup(fortress="city" if held else None, aims={"attacker": aim} if aim else {},
                      orders={"attacker": plan.losses + tuple(k for k in DEFAULT_ORDER if k not in plan.losses)})
        result = battle_round(before, setup, numbers,
                              lambda why: rng.die(numbers.faces, f"battle against the Invaders in {city}: {why}"))
        mover = in_city(state, city)[0]
        swapped = {"attacker": "defender", "defender": "attacker"}   # _apply's roles: the Invaders attacking
        others = [f for f in side if f != head]
        lost = _apply(state, board, city, player, mover, {swapped[r]: f for r, f in before.items()},
                      {swapped[r]: f for r, f in result.forces.items()},
                      losers=others + [head] if core.own_losses_last else [head] + others)
        events.append(Event("invaders_battle_round", f"Battle round {rounds} in {city}, {' and '.join(side)} against "
                            "the Invaders: " + _told(result.steps, names) + f"; {lost.text} (7.1-7.5).",
                            data={"city": city, "family": player, "round": rounds, "coalition": side}))
        events += lost.events
        if not in_city(state, city):      # 7.8 Victory: no Invader is left
            return events + _won(state, city, player, armies, lords, side[1:])
        if not any(troops(state, city).get(f) for f in side):
            return events + _beaten(state, board, city, side)
        quiet = 0 if lost.any else quiet + 1
        sp = (side_force(state, city, side).strength(numbers), invader_force(state, city).strength(numbers))
        if core.surrender.holds(rounds, *sp):    # 7.8, 6.5: "Invaders always accept the surrender"
            gone = [p.id for p in state.pawns.values() if p.location == city and p.family in side
                    and p.kind not in SIEGE_ENGINES]
            for pid in gone:
                del state.pawns[pid]
            events.append(Event("battle_surrender", f"{head} surrenders {' and '.join(side)} to the Invaders in "
                                f"{city}: {len(gone)} troop(s) taken off the map (7.8, 6.5).",
                                data={"town": city, "family": head, "coalition": side}))
            return events + _beaten(state, board, city, side)
        if core.stop.when.holds(rounds, *sp):   # R137: the Invaders cannot move in Phase 7
            return events + [Event("battle_stopped", f"{head} ends the battle against the Invaders in {city} after "
                                   f"round {rounds}; both stay in the city (7.8, R137).",
                                   data={"town": city, "end": "stopped", "stopped_by": head, "round": rounds})]
        if quiet >= numbers.deadlock_rounds:
            return events + [Event("invaders_deadlock", f"{quiet} battle rounds in {city} without a loss: the battle "
                                   "ends in a deadlock (7.8).", data={"city": city, "family": player})]


def coalition(state: FiefState, city: str, player: str) -> tuple[list[str], list[Event]]:
    """7.0 Ally Attacks (R145): the families with forces in the City whose `coalition.join` policy
    names ``player`` there, accepted by ``player``'s `coalition.accept` - the core's policies and
    their asking (``form_coalition``; no family leads the Invaders' side, so none joins it)."""
    side, _, events = form_coalition(state, city, player, "")
    return side, events


def side_force(state: FiefState, city: str, side: list[str]) -> Force:
    """7.0: "They combine their Troops": the families' units and nobles summed."""
    units: Counter[str] = Counter()
    nobles = []
    for fam in side:
        force = family_force(state, city, fam)
        units.update(force.units)
        nobles += force.nobles
    return Force(dict(units), nobles)


def decider(state: FiefState, city: str, side: list[str], player: str) -> str:
    """7.0: "the Player with the most Strength Points decides which Troops take Hits" - counted as
    the side stands each round; a tie goes to the attacker, then the earlier to join (as R77)."""
    numbers = england_numbers()
    return max(side, key=lambda f: (family_force(state, city, f).strength(numbers), f == player, -side.index(f)))


def _beaten(state: FiefState, board: Board, city: str, side: list[str]) -> list[Event]:
    """7.5, 7.6: every family of the side beaten, its nobles the Invaders' captives."""
    events: list[Event] = []
    for fam in side:
        if in_city(state, city):
            events += _defeated(state, board, city, fam, in_city(state, city)[0])
    return events


def _won(state: FiefState, city: str, player: str, armies: list[str], lords: list[str],
         allies: list[str]) -> list[Event]:
    """7.8 Victory; the city is the player's - the coalition's head, R145 - (5.1), a Fortified City
    retaken too (6.6)."""
    alive = [n for n in lords if n in state.lords and not state.lords[n].captive_of]
    events = [defeat_told(city, player, armies, alive, state.round, allies)]
    town = state.towns[city]
    if town.controller is None:
        town.controller = player
        if player not in town.arrivals:
            town.arrivals.append(player)
        events.append(Event("invaders_city_retaken", f"{player} controls {city} again (5.1"
                            + (", 6.6: the Fortified City is retaken" if town.fortress == "city" else "") + ").",
                            data={"city": city, "family": player}))
    return events


ATTACK_INVADERS = BattleVerb(keys=(VERB,), check=check, fight=fight, template=template)
__all__ = ["ATTACK_INVADERS", "VERB"]
