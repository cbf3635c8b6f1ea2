"""Retainers (E 2.12, rulings R48, R70, R76): the deck of 23, one drawn for each new noble and
linked to them, Spent (face down) after use until the End of Round (8.0), given, exchanged or
sold in the Cards phase, removed from the game with their noble (4.8).

The abilities are data (games/fief_england/cards.yaml, docs/fief-england.md "Retainers"): a
retainer whose ability is not entered has none. What the code applies of the vocabulary:
``swap_hand_card`` (Mata, 2.12: an at-once order, ``swap``), ``income`` (added at Income,
``income_bonus``), ``votes`` (added to the Vote Marker, ``vote_bonus``), ``extra_moves``
(``extra_moves``) and ``immune`` (``immune``), each read where its rule runs.

State: ``edition_state["retainers"] = {"deck": [ids, top last], "of": {noble: id}, "spent":
[ids], "offers": [{"giver", "receiver", "swap", "price"}]}``. Public but the deck's order and
the offers (the two families): the cards lie face up beside their noble (l.202) and a Spent one
is turned face down (l.203), which everyone sees.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.card_data import Retainer, england_cards
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

KEY = "retainers"


def _st(state: FiefState) -> dict[str, Any]:
    return state.edition_state.setdefault(KEY, {"deck": [], "of": {}, "spent": []})


def shuffle_deck(state: FiefState, rng: Rng) -> None:
    """Setup: the Retainer Draw Deck, shuffled face down (Game Setup; the Cards Row, l.98)."""
    deck = sorted(england_cards().retainers)
    rng.shuffle(deck, "retainer deck (2.12)")
    _st(state)["deck"] = deck


def retainer_of(state: FiefState, noble: str) -> Retainer | None:
    rid = _st(state)["of"].get(noble)
    return None if rid is None else england_cards().retainers[int(rid)]


# 2.12 (l.201-203): how often a retainer's ability is used, in words
USE_WORDS = {"per_round": "once a round, then spent until the End of Round", "once": "once, then removed",
             "always": "always"}


def _effect_text(effect: dict[str, Any]) -> str:
    """One effect in its card data's words, its parameters after it ("... in Phase 5 (5.0) (moves: 1).")."""
    params = "".join(f" ({k.replace('_', ' ')}: {str(v).replace('_', ' ')})"
                     for k, v in effect.items() if k != "effect")
    return england_cards().effect_texts[effect["effect"]].rstrip(".") + params + "."


def describe(card: Retainer) -> str:
    """A retainer as the reports name it: its name and its ability in words (its card data's)."""
    if not card.entered:   # the printed Summary Sheet's ability (l.206) is not in the rulebook
        return f"{card.name} (no ability in this game: its card's text is not known)"
    effects = " ".join(_effect_text(e) for e in card.effects)
    return f"{card.name} ({USE_WORDS.get(card.uses or '', card.uses)}: {effects})"


def draw_for(state: FiefState, noble: str) -> list[Event]:
    """2.12: "When a new Noble is placed on its Family Board, a Retainer is drawn ... and placed
    on the space to the right of the newly placed Noble Card" - face up, so public. R48: none
    left, none drawn. R70: the two nobles dealt at setup draw one each too."""
    st = _st(state)
    if noble in st["of"]:
        return []
    if not st["deck"]:
        return [Event("retainer_none_left", f"{noble} draws no retainer: the Retainer Deck is empty (2.12, R48).",
                      data={"noble": noble})]
    rid = st["deck"].pop()
    st["of"][noble] = rid
    card = england_cards().retainers[rid]
    return [Event("retainer_drawn", f"{noble} draws the retainer {describe(card)} (2.12).",
                  data={"noble": noble, "retainer": rid, "name": card.name})]


def remove_with(state: FiefState, noble: str) -> list[Event]:
    """4.8, 10.4: "their Character Card, Standee, and Retainer are removed from the game" (R48:
    never back to the deck)."""
    st = _st(state)
    rid = st["of"].pop(noble, None)
    if rid is None:
        return []
    if rid in st["spent"]:
        st["spent"].remove(rid)
    name = england_cards().retainers[rid].name
    return [Event("retainer_removed", f"{noble}'s retainer {name} is removed from the game (4.8).",
                  data={"noble": noble, "retainer": rid})]


