"""The hooks of a Fief edition: the rules one edition has and another has not, as code in the
edition's own package (``HOOKS = Hooks(...)`` in ``pbem/games/fief_<edition>/hooks.py``, named by
the edition record's ``hooks:`` key; docs/adding-a-game.md). The core calls them where the rule
applies; a hook with a default is a rule an edition may go without (the default: no such rule).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from pbem.games.fief.hook_records import (  # noqa: F401 (re-exported)
    BattleRules, BattleVerb, Calmer, CardPlays, IncomeRules, Movement, Naval, StandingTriggers, Weather,
    bishop_collects)

if TYPE_CHECKING:
    from pbem.orders.reading import Problems
    from pbem.games.fief.board import Board
    from pbem.games.fief.cards.deck import CardSet
    from pbem.games.fief.facts import BoardFacts
    from pbem.games.fief.round import Step
    from pbem.games.fief.state import BoardEffect, FiefState, Lord, Pawn
    from pbem.rules.api import Event
    from pbem.rules.rng import Rng


@dataclass(frozen=True)
class Elections:
    """The ballots of an edition's Hear Ye phase (France: bishops, pope, king, 1.2-1.5). The core
    runs the two mails (candidates, then sealed votes), reveals the markers and tallies
    (hear_ye/phase.py); the edition says which ballots, who stands, who votes with what weight,
    who wins and what winning does. A ballot is an id (France: "bishop 2", "pope", "king")."""

    # (a player's view, a word folded by pbem.orders.reading.fold) -> the ballot id it names, or
    # None; and how ballots are named, for the error of a word that names none.
    ballot_named: Callable[[dict[str, Any], str], str | None]
    ballot_names: str
    # Acts before the candidacies, from the first mail's orders (France: the pope's, 1.1).
    before: Callable[["FiefState", Mapping[str, Any]], list["Event"]]
    # The ballots open to candidacies this phase, in the order they are counted.
    possible: Callable[["FiefState", "Board"], list[str]]
    # Why a lord may not stand in a ballot now (None: he may), for mails and at the count.
    eligible: Callable[["Lord", str], str | None]
    # (orders, player, lord, ballot): a candidacy taken although not eligible yet, checked again
    # at the count (France 1.4.1: a bishop candidate of this phase for pope).
    also_stands: Callable[[Mapping[str, Any], str, str, str], bool]
    # Why a ballot with candidates is not held when its turn comes (None: it is).
    not_held: Callable[["FiefState", str], str | None]
    # (state, board, ballot, elected this phase) -> (votes per family, voting lords per family)
    weights: Callable[["FiefState", "Board", str, set[str]], tuple[dict[str, int], dict[str, list["Lord"]]]]
    # (state, ballot, tally, markers per family, voting lords) -> (the elected or None, why)
    winner: Callable[["FiefState", str, dict[str, int], dict[str, dict], dict[str, list["Lord"]]],
                     tuple[str | None, str]]
    # (state, ballot, the elected lord, why) -> events: the title given.
    elect: Callable[["FiefState", str, "Lord", str], list["Event"]]
    # (state, ballot, the votes mail's orders) -> events after a ballot (France: the new pope, 1.4).
    after: Callable[["FiefState", str, Mapping[str, Any]], list["Event"]]
    # Whether a player may name a lord of another family as a candidate (England 9.1: "any
    # non-Clergy Lord", R20); France: only one's own (1.2).
    any_family: bool = False


@dataclass(frozen=True)
class HearYeOrders:
    """An edition's own orders in the two Hear Ye mails besides the core's marriages, candidacies
    and votes (France: the pope's excommunications and the annulments, 1.1, 1.4, D.2.3). They come
    first in the first mail and after the votes in the second; what they do is resolved by the
    ``Elections`` hooks ``before`` and ``after``."""

    # The first mail: verb -> its keys; a new copy of the canonical orders' entries when nothing
    # is ordered.
    first_verbs: Mapping[str, tuple[str, ...]]
    first_defaults: Callable[[], dict[str, Any]]
    # (view, board, player, verb, item, the canonical orders so far, problems): reads one order of
    # the first mail into the canonical orders, or adds why not.
    check_first: Callable[[dict[str, Any], "Board", str, str, Any, dict[str, Any], "Problems"], None]
    # The second mail: its verbs, the canonical entries, and (view, player, verb, item, canonical,
    # problems) reading one order.
    vote_verbs: tuple[str, ...]
    vote_defaults: Callable[[], dict[str, Any]]
    check_vote: Callable[[dict[str, Any], str, str, Any, dict[str, Any], "Problems"], None]
    # canonical orders -> the order items written back (echo), in each mail.
    echo_first: Callable[[Mapping[str, Any]], list[dict[str, Any]]]
    echo_votes: Callable[[Mapping[str, Any]], list[dict[str, Any]]]
    # The order forms: the acts as the first form's heading names them; (view, player) -> what
    # they default to (added to "no marriage, no candidacy"), the lines before the marriage's and
    # after them; (view, player) -> the second form's lines after the votes'.
    heading: str
    template_first: Callable[[dict[str, Any], str], tuple[str, list[str], list[str]]]
    template_votes: Callable[[dict[str, Any], str], list[str]]


@dataclass(frozen=True)
class TitleBonus:
    """What a lord's political title adds to the army he is in (France: D'Arc, G.4.1.1)."""

    steps: int      # steps a round for the lord and every force that joins him for a step
    dice: int       # battle dice added to his side's roll, when it rolls any
    title: str      # the title as a mail writes it: "D'Arc"
    section: str    # the rulebook section: "G.4.1.1"


@dataclass(frozen=True)
class LordCardKey:
    """A yes/no key of the order playing a lord card, the edition's own (France: `crown_prince:
    yes`, G.1.1); its canonical value (true/false) reaches the ``lord_played`` hook."""

    name: str
    section: str


@dataclass(frozen=True)
class DisasterStrike:
    """Where a disaster card revealed from the track strikes (2.5), as the edition's
    ``disaster_target`` hook says; ``target`` None: a false alarm, the card is discarded."""

    target: str | None        # the BoardEffect's target: a bishopric's number, a sea's name
    place: int | str          # what a plague strikes at once (G.2.1): a bishopric's number, a sea's name
    how: str                  # how it was chosen, opening the report's clause: "anne rolls 4: "
    where: str                # the place as the report names it: "bishopric Reims (4)"
    data: dict[str, Any]      # the event's data besides the card: {"roll": 4, "bishopric": 4}


def die_names_a_bishopric(state: "FiefState", board: "Board", name: str, dice_icon: bool,
                          rng: "Rng") -> DisasterStrike:
    """2.5: the first player's d6 names the bishopric struck; a roll naming none (France's 6, its
    board having 5) is a false alarm. The dice icon is not read: a card without it is the
    edition's rule (France: the offshore area)."""
    first = state.players[state.first_player]
    roll = rng.d6(f"disaster {name}: bishopric (2.5)")
    if roll not in board.bishoprics:
        return DisasterStrike(None, roll, f"{first} rolls a {roll}: ", "", {"roll": roll})
    return DisasterStrike(str(roll), roll, f"{first} rolls {roll}: ",
                          f"bishopric {board.bishoprics[roll].name} ({roll})", {"roll": roll, "bishopric": roll})


@dataclass(frozen=True)
class Character:
    """A surprise character card of the edition, played at once on a lord (G.4.1; France: D'Arc,
    G.4.1.1, and Cardinal, G.4.1.2). Once in effect it lies on the frieze until its lord leaves
    play; a card without effect is discarded (H.2)."""

    name: str       # the printed name: "D'Arc"
    # Why the card may not go on this lord (his fields by name: a view's lord, or ``vars(Lord)``),
    # or None; checked when a mail is read.
    problem: Callable[[Mapping[str, Any]], str | None]
    # (state, player, the canonical play) -> the event of a card the player cannot play now (it
    # stays in hand; France: the pope refuses a new cardinal, D.2.3), or None.
    refused: Callable[["FiefState", str, Mapping[str, Any]], "Event | None"]
    # (state, board, player, the canonical play) -> the events of its effect, or why it has none.
    effect: Callable[["FiefState", "Board", str, Mapping[str, Any]], "list[Event] | str"]
    # (view, board, player, card, the `play:` item, its line, problems) -> the canonical play, or
    # None; reads the whole order itself instead of the core's `on: LORD` (England's BISHOP names
    # a district, its MERCENARY no lord at all). Without it the core reads `on:` and ``problem``.
    read: Callable[[dict, "Board", str, str, dict, "int | None", Any], "dict | None"] | None = None
    # The effect puts the card where it lies (England: under the cleric, on the family board);
    # a card that cannot take effect then stays in hand. Without it: France's frieze (G.4.1).
    places_card: bool = False
    # (view, the canonical play) -> the `play:` item that ``read`` reads back to it (the judge's
    # echo, echo/orders.py); None: the core's `play: CARD` with `on: LORD`.
    echo: Callable[[dict, Mapping[str, Any]], dict] | None = None
    # The lines a form shows under its `- play: CARD` (each `key: PLACEHOLDER` and why), the keys
    # ``read`` reads (England's BISHOP: `on:` and `district:`); None: the core's `on: LORD`.
    form: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class AtOnceVerb:
    """An edition's own action "at any time" (R41 for England), an item of a mail's `at_once:`
    list named by its verb."""

    # (view, player, the item, its line, problems) -> the canonical order, or None.
    check: Callable[[dict, str, dict, "int | None", Any], "dict | None"]
    # (state, board, player, the canonical order, rng) -> its events; what no longer holds is an
    # event, never a raise.
    act: Callable[["FiefState", "Board", str, dict, "Rng"], list["Event"]]
    # The lines of the at-once template that show it: (the YAML, the comment).
    template: tuple[tuple[str, str], ...] = ()
    # The phases (a view's `phase`) whose forms show it, the only ones it is done in (England's
    # Scorched Earth: the Purchase phase, 3.4); empty: every phase's.
    phases: tuple[str, ...] = ()


@dataclass(frozen=True)
class PurchaseVerb:
    """An edition's own order of the Purchase Phase mail (England: `construct: CITY`, paying for a
    siege's trebuchets under construction, 7.9), beside the core's (purchase/orders.py): done in the
    player's turn in the order written, judged by the same rule when the mail is read (on the
    player's view) and at resolution (on a view of the state as it is then), as the core's are."""

    keys: tuple[str, ...]   # the order's keys, its verb first
    # (view, board, the mail's item, problems) -> the canonical order (keyed by the verb as the mail
    # writes it, so that the echo writes it back as it is), or None after adding a problem.
    read: Callable[[dict, "Board", dict, "Problems"], dict | None]
    # (the family's books, purchase/books.py, the canonical order) -> why it cannot be done (a
    # ``Failure``), or None once done on the books (their shillings spent, their pools taken).
    try_order: Callable[[Any, dict], Any]
    # (state, board, player, the canonical order) -> events, once ``try_order`` passed at
    # resolution; the shillings are the books' (written back to the family after its purchases).
    act: Callable[["FiefState", "Board", str, dict], list["Event"]]
    # The order as the reports name it after "cannot" / "'s order": "to pay for 1 trebuchet at York".
    describe: Callable[[dict], str]
    # (view, board) -> the order form's lines for it (comments), where the player may order it.
    template: Callable[[dict, "Board"], list[str]] = lambda view, board: []


@dataclass(frozen=True)
class Guard:
    """A royal guard pawn type (France 1.5.5: the king's retinue knights, the queen's retinue
    sergeants): given for free in place of a unit pawn of the lord's army, moving only with a
    lord of its titles, adding 1 hit per battle round, replaced by that unit when its lord leaves."""

    titles: tuple[str, ...]   # the political titles it serves
    unit: str                 # the unit pawn it replaces, and is replaced by
    combat_points: int        # 6.2.3.1
    size: int                 # the most pawns given (France: 2, 1.5.5.1-2)
    word: str                 # one pawn, as the reports name it: "king's retinue knight"
    plural: str               # several: "king's retinue knights"


@dataclass(frozen=True)
class EditionSetup:
    """An edition's own Game Setup (England: two nobles a family, a Region each, X14), in place of
    the core's (A: a lord drawn, a starting town chosen; setup/rules.py)."""

    # (game type, options, players, board, cards, rng) -> (the state, in its "setup" phase or on,
    # and the events)
    new_game: Callable[[str, dict, Sequence[str], "Board", "CardSet", "Rng"], tuple["FiefState", list["Event"]]]
    step: "Step"   # the "setup" phase: its resolution, mail checker, default orders and template


@dataclass(frozen=True)
class Hooks:
    """The rules of an edition that are code. Each edition's package defines ``HOOKS``."""

    # What the rulebook states about the board, checked whenever board data is loaded (facts.py).
    board_facts: "BoardFacts"
    # 7: victory points a lord brings besides 1 per fief title (France: the king and the pope,
    # unless offshore).
    title_points: Callable[["FiefState", "Lord"], int]
    # 7.3: the tiebreak key of a candidate (one family, or an alliance): the highest wins.
    # (state, the candidate's families, towns controlled per family) -> a comparable tuple.
    tiebreak: Callable[["FiefState", tuple[str, ...], dict[str, int]], tuple]
    # 1: the Hear Ye phase's elections.
    elections: Elections
    # G.1: (state, player, lord, the canonical `play` order) -> events, once a lord card is
    # played and the lord is in the family (France: the crown prince, G.1.1).
    lord_played: Callable[["FiefState", str, str, Mapping[str, Any]], list["Event"]]
    # D.4: (state, the lord who left play) -> events: the titles that change hands with him
    # (France: the crown prince becomes king, D.3.3; the pope's excommunication lifted, D.2.3.1).
    after_elimination: Callable[["FiefState", "Lord"], list["Event"]]
    # G.4.1.1: political title -> what it adds to the steps and battle dice of its lord's army
    # (France: D'Arc, 3 steps and a 4th die). Without it no title adds anything.
    title_bonus: Mapping[str, TitleBonus] = field(default_factory=dict)
    # E: the edition's own phases (England: the Invaders phase, 6.0-6.13), each a round step
    # (pbem/games/fief/round.py ``Step``: its resolution, mail checker, default orders and
    # template) named in the record's `round:` beside the core's. France has none.
    phases: tuple["Step", ...] = ()
    # G.1: the yes/no keys a lord card's `play` order may carry besides `in:` (France:
    # `crown_prince`, G.1.1). Without them a lord card takes `in:` only.
    lord_card_keys: tuple[LordCardKey, ...] = ()
    # 5: the edition's own movement on the core's (England, E 5.0-5.5, 13.4). Without it the
    # core's: a path of towns, one step each, and ``naval`` for the seas.
    movement: Movement | None = None
    # 5.3: naval steps (France: the off-shore area). Without them no move reaches the board's
    # seas, and a disaster card without the dice icon (which strikes the sea, 2.5) is refused.
    naval: Naval | None = None
    # G.3.3.2: (the lord who asked for a tithe, its target: a bishopric number or "all", a
    # bishopric it reaches, the governed bishoprics) -> his rank among the claimants of that
    # bishopric's tithe (the lowest collects; ties by turn order), or None: he collects none
    # there. France: bishop > cardinal (on a governed bishopric) > pope (`all`, the papal tithe).
    tithe_rank: Callable[["Lord", str, int, set[int]], int | None] = bishop_collects
    # G.4.2.1: (state, the uprising's bishopric, the families raising it) -> who tries to calm
    # the next card, or None. Without it the bishop of the bishopric, as his family's
    # `calm_uprisings` policy says (surprise/uprising.py ``bishop_calms``); France: a cardinal
    # too, paying 3 deniers (D.2.2).
    uprising_calmer: Callable[["FiefState", int, frozenset[str]], Calmer | None] | None = None
    # G.4.1: the surprise character cards played on a lord, by card id (France: `darc`,
    # `cardinal`). Without them the deck's characters (if any) are kept in hand, never played.
    characters: Mapping[str, Character] = field(default_factory=dict)
    # G.4: (a player's view) -> the standing `surprise:` triggers the edition offers in that game
    # (``StandingTriggers``), or None for all the core's (England: from rules version 3, its
    # Opportunity cards at a phase's start, R157). Without it all the core's.
    standing_triggers: Callable[[Mapping[str, Any]], StandingTriggers | None] | None = None
    # 1.5.5: guard pawn kind -> its ``Guard`` (France: `kings_knight`, `queens_sergeant`). Without
    # it no title brings a guard.
    royal_guard: Mapping[str, Guard] = field(default_factory=dict)
    # 1.5.5: (state, a royal guard pawn, a lord's name) -> whether the pawn serves that lord, in
    # place of the guard's `titles` (England 13.1: each marker is given to one noble, and the
    # Prince Consort's holds no title). Without it a guard serves every lord of its titles.
    guard_serves: Callable[["FiefState", "Pawn", str], bool] | None = None
    # 5.2.4: the pawn kinds a cavalcade's army may hold besides its lords (England 5.2, 13.1: its
    # knights and the Royal Knights that never leave the King's side).
    cavalcade_kinds: tuple[str, ...] = ("knight",)
    # 1.1: (state, the two spouses) -> what a marriage brings besides the couple (France: the
    # king's spouse is queen, 1.1.2, 1.5.4); (state, a former spouse) -> what an annulment takes
    # (France: the queen's title, D.3.2); (lord) -> why he may not marry besides the core's
    # reasons (France: the D'Arc lord, G.4.1.1). Without them a marriage changes no title.
    married: Callable[["FiefState", "Lord", "Lord"], list["Event"]] | None = None
    unmarried: Callable[["FiefState", "Lord"], list["Event"]] | None = None
    marriage_blocker: Callable[["Lord"], str | None] | None = None
    # An edition's own at-once orders (England: hiring crossbowmen, Mata's exchange, relics):
    # verb -> its ``AtOnceVerb``, beside the core's `play:` and `transfer:` (at_once.py).
    at_once_verbs: Mapping[str, "AtOnceVerb"] = field(default_factory=dict)
    # 4.4: (a player's view, fief, its towns on the board) -> the towns a title purchase needs
    # (England 4.9, R19: the Royal Stronghold's City is no longer part of its Region). Without it
    # the board's.
    fief_towns: Callable[[dict[str, Any], str, tuple[str, ...]], tuple[str, ...]] | None = None
    # 3: (state, board, town, its controller, its Mills' income, bishopric -> the family taking
    # its tithe) -> [(family, shillings, "tithe" | why)]: who receives a town's Mill income
    # (England: an Abbey's city's Mill to its Abbess and not tithed, +1 a Mill next to an Abbey,
    # 2.13, 3.1, R18). Without it the controller, or the tithe's collector.
    mill_share: Callable[["FiefState", "Board", str, str | None, int, dict[int, str]],
                         list[tuple[str | None, int, str]]] | None = None
    # D.4: (state, the lord about to be eliminated) -> the events of his being spared (he stays in
    # play as he is), or None: he is eliminated (England 12.3: the Skull of Saint Caradoc).
    spared: Callable[["FiefState", str], list["Event"] | None] | None = None
    # Pawn kinds that are neither bought units (`units:`) nor royal guards: kind -> (one, several),
    # as the reports write them (England: the hired crossbowmen, 11.1). Without it none.
    other_pawns: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # 6.3: (state, the lord just taken captive) -> events (England 12.0: the relics they carried lie
    # in the city for another noble to recover). Without it nothing more happens.
    captured: Callable[["FiefState", "Lord"], list["Event"]] | None = None
    # 2.2 (England 2.0): (state, rng) -> events, before the draws of the Cards phase (England: the
    # Character Deck reshuffled after a cleric's death, 4.8, R71).
    before_draws: Callable[["FiefState", "Rng"], list["Event"]] | None = None
    # The edition record's keys that only the edition's own code reads (England: `invaders`,
    # `dice`, `supply.abbeys`, ...): dotted key -> the shape its value must have, checked on load
    # (edition_reader.py ``_Reader.shaped``: ``int``, ``bool``, ``str``, ``("word", ...)``, ``[SHAPE]``,
    # ``{NAME: SHAPE}``, ``{"*": SHAPE}``) and kept in ``Edition.extra``. Without them a key the core does not read
    # is refused.
    record_keys: Mapping[str, Any] = field(default_factory=dict)
    # A: (the board file's data, its path, the board facts, the game type) -> the Board, for an
    # edition whose board file has a shape of its own (England's regions, cities, districts and
    # seas: pbem/games/fief_england/board_loader.py), held to the facts (board.py ``check_board``).
    # Without it the core reads France's shape (board.py ``build_board``).
    board_loader: Callable[[Any, str, "BoardFacts", str], "Board"] | None = None
    # B: (the card file's data, its path, the game type) -> the CardSet, for an edition whose card
    # file has a shape of its own (England: pbem/games/fief_england/cards.py), checked against the
    # record's `deck:`. Without it the core reads France's shape (cards/deck.py).
    cards_loader: Callable[[Any, str, str], "CardSet"] | None = None
    # 8.1: (state, family) -> victory points the family holds besides its lords' titles (England:
    # the Relic VP marker, 12.0). Without it none.
    family_points: Callable[["FiefState", str], int] | None = None
    # A: the edition's own Game Setup (England: pbem/games/fief_england/setup.py). Without it the
    # core's (setup/rules.py: France's A.2-A.6).
    setup: EditionSetup | None = None
    # (state, board, the viewer or None for the game master) -> what the edition adds to a
    # player's view (England: the Region rolled at setup, 13.6), under keys the core's view
    # does not use; it must keep to the viewer's knowledge, like the core's view.
    view_parts: Callable[["FiefState", "Board", str | None], dict[str, Any]] | None = None
    # G.4.2.4: (a lord's fields by name: a view's lord, or ``vars(Lord)``) -> why the justice card
    # may not strike him for his titles (France: the king, the queen, regent or not, the crown
    # prince and the pope), or None. Without it no title protects a lord from justice.
    justice_immune: Callable[[Mapping[str, Any]], str | None] | None = None
    # 4.4: the political titles holding the privilege to offer a fief title once a round, first
    # the one that holds it when both are in play (France: the king, else the regent queen).
    # Without them no one offers a title.
    privileged: tuple[str, ...] = ()
    # 3: the political titles whose lord brings his family the record's `income.queen` each
    # Income Phase (France: the queen and the regent queen, D.3.2). Without them no title does.
    queen_titles: tuple[str, ...] = ()
    # D.2.2: the cardinals outside the elections and the cards (the ``characters``, ``tithe_rank``
    # and ``uprising_calmer`` hooks): the single cardinal title for sale and the `cardinal:`
    # purchase order (4.5), each cardinal's one tithe marker (G.3.3.2), the `as_cardinal` words of
    # the `calm_uprisings` policy (G.4.2.1). France has them; without them none of these exist.
    cardinals: bool = False
    # 1.1, 1.4, D.2.3: the edition's own orders of the Hear Ye mails (France: `excommunicate`,
    # `lift`, `annulments`, `annul`, and `excommunicate` + `if_pope` with the votes;
    # pbem/games/fief_france/hear_ye.py). Without them the mails hold marriages, candidacies and
    # votes only.
    hear_ye_orders: HearYeOrders | None = None
    # 2.5: (state, board, the disaster's name, whether its card bears the dice icon, rng) -> where
    # a disaster card revealed from the track strikes, or a false alarm. France: the d6 names a
    # bishopric, a 6 is a false alarm, a card without the icon strikes the offshore area
    # (pbem/games/fief_france/naval.py). Without it the d6 names a bishopric, a roll naming none
    # is a false alarm.
    disaster_target: Callable[["FiefState", "Board", str, bool, "Rng"], DisasterStrike] = die_names_a_bishopric
    # 2.5: the Cards Phase's step C, the disasters of the track revealed and solved (England 2.4:
    # the d6 names a Region, round 1's wait for round 2; pbem/games/fief_england/disasters.py).
    # Without it the core's (cards/effects.py: the d6 names a bishopric, 6 a false alarm).
    disasters: Callable[["FiefState", "Board", "CardSet", "Rng"], list["Event"]] | None = None
    # 2.3: (state) -> whether a disaster drawn while the track is full is discarded face up, for
    # all to see (England 2.3, l.115 and Ex l.119: "discards it face-up"). Without it face down
    # (France 2.3: "discard the disaster card face down").
    full_track_face_up: Callable[["FiefState"], bool] | None = None
    # Who holds a town no one stands in: "fief" (France 5.2.2: an empty town of a governed fief is
    # its title holder's family's; one left empty by its controller is control free otherwise) or
    # "fortress" (England 5.1, Ex 5-1, R30: a town left empty is lost, unless it holds a fortress,
    # which stays its controller's until another family occupies the town).
    empty_towns: str = "fief"
    # 4.3: where a family places the units it buys: "lord" (France: a town with one of its free
    # lords, not besieged, or a non-besieged fortress its forces hold) or "controlled" (England
    # 4.0: any City it controls that is not besieged, 7.9).
    placement: str = "lord"
    # 4: (state, board) -> the events of what the edition settles at the beginning of the
    # Purchase phase, before anyone buys (England 13.4: the bandits' ransoms paid, their captives
    # freed). Without it nothing.
    purchase_start: Callable[["FiefState", "Board"], list["Event"]] | None = None
    # 4: the edition's own orders of the Purchase Phase mail, by verb (``PurchaseVerb``; England:
    # `construct:`, 7.9). Without them the core's only.
    purchase_verbs: Mapping[str, PurchaseVerb] = field(default_factory=dict)
    # 4: (state, board) -> the events of what the edition settles at the end of the Purchase phase,
    # after every player's purchases (England 7.9: a trebuchet under construction left unpaid is
    # removed and its siege lifted). Without it nothing.
    purchase_end: Callable[["FiefState", "Board"], list["Event"]] | None = None
    # A.1: (state, family) -> unit kind -> how many of the family's units are off the map but
    # not back in its stockpile (England 13.4: knights held with their nobles in Sherwood).
    # Without it every unit is on the map or in the stockpile.
    units_off_map: Callable[["FiefState", str], Mapping[str, int]] | None = None
    # 6 / E 7: the edition's own battle (BattleRules); None: France's.
    battle: BattleRules | None = None
    # 3: (state, family, its income total) -> (what it collects, why that differs, or None)
    # (England 3.3: halved, rounded up, while Invaders are in England). Without it the total.
    income_total: Callable[["FiefState", str, int], tuple[int, str | None]] | None = None
    # 2.6: the edition's own fortune and opportunity card plays (``CardPlays``), read and played
    # by its rules instead of the core's (cards/orders.py, at_once.py). Without it the core's.
    card_plays: CardPlays | None = None
    # G.2.1.3, G.2.2: the edition's own disasters on the move and in battle (``Weather``). Without
    # it the core's bad weather and plague by bishopric.
    weather: Weather | None = None
    # DESIGN.md "Standing policies": the edition's own standing policies of a mail's `policies:`,
    # by key -> (view, player, value, line, errors) -> the canonical value (England: joining and
    # quelling rebellions, R94). Without them only the core's.
    policies: Mapping[str, Callable[[Mapping[str, Any], str, Any, "int | None", list], Any]] = field(
        default_factory=dict)
    # 3: the edition's own town and mill incomes and after-Income discards (``IncomeRules``).
    # Without them the core's (1 a town, 2 a mill with the fortune cards of its bishopric).
    income_rules: IncomeRules | None = None
    # 3: (state, board) -> (family -> [(what, amount)], events): incomes of the edition's own
    # (England: the Abbeys and the retainers, 3.1; the Tallage, 2.8), added to the family's total
    # and breakdown.
    income_parts: Callable[["FiefState", "Board"], tuple[dict[str, list[tuple[str, int]]], list["Event"]]] | None = None
    # 7 (England 8.0): (state, board) -> events: the edition's own End of Round actions (England:
    # the cards on the Regions discarded and the Treasure markers back, 2.10, 11.3), before the
    # victory check.
    end_of_round: Callable[["FiefState", "Board"], list["Event"]] | None = None
    # 7 (England 8.0, R12): (state, a disaster card on the board) -> True when the End of Round
    # keeps it there (England: an INVASION card STORMS hold at sea, for the next round).
    stays_on_board: Callable[["FiefState", "BoardEffect"], bool] | None = None
