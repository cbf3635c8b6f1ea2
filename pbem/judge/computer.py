"""Computer players at the table (docs/computer-players.md): the tick's step in which each seat
the computer plays writes its orders for the open phase, once a phase.

The computer plays a seat it holds (players.kind 'computer': seated with `pbem game new --bot`,
handed over with `pbem game bot`, or fallen into civil disorder under disorder_policy=bot), and a
player's seat while they are away under away_policy=bot, unless they ordered. It writes from
the seat's own view, with a generator drawn from the game's secret seed, the phase and the
player; its text is read and taken exactly as an order mail's (pbem.judge.inbound.take: the
at-once part, check_orders, the archive), so `pbem replay` plays it back from the archive. Its
"mail" has a Message-ID of its own, marked processed: once a phase, whatever ticks run.

Orders that check_orders refuses (or a computer player that raises) are the game's bug: the seat
plays its default orders for the phase, and the game master and the admin are told once a seat."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Callable

from pbem.judge import engine, inbound, quarantine
from pbem.judge.mailer import Mailer
from pbem.judge.settings import settings_of
from pbem.judge.store import Store, StoreBusy
from pbem.orders.envelope import find_document, parse_document
from pbem.rules.api import computer_orders
from pbem.rules.rng import Rng

# The at-once part and the orders count as complete at once: a computer never waits.
OUTCOME = "orders accepted (computer player)"
FALLBACK = "default orders (computer player refused)"


@dataclass
class Played:
    """What the step did: seats that ordered, and the lines for a person (a computer refused)."""

    ordered: int = 0
    attention: list[str] = field(default_factory=list)


def message_id(mailer: Mailer, game: engine.Game, player: str) -> str:
    """The Message-ID of a seat's computer orders for the open phase: one a phase and seat."""
    return f"<computer.{game.id}.{game.seq}.{player}@{mailer.home.domain}>"


def candidates(store: Store, now: float) -> list[str]:
    """The running games where the computer may have a seat to play now (not stopped by an
    error): one with a computer seat, or with a player away under away_policy=bot."""
    rows = store.all("SELECT DISTINCT g.name FROM games g JOIN players p "
                     "ON p.game_id=g.id WHERE g.status='running' AND g.stuck IS NULL AND (p.kind=? OR EXISTS("
                     "SELECT 1 FROM absences a WHERE a.game_id=g.id AND a.player=p.name AND a.away_from<=? "
                     "AND a.away_to>?)) ORDER BY g.name", engine.COMPUTER, now, now)
    return [r["name"] for r in rows]   # the away policy is read per game (computer_plays)


def computer_plays(store: Store, game: engine.Game, now: float) -> list[str]:
    """The deciders of the open phase the computer plays now, in seating order: the seats it
    holds, and under away_policy=bot those away now who have not ordered."""
    if not engine.has_computer(game.rules) or game.row["status"] != "running":
        return []
    deciders = json.loads(engine.phase_row(store, game)["deciders"])
    held = {p["name"] for p in engine.players(store, game.id) if p["kind"] == engine.COMPUTER}
    away: set[str] = set()
    if settings_of(game.row)["away_policy"] == "bot":
        ordered = {r["player"] for r in store.all("SELECT player FROM orders WHERE game_id=? AND seq=?",
                                                  game.id, game.seq)}
        away = {r["player"] for r in store.all("SELECT player FROM absences WHERE game_id=? AND away_from<=? "
                                                "AND away_to>?", game.id, now, now)} - ordered
    return [p for p in deciders if p in held | away]


def play_all(store: Store, mailer: Mailer, now: float, more: Callable[[], bool] = lambda: True) -> Played:
    """The tick's step: every game where the computer plays a seat, each in a transaction of its
    own, while ``more()`` (the tick's time budget; at least one game a tick). A game where it
    raises outside any one seat (a view, the store) is stopped as a failed resolution would be."""
    played = Played()
    names = [name for name in candidates(store, now) if waiting(store, mailer, name, now)]
    for n, name in enumerate(names):
        if n and not more():
            break   # the rest order at the next tick
        with store.transaction():
            try:
                with store.part():
                    done = play_game(store, mailer, name, now)
            except (StoreBusy, sqlite3.DatabaseError):
                raise
            except Exception as exc:  # nothing of it was stored; the game waits for a person
                game_id = store.row("SELECT id FROM games WHERE name=?", name)["id"]
                played.attention.append(quarantine.stop_game(store, mailer, game_id, exc, now, "computer"))
                continue
        played.ordered += done.ordered
        played.attention += done.attention
    return played


