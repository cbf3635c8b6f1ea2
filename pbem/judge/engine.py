"""Games through their life: creation, phases, orders, resolution, rollback.

Everything here works on the store inside the caller's transaction and on a game's rules
through pbem.rules.api only. Mail leaves through ``Mailer`` (queued in the outbox, in the same
transaction as the change it reports).
"""
from __future__ import annotations

import hashlib
import secrets as secrets_module
import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from pbem.games import rules_for
from pbem.judge.faults import fault_point
from pbem.judge.player_secrets import KEYED, hashed, new_secret
from pbem.judge.settings import settings_of
from pbem.judge.store import Store, dumps, pack_state
from pbem.rules.api import (RULES_VERSION_KEY, Event, GameRules, Phase, acts_at_once, left_orders,
                            rules_version)
from pbem.rules.rng import DICE_KEY, DICE_VERSION, Rng, dice_version


class JudgeError(Exception):
    """A game-master command that cannot be done; the message says why and how to fix it."""


@dataclass
class Game:
    """A game row with its rules, loaded for one operation."""

    row: sqlite3.Row
    rules: GameRules

    @property
    def id(self) -> int:
        return self.row["id"]

    @property
    def name(self) -> str:
        return self.row["name"]

    @property
    def state(self) -> Any:
        return json.loads(self.row["state"])

    @property
    def seq(self) -> int:
        return self.row["phase_seq"]


def state_hash(state: Any) -> str:
    return hashlib.sha256(dumps(state).encode("utf-8")).hexdigest()


def game_dice(game: Game) -> int:
    """The dice version the game was created with, from its stored options (docs/architecture.md,
    "Chance and replay"): a stored game keeps its dice whatever pbem replays or continues it."""
    try:
        return dice_version(json.loads(game.row["options"]))
    except ValueError as e:
        raise JudgeError(f"game {game.name!r}: {e}") from None


def phase_rng(game: Game, seq: int, phase_id: str) -> Rng:
    """One generator per game and phase (DESIGN.md, "Determinism"), with the game's dice."""
    return Rng.for_phase(game.row["seed"], f"{seq}:{phase_id}", game_dice(game))


def load_game(store: Store, name: str) -> Game:
    row = store.one("SELECT * FROM games WHERE name=?", name)
    if row is None:
        names = [r["name"] for r in store.all("SELECT name FROM games ORDER BY name")]
        known = f"; games here: {', '.join(names)}" if names else "; there are no games yet"
        raise JudgeError(f"no game named {name!r}{known}")
    return Game(row, rules_for(row["game_type"]))


def reload(store: Store, game: Game) -> Game:
    return Game(store.row("SELECT * FROM games WHERE id=?", game.id), game.rules)


def players(store: Store, game_id: int) -> list[sqlite3.Row]:
    return store.all("SELECT * FROM players WHERE game_id=? ORDER BY seat", game_id)


def observers(store: Store, game_id: int) -> list[str]:
    """The addresses that get the game's public report (pbem.judge.seats adds and removes them)."""
    return [r["email"] for r in store.all("SELECT email FROM observers WHERE game_id=? ORDER BY added_at, email",
                                          game_id)]


def player_row(store: Store, game: Game, player: str) -> sqlite3.Row:
    """``player``'s row, or a JudgeError naming the game's players."""
    row = store.one("SELECT * FROM players WHERE game_id=? AND name=?", game.id, player)
    if row is None:
        raise JudgeError(f"game {game.name!r} has no player {player!r}; players: "
                         + ", ".join(p["name"] for p in players(store, game.id)))
    return row


def current_phase(game: Game) -> Phase:
    return game.rules.phase(game.state)


def phase_row(store: Store, game: Game) -> sqlite3.Row:
    return store.row("SELECT * FROM phases WHERE game_id=? AND seq=?", game.id, game.seq)


# -- creation ------------------------------------------------------------------------------

