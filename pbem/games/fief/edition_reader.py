"""The reader of a Fief edition record (games/<edition>/edition.yaml; pbem/games/fief/edition.py
holds the record's ``Edition`` and reads a file through ``read_record``): each section checked
where it is read, a missing or unknown key, a text where a number belongs, a number out of range,
an unknown phase, an unknown unit type or hooks that cannot be imported refused with the file,
the key and the fix (``EditionError``). The edition's own keys, which only its code reads, are
declared by its hooks (``Hooks.record_keys``) with the shape their values must have.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Mapping

from pbem.games.fief.hooks import Hooks
from pbem.orders.reading import suggest
from pbem.rules.api import OptionSpec

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
    """One unit pawn type (4.3, 6.2.3.1, A.1) and how the reports, the orders and the map name it."""

    price: int
    combat_points: int
    pool: int       # the most pawns of the type a family can have on the board
    name: str = ""      # one pawn, as a report writes it: "man-at-arms"
    plural: str = ""    # several: "men-at-arms"
    letter: str = ""    # on the map: "M"


@dataclass(frozen=True)
class Deck:
    """The card counts the rulebook states, which the card data (cards.yaml) must match."""

    lords: int
    women: int
    # The character cards that are not lords (France's surprise characters, G.4.1: D'Arc and the
    # cardinals; England's abbesses, bishops, archbishops, mercenaries and burghers, 2.2).
    other_characters: dict[str, int]
    fortune: dict[str, int]
    disaster: dict[str, int]
    characters: int | None = None   # the whole character deck, when the rulebook states it (England 2.2)
    retainers: int = 0              # a deck of retainer cards (England 2.12); none in France


@dataclass(frozen=True)
class Victory:
    lone: int                            # VP of a lone victory (7.1)
    alliance: int                        # VP of two allied families together (7.2)
    alliance_players: tuple[int, ...]    # player counts in which an alliance victory counts (7.2)
    married_lone_players: tuple[int, ...]   # player counts in which a married family may win alone (7.1)
    from_round: int                      # the first round whose end checks victory (7)
    # The last round: after its end the most VP wins (England 8.5); None: play until a victory.
    last_round: int | None = None
    # Player counts in which families may marry (England 9.0, 13.8: not at 3); None: every count.
    marriage_players: tuple[int, ...] | None = None
    fief_title_vp: int = 1               # VP per fief title (F 7, E 8.1)



# -- the schema -------------------------------------------------------------------------------
# Each section's keys the core reads: required, then optional (with a default in ``Edition``). A
# key of neither is the edition's own if its hooks declare it (``Hooks.record_keys``), else refused.
_TOP = ("title", "hooks", "players", "money", "units", "start", "supply", "limits", "prices", "income",
        "cards", "deck", "victory", "round", "not_in_first_round", "options")
_TOP_OPTIONAL = ("always_fog_of_war", "words", "sections", "rules_version")
# The record's `words:`: how the reports name the sea - in a sentence, where forces are, the map's
# legend of a sea route and of a harbor - the order-language page of the battle plan's words that
# the order form points to, the Cards form's line on the disasters' roll, and the report's
# heading of the board and name of a fief's chief town. France's are the
# defaults (5.3: its one off-shore area).
WORDS = {"sea": "the offshore area", "at_sea": "offshore", "map_sea": "by sea (harbor to offshore)",
         "map_harbor": "harbor: ships go offshore (5.3)", "battle_plan_doc": "docs/orders-fief-france-battle.md",
         "disasters_roll": "2.5: a d6 per card, 6 = false alarm",
         # the report's words (templates/fief/position.txt.j2, from the view's `words`)
         "board_heading": "THE BOARD, BY FIEF", "chief_town": "chief town",
         # what the forms and texts call a town, one and several (England: City, Cities)
         "town": "town", "towns": "towns",
         # the board's other words: a town's bishopric, its harbor, a fortified town, a unit pawn
         "district": "bishopric", "harbor": "harbor", "fortified_city": "city", "unit": "unit pawn"}
_WORDS = tuple(WORDS)
_PRICES = ("stronghold", "mill", "title_per_town", "ransom_base", "ransom_per_title")
_INCOME = ("town", "mill", "tallage_per_town", "queen", "plunder_per_mill")
_UNIT = ("price", "combat_points", "pool", "name", "plural", "letter")
_VICTORY = ("lone", "alliance", "alliance_players", "married_lone_players", "from_round")


def read_record(data: Any, where: str, type_name: str) -> dict[str, Any]:
    """The fields of an ``Edition`` read from an edition file's YAML (``where``: its path)."""
    return _Reader(where).edition(data, type_name)


