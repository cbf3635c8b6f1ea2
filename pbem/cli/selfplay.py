"""`pbem selfplay`: whole games played by computer players through the real judge, the judge's
crash test (docs/computer-players.md, "Self-play").

Each game is created in a judge home on the embedded default (Maildir in and out, SQLite) with a
player of a kind in every seat (``--mix``, dealt round the table and turned by one seat each game):

- ``bot``: a seat the game's computer player holds; the judge's own tick step orders for it
  (pbem.judge.computer), as in any game with a computer seat: no mail goes in or out for it;
- ``random``: a person's seat whose orders are the game's random legal orders (random_orders),
  mailed into the inbox Maildir as a player's mail client would, once a phase;
- ``default``: a person's seat that never writes: the deadline passes and its default orders count.

Then it ticks (`pbem tick`'s own run_tick) with a moving clock: a minute on while the phase can
still resolve early, to just past the deadline when it waits on someone who will not order. A
game passes when it ends within ``--max-ticks``, with no internal error (a mail kept or put
aside, a game stopped, an alert to the game master) and an exact replay (`pbem replay`).
"""
from __future__ import annotations

import dataclasses
import json
import mailbox
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from email.utils import make_msgid
from pathlib import Path
from typing import Iterator, Sequence

import click

from pbem.cli.base import fail, main
from pbem.cli.game import _options
from pbem.demo import order_mail
from pbem.games import UnknownGameType, rules_for
from pbem.judge import archive, engine
from pbem.judge.home import Home, HomeError, init_home
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store
from pbem.judge.tick import TickReport, run_tick
from pbem.rules.api import random_orders
from pbem.rules.rng import Rng

KINDS = ("bot", "random", "default")
NAMES = ("anna", "bela", "csaba", "dora", "erno", "flora", "gabor", "hanna")
DOMAIN = "selfplay.test"
MINUTE = 60.0


@dataclass
class Played:
    """One self-played game, as the summary tells it."""

    name: str
    seats: dict[str, str]                 # player -> kind
    phases: int = 0
    rounds: int = 0
    ticks: int = 0
    mails_in: int = 0
    mails_out: int = 0
    over: bool = False
    winners: tuple[str, ...] = ()
    result: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.over and not self.problems

    def line(self) -> str:
        won = ", ".join(f"{w} ({self.seats.get(w, '?')})" for w in self.winners) or "nobody"
        end = f"winner {won}" if self.over else "NOT OVER"
        return (f"{self.name}: {self.phases} phases, {self.rounds} rounds, {end}; mails {self.mails_in} in, "
                f"{self.mails_out} out; {self.ticks} ticks" + ("" if self.ok else " - FAILED"))


