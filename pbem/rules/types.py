"""The plain data the rules and the judge exchange (pbem.rules.api, the contract, re-exports
every name here): who sees an event, an event and the text a player wrote in it, an order's
error, the checked orders, a phase, a resolution, a game's result, a game option. All JSON-able
or converted to JSON at the border, so the judge stores, hashes and replays them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

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
