"""The `at_phase_start` trigger (G.4 "at any time", DESIGN.md "Surprise cards have trigger
points"): a standing order under `policies: surprise:` that plays an at-once surprise card, or
transfers the control of a town (5.2.2), when a phase starts.

    policies:
      surprise:
        - at_phase_start: movement   # a phase name (trigger_phases: the core's, the edition's own)
          round: 3                   # optional: only in that round (default: the first time)
          play: assassination        # the same keys as a `play:` order of round-N/cards-play:
          on: Charles                #   darc/cardinal/justice `on:`, assassination `on:` and
          sponsor: Quentin           #   `sponsor:`, underground `free:` (`also:`, `in:`)
        - at_phase_start: hear_ye_votes
          transfer: Tours            # or the control of a town you control (surprise/control_transfer.py)
          to: bob

A phase starts when the phase before it has been resolved: the trigger fires at the end of that
resolution, so its effect is in the report that opens the phase and everyone orders knowing it
(Rulings). Triggers fire in turn order (H.3), each only if its card is still in hand (else it
waits); the effect is checked again when it fires and a card whose target is gone is
discarded anyway (H.2, surprise.play_surprise). Never at the start of the cards draw (G.4: no
surprise card during step B); uprisings have their own triggers (cards-play, battle start).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.edition import edition_of, load_edition
from pbem.orders.reading import Problems, fold, suggest, whole_number
from pbem.games.fief.state import FiefState
from pbem.games.fief.orders_common import card_word
from pbem.games.fief.surprise.control_transfer import check_transfer, transfer_control   # 5.2.2
from pbem.games.fief.surprise.orders import check_surprise
from pbem.games.fief.surprise.play import at_once, play_surprise
from pbem.games.fief.surprise.standing import lacks_card, spend_trigger, triggers_of
from pbem.orders.yamlsafe import YMap, line_of, sub_map
from pbem.rules.api import Event
from pbem.rules.rng import Rng

KIND = "at_phase_start"
# The ROUND steps of round.py a trigger may wait for; not "cards" (its draw, G.4) nor setup.
PHASES = ("hear_ye", "hear_ye_votes", "cards_play", "income", "purchase", "movement", "battle", "end_of_round")
OWN_KEYS = (KIND, "round")


def trigger_phases(game: str) -> tuple[str, ...]:
    """The phases of ``game`` a trigger may wait for: the core's of its round (PHASES; the second
    Hear Ye mail with the first), then the edition's own (its `phases` hook, in its round:
    England's Invaders phase)."""
    edition = load_edition(game)
    core = tuple(p for p in PHASES if p in edition.round or (p == "hear_ye_votes" and "hear_ye" in edition.round))
    own = {s.name for s in edition.hooks.phases}
    return core + tuple(p for p in edition.round if p in own)


def check_phase_start(view: dict, player: str, item: dict, where: int | None, problems: Problems) -> dict | None:
    phase = fold(str(item[KIND])).replace("-", "_").replace(" ", "_")
    if phase in ("cards", "cards_draw"):
        problems.add(where, "no surprise card may be played during the cards draw (G.4)",
                     "write `at_phase_start: cards_play` (after the draw) or another phase")
        return None
    phases = trigger_phases(view["game"])
    if phase not in phases:
        problems.add(where, f"{item[KIND]!r} is not a phase a trigger may wait for",
                     suggest(phase, phases))
        return None
    rnd = None
    if "round" in item:
        rnd = whole_number(item["round"], line_of(item, "round") or where, "round", problems)
        if rnd is None:
            return None
        if rnd < view["round"]:
            problems.add(line_of(item, "round") or where, f"round {rnd} is over (this is round {view['round']})",
                         "leave `round:` out, or name this round or a later one")
            return None
    rest = sub_map(item, lambda k: k not in OWN_KEYS)
    rest.line = rest.line or where or 0
    trigger: dict[str, Any] = {"trigger": KIND, "phase": phase, "round": rnd}
    if ("play" in rest) == ("transfer" in rest):
        problems.add(where, "an `at_phase_start` trigger carries one `play:` (a surprise card) or one "
                     "`transfer:` (a town's control)", "add e.g. `play: assassination` with `on: Charles`")
        return None
    if "transfer" in rest:
        order = check_transfer(view, player, rest, problems)
        return None if order is None else {**trigger, "transfer": order}
    hook = load_edition(view["game"]).hooks.standing_triggers
    offered = hook(view) if hook is not None else None
    if offered is not None and offered.own_plays:   # the edition's own cards (England R157)
        own = check_own_play(view, player, phase, rest, where, problems)
        return None if own is None else {**trigger, "play": own, "own": True}
    play = check_play(view, player, rest, where, problems)
    return None if play is None else {**trigger, "play": play}


