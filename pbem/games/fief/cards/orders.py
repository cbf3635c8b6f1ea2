"""Checking the Cards Phase orders (docs/orders-fief-france-cards.md).

round-N/cards-draw (2.1, 2.2):
    - discard: [tax, Aliénor]            # cards from your hand (announced to everyone)
    - draw: [character, events]          # up to 2 piles, in order; 1 character card at most
      if_first: {lord: events, cardinal: none}   # optional: the second draw after seeing the first

round-N/cards-play (2.6, G.1, G.3):
    - play: Aliénor                      # a lord card; `in: Tours` the wanted town (G.1.2),
      crown_prince: yes                  #   the edition's own keys (France: G.1.1)
    - play: good_weather                 # or good_harvest
      on: 3                              # a bishopric number or name
    - play: tax
      tallage: Bretagne                  # a fief, or `tithe: 2` (a bishopric) or `tithe: all`
      lord: Baudoin                      # the collecting lord (may be left out if only one can)
    - play: D'Arc                        # surprise cards played at once: surprise/orders.py
      on: Mireille

The canonical forms are {"discard": [...], "draw": [...], "if_first": {...}} and
{"play": [{"card": ..., ...}]}.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.board import Board, load_board
from pbem.orders.reading import Problems, as_seq, check_keys, each_order, fold, suggest, verb_of, yes_no
from pbem.games.fief.cards.deck import CardSet, load_cards
from pbem.games.fief.cards.effects import marker_problem
from pbem.games.fief.cards.phase import playable
from pbem.games.fief.edition import edition_of_view, load_edition
from pbem.games.fief.families import PLACES
from pbem.games.fief.surprise.play import at_once
from pbem.games.fief.surprise.orders import check_surprise
from pbem.games.fief.orders_common import card_word, town_name, view_rules_version
from pbem.orders.yamlsafe import line_of

PILES = {"character": "character", "characters": "character", "events": "events", "event": "events"}
GROUPS = ("lord", "character", "fortune")


def card_id(cards: CardSet, text: Any) -> str | None:
    """A card as written (`Aliénor`, `good weather`, `D'Arc`) -> its id, or None."""
    if not isinstance(text, str):
        return None
    lord = cards.find_lord(text)
    if lord:
        return lord
    word = card_word(text)
    kinds = list(cards.other_characters) + list(cards.fortune) + list(cards.disaster)
    return word if word in kinds else None


def all_cards(cards: CardSet) -> list[str]:
    return list(cards.lords) + list(cards.other_characters) + list(cards.fortune)


# -- round-N/cards-draw ----------------------------------------------------------------------

def check_draw_orders(view: dict, player: str, items: list, problems: Problems) -> dict:
    cards = load_cards(view["game"])
    edition = edition_of_view(view)
    hand = Counter(view.get("hand") or [])
    out: dict[str, Any] = {"discard": [], "draw": [], "if_first": {}}
    seen: set[str] = set()
    draw_line = None
    own = edition.hooks.card_plays
    verbs = ("discard", "draw") + (("play",) if own is not None and own.discard_check is not None else ())
    plays: list[tuple[dict, int | None]] = []
    for item, verb, line in each_order(items, verbs, problems):
        if verb == "play":   # England 2.0 (l.105): an Opportunity card played in the Discard action
            assert own is not None and own.discard_check is not None
            board = load_board(view["game"], (view.get("options") or {}).get("board", "board"))
            play = own.discard_check(view, board, player, str(card_word(item.get("play"))), item, line, problems)
            if play is not None:
                plays.append((play, line))
            continue
        if verb in seen:
            problems.add(line, f"only one `{verb}:` order per mail", f"list everything in one `{verb}:` order")
            continue
        seen.add(verb)
        if verb == "discard":
            check_keys(item, ("discard",), "a discard order", problems)
            out["discard"] = _discards(cards, hand, item, line, problems)
        else:
            check_keys(item, ("draw", "if_first"), "a draw order", problems)
            out["draw"], out["if_first"] = _draw(cards, edition.draws, edition.character_draws, item, line,
                                                 problems, edition.cite("2.2"))
            draw_line = line
    if plays:
        out["play"] = _discard_plays(hand, out["discard"], plays, own, problems)
    spent = len(out["discard"]) + sum(len(own.hand_cards(p)) for p in out.get("play", ()) if own is not None)
    places = dict(view.get(PLACES) or {})   # 13.7, R158: the cards the families before draw
    room = edition.hand_limit - (sum(hand.values()) + sum(places.values()) - spent)
    most = max(len(out["draw"]), edition.draws if any(v != "none" for v in out["if_first"].values()) else 0)
    if most > room and not problems:
        problems.add(draw_line, f"you would hold {edition.hand_limit - room} card(s) after discarding"
                     f"{_drawn_before(places)}, so you may "
                     f"draw {max(room, 0)} at most ({edition.cite('2.2')}: {edition.hand_limit} cards in hand), "
                     f"not {most}",
                     "discard more cards or draw fewer")
    return out


def _discard_plays(hand: Counter, discards: list[str], plays: list[tuple[dict, int | None]], own: Any,
                   problems: Problems) -> list[dict]:
    """The plays of the Discard action, in the order written, each with the cards of the hand
    it takes: none taken twice, nor one the same mail discards."""
    left = Counter(hand)
    left.subtract(discards)
    out = []
    for play, line in plays:
        for card in own.hand_cards(play):
            if left[card] <= 0:
                problems.add(line, f"you hold no more {card} card for this play: the mail discards it or plays it "
                             "already", "play it or discard it, not both")
            left[card] -= 1
        out.append(play)
    return out


def _discards(cards: CardSet, hand: Counter, item: dict, line, problems: Problems) -> list[str]:
    left = Counter(hand)
    out = []
    for text in as_seq(item.get("discard"), line_of(item, "discard"), "discard", problems):
        card = card_id(cards, text)
        if card is None or left[card] <= 0:
            problems.add(line_of(item, "discard"), f"you hold no {text!r} card to discard",
                         "your hand: " + (", ".join(sorted(hand.elements())) or "empty"))
            continue
        left[card] -= 1
        out.append(card)
    return out


def _draw(cards: CardSet, draws: int, characters: int, item: dict, line,
          problems: Problems, section: str) -> tuple[list[str], dict[str, str]]:
    """2.2: ``draws`` cards at most, ``characters`` of them character cards (`cards.character_draws`,
    France 2.2 and England 2.0: 1)."""
    piles = []
    for text in as_seq(item.get("draw"), line_of(item, "draw"), "draw", problems):
        pile = PILES.get(fold(str(text)))
        if pile is None:
            problems.add(line_of(item, "draw"), f"there is no {text!r} pile", "write character or events")
            continue
        piles.append(pile)
    if len(piles) > draws:
        problems.add(line_of(item, "draw"), f"you may draw {draws} cards at most ({section}), not {len(piles)}")
    if piles.count("character") > characters:
        plural = "s" if characters != 1 else ""
        problems.add(line_of(item, "draw"), f"you may draw {characters} character card{plural} at most ({section})",
                     "write e.g. `draw: [character, events]`")
    if_first: dict[str, str] = {}
    given = item.get("if_first")
    if given is not None:
        if not isinstance(given, dict):
            problems.add(line_of(item, "if_first"), "`if_first:` must map a card to the second pile",
                         "write e.g. `if_first: {lord: events, cardinal: none}`")
        elif not piles:
            problems.add(line_of(item, "if_first"), "`if_first:` needs a first draw", "write `draw: character` first")
        else:
            for key, value in given.items():
                name = key if fold(str(key)) in GROUPS else card_id(cards, key)
                pile = "none" if fold(str(value)) == "none" else PILES.get(fold(str(value)))
                if name is None:
                    problems.add(line_of(given, key), f"{key!r} is not a card nor a group",
                                 suggest(key, list(GROUPS) + all_cards(cards)))
                elif pile is None:
                    problems.add(line_of(given, key), f"{value!r} is not a pile", "write character, events or none")
                elif pile == "character" and piles[0] == "character":
                    problems.add(line_of(given, key), "your first card comes from the characters pile: "
                                 "the second cannot (2.2: 1 character card at most)", "write events or none")
                else:
                    if_first[fold(name) if fold(str(key)) in GROUPS else name] = pile
    return piles[:draws], if_first


def hand_after_draw(view: dict, canonical: dict) -> list[str | None]:
    """The hand once the Discard action of these cards-draw orders is done (its discards, and its
    plays: England 2.0, R147), with a place (None) for each card they draw: at two players the next
    family's check reads it (13.7, l.848: "without exceeding a 5 Card Hand limit"; R158)."""
    own = edition_of_view(view).hooks.card_plays
    taken = list(canonical.get("discard") or [])
    taken += [c for p in canonical.get("play") or [] for c in (own.hand_cards(p) if own else [p["card"]])]
    left: list[str | None] = list(_hand_without(view, taken))
    return left + [None] * len(canonical.get("draw") or [])


