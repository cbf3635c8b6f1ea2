"""Players' absences and time zones by mail (issue 15; docs/players-guide.md, "Away" and "Time
zone"). A player announces `away: {from: DATE, to: DATE}`; the game's policy (pbem.judge.settings)
decides what it does: `extend` moves a deadline that falls in the absence to its end, up to
`away_days` per player in the whole game (bounded: one player cannot stall a game forever),
`default`: the phase does not wait for the player (engine.excused), or `standin`: a stand-in the
player (`away: {from, to, standin: ADDRESS}`) or the game master (`pbem game standin`) names plays
the position meanwhile, with a secret of its own the judge mails it when the absence begins; its
access ends with the absence (a tick begins and ends stand-ins: standins_due). Everyone is told."""
from __future__ import annotations

import datetime
import functools
import hmac
import zoneinfo
from typing import Any

from pbem.judge import engine, history, player_secrets
from pbem.judge.mailer import Mailer, game_info
from pbem.judge.render import render
from pbem.judge.settings import settings_of
from pbem.judge.store import Store
from pbem.mail.outgoing import address_problem
from pbem.orders.yamlsafe import YMap
from pbem.rules.api import OrderError

DAY = 86400
MAX_ABSENCE_DAYS = 366     # one announced absence spans at most this
MAX_ABSENCES = 5           # absences a player may have announced ahead at once


@functools.lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) | {"UTC"}


def zone_problem(name: str) -> OrderError | None:
    if name in known_zones():
        return None
    close = sorted(z for z in known_zones() if z.lower() == name.lower() or z.split("/")[-1].lower() ==
                   name.lower().replace(" ", "_"))
    return OrderError(None, f"{name[:60]!r} is not a time zone the judge knows",
                      "write an IANA name such as Europe/Paris or America/New_York"
                      + (f" (did you mean {', '.join(close[:3])}?)" if close else ""))


def zone(name: str | None) -> datetime.tzinfo:
    """A player's time zone (None or unknown: UTC)."""
    if name and name in known_zones():
        return zoneinfo.ZoneInfo(name)
    return datetime.timezone.utc


def read_away(value: Any, line: int | None, tz_name: str | None,
              now: float) -> tuple[tuple[float, float] | None, str | None, list[OrderError]]:
    """`away:` as written: ((from, to) in epoch seconds, the stand-in's address or None, []), or
    (None, None, []) for `none` (cancel), or (None, None, errors). Dates are whole days in the
    player's time zone: from the start of `from` to the end of `to`."""
    if isinstance(value, str) and value.strip().lower() == "none":
        return None, None, []
    how = ("write `away: {from: 2026-12-20, to: 2027-01-03}` (dates as YEAR-MONTH-DAY; where the game "
           "takes stand-ins, `standin: ADDRESS` besides), or `away: none`")
    if not isinstance(value, YMap) or not {"from", "to"} <= set(value) <= {"from", "to", "standin"}:
        return None, None, [OrderError(line, "`away:` takes `from:` and `to:`, two dates (and `standin:`, "
                                             "an address)", how)]
    standin = value.get("standin")
    if standin is not None:
        problem = address_problem(standin) if isinstance(standin, str) else "it is not one address"
        if problem:
            return None, None, [OrderError(value.line_of("standin"), f"`standin:` is not a mail address the "
                                           f"judge can write to: {problem[:120]}", "write one address, such "
                                           "as friend@example.org")]
        standin = standin.strip().lower()
    days = []
    for key in ("from", "to"):
        text = value.get(key)
        try:
            day = datetime.date.fromisoformat(text.strip()) if isinstance(text, str) else None
        except ValueError:
            day = None
        if day is None:
            return None, None, [OrderError(value.line_of(key), f"`{key}:` is not a date: {str(text)[:40]!r}", how)]
        days.append(day)
    span, wrong = day_span(days[0], days[1], tz_name, now)
    if wrong is not None:
        return None, None, [OrderError(line, *wrong)]
    return span, standin, []


def day_span(first: datetime.date, last: datetime.date, tz_name: str | None,
             now: float) -> tuple[tuple[float, float], tuple[str, str] | None]:
    """Whole days ``first`` to ``last`` in the time zone as epoch seconds, and what is wrong
    with them as an absence ((problem, fix), or None)."""
    tz = zone(tz_name)
    start = datetime.datetime.combine(first, datetime.time(), tz).timestamp()
    end = datetime.datetime.combine(last + datetime.timedelta(days=1), datetime.time(), tz).timestamp()
    if end <= start:
        return (start, end), ("`to:` comes before `from:`", "swap the two dates")
    if end <= now:
        return (start, end), ("that absence is already over", "give dates to come")
    if end - start > MAX_ABSENCE_DAYS * DAY:
        return (start, end), (f"an absence spans at most {MAX_ABSENCE_DAYS} days",
                              "ask your game master to replace you for a longer one")
    return (start, end), None


