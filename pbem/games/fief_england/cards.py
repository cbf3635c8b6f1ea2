"""Fief: England's card file (games/fief_england/cards.yaml) read into the Fief core's ``CardSet``
(the edition's ``cards_loader`` hook): the 20 noble cards are the lord cards (2.11), the other
character cards (abbesses, bishops, archbishops, mercenary crossbowmen, burghers, 2.2) the
deck's other characters, and the fortune and disaster cards by type (2.3-2.8, 10.0). Every count
is checked against the edition record's `deck:` (E 2.2, Components l.38-41). What the card file
holds besides (retainers, relics, treasures, the abbeys' names) is England's own data, read by
its own modules.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.cards.deck import CardError, CardSet, LordCard
from pbem.games.fief.edition import load_edition

OTHER_KINDS = ("abbess", "bishop", "archbishop", "mercenary", "burgher")   # 2.2 (l.111)


def load_england_cards(data: Any, where: str, variant: str) -> CardSet:
    want = load_edition(variant).deck
    if not isinstance(data, dict) or not isinstance(data.get("character_deck"), dict):
        raise CardError(f"{where}: the card file needs a `character_deck:` mapping (docs/fief-england.md, "
                        "\"Card data\")")
    deck = data["character_deck"]
    nobles = deck.get("nobles")
    if not isinstance(nobles, list) or not all(isinstance(n, dict) and "name" in n and isinstance(n.get("female"), bool)
                                               for n in nobles):
        raise CardError(f"{where}: `character_deck.nobles` must list the noble cards, one "
                        "`- {name: NAME, female: true|false, ...}` each (2.11)")
    # England has no starting towns on the cards (France's I.4): a noble's `start` is empty.
    lords = {str(n["name"]): LordCard(str(n["name"]), n["female"], "") for n in nobles}
    if len(lords) != len(nobles) or len(lords) != want.lords:
        raise CardError(f"{where}: {len(nobles)} noble cards ({len(lords)} names); the rulebook has "
                        f"{want.lords}, each named once (2.2, l.111)")
    women = sum(1 for c in lords.values() if c.female)
    if women != want.women:
        raise CardError(f"{where}: {women} noblewomen; the edition record says {want.women} (deck.women)")
    others = {}
    for kind in OTHER_KINDS:
        cards = deck.get(kind)
        if not isinstance(cards, list):
            raise CardError(f"{where}: `character_deck.{kind}` must list its cards (2.2)")
        others[kind] = len(cards)
    if others != want.other_characters:
        raise CardError(f"{where}: the other character cards are {others}; the edition record's "
                        f"deck.other_characters says {want.other_characters} (2.2)")
    groups = {}
    for group in ("fortune", "disaster"):
        entry = data.get(group)
        cards = entry.get("cards") if isinstance(entry, dict) else None
        if not isinstance(cards, dict) or not all(isinstance(c, dict) and isinstance(c.get("count"), int)
                                                  and not isinstance(c.get("count"), bool) for c in cards.values()):
            raise CardError(f"{where}: `{group}.cards` must give each card type its `count` (2.3)")
        groups[group] = {str(k): c["count"] for k, c in cards.items()}
        if groups[group] != getattr(want, group):
            raise CardError(f"{where}: the {group} cards are {groups[group]}; the edition record's deck.{group} "
                            f"says {getattr(want, group)}")
    # Every disaster card acts on the Region the d6 names (2.4, R43): none strikes a sea alone.
    return CardSet(lords, others, groups["fortune"], groups["disaster"])
