"""Commands by mail (docs/players-guide.md): small questions a player asks the judge in the
order envelope, `command: NAME`, answered at once. Every answer is built from what the asker
may see: their own view, events whose audience includes them, their own orders; of the other
players, only what the game lets anyone know (pbem.rules.api.who_ordered_is_public).

- status: the phase, the deadline, who (or how many) have a complete set, what the judge
  holds for me (my orders, flags, absences, time zone).
- report: the last report again. history: my reports for a range of phases, as one digest.
- help: the commands (anyone). info: a public game's description (anyone; an unknown game
  and a game that is not public get the same answer, word for word).
"""
from __future__ import annotations

import json
from typing import Any

from pbem.judge import engine, history
from pbem.judge.mailer import Mailer
from pbem.judge.render import orders_echo
from pbem.judge.settings import settings_of
from pbem.judge.store import Store
from pbem.mail.message import InMail
from pbem.orders.envelope import COMMANDS, Envelope
from pbem.rules.api import OrderError, echo_orders, who_ordered_is_public


def open_command(store: Store, mailer: Mailer, mail: InMail, envelope: Envelope) -> str:
    """`help` and `info`: no player, no secret; they tell nothing that is not public."""
    # Anyone may ask, from any address, forged or not: like the judge's other answers to strangers,
    # these carry nothing long of what the mail said (a Subject is cut at 200 characters).
    subject = mail.subject[:200]
    if envelope.command == "help":
        mailer.answer(to=mail.from_addr, subject=subject or "help", in_reply_to=mail.message_id,
                      template_name="help.txt.j2", game=None, commands=COMMANDS)
        return "command help"
    row = store.one("SELECT * FROM games WHERE name=?", envelope.game)
    if row is None or not settings_of(row)["public"]:
        # The same answer for a game that does not exist and one that is not public: a stranger
        # learns nothing about which games there are (docs/security.md).
        mailer.answer(to=mail.from_addr, subject=subject or "info", in_reply_to=mail.message_id,
                      template_name="info.txt.j2", game=None, info=None, game_name=envelope.game[:40])
        return "command info: no public game"
    game = engine.load_game(store, envelope.game)
    mailer.answer(to=mail.from_addr, subject=subject or f"info on {game.name}", in_reply_to=mail.message_id,
                  template_name="info.txt.j2", game=game, info=public_info(store, game), game_name=game.name)
    return "command info"


def public_info(store: Store, game: engine.Game) -> dict[str, Any]:
    """What anyone may know of a public game: nothing of any position, player or address."""
    over = game.row["status"] == "over"
    resolved = store.row("SELECT COUNT(*) AS n FROM phases WHERE game_id=? AND resolved_at IS NOT NULL",
                         game.id)["n"]
    return {"title": game.rules.title, "type": game.row["game_type"], "status": game.row["status"],
            "phase": None if over else engine.current_phase(game),
            "deadline": game.row["deadline"], "players": len(engine.players(store, game.id)),
            "resolved": resolved, "result": json.loads(game.row["result"])["text"] if over else None}


def player_command(store: Store, mailer: Mailer, mail: InMail, envelope: Envelope, game: engine.Game,
                   now: float) -> str:
    """status, report, history (and help, info) for an authenticated player."""
    command = envelope.command
    if command in ("help", "info"):
        return open_command(store, mailer, mail, envelope)
    me = envelope.player
    answer: dict[str, Any] = dict(to=mail.from_addr, in_reply_to=mail.message_id, game=game, me=me,
                                  game_name=game.name)
    if command == "status":
        mailer.answer(subject=mail.subject or f"status of {game.name}", template_name="status.txt.j2",
                      **answer, **status(store, game, me, now))
        return "command status"
    if command == "report":
        chain = history.last_chain(store, game)
        context = mailer.report_context(game, chain, me, game.rules.view(game.state, me))
        del context["game"], context["me"]   # answer() gives the template the game's facts
        mailer.answer(subject=mail.subject or f"last report of {game.name}", template_name="report.txt.j2",
                      **answer, **context)
        return "command report"
    args = dict(envelope.command_args)
    try:
        rows = history.phase_range(store, game, args.get("from"), args.get("to"))
    except history.RangeError as exc:
        mailer.answer(subject=mail.subject or f"history of {game.name}", template_name="reject.txt.j2",
                      errors=[OrderError(None, str(exc), "ask `command: status` for the open phase, or leave out "
                                                     "`from:` and `to:` for the whole game")], **answer)
        return "command history: bad range"
    mailer.answer(subject=mail.subject or f"history of {game.name}", template_name="history.txt.j2",
                  **answer, **history.history_context(store, game, me, rows))
    return "command history"


def status(store: Store, game: engine.Game, me: str, now: float) -> dict[str, Any]:
    """The status answer's facts, for ``me``."""
    player = engine.player_row(store, game, me)
    out: dict[str, Any] = {"status": game.row["status"], "deadline": game.row["deadline"],
                           "in_grace": bool(game.row["in_grace"]), "disorder": bool(player["disorder"]),
                           "absences": [dict(r) for r in store.all(
                               "SELECT away_from, away_to, standin FROM absences WHERE game_id=? AND player=? "
                               "AND away_to>? ORDER BY away_from", game.id, me, now)],
                           "timezone": player["timezone"], "phase": None, "result": None}
    if game.row["status"] == "over":
        out["result"] = json.loads(game.row["result"])["text"]
        return out
    phase = engine.current_phase(game)
    deciders, done, _ = engine.orders_status(store, game)   # whether someone waits is theirs to know
    mine = store.one("SELECT canonical, ready, wait FROM orders WHERE game_id=? AND seq=? AND player=?",
                     game.id, game.seq, me)
    view = game.rules.view(game.state, me)
    echoed = None
    if mine is not None:
        orders = json.loads(mine["canonical"])
        echoed = echo_orders(game.rules, view, me, orders)
        if echoed is None:
            echoed = orders_echo(orders)
    out.update(phase=phase, decider=me in phase.deciders, decider_count=len(deciders), done_count=len(done),
               done_names=sorted(done) if who_ordered_is_public(game.rules) else None,
               mine=None if mine is None else {"echo": echoed, "ready": bool(mine["ready"]),
                                               "wait": bool(mine["wait"])},
               complete=me in done)
    return out

