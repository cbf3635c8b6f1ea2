"""Purchase Phase (4): in turn order each player pays their ransoms (4.1), then buys
buildings (4.2), units (4.3), fief titles (4.4) and the cardinal title (4.5) in the order
written in their mail. The king's offer of a fief title (4.4) is read from the whole phase's
orders before anyone buys (purchase/titles.py). Each order is judged by the rules of
purchase/ledger.py, the same ones that checked the mail, on the family's view as it is at its
turn: round.py hands in the view function (views.build_view, which shows every part of the
rules, this one's too).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.captives.ransom import accepts_offer
from pbem.games.fief.income.phase import money
from pbem.games.fief.edition import edition_of
from pbem.games.fief.purchase.ledger import Failure, Ledger, describe
from pbem.games.fief.purchase.titles import (Offer, buy_cardinal_title, offer_announced, offer_taken,
                                            offer_void, privilege_lord)
from pbem.games.fief.state import FiefState, Pawn
from pbem.games.fief.surprise.play import pope_refuses   # D.2.3: the pope's `new_cardinal` policy
from pbem.games.fief.hear_ye.titles import come_into_play, grant_fief_title
from pbem.rules.api import JSON, Audience, Event

# A family's view of the state (views.build_view): (state, board, player) -> view.
ViewOf = Callable[[FiefState, Board, str], JSON]


def resolve_purchase(state: FiefState, board: Board, orders: Mapping[str, Any], view_of: ViewOf) -> list[Event]:
    def mail(player: str) -> list:
        return (orders.get(player) or {}).get("orders") or []

    start = edition_of(state).hooks.purchase_start   # the edition's own (England: bandits' ransoms, 13.4)
    events = start(state, board) if start else []
    offer, offered = _king_offer(state, board, mail, view_of)
    events += offered
    for player in state.turn_order():
        if state.families[player].eliminated:
            continue
        events += _player_purchases(state, board, player, mail(player), offer, view_of)
    if offer and not offer.done:
        events.append(offer_void(state, board, offer, _lapsed(state, board, offer, view_of)))
    end = edition_of(state).hooks.purchase_end   # the edition's own (England 7.9: unpaid trebuchets)
    return events + (end(state, board) if end else [])


def _lapsed(state: FiefState, board: Board, offer: Offer, view_of: ViewOf) -> str:
    """Why an offer nobody took lapses: the beneficiary unable, else not asking for it."""
    ledger = Ledger.from_view(view_of(state, board, offer.to), board)
    unable = ledger.able_to_purchase(offer.fief, offer.to)
    if unable:
        return f"{offer.to} is not able to purchase it: {unable.message}"
    return f"{offer.to} ordered no `title: {offer.fief}` to take it"


def _king_offer(state: FiefState, board: Board, mail, view_of: ViewOf) -> tuple[Offer | None, list[Event]]:
    """4.4: the king's offer, read before anyone's purchases: the whole phase's orders are known
    at resolution, so it stands for a beneficiary whose turn comes before the king's."""
    for player in state.turn_order():
        order = next((o for o in mail(player) if "offer_title" in o), None)
        if order is None or state.families[player].eliminated:
            continue
        ledger = Ledger.from_view(view_of(state, board, player), board)
        failure = ledger.try_order(dict(order))
        if failure:
            what = describe(order, ledger.edition, fiefs=ledger.view.get("fiefs", {}))
            return None, [Event("title_offer_failed", f"{player}'s order {what} fails: "
                                f"{failure.message}.", data={"player": player, "reason": failure.code})]
        king = privilege_lord(ledger.everyone, edition_of(state).hooks.privileged)
        assert king is not None   # try_order: only the family of the king (or regent queen) offers
        offer = Offer(king, player, order["offer_title"], order["to"])
        return offer, [offer_announced(state, board, offer)]
    return None, []


