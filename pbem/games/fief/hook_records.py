"""The records of an edition's own parts of a round, for the hooks (hooks.py ``Hooks``): its sea
moves (``Naval``) and movement (``Movement``), its battle (``BattleRules``), the disasters met on
the move (``Weather``), its incomes (``IncomeRules``) and its own fortune and opportunity cards
(``CardPlays``); and the tithe's and uprisings' defaults (``bishop_collects``, ``Calmer``). Each
field says its signature and the rulebook section it answers; an edition without the record has
the core's rule (docs/adding-a-game.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

if TYPE_CHECKING:
    from pbem.games.fief.battle.context import Battle
    from pbem.games.fief.battle.plan import BattleSetup
    from pbem.games.fief.board import Board
    from pbem.games.fief.state import FiefState, Lord
    from pbem.rules.api import Event
    from pbem.rules.rng import Rng

@dataclass(frozen=True)
class Naval:
    """An edition's naval steps between its harbors and the board's seas (France: the off-shore
    area, 5.3). The core reads a sea in a path (``Board.seas``) only for an edition that has them."""

    # (board, from, to, the step's index, the path's length, where the move started) -> why a
    # movement mail's step to or from a sea is not allowed (problem, fix), or None.
    path_step: Callable[["Board", str, str, int, int, str], tuple[str, str] | None]
    # (board, the army made a cavalcade, from, to) -> why the step to or from a sea stops the
    # move as it is resolved, or None.
    blocked: Callable[["Board", bool, str, str], str | None]
    # The movement order form's lines on naval steps, and what it adds to a harbor's roads.
    template: tuple[str, ...]
    from_harbor: str


@dataclass(frozen=True)
class Movement:
    """An edition's own movement on the core's (England: its six seas, Sherwood's bandit paths,
    the permission to enter a fortress, the royal move; E 5.0-5.5, 13.4)."""

    # (state, board, rng, cavalcade, before_move) -> the phase's run, a subclass of the core's
    # ``MovementRun`` (movement/phase.py), made once per Movement Phase.
    run: Callable[..., Any]
    # (board, the move's start, the path as mailed, the move's `keys` that are yes) -> (the
    # canonical path, the Moves it costs), or (the path's index, problem, fix).
    read_path: Callable[["Board", str, list[Any], frozenset[str]],
                        "tuple[list[str], int] | tuple[int, str, str]"]
    # Yes/no keys a move order may carry beside the core's (England: `royal`, R50).
    keys: tuple[str, ...] = ()
    # The movement order form's lines on the edition's own moves.
    template: tuple[str, ...] = ()
    # The card played on a step (movement/underground.py ``MoveCard``; England's PASSAGE, 10.2),
    # None: the core's underground card (G.4.2.2).
    card: Any = None
    # (view, the nobles of a move) -> the Moves they may take beyond the edition's (England: a
    # retainer's `extra_moves`, 2.12), or None.
    extra_moves: Callable[[dict, list[str]], int] | None = None
    # Unit kinds that never move (England's trebuchets, 7.2: "can not move from the City they were
    # built in"), and the section to cite: a move naming them is refused (rules version 3 on).
    fixed_units: tuple[str, ...] = ()
    fixed_section: str = ""


# G.4.2.1: who tries to calm an uprising card: (the lord, the deniers he pays, the title he calms
# as: "bishop" risks his life on a failed roll, a paid title does not).
Calmer = tuple["Lord", int, str]


def bishop_collects(lord: "Lord", target: str, number: int, governed: set[int]) -> int | None:
    """G.3.3.2: only the bishop of a bishopric collects its tithe (an edition without other
    church titles collecting it)."""
    return 0 if target != "all" and lord.bishopric == number else None


@dataclass(frozen=True)
class BattleVerb:
    """An edition's own Battle Phase order naming a city, fought in the player's turn among their
    declared battles, in the edition's `battle_order` (England: `attack_invaders: CITY`, a battle
    against the Invaders there, 6.8, 7.0). Its canonical form is ``{"verb", "town", ...}`` in the
    mail's `own` list, written back as `- VERB: TOWN` with its other keys."""

    keys: tuple[str, ...]   # the order's keys, its verb first
    # (view, board, me, the mail's item, the city it names, line, problems) -> the canonical order's
    # other keys (a dict, often empty), or None after adding a problem.
    check: Callable[[dict, "Board", str, dict, str, "int | None", Any], "dict | None"]
    # (state, board, player, the canonical order, rng) -> events; what no longer holds is an event.
    fight: Callable[["FiefState", "Board", str, dict, "Rng"], list["Event"]]
    # (view, player) -> the Battle Phase order form's lines for it.
    template: Callable[[dict, str], list[str]] = lambda view, player: []