def create_game(store: Store, game_type: str, name: str, seats: Sequence[tuple[str, str]],
                options: Mapping[str, Any], phase_hours: float, reminder_hours: float,
                gm_email: str | None, now: float, seed: str | None = None) -> tuple[Game, dict[str, str]]:
    """Create a game and open its first phase. Returns the game and each player's secret (to
    be mailed once; only its hash is kept). ``seed`` fixes the game's chance (tests, golden
    playthroughs); None, always from the command line, draws a fresh secret one."""
    rules = rules_for(game_type)
    if store.one("SELECT 1 FROM games WHERE name=?", name):
        raise JudgeError(f"a game named {name!r} exists already; choose another --name")
    names = [seat[0] for seat in seats]
    if len(set(names)) != len(names):
        raise JudgeError("two players have the same name; each --player NAME must be different")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise JudgeError(f"{rules.title} takes {rules.min_players} to {rules.max_players} players, "
                         f"not {len(names)}")
    if phase_hours <= 0 or reminder_hours < 0:
        raise JudgeError("--phase-hours must be more than 0 and --reminder-hours 0 or more")
    seed = seed or secrets_module.token_hex(16)
    # The stored options are complete and carry the rules version (docs/architecture.md, "Rules
    # versions") and the dice version ("Chance and replay"): a later change of a default, of a
    # rule or of the dice never changes a stored game.
    options = {**{o.name: o.default for o in rules.options()}, **options,
               RULES_VERSION_KEY: rules_version(rules), DICE_KEY: DICE_VERSION}
    try:
        state = rules.setup(options, names, Rng.for_phase(seed, "setup", DICE_VERSION))
    except ValueError as exc:   # options that do not fit each other or the players (the game says which)
        raise JudgeError(str(exc)) from exc
    cursor = store.run(
        "INSERT INTO games(name, game_type, options, seed, status, phase_hours, reminder_hours, "
        "gm_email, created_at, state, phase_seq) VALUES(?,?,?,?,?,?,?,?,?,?,0)",
        name, game_type, dumps(dict(options)), seed, "running", phase_hours, reminder_hours,
        gm_email, now, dumps(state))
    game_id = cursor.lastrowid
    secrets: dict[str, str] = {}
    for seat, (player, email) in enumerate(seats):
        secrets[player] = new_secret()
        store.run("INSERT INTO players(game_id, name, email, seat, secret_salt, secret_hash, secret_scheme) "
                  "VALUES(?,?,?,?,?,?,?)", game_id, player, email.lower(), seat, *hashed(secrets[player], KEYED))
    game = Game(store.row("SELECT * FROM games WHERE id=?", game_id), rules)
    return open_phase(store, game, state, now), secrets


def open_phase(store: Store, game: Game, state: Any, now: float) -> Game:
    """Record ``state`` as the game's state and open the phase it waits on."""
    phase = game.rules.phase(state)
    seq = game.seq + 1
    deadline = now + game.row["phase_hours"] * phase.share * 3600 if phase.deciders else now
    store.run("INSERT INTO phases(game_id, seq, phase_id, title, deciders, opened_at, state_before) "
              "VALUES(?,?,?,?,?,?,?)", game.id, seq, phase.id, phase.title, dumps(list(phase.deciders)),
              now, pack_state(dumps(state)))
    paused = game.row["status"] == "paused"
    store.run("UPDATE games SET state=?, phase_seq=?, deadline=?, reminded=0, paused_left=?, in_grace=0, "
              "deadline_sequence=deadline_sequence+1 WHERE id=?",
              dumps(state), seq, None if paused else deadline,
              (deadline - now) if paused else None, game.id)
    return reload(store, game)


# -- orders --------------------------------------------------------------------------------

def store_orders(store: Store, game: Game, player: str, message_id: str, document: str,
                 canonical: Any | None, errors: Sequence[str], ready: bool, wait: bool,
                 now: float, at_once: Any | None = None) -> int:
    """Keep the mail as received and, when it is valid and carries orders for the phase
    (``canonical`` not None), make them the player's order set for the phase (a new valid mail
    replaces the whole set; a rejected one leaves the old set standing; a mail that only acts
    at once leaves it alone). Returns the mail's row id."""
    understood = None
    if not errors and (canonical is not None or at_once is not None):
        understood = canonical if at_once is None else {"orders": canonical, "at_once": at_once}
    cursor = store.run(
        "INSERT INTO order_mails(game_id, seq, player, message_id, received_at, document, understood, errors) "
        "VALUES(?,?,?,?,?,?,?,?)", game.id, game.seq, player, message_id, now, document,
        None if understood is None else dumps(understood), dumps(list(errors)))
    if canonical is not None and not errors:
        store.run("INSERT INTO orders(game_id, seq, player, canonical, ready, wait, mail_id) "
                  "VALUES(?,?,?,?,?,?,?) ON CONFLICT(game_id, seq, player) DO UPDATE SET "
                  "canonical=excluded.canonical, ready=excluded.ready, wait=excluded.wait, "
                  "mail_id=excluded.mail_id", game.id, game.seq, player, dumps(canonical),
                  1 if ready else 0, 1 if wait else 0, cursor.lastrowid)
        store.run("INSERT OR IGNORE INTO recheck(game_id) VALUES(?)", game.id)
    assert cursor.lastrowid is not None   # set by every INSERT
    return cursor.lastrowid


# -- at-once actions (pbem.rules.api.ActsAtOnce) ----------------------------------------------

@dataclass
class Action:
    """One player's at-once action, computed (pure) before anything is stored: the mail it
    came in may still be refused for the rest of its orders."""

    n: int
    player: str
    canonical: Any
    resolution: Any      # pbem.rules.api.Resolution
    rolls: list


