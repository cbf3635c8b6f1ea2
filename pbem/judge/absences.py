"""Players' absences and time zones by mail (issue 15; docs/players-guide.md, "Away" and "Time
zone"). A player announces `away: {from: DATE, to: DATE}`; the game's policy (pbem.judge.settings)
decides what it does: `extend` moves a deadline that falls in the absence to its end, up to
`away_days` per player in the whole game (bounded: one player cannot stall a game forever), or
`default`: the phase does not wait for the player (engine.excused). Everyone is told."""
from __future__ import annotations

import datetime
import functools
import zoneinfo
from typing import Any

from pbem.judge import engine
from pbem.judge.mailer import Mailer
from pbem.judge.settings import settings_of
from pbem.judge.store import Store
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
              now: float) -> tuple[tuple[float, float] | None, list[OrderError]]:
    """`away:` as written: ((from, to) in epoch seconds, []), or (None, []) for `none` (cancel),
    or (None, errors). Dates are whole days in the player's time zone: from the start of `from`
    to the end of `to`."""
    if isinstance(value, str) and value.strip().lower() == "none":
        return None, []
    how = "write `away: {from: 2026-12-20, to: 2027-01-03}` (dates as YEAR-MONTH-DAY), or `away: none`"
    if not isinstance(value, YMap) or set(value) != {"from", "to"}:
        return None, [OrderError(line, "`away:` takes `from:` and `to:`, two dates", how)]
    tz = zone(tz_name)
    days = []
    for key in ("from", "to"):
        text = value.get(key)
        try:
            day = datetime.date.fromisoformat(text.strip()) if isinstance(text, str) else None
        except ValueError:
            day = None
        if day is None:
            return None, [OrderError(value.line_of(key), f"`{key}:` is not a date: {str(text)[:40]!r}", how)]
        days.append(day)
    start = datetime.datetime.combine(days[0], datetime.time(), tz).timestamp()
    end = datetime.datetime.combine(days[1] + datetime.timedelta(days=1), datetime.time(), tz).timestamp()
    if end <= start:
        return None, [OrderError(line, "`to:` comes before `from:`", "swap the two dates")]
    if end <= now:
        return None, [OrderError(line, "that absence is already over", "give dates to come")]
    if end - start > MAX_ABSENCE_DAYS * DAY:
        return None, [OrderError(line, f"an absence spans at most {MAX_ABSENCE_DAYS} days",
                                 "ask your game master to replace you for a longer one")]
    return (start, end), []


def announce(store: Store, game: engine.Game, player: str, span: tuple[float, float] | None,
             now: float) -> OrderError | None:
    """Record ``player``'s absence (None: cancel the ones to come); an error when too many."""
    if span is None:
        store.run("DELETE FROM absences WHERE game_id=? AND player=? AND away_to>?", game.id, player, now)
        return None
    ahead = store.row("SELECT COUNT(*) AS n FROM absences WHERE game_id=? AND player=? AND away_to>?",
                      game.id, player, now)["n"]
    if ahead >= MAX_ABSENCES:
        return OrderError(None, f"you have {ahead} absences announced already, the most the judge keeps",
                          "send `away: none` to cancel them, then announce the one you need")
    store.run("INSERT OR REPLACE INTO absences(game_id, player, away_from, away_to, announced_at) "
              "VALUES(?,?,?,?,?)", game.id, player, span[0], span[1], now)
    return None


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
    tz = store.row("SELECT timezone FROM players WHERE game_id=? AND name=?", game.id, player)["timezone"]
    if envelope.timezone is not None:
        problem = zone_problem(envelope.timezone)
        if problem is not None:
            errors.append(problem)
        tz = envelope.timezone
    span = None
    if envelope.away is not None:
        if game.row["status"] == "over":
            errors.append(OrderError(envelope.away_line, f"game {game.name!r} is over", ""))
        else:
            span, more = read_away(envelope.away, envelope.away_line, None if errors else tz, now)
            errors += more
    if not errors and envelope.away is not None:
        too_many = announce(store, game, player, span, now)
        errors += [too_many] if too_many else []
    if errors:
        return reject(game, "reject: bad away or timezone", errors)
    if envelope.timezone is not None:
        store.run("UPDATE players SET timezone=? WHERE game_id=? AND name=?",
                  None if tz == "UTC" else tz, game.id, player)
    settings = settings_of(game.row)
    if envelope.away is not None:
        policy = ("the judge does not wait for their orders then: their default orders are used unless they "
                  "order" if settings["away_policy"] == "default" else
                  "a deadline that falls in it moves to its end, as far as their days of absence extension "
                  f"reach ({settings['away_days']} in the whole game)")
        mailer.notice(game, f"{player} will be away from {span_text(span, tz)}: {policy}" if span else
                      f"{player} is no longer away (absences to come cancelled)")
        game = extend_for_absences(store, mailer, game, now)
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