def mix_of(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    wrong = [k for k in kinds if k not in KINDS]
    if not kinds or wrong:
        raise ValueError(f"--mix {text!r}: write kinds from {', '.join(KINDS)} separated by commas, "
                         f"e.g. --mix bot,random,default")
    return kinds


def seats_of(players: int, mix: Sequence[str], turn: int) -> dict[str, str]:
    """The kind of each seat: ``mix`` dealt round the table, turned by ``turn`` seats."""
    return {NAMES[i]: mix[(i + turn) % len(mix)] for i in range(players)}


def check_rules(game_type: str, mix: Sequence[str]) -> None:
    """Refuse a mix the game cannot play (no computer player, no random orders)."""
    rules = rules_for(game_type)
    if "bot" in mix and not engine.has_computer(rules):
        raise ValueError(f"{rules.title} has no computer player yet; play it with --mix random or default")
    if "random" in mix and getattr(rules, "random_orders", None) is None:
        raise ValueError(f"{rules.title} has no random orders yet; play it with --mix bot or default")


def play_game(home: Home, game_type: str, name: str, seats: dict[str, str], options: dict, seed: str,
              max_ticks: int) -> Played:
    """One whole game through the judge: created, then mailed and ticked to its end."""
    played = Played(name, seats)
    secrets, now = _create(home, game_type, name, seats, options, seed)
    mailed: set[tuple[int, str]] = set()
    while played.ticks < max_ticks:
        game, store = _load(home, name)
        try:
            if game.row["status"] == "over":
                break
            try:
                played.mails_in += _mail_random_orders(home, store, game, seats, secrets, seed, mailed)
            except Exception as exc:  # the game's random orders raised: its bug, one line
                played.problems.append(f"random orders raised {type(exc).__name__}: {exc}")
                break
            seq, deadline = game.seq, game.row["deadline"]
        finally:
            store.close()
        report = run_tick(home, now=now)
        played.ticks += 1
        played.problems += _internal(report)
        if played.problems:
            break
        game, store = _load(home, name)
        store.close()
        # The clock: a minute on, or past the deadline of a phase that still waits on someone.
        now = now + MINUTE if game.seq != seq or deadline is None else max(now + MINUTE, deadline + 1)
    _finish(home, name, played)
    return played


def _create(home: Home, game_type: str, name: str, seats: dict[str, str], options: dict,
            seed: str) -> tuple[dict[str, str], float]:
    store = Store(home.db_path)
    now = time.time()
    try:
        with store.transaction():
            computers = [p for p, kind in seats.items() if kind == "bot"]
            game, secrets = engine.create_game(
                store, game_type, name, [(p, "" if p in computers else f"{p}@{DOMAIN}") for p in seats], options,
                48, 12, f"gm@{DOMAIN}", now, seed=seed, computers=computers)
            Mailer(store, home).welcomes(game, secrets)
    finally:
        store.close()
    return secrets, now


def _load(home: Home, name: str) -> tuple[engine.Game, Store]:
    store = Store(home.db_path)
    return engine.load_game(store, name), store


def _mail_random_orders(home: Home, store: Store, game: engine.Game, seats: dict[str, str],
                        secrets: dict[str, str], seed: str, mailed: set[tuple[int, str]]) -> int:
    """Each random seat deciding in the open phase mails its orders, once a phase."""
    phase = engine.current_phase(game)
    state = game.state
    box = mailbox.Maildir(str(home.path / "mail" / "inbox"), create=True)
    sent = 0
    for player in phase.deciders:
        if seats.get(player) != "random" or (game.seq, player) in mailed:
            continue
        mailed.add((game.seq, player))
        rng = Rng.for_phase(f"selfplay/{seed}", f"{game.seq}:{phase.id}:{player}", engine.game_dice(game))
        body = random_orders(game.rules, game.rules.view(state, player), player, rng) or ""
        box.add(order_mail(home, game.name, player, f"{player}@{DOMAIN}", secrets[player], phase.id, body,
                           make_msgid(domain=DOMAIN)))
        sent += 1
    return sent


def _internal(report: TickReport) -> list[str]:
    """What in a tick's report is an internal error: each line for a person, each mail kept after
    an error, each step that failed."""
    return list(report.attention) + [e for e in report.errors if "internal error" in e]


def _finish(home: Home, name: str, played: Played) -> None:
    """The game's phases, rounds, result, mails and replay; what the store holds of errors."""
    store = Store(home.db_path)
    try:
        game = engine.load_game(store, name)
        phases = [r["phase_id"] for r in store.all("SELECT phase_id FROM phases WHERE game_id=? AND resolved_at "
                                                   "IS NOT NULL ORDER BY seq", game.id)]
        played.phases = len(phases)
        played.rounds = len({p.split("/")[0] for p in phases if "/" in p and not p.startswith("setup")})
        played.mails_out = store.row("SELECT COUNT(*) AS n FROM outbox WHERE game_id=?", game.id)["n"]
        played.over = game.row["status"] == "over"
        if played.over:
            result = json.loads(game.row["result"])
            played.winners, played.result = tuple(result["winners"]), result["text"]
        else:
            played.problems.append(f"not over after {played.ticks} ticks (phase {engine.current_phase(game).id})")
        if game.row["stuck"]:
            played.problems.append(f"stopped: {json.loads(game.row['stuck'])['error'].splitlines()[-1]}")
        kept = store.row("SELECT COUNT(*) AS n FROM quarantine")["n"]
        alerts = store.row("SELECT COUNT(*) AS n FROM outbox WHERE game_id=? AND purpose='alert'", game.id)["n"]
        played.problems += [f"{kept} mail(s) kept after an error"] * bool(kept)
        played.problems += [f"{alerts} alert(s) to the game master"] * bool(alerts)
        replay = archive.replay(store, game)
        if not replay.ok:
            played.problems.append(f"replay differs: {replay.message}")
    finally:
        store.close()


def selfplay(path: Path, game_type: str, players: int, options: dict, games: int, seed: str,
             mix: Sequence[str], max_ticks: int) -> Iterator[Played]:
    # The clock jumps to each deadline on purpose: no jump is an outage to make up for.
    home = dataclasses.replace(init_home(path, f"judge@{DOMAIN}"), outage_minutes=1e12)
    store = Store(home.db_path)
    try:
        taken = {r["name"] for r in store.all("SELECT name FROM games")}
        running = [r["name"] for r in store.all("SELECT name FROM games WHERE status!='over' ORDER BY name")]
    finally:
        store.close()
    if running:
        # Their ticks would be this run's: what they do (or fail to do) must not count here.
        raise engine.JudgeError(f"the judge home {path} holds games that are not over ({', '.join(running[:5])}): "
                                f"self-play in a fresh --home, or delete that folder")
    run = next(n for n in range(1, 10_000) if f"selfplay{n}-1" not in taken)
    for g in range(1, games + 1):
        yield play_game(home, game_type, f"selfplay{run}-{g}", seats_of(players, mix, g - 1), options,
                        f"{seed}-{g}", max_ticks)


def summary(results: Sequence[Played], seconds: float) -> list[str]:
    wins: Counter[str] = Counter()
    seated: Counter[str] = Counter()
    for r in results:
        seated.update(r.seats.values())
        wins.update(r.seats.get(w, "?") for w in r.winners)
    failed = [r.name for r in results if not r.ok]
    per_minute = len(results) / (seconds / 60) if seconds > 0 else 0.0
    share = ", ".join(f"{kind} {wins[kind]} of {seated[kind]} seats" for kind in KINDS if seated[kind])
    return [f"{len(results)} game(s), {len(results) - len(failed)} ended cleanly and replayed exactly"
            + (f"; FAILED: {', '.join(failed)}" if failed else ""),
            f"wins by kind: {share}",
            f"phases {sum(r.phases for r in results)}, mails {sum(r.mails_in for r in results)} in, "
            f"{sum(r.mails_out for r in results)} out; {seconds:.1f}s, {per_minute:.1f} games a minute"]


@main.command("selfplay")
@click.argument("game_type")
@click.option("--players", "count", type=int, default=None, metavar="N",
              help="Seats in each game (default: the game's fewest).")
@click.option("--option", "option_specs", multiple=True, metavar="KEY=VALUE",
              help="A game option (see `pbem game options GAME_TYPE`).")
@click.option("--games", type=int, default=1, show_default=True, help="How many games to play.")
@click.option("--seed", default="selfplay", show_default=True, help="Game G's seed is SEED-G: the same seed, "
              "the same games.")
@click.option("--home", "home_dir", default="pbem-selfplay", show_default=True, metavar="DIR",
              help="The judge home to play in (created if need be; never $PBEM_HOME).")
@click.option("--mix", "mix_text", default="bot", show_default=True, metavar="KINDS",
              help="The seats' players, dealt round the table: bot (the computer player), random (random "
                   "legal orders by mail), default (never orders), e.g. bot,random,default.")
@click.option("--max-ticks", type=int, default=5000, show_default=True,
              help="A game not over after this many ticks fails.")
def selfplay_cmd(game_type, count, option_specs, games, seed, home_dir, mix_text, max_ticks):
    """Play GAMES whole games of GAME_TYPE with a computer player in every seat, through the real
    judge (order mails in the inbox, ticks, reports in the outbox); exit 1 on any internal error, a
    game that does not end, or a replay that differs."""
    try:
        rules = rules_for(game_type)
    except UnknownGameType as exc:
        fail(str(exc))
    players = rules.min_players if count is None else count
    try:
        mix = mix_of(mix_text)
        check_rules(game_type, mix)
    except ValueError as exc:
        fail(str(exc))
    if not rules.min_players <= players <= min(rules.max_players, len(NAMES)):
        fail(f"--players {players}: {rules.title} takes {rules.min_players} to {rules.max_players} players")
    if games < 1 or max_ticks < 1:
        fail("--games and --max-ticks take a number, 1 or more")
    options = _options(rules, option_specs)
    started = time.monotonic()
    results: list[Played] = []
    try:
        for played in selfplay(Path(home_dir).resolve(), game_type, players, options, games, seed, mix, max_ticks):
            results.append(played)
            click.echo(played.line())
            for problem in played.problems:
                click.echo(f"  {problem}")
    except (engine.JudgeError, HomeError) as exc:
        fail(str(exc))
    for line in summary(results, time.monotonic() - started):
        click.echo(line)
    if any(not r.ok for r in results):
        sys.exit(1)
