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

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from pbem.rules.rng import Rng
# The data exchanged across the contract, in a module of its own; imported from here as ever.
from pbem.rules.types import (  # noqa: F401  (re-exported: the contract's names)
    Audience, Event, GameResult, JSON, OptionSpec, OrderCheck, OrderError, Phase, Resolution, Said)


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


class NoMap(MapUnavailable):
    """The game's rules declare no map at all (not an error: its mails go without a picture).
    Any other MapUnavailable is a map the game has but cannot draw: an error its game master
    is told of (docs/maps.md, "When the map cannot be drawn")."""


class DrawsMap(Protocol):
    """Optional: a game that declares its board geometry, so the judge can draw a picture of a
    view (pbem.judge.maps; docs/maps.md, docs/architecture.md "Maps").

    ``map_drawing`` turns a player's *view* (never the state) into a drawing description made
    of generic parts, all JSON-able; what the view hides must stay hidden in it:

    - ``title``: one line;
    - ``places``: ``{id, label, kind: "town"|"sea"|"forest", x, y, emphasis, markers, controller}``
      ("forest": a place that is no town, e.g. England's Sherwood);
      x, y in any unit with y growing downward (the judge fits them to the picture, keeping
      the proportions); ``markers`` ids of ``marker_kinds`` (repeated for a count);
      ``controller`` a family id or None; ``emphasis`` a larger label (a chief town);
    - ``links``: ``{between: [place, place], kind: "road"|"sea"|"path"}`` ("path": no road,
      e.g. England's Bandit Paths);
    - ``areas``: ``{id, label, places, style: "outline"|"tag", tag}``: an outline drawn around
      the places, or a short ``tag`` written beside each of them;
    - ``families``: ``{id, label}`` in seating order (the judge gives each a colour and a shape);
    - ``pieces``: ``{at, family, lords, units: {kind: n}, hidden, captives}``; ``hidden`` is a
      count of pieces whose kind the viewer may not know;
    - ``piece_kinds`` and ``marker_kinds``: ``{id, letter, label}`` for the legend;
    - ``sieges``: ``{at, by: [family]}``; ``titles``: ``{family, text}``; ``notes``: [str];
    - ``legend`` (optional): the game's words for what the painter draws alike for every game,
      by key: ``places`` (the heading, "Towns"), ``emphasis`` ("chief town"), ``road``, ``sea``,
      ``siege``, ``outline`` ("fief borders"), ``lords``, ``hidden``, ``captives``, ``path``,
      ``forest``; a key left
      out gets the painter's generic word.

    Raise ``MapUnavailable`` when the geometry is missing or broken."""

    def map_drawing(self, view: JSON) -> JSON: ...


def map_drawing(rules: Any, view: JSON) -> JSON:
    """The drawing description of ``view``, or MapUnavailable for a game without a map."""
    method = getattr(rules, "map_drawing", None)
    if method is None:
        raise NoMap(f"{getattr(rules, 'title', rules)} has no map yet (its rules declare no board geometry)")
    return method(view)


class ShowsPublicView(Protocol):
    """Optional: what every player may see of a game, the view of nobody in particular (the
    archive's site shows its map while the game runs, pbem.judge.site; docs/site.md). An
    allow-list like ``view``: it holds nothing that any one player may not see. Without it the
    judge uses ``common_view`` (below)."""

    def public_view(self, state: JSON) -> JSON: ...


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


class LeavesGame(Protocol):
    """Optional: what a position does once the judge counts its player as gone, i.e. in civil
    disorder (the game's `civil_disorder_after` setting, pbem.judge.seats). For a decider in
    civil disorder who sent no orders the judge takes ``left_orders`` instead of
    ``default_orders``; they are stored as the phase's orders like any others, so the game
    replays exactly. A game whose rulebook says what becomes of a player who stops playing (Kard
    és Korona, l.120: his units turn neutral) does it when it resolves such orders. Without it a
    position in civil disorder plays its default orders."""

    def left_orders(self, view: JSON, player: str) -> JSON: ...


def left_orders(rules: Any, view: JSON, player: str) -> JSON:
    """The canonical orders of a player in civil disorder who sent none: the game's
    ``left_orders`` (``LeavesGame``), else its default orders."""
    leave = getattr(rules, "left_orders", None)
    return rules.default_orders(view, player) if leave is None else leave(view, player)


class WritesRandomOrders(Protocol):
    """Optional: random legal orders for the open phase, the test suite's stand-in for players
    who write anything the order language allows (and the start of the computer players): the
    body of an order mail, below the envelope, written from ``view`` alone (never the state) with
    draws from ``rng`` only, so the same view and seed give the same text. What it writes should
    be accepted by ``check_orders``; what ``check_orders`` accepts must resolve without raising."""

    def random_orders(self, view: JSON, player: str, rng: Rng) -> str: ...


