"""The contract between a game's rules and the judge (DESIGN.md, layer 1).

A game is a ``GameRules`` object. Everything it exchanges with the judge is plain JSON-able
data (dicts, lists, str, int, bool, None), so the judge can store, hash and replay it without
knowing the game. Rules are pure: no I/O, no clock, no global ``random``; all chance comes
from the ``Rng`` handed in. Game code may use dataclasses inside; it converts at this border.

Hidden information: the judge shows a player only ``view(state, player)`` and the events whose
audience includes that player. A view is built as an allow-list, never as the state with
secrets deleted. Orders are checked against the player's view (``check_orders`` never sees
the state), so a reply can never reveal hidden state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

from pbem.rules.rng import Rng

JSON = Any  # a JSON-able value


@dataclass(frozen=True)
class Audience:
    """Who may see an event: everyone, some players, or the game master only.

    The game master sees every event. ``players`` is empty for ``everyone`` and ``gm``."""

    kind: str  # "all" | "players" | "gm"
    players: tuple[str, ...] = ()

    @staticmethod
    def everyone() -> "Audience":
        return Audience("all")

    @staticmethod
    def only(*players: str) -> "Audience":
        return Audience("players", tuple(sorted(set(players))))

    @staticmethod
    def gm() -> "Audience":
        return Audience("gm")

    def sees(self, player: str | None) -> bool:
        """``player`` None is the game master, who sees everything."""
        if player is None or self.kind == "all":
            return True
        return self.kind == "players" and player in self.players

    def to_json(self) -> JSON:
        return self.kind if self.kind != "players" else list(self.players)

    @staticmethod
    def from_json(value: JSON) -> "Audience":
        if value in ("all", "gm"):
            return Audience(value)
        return Audience.only(*value)


@dataclass(frozen=True)
class Said:
    """Words a player wrote that an event relays (a diplomacy message): kept apart from the
    judge's own sentence, so that a mail shows them quoted and attributed on every line and
    they can never pass for the judge's words (pbem.judge.render.said_lines; docs/security.md,
    "Player text in the judge's mail"). ``by`` is the player, ``text`` their words as written."""

    by: str
    text: str

    def to_json(self) -> JSON:
        return {"by": self.by, "text": self.text}

    @staticmethod
    def from_json(value: JSON) -> "Said | None":
        return None if value is None else Said(value["by"], value["text"])


@dataclass(frozen=True)
class Event:
    """Something that happened, told in one English sentence (``text``) for the reports.

    ``kind`` is a stable machine name ("income", "unit_bought", "town_taken", ...), ``data``
    the facts behind the sentence (JSON-able); both are kept in the archive. ``text`` is always
    the judge's own words: anything a player wrote goes in ``said``, never into ``text`` or
    ``data``; every mail shows it quoted under the sentence."""

    kind: str
    text: str
    audience: Audience = field(default_factory=Audience.everyone)
    data: Mapping[str, JSON] = field(default_factory=dict)
    said: Said | None = None

    def to_json(self) -> JSON:
        out = {"kind": self.kind, "text": self.text, "audience": self.audience.to_json(),
               "data": dict(self.data)}
        if self.said is not None:   # absent otherwise: events stored before `said` read the same
            out["said"] = self.said.to_json()
        return out

    @staticmethod
    def from_json(value: JSON) -> "Event":
        return Event(value["kind"], value["text"], Audience.from_json(value["audience"]),
                     value.get("data", {}), Said.from_json(value.get("said")))


@dataclass(frozen=True)
class OrderError:
    """One problem in an order mail: where (1-based line of the mail's order document, or
    None), what is wrong, and how to fix it."""

    line: int | None
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return where + self.message + (f" ({self.hint})" if self.hint else "")


@dataclass(frozen=True)
class OrderCheck:
    """The result of checking one player's orders for one phase.

    ``orders`` is the canonical form (JSON-able; what the judge stores, echoes back and later
    hands to ``resolve``); it is only meaningful when ``errors`` is empty. ``notes`` are
    warnings that do not reject the set (e.g. "you bought nothing")."""

    orders: JSON
    errors: tuple[OrderError, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class Phase:
    """The phase a game is waiting on.

    ``id`` names it in mail ("round-2/movement", "setup/starting-towns") and must change every
    time the game moves on. ``deciders`` are the players who must (or may) send orders; an
    empty tuple means the judge resolves the phase at once, with no orders. ``title`` and
    ``summary`` are shown in reports ("Purchase Phase (4)", "buy units, mills, ...").
    ``share`` is the part of the game's phase hours this phase's deadline gets (1: all of them;
    Kard és Korona's three election bids take a third each, so an election costs one phase's
    time by mail); a game that does not set it keeps the game master's deadline."""

    id: str
    title: str
    deciders: tuple[str, ...]
    summary: str = ""
    share: float = 1.0