def check_own_play(view: dict, player: str, phase: str, item: YMap, where: int | None,
                   problems: Problems) -> dict | None:
    """A `play:` of the edition's own at-once cards (its card_plays hook: England's Opportunity
    cards, 10.0-10.5, with the keys of their at-once form) or of its character cards, held for
    the start of ``phase``; checked as if played then (never during the draws, refused above)."""
    edition = load_edition(view["game"])
    plays, card = edition.hooks.card_plays, card_word(item["play"])
    board = load_board(view["game"], (view.get("options") or {}).get("board", "board"))
    if card in edition.hooks.characters:   # read by the card itself, played by the core (play_surprise)
        return check_play(view, player, item, where, problems)
    if plays is None or card not in plays.at_once:
        problems.add(line_of(item, "play") or where, f"{item['play']!r} is not an Opportunity card played at "
                     f"once ({edition.cite('G.4')})", "the cards: " + ", ".join(plays.at_once if plays else ()))
        return None
    return plays.check({**view, "phase": phase}, board, player, str(card), item, line_of(item, "play") or where,
                       problems, [])


def check_play(view: dict, player: str, item: YMap, where: int | None, problems: Problems) -> dict | None:
    """A surprise card played at once (here, or in a mail's `at_once:`, at_once.py): the card and
    its keys, checked by the cards-play checker itself (surprise/orders.py)."""
    card = card_word(item["play"])
    line = line_of(item, "play") or where
    if card == "uprising":
        problems.add(line, "an uprising is played at once in round-N/cards-play, or with a standing "
                     "uprising trigger", "write e.g. `- uprising_when_taxed: TOWN` (also `uprising_on_famine:`, "
                     "`uprising_before_move:`, `uprising_at_battle_start:`) under `policies: surprise:`")
        return None
    names = at_once(view["game"])
    if card not in names:
        problems.add(line, f"{item['play']!r} is not a surprise card played at once",
                     "the cards: " + ", ".join(n for c, n in names.items() if c != "uprising"))
        return None
    if lacks_card(view, card, line, problems, f"you hold no {names[card]} card"):
        return None
    board = load_board(view["game"], (view.get("options") or {}).get("board", "board"))
    return check_surprise(view, board, player, card, item, where, problems)


def fire_phase_start(state: FiefState, board: Board, rng: Rng) -> list[Event]:
    """The phase ``state.phase`` starts: its `at_phase_start` triggers fire, in turn order (H.3);
    ``rng``: the resolution's dice (an edition's own card may roll them, England's REBELLION)."""
    if state.phase not in trigger_phases(state.variant):
        return []
    events: list[Event] = []
    for player in state.turn_order():
        if state.families[player].eliminated:
            continue
        for trigger in triggers_of(state, player, KIND):
            if trigger["phase"] != state.phase or trigger.get("round") not in (None, state.round):
                continue
            if "transfer" in trigger:
                order = trigger["transfer"]
                events.append(spend_trigger(state, player, trigger, None,
                                            f"transfer of {order['town']} to {order['to']}"))
                events += transfer_control(state, board, player, order)
                continue
            play = trigger["play"]
            own = edition_of(state).hooks.card_plays if trigger.get("own") else None
            if own is not None and play["card"] in own.at_once:   # the edition's own card (England R157)
                if (Counter(own.hand_cards(play)) - Counter(state.families[player].hand)):
                    continue   # it waits until you hold the cards again
                events.append(spend_trigger(state, player, trigger, None, f"the {play['card']} card"))
                events += own.play(state, board, player, play, rng)   # its rules take the card (10.0)
                continue
            if play["card"] not in state.families[player].hand:
                continue   # it waits until you hold the card again, or a new list replaces it
            name = at_once(state.variant)[play["card"]]
            events.append(spend_trigger(state, player, trigger, None, f"the {name} card"))
            events += play_surprise(state, board, player, play)   # takes and discards the card (H.2)
    return events


def describe(trigger: dict) -> str:
    when = f"at the start of {trigger['phase']}" + (f" in round {trigger['round']}" if trigger.get("round") else "")
    if "transfer" in trigger:
        return f"surprise: transfer {trigger['transfer']['town']} to {trigger['transfer']['to']} {when}"
    play = trigger["play"]
    if trigger.get("own"):   # the edition's own card: its keys as checked (England R157)
        keys = ", ".join(f"{k} {v}" for k, v in play.items() if k != "card" and v not in (None, False, [], ""))
        return f"surprise: {play['card']}" + (f" ({keys})" if keys else "") + f" {when}"
    target = f"on {play['on']}" if play.get("on") else "freeing " + ", ".join(play.get("free") or [])
    return f"surprise: {play['card']} {target} {when}"