def random_orders(rules: Any, view: JSON, player: str, rng: Rng) -> str | None:
    """The game's random legal orders (``WritesRandomOrders``), or None for a game without them."""
    write = getattr(rules, "random_orders", None)
    return None if write is None else write(view, player, rng)


class PlaysAsComputer(Protocol):
    """Optional: a computer player for a seat no person holds (docs/computer-players.md). Like a
    person it sees only its own ``view`` (never the state, so it cannot cheat) and writes the
    body of an order mail, which the judge checks with ``check_orders`` like anyone's; it draws
    only from ``rng`` (the judge seeds it from the game's seed), so a game with computer players
    replays exactly. It plays to win: sensible orders, not merely legal ones."""

    def computer_orders(self, view: JSON, player: str, rng: Rng) -> str: ...


def computer_orders(rules: Any, view: JSON, player: str, rng: Rng) -> str | None:
    """The game's computer player's orders (``PlaysAsComputer``), or None for a game without one."""
    write = getattr(rules, "computer_orders", None)
    return None if write is None else write(view, player, rng)


@runtime_checkable
class PlaysDemo(Protocol):
    """Optional: scripted players for `pbem demo --game TYPE` (and the benchmark's order mails).
    A game without it is still demonstrated: its first ``min_players`` of DEMO_PLAYERS send the
    game's own order templates (every order commented out: the default orders) until the game
    ends or DEMO_PHASES phases have resolved (``demo_script``)."""

    demo_players: tuple[str, ...]    # the demo's player names, in seating order

    def demo_orders(self, view: JSON, player: str) -> str:
        """The part of ``player``'s order mail below the envelope for the current phase, written
        from their ``view`` only — as a person reading their report would write it."""

    def demo_done(self, first: JSON, state: JSON) -> bool:
        """Whether the demo has shown enough, from the state when it started (``first``) and
        now (e.g. Fief: a full round has resolved)."""


DEMO_PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
DEMO_PHASES = 12


@dataclass(frozen=True)
class DemoScript:
    """What `pbem demo` plays: the game's own PlaysDemo, or the generic one (order templates)."""

    players: tuple[str, ...]
    orders: Callable[[JSON, str], str]
    done: Callable[[JSON, JSON, int], bool]   # (first state, state, phases resolved)


def demo_script(rules: GameRules) -> DemoScript:
    if isinstance(rules, PlaysDemo):
        game = rules
        return DemoScript(tuple(game.demo_players), game.demo_orders,
                          lambda first, state, _phases: game.demo_done(first, state))
    if rules.min_players > len(DEMO_PLAYERS):
        raise ValueError(f"{rules.title} needs {rules.min_players} players; the demo has names for "
                         f"{len(DEMO_PLAYERS)} (pbem.rules.api.DEMO_PLAYERS)")
    return DemoScript(DEMO_PLAYERS[:max(rules.min_players, 1)], rules.order_template,
                      lambda _first, _state, phases: phases >= DEMO_PHASES)


def public_view(rules: Any, state: JSON, players: Sequence[str] | None = None) -> JSON | None:
    """What every player may see of ``state``: the game's own ``public_view`` (ShowsPublicView);
    for a game without one, given its ``players``, the ``common_view`` of the game master's view
    and every player's (the static site passes them: every game gets its public map); None for
    a game without one when no players are given."""
    method = getattr(rules, "public_view", None)
    if method is not None:
        return method(state)
    if players is None:
        return None
    return common_view([rules.view(state, None)] + [rules.view(state, p) for p in players])


_NOTHING = object()


def common_view(views: Sequence[JSON]) -> JSON:
    """The part of ``views`` they all share: a key is kept where every view has it, a value
    only where it is the same in every view (a list whole or not at all). Given the game
    master's view and each player's, it is what every player sees exactly as the game master
    does: a player's own hand, under a key of its own (``hand``) that the game master's view
    lacks or holds otherwise, never stays, even when every player's happens to be the same. A
    game whose views show a private value under the same key and with the same value in the
    game master's view declares its own ``public_view``."""
    common = _common(list(views))
    return {} if common is _NOTHING else common


def _common(values: list) -> Any:
    first = values[0]
    if all(isinstance(v, dict) for v in values):
        out = {}
        for key in first:
            if all(key in v for v in values[1:]):
                part = _common([v[key] for v in values])
                if part is not _NOTHING:
                    out[key] = part
        return out
    return first if all(v == first for v in values[1:]) else _NOTHING


def who_ordered_is_public(rules: Any) -> bool:
    """Optional ``who_ordered_is_public: bool`` on a game's rules: whether its players may know
    *which* players have sent a complete set of orders for the open phase (`command: status`).
    Absent or False: they learn only how many have (the judge's answers always said as much)."""
    return bool(getattr(rules, "who_ordered_is_public", False))


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
