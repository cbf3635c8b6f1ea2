"""One incoming mail, handled at once: find the order document, authenticate, do its at-once
part (a game's ``at_once_keys``, e.g. Fief's diplomacy) and check the orders against the
player's view, store them, queue the answer and the news for the other players — all in one
transaction with the mail's processed mark (the caller opens it)."""
from __future__ import annotations

import re
from typing import Any

from pbem.judge import absences, commands, engine, player_secrets
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store
from pbem.mail.message import InMail
from pbem.mail.outgoing import address_problem
from pbem.orders.envelope import OPEN_COMMANDS, UNFILLED_SECRET, Document, find_document, parse_document
from pbem.orders.yamlsafe import sub_map
from pbem.rules.api import OrderError, acts_at_once, at_once_keys, echo_orders


def handle(store: Store, mailer: Mailer, mail: InMail, now: float) -> str:
    """Handle one mail; returns the outcome recorded with its Message-ID."""
    if store.is_processed(mail.message_id):
        return "duplicate"
    outcome = _handle(store, mailer, mail, now)
    store.mark_processed(mail.message_id, outcome)
    return outcome


def _handle(store: Store, mailer: Mailer, mail: InMail, now: float) -> str:
    if mail.auto:
        # RFC 3834: never answer bounces, auto-replies or our own mail (no mail loops).
        return f"ignored: {mail.auto}"
    if not mail.from_addr:
        return "ignored: no sender address to answer"
    unanswerable = address_problem(mail.from_addr)
    if unanswerable:  # checked first: a mail whose answer cannot be written must not stay in the inbox
        return f"ignored: cannot answer: {unanswerable}"
    reject = _Rejecter(mailer, mail)
    if mail.problem:
        return reject(None, "reject: unreadable", [OrderError(None, f"this mail could not be read ({mail.problem})",
                                                               mail.problem_fix or "send your orders as plain text")])
    doc = _document(mail)
    if doc is None:
        return reject(None, "reject: no orders", [OrderError(
            None, "no order document found in this mail" + (f" ({mail.unread})" if mail.unread else ""),
            "put your orders in the mail body, starting with a line `game: NAME` (see the order template "
            "at the end of your last report), or attach them as a .yaml file")])
    envelope, errors = parse_document(doc)
    if envelope is None:
        return reject(None, "reject: bad envelope", errors)
    if envelope.command in OPEN_COMMANDS:
        return commands.open_command(store, mailer, mail, envelope)
    # One answer, word for word and header for header (no game thread, no List-Id), for an
    # unknown game, an unknown player, a foreign address and a wrong secret: a stranger learns
    # nothing about which games exist or who plays them (docs/security.md).
    if envelope.secret.strip().upper() == UNFILLED_SECRET:
        # The template's placeholder, sent back unfilled (often inside a quoted report): say
        # so. It names nothing the sender did not write, so it tells a stranger nothing.
        return reject(None, "reject: not authenticated (placeholder secret)", [OrderError(
            doc.first_line, "the `secret:` line still says YOUR-SECRET",
            "replace YOUR-SECRET with the secret from your welcome mail, and fill in your orders")])
    not_authenticated = [OrderError(
        None, f"these orders could not be authenticated for player {_short(envelope.player)!r} of game "
              f"{_short(envelope.game)!r}",
        "check the `game:` and `player:` lines against your reports, send from the address the game "
        "master registered for you, with the `secret:` from your welcome mail")]
    try:
        game = engine.load_game(store, envelope.game)
    except engine.JudgeError:
        return reject(None, "reject: not authenticated (unknown game)", not_authenticated)
    player = store.one("SELECT * FROM players WHERE game_id=? AND name=?", game.id, envelope.player)
    if player is None or player["email"] != mail.from_addr or not player_secrets.check_secret(player, envelope.secret):
        # Else the position's stand-in during its player's absence, with its own secret (never the player's).
        if player is None or not absences.is_standin(store, game, envelope.player, mail.from_addr,
                                                     envelope.secret, now):
            return reject(None, "reject: not authenticated", not_authenticated)
        if envelope.away is not None or envelope.timezone is not None or envelope.new_secret is not None \
                or envelope.html is not None:
            return reject(game, "reject: not for a stand-in", [OrderError(
                None, f"a stand-in may not change {envelope.player}'s address, secret, time zone or mail format, "
                      f"nor announce absences", f"only {envelope.player} may; as a stand-in, send orders or "
                      f"commands (status, report, history)")])
    if envelope.command is not None:
        return commands.player_command(store, mailer, mail, envelope, game, now)
    if envelope.away is not None or envelope.timezone is not None:
        return absences.personal(store, mailer, mail, envelope, game, now, reject)
    if envelope.new_secret is not None:
        player_secrets.change_secret(store, game, envelope.player, envelope.new_secret)
        mailer.answer(to=mail.from_addr, subject=mail.subject or f"secret for {game.name}",
                      in_reply_to=mail.message_id, template_name="secret_changed.txt.j2", game=game,
                      me=envelope.player, game_name=game.name)
        return "secret changed"
    if envelope.html is not None:
        store.set_mail_html(game.id, envelope.player, envelope.html)
        mailer.answer(to=mail.from_addr, subject=mail.subject or f"mail format for {game.name}",
                      in_reply_to=mail.message_id, template_name="html_changed.txt.j2", game=game,
                      me=envelope.player, game_name=game.name, html=envelope.html)
        return "html " + ("on" if envelope.html else "off")
    if game.row["status"] == "over":
        return reject(game, "reject: game over", [OrderError(None, f"game {game.name!r} is over", "")])
    phase = engine.current_phase(game)
    if envelope.phase != phase.id:
        return reject(game, "reject: stale phase", [OrderError(
            None, f"these orders are for phase {envelope.phase!r}, but game {game.name!r} now waits on "
            f"phase {phase.id!r}", f"write `phase: {phase.id}` and orders for that phase (see your latest report)")])
    return _take(store, mailer, mail, doc, envelope, game, phase, reject, now)


