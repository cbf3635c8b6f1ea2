"""The state of one Fief game (France, and later England: editions of the same family).

Plain dataclasses with ``to_json``/``from_json``: the judge stores the JSON; rules load it,
work on a private copy and dump it again (resolve never mutates its input).

Identity: a family has a name of its own. In every game but England's two-player game (13.7) a
player runs one family, named by the player's name, and ``FiefState.family_players`` is empty; at
13.7 a player runs two, the player's name and ``NAME-2``, and ``family_players`` maps each family
to its player (``player_of``, ``families_of``). Inside the rules everything (``players``, the
seating order, ``Lord.family``, ``Pawn.family``, orders, events) is keyed by family; the game's
border with the judge (game.py, families.py) turns families into players and back. A lord is
named by their card name (unique while in play: 2.4 says a reshuffled lord card is "another lord
with the same name", which can only appear after the first one was eliminated); a unit pawn by a
short id ("p17") so movement can track how many steps each pawn made (5.1.1: every unit pawn
moves at most 2 steps a round).
"""
from __future__ import annotations

from dataclasses import Field, dataclass, field, fields, is_dataclass
from typing import Any

from pbem.rules.api import RULES_VERSION_KEY

# The rules version a new game is created under (docs/fief-france.md, "Rules versions"). A
# stored game keeps the version it was created with (the judge records it in the game's options),
# so that `pbem replay` and its next phase follow the rules its history was played by; a rule
# fixed later applies from the version that fixed it on (``if state.rules_version >= N:``).
RULES_VERSION = 2

# France's numbers (prices, pools, supplies, limits) are in its edition record
# (games/fief_france/edition.yaml, pbem/games/fief/edition.py), not here.


def added_later(default: Any = None, *, factory: Any = None) -> Any:
    """A state field added after games were already stored: left out of the JSON while it holds
    its default, so the state (and its hash, which `pbem replay` compares) of a game that never
    uses it stays byte for byte what an earlier version stored."""
    meta = {"added_later": True}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def _default_of(f: Field) -> Any:
    factory = f.default_factory   # MISSING, which is not callable, unless the field has one
    return factory() if callable(factory) else f.default


def plain(value: Any) -> Any:
    """``dataclasses.asdict``, but a field made with ``added_later`` is left out while it holds
    its default."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)
                if not (f.metadata.get("added_later") and getattr(value, f.name) == _default_of(f))}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


@dataclass
class Lord:
    name: str
    family: str
    female: bool
    location: str | None            # a town name, a sea of the board (5.3), or None while not on the board
    captive_of: str | None = None   # the jailer family (6.3)
    fief_titles: list[str] = field(default_factory=list)   # fief ids, at most 2 (D)
    bishopric: int | None = None    # bishop title: bishopric number (D.2.1)
    cardinal: bool = False          # D.2.2
    pope: bool = False              # D.2.3
    political: str | None = None    # "king" | "queen" | "regent_queen" | "crown_prince" | "darc" (D.3)
    excommunicated: bool = False    # D.2.3.1
    spouse: str | None = None       # the spouse lord's name (1.1)
    assassin: bool = False          # G.4.2.3
    steps: int = 0                  # steps moved this round (5.1.1)

    @property
    def titled(self) -> bool:
        return bool(self.fief_titles or self.bishopric or self.cardinal or self.pope or self.political)

    def title_count(self) -> int:
        """Titles owned, for the ransom value (4.1: 2 deniers + 2 per title)."""
        return (len(self.fief_titles) + (1 if self.bishopric else 0) + (1 if self.cardinal else 0)
                + (1 if self.pope else 0) + (1 if self.political else 0))


@dataclass
class Pawn:
    """One unit pawn of a family (4.3), or a royal guard pawn ("kings_knight", "queens_sergeant",
    1.5.5) which cannot be bought nor leave its lord's army."""

    id: str
    kind: str
    family: str
    location: str                   # town name or a sea of the board (5.3)
    steps: int = 0                  # steps moved this round (5.1.1)


