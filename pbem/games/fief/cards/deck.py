"""The Fief cards (B, G): lord cards, surprise characters, fortune and disaster cards.

Card data comes from games/<variant>/cards.yaml and is checked against the counts the
rulebook states. A card in a pile or hand is a plain id: a lord's name for a lord card,
"darc" / "cardinal" for surprise characters, and the card kind ("tax", "famine", ...) for
events, so piles stay JSON-able and comparable. A disaster card without the dice icon (2.5)
strikes the offshore area: its id is its kind with ``_offshore`` ("plague_offshore"), so what
the card does can be read from the id wherever the card lies (pile, track, discard pile).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from pbem.games.fief.board import Board, BoardError
from pbem.games.fief.edition import load_edition
from pbem.orders.reading import fold
from pbem.paths import games_dir


class CardError(Exception):
    """Card data that contradicts the rulebook."""


@dataclass(frozen=True)
class LordCard:
    name: str
    female: bool
    start: str      # I.4 starting town


@dataclass(frozen=True)
class CardSet:
    lords: dict[str, LordCard]
    other_characters: dict[str, int]   # the character cards that are not lords (France: surprise, G.4.1)
    fortune: dict[str, int]
    disaster: dict[str, int]     # every disaster card of each kind, with the dice icon or not
    # 2.5: how many cards of each disaster kind have no dice icon (they strike the offshore area)
    offshore: dict[str, int] = field(default_factory=dict)

    def character_cards(self) -> list[str]:
        cards = list(self.lords)
        for kind, count in self.other_characters.items():
            cards += [kind] * count
        return cards

    def event_cards(self) -> list[str]:
        cards: list[str] = []
        for kind, count in self.fortune.items():
            cards += [kind] * count
        for kind, count in self.disaster.items():
            sea = self.offshore.get(kind, 0)
            cards += [kind] * (count - sea) + [offshore_card(kind)] * sea
        return cards

    def disaster_kind(self, card: str) -> str | None:
        """The kind of a disaster card id ("plague_offshore" -> "plague"); None: no disaster."""
        kind = card[: -len(OFFSHORE_SUFFIX)] if card.endswith(OFFSHORE_SUFFIX) else card
        return kind if kind in self.disaster else None

    def is_disaster(self, card: str) -> bool:
        return self.disaster_kind(card) is not None

    def find_lord(self, text: str) -> str | None:
        want = fold(text)
        return next((n for n in self.lords if fold(n) == want), None)


OFFSHORE_SUFFIX = "_offshore"


def offshore_card(kind: str) -> str:
    """2.5: the id of a disaster card of ``kind`` without the dice icon."""
    return kind + OFFSHORE_SUFFIX


def has_dice_icon(card: str) -> bool:
    """2.5: a disaster card with the dice icon strikes the bishopric the first player's d6
    names; one without strikes the offshore area."""
    return not card.endswith(OFFSHORE_SUFFIX)


@lru_cache(maxsize=4)
def load_cards(variant: str) -> CardSet:
    path = games_dir() / variant / "cards.yaml"
    return load_cards_file(path, variant)


def load_cards_file(path: Path, variant: str) -> CardSet:
    where = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CardError(f"{where}: cannot read the card data: {exc}") from None
    hooks = load_edition(variant).hooks
    if hooks.cards_loader is not None:   # an edition whose card file has its own shape (England)
        return hooks.cards_loader(data, where, variant)
    want = load_edition(variant).deck   # the counts the rulebook states (B; G.1-G.4)
    try:
        lords = {str(c["name"]): LordCard(str(c["name"]), bool(c["female"]), str(c["start"]))
                 for c in data["lords"]}
        disaster, offshore = _disasters(data["disaster"], where, want.disaster)
        cards = CardSet(lords, dict(data["surprise_characters"]), dict(data["fortune"]), disaster, offshore)
    except (KeyError, TypeError) as exc:
        raise CardError(f"{where}: malformed card data ({exc}); each lord needs name, female, start") from None
    if offshore and load_edition(variant).hooks.naval is None:
        raise CardError(f"{where}: {sum(offshore.values())} disaster card(s) without the dice icon strike the "
                        "sea (2.5), and this edition has no naval step (its `naval` hook): give every card "
                        "`dice_icon: true`")
    if len(lords) != want.lords or len(data["lords"]) != want.lords:
        raise CardError(f"{where}: {len(data['lords'])} lord cards; the rulebook has {want.lords} (G.1)")
    women = sum(1 for c in lords.values() if c.female)
    if women != want.women:
        raise CardError(f"{where}: {women} women among the lords; the rulebook has {want.women} (B)")
    for key in ("other_characters", "fortune", "disaster"):
        if getattr(cards, key) != getattr(want, key):
            raise CardError(f"{where}: the {key} cards must be {getattr(want, key)} (B, G), not {getattr(cards, key)}")
    return cards


def _disasters(raw: object, where: str, kinds: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """The disaster cards, one entry each with its dice icon (2.5): (count per kind, count per
    kind without the icon)."""
    form = "one `- {card: KIND, dice_icon: true}` line per card (2.5)"
    if not isinstance(raw, list):
        raise CardError(f"{where}: `disaster` must be a list of the disaster cards, {form}")
    counts: dict[str, int] = {}
    offshore: dict[str, int] = {}
    for n, entry in enumerate(raw, 1):
        if not isinstance(entry, dict) or "card" not in entry:
            raise CardError(f"{where}: disaster card {n} ({entry!r}) must be a mapping: {form}")
        kind = entry["card"]
        if kind not in kinds:
            raise CardError(f"{where}: disaster card {n}: {kind!r} is not a disaster; the disasters are "
                            f"{', '.join(kinds)} (G.2)")
        icon = entry.get("dice_icon")
        if not isinstance(icon, bool):
            raise CardError(f"{where}: disaster card {n} ({kind}): `dice_icon` must be true (the card shows "
                            "the dice icon: the first player's d6 names the bishopric it strikes) or false "
                            f"(no icon: it strikes the offshore area), not {icon!r} (2.5)")
        unknown = set(entry) - {"card", "dice_icon"}
        if unknown:
            raise CardError(f"{where}: disaster card {n} ({kind}): unknown key(s) "
                            f"{', '.join(map(str, sorted(unknown)))}; a disaster card has `card` and `dice_icon`")
        counts[kind] = counts.get(kind, 0) + 1
        if not icon:
            offshore[kind] = offshore.get(kind, 0) + 1
    # In the rulebook's order whatever the file's, so the events pile is built the same way.
    return {k: counts[k] for k in kinds if k in counts}, offshore


def check_start_towns(cards: CardSet, board: Board) -> None:
    """I.4: every lord's starting town is a town of the board, and no two lords share one."""
    seen: dict[str, str] = {}
    for card in cards.lords.values():
        if card.start not in board.towns:
            raise BoardError(f"{board.source}: the I.4 starting town {card.start} of {card.name} is not on the board")
        if card.start in seen:
            raise BoardError(f"I.4: {card.name} and {seen[card.start]} share the starting town {card.start}")
        seen[card.start] = card.name
