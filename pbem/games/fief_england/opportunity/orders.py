"""England's Opportunity cards by mail (E 2.6, 10.0-10.5, 11.2; R41): at-once orders, read as
the judge reads the mail and carried out at once (docs/orders-fief-england.md, "Opportunity
cards"). Each item of the mail's `at_once:` list:

    - play: rebellion
      in: Norwich               # a city taxed, Royal-Taxed or under FAMINE, not under your TAX
      cards: 1                  #   optional: REBELLION cards from your hand (default 1; 0 with burgher)
      burgher: yes              #   optional: your BURGHER's Rebellion action (a Treasure, 11.3)
      passage: card             #   optional: ignore the Stronghold/Fortified City (card | burgher)
      invaders_first: yes       #   optional: the Invaders in the city take the hits first (6.13, R122)
    - play: passage
      free: Estrid              # a captive of any family escapes (10.2)
      to: Lincoln               #   optional: where (else the nearest city of their family)
      by: burgher               #   optional: your BURGHER's Passage action instead of a card
    - play: assassination
      on: Henri                 # another family's noble
      sponsor: Hugh             # your noble who takes the Heresy marker (R31)
    - play: assassination
      leader: 2                 # or the Leader of an Invader army (its number), no sponsor (6.12)
    - play: justice
      on: Hugh                  # the Heresy marker's bearer, not the Royal Family, not in an Abbey
    - play: ambush
      on: Edward                # a noble in the same city as...
      by: William               # ...your free noble (not inside their fortress)
    - play: ambush
      leader: 2                 # or the Leader of an Invader army in your noble's city (6.11)
      by: William
    - play: good_weather
      on: VI                    # a Region (numeral, number or name) without FAMINE (2.7)

No Opportunity card is played during the Cards phase's draws (2.6: "except during the Draw
Cards action"). Each play is checked again when carried out (``act``).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise.play import play_surprise
from pbem.games.fief_england import fortune
from pbem.games.fief_england.characters import CHARACTERS
from pbem.games.fief_england.opportunity import cards
from pbem.games.fief.hooks import CardPlays
from pbem.games.fief_england.regions import NUMERALS, region_fief
from pbem.orders.reading import Problems, check_keys, fold, suggest, whole_number, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event
from pbem.rules.rng import Rng

KEYS = {"bountiful_harvest": ("play", "on"),
        "tax": ("play", "tallage", "tithe", "lord"),
        "rebellion": ("play", "in", "cards", "burgher", "passage", "invaders_first"),
        "passage": ("play", "free", "to", "by"),
        "assassination": ("play", "on", "sponsor", "leader"),
        "justice": ("play", "on"),
        "ambush": ("play", "on", "by", "leader"),
        "good_weather": ("play", "on")}
NAMES = {**cards.NAMES, **fortune.NAMES}
WORDS = {fold(w): card for card in KEYS for w in (card, NAMES[card], card.replace("_", " "))}
OPPORTUNITY = ("rebellion", "passage", "assassination", "justice", "ambush", "good_weather")   # 10.0, 2.7
DRAW_PHASE = "cards"   # the Cards phase's draws (2.0): no Opportunity card then (2.6)


def opportunity_card(text: Any) -> str | None:
    return WORDS.get(fold(str(text)))


def find_region(board: Board, text: Any) -> str | None:
    """A Region from its numeral ("III"), number (3) or name ("Marches", "Barony of the Marches")."""
    word = str(text).strip()
    if word.upper() in NUMERALS:
        return word.upper()
    if word.isdigit() and 1 <= int(word) <= len(NUMERALS):
        return NUMERALS[int(word) - 1]
    fief = board.find_fief(word)
    return NUMERALS[list(board.fiefs).index(fief)] if fief else None


def check_play(view: Mapping[str, Any], board: Board, player: str, item: Mapping[str, Any], line: int | None,
               problems: Problems, at_once: bool = True, in_discard: bool = False,
               earlier: Sequence[Mapping[str, Any]] = ()) -> dict | None:
    """One `- play: CARD` item of `at_once:` (an Opportunity card), of round-N/cards-draw (an
    Opportunity card played in the Discard action, ``in_discard``) or of round-N/cards-play (any
    of England's fortune cards, ``at_once`` False) -> its canonical play, or None (the problems
    said). ``earlier``: the plays written before it in the same list, carried out before it
    (R150: a tithe by the Bishop a BISHOP card above appoints)."""
    card = opportunity_card(item.get("play"))
    if card is None or (at_once and card not in OPPORTUNITY):
        problems.add(line, f"`{item.get('play')}` is not an Opportunity card: only those are played in the "
                     "Discard action (2.0, 2.6)" if in_discard else
                     f"`{item.get('play')}` is not an Opportunity card you can play at once (10.0)"
                     if at_once else f"`{item.get('play')}` is not one of England's fortune cards",
                     "play it in round-N/cards-play" if in_discard and card else
                     suggest(str(item.get("play")), OPPORTUNITY if at_once else list(KEYS)))
        return None
    if view["phase"] == DRAW_PHASE and not in_discard:
        problems.add(line, "no Opportunity card may be played at once during the Cards phase's draws "
                     "(2.6: not during the Draw Cards action)",
                     "play it in your cards-draw orders (`- play:` beside `- discard:`), done in your Discard "
                     "action (2.0), or send it once the draws are resolved")
        return None
    check_keys(item, KEYS[card], f"a {NAMES[card]} play", problems)
    before = len(problems)
    play: dict[str, Any] = {"card": card}
    hand = list(view.get("hand") or [])
    lords = view["lords"]

    def noble(key: str, mine: bool | None) -> str | None:
        text = item.get(key)
        name = next((n for n in lords if fold(n) == fold(str(text))), None) if text is not None else None
        where = line_of(item, key) or line
        if name is None:
            problems.add(where, f"`{key}:` must name a noble in play, not {text!r}", suggest(str(text), lords))
        elif mine is True and lords[name]["family"] != player:
            problems.add(where, f"{name} is not a noble of your family", "name one of your nobles")
        elif mine is False and lords[name]["family"] == player:
            problems.add(where, f"{name} is a noble of your own family", "name another family's noble")
        return name

    needs_card = not (card == "passage" and fold(str(item.get("by", ""))) == "burgher") and card != "rebellion"
    if needs_card and card not in hand:
        problems.add(line, f"you hold no {NAMES[card]} card", "your hand: " + (", ".join(hand) or "empty"))
    if card == "rebellion":
        city = board.find_town(str(item.get("in")))
        if city is None:
            problems.add(line_of(item, "in") or line, f"`in:` must name a city, not {item.get('in')!r}",
                         suggest(str(item.get("in")), board.towns))
        play["in"] = city
        n = whole_number(item.get("cards", 1), line_of(item, "cards") or line, "`cards:`", problems, low=0)
        burgher = yes_no(item, "burgher", problems)
        play["cards"], play["burgher"] = n, bool(burgher)
        if n is not None and hand.count("rebellion") < n:
            problems.add(line_of(item, "cards") or line,
                         f"you hold {hand.count('rebellion')} REBELLION card(s), not {n}",
                         "lower `cards:`")
        if n == 0 and not burgher:
            problems.add(line, "a Rebellion needs a REBELLION card or your BURGHER's action",
                         "write `cards: 1` or `burgher: yes`")
        play["invaders_first"] = bool(yes_no(item, "invaders_first", problems))
        passage = item.get("passage")
        play["passage"] = None if passage in (None, False) else fold(str(passage))
        if play["passage"] not in (None, "card", "burgher"):
            problems.add(line_of(item, "passage") or line, f"`passage:` is card or burgher, not {passage!r}",
                         "`passage: card` plays a PASSAGE from your hand")
        elif play["passage"] == "card" and "passage" not in hand:
            problems.add(line_of(item, "passage") or line, "you hold no PASSAGE card", "leave `passage:` out")
    elif card == "passage":
        play["free"] = noble("free", None)
        if play["free"] and not lords[play["free"]]["captive_of"]:
            problems.add(line_of(item, "free") or line, f"{play['free']} is not a captive (10.2)", "")
        if "to" in item:
            play["to"] = board.find_town(str(item["to"]))
            if play["to"] is None:
                problems.add(line_of(item, "to") or line, f"`to:` must name a city, not {item['to']!r}",
                             suggest(str(item["to"]), board.towns))
        play["by"] = "burgher" if fold(str(item.get("by", "card"))) == "burgher" else "card"
    elif card in ("assassination", "ambush") and "leader" in item:
        _invader_leader(view, player, item, line, problems, play, card, noble)
    elif card == "assassination":
        play["on"] = noble("on", False)
        play["sponsor"] = noble("sponsor", True)
    elif card == "justice":
        play["on"] = noble("on", None)
    elif card == "ambush":
        play["on"] = noble("on", False)
        play["by"] = noble("by", True)
        if play["on"] and play["by"] and lords[play["on"]]["location"] != lords[play["by"]]["location"]:
            problems.add(line, f"{play['on']} and {play['by']} are not in the same city (10.5)", "")
    elif card == "tax":
        _tax(view, board, player, item, line, problems, play, earlier)
    elif card in ("good_weather", "bountiful_harvest"):
        play["on"] = find_region(board, item.get("on"))
        if play["on"] is None:
            problems.add(line_of(item, "on") or line, f"`on:` must name a Region (I-VI), not {item.get('on')!r}",
                         "e.g. `on: III` or `on: Marches`")
    return play if len(problems) == before else None


def invader_army(view: Mapping[str, Any], text: Any) -> str | None:
    """An Invader army by its number (`2`, `army 2`, `Invader army 2`), as the view lists them."""
    word = fold(str(text)).replace("invader", "").replace("army", "").replace("leader", "").strip()
    return word if word in ((view.get("invaders") or {}).get("armies") or {}) else None


def _invader_leader(view: Mapping[str, Any], player: str, item: Mapping[str, Any], line: int | None,
                    problems: Problems, play: dict, card: str, noble) -> None:
    """6.11, 6.12: an ASSASSINATION or AMBUSH of the Leader of an Invader army (`leader: N`)."""
    where = line_of(item, "leader") or line
    armies = (view.get("invaders") or {}).get("armies") or {}
    army = invader_army(view, item["leader"])
    if army is None:
        problems.add(where, f"`leader:` must name an Invader army by its number, not {item['leader']!r}",
                     "the armies: " + ", ".join(sorted(armies)) if armies else "no Invader army is in the game")
        return
    if not armies[army]["city"] or not armies[army]["leader"]:
        problems.add(where, f"Invader army {army} has no Leader on the map", "name an army whose Leader is in England")
        return
    play["leader"] = army
    if card == "assassination":
        if "sponsor" in item or "on" in item:
            problems.add(line, "an Invader Leader is assassinated with no sponsor and no noble named (6.12)",
                         "remove `sponsor:` and `on:`")
        return
    if "on" in item:
        problems.add(line, "an AMBUSH takes either a noble (`on:`) or an Invader Leader (`leader:`)", "keep one")
        return
    play["by"] = noble("by", True)
    city = armies[army]["city"]
    if play["by"] and view["lords"][play["by"]]["location"] != city:
        problems.add(line, f"the Leader of Invader army {army} is in {city}, not with {play['by']} (10.5)", "")
    elif armies[army].get("holds"):
        problems.add(line, f"Invader army {army} holds the Fortified City of {city}: its Leader cannot be "
                     "ambushed inside it (10.5, R123)", "")


def _tax(view: Mapping[str, Any], board: Board, player: str, item: Mapping[str, Any], line: int | None,
         problems: Problems, play: dict, earlier: Sequence[Mapping[str, Any]] = ()) -> None:
    """2.8: `tallage: REGION` or `tithe: DISTRICT`, and `lord:` (left out: the only one who can).
    A tithe may be levied by the noble a BISHOP or ARCHBISHOP card played above it in the same
    mail makes the district's cleric (2.6: the cards played one after the other; R150)."""
    kinds = [k for k in ("tallage", "tithe") if k in item]
    if len(kinds) != 1:
        problems.add(line, "a TAX card needs `tallage: REGION` or `tithe: DISTRICT`",
                     "e.g. `tallage: VI` (a Lord's own fiefdom) or `tithe: York` (a Bishop's own district)")
        return
    kind = play["tax"] = kinds[0]
    where = line_of(item, kind) or line
    if kind == "tallage":
        target = find_region(board, item["tallage"])
        if target is None:
            problems.add(where, f"`tallage:` must name a Region (I-VI), not {item['tallage']!r}", "e.g. `tallage: VI`")
            return
        play["on"] = target
        fief = board.fiefs[region_fief(board, target)]
        able = [n for n, lo in view["lords"].items() if lo["family"] == player
                and (fief.id in lo["fief_titles"] or (lo["political"] in fortune.SOVEREIGN
                                                      and not view["fiefs"][fief.id].get("holder")))]
    else:
        district = next((n for n, b in view["bishoprics"].items()
                         if fold(str(item["tithe"])) in (n, fold(b["name"]), fold(b["chief_town"]))), None)
        if district is None:
            problems.add(where, f"`tithe:` must name an Ecclesiastic District, not {item['tithe']!r}",
                         "its number (1-4), its name or its cathedral city")
            return
        play["on"] = int(district)
        able = [n for n, lo in view["lords"].items() if lo["family"] == player and lo["bishopric"] == int(district)]
        able += [p["on"] for p in earlier if p["card"] in CLERICS and p.get("district") == int(district)
                 and view["lords"][p["on"]]["family"] == player and p["on"] not in able]
    if "lord" in item:
        name = next((n for n in view["lords"] if fold(n) == fold(str(item["lord"]))), None)
        if name not in able:
            problems.add(line_of(item, "lord") or line, f"{item['lord']} may not levy this {kind} (2.8)",
                         f"those who may: {', '.join(able)}" if able else
                         "a Tallage is a Lord's on their own fiefdom (or the Sovereign's on an ungoverned Region), "
                         "a Tithe a Bishop's or Archbishop's on his own district")
        play["lord"] = name
    elif len(able) == 1:
        play["lord"] = able[0]
    else:
        problems.add(line, f"no noble of your family may levy this {kind} (2.8)" if not able else
                     f"say which noble levies it: {', '.join(able)}", "add `lord: NAME`" if able else
                     _cleric_first(view, kind))


