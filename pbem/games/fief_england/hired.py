"""The Character Opportunity cards on a family board (E 11.0-11.2, rulings R41, R77, R78): MERCENARY
CROSSBOWMEN and BURGHER. Played at any time but during the Draw action (by mail: an at-once
order, or in the Cards phase's `play:` orders), a card goes onto the family board's right-hand
space, replacing (and discarding) the one there.

MERCENARY (11.1): its 3 crossbowmen lie on the card; the family hires any number at any time for
2 shillings each, placing each in any city (a pawn of kind ``crossbowman``, 2 SP, 2 hits); in a
battle the battle plan's standing order hires them (``hire_in_battle``, for the battle rules).
Defeated ones go to the stockpile (all 3 defeated: the card is discarded); at the End of Round
the others return to the card.

BURGHER (11.2): only while the family has a titled Lord (4.3); adds its 3 or 5 votes to a
Parliament vote, starts or supports a Rebellion, or takes a Passage, each for a Treasure (11.3:
the fortune part's ``spend_treasure``).

State: ``edition_state["family_card"] = {family: printed id}`` ("mercenary_1", "mercenary_2",
"burgher_1", "burgher_2": the card's place in games/fief_england/cards.yaml) and
``edition_state["mercenaries"] = {printed id: {"on_card": n, "hired": [pawn ids]}}``, with
``"lent": {family: n}`` while some are lent or rented to other families for the round
(``mercenary_loans.py``: they hire them as their own). Public: the cards lie face up and hired
troops are placed in the open (11.1); the shillings paid are the hirer's secret (FAQ l.857), and
only the count hired is told.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState, Pawn
from pbem.games.fief_england.card_data import england_cards
from pbem.rules.api import Event

CARD = "family_card"
MERCENARIES = "mercenaries"
UNIT = "crossbowman"
LOAN_OFFERS = "crossbowmen_offers"   # mercenary_loans.py: lendings offered, waiting for acceptance


def printed(card: str) -> list[str]:
    """The printed cards of a hand card's kind, in cards.yaml's order."""
    cards = england_cards()
    count = len(cards.mercenaries) if card == "mercenary" else len(cards.burghers) if card == "burgher" else 0
    return [f"{card}_{i}" for i in range(1, count + 1)]


def card_on(state: FiefState, family: str) -> str | None:
    return (state.edition_state.get(CARD) or {}).get(family)


def card_name(printed_id: str) -> str:
    kind, index = printed_id.rsplit("_", 1)
    cards = england_cards()
    if kind == "mercenary":
        return cards.mercenaries[int(index) - 1][0]
    return f"BURGHER ({cards.burghers[int(index) - 1]} votes)"


def _mercs(state: FiefState) -> dict[str, dict[str, Any]]:
    return state.edition_state.setdefault(MERCENARIES, {})


def place_problem(state: FiefState, family: str, card: str) -> str | None:
    """11.2: a BURGHER card only with a titled Lord in the family; a free printed card left."""
    if card == "burgher" and not _titled(state, family):
        return "a BURGHER card is played only while your family has a titled Lord (11.2, 4.3)"
    if not _free(state, card):
        return f"both {card.upper()} cards are on family boards already"
    return None


def _titled(state: FiefState, family: str) -> bool:
    return any(lo.fief_titles for lo in state.lords.values() if lo.family == family)


def _free(state: FiefState, card: str) -> list[str]:
    taken = set((state.edition_state.get(CARD) or {}).values())
    return [p for p in printed(card) if p not in taken]


def place(state: FiefState, family: str, card: str) -> list[Event] | str:
    """11.0: the card goes onto the family board's right-hand space; the card there before (and
    its crossbowmen still on it or on the map) is discarded (11.1, 11.2). R77: the printed card
    placed is the first of its kind not on a board (cards.yaml order)."""
    why = place_problem(state, family, card)
    if why:
        return why
    events = discard(state, family, "replaced")
    chosen = _free(state, card)[0]
    state.edition_state.setdefault(CARD, {})[family] = chosen
    if card == "mercenary":
        count = england_cards().mercenaries[int(chosen.rsplit("_", 1)[1]) - 1][1]
        _mercs(state)[chosen] = {"on_card": count, "hired": []}
        what = f"with its {count} crossbowmen, to hire at 2 shillings each (11.1)"
    else:
        what = "(11.2)"
    return [Event("family_card_placed", f"{family} places {card_name(chosen)} on their family board {what}.",
                  data={"family": family, "card": chosen})] + events


def discard(state: FiefState, family: str, why: str) -> list[Event]:
    """11.1, 11.2: the card on the space is discarded (to the character discard pile) with any
    crossbowmen of it, on the card or on the map."""
    chosen = (state.edition_state.get(CARD) or {}).pop(family, None)
    if chosen is None:
        return []
    kind = chosen.rsplit("_", 1)[0]
    gone = _mercs(state).pop(chosen, {"hired": []})["hired"]
    for pid in gone:
        state.pawns.pop(pid, None)
    state.character_discard.append(kind)
    return [Event("family_card_discarded", f"{family}'s {card_name(chosen)} card is discarded ({why}) (11.0).",
                  data={"family": family, "card": chosen, "crossbowmen_removed": len(gone)})]


# -- MERCENARY CROSSBOWMEN (11.1) ------------------------------------------------------------------

def available(state: FiefState, family: str) -> int:
    chosen = card_on(state, family)
    return _mercs(state)[chosen]["on_card"] if chosen in _mercs(state) else 0


def borrowed(state: FiefState, family: str) -> list[tuple[str, int]]:
    """11.1 "lend or rent their Mercenaries": (card, count) of the crossbowmen other families'
    cards lend ``family`` this round, not yet hired, in the cards' order."""
    return [(card, merc["lent"][family]) for card, merc in sorted(_mercs(state).items())
            if (merc.get("lent") or {}).get(family)]


