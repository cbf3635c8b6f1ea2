"""The Cards Phase (2): draw to the hand's limit (2, steps A-B), then play what helps (step D):
new lords into my strongest town (G.1; England 2.11), a good harvest or good weather where my
towns are (G.3; England 2.7), taxes on my own fiefs and districts (G.3.3; England 2.8), a
cardinal's hat or a cleric's title on my own lord (G.4.1.2; England 2.14), D'Arc on my
unmarried lady (G.4.1.1), an assassin against the leader (G.4.2.4; England 10.3), a captive of
mine freed (G.4.2.2; England 10.2), England's mercenary and burgher cards (11.1-11.2)."""
from __future__ import annotations

from collections import Counter
from typing import Callable

from pbem.games.fief.computer.sight import defence, leader, lord_towns
from pbem.games.fief.edition import edition_of_view
from pbem.games.fief.random_orders.cards import own_cards
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of, cards_of, controlled, free_lords, my_lords

ROMAN = ("I", "II", "III", "IV", "V", "VI")


def draw_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    """The cards it cannot use now are discarded when they keep a draw out of the hand (2.4),
    then the most cards the hand has room for, a character card first."""
    edition = edition_of_view(view)
    hand = list(view.get("hand") or [])
    useless = [c for c in hand if not _uses(view, player, c)]
    choices: list[list[Item]] = []
    if useless and len(hand) + edition.draws > edition.hand_limit:
        choices.append([{"discard": useless}, {"discard": useless[:1]}])
    most = min(edition.hand_limit - len(hand) + len(useless), edition.draws)
    wanted = [["character"] * c + ["events"] * (total - c) for total in range(most, 0, -1)
              for c in range(min(edition.character_draws, total), -1, -1)]
    if wanted:
        choices.append([{"draw": w} for w in wanted])
    return choices


def _uses(view: JSON, player: str, card: str) -> bool:
    """Whether it would play ``card`` now (a lord card always)."""
    if card in cards_of(view).lords:
        return True
    write = WRITERS.get(card)
    return write is not None and bool(write(view, player, card))


def play_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    choices: list[list[Item]] = []
    lords = cards_of(view).lords
    for card in list(view.get("hand") or []):
        write = _lord_card if card in lords else WRITERS.get(card)
        if write is not None:
            alternatives = write(view, player, card)
            if alternatives:
                choices.append(alternatives)
    return choices


def strong_towns(view: JSON, player: str) -> list[str]:
    """My towns, the best defended first (a fortress, my lords)."""
    towns = list(dict.fromkeys(lord_towns(view, player) + controlled(view, player)))
    return sorted(towns, key=lambda t: (-bool(view["towns"][t].get("fortress")), -defence(view, t, player), t))


def _lord_card(view: JSON, player: str, card: str) -> list[Item]:
    return [{"play": card, "in": t} for t in strong_towns(view, player)[:3]] + [{"play": card}]


def _my_bishoprics(view: JSON, player: str) -> list[str]:
    count = Counter(str(view["towns"][t]["bishopric"]) for t in controlled(view, player))
    return [b for b, _ in count.most_common() if b in view["bishoprics"]]


def _my_regions(view: JSON, player: str) -> list[str]:
    """England 2.7: a Region is a fief with its sea ("Sea III": Region III)."""
    sea_of = getattr(board_of(view), "sea_of", {})
    count = Counter(sea_of.get(view["towns"][t]["fief"], "").split(" ")[-1] for t in controlled(view, player))
    return [r for r, _ in count.most_common() if r in ROMAN]


def _weather(view: JSON, player: str, card: str) -> list[Item]:
    if card in own_cards(view):   # England 2.7: on a Region
        return [{"play": card, "on": r} for r in _my_regions(view, player)]
    return [{"play": card, "on": int(b)} for b in _my_bishoprics(view, player)]


def _tax(view: JSON, player: str, card: str) -> list[Item]:
    out: list[Item] = []
    for name in my_lords(view, player):
        lord = view["lords"][name]
        out += [{"play": card, "tallage": view["fiefs"][f]["name"], "lord": name} for f in lord["fief_titles"]]
        if lord.get("pope"):
            out.append({"play": card, "tithe": "all", "lord": name})
        if lord["bishopric"]:
            out.append({"play": card, "tithe": str(lord["bishopric"]) if card in own_cards(view) else lord["bishopric"],
                        "lord": name})
    return out


def _on_mine(fits: Callable[[JSON], bool]) -> Callable[[JSON, str, str], list[Item]]:
    def write(view: JSON, player: str, card: str) -> list[Item]:
        return [{"play": card, "on": n} for n in free_lords(view, player) if fits(view["lords"][n])]
    return write


def _cleric(view: JSON, player: str, card: str) -> list[Item]:
    """England 2.14: my unmarried nobleman made a Bishop or Archbishop of my district."""
    men = [n for n in free_lords(view, player) if not view["lords"][n]["female"] and not view["lords"][n]["spouse"]
           and not view["lords"][n]["fief_titles"]]
    districts = [view["bishoprics"][b]["name"] for b in _my_bishoprics(view, player)]
    return [{"play": card, "on": n, "district": d} for n in men for d in districts]


def _assassination(view: JSON, player: str, card: str) -> list[Item]:
    target = leader(view, player)
    mine = free_lords(view, player)
    if target is None or not mine:
        return []
    theirs = sorted((n for n in my_lords(view, target) if view["lords"][n]["location"]),
                    key=lambda n: (-len(view["lords"][n]["titles"]), n))
    return [{"play": card, "on": n, "sponsor": mine[0]} for n in theirs]


def _free(view: JSON, player: str, card: str) -> list[Item]:
    return [{"play": card, "free": n} for n in my_lords(view, player) if view["lords"][n]["captive_of"]]


def _bare(view: JSON, player: str, card: str) -> list[Item]:
    return [{"play": card}]


def _ambush(view: JSON, player: str, card: str) -> list[Item]:
    """England 10.5: my free noble captures another family's noble in the same city."""
    target = leader(view, player)
    return [{"play": card, "on": theirs, "by": mine} for mine in free_lords(view, player)
            for theirs, lord in view["lords"].items()
            if lord["family"] == target and not lord["captive_of"]
            and lord["location"] == view["lords"][mine]["location"]]


WRITERS: dict[str, Callable[[JSON, str, str], list[Item]]] = {
    "good_weather": _weather, "good_harvest": _weather, "bountiful_harvest": _weather, "tax": _tax,
    "cardinal": _on_mine(lambda lord: bool(lord["bishopric"]) and not lord["cardinal"]),
    "darc": _on_mine(lambda lord: lord["female"] and not lord["spouse"]),
    "bishop": _cleric, "archbishop": _cleric, "assassination": _assassination,
    "underground": _free, "passage": _free, "mercenary": _bare, "burgher": _bare, "ambush": _ambush,
}