CLERICS = ("bishop", "archbishop")   # 2.14: the cards that make a district's cleric


def _cleric_first(view: Mapping[str, Any], kind: str) -> str:
    """R150: the way to order a tithe by a cleric a card of the same mail appoints."""
    if kind == "tithe" and any(card in CLERICS for card in view.get("hand") or []):
        return ("a Bishop or Archbishop appointed in this mail may levy it: write the BISHOP or ARCHBISHOP "
                "card's `- play:` above this tithe (the cards are played in the order written)")
    return ""


def act(state: FiefState, board: Board, rng: Rng, player: str, play: Mapping[str, Any]) -> list[Event]:
    """Carry out one checked play (R41: at once; or in round-N/cards-play)."""
    card = play["card"]
    if card == "rebellion":
        return cards.rebellion(state, board, rng, player, play)
    if card == "passage":
        return cards.free_captive(state, board, player, play)
    if card not in state.families[player].hand:
        return [cards.kept(player, card, "you no longer hold it")]
    if card in ("good_weather", "bountiful_harvest", "tax"):
        if card != "tax":
            played, event = fortune.play_bonus_card(state, board, player, card, play["on"])
        elif play["tax"] == "tallage":
            played, event = fortune.play_tallage(state, board, player, play["lord"], play["on"])
        else:
            played, event = fortune.play_tithe(state, board, player, play["lord"], play["on"])
        if played:
            state.families[player].hand.remove(card)
        return [event]
    return {"assassination": cards.assassination, "justice": cards.justice, "ambush": cards.ambush}[card](
        state, board, player, play)