def hirable(state: FiefState, family: str) -> int:
    """The crossbowmen ``family`` may hire now: on its own card, then those lent to it."""
    return available(state, family) + sum(n for _, n in borrowed(state, family))


def can_hire(state: FiefState, family: str) -> bool:
    """A MERCENARY card on the family board, or crossbowmen lent by another's (11.1)."""
    return str(card_on(state, family) or "").startswith("mercenary") or bool(borrowed(state, family))


def hirable_in_view(view: dict[str, Any], family: str) -> tuple[bool, int]:
    """``can_hire`` and ``hirable`` as a mail's checks see them, on the view's ``church`` entry."""
    church = view.get("church") or {}
    lent = (church.get("crossbowmen_lent") or {}).get(family, 0)
    card = str((church.get("family_card") or {}).get(family) or "")
    return card.startswith("mercenary") or bool(lent), (church.get("crossbowmen_on_card") or {}).get(family, 0) + lent


def price(state: FiefState) -> int:
    """11.1 (l.745): "2 Shillings each" (edition.yaml `hired_units.crossbowman.price`)."""
    return int(edition_of(state).extra["hired_units"][UNIT]["price"])


def hire_problem(state: FiefState, family: str, count: int, city: str) -> str | None:
    if not can_hire(state, family):
        return "you have no MERCENARY card on your family board (11.1)"
    if city not in state.towns:
        return f"there is no city {city!r}"
    left = hirable(state, family)
    if count > left:
        return f"only {left} crossbowmen lie on your MERCENARY card (11.1)"
    money, each = state.families[family].deniers, price(state)
    if money < count * each:
        return f"{count} crossbowmen cost {count * each} shillings (11.1: {each} each); you have {money}"
    return None


