"""Phase 6: Invaders (E 1.0, 6.0-6.13), England's own round step between Movement and Battles.

A - reinforcements (6.1); B - landings (6.2); C - every army in turn moves and battles (6.3-6.9),
the armies taken in Region Number order of the city each stands in as step C begins (R40). An
army's turn opens in the city it stands in (landed this phase or earlier): it attacks the
Troops there it outnumbers, as after a Move (Ex 6-4, R11, R79); then it makes its two Moves by
compass draws. The players' Danegeld and intervention orders act when their noble meets the
army (orders.py, R81); a PASSAGE lent to the Invaders plays before a Move's compass draw that
STORMS hold, or as they attack another family's fortress (passage.py, 10.2, R146). Every step is
told in the public report, its section cited."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.compass import Compass, compass_of
from pbem.games.fief_england.disasters import waiting
from pbem.games.fief_england.invaders.armies import army_name, numbers, on_map, record, troops
from pbem.games.fief_england.invaders.attacks import CLEARED, engage
from pbem.games.fief_england.invaders.captives import follow
from pbem.games.fief_england.invaders.church import intervene, is_cleric
from pbem.games.fief_england.invaders.danegeld import pay_danegeld
from pbem.games.fief_england.invaders.landing import land
from pbem.games.fief_england.invaders.leaving import leave_england
from pbem.games.fief_england.invaders.moves import draw_move
from pbem.games.fief_england.invaders.order import by_region
from pbem.games.fief_england.invaders.passage import Card, Lending, lapsed, lending_from, stormy, through_storms
from pbem.games.fief_england.invaders.plague import plague_strikes
from pbem.games.fief_england.invaders.regions import INVASION, PLAGUE, STORMS, struck
from pbem.games.fief_england.invaders.reinforcements import reinforce
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng


@dataclass
class Trigger:
    """A Danegeld or intervention order waiting for its noble to meet an army (R81)."""

    player: str
    kind: str             # "danegeld" | "intervene"
    noble: str
    army: str | None


@dataclass
class Phase:
    state: FiefState
    board: Board
    compass: Compass
    rng: Rng
    triggers: list[Trigger] = field(default_factory=list)
    lent: Lending = field(default_factory=lambda: Lending(None))   # PASSAGE lent to the Invaders (10.2, R146)
    events: list[Event] = field(default_factory=list)


def resolve_invaders(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng,
                     compass: Compass | None = None, card: Card | None = None) -> list[Event]:
    """``card``: the cards part's PASSAGE, for the `passage:` orders (passage.py, R146)."""
    ph = Phase(state, board, compass or compass_of(board), rng, _triggers(state, orders),
               lending_from(state, orders, card))
    if not on_map(state) and not any(e.card == INVASION for e in state.board_effects):
        seas = waiting(state, INVASION)   # round 1's card lies at sea, acting from round 2 (2.4, R12)
        at_sea = (f"the INVASION card on Sea {', '.join(seas)} acts from round 2 (2.4)" if seas
                  else "no INVASION card at sea")
        ph.events.append(Event("invaders_none", f"No Invaders in England and {at_sea}: the Invaders "
                               "phase passes quietly (6).", data={"round": state.round}))
        return ph.events + _lapsed(ph)
    record(state)
    _meet(ph)
    ph.events += reinforce(state, ph.compass)              # A: 6.1
    ph.events += land(state, ph.compass, rng)              # B: 6.2
    _meet(ph)
    for army_id in [a for a, _ in by_region(state, ph.compass)]:   # C: 6.3, R40
        _turn(ph, army_id)
    return ph.events + _lapsed(ph)