def _check(view: dict, board: Board, player: str, card: str, item: Any, line: int | None, problems: Any,
           earlier: Sequence[Mapping[str, Any]] = ()) -> dict | None:
    at_once = view["phase"] != "cards_play"
    return check_play(view, board, player, item, line, problems, at_once=at_once, earlier=earlier)


def _play(state: FiefState, board: Board, player: str, play: Mapping[str, Any], rng: Rng) -> list[Event]:
    if play["card"] in FAMILY_CARDS:   # 11.0: MERCENARY or BURGHER, in the Discard action (2.0)
        if play["card"] not in state.families[player].hand:
            return [cards.kept(player, play["card"], "you no longer hold it")]
        return play_surprise(state, board, player, play)
    return act(state, board, rng, player, play)


FAMILY_CARDS = ("mercenary", "burgher")   # 11.0: the Character Opportunity cards


def check_discard_play(view: dict, board: Board, player: str, card: str, item: Any, line: int | None,
                       problems: Any) -> dict | None:
    """2.0 (l.105; FAQ l.867): "During the Discard Action, Players may play Opportunity Cards (2.6)
    they are holding instead of discarding them": a `- play:` item of round-N/cards-draw, with the
    keys of its at-once form (10.0-10.5), or MERCENARY and BURGHER (11.0)."""
    if card in FAMILY_CARDS:
        if card not in (view.get("hand") or []):
            problems.add(line, f"you hold no {card.upper()} card", "your hand: " + (", ".join(view.get("hand") or [])
                                                                               or "empty"))
            return None
        read = CHARACTERS[card].read
        assert read is not None   # characters.py: every England character card reads its own order
        return read(view, board, player, card, item, line, problems)
    return check_play(view, board, player, item, line, problems, at_once=True, in_discard=True)