def _player_purchases(state: FiefState, board: Board, player: str, orders: list,
                      offer: Offer | None, view_of: ViewOf) -> list[Event]:
    fog = edition_of(state).fog(state.options)
    ledger = Ledger.from_view(view_of(state, board, player), board)
    mine = offer if offer and offer.to == player else None
    ledger.offered = mine.fief if mine else None
    ledger.cardinal_refusal = pope_refuses(state, player)
    events = _pay_ransoms(state, board, player, ledger, orders)
    bought_any = False
    for order in orders:
        if "ransom" in order or "offer" in order or "offer_title" in order:
            continue
        order = dict(order)
        failure = ledger.try_order(order)
        if failure:
            private = fog and "buy" in order
            what = describe(order, ledger.edition, private, ledger.view.get("fiefs", {}))
            events.append(Event("purchase_failed", f"{player}'s order {what} fails: {failure.message}.",
                                Audience.only(player) if private else _told(state, player, failure),
                                {"player": player, "order": order, "reason": failure.code}))
            if mine and not mine.done and order.get("title") == mine.fief:
                ledger.offered = None
                unable = ledger.able_to_purchase(mine.fief, player)
                why = (f"{player} is not able to purchase it: {unable.message}" if unable
                       else f"{player}'s order for it fails: {failure.message}")
                events.append(offer_void(state, board, mine, why))
            continue
        bought_any = True
        events += _apply(state, board, player, order, fog)
        if order.get("offered") and mine:
            events.append(offer_taken(state, board, mine))
    state.families[player].deniers = ledger.deniers
    if not bought_any:
        events.append(Event("no_purchase", f"{player} buys nothing.", data={"player": player}))
    return events


def _pay_ransoms(state: FiefState, board: Board, player: str, ledger: Ledger, orders: list) -> list[Event]:
    """4.1: forced, full ransoms, highest value first; the jailer must accept."""
    places = {o["ransom"]: o.get("place") for o in orders if "ransom" in o}
    events: list[Event] = []
    for order in orders:
        if "offer" in order:
            events += _lower_offer(state, board, player, ledger, order, places)
    paid = ledger.ransoms()
    coins, sec = edition_of(state).coins, edition_of(state).cite("4.1")   # the edition's money and section
    for lord, value, jailer in paid:
        if jailer in state.families:   # a captor that is no family (England's Invaders, 6.7): the supply
            state.families[jailer].deniers += value
        events.append(Event("ransom_paid", f"{player} pays {coins(value)} to {jailer} to free {lord} ({sec}).",
                            data={"player": player, "lord": lord, "jailer": jailer, "deniers": value}))
        events += come_into_play(state, board, lord, places.get(lord))
    for lord, value, jailer in ledger.unpaid(paid):
        events.append(Event("ransom_unpaid", f"{player} cannot pay the ransom of {lord} ({coins(value)}): "
                            f"{lord} stays the captive of {jailer} ({sec}).",
                            data={"player": player, "lord": lord, "jailer": jailer, "deniers": value}))
    return events


def _lower_offer(state: FiefState, board: Board, player: str, ledger: Ledger, order: dict,
                 places: dict) -> list[Event]:
    """4.1: a lower ransom offered; the jailer's standing `lower_ransom` policy answers
    (captives/ransom.py). Refused, the forced full ransoms follow as usual."""
    failure = ledger.try_order(order)
    amount, captives = order["offer"], order["for"]
    coins, sec = edition_of(state).coins, edition_of(state).cite("4.1")
    jailer = ledger.lords[captives[0]]["captive_of"] if captives[0] in ledger.lords else None
    if failure is None and amount > ledger.deniers:
        failure = Failure("deniers", f"{player} has only {coins(ledger.deniers)}")
    # try_order: a lord of the offer who is not a captive fails it, so with no failure there is a jailer
    if failure is None and jailer is not None and jailer not in state.families:
        failure = Failure("refused", f"the {jailer} take no lower ransom (6.7)")   # England's Invaders
    elif failure is None and jailer is not None and not accepts_offer(state.families[jailer].policies, amount,
                                                                      len(captives)):
        failure = Failure("refused", f"{jailer} refuses it (standing policy `lower_ransom`)")
    names = " and ".join(captives)
    if failure:
        return [Event("ransom_offer_refused", f"{player}'s offer of {coins(amount)} for {names} fails: "
                      f"{failure.message} ({sec}).", _told(state, player, failure),
                      data={"player": player, "jailer": jailer, "deniers": amount, "lords": list(captives),
                            "reason": failure.code})]
    assert jailer is not None
    ledger.deniers -= amount
    state.families[jailer].deniers += amount
    events = [Event("ransom_offer_accepted", f"{jailer} accepts {player}'s offer of {coins(amount)} and "
                    f"frees {names} ({sec}).", data={"player": player, "jailer": jailer, "deniers": amount,
                                                   "lords": list(captives)})]
    for name in captives:
        ledger.lords[name]["captive_of"] = None
        events += come_into_play(state, board, name, places.get(name))
    return events