def _drawn_before(places: dict) -> str:
    """R158: ", N of them drawn by FAMILY" for the places the families before took with their draws."""
    return "".join(f", {n} of them drawn by {family} (13.7: one hand)" for family, n in places.items() if n)


def hand_after_play(view: dict, canonical: dict) -> list[str | None]:
    """The hand once these cards-play orders are played (13.7, R158: the next family's)."""
    own = load_edition(view["game"]).hooks.card_plays
    taken: list[str] = []
    for play in canonical.get("play") or []:
        if own is not None and play["card"] in own.cards:   # the edition's own (a REBELLION may take several)
            taken += own.hand_cards(play)
        else:   # G.4.2.2: an uprising with `underground: yes` takes an underground card too
            taken += [play["card"]] + (["underground"] if play.get("underground") else [])
    left: list[str | None] = list(_hand_without(view, taken))
    return left


def _hand_without(view: dict, taken: list[str]) -> list[str]:
    left = list(view.get("hand") or [])
    for card in taken:
        if card in left:
            left.remove(card)
    return left


# -- round-N/cards-play ----------------------------------------------------------------------

def check_play_orders(view: dict, board: Board, player: str, items: list, problems: Problems) -> dict:
    cards = load_cards(view["game"])
    left = Counter(view.get("hand") or [])
    plays: list[dict] = []
    for i, item in enumerate(items):
        line = line_of(items, i)
        if verb_of(item, ("play",), line, problems) is None:
            continue
        card = card_id(cards, item.get("play"))
        own = load_edition(view["game"]).hooks.card_plays
        if own is not None and card in own.cards:   # the edition's own (England: 2.7-2.8, 10.0)
            play = own.check(view, board, player, card, item, line, problems, plays)
            if play is not None and view_rules_version(view) >= 3:   # R158: no card of the hand twice
                need = Counter(own.hand_cards(play))
                short = [c for c in need if need[c] > left[c]]
                if short:
                    problems.add(line_of(item, "play") or line, f"you hold no more {short[0]} card for this play: "
                                 "the mail plays it already", "play each card of your hand once")
                    continue
                left.subtract(need)
            elif view_rules_version(view) < 3:   # a game of version 2: as before
                left[card] -= 1
            if play is not None:
                plays.append(play)
            continue
        if card is None or left[card] <= 0:
            problems.add(line_of(item, "play"), f"you hold no {item.get('play')!r} card to play",
                         "your hand: " + (", ".join(sorted(left.elements())) or "empty"))
            continue
        if card in at_once(view["game"]):   # G.4: a surprise card played at once (surprise/orders.py)
            left[card] -= 1
            play = check_surprise(view, board, player, card, item, line, problems)
            if play is not None and play.get("underground"):   # G.4.2.2: a second card, held too
                if left["underground"] <= 0:
                    problems.add(line_of(item, "underground"), "you hold no underground card for "
                                 "`underground: yes`", "your hand: " + (", ".join(sorted(left.elements())) or "empty"))
                    continue
                left["underground"] -= 1
            if play is not None:
                plays.append(play)
            continue
        if not playable(cards, card):
            problems.add(line_of(item, "play"), f"{card} is a surprise card (G.4): it is not played in this step",
                         "the ambush card is played in a battle, with a standing `ambush:` trigger under "
                         "`policies: surprise:` (G.4.2.5)" if card == "ambush" else "keep it in hand")
            continue
        left[card] -= 1
        play = _play(view, board, cards, player, card, item, line, problems)
        if play is not None and play.get("tax") == "tithe" and view_rules_version(view) >= 2 \
                and load_edition(view["game"]).hooks.cardinals:
            why = _marker_in_use(view, player, play, plays)   # G.3.3.2, ruling 34: a cardinal's marker
            if why:
                problems.add(line_of(item, "tithe"), why, "a cardinal's other tithes go on bishoprics your "
                             "family's bishops hold, or name another cardinal with `lord:`")
                continue
        if play is not None:
            plays.append(play)
    return {"play": plays}