def hire(state: FiefState, family: str, count: int, city: str, from_card: str | None = None) -> list[Event] | str:
    """11.1: hire ``count`` crossbowmen from the card into ``city`` for 2 shillings each: those on
    the family's own card first, then those lent to it (R143: the borrower pays the 2 shillings);
    each stays its card's, so it returns there at the End of Round. ``from_card``: only those
    that card lends the family (a borrowing's `in:`)."""
    why = hire_problem(state, family, count, city)
    if why:
        return why
    own = card_on(state, family) or ""
    sources = [(own, available(state, family))] if own in _mercs(state) and from_card is None else []
    left, lenders = count, []
    for card, n in sources + [(c, n) for c, n in borrowed(state, family) if from_card in (None, c)]:
        take, merc = min(left, n), _mercs(state)[card]
        if not take:
            continue
        for _ in range(take):
            pid = state.new_pawn_id()
            state.pawns[pid] = Pawn(pid, UNIT, family, city)
            merc["hired"].append(pid)
        if card == own:
            merc["on_card"] -= take
        else:
            _take_lent(merc, family, take)
            lenders.append(next(f for f, c in (state.edition_state.get(CARD) or {}).items() if c == card))
        left -= take
    state.families[family].deniers -= count * price(state)
    lent = f", lent by {' and '.join(lenders)}" if lenders else ""
    return [Event("crossbowmen_hired", f"{family} hires {count} mercenary crossbowm{'a' if count == 1 else 'e'}n "
                  f"into {city}{lent} (11.1).", data={"family": family, "count": count, "city": city,
                                                       **({"lent_by": lenders} if lenders else {})})]


def _take_lent(merc: dict[str, Any], family: str, count: int) -> None:
    merc["lent"][family] -= count
    if not merc["lent"][family]:
        del merc["lent"][family]
    if not merc["lent"]:
        del merc["lent"]


def hire_in_battle(state: FiefState, family: str, wanted: int, city: str) -> list[Event]:
    """R41, 11.1 ("They may be hired in middle of a Battle"): for the battle rules, the battle
    plan's standing order `hire_crossbowmen: N` carried out when the battle in ``city`` begins:
    as many as the card holds and the family can pay, up to ``wanted``."""
    count = min(wanted, hirable(state, family), state.families[family].deniers // price(state))
    if count <= 0:
        return []
    done = hire(state, family, count, city)
    return done if isinstance(done, list) else []


def end_of_round(state: FiefState) -> list[Event]:
    """11.1 at the End of Round: crossbowmen still on the map return to their card; those
    defeated went to the stockpile, and a card whose 3 are all defeated is discarded. Those lent
    for the round come back too, hired or not (11.1, R141), and offers not taken lapse."""
    events: list[Event] = []
    state.edition_state.pop(LOAN_OFFERS, None)
    for family, chosen in sorted((state.edition_state.get(CARD) or {}).items()):
        merc = _mercs(state).get(chosen)
        if merc is None:
            continue
        merc["on_card"] += sum((merc.pop("lent", None) or {}).values())
        back = [pid for pid in merc["hired"] if pid in state.pawns]
        for pid in back:
            del state.pawns[pid]
        merc["on_card"] += len(back)
        merc["hired"] = []
        if back:
            events.append(Event("crossbowmen_return", f"{len(back)} of {family}'s crossbowmen return to their card "
                                "(11.1).", data={"family": family, "count": len(back)}))
        if merc["on_card"] == 0:
            events += discard(state, family, "all its crossbowmen were defeated")
    return events + burghers_check(state)


# -- BURGHER (11.2) ------------------------------------------------------------------------------------

def burgher_votes(state: FiefState, family: str) -> int:
    """11.2: the 3 or 5 Parliament votes of the family's BURGHER card (0 without one)."""
    chosen = card_on(state, family)
    if not chosen or not chosen.startswith("burgher"):
        return 0
    return england_cards().burghers[int(chosen.rsplit("_", 1)[1]) - 1]


def burghers_check(state: FiefState) -> list[Event]:
    """11.2: a BURGHER card "can only be played, and remain in play, if there is a Titled Lord
    in the Family": without one it is discarded."""
    events: list[Event] = []
    for family, chosen in sorted((state.edition_state.get(CARD) or {}).items()):
        if chosen.startswith("burgher") and not _titled(state, family):
            events += discard(state, family, "the family has no titled Lord, 11.2")
    return events
