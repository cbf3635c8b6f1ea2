"""Surprise cards (G.4) played "at once", in the cards-play sub-phase (DESIGN.md "Surprise
cards have trigger points": `at once` is the first trigger of the documented list).

Every played surprise card is discarded, even when its effect can no longer be resolved
(H.2), except a character card of the edition (its `characters` hook; France: D'Arc and
cardinal) that took effect: it lies on the frieze (``FiefState.frieze``) until its lord leaves
play (G.4.1), and one the edition refuses (France: a cardinal card the pope refused, "the
player cannot play the card", D.2.3), so it stays in hand.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.hooks import Hooks
from pbem.games.fief.policies import permits
from pbem.games.fief.state import FiefState
from pbem.games.fief.hear_ye.titles import come_into_play
from pbem.rules.api import Event

# The core's surprise cards this judge plays at once, and their printed names; an edition's
# character cards (G.4.1, its `characters` hook) come first (``at_once``).
AT_ONCE = {"assassination": "assassination",
           # uprising: surprise/uprising.py
           "justice": "justice", "underground": "underground", "uprising": "uprising"}
CARDINAL_POLICY = "new_cardinal"   # the pope's standing answer (D.2.3), default refuse
ASSASSIN_MARKERS = 2   # B: "Assassin: 2 markers"


def at_once(game: str) -> dict[str, str]:
    """The surprise cards of ``game`` played at once (G.4) and their printed names: the edition's
    characters (France: D'Arc, Cardinal, G.4.1), then the core's."""
    characters = load_edition(game).hooks.characters
    return {**{card: c.name for card, c in characters.items()}, **AT_ONCE}


def justice_problem(lord: Mapping[str, Any], version: int, hooks: Hooks) -> str | None:
    """G.4.2.4: a lord with an assassin marker, not one whose titles make him immune (the
    edition's `justice_immune` hook; France: the king, queen, crown prince or pope); from rules
    version 2 not a captive (6.3, ruling 35). ``version``: the game's rules version."""
    if not lord["assassin"]:
        return "the justice card targets a lord with an assassin marker only (G.4.2.4)"
    immune = hooks.justice_immune(lord) if hooks.justice_immune else None
    if immune:
        return immune
    if version >= 2 and lord["captive_of"]:
        return (f"a captive lord (of {lord['captive_of']}) cannot be eliminated, except with an assassination "
                "card or in an uprising (6.3)")
    return None


def assassin_marker_problem(lords: Iterable[Mapping[str, Any]], target: str, sponsor: Mapping[str, Any]) -> str | None:
    """B: there are 2 assassin markers. The sponsor of an assassination takes one (G.4.2.3) after
    the target is eliminated (a marker on the target comes back first); a sponsor who bears one
    already needs no other. With none left the card cannot be played (ruling 38)."""
    if sponsor["assassin"]:
        return None
    marked = sorted(lo["name"] for lo in lords if lo["assassin"] and lo["name"] != target)
    if len(marked) < ASSASSIN_MARKERS:
        return None
    return (f"no assassin marker is left for the sponsor: the {ASSASSIN_MARKERS} markers (B) lie on "
            f"{' and '.join(marked)} (G.4.2.3)")


def play_surprise(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event]:
    card = play["card"]
    hand = state.families[player].hand
    character = edition_of(state).hooks.characters.get(card)   # G.4.1: the edition's
    refused = character.refused(state, player, play) if character else None
    if refused is not None:   # France D.2.3: the card cannot be played; it stays in hand
        return [refused]
    if character and character.places_card:   # the edition's effect puts the card where it lies
        placed = character.effect(state, board, player, play)
        if isinstance(placed, str):
            return [Event("card_not_played", f"{player} cannot play the {character.name} card: {placed}; the card "
                          "stays in hand.", data={"player": player, "card": card})]
        hand.remove(card)
        return placed   # its events say what was played, on whom
    hand.remove(card)
    name = character.name if character else AT_ONCE[card]
    events = [Event("surprise_played", f"{player} plays the {name} card (G.4).", data={"player": player, "card": card})]
    effect = character.effect if character else {"assassination": _assassination, "justice": _justice,
                                                 "underground": _underground}[card]
    done = effect(state, board, player, play)
    if isinstance(done, str):   # H.2: the card is discarded even if its effect fails
        events.append(Event("surprise_void", f"The {name} card has no effect: {done} (H.2).",
                            data={"player": player, "card": card}))
        done = []
    if character and done:      # G.4.1: on the frieze until its lord leaves play
        state.frieze[play["on"]] = card
    else:
        state.character_discard.append(card) if character else state.events_discard.append(card)
    return events + done


def _target(state: FiefState, play: Mapping[str, Any]):
    return state.lords.get(play["on"])


def eligible(state: FiefState, play: Mapping[str, Any], problem: Callable[[Mapping[str, Any]], str | None]):
    """The target lord, checked again when the card takes effect by the send-time rule
    (a character's ``problem``, justice_problem: they read the lord's fields by name); else why not."""
    lord = _target(state, play)
    if lord is None:
        return f"{play['on']} is no longer in play"
    why = problem(vars(lord))
    return f"{lord.name}: {why}" if why else lord


def pope_refuses(state: FiefState, player: str) -> str | None:
    pope = next((l for l in state.lords.values() if l.pope), None)
    if pope is None or pope.family == player:
        return None
    if permits(state.families[pope.family].policies, CARDINAL_POLICY, player):
        return None
    return f"the pope {pope.name} ({pope.family}) does not authorise a new cardinal"


def _assassination(state: FiefState, board: Board, player: str, play) -> list[Event] | str:
    lord, sponsor = _target(state, play), state.lords.get(play["sponsor"])
    if lord is None or lord.family == player:
        return f"{play['on']} is no longer another family's lord in play"
    if sponsor is None or sponsor.family != player:
        return f"{play['sponsor']} is no longer a lord of {player} in play"
    if state.rules_version >= 2:
        why = assassin_marker_problem(map(vars, state.lords.values()), lord.name, vars(sponsor))
        if why:
            return why
    events = [Event("assassination", f"{player} has {lord.name} ({lord.family}) assassinated (G.4.2.3).",
                    data={"player": player, "lord": lord.name})]
    events += eliminate_lord(state, board, lord.name)
    sponsor.assassin = True
    return events + [Event("assassin_marker", f"{sponsor.name} ({player}) is the sponsor and gets the assassin "
                           "marker: the justice card may now target them (G.4.2.3).", data={"lord": sponsor.name})]


def _justice(state: FiefState, board: Board, player: str, play) -> list[Event] | str:
    lord = eligible(state, play, lambda lo: justice_problem(lo, state.rules_version, edition_of(state).hooks))
    if isinstance(lord, str):
        return lord
    return [Event("justice", f"{player} plays justice on {lord.name} ({lord.family}) (G.4.2.4).",
                  data={"player": player, "lord": lord.name})] + eliminate_lord(state, board, lord.name)


def _underground(state: FiefState, board: Board, player: str, play) -> list[Event] | str:
    first = state.lords.get(play["free"][0])
    if first is None or not first.captive_of:
        return f"{play['free'][0]} is no longer a captive"
    jailer, town = first.captive_of, first.location
    events: list[Event] = []
    for name in play["free"]:
        lord = state.lords.get(name)
        if lord is None or lord.captive_of != jailer or lord.location != town:
            events.append(Event("escape_void", f"{name} is no longer a captive of {jailer} in {town}.",
                                data={"lord": name}))
            continue
        events.append(Event("escape", f"{name} ({lord.family}) escapes from {jailer} in {town} (G.4.2.2).",
                            data={"lord": name, "jailer": jailer, "town": town}))
        events += come_into_play(state, board, name, play.get("town"))   # G.1.2
    return events