def _marker_in_use(view: dict, player: str, play: dict, earlier: list[dict]) -> str | None:
    """G.3.3.2: the collecting cardinal's tithe marker is not on the board already, nor taken by
    an earlier tithe of this mail."""
    lords = view["lords"]
    bishops = {n: (lords[b["bishop"]]["family"] if b.get("bishop") in lords else None)
               for n, b in view["bishoprics"].items()}
    effects = [(e["card"], e["target"], e.get("player"), e.get("lord")) for e in view.get("board_effects") or []]
    effects += [("tithe", p["target"], player, p["lord"]) for p in earlier if p.get("tax") == "tithe"]
    return marker_problem(play["lord"], play["target"], player, bishops, effects)


def _play(view: dict, board: Board, cards: CardSet, player: str, card: str, item: dict, line,
          problems: Problems) -> dict | None:
    if card in cards.lords:
        keys = tuple(k.name for k in load_edition(view["game"]).hooks.lord_card_keys)   # France: G.1.1
        check_keys(item, ("play", "in") + keys, "a lord card", problems)
        town = town_name(board, item["in"], line_of(item, "in"), problems) if "in" in item else None
        # France G.1.1: the rulebook's "may" - `crown_prince: yes` asks for it.
        return {"card": card, "town": town, **{k: bool(yes_no(item, k, problems)) for k in keys}}
    if card in ("good_weather", "good_harvest"):
        check_keys(item, ("play", "on"), f"a {card} card", problems)
        number = _bishopric(view, item.get("on"), line_of(item, "on") or line, problems)
        return None if number is None else {"card": card, "bishopric": number}
    check_keys(item, ("play", "tallage", "tithe", "lord"), "a tax card", problems)
    kinds = [k for k in ("tallage", "tithe") if k in item]
    if len(kinds) != 1:
        problems.add(line, "a tax card needs `tallage: FIEF` or `tithe: BISHOPRIC` (or `tithe: all`)",
                     "write e.g. `tallage: Bretagne`")
        return None
    kind = kinds[0]
    if kind == "tallage":
        target = board.find_fief(str(item["tallage"]))
        if target is None:
            problems.add(line_of(item, "tallage"), f"there is no fief called {item['tallage']!r}",
                         suggest(str(item["tallage"]), [f.name for f in board.fiefs.values()]))
            return None
    elif fold(str(item["tithe"])) == "all":
        target = "all"
    else:
        number = _bishopric(view, item["tithe"], line_of(item, "tithe"), problems)
        if number is None:
            return None
        target = str(number)
    lord = _tax_lord(view, player, kind, target, item, problems, line)
    return None if lord is None else {"card": "tax", "tax": kind, "target": target, "lord": lord}