def is_spent(state: FiefState, noble: str) -> bool:
    rid = _st(state)["of"].get(noble)
    return rid is not None and rid in _st(state)["spent"]


def ability(state: FiefState, noble: str, effect: str) -> list[dict[str, Any]]:
    """The noble's retainer's entered effects named ``effect`` that may be used now (not Spent)."""
    card = retainer_of(state, noble)
    if card is None or not card.entered or is_spent(state, noble):
        return []
    return [e for e in card.effects if e["effect"] == effect]


def use(state: FiefState, noble: str) -> list[Event]:
    """2.12: once used, a `per_round` retainer is Spent (face down) until the End of Round; a
    `once` retainer is removed from the game and its noble draws no new one (l.203); an `always`
    one stays as it is."""
    card = retainer_of(state, noble)
    if card is None or card.uses == "always":
        return []
    st = _st(state)
    if card.uses == "once":
        del st["of"][noble]
        return [Event("retainer_used_up", f"{noble}'s retainer {card.name} is used and removed from the game "
                      "(2.12).", data={"noble": noble, "retainer": card.id})]
    st["spent"].append(card.id)
    return [Event("retainer_spent", f"{noble}'s retainer {card.name} is Spent: face down until the End of "
                  "Round (2.12).", data={"noble": noble, "retainer": card.id})]


def end_of_round(state: FiefState) -> list[Event]:
    """8.0: "Turn all Spent Retainers (2.12) face-up"."""
    st = _st(state)
    clear_offers(state)
    if not st["spent"]:
        return []
    names = [england_cards().retainers[r].name for r in st["spent"]]
    st["spent"] = []
    return [Event("retainers_ready", f"The Spent retainers {', '.join(names)} are turned face up (8.0).",
                  data={"retainers": names})]


# -- effects applied where their rule runs -----------------------------------------------------

def income_bonus(state: FiefState, family: str) -> tuple[int, list[Event]]:
    """3.0 with the vocabulary's ``income``: the shillings the family's nobles' retainers add
    (halved with the rest while Invaders are present, 3.3); each such retainer is used."""
    total, events = 0, []
    for noble in sorted(n for n, lo in state.lords.items() if lo.family == family):
        found = ability(state, noble, "income")
        if found:
            total += sum(int(e["shillings"]) for e in found)
            events += use(state, noble)
    return total, events


def vote_bonus(state: FiefState, family: str, ballot: str) -> int:
    """9.1, 9.2 with the vocabulary's ``votes``: what the family's free nobles' retainers add to
    its Vote Marker in an ``election`` or ``parliament`` (captives and the besieged count no
    vote, 9.1 l.655). Read only: ``use_votes`` spends them once the votes are counted."""
    return sum(int(e["votes"]) for noble in _voters(state, family)
               for e in ability(state, noble, "votes") if e.get("in", "both") in (ballot, "both"))


def use_votes(state: FiefState, family: str, ballot: str) -> list[Event]:
    events: list[Event] = []
    for noble in _voters(state, family):
        if any(e.get("in", "both") in (ballot, "both") for e in ability(state, noble, "votes")):
            events += use(state, noble)
    return events


def _voters(state: FiefState, family: str) -> list[str]:
    return sorted(n for n, lo in state.lords.items() if lo.family == family and not lo.captive_of)


def extra_moves(state: FiefState, noble: str) -> int:
    """5.0 with the vocabulary's ``extra_moves``: the Moves the noble's retainer adds now."""
    if KEY not in state.edition_state:   # no retainer dealt (a position without the deck)
        return 0
    return sum(int(e["moves"]) for e in ability(state, noble, "extra_moves"))


def moves_seen(view: dict[str, Any], nobles: list[str]) -> int:
    """5.0, 2.12 as a player's view shows it (the retainers lie face up, l.202): the most Moves
    the retainers of ``nobles``, not Spent, add to a move they make together (the movement
    mail's check; ``extra_moves`` decides in play)."""
    seen = ((view.get("church") or {}).get("retainers") or {})
    by_name = {card.name: card for card in england_cards().retainers.values()}
    best = 0
    for noble in nobles:
        entry = seen.get(noble)
        card = by_name.get(entry["name"]) if entry and not entry.get("spent") else None
        if card is not None and card.entered:
            best = max(best, sum(int(e["moves"]) for e in card.effects if e["effect"] == "extra_moves"))
    return best