def hand_cards(play: Mapping[str, Any]) -> list[str]:
    """The cards of the hand a checked play takes: a REBELLION its `cards:` (and a PASSAGE with
    `passage: card`), a PASSAGE none when the BURGHER's action serves instead."""
    card = play["card"]
    if card == "rebellion":
        return ["rebellion"] * (play["cards"] or 0) + (["passage"] if play.get("passage") == "card" else [])
    if card == "passage" and play.get("by") == "burgher":
        return []
    return [card]


# The edition's ``card_plays`` hook (pbem/games/fief/hooks.py ``CardPlays``): England's fortune cards
# in round-N/cards-play (2.6-2.8) and its Opportunity cards at once too (10.0, R41).
TEMPLATE = {
    "bountiful_harvest": (("- play: bountiful_harvest", "2.7: cancels FAMINE, or +1 a Mill and Abbey"),
                          ("  on: REGION", "I-VI or its name")),
    "tax": (("- play: tax", "2.8: with a Treasure marker (11.3)"),
            ("  tallage: REGION", "your Lord's fiefdom; or tithe: DISTRICT"), ("  lord: YOUR_NOBLE", "optional")),
    "rebellion": (("- play: rebellion", "10.1: a city taxed, Royal-Taxed or under FAMINE"), ("  in: CITY", ""),
                  ("  cards: 1", "optional: REBELLION cards; burgher: yes, passage: card|burgher")),
    "passage": (("- play: passage", "10.2: a captive escapes"), ("  free: CAPTIVE", ""),
                ("  to: CITY", "optional: where")),
    "assassination": (("- play: assassination", "10.3: another family's noble"), ("  on: NOBLE", ""),
                      ("  sponsor: YOUR_NOBLE", "takes the Heresy marker; or `leader: N`, an Invader Leader")),
    "justice": (("- play: justice", "10.4: the Heresy marker's bearer"), ("  on: NOBLE", "")),
    "ambush": (("- play: ambush", "10.5: a noble in your noble's city"), ("  on: NOBLE", "or `leader: N` (6.11)"),
               ("  by: YOUR_NOBLE", "")),
    "good_weather": (("- play: good_weather", "2.7: cancels STORMS, or +1 a Mill and Abbey"),
                     ("  on: REGION", "I-VI or its name")),
    # 11.0: the Character Opportunity cards (their at-once lines are the characters')
    "mercenary": (("- play: mercenary", "11.1: onto your family board"),),
    "burgher": (("- play: burgher", "11.2: while your family has a titled Lord"),),
}


