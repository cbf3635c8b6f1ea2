"""England's step C of the Cards phase (E 2.4-2.5), the edition's ``disasters`` hook: the disaster
track's cards are revealed left to right and the first player's d6 names the Region (I-VI) each
strikes, land and sea (every roll strikes, R43); a Region already struck by a disaster of the same
type discards the second. Round 1's cards are placed but take no effect: they wait on their sea
and act with round 2's (2.4 "No Disasters on Round 1", R12).

What a disaster does once in effect:

- PLAGUE (2.5), at once: in each City of the Region every family's troops lose half, rounded
  down (knights, men-at-arms, archers; bombards and trebuchets are spared), the owner's
  `plague_losses` policy choosing; each noble there rolls the d6 and dies on 1-3. The core's
  plague (movement/disasters.py ``strike``) does both.
- STORMS, FAMINE, INVADERS: the card lies on the Region (a ``BoardEffect`` whose target is the
  Region's fief id) until the End of Round; what they do (no movement or battle there; no mill
  income; the Invaders' landing, 6.2) is not in the rules yet (docs/fief-england.md, "Playing it").
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import CardSet
from pbem.games.fief.edition import load_edition
from pbem.games.fief.movement.disasters import strike
from pbem.games.fief.movement.events import Teller
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.rules.api import Event
from pbem.rules.rng import Rng

NAMES = {"plague": "PLAGUE", "storms": "STORMS", "famine": "FAMINE", "invaders": "INVADERS"}
SPARED = ("bombard", "trebuchet")   # 2.5: "Bombards and Trebuchets are not affected by the Plague"


def region_text(board: EnglandBoard, fief: str) -> str:
    return f"{board.fiefs[fief].name.split(' of ', 1)[-1]} ({board.region_number(fief)})"


def resolve_disasters(state: FiefState, board: Board, cards: CardSet, rng: Rng) -> list[Event]:
    england = EnglandBoard.of(board)
    first = state.players[state.first_player]
    own = state.edition_state.setdefault("disasters", {})
    track, state.disasters_track = list(state.disasters_track), []
    events: list[Event] = []
    placed: list[dict] = []
    for card in track:   # 2.4: left to right, the first player's d6 names the Region's sea
        roll = rng.d6(f"disaster {NAMES.get(card, card)}: Region (2.4)")
        fief = england.regions[list(england.regions)[roll - 1]]
        placed.append({"card": card, "fief": fief})
        events.append(Event("disaster_placed", f"A {NAMES.get(card, card)} card is revealed; {first} rolls {roll}: "
                            f"it is placed on the sea of {region_text(england, fief)} (2.4).",
                            data={"card": card, "roll": roll, "fief": fief}))
    quiet = load_edition(state.variant).extra["no_disasters_in_round"]
    if state.round in quiet:   # 2.4: "On Round 1 of the game, no Disasters take effect"
        own["waiting"] = own.get("waiting", []) + placed
        if placed:
            events.append(Event("disasters_wait", f"Round {state.round}: no disaster takes effect; the cards wait "
                                f"on their seas and act in round {state.round + 1} (2.4).",
                                data={"cards": [p["card"] for p in placed]}))
        return events
    for entry in own.pop("waiting", []) + placed:
        events += _take_effect(state, england, rng, entry["card"], entry["fief"])
    return events


def _take_effect(state: FiefState, board: EnglandBoard, rng: Rng, card: str, fief: str) -> list[Event]:
    name, where = NAMES.get(card, card), region_text(board, fief)
    if any(e.card == card and e.target == fief for e in state.board_effects):
        state.events_discard.append(card)   # 2.4: "the second same Disaster is discarded"
        return [Event("disaster_duplicate", f"{where} already suffers a {name}: the second is discarded (2.4).",
                      data={"card": card, "fief": fief})]
    state.board_effects.append(BoardEffect(card, fief))
    events = [Event("disaster", f"The {name} strikes {where}, land and sea, until the end of the round (2.4).",
                    data={"card": card, "fief": fief})]
    if card == "plague":
        events += _plague(state, board, rng, fief)
    return events


def _plague(state: FiefState, board: EnglandBoard, rng: Rng, fief: str) -> list[Event]:
    """2.5: in each City, half of each family's troops (rounded down) and a d6 per noble (1-3 dies)."""
    teller = Teller(state)
    where = region_text(board, fief)
    for town in board.fiefs[fief].towns:
        for family in state.turn_order():
            lords = [l.name for l in state.lords.values() if l.location == town and l.family == family]
            pawns = [p.id for p in state.pawns.values()
                     if p.location == town and p.family == family and p.kind not in SPARED]
            if lords or pawns:
                for event in strike(state, board, rng, f"{town}, {where}", lords, pawns, family)[2]:
                    if event.kind == "plague_troop":
                        n = len(event.data["lost"])
                        teller.public(event.kind, family, event.text,
                                      f"Plague in {town}: {family}'s troop loses {n} unit pawn{'s' if n != 1 else ''} "
                                      "(2.5).", dict(event.data), {"family": family, "lost": {"hidden": n}})
                    else:
                        teller.add([event])
    return teller.events