def immune(state: FiefState, noble: str, danger: str) -> bool:
    """The vocabulary's ``immune``: the noble is not affected by ``danger`` (plague, rebellion,
    justice, ambush, assassination, bandits). The caller spends the retainer with ``use`` when
    the immunity saves them."""
    return any(e["to"] == danger for e in ability(state, noble, "immune"))


# -- given, exchanged or sold in the Cards phase (2.12) -----------------------------------------

def transfer_problem(state: FiefState, giver: str, receiver: str, swap: bool) -> str | None:
    """Why ``giver``'s retainer cannot go to ``receiver`` now (None: it can). 2.12: "A Noble may
    have only one Retainer": the receiver has none, or gives theirs back in an exchange."""
    if giver not in state.lords or receiver not in state.lords:
        missing = giver if giver not in state.lords else receiver
        return f"{missing} is not in play"
    if giver == receiver:
        return "a noble cannot give a retainer to themself"
    if retainer_of(state, giver) is None:
        return f"{giver} has no retainer"
    other = retainer_of(state, receiver)
    if swap and other is None:
        return f"{receiver} has no retainer to exchange"
    if not swap and other is not None:
        return (f"{receiver} already has the retainer {other.name} (2.12: a noble has only one); "
                "exchange them instead")
    return None


def transfer(state: FiefState, giver: str, receiver: str, swap: bool = False, price: int = 0) -> list[Event] | str:
    """2.12: give (or sell for ``price`` shillings, paid by the receiver's family) or exchange a
    retainer between two nobles, of one family or two; no Pigeon needed. Spent stays Spent."""
    why = transfer_problem(state, giver, receiver, swap)
    if why:
        return why
    buyer, seller = state.lords[receiver].family, state.lords[giver].family
    if price and state.families[buyer].deniers < price:
        return f"{buyer} cannot pay {price} shilling(s)"
    of = _st(state)["of"]
    mine, theirs = of.pop(giver), of.pop(receiver, None)
    of[receiver] = mine
    if swap:
        of[giver] = theirs
    name = england_cards().retainers[mine].name
    events: list[Event] = []
    if swap:
        other = england_cards().retainers[theirs].name
        events.append(Event("retainers_exchanged", f"{giver} and {receiver} exchange their retainers: {name} "
                            f"goes to {receiver}, {other} to {giver} (2.12).",
                            data={"from": giver, "to": receiver, "retainer": mine, "back": theirs}))
    else:
        events.append(Event("retainer_given", f"{giver}'s retainer {name} goes to {receiver} (2.12).",
                            data={"from": giver, "to": receiver, "retainer": mine}))
    if price:   # shillings are secret (FAQ l.857): the price is told to the two families only
        state.families[buyer].deniers -= price
        state.families[seller].deniers += price
        events.append(Event("retainer_sold", f"{buyer} pays {seller} {price} shilling(s) for {name} (2.12).",
                            Audience.only(*sorted({buyer, seller})), {"buyer": buyer, "seller": seller,
                                                                      "price": price}))
    return events


# -- Mata (2.12, l.204) ---------------------------------------------------------------------------

def swap_problem(state: FiefState, player: str, noble: str, card: str, other: str) -> str | None:
    """2.12 (Mata): "Once per Round, you may exchange a Card of your choice from your Hand with a
    randomly drawn Card from another Player's Hand"."""
    lord = state.lords.get(noble)
    if lord is None or lord.family != player:
        return f"{noble} is not a noble of your family in play"
    if not any(e["effect"] == "swap_hand_card" for e in (retainer_of(state, noble) or _NONE).effects):
        return f"{noble}'s retainer cannot exchange cards (2.12: only a retainer with Mata's ability does)"
    if is_spent(state, noble):
        return f"{noble}'s retainer is Spent until the End of Round (2.12: once per Round)"
    if card not in state.families[player].hand:
        return f"you hold no {card!r} card"
    own = state.player_of(other) == state.player_of(player) and state.rules_version >= 3   # 13.7: one hand
    if other == player or other not in state.families or own:
        return f"{other!r} is not another player"
    if not state.families[other].hand:
        return f"{other} holds no card"
    return None