def _turn(ph: Phase, army_id: str) -> None:
    state, compass = ph.state, ph.compass
    armies = record(state)["armies"]
    army = armies[army_id]
    if army["city"] is None or not army["leader"] or army["follows"]:
        return            # gone, or Foot Soldiers without a Leader of their own (6.3, 6.12)
    storms = struck(state, STORMS)
    ph.events += engage(state, ph.board, compass, army["city"], army_id, storms, ph.rng, ph.lent)[1]   # R79
    moves = numbers().moves
    while moves and _free(army):
        origin = army["city"]
        closed = storms
        if stormy(compass, origin, storms):   # 10.2: a player's PASSAGE, played before the draw (R146)
            played, told = through_storms(state, ph.lent, army_id, origin)
            ph.events += told
            closed = set() if played else storms
        draw = draw_move(compass, origin, closed, ph.rng, army_name(army_id))
        if draw.point is None or draw.to is None:
            ph.events.append(Event("invaders_stay", f"{army_name(army_id)} stays in {origin}: {draw.why} (6.3).",
                                   data={"army": army_id, "city": origin}))
            return
        moves -= 1
        ph.events.append(Event("invaders_move", f"{army_name(army_id)} moves from {origin} to {draw.to}: "
                               f"{draw.told()} (6.3).",
                               data={"army": army_id, "from": origin, "to": draw.to, "point": draw.point,
                                     "drawn": draw.drawn, "moves_left": moves}))
        _move(ph, army_id, draw.to)
        if not _free(army):
            return
        _meet(ph)
        if not _free(army):
            return
        from_inland = not compass.is_port(origin) and compass.is_port(draw.to)
        if from_inland and not troops(state, draw.to):   # 6.9: alone in a port
            ph.events += leave_england(state, army_id, f"it reached the empty port of {draw.to} from inland (6.9)")
            return
        result, told = engage(state, ph.board, compass, draw.to, army_id, storms, ph.rng, ph.lent)
        ph.events += told
        if from_inland and result == CLEARED and army["city"] is not None:   # 6.9: the port's troops destroyed
            ph.events += leave_england(state, army_id, f"it destroyed the troops of the port of {draw.to} (6.9)")
            return
    if _free(army) and not moves:
        ph.events.append(Event("invaders_halt", f"{army_name(army_id)} ends its moves in {army['city']} (6.3).",
                               data={"army": army_id, "city": army["city"]}))


def _free(army: dict[str, Any]) -> bool:
    """The army may go on moving: on the map, with its Leader, not keeping a Fortified City (6.6)."""
    return army["city"] is not None and army["leader"] and not army["holds"]


def _move(ph: Phase, army_id: str, to: str) -> None:
    """6.3: the army takes all its Foot Soldiers, those following its Leader and its captives."""
    state, compass = ph.state, ph.compass
    armies = record(state)["armies"]
    origin = armies[army_id]["city"]
    moving = [army_id] + [a for a, x in armies.items() if x["follows"] == army_id and x["city"] == origin]
    plagued = struck(state, PLAGUE)
    entering_plague = compass.region[to] != compass.region[origin] and compass.region[to] in plagued
    for a in moving:
        armies[a]["city"] = to
        follow(state, a)
    if entering_plague:        # 2.5, R22: an army entering a PLAGUE Region suffers it
        for a in moving:
            ph.events += plague_strikes(state, a, ph.rng)


# -- the orders (R81) ------------------------------------------------------------------------------

def _triggers(state: FiefState, orders: Mapping[str, Any]) -> list[Trigger]:
    out = []
    for player in state.turn_order():
        mine = orders.get(player) or {}
        out += [Trigger(player, "danegeld", o["noble"], o.get("army")) for o in mine.get("danegeld") or []]
        out += [Trigger(player, "intervene", o["cleric"], o.get("army")) for o in mine.get("intervene") or []]
    return out


def _meet(ph: Phase) -> None:
    """Each waiting order whose noble now stands with its army acts, in turn order (R81)."""
    fired = True
    while fired:
        fired = False
        for trigger in list(ph.triggers):
            army_id = _met(ph, trigger)
            if army_id is None:
                continue
            ph.triggers.remove(trigger)
            if trigger.kind == "danegeld":
                ph.events += pay_danegeld(ph.state, ph.board, trigger.noble, army_id)
            else:
                ph.events += intervene(ph.state, ph.board, trigger.noble, army_id, ph.rng)
            fired = True
            break


def _met(ph: Phase, trigger: Trigger) -> str | None:
    lord = ph.state.lords.get(trigger.noble)
    if lord is None or lord.family != trigger.player or lord.captive_of or not lord.location:
        return None
    if trigger.kind == "intervene" and not is_cleric(ph.state, lord):
        return None
    for army_id, army in on_map(ph.state).items():
        if army["city"] != lord.location or (trigger.army and trigger.army != army_id):
            continue
        if trigger.kind == "intervene" and not army["leader"]:
            continue          # 6.10: "in the same City as an Invader Leader"
        return army_id
    return None


def _lapsed(ph: Phase) -> list[Event]:
    return lapsed(ph.lent) + [Event("invaders_order_lapsed", f"Your {t.kind} order for {t.noble}"
                  + (f" and {army_name(t.army)}" if t.army else "") + " was not used: they never stood in the same "
                  "city during the Invaders phase (R81).", Audience.only(t.player),
                  data={"player": t.player, "kind": t.kind, "noble": t.noble, "army": t.army})
            for t in ph.triggers]