def announce(store: Store, mailer: Mailer, game: engine.Game, player: str, span: tuple[float, float] | None,
             now: float, standin: str | None = None) -> OrderError | None:
    """Record ``player``'s absence, with its stand-in (None: cancel the ones to come, ending a
    stand-in that began); an error when too many."""
    if span is None:
        for row in store.all("SELECT * FROM absences WHERE game_id=? AND player=? AND away_to>?",
                             game.id, player, now):
            end_standin(store, mailer, game, row, f"{player} is back")
        store.run("DELETE FROM absences WHERE game_id=? AND player=? AND away_to>?", game.id, player, now)
        return None
    ahead = store.row("SELECT COUNT(*) AS n FROM absences WHERE game_id=? AND player=? AND away_to>?",
                      game.id, player, now)["n"]
    if ahead >= MAX_ABSENCES:
        return OrderError(None, f"you have {ahead} absences announced already, the most the judge keeps",
                          "send `away: none` to cancel them, then announce the one you need")
    old = store.one("SELECT * FROM absences WHERE game_id=? AND player=? AND away_from=?", game.id, player, span[0])
    if old is not None:
        end_standin(store, mailer, game, old, f"{player} announced that absence again")
    store.run("INSERT OR REPLACE INTO absences(game_id, player, away_from, away_to, announced_at, standin) "
              "VALUES(?,?,?,?,?,?)", game.id, player, span[0], span[1], now, standin)
    return None


def standin_problem(store: Store, game: engine.Game, player: str, email: str) -> str | None:
    """Why ``email`` cannot stand in for ``player`` in ``game`` (None: it can). Each player plays
    one position: no player of the game stands in for another."""
    policy = settings_of(game.row)["away_policy"]
    if policy != "standin":
        return (f"game {game.name!r} takes no stand-ins: its absence policy is "
                f"{policy} (the game master may set away_policy=standin)")
    for row in engine.players(store, game.id):
        if row["email"] == email.lower():
            return (f"{email} plays {row['name']} in game {game.name!r}: each player plays one position; "
                    f"name someone who does not play in it")
    return None


# The stand-ins to begin (named, their absence begun) or to end (begun, their absence over):
# the partial index absences_standin (schema version 7) holds only those named and not ended.
STANDINS_DUE = ("standin IS NOT NULL AND standin_state<2 AND away_from<=? AND (standin_state=0 OR away_to<=?)")


def standins_due(store: Store, mailer: Mailer, now: float, game_id: int | None = None) -> int:
    """Begin the stand-ins whose absence began (a secret of their own drawn and mailed, with the
    position's current report) and end those whose absence ended (their secret dropped, they are
    told), or that had not begun when their game ended. Linear in the stand-ins named and not yet
    ended (an index). Returns how many began or ended."""
    only = " AND game_id=?" if game_id is not None else ""
    rows = store.all(f"SELECT * FROM absences WHERE {STANDINS_DUE}{only} ORDER BY game_id, away_from",
                     now, now, *(() if game_id is None else (game_id,)))
    games: dict[int, engine.Game] = {}
    for row in rows:
        if row["game_id"] not in games:
            name = store.row("SELECT name FROM games WHERE id=?", row["game_id"])["name"]
            games[row["game_id"]] = engine.load_game(store, name)
        game = games[row["game_id"]]
        if row["away_to"] <= now or game.row["status"] == "over" and row["standin_state"] == 0:
            end_standin(store, mailer, game, row, f"{row['player']}'s absence ended" if row["away_to"] <= now
                        else f"game {game.name!r} is over")
        else:
            _begin_standin(store, mailer, game, row)
    return len(rows)


def _begin_standin(store: Store, mailer: Mailer, game: engine.Game, row: Any) -> None:
    """The stand-in gets a secret of its own (only its keyed hash is kept: player_secrets.KEYED, as for a
    secret the judge draws for a player) and the position's current report, the player's view."""
    secret = player_secrets.new_secret()
    salt, digest, _ = player_secrets.hashed(secret, player_secrets.KEYED)
    store.run("UPDATE absences SET standin_salt=?, standin_hash=?, standin_state=1 WHERE game_id=? AND player=? "
              "AND away_from=?", salt, digest, game.id, row["player"], row["away_from"])
    player = row["player"]
    context = mailer.report_context(game, history.last_chain(store, game), player, game.rules.view(game.state, player))
    body = render("standin.txt.j2", game=game_info(game), me=player, secret=secret,
                  span=span_text((row["away_from"], row["away_to"]), None), report=render("report.txt.j2", **context))
    mailer.queue(to=row["standin"], to_name=f"stand-in for {player}", subject=f"[{game.name}] You stand in for "
                 f"{player}", body=body, purpose="standin", game_id=game.id, game_name=game.name,
                 attachments=mailer.deadline_ics(game))


