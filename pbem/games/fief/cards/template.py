"""Ready-to-fill order documents for the Cards Phase's two sub-phases, from the player's view
only (their own hand; the others' hand sizes)."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import example_town
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.phase import card_name, playable
from pbem.games.fief.edition import Edition, edition_of_view, load_edition
from pbem.games.fief.orders_common import view_rules_version
from pbem.games.fief.surprise.play import at_once


def _hand(view: dict[str, Any]) -> str:
    return ", ".join(card_name(view["game"], c) for c in view.get("hand") or []) or "no card"


def _characters_line(view: dict[str, Any]) -> str:
    """The edition's character cards (G.4.1) by the keys their `play:` item takes: "D'Arc / Cardinal
    `on: LORD`, " (France); a card that names nothing (England's MERCENARY) "(alone)"."""
    by_keys: dict[str, list[str]] = {}
    for c in load_edition(view["game"]).hooks.characters.values():
        keys = "`on: LORD`" if c.form is None else " ".join(f"`{k}`" for k, _ in c.form) or "(alone)"
        by_keys.setdefault(keys, []).append(c.name)
    return "".join(f"{' / '.join(names)} {keys}, " for keys, names in by_keys.items())


def _character_form(view: dict[str, Any], card: str) -> tuple[tuple[str, str], ...] | None:
    """The lines of an edition's character card's `play:` item (its ``form``), or None: the core's."""
    character = load_edition(view["game"]).hooks.characters.get(card)
    return None if character is None else character.form


def draw_template(view: dict[str, Any], player: str) -> str:
    hand = view.get("hand") or []
    piles = view["piles"]
    edition = edition_of_view(view)
    limit = edition.hand_limit   # 2.2
    cardinal = edition.hooks.cardinals   # France's Cardinal card (an edition without: England)
    lines = [
        f"# Cards Phase (2), steps A and B. Your hand: {_hand(view)} ({len(hand)} of {limit}).",
        f"# Piles: {piles['characters']} character cards, {piles['events']} events cards; "
        f"{view['disasters_track']} disaster card(s) on the track.",
        f"# A ({edition.cite('2.1')}): discard any cards (everyone is told which). B ({edition.cite('2.2')}): draw up "
        "to 2 cards, 1 character",
        f"# card at most, never above {limit} in hand. A disaster drawn from the events pile goes face down to",
        "# the disasters track and you draw again (2.3). `if_first` decides the second draw after seeing",
        f"# the first card: keys are a card ({'Cardinal, ' if cardinal else ''}tax, a lord's name) or a group "
        "(lord, character,",
        "# fortune); values character, events or none. Nothing sent: you discard and draw nothing.",
        _disasters_line(view, edition),
        "orders:",
        "#  - discard: [tax]",
        "#  - draw: [character, events]",
        f"#    if_first: {{{'cardinal' if cardinal else 'fortune'}: none, lord: events}}",
        "",
    ]
    lines[-1:-1] = _discard_plays(view, edition)
    if "uprising" in hand:   # G.2.3, G.4.2.1: an uprising the moment a famine strikes (step C)
        lines[-1:-1] = ["# You hold an uprising card: to raise it if a famine strikes a town's bishopric now (it",
                        "# fires after step C; it replaces your standing surprise triggers: repeat those you keep):",
                        "# policies: {surprise: [{uprising_on_famine: TOWN}]}", ]
    return "\n".join(lines)


def _discard_plays(view: dict[str, Any], edition: Edition) -> list[str]:
    """England 2.0 (l.105): the Opportunity cards of the hand, played in the Discard action."""
    own = edition.hooks.card_plays
    if own is None or own.discard_check is None:
        return []
    out = [f"#  {code:<26}" + (f"# {why}" if why else "") for card in dict.fromkeys(view.get("hand") or [])
           if card in own.template and (card in own.at_once or card not in own.cards)
           for code, why in own.template[card]]
    if not out:
        return []
    return ["# In your Discard action you may play an Opportunity card instead of discarding it "
            f"({edition.cite('2.1')}):"] + [line.rstrip() for line in out]


