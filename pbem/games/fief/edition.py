"""The edition record of a Fief game: what makes Fief: France (and later Fief: England) the
edition it is, as one frozen value, like a godip variant.

Numbers, prices, pools, limits, the deck's counts, the victory rule, what is public, the player
counts, the round's phases and the options are data: ``games/<edition>/edition.yaml``, checked
on load (``EditionError`` names the file, the key, what is wrong and how to fix it). What is
code — rules only one edition has — is the edition's hooks (``Hooks``): small functions in the
edition's own package, named by the file's ``hooks:`` key and imported from there, so the core
never imports an edition (the edition's package imports the core).

The rules find the edition of a state from its game type (``edition_of(state)``, or
``load_edition(view["game"])`` for a view), read once per process (cached).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import yaml

from pbem.games.fief.edition_reader import (EDITION_FILE, OTHER_STEPS, PHASES, WORDS, Deck, EditionError, Unit,
                                            Victory, read_record)
from pbem.games.fief.hooks import Hooks, TitleBonus
from pbem.games.fief.state import RULES_VERSION
from pbem.paths import games_dir
from pbem.rules.api import OptionSpec

if TYPE_CHECKING:
    from pbem.games.fief.state import FiefState

__all__ = ["Edition", "EditionError", "Deck", "Unit", "Victory", "Hooks", "TitleBonus", "PHASES", "OTHER_STEPS",
           "edition_of", "load_edition"]


# A parenthesis of a core text, with the space before it.
_CITED = re.compile(r"( ?)\(([^()]+)\)")


@dataclass(frozen=True)
class Edition:
    type_name: str                       # "fief_france": the game type and its games/ folder
    title: str
    min_players: int
    max_players: int
    money_public: bool                   # France A.6: every family's deniers are public
    starting_money: int
    units: dict[str, Unit]               # unit types in the rulebook's order
    start_units: dict[str, int]          # pawns placed with a family's first lord
    strongholds: int                     # tiles in the common supply
    mills: int
    siege_engines: int                   # markers per family
    diplomacy_pawns: int                 # per family
    # In the game: a lord is taken captive only with one left (France B, 6.3); None: no such limit.
    captive_markers: int | None
    mills_per_town: int
    lords_per_family: int
    new_units_per_town: int              # pawns placed in one town in one Purchase Phase
    fief_titles_per_lord: int
    steps_per_round: int                 # steps a lord or unit pawn moves in one round
    prices: dict[str, int]               # stronghold, mill, title_per_town, ransom_*, and cardinal_title
    income: dict[str, int]               # town, mill, tallage_per_town, queen, plunder_per_mill
    hand_limit: int
    draws: int
    disaster_track: int
    deck: Deck
    victory: Victory
    round: tuple[str, ...]               # the round's phases in order
    not_in_first_round: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    hooks: Hooks
    money_unit: str = "denier"           # the coin's name, singular (France: denier; England: shilling)
    # The core's first texts wrote every amount in the plural ("1 deniers"): France's record keeps
    # them so (`money.plural_always`), so that its reports stay as they were stored.
    money_plural_always: bool = False
    # How the reports word the sea (`words:`; France's defaults: its one off-shore area, 5.3).
    words: dict[str, str] = field(default_factory=lambda: dict(WORDS))
    # The core's texts cite France's rulebook; an edition's `sections:` says where its own rulebook
    # has the same rule (England: "2.2" -> "2.0"). A section it does not name is cited as it is.
    sections: dict[str, str] = field(default_factory=dict)
    # Families a player runs, by player count (England 13.7: two allied families at 2 players).
    families_per_player: dict[int, int] | None = None
    character_draws: int = 1             # character cards among a Cards Phase's draws at most (F 2.2, E 2.0)
    # The two-player game's hand limit, draws and character draws (England 13.7), if it differs.
    two_player_cards: dict[str, int] | None = None
    buildings_per_town: int = 1          # fortresses (and England's abbeys) a town holds (4.2)
    # Unit pawns always lie face down (England 4.1); otherwise only with the option `fog_of_war` (F I.2).
    always_fog_of_war: bool = False
    # The keys an edition's own code reads, declared by its hooks (``Hooks.record_keys``) and checked
    # by them: dotted key ("invaders", "supply.abbeys") -> value. The core never reads them.
    extra: dict[str, Any] = field(default_factory=dict)
    # The rules version a new game of this edition is created under, when the edition's own rules
    # were fixed after the core's (`rules_version:` of the record; None: the core's RULES_VERSION).
    rules_version: int | None = None

    @property
    def new_rules_version(self) -> int:
        """The rules version a new game of this edition records (docs/architecture.md, "Rules
        versions"): the edition's own, else the core's."""
        return self.rules_version if self.rules_version is not None else RULES_VERSION

    @property
    def unit_types(self) -> tuple[str, ...]:
        return tuple(self.units)

    def price(self, what: str) -> int:
        return self.prices[what]

    def unit_price(self, kind: str) -> int:
        return self.units[kind].price

    def pool(self, kind: str) -> int:
        return self.units[kind].pool

    def opening(self, round_number: int) -> str:
        """The first phase of round ``round_number`` (E: France's 1st round opens with the Cards
        Phase, the Hear Ye phase being ignored)."""
        skipped = self.not_in_first_round if round_number == 1 else ()
        return next(p for p in self.round if p not in skipped)

    def after(self, phase: str, round_number: int) -> str:
        """The phase after ``phase`` in the round (wrapping to the next round's opening)."""
        later = self.round[self.round.index(phase) + 1:]
        skipped = self.not_in_first_round if round_number == 1 else ()
        return next((p for p in later if p not in skipped), self.opening(round_number + 1))

    def money_text(self, amount: int) -> str:
        """An amount in the edition's coin (`money.unit`): "1 denier", "5 shillings"."""
        return f"{amount} {self.money_unit}{'' if amount == 1 else 's'}"

    def cite(self, section: str) -> str:
        """The section the core's text cites (France's numbering), in this edition's rulebook."""
        return self.sections.get(section, section)

    def cite_in(self, text: str) -> str:
        """``text`` with each section it cites in parentheses in this edition's numbering: the whole
        parenthesis ("Battle Phase (6)"), each section of a list ("(5.1, 5.2.4)"), the sections
        before a colon ("(2.5: a d6 per card)") or after a comma ("(a cavalcade, 5.2.4)"). A section
        the edition maps to "" (its rulebook has no such rule) is cited not at all: a parenthesis
        left empty goes with the space before it."""
        return _CITED.sub(self._cite_match, text) if self.sections else text

    def _cite_match(self, match: re.Match[str]) -> str:
        inside = match.group(2)
        if inside in self.sections:
            inside = self.sections[inside]
        else:
            head, colon, tail = inside.partition(": ")
            if not colon:
                head, tail = inside, ""
            # in a list a bare number is a count, "(1, 2)": only a whole parenthesis cites a phase, "(6)"
            parts = [self.sections[part] if part in self.sections and not part.isdigit() else part
                     for part in head.split(", ")]
            kept = ", ".join(part for part in parts if part)
            inside = f"{kept}: {tail}" if kept and colon else kept or tail
        return f"{match.group(1)}({inside})" if inside else ""

    def coins(self, amount: int) -> str:
        """An amount as the core's event texts and templates write it: "5 shillings", "1 shilling";
        with `money.plural_always` (France) "1 deniers", as they always did."""
        return f"{amount} {self.money_unit}s" if self.money_plural_always else self.money_text(amount)

    @property
    def coin_plural(self) -> str:
        """The coin's name in the plural ("deniers per captive freed", "shillings")."""
        return f"{self.money_unit}s"

    def unit_word(self, kind: str, count: int) -> str:
        """A unit pawn kind (or a royal guard pawn's, 1.5.5) as the reports write ``count`` of them:
        the record's `units:` name and plural (France: "man-at-arms", "men-at-arms")."""
        if kind in self.units:
            return self.units[kind].name if count == 1 else self.units[kind].plural
        if kind in self.hooks.other_pawns:   # England: the hired crossbowmen (11.1)
            one, several = self.hooks.other_pawns[kind]
            return one if count == 1 else several
        guard = self.hooks.royal_guard[kind]
        return guard.word if count == 1 else guard.plural

    def unit_text(self, kind: str, count: int) -> str:
        """``count`` pawns of ``kind`` as the reports write them ("1 knight", "3 men-at-arms")."""
        return f"{count} {self.unit_word(kind, count)}"

    def pawn_kinds(self) -> tuple[str, ...]:
        """Every pawn kind of the edition: its unit types, then its royal guard's (1.5.5)."""
        return self.unit_types + tuple(self.hooks.royal_guard)

    def unit_kind(self, text: Any) -> str | None:
        """A pawn kind named in an order: its id, name or plural, folded ("Men-at-arms", "knights",
        "king's retinue knight", "kings_knight"), or None."""
        if not isinstance(text, str):
            return None
        return self._kind_words.get(_word(text))

    @property
    def _kind_words(self) -> dict[str, str]:
        words: dict[str, str] = {}
        for kind in self.pawn_kinds():
            for text in (kind, kind + "s", self.unit_word(kind, 1), self.unit_word(kind, 2)):
                words[_word(text)] = kind
        if "man_at_arms" in self.units:
            words["man"] = "man_at_arms"   # France's mails have said `man` for a man-at-arms
        return words

    def for_families(self, families: int) -> "Edition":
        """The edition as a game whose players run ``families`` families each plays it (England
        13.7, l.848: one Hand of up to 5 Cards, up to 4 drawn, at most 2 Character Cards). The
        hand is the player's, shared by the families (FiefState.link_purses); the draws are the
        families' in turn, each its share (R125: 4 = 2 + 2, 2 Character = 1 + 1)."""
        if families == 1 or not self.two_player_cards:
            return self
        key = (id(self), families)
        if key not in _FAMILY_EDITIONS:
            cards = self.two_player_cards
            _FAMILY_EDITIONS[key] = replace(
                self, hand_limit=cards.get("hand_limit", self.hand_limit),
                draws=cards.get("draws", self.draws * families) // families,
                character_draws=cards.get("character_draws", self.character_draws * families) // families)
        return _FAMILY_EDITIONS[key]

    def fog(self, options: Mapping[str, Any]) -> bool:
        """F I.2, E 4.1: whether other players see how many unit pawns, not which types."""
        return self.always_fog_of_war or bool(options.get("fog_of_war"))

    def families_of(self, players: int) -> int:
        """The families each player runs in a game of ``players`` (1 unless the record says)."""
        return (self.families_per_player or {}).get(players, 1)

    def may_marry(self, players: int) -> bool:
        """9.0, 13.8: whether families may marry in a game of ``players``."""
        allowed = self.victory.marriage_players
        return allowed is None or players in allowed

    def bonus(self, titles: Iterable[str | None]) -> TitleBonus | None:
        """G.4.1.1: the bonus a lord of an army (or battle side) with these political titles
        gives it, the first found; None if none does."""
        bonuses = self.hooks.title_bonus
        return next((bonuses[t] for t in titles if t is not None and t in bonuses), None)

    def ransom(self, titles: int) -> int:
        """4.1: the ransom of a lord with ``titles`` titles."""
        return self.prices["ransom_base"] + self.prices["ransom_per_title"] * titles


# Editions read so far, by game type: each file is read once per process.
_FAMILY_EDITIONS: dict[tuple[int, int], "Edition"] = {}
_EDITIONS: dict[str, Edition] = {}


def load_edition(type_name: str) -> Edition:
    """The edition of game type ``type_name`` (games/<type_name>/edition.yaml), read once."""
    if type_name not in _EDITIONS:
        _EDITIONS[type_name] = load_edition_file(games_dir() / type_name / EDITION_FILE, type_name)
    return _EDITIONS[type_name]


def edition_of(state: "FiefState") -> Edition:
    """The edition a game is played by: its game type (``FiefState.variant``), as its players
    run their families (England 13.7: the two-player hand and draws, ``Edition.for_families``)."""
    edition = load_edition(state.variant)
    if not state.family_players:
        return edition
    return edition.for_families(len(state.families_of(state.player_of(state.players[0]))))


def edition_of_view(view: Mapping[str, Any]) -> Edition:
    """``edition_of`` for the checks, which see a view, never the state: a view of a game whose
    players run several families names them (``family_players``)."""
    edition = load_edition(view["game"])
    owners = view.get("family_players") or {}
    if not owners:
        return edition
    first = next(iter(owners.values()))
    return edition.for_families(sum(1 for p in owners.values() if p == first))


def load_edition_file(path: Path, type_name: str) -> Edition:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EditionError(f"{path}: cannot read the edition record ({exc.strerror or exc}); every Fief "
                           f"edition needs games/{type_name}/{EDITION_FILE} (docs/adding-a-game.md)") from None
    except yaml.YAMLError as exc:
        raise EditionError(f"{path}: not valid YAML ({str(exc).splitlines()[0]}); fix the line it names") from None
    return Edition(**read_record(data, str(path), type_name))



def _word(text: str) -> str:
    """An order's word for a pawn kind, folded: "King's retinue knight" -> "kings_retinue_knight"."""
    return text.strip().lower().replace("'", "").replace("-", "_").replace(" ", "_")