def _take(store: Store, mailer: Mailer, mail: InMail, doc: Document, envelope: Any, game: engine.Game,
          phase: Any, reject: "_Rejecter", now: float) -> str:
    """An authenticated mail for the open phase: its at-once part done (if any), its orders
    checked against the position that leaves and stored, the answer and the news queued."""
    keys = at_once_keys(game.rules)
    now_part = sub_map(envelope.body, lambda k: k in keys)
    rest = sub_map(envelope.body, lambda k: k not in keys) if now_part else envelope.body
    decider = envelope.player in phase.deciders
    if not decider and (rest or not now_part):
        also = f"; only {_key_list(keys)} may be sent now" if keys else ""
        return reject(game, "reject: nothing to order", [OrderError(
            rest.line_of(next(iter(rest))) if rest else None,
            f"you have no orders to give in phase {phase.id!r}{also}",
            "remove the other lines and send again, or wait for the next report" if keys
            else "wait for the next report")])
    view = game.rules.view(game.state, envelope.player)
    errors: list[OrderError] = []
    action = None
    cap = _at_once_cap(store, mailer, game, envelope.player, now_part, phase) if now_part else None
    if cap is not None:
        errors.append(cap)
    elif now_part:
        at_once = acts_at_once(game.rules).check_at_once(view, envelope.player, now_part)
        errors.extend(at_once.errors)
        if at_once.ok:
            # Done first (H.2 in Fief: diplomacy is primary); the orders are then checked
            # against the position it leaves. Nothing is stored unless the whole mail is good.
            action = engine.compute_action(store, game, envelope.player, at_once.orders)
            view = game.rules.view(action.resolution.state, envelope.player)
    check = game.rules.check_orders(view, envelope.player, rest) if (rest or not now_part) else None
    if check is not None:
        errors.extend(check.errors)
    ok = not errors
    mail_id = engine.store_orders(store, game, envelope.player, mail.message_id,
                                  _without_secret(doc.text, envelope.secret),
                                  check.orders if check is not None else None, [str(e) for e in errors],
                                  envelope.ready, envelope.wait, now,
                                  at_once=action.canonical if action is not None else None)
    told: list = []
    if ok and action is not None:
        game = engine.record_action(store, game, action, mail_id, now)
        told = list(action.resolution.events)
        _tell_others(store, mailer, game, envelope.player, told, phase)
    if check is None:
        mailer.answer(to=mail.from_addr, subject=mail.subject or f"done at once in {game.name}",
                      in_reply_to=mail.message_id, template_name="ack_at_once.txt.j2", game=game,
                      ok=ok, errors=errors, me=envelope.player, phase=phase, game_name=game.name,
                      events=engine.visible_events(told, envelope.player), deadline=game.row["deadline"],
                      flags_ignored=envelope.wait or not envelope.ready, ignored=envelope.ignored)
        return "acted at once" if ok else "orders rejected"
    deciders, done, waiting = engine.orders_status(store, game)
    mailer.answer(to=mail.from_addr, subject=mail.subject or f"orders for {game.name}",
                  in_reply_to=mail.message_id, template_name="ack.txt.j2", game=game,
                  ok=ok, errors=errors, notes=check.notes if ok else (), orders=check.orders if ok else None,
                  echoed=echo_orders(game.rules, view, envelope.player, check.orders) if ok else None,
                  me=envelope.player, phase=phase, ready=envelope.ready, wait=envelope.wait,
                  complete=envelope.player in done, done_count=len(done), decider_count=len(deciders),
                  game_name=game.name, deadline=game.row["deadline"],
                  events=engine.visible_events(told, envelope.player), ignored=envelope.ignored)
    return "orders accepted" if ok else "orders rejected"