@dataclass(frozen=True)
class BattleRules:
    """An edition's own battle (England: projectiles then melee every round, E 7.1-7.5; sieges
    with trebuchets, 7.9; pillage, 7.10), run by the core's engine and Battle Phase on the core's
    sides, plans, coalitions, battle order and context (battle/context.py ``Battle``). Without it
    an edition fights France's battle (battle/engine.py ``STEPS``, battle/after.py ``settle``,
    battle/siege.py, battle/plunder.py)."""

    # Each (section, what, step(Battle)), run in order until the battle has ended.
    steps: tuple[tuple[str, str, Callable[["Battle"], None]], ...]
    # What a battle leaves behind: captives freed, control, engines taken (France: after.settle).
    settle: Callable[["Battle"], None]
    # Why a declared battle is not fought as it stands (None: it is), once its sides are known
    # (France: no battle die after the fortress penalty, 6.4.1 example 2).
    declarable: Callable[["FiefState", "Board", "BattleSetup"], str | None]
    # After the battles, in turn order: (state, board, orders, {player: towns where a stopped
    # attack becomes a siege}) -> events (France: 6.4.1's siege engine markers, battle/siege.py).
    sieges: Callable[["FiefState", "Board", Mapping[str, Any], Mapping[str, list[str]]], list["Event"]]
    # Then (state, board, orders) -> events: plunder (France 6.5, battle/plunder.py).
    plunder: Callable[["FiefState", "Board", Mapping[str, Any]], list["Event"]]
    # (board, a player's declared battles) -> the order they are fought in (England R1: Region
    # Number order, then the board's order of cities). None: the order of the mail.
    battle_order: Callable[["Board", list], list] | None = None
    # (state, town, the attacking families, the defending families) -> (the attacking families
    # kept, events): confederates the edition bars from the attack once the sides are formed
    # (England 13.3: a Lord of the Order of the Garter joins no attack on the Sovereign). None:
    # every confederate accepted fights.
    coalition: Callable[["FiefState", str, list[str], list[str]], tuple[list[str], list["Event"]]] | None = None
    # (a player's view, the player, the family attacked, town) -> (why the mail's `attack` is refused,
    # how to fix it), or None (England 13.3: a Lord of the Garter attacking the Sovereign). None: no
    # such check.
    attack_check: Callable[[dict, str, str, str], tuple[str, str] | None] | None = None
    # (state, town, the cavalcade's lords, the family refusing it) -> why the cavalcade is not fought
    # (England 13.3: a Lord of the Garter rides against the Sovereign), or None. None: no such bar.
    cavalcade_barred: Callable[["FiefState", str, list[str], str], str | None] | None = None
    # The edition's own battle-plan words, each with its checker (view, me, value, line,
    # problems) -> the canonical value (battle/plan_orders.py ``check_plan``).
    plan_words: Mapping[str, Callable[[dict, str, Any, "int | None", Any], Any]] = field(default_factory=dict)
    # (a family's view, its canonical battle plan) -> the money the plan's own words may spend as a
    # battle begins (England 11.1: crossbowmen hired, R159); at two players the next family of the
    # mail is checked against the purse after it (13.7). None: plans spend nothing.
    plan_spends: Callable[[dict, Mapping[str, Any]], int] | None = None
    # The edition's own keys of a `plunder:` order (England: `abbey: NOBLE`, the Abbey pillaged,
    # 2.13, 7.10), each with its checker (view, me, the town, value, line, problems) -> the canonical
    # value, kept in the order's canonical form under its key; with one of them given, a town
    # without a mill may be plundered and `mills: 0` spares its mill.
    plunder_keys: Mapping[str, Callable[[dict, str, str, Any, "int | None", Any], Any]] = field(
        default_factory=dict)
    # The edition's own Battle Phase orders naming a city, by verb (``BattleVerb``; England:
    # `attack_invaders:`). Without them the core's only.
    verbs: Mapping[str, BattleVerb] = field(default_factory=dict)


