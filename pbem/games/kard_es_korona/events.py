"""II. Event Cards: the deck (games/kard_es_korona/events.yaml), the card turned over at the very
beginning of every year, and the effects that act at once. Effects that act later in the year
(income, sieges, an attacking lord's bonus) are read from the year's card with ``effect``."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from pbem.games.kard_es_korona.board import Board
from pbem.games.kard_es_korona.state import (State, active_players, add_units, board_of, castle_problem,
                                             election_year, is_neutral, remove_units)
from pbem.paths import games_dir
from pbem.rules.api import Event
from pbem.rules.rng import Rng

EFFECTS = {"election": bool, "castle_income": int, "no_county_income": bool, "player_infantry": int,
           "neutral_infantry": int, "rain": bool, "lord_attack_bonus": int}
DECK_SIZE = 16
INCOME_EFFECTS = ("castle_income", "no_county_income")   # the effects that concern tax income (l.140)
FIRST_YEAR = 1301                                         # III: no income in the first year


class CardError(ValueError):
    """The card data is malformed; the message names the card and the fix."""


@lru_cache(maxsize=None)
def cards() -> dict[str, dict[str, Any]]:
    path = games_dir() / "kard_es_korona" / "events.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for card in raw["cards"]:
        if card["id"] in out:
            raise CardError(f"{path}: card {card['id']} is listed twice")
        for key, value in card.get("effect", {}).items():
            if not isinstance(value, EFFECTS.get(key, type(None))):
                raise CardError(f"{path}: card {card['id']} has an unknown effect {key}: {value!r}; "
                                f"the effects are {', '.join(EFFECTS)}")
        out[card["id"]] = card
    if len(out) != DECK_SIZE:
        raise CardError(f"{path}: the deck has {DECK_SIZE} cards, not {len(out)}")
    return out


def effect(state: State, key: str) -> Any:
    """The value of ``key`` in this year's card (and the lasting castle income of the Guilds)."""
    if key == "castle_income":
        return sum(cards()[c]["effect"].get(key, 0) for c in state["lasting"])
    card = state.get("event")
    return cards()[card]["effect"].get(key) if card else None


def concerns_income(card: dict[str, Any]) -> bool:
    """Whether a card's effect concerns tax income (II. Event Cards, l.140)."""
    return any(card["effect"].get(key) for key in INCOME_EFFECTS)


def new_deck(rng: Rng) -> list[str]:
    deck = list(cards())
    rng.shuffle(deck, "event cards shuffled")
    return deck


def turn_card(state: State, rng: Rng) -> list[Event]:
    """The year's card (the deck is reshuffled when it runs out, ruling K13) and its at-once
    effects: an extraordinary election, lasting effects, infantry taken or given."""
    if not state["deck"]:
        state["deck"] = new_deck(rng)
    card_id = state["deck"].pop(0)
    card = cards()[card_id]
    state["event"] = card_id
    events = [Event("event_card", f"{state['year']}: the event card is {card['name']}.",
                    data={"card": card_id, "year": state["year"]})]
    fx = card["effect"]
    if state["rules_version"] >= 2 and state["year"] == FIRST_YEAR and concerns_income(card):
        # l.140: "any event concerning tax income in the first year" cannot be carried out: no
        # part of it, the neutrals' infantry and a lasting effect included (ruling K33)
        return events + [Event("event_effect", f"{card['name']} concerns tax income, and none is collected in the "
                               "first year: the card has no effect (II. Event Cards).")]
    if fx.get("castle_income"):
        state["lasting"].append(card_id)
        events.append(Event("event_effect", f"From now on every castle yields {fx['castle_income']} garas more."))
    if fx.get("election"):
        if election_year(state):   # l.140, ruling K12: none when one is due anyway
            events.append(Event("event_effect", "An election is due at the end of this year anyway: "
                                "the King Election adds none."))
        else:
            state["election_due"] = True
            events.append(Event("event_effect", "Officials will be elected at the end of this year (IV)."))
    if fx.get("no_county_income") and state["year"] == 1301:
        events.append(Event("event_effect", "No tax is collected in the first year: the card has no effect."))
    board = board_of(state)
    if fx.get("player_infantry"):
        for player in active_players(state):
            events.extend(_player_infantry(state, board, player, fx["player_infantry"]))
    if fx.get("neutral_infantry"):
        events.extend(_neutral_infantry(state, board, fx["neutral_infantry"]))
    return events


def _player_infantry(state: State, board: Board, player: str, change: int) -> list[Event]:
    """K13: a player loses an infantry unit where he has the most (the first such county in
    board order), or gains one in the first of his castles with room for it."""
    mine = [c for c in board.counties if state["armies"].get(c, {}).get("owner") == player]
    if change < 0:
        stacks = [c for c in mine if state["armies"][c]["units"]["infantry"]]
        if not stacks:
            return [Event("event_effect", f"{player} has no infantry to lose.")]
        county = max(stacks, key=lambda c: state["armies"][c]["units"]["infantry"])
        remove_units(state, county, {"infantry": 1})
        return [Event("event_effect", f"{player} loses an infantry unit in {county}.",
                      data={"player": player, "county": county})]
    for county in mine:
        if board.counties[county].castle:
            after = dict(state["armies"][county]["units"])
            after["infantry"] += 1
            if castle_problem(state["version"], after) is None:
                add_units(state, county, player, {"infantry": 1})
                return [Event("event_effect", f"{player} gains an infantry unit in {county}.",
                              data={"player": player, "county": county})]
    return [Event("event_effect", f"{player} has no castle with room for a new infantry unit.")]


def _neutral_infantry(state: State, board: Board, change: int) -> list[Event]:
    """K13: every neutral garrison of a castle loses (or gains, room allowing) an infantry unit."""
    done = []
    for county in board.castles():
        here = state["armies"].get(county)
        if not here or not is_neutral(here["owner"]):
            continue
        if change < 0 and here["units"]["infantry"]:
            remove_units(state, county, {"infantry": 1})
            done.append(county)
        elif change > 0:
            after = dict(here["units"])
            after["infantry"] += 1
            if castle_problem(state["version"], after) is None:
                add_units(state, county, here["owner"], {"infantry": 1})
                done.append(county)
    verb = "loses" if change < 0 else "gains"
    return [Event("event_effect", f"The neutral garrison of {', '.join(done)} {verb} an infantry unit."
                  if done else "No neutral garrison is affected.", data={"castles": done})]