def _at_once_cap(store: Store, mailer: Mailer, game: engine.Game, player: str, part: Any,
                 phase: Any) -> OrderError | None:
    """Each at-once action may mail every other player: the judge's `at_once_per_phase` caps
    how many one player does in one phase (a flood of news is refused, not relayed)."""
    limit = mailer.home.at_once_per_phase
    done = store.row("SELECT COUNT(*) AS n FROM actions WHERE game_id=? AND seq=? AND player=?",
                     game.id, game.seq, player)["n"]
    if done < limit:
        return None
    return OrderError(part.line_of(next(iter(part))), f"you have already done things at once {done} times in "
                      f"phase {phase.id}, the most this judge allows one player in one phase",
                      "wait for the next phase (or ask the game master, who may raise `at_once_per_phase`)")


def _key_list(keys: tuple[str, ...]) -> str:
    return " and ".join(f"`{k}:`" for k in keys)


def _tell_others(store: Store, mailer: Mailer, game: engine.Game, actor: str, events: list, phase) -> None:
    """Mail at once every other player who may see something of what ``actor`` just did (a
    message, a gift, an exchange), and their stand-ins: negotiation by mail must not wait for the
    deadline."""
    standins = engine.standins_now(store, game)
    for player in engine.players(store, game.id):
        name = player["name"]
        seen = engine.visible_events(events, name)
        if name != actor and seen:
            for email in (player["email"], *standins.get(name, ())):
                mailer.news(game, name, email, actor, seen, phase)


def _short(text: str, limit: int = 40) -> str:
    """Names echoed to an address nobody authenticated stay short: the judge answers forged
    senders, and must not carry a stranger's long text to them (backscatter)."""
    return text if len(text) <= limit else text[:limit] + "..."


_SECRET_LINE = re.compile(r"^(\s*(?:new_)?secret\s*:).*$", re.MULTILINE)


def _without_secret(text: str, secret: str) -> str:
    """The archive keeps orders as received, but never a secret in clear (docs/security.md):
    the `secret:` line blanked, and the secret wherever else the player repeated it."""
    text = _SECRET_LINE.sub(r"\1 (not stored)", text)
    return text.replace(secret, "(not stored)") if secret else text


def _document(mail: InMail) -> Document | None:
    for attachment in mail.attachments_yaml:
        doc = find_document(attachment.text)
        if doc is not None:
            return doc
    return find_document(mail.text or "")


class _Rejecter:
    def __init__(self, mailer: Mailer, mail: InMail):
        self.mailer, self.mail = mailer, mail

    def __call__(self, game: Any, outcome: str, errors: list[OrderError]) -> str:
        self.mailer.answer(to=self.mail.from_addr, subject=_short(self.mail.subject, 200) or "your mail to the judge",
                           in_reply_to=self.mail.message_id, template_name="reject.txt.j2", game=game,
                           errors=errors, game_name=game.name if game else None)
        return outcome