@dataclass
class Town:
    name: str
    controller: str | None = None   # the controlling family (5.2.2), None = control free
    fortress: str | None = None     # None | "stronghold" | "city" (4.2, 4.4)
    mills: int = 0                  # 0..2 (4.2)
    # Order of arrival of the families present, first = on the town space (5.2.2).
    arrivals: list[str] = field(default_factory=list)
    besiegers: dict[str, int] = field(default_factory=dict)  # family -> siege engine side 1|2 (6.4)


@dataclass
class Family:
    player: str
    deniers: int = 0                # the edition's starting money (A.6), given by setup
    hand: list[str] = field(default_factory=list)       # card ids (hidden from others)
    diplomacy_pawns: int = 0        # the edition's diplomacy pawns (A.1, F), given by setup
    # Standing policies (DESIGN.md "Standing policies"): kept until changed.
    # safe_passage: {"allow": [players], "refuse": [players], "others": "refuse"|"allow"}
    policies: dict[str, Any] = field(default_factory=dict)
    eliminated: bool = False


def _shared(name: str) -> property:
    """``Family.deniers`` and ``Family.hand``: the family's own, or, when the family shares the
    purse and the hand of its player's first family (13.7: "kept in a common pot"; "only one
    Hand"), that family's. Every rule that spends, earns, draws or plays reads the common one."""
    own = "_" + name

    def get(self: "Family") -> Any:
        holder = self.__dict__.get("_shares_with")
        return getattr(holder, name) if holder is not None else self.__dict__[own]

    def put(self: "Family", value: Any) -> None:
        holder = self.__dict__.get("_shares_with")
        if holder is not None:
            setattr(holder, name, value)
        else:
            self.__dict__[own] = value
    return property(get, put)


# Set after the class is made: the dataclass keeps both as fields (JSON, equality), read through these.
Family.deniers = _shared("deniers")     # type: ignore[assignment]
Family.hand = _shared("hand")           # type: ignore[assignment]


def share_purse(family: Family, holder: Family) -> None:
    """13.7: ``family`` uses ``holder``'s shillings and hand from now on (its own are dropped)."""
    family.__dict__["_shares_with"] = holder


@dataclass
class BoardEffect:
    """A card lying on the board (2.5, 2.6, G.2, G.3): a disaster or fortune on a bishopric
    (number) or the offshore area (0), or a tax card on a fief or bishopric."""

    # "plague" | "bad_weather" | "famine" | "good_weather" | "good_harvest" | "tallage" | "tithe"
    card: str
    target: str                      # bishopric number as text ("1".."5"), "offshore", or a fief id
    player: str | None = None        # who played it (tax cards)
    lord: str | None = None          # the lord collecting (tax cards)