@dataclass(frozen=True)
class Weather:
    """An edition's own disasters met by moves and battles (England: STORMS and PLAGUE by Region,
    land and sea, 2.5), in place of the core's bad weather and plague by bishopric (G.2.1.3, G.2.2)."""

    # (state, board, from, to) -> why a step by road or sea is refused, or None.
    blocks: Callable[["FiefState", "Board", str, str], str | None]
    # (board, the board's cards as (card, target) pairs, town) -> why no battle is fought there.
    forbids_battle: Callable[["Board", Iterable[tuple[str, str]], str], str | None]
    # (state, board, rng, from, to, family, lords, pawn ids) -> events: an army entering a city
    # (its forces already there); whom a plague strikes is gone from the state afterwards.
    enter: Callable[["FiefState", "Board", "Rng", str, str, str, list[str], list[str]], list["Event"]]
    # How to fight anyway, for the error of a battle order the weather forbids.
    battle_hint: str = "remove this order"


@dataclass(frozen=True)
class IncomeRules:
    """How an edition's towns and mills pay at Income and which cards leave after it, where they
    differ from the core's (England: a Tallage takes its cities' 1 shilling, R17; the fortune
    bonuses and FAMINE lie on Regions, 2.5, 2.7; the TAX card stays to the round's end, 2.8)."""

    # (state, board, town) -> the income of a controlled town that is not besieged (3).
    town: Callable[["FiefState", "Board", str], int]
    # (state, board, town) -> the income of one mill of a town that is not besieged (3), 0 if none.
    mill: Callable[["FiefState", "Board", str], int]
    # The cards that leave the board once every income is collected (3).
    leave_after: tuple[str, ...]


@dataclass(frozen=True)
class StandingTriggers:
    """The standing `surprise:` triggers an edition offers (the core's are France's, G.4:
    surprise/triggers.py), for a game's rules version (England R157: from version 3)."""

    kinds: tuple[str, ...]   # the trigger kinds offered; the others are refused at the mail
    offered: str             # what the edition offers instead, the refusal's fix
    # an `at_phase_start` trigger's `play:` is one of the edition's own cards (its ``CardPlays``
    # at-once forms, checked and carried out by its rules), not a core surprise card
    own_plays: bool = False


@dataclass(frozen=True)
class CardPlays:
    """An edition's own fortune and opportunity cards, read and played by its own rules (England:
    BOUNTIFUL HARVEST, GOOD WEATHER and TAX on a Region, 2.7-2.8; the Opportunity cards,
    10.0-10.5), in round-N/cards-play and, for those played at any time, in a mail's `at_once:`."""

    cards: tuple[str, ...]     # card ids the edition plays itself in round-N/cards-play
    at_once: tuple[str, ...]   # of them, those also played at once (R41 for England)
    # (view, board, player, card, the `play:` item, its line, problems, the plays of the same list
    # accepted before it, in the order written) -> the canonical play (with its "card"), or None;
    # the edition checks the hand itself.
    check: Callable[[dict, "Board", str, str, Any, "int | None", Any, Sequence[Mapping[str, Any]]], "dict | None"]
    # (state, board, player, the canonical play, rng) -> events; what no longer holds is an event.
    play: Callable[["FiefState", "Board", str, Mapping[str, Any], "Rng"], list["Event"]]
    # card -> the lines of the at-once template that show it: (the YAML, the comment).
    template: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # (view, the canonical play) -> the `play:` item that ``check`` reads back to it (the judge's
    # echo, echo/orders.py); None: the core's forms (France's).
    echo: Callable[[dict, Mapping[str, Any]], dict] | None = None
    # (view, board, player, card, the `play:` item, its line, problems) -> the canonical play of an
    # opportunity card in the cards-draw mail, carried out by ``play`` in the player's Discard
    # action (England 2.0, l.105, FAQ l.867: "instead of discarding it"), or None; without it that
    # mail holds no `play:`.
    discard_check: Callable[[dict, "Board", str, str, Any, "int | None", Any], "dict | None"] | None = None
    # (the canonical play) -> the cards it takes from the hand (a REBELLION may take several).
    hand_cards: Callable[[Mapping[str, Any]], list[str]] = lambda play: [play["card"]]
