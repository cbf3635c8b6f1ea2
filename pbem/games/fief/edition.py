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

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import yaml

from pbem.orders.reading import suggest
from pbem.paths import games_dir
from pbem.rules.api import OptionSpec

from pbem.games.fief.hooks import Hooks, TitleBonus

if TYPE_CHECKING:
    from pbem.games.fief.state import FiefState

__all__ = ["Edition", "EditionError", "Hooks", "TitleBonus", "PHASES", "OTHER_STEPS", "edition_of",
           "load_edition"]

EDITION_FILE = "edition.yaml"
# The round's phases the core knows (round.py ROUND), in the order E lists them for France; an
# edition's `round:` is a selection of them, in its own order.
PHASES = ("hear_ye", "cards", "cards_play", "income", "purchase", "movement", "battle", "end_of_round")
# The core's steps outside the round (round.py): an edition's own phase may not take their names.
OTHER_STEPS = ("setup", "hear_ye_votes", "over")


class EditionError(Exception):
    """Edition data that cannot be used, with where and how to fix it."""


@dataclass(frozen=True)
class Unit:
    """One unit pawn type (4.3, 6.2.3.1, A.1)."""

    price: int
    combat_points: int
    pool: int       # the most pawns of the type a family can have on the board


@dataclass(frozen=True)
class Deck:
    """The card counts the rulebook states, which the card data (cards.yaml) must match."""

    lords: int
    women: int
    surprise_characters: dict[str, int]
    fortune: dict[str, int]
    disaster: dict[str, int]


@dataclass(frozen=True)
class Victory:
    lone: int                            # VP of a lone victory (7.1)
    alliance: int                        # VP of two allied families together (7.2)
    alliance_players: tuple[int, ...]    # player counts in which an alliance victory counts (7.2)
    married_lone_players: tuple[int, ...]   # player counts in which a married family may win alone (7.1)
    from_round: int                      # the first round whose end checks victory (7)


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
    captive_markers: int                 # in the game: a lord is taken captive only with one left
    mills_per_town: int
    lords_per_family: int
    new_units_per_town: int              # pawns placed in one town in one Purchase Phase
    fief_titles_per_lord: int
    steps_per_round: int                 # steps a lord or unit pawn moves in one round
    prices: dict[str, int]               # stronghold, mill, title_per_town, cardinal_title, ransom_*
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

    def bonus(self, titles: Iterable[str | None]) -> TitleBonus | None:
        """G.4.1.1: the bonus a lord of an army (or battle side) with these political titles
        gives it, the first found; None if none does."""
        bonuses = self.hooks.title_bonus
        return next((bonuses[t] for t in titles if t is not None and t in bonuses), None)

    def ransom(self, titles: int) -> int:
        """4.1: the ransom of a lord with ``titles`` titles."""
        return self.prices["ransom_base"] + self.prices["ransom_per_title"] * titles


# Editions read so far, by game type: each file is read once per process.
_EDITIONS: dict[str, Edition] = {}


def load_edition(type_name: str) -> Edition:
    """The edition of game type ``type_name`` (games/<type_name>/edition.yaml), read once."""
    if type_name not in _EDITIONS:
        _EDITIONS[type_name] = load_edition_file(games_dir() / type_name / EDITION_FILE, type_name)
    return _EDITIONS[type_name]


def edition_of(state: "FiefState") -> Edition:
    """The edition a game is played by: its game type (``FiefState.variant``)."""
    return load_edition(state.variant)


def load_edition_file(path: Path, type_name: str) -> Edition:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EditionError(f"{path}: cannot read the edition record ({exc.strerror or exc}); every Fief "
                           f"edition needs games/{type_name}/{EDITION_FILE} (docs/adding-a-game.md)") from None
    except yaml.YAMLError as exc:
        raise EditionError(f"{path}: not valid YAML ({str(exc).splitlines()[0]}); fix the line it names") from None
    return _Reader(str(path)).edition(data, type_name)


# -- the schema -------------------------------------------------------------------------------
_TOP = ("title", "hooks", "players", "money", "units", "start", "supply", "limits", "prices", "income",
        "cards", "deck", "victory", "round", "not_in_first_round", "options")
_PRICES = ("stronghold", "mill", "title_per_town", "cardinal_title", "ransom_base", "ransom_per_title")
_INCOME = ("town", "mill", "tallage_per_town", "queen", "plunder_per_mill")


