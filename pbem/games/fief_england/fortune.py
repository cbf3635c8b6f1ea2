"""England's Fortune cards played on a Region (E 2.7-2.9, 3.0-3.4): BOUNTIFUL HARVEST and GOOD
WEATHER (+1 shilling per Mill and Abbey of the Region at Income, both stacking, R9; each
cancelling its disaster), the TAX card's Tallage (2.8, a Treasure marker, 11.3; R17), and
Scorched Earth after Income (3.4, R26).

Cards lie in ``FiefState.board_effects`` as ``BoardEffect(card, "I".."VI", player, lord)``.
BOUNTIFUL HARVEST and GOOD WEATHER leave the map after Income (3.2); a TAX card stays until the
end of the round (2.8), so its Region stays open to REBELLION (10.1).

The Tithe (2.8, 3.2) is the Church part's; it spends its Treasure marker through
``treasure.spend_treasure`` as the Tallage does.
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.hooks import IncomeRules
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england.disasters import lying
from pbem.games.fief_england.church import income as church_income
from pbem.games.fief_england.reading import abbey_in
from pbem.games.fief.edition import edition_of
from pbem.games.fief_england.regions import record, region_cities, region_fief, region_name, region_of
from pbem.games.fief_england.treasure import spend_treasure, treasure_problem
from pbem.rules.api import Audience, Event

NAMES = {"bountiful_harvest": "BOUNTIFUL HARVEST", "good_weather": "GOOD WEATHER", "tax": "TAX"}
CANCELS = {"bountiful_harvest": "famine", "good_weather": "storms"}      # 2.7
BLOCKED_BY = {"bountiful_harvest": "storms", "good_weather": "famine"}   # 2.7, 2.5
BONUS_CARDS = ("bountiful_harvest", "good_weather")
SOVEREIGN = ("king", "sovereign_queen")   # 2.8: "The King or Sovereign Queen"
# This part's record (rules version 3): the Regions the Sovereign taxed as ungoverned this round
# (2.8), told apart at Income from a Lord's Tallage whose title has gone back to the deck (4.8).
CROWN_TALLAGES = "crown_tallages"


def _refused(player: str, card: str, why: str) -> tuple[bool, Event]:
    return False, Event("card_not_played", f"{player} cannot play the {NAMES[card]} card: {why}; the card stays "
                        "in hand.", audience=Audience.only(player), data={"player": player, "card": card})


def fortune_problem(state: FiefState, card: str, target: str) -> str | None:
    """Why BOUNTIFUL HARVEST or GOOD WEATHER cannot be played on Region ``target`` now."""
    if lying(state, CANCELS[card], target):
        return None
    if lying(state, BLOCKED_BY[card], target):
        return (f"{BLOCKED_BY[card].upper()} lies there; {NAMES[card]} may not be played on it (2.5, 2.7)")
    if lying(state, card, target):
        return "one already lies there: each type of Fortune card applies once per Region a round (2.9)"
    return None


def play_bonus_card(state: FiefState, board: Board, player: str, card: str, target: str) -> tuple[bool, Event]:
    """2.7, 2.9: BOUNTIFUL HARVEST (``bountiful_harvest``) or GOOD WEATHER (``good_weather``) on
    Region ``target``: it cancels FAMINE (STORMS), both cards discarded; else it lies on the
    Region's Sea. (played?, what happened)."""
    where = region_name(board, target)
    why = fortune_problem(state, card, target)
    if why:
        return _refused(player, card, f"on {where}: {why}")
    cancelled = lying(state, CANCELS[card], target)
    if cancelled is not None:
        state.board_effects.remove(cancelled)
        state.events_discard += [cancelled.card, card]
        return True, Event("card_cancels", f"{player} plays {NAMES[card]} on {where}: it cancels the "
                           f"{cancelled.card.upper()}; both cards are discarded (2.7).",
                           data={"player": player, "card": card, "cancelled": cancelled.card, "region": target})
    state.board_effects.append(BoardEffect(card, target, player))
    return True, Event("card_played", f"{player} plays {NAMES[card]} on {where}: +1 shilling per Mill and "
                       "Abbey there at Income (2.7).", data={"player": player, "card": card, "region": target})