def end_standin(store: Store, mailer: Mailer, game: engine.Game, row: Any, why: str) -> None:
    """End the stand-in of absence ``row``, if it has one not ended yet: its secret is dropped at
    once; told, if it had begun."""
    if row["standin"] is None or row["standin_state"] >= 2:
        return
    store.run("UPDATE absences SET standin_salt=NULL, standin_hash=NULL, standin_state=2 WHERE game_id=? "
              "AND player=? AND away_from=?", game.id, row["player"], row["away_from"])
    if row["standin_state"] == 1:
        body = render("standin_end.txt.j2", game=game_info(game), me=row["player"], why=why)
        mailer.queue(to=row["standin"], to_name=f"stand-in for {row['player']}",
                     subject=f"[{game.name}] You no longer stand in for {row['player']}", body=body,
                     purpose="standin", game_id=game.id, game_name=game.name)


def is_standin(store: Store, game: engine.Game, player: str, email: str, secret: str, now: float) -> bool:
    """Whether ``email`` with ``secret`` is ``player``'s stand-in now: an absence begun and not
    over, naming that address, whose stand-in secret this is (compared in constant time)."""
    for row in store.all("SELECT standin_salt, standin_hash FROM absences WHERE game_id=? AND player=? AND "
                         "standin=? AND standin_state=1 AND away_from<=? AND away_to>?",
                         game.id, player, email, now, now):
        if hmac.compare_digest(player_secrets.keyed_hash(secret, row["standin_salt"]), row["standin_hash"]):
            return True
    return False


def name_standin(store: Store, mailer: Mailer, game: engine.Game, player: str, email: str,
                 until: datetime.date | None, now: float) -> str:
    """The game master names ``email`` the stand-in of ``player``: for an absence from now to the
    end of ``until`` (the player's time zone), or, without it, for the player's current absence
    (else their next one). Returns the line the players are told."""
    tz = engine.player_row(store, game, player)["timezone"]
    if game.row["status"] == "over":
        raise engine.JudgeError(f"game {game.name!r} is over")
    problem = standin_problem(store, game, player, email)
    if problem:
        raise engine.JudgeError(problem)
    if until is not None:
        today = datetime.datetime.fromtimestamp(now, zone(tz)).date()
        span, wrong = day_span(today, until, tz, now)
        if wrong is not None:
            raise engine.JudgeError(f"--until {until.isoformat()}: {wrong[0]}")
        span = (now, span[1])
        too_many = announce(store, mailer, game, player, span, now, email.lower())
        if too_many:
            raise engine.JudgeError(f"{player} has {MAX_ABSENCES} absences announced already, the most the "
                                    f"judge keeps; name the stand-in of one of them (leave out --until)")
    else:
        row = store.one("SELECT * FROM absences WHERE game_id=? AND player=? AND away_to>? ORDER BY away_from "
                        "LIMIT 1", game.id, player, now)
        if row is None:
            raise engine.JudgeError(f"{player} has announced no absence to come; give --until DATE to name a "
                                    f"stand-in from now until DATE")
        end_standin(store, mailer, game, row, "the game master named another stand-in")
        store.run("UPDATE absences SET standin=?, standin_state=0, standin_salt=NULL, standin_hash=NULL "
                  "WHERE game_id=? AND player=? AND away_from=?", email.lower(), game.id, player, row["away_from"])
        span = (row["away_from"], row["away_to"])
    standins_due(store, mailer, now, game.id)
    return (f"{email.lower()} stands in for {player} from {span_text(span, tz)}: it gets {player}'s reports "
            f"and its orders count as {player}'s; {player}'s own secret keeps working")