class _Reader:
    """Reads the YAML of one edition, each value checked where it is read."""

    def __init__(self, where: str):
        self.where = where
        self.own: Mapping[str, Any] = {}       # the hooks' own keys (Hooks.record_keys)
        self.extra: dict[str, Any] = {}        # their values as read

    def fail(self, key: str, problem: str, fix: str) -> EditionError:
        return EditionError(f"{self.where}: `{key}`: {problem}; {fix}")

    def mapping(self, data: Any, key: str, keys: tuple[str, ...] | None,
                optional: tuple[str, ...] = ()) -> dict[str, Any]:
        """A mapping; with ``keys``, exactly those keys, besides any of ``optional`` and the
        edition's own keys of this section (its hooks' ``record_keys``), which are checked and
        kept in ``extra`` (and left out of the mapping returned)."""
        if not isinstance(data, dict):
            raise self.fail(key or "(the file)", f"must be a mapping, not {_kind(data)}",
                            f"write `{keys[0] if keys else 'NAME'}: ...` lines under it")
        if keys is None:
            return data
        known = keys + optional
        found = {}
        for name, value in data.items():
            full = _join(key, str(name))
            if name in known:
                found[name] = value
            elif full in self.own:
                self.extra[full] = self.shaped(value, full, self.own[full])
            else:
                own = tuple(k.rsplit(".", 1)[-1] for k in self.own if k.rpartition(".")[0] == key)
                raise self.fail(full, "unknown key", suggest(str(name), known + own)
                                + " (an edition's own key is declared by its hooks' `record_keys`)")
        for name in keys:
            if name not in data:
                raise self.fail(_join(key, name), "missing",
                                f"add `{name}:` (see games/fief_france/{EDITION_FILE})")
        return found

    def shaped(self, value: Any, key: str, shape: Any) -> Any:
        """An edition's own value checked against its declared shape (``Hooks.record_keys``):
        ``int`` a whole number, ``bool``, ``str``, ``("a", "b")`` one of those words, ``[SHAPE]`` a
        list, ``{NAME: SHAPE}`` a mapping of exactly those keys, ``{"*": SHAPE}`` a mapping of any
        keys."""
        if isinstance(shape, tuple):
            if value not in shape:
                raise self.fail(key, f"{value!r} is not one of {', '.join(shape)}", suggest(str(value), shape))
            return value
        if shape is bool:
            return self.flag({key: value}, "", key)
        if shape is int:
            return self.whole({key: value}, "", key)
        if shape is str:
            return self.text({key: value}, "", key)
        if isinstance(shape, list):
            if not isinstance(value, list):
                raise self.fail(key, f"must be a list, not {_kind(value)}", "write e.g. `[1, 2]`")
            return [self.shaped(v, key, shape[0]) for v in value]
        if "*" in shape:
            found = self.mapping(value, key, None)
            return {name: self.shaped(v, _join(key, str(name)), shape["*"]) for name, v in found.items()}
        found = self.mapping(value, key, tuple(shape))
        return {name: self.shaped(found[name], _join(key, name), shape[name]) for name in shape}

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

    def numbers(self, data: Any, key: str, names: tuple[str, ...], least: int = 0,
                optional: tuple[str, ...] = (), other: tuple[str, ...] = ()) -> dict[str, Any]:
        """The section ``key`` (its value ``data``): ``names``, each a whole number (at least
        ``least``), and those of ``optional`` given; ``other`` optional keys read by the caller."""
        found = self.mapping(data, key, names, optional + other)
        return {**{name: self.whole(found, key, name, least) for name in names + optional if name in found},
                **{name: found[name] for name in other if name in found}}

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
    def edition(self, data: Any, type_name: str) -> dict[str, Any]:
        """The fields of the record's ``Edition`` (edition.py)."""
        if isinstance(data, dict) and "hooks" in data:
            hooks = self.hooks(data["hooks"])   # first: they declare the edition's own keys
            self.own = hooks.record_keys
        top = self.mapping(data, "", _TOP, _TOP_OPTIONAL)
        hooks = self.hooks(top["hooks"])
        players = self.mapping(top["players"], "players", ("min", "max"), ("families_per_player",))
        least, most = self.whole(players, "players", "min", 1), self.whole(players, "players", "max", 1)
        if least > most:
            raise self.fail("players", f"min {least} is more than max {most}",
                            "swap them, or correct the one that is wrong")
        families = None
        if "families_per_player" in players:
            families = {int(n): c for n, c in self.counts(players["families_per_player"],
                                                          "players.families_per_player", 1).items()}
            if set(families) != set(range(least, most + 1)):
                raise self.fail("players.families_per_player", "must name every player count from min to max",
                                f"write one `N: FAMILIES` line for each of {least} to {most}")
        money = self.mapping(top["money"], "money", ("starting", "public"), ("unit", "plural_always"))
        words = self.mapping(top.get("words", {}), "words", (), _WORDS)
        sections = self.mapping(top.get("sections", {}), "sections", None)
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
        supply = self.numbers(top["supply"], "supply", ("strongholds", "mills", "siege_engines"), 0,
                              ("diplomacy_pawns", "captive_markers"))
        limits = self.numbers(top["limits"], "limits", ("mills_per_town", "lords_per_family", "new_units_per_town",
                                                        "fief_titles_per_lord", "steps_per_round"), 1,
                              ("buildings_per_town",))
        cards = self.numbers(top["cards"], "cards", ("hand_limit", "draws", "disaster_track"), 0,
                             ("character_draws",), ("two_player",))
        two_player = None
        if "two_player" in cards:
            two_player = self.numbers(cards.pop("two_player"), "cards.two_player",
                                      ("hand_limit", "draws", "character_draws"))
        own = self.own_phases(hooks)
        prices = self.numbers(top["prices"], "prices", _PRICES, 0, ("cardinal_title",))
        if hooks.cardinals and "cardinal_title" not in prices:   # 4.5: the hooks sell the title
            raise self.fail("prices.cardinal_title", "missing: the edition's hooks sell a cardinal title (4.5)",
                            "add `cardinal_title:` under `prices:`")
        return dict(
            type_name=type_name, title=self.text(top, "", "title"),
            min_players=least, max_players=most, families_per_player=families,
            money_public=self.flag(money, "money", "public"),
            starting_money=self.whole(money, "money", "starting"),
            money_unit=self.text(money, "money", "unit") if "unit" in money else "denier",
            money_plural_always=self.flag(money, "money", "plural_always") if "plural_always" in money else False,
            words={**WORDS, **{name: self.text(words, "words", name) for name in words}},
            sections=self.sections(sections),
            units=units, start_units=start_units,
            strongholds=supply["strongholds"], mills=supply["mills"], siege_engines=supply["siege_engines"],
            diplomacy_pawns=supply.get("diplomacy_pawns", 0), captive_markers=supply.get("captive_markers"),
            mills_per_town=limits["mills_per_town"], lords_per_family=limits["lords_per_family"],
            new_units_per_town=limits["new_units_per_town"], fief_titles_per_lord=limits["fief_titles_per_lord"],
            steps_per_round=limits["steps_per_round"], buildings_per_town=limits.get("buildings_per_town", 1),
            prices=prices,
            income=self.numbers(top["income"], "income", _INCOME),
            hand_limit=cards["hand_limit"], draws=cards["draws"], disaster_track=cards["disaster_track"],
            character_draws=cards.get("character_draws", 1), two_player_cards=two_player,
            deck=self.deck(top["deck"]), victory=self.victory(top["victory"], least, most),
            round=(rnd := self.phases(top, "round", PHASES + own)),
            not_in_first_round=self.first_round(top, rnd),
            options=self.options(top["options"]), hooks=hooks, extra=dict(self.extra),
            always_fog_of_war=self.flag(top, "", "always_fog_of_war") if "always_fog_of_war" in top else False,
            rules_version=self.whole(top, "", "rules_version", 1) if "rules_version" in top else None)

    def sections(self, found: dict[Any, Any]) -> dict[str, str]:
        """`sections:` France's section as the core's texts cite it -> this edition's, both quoted
        ("2.2": "2.0"): unquoted, YAML would read 2.10 as the number 2.1."""
        for name in found:
            if not isinstance(name, str):
                raise self.fail(f"sections.{name}", f"a section must be quoted, not the {_kind(name)} {name!r}",
                                f'write "{name}": ...')
        # "": the edition's rulebook has no such rule, the core's text cites nothing there
        return {name: "" if found[name] == "" else self.text(found, "sections", name) for name in found}

    def units(self, data: Any) -> dict[str, Unit]:
        found = self.mapping(data, "units", None)
        if not found:
            raise self.fail("units", "names no unit type", "list each unit pawn type with its price, "
                            "combat_points, pool, name, plural and letter")
        out = {}
        for kind in found:
            key = f"units.{kind}"
            entry = self.mapping(found[kind], key, _UNIT)
            nums = {n: self.whole(entry, key, n) for n in ("price", "combat_points", "pool")}
            out[str(kind)] = Unit(nums["price"], nums["combat_points"], nums["pool"], self.text(entry, key, "name"),
                                  self.text(entry, key, "plural"), self.text(entry, key, "letter"))
        letters = [u.letter for u in out.values()]
        if len(set(letters)) != len(letters):
            raise self.fail("units", "two unit types share a map letter", "give each unit type its own `letter`")
        return out

    def deck(self, data: Any) -> Deck:
        found = self.mapping(data, "deck", ("lords", "women", "other_characters", "fortune", "disaster"),
                             ("characters", "retainers"))
        deck = Deck(self.whole(found, "deck", "lords", 1), self.whole(found, "deck", "women"),
                    self.counts(found["other_characters"], "deck.other_characters", 1),
                    self.counts(found["fortune"], "deck.fortune", 1),
                    self.counts(found["disaster"], "deck.disaster", 1),
                    self.whole(found, "deck", "characters", 1) if "characters" in found else None,
                    self.whole(found, "deck", "retainers") if "retainers" in found else 0)
        if deck.women > deck.lords:
            raise self.fail("deck.women", f"{deck.women} women among {deck.lords} lords",
                            "women are counted among the lords: at most `lords`")
        if deck.characters is not None and deck.characters != deck.lords + sum(deck.other_characters.values()):
            raise self.fail("deck.characters", f"{deck.characters} is not the {deck.lords} lords and the "
                            f"{sum(deck.other_characters.values())} other characters",
                            "correct the one that is wrong")
        return deck

    def victory(self, data: Any, least: int, most: int) -> Victory:
        """The victory rule; its player counts among the edition's (``least`` to ``most``)."""
        found = self.mapping(data, "victory", _VICTORY, ("last_round", "marriage_players", "fief_title_vp"))
        counts = {}
        for name in ("alliance_players", "married_lone_players", "marriage_players"):
            if name not in found:
                continue
            counts[name] = self.whole_list(found, "victory", name)
            for count in counts[name]:
                if not least <= count <= most:
                    raise self.fail(f"victory.{name}", f"{count} players is outside `players` ({least} to {most})",
                                    "list only player counts the edition is played by")
        first = self.whole(found, "victory", "from_round", 1)
        last = self.whole(found, "victory", "last_round", first) if "last_round" in found else None
        return Victory(self.whole(found, "victory", "lone", 1), self.whole(found, "victory", "alliance", 1),
                       counts["alliance_players"], counts["married_lone_players"], first, last,
                       counts.get("marriage_players"),
                       self.whole(found, "victory", "fief_title_vp") if "fief_title_vp" in found else 1)

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