def swap_hand_card(state: FiefState, player: str, noble: str, card: str, other: str, rng: Rng) -> list[Event] | str:
    """Mata's exchange: the card given is told to ``other``, the card drawn (at random, the
    seeded generator) to ``player``; everyone else learns only that two cards changed hands."""
    why = swap_problem(state, player, noble, card, other)
    if why:
        return why
    theirs = state.families[other].hand
    taken = rng.choice(sorted(theirs), f"{noble}'s retainer draws a card from {other}'s hand (2.12)")
    theirs.remove(taken)
    mine = state.families[player].hand
    mine.remove(card)
    mine.append(taken)
    theirs.append(card)
    name = (retainer_of(state, noble) or _NONE).name
    return [Event("retainer_swap", f"{noble}'s retainer {name}: {player} exchanges a card from their hand with "
                  f"one drawn at random from {other}'s hand (2.12).", data={"player": player, "other": other,
                                                                            "noble": noble}),
            Event("retainer_swap_card", f"You give {card} to {other} and draw {taken} from their hand (2.12).",
                  Audience.only(player), {"gave": card, "took": taken}),
            Event("retainer_swap_card", f"{player} gives you {card} and takes {taken} from your hand (2.12).",
                  Audience.only(other), {"gave": card, "took": taken})] + use(state, noble)


_NONE = Retainer(0, "", False, None, ())


def linked(state: FiefState) -> dict[str, int]:
    """noble -> the retainer linked to them (public, l.202)."""
    return dict(_st(state)["of"])


def deck_size(state: FiefState) -> int:
    return len(_st(state)["deck"])


# -- an offer to another family (2.12: "give, exchange, or sell ... to any other Noble") ----------------

def offer(state: FiefState, player: str, giver: str, receiver: str, swap: bool, price: int) -> list[Event] | str:
    """A retainer offered to another family's noble waits for that family's acceptance
    (``accept``); a new offer of the same noble replaces the old. Told to the two families."""
    lord = state.lords.get(giver)
    if lord is None or lord.family != player:
        return f"{giver} is not a noble of your family in play"
    why = transfer_problem(state, giver, receiver, swap)
    if why:
        return why
    other = state.lords[receiver].family
    offers = _st(state).setdefault("offers", [])
    offers[:] = [o for o in offers if o["giver"] != giver]
    offers.append({"giver": giver, "receiver": receiver, "swap": swap, "price": price})
    terms = "in exchange for theirs" if swap else (f"for {price} shilling(s)" if price else "as a gift")
    card = retainer_of(state, giver) or _NONE
    text = (f"{giver} ({player}) offers the retainer {card.name} to {receiver} ({other}) {terms}; "
            f"{other} accepts with `accept_retainer: {giver}` (2.12).")
    return [Event("retainer_offered", text, Audience.only(*sorted({player, other})),
                  {"giver": giver, "receiver": receiver, "swap": swap, "price": price})]


def accept(state: FiefState, player: str, giver: str) -> list[Event] | str:
    offers = _st(state).setdefault("offers", [])
    found = next((o for o in offers if o["giver"] == giver and o["receiver"] in state.lords
                  and state.lords[o["receiver"]].family == player), None)
    if found is None:
        return f"no retainer offer of {giver} to a noble of yours is waiting"
    offers.remove(found)
    return transfer(state, found["giver"], found["receiver"], found["swap"], found["price"])


def offers_view(state: FiefState, player: str | None) -> list[dict[str, Any]]:
    """The waiting offers the viewer is a party to (the game master: all)."""
    out = []
    for o in _st(state).get("offers", []):
        parties = {state.lords[n].family for n in (o["giver"], o["receiver"]) if n in state.lords}
        if player is None or player in parties:
            out.append(dict(o))
    return out


def clear_offers(state: FiefState) -> None:
    """2.12: retainers change hands in the Cards phase: offers not accepted lapse with it."""
    _st(state).pop("offers", None)