def extend_for_absences(store: Store, mailer: Mailer, game: engine.Game, now: float) -> engine.Game:
    """Under the `extend` policy: while the open phase's deadline falls inside the absence of one
    of its deciders, move it to the absence's end, as far as that player's allowance (`away_days`
    in the whole game) reaches; everyone is told of each move. Whether the absent player has
    ordered does not matter: the move is told to everyone, and must not tell them that (only
    how many have ordered is known, docs/security.md); and an absent player cannot answer what
    others do in the meantime."""
    settings = settings_of(game.row)
    if settings["away_policy"] != "extend" or game.row["status"] != "running" or game.row["deadline"] is None:
        return game
    deciders = engine.orders_status(store, game)[0]
    moved = True
    while moved:   # each pass moves the deadline on or stops: at most one pass per absence
        moved = False
        deadline = game.row["deadline"]
        for row in store.all("SELECT a.player, a.away_to, p.away_days_used FROM absences a JOIN players p "
                             "ON p.game_id=a.game_id AND p.name=a.player WHERE a.game_id=? AND a.away_from<=? "
                             "AND a.away_to>? ORDER BY a.away_to DESC", game.id, deadline, deadline):
            if row["player"] not in deciders:
                continue
            left = settings["away_days"] * DAY - row["away_days_used"] * DAY
            shift = min(row["away_to"] - deadline, left)
            if shift <= 0:
                continue
            store.run("UPDATE players SET away_days_used=away_days_used+? WHERE game_id=? AND name=?",
                      shift / DAY, game.id, row["player"])
            store.run("UPDATE games SET deadline=deadline+?, reminded=0, deadline_sequence=deadline_sequence+1 "
                      "WHERE id=?", shift, game.id)
            game = engine.reload(store, game)
            left_after = (left - shift) / DAY
            mailer.notice(game, f"{row['player']} is away: the deadline of this phase moves by "
                                f"{shift / 3600:g} hours ({row['player']} has {left_after:g} days of absence "
                                f"extension left in this game)")
            moved = True
            break
    return game


def personal(store: Store, mailer: Mailer, mail: Any, envelope: Any, game: engine.Game, now: float,
             reject: Any) -> str:
    """An authenticated mail with `timezone:` and/or `away:`: all or nothing, answered at once;
    an absence is told to everyone, with what it does under the game's policy."""
    player = envelope.player
    errors: list[OrderError] = []
    tz = mailer.timezone(game, player)
    if envelope.timezone is not None:
        problem = zone_problem(envelope.timezone)
        if problem is not None:
            errors.append(problem)
        tz = envelope.timezone
    span = standin = None
    if envelope.away is not None:
        if game.row["status"] == "over":
            errors.append(OrderError(envelope.away_line, f"game {game.name!r} is over", ""))
        else:
            span, standin, more = read_away(envelope.away, envelope.away_line, None if errors else tz, now)
            errors += more
    if standin is not None:
        refused = standin_problem(store, game, player, standin)
        if refused:
            errors.append(OrderError(envelope.away_line, f"`standin:` {refused}", "leave out `standin:`, or "
                                     "name someone else"))
    if not errors and envelope.away is not None:
        too_many = announce(store, mailer, game, player, span, now, standin)
        errors += [too_many] if too_many else []
    if errors:
        return reject(game, "reject: bad away or timezone", errors)
    if envelope.timezone is not None:
        store.run("UPDATE players SET timezone=? WHERE game_id=? AND name=?",
                  None if tz == "UTC" else tz, game.id, player)
    settings = settings_of(game.row)
    if envelope.away is not None:
        not_waited = "the judge does not wait for their orders then: their default orders are used unless they order"
        policy = {"default": not_waited,
                  "extend": "a deadline that falls in it moves to its end, as far as their days of absence "
                            f"extension reach ({settings['away_days']} in the whole game)",
                  "standin": f"{standin} stands in for them then: it gets {player}'s reports and its orders "
                             f"count as {player}'s" if standin else
                             f"no stand-in is named (the game master may name one): {not_waited}"}
        mailer.notice(game, f"{player} will be away from {span_text(span, tz)}: {policy[settings['away_policy']]}"
                      if span else f"{player} is no longer away (absences to come cancelled)")
        game = extend_for_absences(store, mailer, game, now)
        standins_due(store, mailer, now, game.id)
    mailer.answer(to=mail.from_addr, subject=mail.subject or f"settings for {game.name}",
                  in_reply_to=mail.message_id, template_name="personal.txt.j2", game=game, me=player,
                  game_name=game.name, timezone=envelope.timezone and (tz or "UTC"),
                  away=None if envelope.away is None else (span_text(span, tz) if span else "none"),
                  tz=None if tz == "UTC" else tz, deadline=game.row["deadline"])
    return "away or timezone set"


def span_text(span: tuple[float, float], tz_name: str | None) -> str:
    """An absence as whole days in the player's time zone: "2026-12-20 to 2027-01-03"."""
    tz = zone(tz_name)
    first = datetime.datetime.fromtimestamp(span[0], tz).date()
    last = datetime.datetime.fromtimestamp(span[1], tz).date() - datetime.timedelta(days=1)
    shown = tz_name if tz_name and tz_name != "UTC" else "UTC"
    return f"{first.isoformat()} to {last.isoformat()} ({shown})"