def echo(view: Mapping[str, Any], play: Mapping[str, Any]) -> dict[str, Any]:
    """A checked play written back as the `play:` item ``check_play`` reads to it (the judge's
    echo): the defaults left out, a Region by its numeral, a district by its name."""
    card = play["card"]
    item: dict[str, Any] = {"play": card}
    if card == "tax":
        kind = play["tax"]
        district = (view.get("bishoprics") or {}).get(str(play["on"]), {})
        item[kind] = district.get("name", play["on"]) if kind == "tithe" else play["on"]
        item["lord"] = play["lord"]
    elif card == "rebellion":
        item["in"] = play["in"]
        if play["cards"] != 1:
            item["cards"] = play["cards"]
        item.update({key: True for key in ("burgher", "invaders_first") if play.get(key)})
        if play.get("passage"):
            item["passage"] = play["passage"]
    elif card == "passage":
        item["free"] = play["free"]
        if "to" in play:
            item["to"] = play["to"]
        if play["by"] == "burgher":
            item["by"] = "burgher"
    else:   # the keys of the play as they are read: on, sponsor, by, leader
        item.update({key: play[key] for key in ("on", "leader", "sponsor", "by") if key in play})
    return item


CARD_PLAYS = CardPlays(cards=tuple(KEYS), at_once=OPPORTUNITY, check=_check, play=_play, template=TEMPLATE,
                       echo=echo, discard_check=check_discard_play, hand_cards=hand_cards)