def action_rng(game: Game, seq: int, phase_id: str, n: int) -> Rng:
    """Each action has its own generator, like each phase (DESIGN.md, "Determinism")."""
    return Rng.for_phase(game.row["seed"], f"{seq}:{phase_id}:at-once-{n}", game_dice(game))


def compute_action(store: Store, game: Game, player: str, canonical: Any) -> Action:
    row = store.row("SELECT COALESCE(MAX(n), 0) AS n FROM actions WHERE game_id=? AND seq=?", game.id, game.seq)
    n = row["n"] + 1
    phase = current_phase(game)
    rng = action_rng(game, game.seq, phase.id, n)
    resolution = acts_at_once(game.rules).act(game.state, player, canonical, rng)
    if game.rules.phase(resolution.state).id != phase.id:
        raise RuntimeError(f"{game.rules.type_name}: an at-once action moved the game off phase {phase.id}")
    return Action(n, player, canonical, resolution, [list(r) for r in rng.rolls])


def record_action(store: Store, game: Game, action: Action, mail_id: int | None, now: float) -> Game:
    """Store the action, its events and the state it leaves, in the caller's transaction."""
    state = action.resolution.state
    store.run("INSERT INTO actions(game_id, seq, n, player, canonical, mail_id, done_at, state_after, "
              "state_after_hash, rolls) VALUES(?,?,?,?,?,?,?,?,?,?)", game.id, game.seq, action.n,
              action.player, dumps(action.canonical), mail_id, now, pack_state(dumps(state)), state_hash(state),
              dumps(action.rolls))
    _store_events(store, game, action.resolution.events, action.n)
    store.run("UPDATE games SET state=? WHERE id=?", dumps(state), game.id)
    return reload(store, game)


def actions_of(store: Store, game_id: int, seq: int) -> list[sqlite3.Row]:
    return store.all("SELECT * FROM actions WHERE game_id=? AND seq=? ORDER BY n", game_id, seq)


def games_to_recheck(store: Store) -> set[int]:
    """Games whose orders changed since the tick last asked whether they are due."""
    return {r["game_id"] for r in store.all("SELECT game_id FROM recheck")}


def rechecked(store: Store, game_id: int) -> None:
    store.run("DELETE FROM recheck WHERE game_id=?", game_id)


def orders_status(store: Store, game: Game) -> tuple[list[str], list[str], bool]:
    """(deciders, players whose set is complete, whether someone asked to wait)."""
    deciders = json.loads(phase_row(store, game)["deciders"])
    rows = store.all("SELECT player, ready, wait FROM orders WHERE game_id=? AND seq=?", game.id, game.seq)
    done = [r["player"] for r in rows if r["ready"] and r["player"] in deciders]
    waiting = any(r["wait"] for r in rows if r["player"] in deciders)
    return deciders, done, waiting


def is_due(store: Store, game: Game, now: float) -> bool:
    if game.row["status"] != "running":
        return False
    if game.row["deadline"] is not None and game.row["deadline"] <= now:
        return True
    deciders, done, waiting = orders_status(store, game)
    awaited = set(deciders) - excused(store, game, now)
    # A phase whose deciders are all excused still waits for its deadline: it must not race on.
    return not waiting and set(done) >= (awaited if awaited else set(deciders))


def standins_now(store: Store, game: Game) -> dict[str, list[str]]:
    """The addresses of the stand-ins begun and not ended, by the player they stand in for: they
    are sent what that player is (reports, reminders, news; pbem.judge.absences begins and ends them)."""
    out: dict[str, list[str]] = {}
    for row in store.all("SELECT DISTINCT player, standin FROM absences WHERE game_id=? AND standin_state=1 "
                         "ORDER BY player, standin", game.id):
        out.setdefault(row["player"], []).append(row["standin"])
    return out


def excused(store: Store, game: Game, now: float) -> set[str]:
    """Deciders the phase does not wait for (their default orders are used unless they order):
    positions in civil disorder, and players away under the game's `default` absence policy, or
    under `standin` with no stand-in (pbem.judge.settings; docs/players-guide.md)."""
    names = {r["name"] for r in store.all("SELECT name FROM players WHERE game_id=? AND disorder=1", game.id)}
    policy = settings_of(game.row)["away_policy"]
    if policy in ("default", "standin"):
        names |= {r["player"] for r in store.all("SELECT player FROM absences WHERE game_id=? AND away_from<=? "
                                                  "AND away_to>? AND (? OR standin IS NULL)", game.id, now, now,
                                                  policy == "default")}
    return names


# -- resolution ----------------------------------------------------------------------------

@dataclass
class Resolved:
    """One resolved phase, for the reports."""

    seq: int
    phase_id: str
    title: str
    events: list[Event]
    defaulted: list[str]


