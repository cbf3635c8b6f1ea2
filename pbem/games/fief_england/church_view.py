"""What each viewer sees of England's Church, retainers, relics and family-board cards: the
view's ``church`` entry (England's ``view_parts`` hook; docs/fief-england.md "What each player
sees").

Public: the clergy and their districts, the Abbeys and Abbesses, the cards on the family boards
and the crossbowmen left on them or lent to another family (11.1), each noble's retainer (face
up beside them, l.202) and whether it is Spent (l.203), the relics face up and who carries
them, the Relic marker and the Heresy marker. Secret: which relic lies face down where (R36;
every viewer, the game master included in a player's mail, sees only "a face-down relic"), the
retainer deck's order, a pending retainer offer or offer of crossbowmen (the two families only:
its price), whom the Skull is to save (its chooser only).
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from pbem.games.fief.state import FiefState
from pbem.games.fief_england import hired, mercenary_loans, retainers
from pbem.games.fief_england.card_data import england_cards
from pbem.games.fief_england.church import abbeys, clergy, relics


def church_view(original: FiefState, player: str | None) -> dict[str, Any]:
    # The readers below fill in empty parts of the edition's state: on a copy, so that a view
    # never changes the stored state it is built from.
    state = replace(original, edition_state=copy.deepcopy(original.edition_state))
    church = clergy.church_state(state)
    cards = england_cards().retainers
    of = retainers.offers_view(state, player)
    skulls = (state.edition_state.get(relics.KEY) or {}).get("skull_saves") or {}
    # 11.1: crossbowmen lent this round and not yet hired (public), the offers waiting (the two
    # families' secret); absent when there are none
    loans = {"crossbowmen_lent": mercenary_loans.lent_view(state),
             "crossbowmen_offers": mercenary_loans.offers_view(state, player)}
    return {
        **{key: value for key, value in loans.items() if value},
        "clergy": {"archbishops": list(church["archbishops"]),
                   "abbesses": {n: list(a) for n, a in church["abbesses"].items()},
                   "destroyed": dict(church["destroyed"])},
        "abbeys": {city: dict(a) for city, a in (state.edition_state.get(abbeys.KEY) or {}).items()},
        "family_card": dict(state.edition_state.get(hired.CARD) or {}),
        "crossbowmen_on_card": {f: hired.available(state, f) for f in state.players if hired.available(state, f)},
        "retainers": {noble: {"name": cards[rid].name, "spent": retainers.is_spent(state, noble),
                              "ability": retainers.describe(cards[rid]),
                              "effects": [e["effect"] for e in cards[rid].effects]}
                      for noble, rid in sorted(retainers.linked(state).items())},
        "retainer_deck": retainers.deck_size(state),
        "retainer_offers": of,
        "relics": relics.relics_view(state),
        "heresy": state.edition_state.get("heresy"),
        # R80: whom the Skull saves, as the viewer chose (their own secret; the game master: all)
        "skull_choice": (dict(skulls) if player is None else skulls.get(player, [])),
    }