@dataclass
class FiefState:
    variant: str                     # the game type: its edition ("fief_france")
    options: dict[str, Any]
    players: list[str]               # seating order (clockwise)
    first_player: int = 0            # index into players: holder of the first player card (7)
    round: int = 0                   # 0 = setup
    # setup | hear_ye | hear_ye_votes | cards | cards_play | income | purchase | movement | battle |
    # end_of_round | an edition's own phase (round.py step_of) | over
    phase: str = "setup"
    families: dict[str, Family] = field(default_factory=dict)
    lords: dict[str, Lord] = field(default_factory=dict)
    pawns: dict[str, Pawn] = field(default_factory=dict)
    towns: dict[str, Town] = field(default_factory=dict)
    fief_titles: dict[str, str | None] = field(default_factory=dict)  # fief id -> holder lord, None = vacant/ungoverned
    # fief id -> bought once (a vacant title stays governed, D.1.1)
    governed: dict[str, bool] = field(default_factory=dict)
    character_pile: list[str] = field(default_factory=list)             # top = last item; hidden
    character_discard: list[str] = field(default_factory=list)
    events_pile: list[str] = field(default_factory=list)                # hidden
    events_discard: list[str] = field(default_factory=list)
    disasters_track: list[str] = field(default_factory=list)            # face down (2.3)
    board_effects: list[BoardEffect] = field(default_factory=list)
    king_offer_used: bool = False    # 4.4 / 7: the king's (or regent queen's) privilege
    next_pawn: int = 1
    winners: list[str] = field(default_factory=list)
    result_text: str = ""
    # Lords (by name) and unit pawns (by id) that suffered a plague this round: they ignore
    # it when entering a plagued bishopric again (G.2.1.3). Cleared at the end of the round.
    plague_struck: list[str] = field(default_factory=list)
    # The Hear Ye ballots between its two mails (hear_ye/phase.py): public candidates, never votes.
    hear_ye: dict[str, Any] = field(default_factory=dict)
    # Couples ([lord, lord], sorted) whose crown prince came into play: no annulment (D.2.3, G.1.1).
    crown_prince_couples: list[list[str]] = field(default_factory=list)
    # Positions in events_discard of the disaster cards discarded face down (2.3: the track was
    # full): such a card on top of the discard pile shows its back only. Emptied on reshuffle.
    events_discard_face_down: list[int] = field(default_factory=list)
    # Surprise character cards lying on the frieze (G.4.1): lord name -> "darc" | "cardinal";
    # the card goes back to the characters discard pile when that lord leaves play.
    frieze: dict[str, str] = field(default_factory=dict)
    # Card exchanges offered and not yet answered (F, diplomacy/at_once.py): {"from", "with", "give",
    # "take"}; seen by the two players only; emptied at the end of the round (7).
    exchange_offers: list[dict[str, Any]] = field(default_factory=list)
    # The lord who bought the single cardinal title for sale (4.5); the tile is for sale again
    # once he is no longer a cardinal by it (purchase_titles.cardinal_title_holder).
    cardinal_title: str | None = None
    # An edition's own state, beside the core's (England: the Invaders, abbeys, relics, carrier
    # pigeons, treasures, Parliament...): one key per module of the edition that owns it, plain
    # JSON; the core never reads it. Left out of a France game's JSON (added_later).
    edition_state: dict[str, Any] = added_later(factory=dict)
    # England's two-player game (13.7): family -> its player, for every family; empty when each
    # family is its player's (every other game: left out of the JSON, added_later).
    family_players: dict[str, str] = added_later(factory=dict)

    def __post_init__(self) -> None:
        self.link_purses()

    def link_purses(self) -> None:
        """13.7: a player's later families share the first one's purse and hand."""
        for family in self.players:
            first = self.families_of(self.player_of(family))[0]
            if first != family and family in self.families and first in self.families:
                share_purse(self.families[family], self.families[first])

    def player_of(self, family: str) -> str:
        """The player who runs ``family`` (the family's own name when each player runs one)."""
        return self.family_players.get(family, family)

    def families_of(self, player: str) -> list[str]:
        """The families ``player`` runs, in seating order (13.7: "in the order the Family Boards
        are placed"); [player] when each player runs one."""
        if not self.family_players:
            return [player]
        return [f for f in self.players if self.family_players.get(f) == player]

    def player_names(self) -> list[str]:
        """The players (not the families) in seating order."""
        return list(dict.fromkeys(self.player_of(f) for f in self.players))

    @property
    def rules_version(self) -> int:
        """The rules version the game was created under (RULES_VERSION above); 1 for a game
        stored before versions were recorded (pbem.rules.api.rules_version)."""
        return int(self.options.get(RULES_VERSION_KEY, 1))

    def turn_order(self) -> list[str]:
        """Families from the first player's, clockwise (H.3); at 13.7 the first player's two
        families, then the opponent's two (Ex 13-2)."""
        n = len(self.players)
        return [self.players[(self.first_player + i) % n] for i in range(n)]

    def new_pawn_id(self) -> str:
        pid = f"p{self.next_pawn}"
        self.next_pawn += 1
        return pid

    # -- JSON border ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return plain(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> "FiefState":
        d = dict(data)
        d["families"] = {k: Family(**v) for k, v in data["families"].items()}
        d["lords"] = {k: Lord(**v) for k, v in data["lords"].items()}
        d["pawns"] = {k: Pawn(**v) for k, v in data["pawns"].items()}
        d["towns"] = {k: Town(**v) for k, v in data["towns"].items()}
        d["board_effects"] = [BoardEffect(**v) for v in data["board_effects"]]
        d["options"] = dict(data["options"])
        return FiefState(**d)