def tallage_problem(state: FiefState, board: Board, player: str, lord: str, target: str) -> str | None:
    """2.8: a Lord on their own Fiefdom (even as a captive), or the King or Sovereign Queen on an
    ungoverned Region (4.3: its title held by no one); once per Region a round (2.9); and a
    Treasure marker (11.3)."""
    who = state.lords.get(lord)
    if who is None or who.family != player:
        return f"{lord} is not a noble of your family in play"
    fief = region_fief(board, target)
    holder = state.fief_titles.get(fief)
    if holder != lord and not (who.political in SOVEREIGN and holder is None):
        return (f"{lord} neither holds the title of {region_name(board, target)} nor is the King or Sovereign "
                "Queen taxing an ungoverned Region (2.8)")
    if any(e.card == "tallage" and e.target == target for e in state.board_effects):
        return f"a Tallage lies on {region_name(board, target)} already this round (2.9)"
    return treasure_problem(state, player, "tax_tallage")


def play_tallage(state: FiefState, board: Board, player: str, lord: str, target: str) -> tuple[bool, Event]:
    """2.8: the TAX card on Region ``target``'s Sea with a Treasure marker on its Tallage icon;
    at Income ``lord``'s family receives 2 shillings per city of the Region (``tallage_income``)."""
    why = tallage_problem(state, board, player, lord, target)
    if why:
        return _refused(player, "tax", f"a Tallage on {region_name(board, target)} by {lord}: {why}")
    spend_treasure(state, player, "tax_tallage")
    if state.rules_version >= 3 and state.fief_titles.get(region_fief(board, target)) is None:
        state.edition_state.setdefault(CROWN_TALLAGES, []).append(target)
    state.board_effects.append(BoardEffect("tallage", target, player, lord))
    return True, Event("card_played", f"{player} plays a TAX card: {lord} levies a Tallage on "
                       f"{region_name(board, target)}, a Treasure marker on its icon: 2 shillings per city of "
                       "the Region at Income, and no city income there for anyone (2.8, 11.3).",
                       data={"player": player, "card": "tax", "tax": "tallage", "region": target, "lord": lord})


def play_tithe(state: FiefState, board: Board, player: str, lord: str, district: int) -> tuple[bool, Event]:
    """2.8, 11.3: the TAX card with a Treasure marker on its Tithe icon — the Church part's rule
    (church/income.py ``play_tithe``: a Bishop or Archbishop on his own district, once a round),
    paid with this part's Treasure markers; at Income the district's mills pay ``lord``'s family."""
    played = church_income.play_tithe(state, board, player, lord, district, spend_treasure)
    if isinstance(played, str):
        return _refused(player, "tax", f"a Tithe on {board.bishoprics[district].name} by {lord}: {played}")
    return True, played[0]


# -- Income (3.0-3.4): what this part adds to England's Income phase -----------------------

def fortune_bonus(state: FiefState, board: Board, city: str) -> int:
    """3.0, 2.7, R9: the extra shillings of each Mill and each Abbey of ``city``: +1 for a
    BOUNTIFUL HARVEST and +1 for a GOOD WEATHER on its Region (both stack)."""
    target = region_of(board, city)
    per_card = record(state, "income.fortune_bonus")   # 2.7 (l.162, l.166)
    return sum(per_card for card in BONUS_CARDS if target and lying(state, card, target))


def tallage_income(state: FiefState, board: Board) -> dict[str, dict[str, int]]:
    """3.2, 2.8: family -> Region -> shillings: 2 per city of a tallaged Region, whoever controls
    them, to the family the title is with at Income (``collector``)."""
    out: dict[str, dict[str, int]] = {}
    for effect in state.board_effects:
        if effect.card != "tallage":
            continue
        if state.rules_version >= 3:
            family = collector(state, board, effect)
        else:   # version 2: the taxing family only, while it holds the title (or the crown)
            family = effect.player if effect.player in state.families and _still_held(state, board, effect) else None
        if family is not None:
            cities = region_cities(board, effect.target)
            per_city = edition_of(state).income["tallage_per_town"]   # 2.8, 3.2 (l.277)
            out.setdefault(family, {})[effect.target] = per_city * len(cities)
    return out


def collector(state: FiefState, board: Board, effect: BoardEffect) -> str | None:
    """FAQ (l.871, a Lord who played a TAX card dies before Income): "If the Fiefdom's Title
    remains in the Family (4.8), they collect the Shillings. If the Fief's Title is now controlled
    by another Player, the other player receives the Shillings. If the Fief's Title remains
    unclaimed, no tax is collected" (R148). The family of the Region's title holder collects; a
    Sovereign's Tallage on an ungoverned Region goes, as the crown does, to the Sovereign's family
    while the Region stays ungoverned; with no holder (no Sovereign) nobody collects."""
    holder = state.lords.get(state.fief_titles.get(region_fief(board, effect.target)) or "")
    if holder is not None:
        return holder.family
    if effect.target not in (state.edition_state.get(CROWN_TALLAGES) or []):
        return None   # the Lord's title went back to the Titles Deck (4.8): "unclaimed"
    crown = next((l for l in state.lords.values() if l.political in SOVEREIGN), None)
    return crown.family if crown is not None else None