@dataclass(frozen=True)
class Resolution:
    state: JSON
    events: tuple[Event, ...]


@dataclass(frozen=True)
class GameResult:
    """The game is over: who won (several players for an alliance victory) and why."""

    winners: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class OptionSpec:
    """A game option the game master may set with ``--option KEY=VALUE``."""

    name: str
    help: str
    default: JSON
    kind: str = "bool"  # "bool" | "int" | "choice"
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> JSON:
        """Turn the command line text into a value, or raise ValueError naming the fix."""
        if self.kind == "bool":
            low = text.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"option {self.name} takes true or false, not {text!r}")
        if self.kind == "int":
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"option {self.name} takes a whole number, not {text!r}") from None
        if text not in self.choices:
            raise ValueError(f"option {self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        return text


class GameRules(Protocol):
    """What a game provides. One instance per game type; it holds only static data (board,
    cards, tables), never a game's state."""

    type_name: str          # "fief_france": the GAME_TYPE of `pbem game new`
    title: str              # "Fief: France"
    min_players: int
    max_players: int

    def options(self) -> Sequence[OptionSpec]: ...

    # Optional: ``rules_version: int``, the version of these rules a new game is created under
    # (see ``rules_version``, below). Absent means 1.

    def setup(self, options: Mapping[str, JSON], players: Sequence[str], rng: Rng) -> JSON:
        """The starting state. ``players`` are the player names in seating (turn) order.
        ``options`` holds every declared option (the judge fills in defaults) and, under the
        reserved key ``rules_version``, the version the game is played by; a game stored before
        versions were recorded has none, which means version 1. The reserved key ``dice`` is the
        judge's (the version of ``rng``, pbem.rules.rng): rules need not read it."""

    def phase(self, state: JSON) -> Phase:
        """The phase the game now waits on (meaningless once ``result`` is not None)."""

    def view(self, state: JSON, player: str | None) -> JSON:
        """What ``player`` may see (None: the game master, who sees everything). Allow-list."""

    def check_orders(self, view: JSON, player: str, document: Any) -> OrderCheck:
        """Check ``document`` (the mail's order document, a pbem.orders.yamlsafe.YMap with line
        numbers; envelope keys such as game/player/secret/phase already removed) against the
        player's own ``view`` of the current phase."""

    def default_orders(self, view: JSON, player: str) -> JSON:
        """The canonical orders of a player who sent none by the deadline (documented in the
        game's docs: hold, buy nothing, cautious policies)."""

    def resolve(self, state: JSON, orders: Mapping[str, JSON], rng: Rng) -> Resolution:
        """Resolve the current phase with every decider's canonical orders. Must not mutate
        ``state``. An order that fails is reported as an event, never raised."""

    def order_template(self, view: JSON, player: str) -> str:
        """A ready-to-fill YAML order document (without the envelope) for the current phase,
        with comments explaining each order; the report ends with it."""

    def report_template(self) -> str:
        """The name of the Jinja2 template (under templates/) that renders this game's view in
        a report, e.g. "fief/position.txt.j2"."""

    def result(self, state: JSON) -> GameResult | None:
        """None while the game goes on."""

    def board(self) -> JSON:
        """The board data, for `pbem map GAME_TYPE --json`."""


@runtime_checkable
class ActsAtOnce(Protocol):
    """Optional, for a game where some things are done "at any time" (Fief's diplomacy, F):
    the top-level keys ``at_once_keys`` of an order document are not orders for the phase but
    an action the judge applies as soon as it accepts the mail, from any player (a decider of
    the current phase or not), and whose events it mails at once to those who see them.

    The judge records every action in the archive between the phase's opening and its
    resolution, so a game is still its start plus its log and replays exactly. A mail is still
    all or nothing: the action is checked first, the rest of the mail is then checked against
    the position after it, and if either has an error nothing of the mail is done."""

    @property
    def at_once_keys(self) -> tuple[str, ...]:
        """The top-level keys of the at-once part (a class attribute in a game, e.g.
        ``("diplomacy",)``); read-only for the judge."""

    def check_at_once(self, view: JSON, player: str, document: Any) -> OrderCheck:
        """Check the at-once part of a mail (a YMap holding only ``at_once_keys``) against the
        player's view; ``orders`` is the canonical action handed to ``act``."""

    def act(self, state: JSON, player: str, action: JSON, rng: Rng) -> Resolution:
        """Apply one player's checked action now, between two resolutions. Pure, like
        ``resolve``: must not mutate ``state``; what no longer holds is an event, not a raise."""

    def at_once_template(self, view: JSON, player: str) -> str:
        """The commented YAML of the at-once part (without the envelope): it ends every order
        template, and is the whole template of a player with no orders in the phase."""


class MapUnavailable(Exception):
    """The game cannot draw its map (no geometry, or geometry that does not fit its board):
    the message names the file and the fix."""


class DrawsMap(Protocol):
    """Optional: a game that declares its board geometry, so the judge can draw a picture of a
    view (pbem.judge.maps; docs/maps.md, docs/architecture.md "Maps").

    ``map_drawing`` turns a player's *view* (never the state) into a drawing description made
    of generic parts, all JSON-able; what the view hides must stay hidden in it:

    - ``title``: one line;
    - ``places``: ``{id, label, kind: "town"|"sea", x, y, emphasis, markers, controller}``;
      x, y in any unit with y growing downward (the judge fits them to the picture, keeping
      the proportions); ``markers`` ids of ``marker_kinds`` (repeated for a count);
      ``controller`` a family id or None; ``emphasis`` a larger label (a chief town);
    - ``links``: ``{between: [place, place], kind: "road"|"sea"}``;
    - ``areas``: ``{id, label, places, style: "outline"|"tag", tag}``: an outline drawn around
      the places, or a short ``tag`` written beside each of them;
    - ``families``: ``{id, label}`` in seating order (the judge gives each a colour and a shape);
    - ``pieces``: ``{at, family, lords, units: {kind: n}, hidden, captives}``; ``hidden`` is a
      count of pieces whose kind the viewer may not know;
    - ``piece_kinds`` and ``marker_kinds``: ``{id, letter, label}`` for the legend;
    - ``sieges``: ``{at, by: [family]}``; ``titles``: ``{family, text}``; ``notes``: [str].

    Raise ``MapUnavailable`` when the geometry is missing or broken."""

    def map_drawing(self, view: JSON) -> JSON: ...


def map_drawing(rules: Any, view: JSON) -> JSON:
    """The drawing description of ``view``, or MapUnavailable for a game without a map."""
    method = getattr(rules, "map_drawing", None)
    if method is None:
        raise MapUnavailable(f"{getattr(rules, 'title', rules)} has no map yet (its rules declare no board geometry)")
    return method(view)


class EchoesOrders(Protocol):
    """Optional: the game writes its canonical orders back in its own order language, for the
    judge's answer to an order mail (docs/orders.md, "The judge's answers"). Without it the judge
    echoes the canonical form itself (pbem.judge.render's `echo` filter), which may use other
    keys than a player writes (Fief's `start: [Tours]` would read back as `towns: [Tours]`)."""

    def echo_orders(self, view: JSON, player: str, orders: JSON) -> str:
        """``orders`` (what ``check_orders`` gave for this ``view``) as the part of a mail below
        the envelope: YAML that ``check_orders(view, player, that text loaded)`` reads back to the
        same canonical orders, so the player can send it unchanged. The judge's own keys (``wait``,
        ``ready``) are not part of it. Pure, like the rest of the rules."""


def echo_orders(rules: Any, view: JSON, player: str, orders: JSON) -> str | None:
    """The game's own echo of ``orders`` (``EchoesOrders``), or None for a game without one."""
    echo = getattr(rules, "echo_orders", None)
    return None if echo is None else echo(view, player, orders)


RULES_VERSION_KEY = "rules_version"


def rules_version(rules: Any) -> int:
    """The version of ``rules`` a new game is created under. A rule changed in a way that
    changes the outcome of a stored game applies from the version that changed it on, so a game
    replays and plays on by the rules its history was made with (docs/architecture.md)."""
    return int(getattr(rules, "rules_version", 1))


def at_once_keys(rules: Any) -> tuple[str, ...]:
    """The keys a game acts on at once (none for a game without ``ActsAtOnce``)."""
    return tuple(getattr(rules, "at_once_keys", ()))


def acts_at_once(rules: GameRules) -> ActsAtOnce:
    """``rules`` as a game that acts at once. The judge asks only where ``at_once_keys(rules)``
    is not empty or the archive holds an action, so a game without ``ActsAtOnce`` here is a
    bug in the judge or a game changed under a stored one: a TypeError naming the game."""
    if not isinstance(rules, ActsAtOnce):
        raise TypeError(f"game type {rules.type_name} has no actions done at once (ActsAtOnce)")
    return rules