def _told(state: FiefState, player: str, failure: Failure) -> Audience:
    """Who hears of a failed order: everyone, but the player alone when it failed for want of
    deniers (its message names his treasury) and the edition keeps money secret (A.6 in France:
    public)."""
    if failure.code == "deniers" and not edition_of(state).money_public:
        return Audience.only(player)
    return Audience.everyone()


def _apply(state: FiefState, board: Board, player: str, order: dict[str, Any], fog: bool) -> list[Event]:
    own = edition_of(state).hooks.purchase_verbs
    verb = next((v for v in own if v in order), None)
    if verb is not None:   # an edition's own order (England: `construct:`, 7.9)
        return own[verb].act(state, board, player, order)
    if "build" in order:
        town = state.towns[order["town"]]
        if order["build"] == "stronghold":
            town.fortress = "stronghold"
            return [Event("stronghold_built", f"{player} builds a stronghold in {town.name} "
                          f"({edition_of(state).coins(edition_of(state).price('stronghold'))}, 4.2).",
                          data={"player": player, "town": town.name})]
        count = order.get("count", 1)
        town.mills += count
        return [Event("mill_built", f"{player} builds {count} mill{'s' if count > 1 else ''} in {town.name} "
                      f"({edition_of(state).coins(edition_of(state).price('mill') * count)}, 4.2).",
                      data={"player": player, "town": town.name, "count": count})]
    if "buy" in order:
        kind, count, town = order["buy"], order["count"], order["town"]
        for _ in range(count):
            pid = state.new_pawn_id()
            state.pawns[pid] = Pawn(pid, kind, player, town)
        here = state.towns[town]
        if not here.controller:
            here.controller = player
        if player not in here.arrivals:
            here.arrivals.append(player)
        cost = edition_of(state).unit_price(kind) * count   # 4.3
        data = {"player": player, "kind": kind, "count": count, "deniers": cost}
        units = edition_of(state).unit_text(kind, count)
        if not fog:
            return [Event("units_bought", f"{player} buys {units} ({money(state, cost)}) "
                          f"and places {'it' if count == 1 else 'them'} in {town} ({edition_of(state).cite('4.3')}).",
                          data={**data, "town": town})]
        # I.2: the purchase is shown to all, where the pawns go only to their owner.
        return [Event("units_bought", f"{player} buys {units} ({money(state, cost)}) "
                      f"and places {'it' if count == 1 else 'them'} face down "
                      f"({edition_of(state).cite('4.3')}, {edition_of(state).cite('I.2')}).", data=data),
                Event("units_placed", f"You place your {units} in {town}.",
                      Audience.only(player), {**data, "town": town})]
    if "cardinal" in order:
        return buy_cardinal_title(state, board, player, order["cardinal"])
    fief, city = order["title"], order["city"]
    state.towns[city].fortress = "city"
    price = order["deniers"]
    how = "receives the offered" if order.get("offered") else "buys the"
    paid = money(state, price) if price else "nothing"
    events = [Event("title_bought", f"{player} {how} title of the {board.fiefs[fief].name} for "
                    f"{paid}; the stronghold of {city} becomes its city ({edition_of(state).cite('4.4')}).",
                    data={"player": player, "fief": fief, "lord": order["lord"], "city": city, "deniers": price})]
    return events + grant_fief_title(state, board, fief, order["lord"], order.get("heir"))