def _still_held(state: FiefState, board: Board, effect: BoardEffect) -> bool:
    """2.8: the Tallage holds while the title is its family's (a captive Lord still taxes, 7.6),
    or, the Sovereign's, while the Region stays ungoverned and the family keeps the crown."""
    holder = state.lords.get(state.fief_titles.get(region_fief(board, effect.target)) or "")
    if holder is not None:
        return holder.family == effect.player
    return any(l.family == effect.player and l.political in SOVEREIGN for l in state.lords.values())


def tallaged_cities(state: FiefState, board: Board) -> set[str]:
    """R17 (Ex 2.8: "David will receive NO income for the City he controls"): the cities whose
    1 shilling of city income nobody receives this round, the taxer included."""
    return {c for e in state.board_effects if e.card == "tallage" for c in region_cities(board, e.target)}


def mill_and_abbey_value(state: FiefState, board: Board, city: str) -> tuple[int, int]:
    """3.0, 2.5: (a Mill's, an Abbey's) income in ``city``, 2 each with the fortune bonus added;
    a Mill under FAMINE produces nothing (the Abbey does); 0 for an Abbey not there."""
    bonus = fortune_bonus(state, board, city)
    target = region_of(board, city)
    mill = 0 if target and lying(state, "famine", target) else edition_of(state).income["mill"] + bonus
    return mill, (record(state, "income.abbey") + bonus if abbey_in(state, city) else 0)


def income_parts(state: FiefState, board: Board) -> tuple[dict[str, list[tuple[str, int]]], list[Event]]:
    """3.2: the Tallages, as the Income phase adds an edition's own incomes (the ``income_parts``
    hook; the Church's Abbeys join them there)."""
    parts = {family: [(f"Tallage on {region_name(board, target)}", amount) for target, amount in regions.items()]
             for family, regions in tallage_income(state, board).items()}
    return parts, []


def town_income(state: FiefState, board: Board, city: str) -> int:
    """3.0, R17: 1 shilling for a controlled city, none while a Tallage lies on its Region."""
    return 0 if city in tallaged_cities(state, board) else edition_of(state).income["town"]


def mill_income(state: FiefState, board: Board, city: str) -> int:
    """3.0, 2.5, 2.7: one Mill's income (0 under FAMINE)."""
    return mill_and_abbey_value(state, board, city)[0]


# The edition's ``income_rules`` hook: 3.2 "Once all Players have collected their income, the
# Fortune cards are removed from the Map" - BOUNTIFUL HARVEST and GOOD WEATHER; the TAX card stays
# until the end of the round (2.8), its Region open to REBELLION.
INCOME_RULES = IncomeRules(town=town_income, mill=mill_income, leave_after=BONUS_CARDS)


def scorch_problem(state: FiefState, player: str, city: str, controller: str | None) -> str | None:
    """3.4: only one's own Mill (in a city one controls)."""
    town = state.towns.get(city)
    if town is None or not town.mills:
        return f"there is no Mill in {city}"
    if controller != player:
        return f"the Mill of {city} is not yours (you do not control {city})"
    return None


def scorched_earth(state: FiefState, player: str, cities: list[str], controllers: dict[str, str | None],
                   public_money: bool = False) -> list[Event]:
    """3.4, R26: after Income, a family destroys its own Mills for 2 shillings each (not halved
    by Invaders: the halving is of the Income totals, 3.3). What it earns is secret (FAQ);
    that the Mills burn is public."""
    events: list[Event] = []
    burnt: list[str] = []
    for city in cities:
        why = scorch_problem(state, player, city, controllers.get(city))
        if why:
            events.append(Event("scorch_refused", f"{player} cannot burn a Mill: {why} (3.4).",
                                audience=Audience.only(player), data={"player": player, "city": city}))
            continue
        state.towns[city].mills -= 1
        burnt.append(city)
    if burnt:
        gain = record(state, "income.scorched_earth_per_mill") * len(burnt)   # 3.4 (l.286)
        state.families[player].deniers += gain
        events.append(Event("scorched_earth", f"{player} burns the Mill of {', '.join(burnt)} (Scorched Earth, 3.4).",
                            data={"player": player, "cities": burnt}))
        events.append(Event("scorched_earth_gain", f"Scorched Earth: {player} receives {gain} shillings (3.4) and "
                            f"now has {state.families[player].deniers}.",
                            audience=Audience.everyone() if public_money else Audience.only(player),
                            data={"player": player, "shillings": gain}))
    return events