def gather_orders(store: Store, game: Game, state: Any, deciders: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    stored = {r["player"]: json.loads(r["canonical"]) for r in
              store.all("SELECT player, canonical FROM orders WHERE game_id=? AND seq=?", game.id, game.seq)}
    # A position in civil disorder has left, as far as the judge knows: the game may say what that
    # does (pbem.rules.api.LeavesGame); otherwise it plays its default orders.
    gone = {r["name"] for r in store.all("SELECT name FROM players WHERE game_id=? AND disorder=1", game.id)}
    orders, defaulted = {}, []
    for player in deciders:
        if player in stored:
            orders[player] = stored[player]
        else:
            view = game.rules.view(state, player)
            orders[player] = (left_orders(game.rules, view, player) if player in gone
                              else game.rules.default_orders(view, player))
            defaulted.append(player)
    return orders, defaulted


@dataclass
class Outcome:
    """The open phase resolved with the orders in hand, not yet stored."""

    row: sqlite3.Row            # the phase's row
    orders: dict[str, Any]      # every decider's orders, defaults included
    defaulted: list[str]
    rng: Rng
    resolution: Any             # pbem.rules.api.Resolution


def outcome(store: Store, game: Game) -> Outcome:
    """Resolve the open phase without storing anything, with default orders for the deciders
    who sent none: resolve_once stores it, `pbem game preview` only shows it."""
    state = game.state
    row = phase_row(store, game)
    orders, defaulted = gather_orders(store, game, state, json.loads(row["deciders"]))
    rng = phase_rng(game, game.seq, row["phase_id"])
    return Outcome(row, orders, defaulted, rng, game.rules.resolve(state, orders, rng))


def resolve_once(store: Store, game: Game, now: float) -> tuple[Game, Resolved]:
    """Resolve the open phase and open the next one (or end the game)."""
    done = outcome(store, game)
    row, resolution = done.row, done.resolution
    _store_events(store, game, resolution.events)
    store.run("UPDATE phases SET resolved_at=?, orders_used=?, defaulted=?, state_after_hash=?, rolls=? "
              "WHERE game_id=? AND seq=?", now, dumps(done.orders), dumps(done.defaulted),
              state_hash(resolution.state), dumps([list(r) for r in done.rng.rolls]), game.id, game.seq)
    resolved = Resolved(game.seq, row["phase_id"], row["title"], list(resolution.events), done.defaulted)
    result = game.rules.result(resolution.state)
    if result is not None:
        store.run("UPDATE games SET state=?, status='over', deadline=NULL, result=? WHERE id=?",
                  dumps(resolution.state), dumps({"winners": list(result.winners), "text": result.text}),
                  game.id)
        return reload(store, game), resolved
    return open_phase(store, game, resolution.state, now), resolved


def resolve_due(store: Store, game: Game, now: float, force: bool = False) -> tuple[Game, list[Resolved]]:
    """Resolve the open phase if it is due (or ``force``), then every following phase that needs
    no orders, stopping at the next phase that waits on players."""
    chain: list[Resolved] = []
    if not (force or is_due(store, game, now)):
        return game, chain
    game, resolved = resolve_once(store, game, now)
    chain.append(resolved)
    fault_point("in-resolution")
    while game.row["status"] == "running" and not json.loads(phase_row(store, game)["deciders"]):
        game, resolved = resolve_once(store, game, now)
        chain.append(resolved)
    return game, chain


def visible_events(events: Sequence[Event], player: str | None) -> list[Event]:
    return [e for e in events if e.audience.sees(player)]


def _store_events(store: Store, game: Game, events: Sequence[Event], action: int | None = None) -> None:
    """The events of the open phase's resolution (``action`` None) or of at-once action n."""
    for event in events:
        store.run("INSERT INTO events(game_id, seq, kind, text, audience, data, action, said) "
                  "VALUES(?,?,?,?,?,?,?,?)", game.id, game.seq, event.kind, event.text,
                  dumps(event.audience.to_json()), dumps(dict(event.data)), action,
                  None if event.said is None else dumps(event.said.to_json()))


def stored_events(store: Store, game_id: int, seq: int, resolution_only: bool = False) -> list[Event]:
    """The stored events of a phase (``resolution_only``: without those of at-once actions, as
    the phase's report told them); one stored before events carried ``said`` reads with none."""
    only = " AND action IS NULL" if resolution_only else ""
    return [Event.from_json({"kind": r["kind"], "text": r["text"], "audience": json.loads(r["audience"]),
                             "data": json.loads(r["data"]), "said": json.loads(r["said"] or "null")})
            for r in store.all(f"SELECT * FROM events WHERE game_id=? AND seq=?{only} ORDER BY id", game_id, seq)]
