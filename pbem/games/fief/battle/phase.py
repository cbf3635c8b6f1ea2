"""The Battle Phase (6) around the battle engine: every player's declared battles are fought
in turn order, each fully resolved (battle.resolve_battle) before the next one is declared;
then sieges are declared, continued or lifted (6.4.1, battle/siege.py) and mills plundered (6.5,
battle/plunder.py). By mail the whole phase is one round of orders (DESIGN.md): a declaration an
earlier battle made impossible fails with a `battle_not_fought` event that says why.

Captive orders (release, transfer: captives/ransom.py) are done first, in turn order; captives whose
jailer has no forces left where they stand are released at the start and at the end (6.3).

Coalitions (6.1) come from standing policies (battle/orders.py): each family present in the
town, in turn order, asks to join the first leader its `coalition.join` policy names there,
and that leader's `coalition.accept` policy answers.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from pbem.games.fief.battle.engine import BattleError, opening_dice, resolve_battle
from pbem.games.fief.battle.orders import coalition_answer, has_troop, join_order
from pbem.games.fief.battle.plan import BattlePlan, BattleSetup
from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.captives.ransom import forces_families, release_unheld, resolve_captive_orders
from pbem.games.fief.movement.hooks import CavalcadeRequest, CavalcadeResult
from pbem.games.fief.movement.army import Army, StepBudget
from pbem.games.fief.movement.disasters import no_battle_for_weather
from pbem.games.fief.battle.plan_orders import plan_for
from pbem.games.fief.battle.plunder import resolve_plunder
from pbem.games.fief.battle.siege import has_free_lord, resolve_sieges
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


@dataclass(frozen=True)
class BattleStart:
    """The moments a battle starts, where the standing surprise triggers fire (G.4: "uprising
    cards may be played at the beginning of a battle"). The surprise rules answer them; round.py
    hands their answers in (surprise/uprising_triggers.py, surprise/triggers.py). By default
    nothing fires."""

    # G.4.2.1: (state, board, town, rng) -> events: uprisings in the town, resolved before the battle
    uprisings: Callable[[FiefState, Board, str, Rng], list[Event]] = lambda state, board, town, rng: []
    # G.4.2.2, G.4.2.5: (state, board, setup) -> (setup, events), once the sides are known:
    # an underground card against the Fortress penalty, an ambush
    cards: Callable[[FiefState, Board, BattleSetup], tuple[BattleSetup, list[Event]]] = \
        lambda state, board, setup: (setup, [])


def resolve_battle_phase(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng,
                         start: BattleStart = BattleStart()) -> list[Event]:
    events: list[Event] = release_unheld(state, board)
    events += resolve_captive_orders(state, board, orders)
    besiege: dict[str, list[str]] = {}    # player -> towns where a stopped attack becomes a siege
    declared = 0
    own = edition_of(state).hooks.battle
    for player in state.turn_order():
        battles = list((orders.get(player) or {}).get("battles") or [])
        battles += (orders.get(player) or {}).get("own") or []   # an edition's own (England: the Invaders)
        if own and own.battle_order:   # an edition's own order within a player's turn (England R1)
            battles = own.battle_order(board, battles)
        for battle in battles:
            declared += 1
            if "verb" in battle and own:
                events += own.verbs[battle["verb"]].fight(state, board, player, battle, rng)
                continue
            events += fight(state, board, player, battle["target"], battle["town"], rng, besiege, start)
    if not declared:
        events.append(Event("no_battle", f"Round {state.round}: nobody declares a battle "
                            f"({edition_of(state).cite('6')}).",
                            data={"round": state.round}))
    # an edition's own sieges and plunder (England, E 7.9, 7.10)
    events += (own.sieges if own else resolve_sieges)(state, board, orders, besiege)
    events += (own.plunder if own else resolve_plunder)(state, board, orders)
    events += release_unheld(state, board)
    return events


def fight(state: FiefState, board: Board, player: str, target: str, town: str, rng: Rng,
          besiege: dict[str, list[str]], start: BattleStart) -> list[Event]:
    """One declared battle (6): checked again against the state as earlier battles left it."""
    problem = _impossible(state, board, player, target, town)
    if problem:   # not fought, so no battle starts: no battle-start trigger fires (ruling 36)
        return [_not_fought(player, target, town, problem)]
    # G.4.2.1: uprisings at the start of the battle, resolved first; it goes on with what is left.
    uprising = start.uprisings(state, board, town, rng)
    problem = _impossible(state, board, player, target, town) if uprising else None
    if problem:
        return uprising + [_not_fought(player, target, town, problem)]
    here = state.towns[town]
    # 6.4.2: the besieged family attacking from its besieged town leaves the fortress.
    leaving = bool(here.besiegers) and here.controller == player
    attackers, defenders, events = form_coalition(state, town, player, target)
    own = edition_of(state).hooks.battle
    if own and own.coalition:   # an edition's own bar on confederates (England 13.3)
        attackers, barred = own.coalition(state, town, attackers, defenders)
        events += barred
    events = uprising + events
    setup = BattleSetup(town=town, attacker=player, defender=target, attacker_side=tuple(attackers),
                        defender_side=tuple(defenders), leaving_fortress=leaving)
    setup, fired = start.cards(state, board, setup)   # G.4.2.2, G.4.2.5: surprise triggers
    events += fired
    problem = own.declarable(state, board, setup) if own else no_battle_die(state, board, setup)
    if problem:
        return events + [_not_fought(player, target, town, problem)]
    plans = plans_for(state, attackers + defenders, town)
    try:
        outcome = resolve_battle(state, board, setup, plans, rng)
    except BattleError as exc:     # a setup the engine refuses: told, never a traceback
        return events + [_not_fought(player, target, town, str(exc))]
    events += outcome.events
    if outcome.stopped_by == player and plans[player].besiege_if_stopped:
        besiege.setdefault(player, []).append(town)   # 6.4.1 example 1
    return events


def no_battle_die(state: FiefState, board: Board, setup: BattleSetup) -> str | None:
    """6.4.1 example 2: "Marie cannot attack as she does not have any available battle dice
    because of the stronghold."""
    if opening_dice(state, board, setup).get("attacker", 0) <= 0:
        return edition_of(state).cite_in("your side would roll no battle die after the fortress penalty "
                                         "(6.2.3.2, 6.4.1 example 2): besiege it first")
    return None


def plans_for(state: FiefState, families: list[str], town: str) -> dict[str, BattlePlan]:
    own = edition_of(state).hooks.battle     # an edition's own plan words are its own to read
    words = tuple(own.plan_words) if own else ()
    return {fam: plan_for(state.families[fam].policies, town, words) for fam in families}


def form_coalition(state: FiefState, town: str, attacker: str, defender: str,
                   attacker_may_join: bool = True) -> tuple[list[str], list[str], list[Event]]:
    """6.1: families present in the town join a side before the battle, each asking the first
    leader its `coalition.join` policy names for this town; the leader's `accept` answers.
    In a cavalcade only the defender may take confederates (5.2.4)."""
    sides = {attacker: [attacker], defender: [defender]}
    events: list[Event] = []
    present = forces_families(state, town)
    for fam in state.turn_order():
        if fam in sides or fam not in present or state.families[fam].eliminated:
            continue
        policies = state.families[fam].policies
        leader = next((p for p in join_order(policies) if p in sides
                       and (attacker_may_join or p != attacker)
                       and coalition_answer(policies, "join", p, town)), None)
        if leader is None:
            continue
        accepted = coalition_answer(state.families[leader].policies, "accept", fam, town)
        role = "attacking" if leader == attacker else "defending"
        events.append(Event("coalition_joined" if accepted else "coalition_refused",
                            f"{fam} asks to join {leader}'s {role} side in {town}: "
                            f"{'accepted' if accepted else 'refused'} ({edition_of(state).cite('6.1')}, standing "
                            "policies).",
                            data={"town": town, "family": fam, "leader": leader, "accepted": accepted}))
        if accepted:
            sides[leader].append(fam)
    return sides[attacker], sides[defender], events


def _impossible(state: FiefState, board: Board, player: str, target: str, town: str) -> str | None:
    if state.families[player].eliminated:
        return "your family is out of the game"
    since_2 = state.rules_version >= 2
    # G.2.2: no battle in a bishopric under bad weather (ruling 36)
    weather = since_2 and no_battle_for_weather(board, ((e.card, e.target) for e in state.board_effects), town)
    if weather:
        return weather
    if not has_free_lord(state, player, town):
        return f"you have no free lord left in {town} (6: a troop cannot declare a battle)"
    if since_2 and not has_army(state, player, town):   # 5.1, 6 (ruling 37)
        return edition_of(state).cite_in(f"you have no army left in {town}: lords alone do not count as an "
                                         "army (5.1), and a battle is declared where you have an army (6)")
    if state.families[target].eliminated or target not in forces_families(state, town):
        return f"{target} has no forces left in {town}"
    return None


def has_army(state: FiefState, family: str, town: str) -> bool:
    """5.1: "The army: it is formed of a troop and at least 1 lord" (the lord checked apart)."""
    return has_troop(Counter(p.kind for p in state.pawns.values() if p.family == family and p.location == town))


def _not_fought(player: str, target: str, town: str, why: str) -> Event:
    return Event("battle_not_fought", f"{player}'s battle against {target} in {town} is not fought: {why}.",
                 data={"player": player, "target": target, "town": town, "reason": why})


# -- the cavalcade (5.2.4), fought during the Movement Phase ----------------------------------

def resolve_cavalcade(state: FiefState, board: Board, request: CavalcadeRequest, rng: Rng) -> CavalcadeResult:
    """movement.resolve_movement's cavalcade hook: the moving army forces the passage through
    ``request.town`` by a battle against the family refusing it (5.2.4). The army attacks with
    exactly its own lords and pawns; only the defender may take confederates."""
    army, town = request.army, request.town
    problem = _no_cavalcade(state, army, request.against, request.budget)
    own = edition_of(state).hooks.battle
    if problem is None and own is not None and own.cavalcade_barred is not None:   # England 13.3
        problem = own.cavalcade_barred(state, town, army.all_lords(), request.against[0])
    if problem:
        return CavalcadeResult(False, (Event("cavalcade_impossible", f"{army.family}'s {army.leader} cannot make a "
                                             f"cavalcade through {town}: {problem} "
                                             f"({edition_of(state).cite('5.2.4')}).",
                                             data={"family": army.family, "lord": army.leader, "town": town,
                                                   "reason": problem}),))
    target = request.against[0]
    attackers, defenders, events = form_coalition(state, town, army.family, target, attacker_may_join=False)
    lords = [n for n in army.all_lords() if n in state.lords]
    units, their_lords = _defenders(state, request, target, town, defenders)
    setup = BattleSetup(town=town, attacker=army.family, defender=target, attacker_side=(army.family,),
                        defender_side=tuple(defenders), cavalcade=True,
                        attacker_units=tuple(army.pawns), attacker_lords=tuple(lords),
                        defender_units=units, defender_lords=their_lords)
    try:
        outcome = resolve_battle(state, board, setup, plans_for(state, attackers + defenders, town), rng)
    except BattleError as exc:
        return CavalcadeResult(False, tuple(events) + (_not_fought(army.family, target, town, str(exc)),))
    events += outcome.events
    # The army goes on with what is left of it (5.2.4: "Marie leaves her knight pawn there").
    army.pawns[:] = [p for p in army.pawns if p in state.pawns]
    army.lords[:] = [n for n in army.lords if n in state.lords and not state.lords[n].captive_of]
    leader = state.lords.get(army.leader)
    won = outcome.winner == "attacker" and outcome.attacker_lords_left > 0 \
        and leader is not None and not leader.captive_of
    return CavalcadeResult(won, tuple(events))


def _defenders(state: FiefState, request: CavalcadeRequest, target: str, town: str,
               side: list[str]) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
    """The forces crossed (5.2.4): the refusing family's on the road and in the town (movement
    says which), and its confederates' in the town. None: all the side's forces in the town."""
    crossed = request.crossed
    if not crossed:
        return None, None
    units = [m[2:] for m in crossed if m.startswith("P:") and m[2:] in state.pawns]
    lords = [m[2:] for m in crossed if m.startswith("L:") and m[2:] in state.lords]
    for fam in side[1:]:
        units += [p.id for p in state.pawns.values() if p.family == fam and p.location == town]
        lords += [lo.name for lo in state.lords.values()
                  if lo.family == fam and lo.location == town and not lo.captive_of]
    return tuple(dict.fromkeys(units)), tuple(dict.fromkeys(lords))


def _no_cavalcade(state: FiefState, army: Army, against: tuple[str, ...], budget: StepBudget) -> str | None:
    if len(against) != 1:
        # Ruling: a cavalcade is a battle "against 1 of the families they have to cross"; the
        # others' refusal would still close the way, so it is not fought.
        return f"{' and '.join(against)} all refuse the passage, and a cavalcade fights only one family"
    riders = edition_of(state).hooks.cavalcade_kinds   # 5.2.4: knights (England: Royal Knights too)
    others = sorted({state.pawns[p].kind for p in army.pawns if state.pawns[p].kind not in riders})
    if others:
        return f"the army holds {', '.join(others)}: only knights and lords may make a cavalcade"
    if not army.pawns and state.rules_version >= 2:
        # 5.2.4: "accompanied by an army made up of knight pawns and lords"; 5.1: "Lords alone
        # do not count as an army".
        return edition_of(state).cite_in("lords alone do not count as an army (5.1): a cavalcade needs knights")
    # 5.1.1 / G.4.1.1: the edition's steps a round; more in the army of a lord whose title gives
    # steps (France: 3 in the D'Arc lord's army, she may lead it) and for whoever went with that
    # lord this round - the movement's own step budget counts them.
    army_steps = budget.army_steps(army)
    members = ["L:" + n for n in army.all_lords()] + ["P:" + p for p in army.pawns]
    if not all(budget.can_step(m, army_steps) for m in members):
        return f"every knight and lord needs a step left ({edition_of(state).cite('5.1.1')})"
    return None