def waiting(store: Store, mailer: Mailer, name: str, now: float) -> bool:
    """Whether a seat the computer plays in game ``name`` has yet to order in the open phase: read
    without a transaction, so a tick opens one (a flush to disk) only for a game with work."""
    game = engine.load_game(store, name)
    return any(not store.is_processed(message_id(mailer, game, p)) for p in computer_plays(store, game, now))


def play_game(store: Store, mailer: Mailer, name: str, now: float) -> Played:
    """Each seat the computer plays in game ``name`` that has not ordered in the open phase
    orders now, in the caller's transaction, each in a part of its own."""
    played = Played()
    game = engine.load_game(store, name)
    for player in computer_plays(store, game, now):
        mid = message_id(mailer, game, player)
        if store.is_processed(mid):
            continue
        problem, text = None, None
        try:
            with store.part():
                text = _write(game, player)
                taken = _take(store, mailer, game, player, text, mid, now)
                if not taken.ok:
                    raise Refused("; ".join(str(e) for e in taken.errors))
        except (StoreBusy, sqlite3.DatabaseError):
            raise
        except Exception as exc:  # the game's computer player is wrong: the seat plays its defaults
            problem = exc
        if problem is not None:
            played.attention.append(_fall_back(store, mailer, engine.reload(store, game), player, mid, text,
                                               problem, now))
        store.mark_processed(mid, FALLBACK if problem is not None else OUTCOME)
        played.ordered += 1
        game = engine.reload(store, game)   # an at-once part may have changed the state
    return played


class Refused(Exception):
    """check_orders refused a computer player's orders (the game's bug)."""


def computer_rng(game: engine.Game, player: str) -> Rng:
    """The seat's generator for the open phase: the game's secret seed, the phase and the player."""
    phase = engine.current_phase(game)
    return Rng.for_phase(game.row["seed"], f"{game.seq}:{phase.id}:computer:{player}", engine.game_dice(game))


def _write(game: engine.Game, player: str) -> str:
    view = game.rules.view(game.state, player)
    text = computer_orders(game.rules, view, player, computer_rng(game, player))
    if text is None:
        raise engine.no_computer(game.rules)
    return text


def envelope_text(game: engine.Game, player: str, body: str) -> str:
    """The computer's orders as an order document: the envelope a person writes, then the body."""
    phase = engine.current_phase(game)
    return f"game: {game.name}\nplayer: {player}\nsecret: (computer player)\nphase: {phase.id}\n{body.rstrip()}\n"


def _take(store: Store, mailer: Mailer, game: engine.Game, player: str, body: str, mid: str,
          now: float) -> inbound.Taken:
    """The computer's text read as a mail's document and taken as a mail's orders."""
    text = envelope_text(game, player, body)
    doc = find_document(text)
    if doc is None:
        raise Refused("its text is not an order document")
    envelope, errors = parse_document(doc)
    if envelope is None:
        raise Refused("; ".join(str(e) for e in errors))
    phase = engine.current_phase(game)
    return inbound.take(store, mailer, game, phase, player, envelope.body, text, mid, True, False, now)


def _fall_back(store: Store, mailer: Mailer, game: engine.Game, player: str, mid: str, text: str | None,
               exc: BaseException, now: float) -> str:
    """The seat plays its default orders for the phase (stored as its orders, complete); the game
    master and the admin are told once a seat. Returns the tick's line."""
    view = game.rules.view(game.state, player)
    refused = isinstance(exc, Refused)
    error = str(exc) if refused else quarantine.error_trace(exc)
    engine.store_orders(store, game, player, mid, f"(default orders: the computer player's orders failed: "
                        f"{error.splitlines()[-1]})", game.rules.default_orders(view, player), [], True, False, now)
    phase = engine.current_phase(game)
    row = engine.player_row(store, game, player)
    if not row["computer_alerted"]:
        store.run("UPDATE players SET computer_alerted=1 WHERE game_id=? AND name=?", game.id, player)
        mailer.alert(game.id, game.name, game.row["gm_email"], f"The computer player of {player} failed in "
                     f"{phase.id}", "judge_error_computer.txt.j2", game=game.name, player=player, phase=phase.id,
                     refused=refused, error=error, text=text)
    return (f"game {game.name}: the computer player of {player} failed in {phase.id} "
            f"({'refused: ' + error if refused else quarantine.error_line(exc)}); it plays its default orders")