class _Reader:
    """Reads the YAML of one edition, each value checked where it is read."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, key: str, problem: str, fix: str) -> EditionError:
        return EditionError(f"{self.where}: `{key}`: {problem}; {fix}")

    def mapping(self, data: Any, key: str, keys: tuple[str, ...] | None) -> dict[str, Any]:
        """A mapping; with ``keys``, exactly those keys."""
        if not isinstance(data, dict):
            raise self.fail(key or "(the file)", f"must be a mapping, not {_kind(data)}",
                            f"write `{keys[0] if keys else 'NAME'}: ...` lines under it")
        if keys is not None:
            for name in data:
                if name not in keys:
                    raise self.fail(_join(key, str(name)), "unknown key",
                                    suggest(str(name), keys))
            for name in keys:
                if name not in data:
                    raise self.fail(_join(key, name), "missing",
                                    f"add `{name}:` (see games/fief_france/{EDITION_FILE})")
        return data

    def whole(self, data: dict[str, Any], key: str, name: str, least: int = 0) -> int:
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(_join(key, name), f"must be a whole number, not {_kind(value)}",
                            "write the number the rulebook gives, e.g. `3`")
        if value < least:
            raise self.fail(_join(key, name), f"must be at least {least}, not {value}",
                            "write the number the rulebook gives")
        return value

    def flag(self, data: dict[str, Any], key: str, name: str) -> bool:
        value = data[name]
        if not isinstance(value, bool):
            raise self.fail(_join(key, name), f"must be true or false, not {_kind(value)}", "write `true` or `false`")
        return value

    def text(self, data: dict[str, Any], key: str, name: str) -> str:
        value = data[name]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(_join(key, name), f"must be a text, not {_kind(value)}", "write it in quotes")
        return value

    def counts(self, data: Any, key: str, least: int = 0) -> dict[str, int]:
        """A mapping of names to whole numbers (a pool, a deck's cards)."""
        found = self.mapping(data, key, None)
        return {str(name): self.whole(found, key, name, least) for name in found}

    def numbers(self, data: Any, key: str, names: tuple[str, ...], least: int = 0) -> dict[str, int]:
        """The section ``key`` (its value ``data``): exactly ``names``, each a whole number."""
        found = self.mapping(data, key, names)
        return {name: self.whole(found, key, name, least) for name in names}

    def whole_list(self, data: dict[str, Any], key: str, name: str) -> tuple[int, ...]:
        value = data[name]
        if not isinstance(value, list):
            raise self.fail(_join(key, name), f"must be a list of player counts, not {_kind(value)}",
                            "write e.g. `[4, 5, 6]`, or `[]` for none")
        return tuple(self.whole({name: v}, key, name, 1) for v in value)

    def phases(self, data: dict[str, Any], name: str, within: tuple[str, ...]) -> tuple[str, ...]:
        value = data[name]
        if not isinstance(value, list):
            raise self.fail(name, f"must be a list of phases, not {_kind(value)}",
                            f"write e.g. `[{', '.join(within[:3])}]`")
        for item in value:
            if item not in within:
                raise self.fail(name, f"{item!r} is not a phase here",
                                suggest(str(item), within))
        if len(set(value)) != len(value):
            raise self.fail(name, "names a phase twice", "name each phase once")
        return tuple(value)

    def own_phases(self, hooks: Hooks) -> tuple[str, ...]:
        """The names of the edition's own phases (its `phases` hook), none a core step's."""
        names = tuple(step.name for step in hooks.phases)
        for name in names:
            if name in PHASES + OTHER_STEPS or names.count(name) > 1:
                raise self.fail("hooks", f"the edition's own phase {name!r} is already a phase",
                                "give each of the edition's own phases (its `phases` hook) a name of its own")
        return names

    def first_round(self, data: dict[str, Any], round_: tuple[str, ...]) -> tuple[str, ...]:
        skipped = self.phases(data, "not_in_first_round", round_)
        if not round_ or set(round_) <= set(skipped):
            raise self.fail("round", "leaves the first round without a phase",
                            "list the round's phases in `round`, and only some of them in `not_in_first_round`")
        return skipped

    # -- the sections ---------------------------------------------------------------------
    def edition(self, data: Any, type_name: str) -> Edition:
        top = self.mapping(data, "", _TOP)
        players = self.numbers(top["players"], "players", ("min", "max"), 1)
        if players["min"] > players["max"]:
            raise self.fail("players", f"min {players['min']} is more than max {players['max']}",
                            "swap them, or correct the one that is wrong")
        money = self.mapping(top["money"], "money", ("starting", "public"))
        units = self.units(top["units"])
        start = self.mapping(top["start"], "start", ("units",))
        start_units = self.counts(start["units"], "start.units")
        for kind, count in start_units.items():
            if kind not in units:
                raise self.fail(f"start.units.{kind}", "not a unit type of `units`",
                                suggest(kind, tuple(units)))
            if count > units[kind].pool:
                raise self.fail(f"start.units.{kind}", f"{count} is more than the pool of {units[kind].pool}",
                                f"a family starts with at most its pool (`units.{kind}.pool`)")
        supply = self.numbers(top["supply"], "supply", ("strongholds", "mills", "siege_engines", "diplomacy_pawns",
                                                        "captive_markers"))
        limits = self.numbers(top["limits"], "limits", ("mills_per_town", "lords_per_family", "new_units_per_town",
                                                        "fief_titles_per_lord", "steps_per_round"), 1)
        cards = self.numbers(top["cards"], "cards", ("hand_limit", "draws", "disaster_track"))
        hooks = self.hooks(top["hooks"])
        own = self.own_phases(hooks)
        return Edition(
            type_name=type_name, title=self.text(top, "", "title"),
            min_players=players["min"], max_players=players["max"],
            money_public=self.flag(money, "money", "public"),
            starting_money=self.whole(money, "money", "starting"),
            units=units, start_units=start_units,
            strongholds=supply["strongholds"], mills=supply["mills"], siege_engines=supply["siege_engines"],
            diplomacy_pawns=supply["diplomacy_pawns"], captive_markers=supply["captive_markers"],
            mills_per_town=limits["mills_per_town"], lords_per_family=limits["lords_per_family"],
            new_units_per_town=limits["new_units_per_town"], fief_titles_per_lord=limits["fief_titles_per_lord"],
            steps_per_round=limits["steps_per_round"],
            prices=self.numbers(top["prices"], "prices", _PRICES),
            income=self.numbers(top["income"], "income", _INCOME),
            hand_limit=cards["hand_limit"], draws=cards["draws"], disaster_track=cards["disaster_track"],
            deck=self.deck(top["deck"]), victory=self.victory(top["victory"], players["min"], players["max"]),
            round=(rnd := self.phases(top, "round", PHASES + own)),
            not_in_first_round=self.first_round(top, rnd),
            options=self.options(top["options"]), hooks=hooks)

    def units(self, data: Any) -> dict[str, Unit]:
        found = self.mapping(data, "units", None)
        if not found:
            raise self.fail("units", "names no unit type", "list each unit pawn type with its price, "
                            "combat_points and pool")
        out = {}
        for kind in found:
            key = f"units.{kind}"
            nums = self.numbers(found[kind], key, ("price", "combat_points", "pool"))
            out[str(kind)] = Unit(nums["price"], nums["combat_points"], nums["pool"])
        return out

    def deck(self, data: Any) -> Deck:
        found = self.mapping(data, "deck", ("lords", "women", "surprise_characters", "fortune", "disaster"))
        deck = Deck(self.whole(found, "deck", "lords", 1), self.whole(found, "deck", "women"),
                    self.counts(found["surprise_characters"], "deck.surprise_characters", 1),
                    self.counts(found["fortune"], "deck.fortune", 1),
                    self.counts(found["disaster"], "deck.disaster", 1))
        if deck.women > deck.lords:
            raise self.fail("deck.women", f"{deck.women} women among {deck.lords} lords",
                            "women are counted among the lords: at most `lords`")
        return deck

    def victory(self, data: Any, least: int, most: int) -> Victory:
        """The victory rule; its player counts among the edition's (``least`` to ``most``)."""
        keys = ("lone", "alliance", "alliance_players", "married_lone_players", "from_round")
        found = self.mapping(data, "victory", keys)
        for name in ("alliance_players", "married_lone_players"):
            for count in self.whole_list(found, "victory", name):
                if not least <= count <= most:
                    raise self.fail(f"victory.{name}", f"{count} players is outside `players` ({least} to {most})",
                                    "list only player counts the edition is played by")
        return Victory(self.whole(found, "victory", "lone", 1), self.whole(found, "victory", "alliance", 1),
                       self.whole_list(found, "victory", "alliance_players"),
                       self.whole_list(found, "victory", "married_lone_players"),
                       self.whole(found, "victory", "from_round", 1))

    def options(self, data: Any) -> tuple[OptionSpec, ...]:
        if not isinstance(data, list):
            raise self.fail("options", f"must be a list, not {_kind(data)}",
                            "write one `- {name: NAME, default: false, text: \"...\"}` line per option")
        out = []
        for n, entry in enumerate(data, 1):
            key = f"options[{n}]"
            found = self.mapping(entry, key, ("name", "default", "text"))
            out.append(OptionSpec(self.text(found, key, "name"), self.text(found, key, "text"),
                                  self.flag(found, key, "default")))
        names = [o.name for o in out]
        if len(set(names)) != len(names) or "board" in names:
            raise self.fail("options", "names an option twice, or `board` (the core's own option)",
                            "name each option once")
        return tuple(out)

    def hooks(self, value: Any) -> Hooks:
        if not isinstance(value, str) or not value.strip():
            raise self.fail("hooks", f"must be a module path, not {_kind(value)}",
                            "write the module of the edition's hooks, e.g. `pbem.games.fief_france.hooks`")
        try:
            module = importlib.import_module(value)
        except ImportError as exc:
            raise self.fail("hooks", f"cannot import {value} ({exc})",
                            "name a module that defines `HOOKS = Hooks(...)` (pbem/games/fief/hooks.py)") from None
        hooks = getattr(module, "HOOKS", None)
        if not isinstance(hooks, Hooks):
            raise self.fail("hooks", f"{value} defines no `HOOKS` of type Hooks",
                            "add `HOOKS = Hooks(...)` to it (pbem/games/fief/hooks.py)")
        return hooks


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"a {'list' if isinstance(value, list) else 'mapping' if isinstance(value, dict) else type(value).__name__}"
