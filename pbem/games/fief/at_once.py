"""What a Fief player does "at any time", done as soon as the judge reads the mail
(pbem.rules.api.ActsAtOnce; docs/architecture.md "At-once actions"):

    diplomacy:                 # F: gifts, messages, card exchanges (diplomacy/orders.py)
      - give: 2
        to: bob
    at_once:                   # G.4 "at any time" and 5.2.2 "at any time", in the order written
      - play: assassination    # a surprise card, with the keys of its cards-play `play:` order
        on: Charles
        sponsor: Quentin
      - transfer: Tours        # a town's control (surprise/control_transfer.py)
        to: bob

The diplomacy comes first (H.2: playing a diplomacy pawn is primary, then surprise cards).
Surprise cards are not played during the cards draw (G.4: step B), so not while
`round-N/cards-draw` is open; an uprising is not played at once, because "every player may
play some others to cumulate their effects" (G.4.2.1) needs a mail round: it has the
cards-play step and the battle-start trigger.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.surprise.control_transfer import check_transfer, transfer_control
from pbem.games.fief.diplomacy.at_once import act_diplomacy
from pbem.games.fief.diplomacy.orders import check_diplomacy, diplomacy_template
from pbem.orders.reading import Problems, each_order
from pbem.orders.yamlsafe import line_of
from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.orders_common import card_word
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise.play import at_once, play_surprise
from pbem.games.fief.surprise.phase_start import check_play
from pbem.rules.api import Audience, Event, OrderCheck
from pbem.rules.rng import Rng

KEYS = ("diplomacy", "at_once")   # the mail keys done at once (FiefRules.at_once_keys)
VERBS = ("play", "transfer")


def check_at_once(view: dict, player: str, document: Mapping[str, Any]) -> OrderCheck:
    problems = Problems()
    action: dict[str, Any] = {}
    if "diplomacy" in document:
        action["diplomacy"] = check_diplomacy(view, player, document["diplomacy"], problems,
                                              line_of(document, "diplomacy"))
    if "at_once" in document:
        action["at_once"] = _check_items(view, player, document["at_once"], problems, line_of(document, "at_once"))
    return OrderCheck(action, tuple(problems))


def _check_items(view: dict, player: str, items: Any, problems: Problems, key_line: int | None) -> list[dict]:
    if items is None:   # `at_once:` left empty: nothing done, as an empty `orders:` orders nothing
        return []
    if not isinstance(items, list):
        problems.add(getattr(items, "line", None) or key_line,
                     "`at_once:` must be a list, each item starting with `- `",
                     "e.g. `at_once:` then `  - transfer: Tours` and `    to: bob`")
        return []
    out = []
    own = load_edition(view["game"]).hooks.at_once_verbs   # the edition's own (England: `hire:`, ...)
    for item, verb, line in each_order(items, VERBS + tuple(own), problems):
        if verb in own:
            order = own[verb].check(view, player, item, line, problems)
            if order is not None:
                out.append({verb: order})
            continue
        if verb == "transfer":
            order = check_transfer(view, player, item, problems)
            if order is not None:
                out.append({"transfer": order})
            continue
        hooks = load_edition(view["game"]).hooks
        plays = hooks.card_plays   # the edition's own cards (England): every card but its characters
        if plays is not None and card_word(item.get("play")) not in hooks.characters:
            play = plays.check(view, load_board(view["game"], (view.get("options") or {}).get("board", "board")),
                               player, str(card_word(item.get("play"))), item, line, problems,
                               [done["play"] for done in out if "play" in done])
            if play is not None:
                out.append({"play": play})
            continue
        if view["phase"] == "cards":
            if plays is not None and plays.discard_check is not None:   # England 2.0: the Discard action
                problems.add(line, f"no card may be played at once during the Cards phase's draws "
                             f"({load_edition(view['game']).cite('G.4')})",
                             "play it in your cards-draw orders (`- play:` beside `- discard:`), done in your "
                             "Discard action (2.0), or send it once the draws are resolved")
                continue
            problems.add(line, "no surprise card may be played during the cards draw (G.4: step B)",
                         "play it once round-N/cards-play is open, or in your cards-play orders")
            continue
        play = check_play(view, player, item, line, problems)
        if play is not None:
            out.append({"play": play})
    return out


def act(state: FiefState, board: Board, player: str, action: Mapping[str, Any], rng: Rng) -> list[Event]:
    events = act_diplomacy(state, player, action["diplomacy"]) if "diplomacy" in action else []
    verbs = edition_of(state).hooks.at_once_verbs
    own = edition_of(state).hooks.card_plays
    for item in action.get("at_once", []):
        verb = next((v for v in verbs if v in item), None)
        if verb is not None:
            events += verbs[verb].act(state, board, player, item[verb], rng)
        elif own is not None and "play" in item and item["play"]["card"] in own.at_once:   # the edition's own
            events += own.play(state, board, player, item["play"], rng)
        elif "transfer" in item:
            events += transfer_control(state, board, player, item["transfer"])
        elif item["play"]["card"] not in state.families[player].hand:
            # checked against the hand a moment ago, but an earlier item (an exchange) moved it
            events.append(Event("card_not_played", f"You no longer hold the {item['play']['card']} card: "
                                "that order is void.", Audience.only(player),
                                {"player": player, "card": item["play"]["card"]}))
        else:
            events += play_surprise(state, board, player, item["play"])
    return events


def at_once_template(view: dict, player: str) -> str:
    """The commented block ending every Fief order template: diplomacy, then `at_once:` with
    the surprise cards the player holds (G.4) and a transfer of control (5.2.2)."""
    edition = load_edition(view["game"])
    hooks = edition.hooks
    own = hooks.card_plays   # the edition's own cards (England), with their lines
    held = [c for c in dict.fromkeys(view.get("hand") or []) if c in at_once(view["game"]) and c != "uprising"
            and (own is None or c in hooks.characters)]
    keys = {"justice": ["on: LORD"], "assassination": ["on: LORD", "sponsor: YOUR_LORD"],
            "underground": ["free: [CAPTIVE_LORD]"]}   # an edition's character card: `on: LORD` (G.4.1)
    out = []
    for card in dict.fromkeys(view.get("hand") or []):
        if own is not None and card in own.at_once:
            out += list(own.template.get(card, ()))
    for card in held:
        kind = "surprise card" if own is None else "card"   # France's surprise cards (G.4); England's characters
        out.append((f"- play: {card}", f"a {kind} of your hand ({edition.cite('G.4')})"))
        form = hooks.characters[card].form if card in hooks.characters else None
        out += ([(f"  {k}", why) for k, why in form] if form is not None
                else [(f"  {k}", "") for k in keys.get(card, ["on: LORD"])])
    town = edition.words["town"]
    out += [("- transfer: TOWN", f"the control of a {town} you control ({edition.cite('5.2.2')})"),
            ("  to: PLAYER", f"a family with forces in that {town}")]
    for verb in load_edition(view["game"]).hooks.at_once_verbs.values():   # the edition's own, where they apply
        out += list(verb.template) if not verb.phases or view.get("phase") in verb.phases else []
    lines = ["# Done at once too, in the order written:", "# at_once:"]
    lines += [f"#   {code:<27} " + (f"# {why}" if why else "").rstrip() for code, why in out]   # a space before `#`
    lines = [line.rstrip() for line in lines]
    return diplomacy_template(view, player) + "\n".join(lines) + "\n"