def _france_cards(characters: str) -> list[str]:
    """France's fortune, tax and surprise cards (G.3, G.4), told in the form of an edition whose
    cards are the core's."""
    return [
        "# Good weather / good harvest (G.3.1, G.3.2) cancel a bad weather / famine or",
        "# lie on a bishopric (one of each kind per bishopric, 2.6.1). Tax (G.3.3): a tallage on a",
        "# fief of yours (or the king's royal tallage on an ungoverned fief), or a tithe (bishop on",
        "# their bishopric, cardinal on a governed one, pope: `tithe: all`).",
        f"# Surprise cards played at once (G.4): {characters}assassination `on: LORD`",
        "# (+ `sponsor: LORD`), justice `on: LORD`, underground `free: LORD`, uprising `in: TOWN`",
        "# (+ `underground: yes` against its Fortress penalty). Held for later under `policies: surprise:`",
        "# (see the orders guide): underground and ambush for a battle; an uprising when a tax is",
        "# collected (`uprising_when_taxed: TOWN`, fires at Income: for a tax played after your turn),",
        "# when a famine strikes, before a lord leaves a town, at a battle start; underground in an",
        "# uprising; any of these cards at a phase start; a town's control transfer.",
    ]


def _disasters_line(view: dict[str, Any], edition: Edition) -> str:
    if (view.get("options") or {}).get("beginners") and view["round"] == 1:
        return ("# After the draws the disasters on the track are ignored this round (the beginners' "
                "option, 2.5): discarded face down, unrevealed.")
    return f"# After the draws the first player rolls for the disasters ({edition.words['disasters_roll']})."


def play_template(view: dict[str, Any], player: str) -> str:
    cards = load_cards(view["game"])
    hand = view.get("hand") or []
    mine = [n for n, l in view["lords"].items() if l["family"] == player]
    characters = _characters_line(view)
    edition = load_edition(view["game"])
    lord_rule = edition.cite("G.1.2")   # where a lord comes into play
    town = edition.words["town"]
    # G.1.2 class 4 (ruling 21): from rules version 2 on, another family's town if it agrees
    placement = (f" (another family's {town} if its `placement` policy agrees)" if view_rules_version(view) >= 2
                 else "")
    own = load_edition(view["game"]).hooks.card_plays   # the edition's own cards (England)
    lines = [
        f"# Cards Phase (2), step D: play cards. Your hand: {_hand(view)}. Your lords: {', '.join(mine)}.",
        "# Played in turn order; yours in the order you write them. Lord cards (G.1, a family has",
        f"# {edition.lords_per_family} lords at most) come into play as {lord_rule} says; `in:` names the {town} you",
        f"# prefer among those {lord_rule} allows{placement}.",
        *(_france_cards(characters) if own is None else [
            "# Your other cards' lines are below, each with what it needs. Played at any time in a",
            f"# mail's `at_once:` list instead: {characters}the Opportunity cards (see the orders guide).",
        ]),
        "# Nothing sent: you play nothing.",
        "orders:",
    ]
    # the sections cited (France's numbering) in the edition's, a parenthesis running over lines too
    lines = load_edition(view["game"]).cite_in("\n".join(lines)).split("\n")
    for card in dict.fromkeys(hand):
        if own is not None and card in own.cards:
            lines += [(f"#  {code:<23} # {why}" if why else f"#  {code}") for code, why in own.template.get(card, ())]
        elif card in cards.lords:
            town = example_town(view["towns"])
            lines += [f"#  - play: {card}", f"#    in: {town:<15}# optional"]
            lines += [f"#    {k.name}: no" for k in load_edition(view["game"]).hooks.lord_card_keys]   # France: G.1.1
        elif card in ("good_weather", "good_harvest"):
            lines += [f"#  - play: {card}", "#    on: 3              # a bishopric number or name"]
        elif card == "tax":
            lines += ["#  - play: tax", "#    tallage: Bretagne   # or tithe: 2, or tithe: all",
                      f"#    lord: {mine[0] if mine else 'NAME'}"]
        elif (form := _character_form(view, card)) is not None:   # an edition's character (England's BISHOP)
            lines += [f"#  - play: {card}", *(f"#    {code:<20} # {why}" for code, why in form)]
        elif card in at_once(view["game"]):   # G.4: surprise cards this judge plays at once (surprise/orders.py)
            lines += [f"#  - play: {card}", {"underground": "#    free: NAME          # the captive lord",
                                                 "uprising": "#    in: TOWN            # famine or tax there"}.get(
                card, "#    on: NAME            # the target lord")]
        elif not playable(cards, card):
            lines.append(f"#  ({card_name(view['game'], card)}: a surprise card, kept in hand)")
    return "\n".join(lines + [""])
