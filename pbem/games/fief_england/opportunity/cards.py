"""England's Opportunity cards played from a hand (E 10.0-10.5, 11.2-11.3; R41): each play is a
canonical mapping checked when the mail was read (opportunity/orders.py) and checked again here,
since an earlier play may have changed the state. A played card is discarded even when its
effect fails (10.0: "Once played, they are discarded"); a play refused before it starts (the
card no longer held, no treasure left) keeps the card in hand.

For the other England parts (movement, battles), ``use_passage`` spends a PASSAGE card or a
BURGHER's Passage action (a treasure) and says so; the part applies the effect itself:
escaping a siege, one Move in STORMS, avoiding a battle (movement); cancelling the melee
penalties and withdrawing (battles, 10.2).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.church_hooks import captured
from pbem.games.fief_england.invaders.armies import army_name, on_map
from pbem.games.fief_england.invaders.leaders import ambush_leader, assassinate_leader
from pbem.games.fief_england.opportunity.rebellion import JOIN_POLICY, Rising, grounds_problem, raise_rebellion
from pbem.games.fief_england.opportunity.scatter import release_captives, scatter
from pbem.games.fief_england.reading import (abbey_in, burgher, give_heresy, heresy_bearer, parliament_rebellion,
                                             royal)
from pbem.games.fief_england.treasure import spend_treasure, treasure_problem, treasures_left
from pbem.games.fief_england.royal import guard
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

NAMES = {"rebellion": "REBELLION", "passage": "PASSAGE", "assassination": "ASSASSINATION",
         "justice": "JUSTICE", "ambush": "AMBUSH", "good_weather": "GOOD WEATHER",
         "bountiful_harvest": "BOUNTIFUL HARVEST", "tax": "TAX"}   # 2.7-2.8: named when no longer held
PASSAGE_USES = ("escape_siege", "storms", "avoid_battle", "tunnels", "withdraw", "aid_invaders",
                "free_captive", "rebellion")   # 10.2


def _void(player: str, card: str, why: str) -> Event:
    return Event("opportunity_void", f"{player}'s {NAMES[card]} card has no effect: {why} (10.0).",
                 data={"player": player, "card": card})


def kept(player: str, card: str, why: str) -> Event:
    return Event("card_not_played", f"{player} cannot play the {NAMES[card]} card: {why}; the card stays in hand.",
                 audience=Audience.only(player), data={"player": player, "card": card})


def _discard(state: FiefState, player: str, card: str) -> Event:
    state.families[player].hand.remove(card)
    state.events_discard.append(card)
    return Event("opportunity_played", f"{player} plays {NAMES[card]} (10.0).", data={"player": player, "card": card})


def _played(state: FiefState, player: str, card: str, why: str | None) -> list[Event]:
    """10.0: the card leaves the hand and is discarded, with why it has no effect (if so)."""
    return [_discard(state, player, card)] + ([_void(player, card, why)] if why else [])


# -- ASSASSINATION, JUSTICE, AMBUSH ----------------------------------------------------------

def assassination_problem(state: FiefState, player: str, target: Lord | None, sponsor: Lord | None) -> str | None:
    if target is None:
        return "the target is no longer in play"
    if target.family == player:
        return f"{target.name} is of your own family"
    if sponsor is None or sponsor.family != player:
        return "the sponsor must be a noble of your family in play (10.3)"
    return None


def leader_problem(state: FiefState, player: str, army_id: str, by: Lord | None) -> str | None:
    """6.11, 6.12: why the Leader of Invader army ``army_id`` cannot be assassinated (``by``
    None) or ambushed by ``by`` now: he must be on the map; an ambush needs the player's free
    noble in his city, and not a Leader inside the Fortified City his army holds (10.5, R123)."""
    army = on_map(state).get(army_id)
    if army is None or not army["leader"]:
        return f"the Leader of {army_name(army_id)} is no longer in England"
    if by is None:
        return None
    if by.family != player or by.captive_of:
        return "the ambushing noble must be a free noble of your family (10.5)"
    if by.location != army["city"]:
        return f"the Leader of {army_name(army_id)} is in {army['city']}, not in {by.location} with {by.name} (10.5)"
    if army.get("holds"):
        return f"{army_name(army_id)} holds the Fortified City of {army['city']}: its Leader is inside it (10.5, R123)"
    return None


def against_leader(state: FiefState, player: str, card: str, play: Mapping[str, Any]) -> list[Event]:
    """6.11 AMBUSH, 6.12 ASSASSINATE Leader: the Leader is removed from the game (no sponsor, no
    Heresy marker; no captive is taken); his Foot Soldiers follow another Leader in the city or
    stay (the Invaders part's ``leader_lost``)."""
    army_id = play["leader"]
    by = state.lords.get(play["by"]) if card == "ambush" else None
    why = leader_problem(state, player, army_id, by)
    if card == "ambush" and by is None:
        why = "the ambushing noble is no longer in play"
    events = _played(state, player, card, why)
    if why:
        return events
    city = on_map(state)[army_id]["city"]
    leader = f"the Leader of {army_name(army_id)} in {city}"
    what = f"{by.name} ambushes {leader} (6.11, 10.5)" if by else f"{leader} is assassinated, with no sponsor (6.12)"
    events.append(Event(card, f"{player} plays {NAMES[card]}: {what}.",
                        data={"player": player, "army": army_id, "city": city, "by": by.name if by else None}))
    return events + (ambush_leader(state, army_id) if by else assassinate_leader(state, army_id))


def assassination(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event]:
    """10.3: ``play``: {on, sponsor}. The victim dies wherever they are (a captive too, 7.6); the
    sponsor takes the Heresy marker (R31); the victim's leaderless troops scatter and the
    captives they held are released. ``leader`` instead: an Invader Leader (6.12)."""
    if play.get("leader"):
        return against_leader(state, player, "assassination", play)
    target, sponsor = state.lords.get(play["on"]), state.lords.get(play["sponsor"])
    why = assassination_problem(state, player, target, sponsor)
    events = _played(state, player, "assassination", why)
    if why:
        return events
    assert target is not None and sponsor is not None
    events.append(Event("assassination", f"{player} has {target.name} ({target.family}) assassinated; the sponsor "
                        f"is {sponsor.name} (10.3).", data={"player": player, "lord": target.name,
                                                             "sponsor": sponsor.name}))
    return events + _gone(state, board, target, "ASSASSINATION", None) + _heresy(state, sponsor)


def _heresy(state: FiefState, sponsor: Lord) -> list[Event]:
    before = give_heresy(state, sponsor)
    was = f", taken from {before}" if before and before != sponsor.name else ""
    return [Event("heresy_marker", f"{sponsor.name} ({sponsor.family}) bears the Heresy marker{was}: JUSTICE may now "
                  "target them (10.3, R31).", data={"lord": sponsor.name, "from": before})]


def _gone(state: FiefState, board: Board, lord: Lord, why: str, taker: str | None) -> list[Event]:
    """The noble leaves play (4.8 by the core's elimination); their troops scatter, their captives
    go free (10.3-10.5, 7.6)."""
    city, family = lord.location, lord.family
    events = eliminate_lord(state, board, lord.name)
    if city in board.towns and not lord.captive_of:
        events += scatter(state, board, family, city, why, taker)
        events += release_captives(state, board, family, city, why)
    return events


def justice_problem(state: FiefState, target: Lord | None) -> str | None:
    """10.4: only the Heresy marker's bearer, never the Royal Family; an Abbey protects (2.13)."""
    if target is None:
        return "the target is no longer in play"
    if heresy_bearer(state) != target.name:
        bearer = heresy_bearer(state)
        return (f"{target.name} does not bear the Heresy marker ({bearer + ' does' if bearer else 'no one does'}); "
                "JUSTICE eliminates only its bearer (10.4)")
    if royal(target):
        return "the King, Sovereign Queen, Queen and Prince of Wales are beyond JUSTICE (10.4)"
    if target.location and not target.captive_of and abbey_in(state, target.location):
        return f"{target.name} is in the Abbey of {target.location}, which protects them from JUSTICE (2.13)"
    return None


def justice(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event]:
    target = state.lords.get(play["on"])
    why = justice_problem(state, target)
    events = _played(state, player, "justice", why)
    if why:
        return events
    assert target is not None
    state.edition_state.pop("heresy", None)   # R31: the marker leaves with its bearer
    events.append(Event("justice", f"{player} plays JUSTICE: {target.name} ({target.family}), bearer of the Heresy "
                        "marker, is eliminated with their Retainer (10.4).",
                        data={"player": player, "lord": target.name}))
    return events + _gone(state, board, target, "JUSTICE", None)


def ambush_problem(state: FiefState, player: str, by: Lord | None, target: Lord | None) -> str | None:
    """10.5: your non-captive noble against another noble in the same city, not one inside a
    Stronghold or Fortified City (R93: a noble of the family controlling the city's fortress)."""
    if by is None or by.family != player:
        return "the ambushing noble must be a noble of your family in play"
    if by.captive_of:
        return f"{by.name} is a captive and cannot ambush (10.5)"
    if target is None or target.captive_of:
        return "the target must be a free noble in play"
    if target.family == player:
        return f"{target.name} is of your own family"
    if target.location != by.location:
        return f"{target.name} is in {target.location}, not in {by.location} with {by.name} (10.5)"
    town = state.towns.get(target.location or "")
    if town is not None and town.fortress and town.controller == target.family:
        kind = "Stronghold" if town.fortress == "stronghold" else "Fortified City"
        return f"{target.name} is inside the {kind} of {target.location} and cannot be ambushed (10.5)"
    return None


def ambush(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event]:
    """10.5: the target becomes a captive of the ambushing noble's family; their leaderless troops
    scatter; their bombards and trebuchets left behind are taken over (Ex 10-5). ``leader``
    instead of ``on``: an Invader Leader (6.11)."""
    if play.get("leader"):
        return against_leader(state, player, "ambush", play)
    by, target = state.lords.get(play["by"]), state.lords.get(play["on"])
    why = ambush_problem(state, player, by, target)
    events = _played(state, player, "ambush", why)
    if why:
        return events
    assert by is not None and target is not None
    city = target.location or ""
    target.captive_of = player
    events.append(Event("ambush", f"{player} plays AMBUSH: {by.name} captures {target.name} ({target.family}) "
                        f"in {city} (10.5).", data={"player": player, "by": by.name, "lord": target.name,
                                                     "city": city}))
    events += guard.remove(state, target.name, f"{target.name} is taken captive")   # 13.1, before the troops scatter
    events += captured(state, target)   # 12.0, 13.2: the relics and Excalibur they carried
    events += scatter(state, board, target.family, city, "AMBUSH", player)
    return events + release_captives(state, board, target.family, city, "AMBUSH")


# -- PASSAGE -----------------------------------------------------------------------------

def passage_problem(state: FiefState, player: str, by: str) -> str | None:
    """Why ``player`` cannot use a PASSAGE now: ``by`` "card" (a PASSAGE in hand) or "burgher"
    (a BURGHER's Passage action, a treasure, 11.2)."""
    if by == "card":
        return None if "passage" in state.families[player].hand else "you hold no PASSAGE card"
    if not burgher(state, player):
        return "you have no BURGHER card on your family board (11.2)"
    return treasure_problem(state, player, "burgher_passage")


def use_passage(state: FiefState, player: str, use: str, by: str = "card") -> tuple[bool, list[Event]]:
    """10.2, 11.2: spend a PASSAGE for ``use`` (one of PASSAGE_USES). (spent?, events). The
    caller applies the effect; see the module's docstring."""
    why = passage_problem(state, player, by)
    if why:
        return False, [kept(player, "passage", why)]
    if by == "card":
        state.families[player].hand.remove("passage")
        state.events_discard.append("passage")
        how = "plays PASSAGE"
    else:
        spend_treasure(state, player, "burgher_passage")
        how = "takes the Secret Routes of their BURGHER (a Treasure marker, 11.2)"
    return True, [Event("passage", f"{player} {how}: {use.replace('_', ' ')} (10.2).",
                        data={"player": player, "use": use, "by": by})]


def free_captive(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event]:
    """10.2 "Escape": a captive of choice is set free, placed in a city of their family or,
    failing that, an Independent City or an allied player's city (``to:``, else the nearest)."""
    lord = state.lords.get(play["free"])
    spent, events = use_passage(state, player, "free_captive", play.get("by", "card"))
    if not spent:
        return events
    if lord is None or not lord.captive_of:
        return events + [_void(player, "passage", f"{play['free']} is no longer a captive")]
    ctrl = controllers(state, board)
    wanted = play.get("to")
    places = escape_places(state, board, lord, ctrl)
    to = wanted if wanted in places else (places[0] if places else None)
    if to is None:
        return events + [_void(player, "passage", f"{lord.name} has no city to escape to (10.2)")]
    jailer, lord.captive_of, lord.location = lord.captive_of, None, to
    return events + [Event("escape", f"{lord.name} ({lord.family}) escapes from {jailer} and goes to {to} (10.2).",
                           data={"lord": lord.name, "jailer": jailer, "to": to})]


def escape_places(state: FiefState, board: Board, lord: Lord, ctrl: dict[str, str | None]) -> list[str]:
    """10.2: the family's controlled cities, nearest first; failing that, Independent (control
    free) cities and cities of a spouse's family, nearest first."""
    dist = board.distances(lord.location) if lord.location in board.towns else {}
    order = sorted(board.towns, key=lambda t: (dist.get(t, 99), t))
    own = [t for t in order if ctrl.get(t) == lord.family]
    if own:
        return own
    spouse = state.lords.get(lord.spouse or "")
    allies = {spouse.family} if spouse else set()
    return [t for t in order if ctrl.get(t) is None or ctrl.get(t) in allies]


# -- REBELLION ---------------------------------------------------------------------------

def rebellion(state: FiefState, board: Board, rng: Rng, player: str, play: Mapping[str, Any]) -> list[Event]:
    """10.1, 11.2, 11.3, 9.3: ``play``: {in, cards (REBELLION cards from the hand, 0-2),
    burgher (a BURGHER Rebellion action), passage: None|"card"|"burgher"}. The raiser's cards
    and treasures are spent first; then each other player's standing `join_rebellions` adds
    theirs (in turn order); then the PARLIAMENT card's Rebellion (9.3)."""
    city = play["in"]
    why = grounds_problem(state, board, player, city)
    hand = state.families[player].hand
    cards = int(play.get("cards", 1))
    if not why and hand.count("rebellion") < cards:
        why = f"you hold {hand.count('rebellion')} REBELLION card(s), not {cards}"
    if not why and play.get("burgher"):
        why = ("you have no BURGHER card on your family board (11.2)" if not burgher(state, player)
               else treasure_problem(state, player, "burgher_rebellion"))
    if not why and play.get("passage"):
        why = passage_problem(state, player, play["passage"])
        if not why and play["passage"] == "burgher" and play.get("burgher"):
            if treasures_left(state, player) < 2:
                why = "a BURGHER Rebellion and a BURGHER Passage need both of your Treasure markers (11.3)"
    if why:
        return [kept(player, "rebellion", why)]
    rising = Rising(city, player, invaders_first=bool(play.get("invaders_first")))
    events: list[Event] = []
    for _ in range(cards):
        hand.remove("rebellion")
        state.events_discard.append("rebellion")
        rising.sources.append((player, "rebellion"))
    if play.get("burgher"):
        spend_treasure(state, player, "burgher_rebellion")
        rising.sources.append((player, "burgher"))
    if play.get("passage"):
        spent, more = use_passage(state, player, "rebellion", play["passage"])
        events += more
        rising.passage = player if spent else None
    events += _joiners(state, board, rising)
    if parliament_rebellion(state):
        rising.sources.append(("Parliament", "parliament"))   # 9.3: the PARLIAMENT card adds one
    return events + raise_rebellion(state, board, rng, rising)


def _joiners(state: FiefState, board: Board, rising: Rising) -> list[Event]:
    """R41: "ANY Player can play an additional REBELLION supporting the original one" - by
    mail, the standing policy `join_rebellions: {against: [players] | all, cards: N}` of each
    other player, in turn order: up to N REBELLION cards of their hand join a Rebellion raised
    in a city controlled by one of those players (never on their own tax, 10.1)."""
    events: list[Event] = []
    owner = state.towns[rising.city].controller
    for other in state.turn_order():
        policy = state.families[other].policies.get(JOIN_POLICY)
        if other == rising.raiser or not isinstance(policy, dict):
            continue
        against = policy.get("against", [])
        if not (against == "all" or (owner and owner in against)) or owner == other:
            continue
        if grounds_problem(state, board, other, rising.city):
            continue
        hand = state.families[other].hand
        n = min(int(policy.get("cards", 1)), hand.count("rebellion"))
        for _ in range(n):
            hand.remove("rebellion")
            state.events_discard.append("rebellion")
            rising.sources.append((other, "rebellion"))
        if n:
            events.append(Event("rebellion_joined", f"{other} adds {n} REBELLION card(s) to the Rebellion in "
                                f"{rising.city} (10.1; their standing order `join_rebellions`).",
                                data={"player": other, "city": rising.city, "cards": n}))
    return events