def _bishopric(view: dict, text: Any, line, problems: Problems) -> int | None:
    for number, info in view["bishoprics"].items():
        if fold(str(text)) in (number, fold(info["name"])):
            return int(number)
    problems.add(line, f"there is no bishopric {text!r}", "write its number (1-5) or its name")
    return None


def _tax_lord(view: dict, player: str, kind: str, target: str, item: dict, problems: Problems, line) -> str | None:
    """The collecting lord: named, or the only one of the family who may collect there."""
    mine = {n: l for n, l in view["lords"].items() if l["family"] == player}
    if "lord" in item:
        name = next((n for n in mine if fold(n) == fold(str(item["lord"]))), None)
        if name is None:
            problems.add(line_of(item, "lord"), f"{item['lord']!r} is not a lord of your family",
                         suggest(str(item["lord"]), mine))
        elif not _may_collect(view, mine[name], kind, target):
            problems.add(line_of(item, "lord"), f"{name} may not collect this tax (G.3.3)",
                         "a tallage needs the fief's title holder or the king on an ungoverned fief; a tithe "
                         "the bishopric's bishop, a cardinal (governed bishopric) or the pope (`tithe: all`)")
            return None
        return name
    able = [n for n, l in mine.items() if _may_collect(view, l, kind, target)]
    if len(able) == 1:
        return able[0]
    problems.add(line, "no lord of your family may collect this tax (G.3.3)" if not able else
                 f"say which lord collects it: {', '.join(able)}",
                 "add `lord: NAME`" if able else "a tallage needs the fief's title holder or the king; a tithe "
                 "the bishop, a cardinal or the pope")
    return None


def _may_collect(view: dict, lord: dict, kind: str, target: str) -> bool:
    if kind == "tallage":
        fief = view["fiefs"][target]
        return target in lord["fief_titles"] or (lord["political"] == "king" and not fief["governed"])
    if target == "all":
        return bool(lord["pope"])
    return lord["bishopric"] == int(target) or (bool(lord["cardinal"])
                                                and view["bishoprics"][target]["bishop"] is not None)
