"""Every mail the judge writes, rendered from templates and queued in the outbox in the same
transaction as the change it tells about (so a crash never loses or duplicates a report).

Threading: each game has a root Message-ID; every mail about the game references it and
carries the game's List-Id, so a mail client shows one thread per game.
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from pbem.judge import calendar, engine, history
from pbem.judge.home import Home
from pbem.judge.render import render, render_html
from pbem.judge.store import Store
from pbem.mail.outgoing import (FileAttachment, InlineImage, OutMail, compose_parts, image_content_id,
                                make_list_id, make_message_id, shared_part)
from pbem.orders.envelope import marker_line
from pbem.rules.api import MapUnavailable, NoMap, acts_at_once, at_once_keys, map_drawing, public_view

# A report with its HTML part and map stays under this for the Fief board (tests/test_html_reports.py):
# the PNG is at most maps.BYTE_BUDGET, 4/3 of it in base64; in a typical game the whole mail is
# about 85 KB (docs/mail.md, "HTML reports").
REPORT_MAIL_BUDGET = 200 * 1024


@dataclass
class Mailer:
    store: Store
    home: Home
    # The judge's clock for what a mail dates itself (an .ics's DTSTAMP): the tick's now, so a
    # tick run again writes the same mail; None: the wall clock (a game master's command).
    now: float | None = None
    # A game whose map could not be drawn for this mailer's mails: game name -> why (the tick
    # prints it, and the game master is alerted once per round of reports: never a silent drop).
    map_problems: dict[str, str] = field(default_factory=dict)

    # -- headers ---------------------------------------------------------------------------
    def game_root(self, game_name: str) -> str:
        return f"<game.{game_name}@{self.home.domain}>"

    def list_id(self, game_name: str) -> str:
        return make_list_id(f"pbem game {game_name}", game_name, self.home.domain)

    def queue(self, *, to: str, to_name: str, subject: str, body: str, purpose: str,
              game_id: int | None, game_name: str | None, in_reply_to: str | None = None,
              auto_submitted: str = "auto-generated", html: str | None = None,
              images: tuple[InlineImage, ...] = (), attachments: tuple[FileAttachment, ...] = ()) -> str:
        message_id = make_message_id(self.home.domain, f"{purpose}.{secrets.token_hex(8)}")
        # Every mail begins with the judge's marker: in a player's reply, the copy of this
        # mail starts there, whatever the mail client writes above it (docs/orders.md).
        body = self.marker() + "\n\n" + body
        references: list[str] = []
        if game_name:
            references.append(self.game_root(game_name))
        if in_reply_to:
            references.append(in_reply_to)
        out = OutMail(to=to, to_name=to_name, subject=subject, body=body, message_id=message_id,
                      in_reply_to=in_reply_to or (self.game_root(game_name) if game_name else None),
                      references=references,
                      list_id=self.list_id(game_name) if game_name else None,
                      auto_submitted=auto_submitted, html=html, images=images, attachments=attachments)
        raw, parts = compose_parts(out, self.home.address, self.home.name)
        self.store.queue_mail(message_id, game_id, to, purpose, raw, parts)
        return message_id

    def store_pictures(self, pictures: dict[str, tuple[str, Any]]) -> None:
        """The pictures of a round of mails (_html_report), stored once each for the mails that
        carry them, once their PNGs are written."""
        for content_id, drawn in pictures.values():
            self.store.store_part(content_id, shared_part(drawn.png()))

    def deadline_ics(self, game: engine.Game) -> tuple[FileAttachment, ...]:
        """The open phase's deadline as an .ics file (pbem.judge.calendar), or nothing when the
        game has no deadline (paused, over): every mail that tells the deadline carries it."""
        if game.row["deadline"] is None or game.row["status"] != "running":
            return ()
        phase = game.rules.phase(game.state)
        data = calendar.deadline_event(
            uid=f"deadline.{game.name}.{game.seq}@{self.home.domain}", sequence=game.row["deadline_sequence"],
            deadline=game.row["deadline"], stamp=time.time() if self.now is None else self.now,
            summary=f"[{game.name}] orders due: {phase.id}",
            description=f"{game.rules.title}, game {game.name}: the deadline of {phase.title} ({phase.id}). "
                        f"Mail your orders to {self.home.address} before it.")
        return (FileAttachment(f"deadline-{game.name}.ics", "text/calendar; charset=utf-8; method=PUBLISH", data),)

    def marker(self) -> str:
        return marker_line(self.home.name, self.home.address)

    # -- mails -----------------------------------------------------------------------------
    def welcomes(self, game: engine.Game, secrets: dict[str, str]) -> None:
        """One welcome per player of a new game, with the secret that is mailed only this once."""
        state = game.state
        phase = game.rules.phase(state)
        everyone = engine.players(self.store, game.id)
        names = [p["name"] for p in everyone]
        computers = [p["name"] for p in everyone if p["kind"] == engine.COMPUTER]
        seats = engine.people(self.store, game.id)   # a computer seat gets no mail
        pictures: dict[str, tuple[str, Any]] = {}
        for seat in seats:
            player = seat["name"]
            view = game.rules.view(state, player)
            context = dict(game=game_info(game), me=player, secret=secrets[player],
                           judge=self.home.address, players=names, computers=computers,
                           position=render(game.rules.report_template(), view=view, me=player),
                           phase=phase, template=self._template(game, view, player, phase))
            self.queue(to=seat["email"], to_name=player, subject=f"[{game.name}] Welcome to {game.rules.title}",
                       body=render("welcome.txt.j2", **context), purpose="welcome", game_id=game.id,
                       game_name=game.name, attachments=self.deadline_ics(game),
                       **(self._html_report(game, view, context, pictures, "welcome.html.j2")
                          if seat["mail_html"] else {}))
        self.store_pictures(pictures)
        self.tell_map_problem(game)

    def new_secret(self, game: engine.Game, player: str, email: str, secret: str) -> None:
        body = render("secret_reset.txt.j2", game=game_info(game), me=player, secret=secret)
        self.queue(to=email, to_name=player, subject=f"[{game.name}] Your new secret",
                   body=body, purpose="secret", game_id=game.id, game_name=game.name)

    def reports(self, game: engine.Game, chain: Sequence[engine.Resolved]) -> None:
        """One report per player (and the full one for the game master) after a resolution."""
        state = game.state
        first, last = chain[0], chain[-1]
        subject = f"[{game.name}] {first.phase_id} resolved" if len(chain) == 1 else \
            f"[{game.name}] {first.phase_id} to {last.phase_id} resolved"
        audiences: list[tuple[str | None, str, bool, str | None]] = [
            (p["name"], p["email"], bool(p["mail_html"]), p["timezone"]) for p in engine.people(self.store, game.id)]
        # A stand-in plays its absent player's position (pbem.judge.absences): that player's report.
        audiences += [(player, email, True, None)
                      for player, emails in engine.standins_now(self.store, game).items() for email in emails]
        if game.row["gm_email"]:
            audiences.append((None, game.row["gm_email"], True, None))
        pictures: dict[str, tuple[str, Any]] = {}
        ics = self.deadline_ics(game)
        outlook = self._outlook(game)   # the same for every reader: worked out once
        for player, email, html, tz in audiences:
            # Templates and the map get the view this report is for, never the state.
            view = game.rules.view(state, player)
            context = {**self.report_context(game, chain, player, view, outlook), "tz": tz}
            self.queue(to=email, to_name=player or "game master",
                       subject=subject + ("" if player else " (game master)"),
                       body=render("report.txt.j2", **context), purpose="report", game_id=game.id,
                       game_name=game.name, attachments=ics,
                       **(self._html_report(game, view, context, pictures) if html else {}))
        self.store_pictures(pictures)
        self.tell_map_problem(game)
        self.observer_reports(game, chain, subject, outlook)

    def tell_map_problem(self, game: engine.Game) -> None:
        """The game master (and the judge's admin) learn that this round's mails went without
        the map, and why: a missing or broken map is never dropped in silence."""
        problem = self.map_problems.get(game.name)
        if problem is not None:
            self.alert(game.id, game.name, game.row["gm_email"], "The map could not be drawn",
                       "map_problem.txt.j2", game=game.name, phase=game.rules.phase(game.state).id, error=problem)

    @staticmethod
    def _outlook(game: engine.Game) -> tuple[bool, Any, Any]:
        """Whether ``game`` is over, its open phase (None when over) and its result (None unless
        over): what every reader's report of a round tells alike."""
        over = game.row["status"] == "over"
        return over, None if over else game.rules.phase(game.state), json.loads(game.row["result"]) if over else None

    def report_context(self, game: engine.Game, chain: Sequence[engine.Resolved], player: str | None,
                       view: Any, outlook: tuple[bool, Any, Any] | None = None) -> dict[str, Any]:
        """What report.txt.j2 (and its HTML) shows ``player`` (None: the game master) of the
        phases ``chain`` and the position ``view``, the game's current one; ``outlook``: _outlook(game)
        when the caller has it already."""
        over, phase, result = outlook or self._outlook(game)
        return dict(
            game=game_info(game), me=player,
            phases=[{"id": r.phase_id, "title": r.title,
                     "events": engine.visible_events(r.events, player),
                     "defaulted": r.defaulted} for r in chain],
            position=render(game.rules.report_template(), view=view, me=player),
            phase=phase, result=result,
            template=None if over or player is None else self._template(game, view, player, phase),
            decider=phase is not None and player in phase.deciders, deadline=game.row["deadline"])

    def observer_reports(self, game: engine.Game, chain: Sequence[engine.Resolved], subject: str,
                         outlook: tuple[bool, Any, Any]) -> None:
        """The public report to each observer: the events everyone may see, and the position as
        the game's public view shows it (pbem.rules.api.public_view; a game without one: none).
        Plain text: an observer is nobody's view, and carries no order template. ``outlook``:
        _outlook(game), worked out once for the round's reports."""
        emails = engine.observers(self.store, game.id)
        if not emails:
            return
        view = public_view(game.rules, game.state)
        _, phase, result = outlook
        body = render("observer_report.txt.j2", game=game_info(game),
                      phases=[{"id": r.phase_id, "title": r.title,
                               "events": [e for e in r.events if e.audience.kind == "all"],
                               "defaulted": r.defaulted} for r in chain],
                      position=None if view is None else render(game.rules.report_template(), view=view, me=None),
                      phase=phase, result=result, deadline=game.row["deadline"])
        for email in emails:
            self.queue(to=email, to_name="observer", subject=subject + " (observer)", body=body,
                       purpose="observer", game_id=game.id, game_name=game.name)

    def replacement(self, game: engine.Game, player: str, email: str, secret: str) -> None:
        """The new player of a position: their secret and the current report, then the
        position's history of reports (pbem.judge.seats.replace)."""
        view = game.rules.view(game.state, player)
        context = self.report_context(game, history.last_chain(self.store, game), player, view)
        report = render("report.txt.j2", **context)
        body = render("replacement.txt.j2", game=game_info(game), me=player, secret=secret, report=report)
        self.queue(to=email, to_name=player, subject=f"[{game.name}] You now play {player}",
                   body=body, purpose="welcome", game_id=game.id, game_name=game.name,
                   attachments=self.deadline_ics(game))
        rows = history.resolved_rows(self.store, game)
        if rows:
            body = render("history.txt.j2", game_name=game.name, me=player,
                          **history.history_context(self.store, game, player, rows))
            self.queue(to=email, to_name=player, subject=f"[{game.name}] The history of {player}",
                       body=body, purpose="history", game_id=game.id, game_name=game.name)

    def to_game_master(self, game: engine.Game, template_name: str, subject: str, **context: Any) -> None:
        """A notice for the game master alone (none for a game without a game-master address)."""
        if not game.row["gm_email"]:
            return
        body = render(template_name, game=game_info(game), **context)
        self.queue(to=game.row["gm_email"], to_name="game master", subject=f"[{game.name}] {subject}",
                   body=body, purpose=template_name.split(".")[0], game_id=game.id, game_name=game.name)

    def _html_report(self, game: engine.Game, view: Any, context: dict[str, Any],
                     pictures: dict[str, tuple[str, Any]], template: str = "report.html.j2") -> dict[str, Any]:
        """The HTML part of a report (or of another mail with a map: ``template``, the welcome's)
        and the map it shows, drawn from ``view`` (the one the mail is rendered for); a game
        without a map gets the HTML without a picture.
        ``pictures`` holds the pictures drawn for this round of reports by their drawing (its
        Content-ID, drawn from the drawing, and its maps.Drawn): readers whose views draw the
        same picture (no fog of war) share one drawing, never a picture drawn from another view
        than their own. The mail leaves the picture out (shared): store_pictures stores each
        once when its PNG is written, and the sending puts it back into each mail."""
        from pbem.judge.maps import Drawn, MapError   # Pillow is loaded only when a map is drawn
        images: tuple[InlineImage, ...] = ()
        problem = None
        try:
            drawing = map_drawing(game.rules, view)
            key = json.dumps(drawing, sort_keys=True, ensure_ascii=False)
            if key not in pictures:
                pictures[key] = (map_content_id(drawing, self.home.domain), Drawn(drawing))
            images = (InlineImage(pictures[key][0], b"", shared=True),)
        except NoMap:
            pass   # a game whose rules declare no map: the HTML alone
        except (MapUnavailable, MapError) as exc:
            # A map the game has but cannot draw (its geometry missing or broken, or a drawing the
            # painter refuses): the report still goes, saying why it has no map; the game master is told.
            problem = str(exc)
            self.map_problems[game.name] = problem
        html = render_html(template, marker=self.marker(), map_problem=problem,
                           map_cid=images[0].content_id if images else None, **context)
        return {"html": html, "images": images}

    def reminders(self, game: engine.Game, late: Sequence[tuple[str, str, str]], grace: bool = False) -> None:
        """A reminder to each (player, email, what is missing) in ``late``: players without a
        complete set; ``grace``: the deadline passed and the grace period began."""
        state = game.state
        phase = game.rules.phase(state)
        for player, email, what in late:
            view = game.rules.view(state, player)
            body = render("reminder.txt.j2", game=game_info(game), me=player, phase=phase, missing=what,
                          grace=grace, tz=self.timezone(game, player), deadline=game.row["deadline"],
                          template=self._template(game, view, player, phase))
            self.queue(to=email, to_name=player, subject=f"[{game.name}] " + (
                       "Grace period" if grace else "Reminder") + f": orders for {phase.id}",
                       body=body, purpose="reminder", game_id=game.id, game_name=game.name)

    def news(self, game: engine.Game, player: str, email: str, actor: str, events: Sequence[Any],
             phase: Any) -> None:
        """What another player just did at once that ``player`` may see (``events`` are already
        filtered for them): a diplomacy message, a gift, an exchange."""
        body = render("news.txt.j2", game=game_info(game), me=player, actor=actor, events=events,
                      phase=phase, deadline=game.row["deadline"], tz=self.timezone(game, player))
        self.queue(to=email, to_name=player, subject=f"[{game.name}] News from {actor}",
                   body=body, purpose="news", game_id=game.id, game_name=game.name)

    def announce(self, game: engine.Game, action: str, also: Sequence[tuple[str, str]] = ()) -> None:
        """Every game-master action is told to every player (and the game master), and to
        ``also`` (e.g. a player's old address when it was changed)."""
        self._to_everyone(game, "announce.txt.j2", f"Game master: {action.splitlines()[0]}", "announce",
                          also, action=action)

    def notice(self, game: engine.Game, text: str) -> None:
        """What the judge itself did to the game for a player (an absence moved the deadline,
        the grace period began), told to every player and the game master."""
        self._to_everyone(game, "notice.txt.j2", text.split(":")[0], "notice", (), text=text)

    def _to_everyone(self, game: engine.Game, template_name: str, subject: str, purpose: str,
                     also: Sequence[tuple[str, str]], **context: Any) -> None:
        """One mail to each player, each in their time zone, to ``also`` and to the game master."""
        recipients = [(p["name"], p["email"], p["timezone"]) for p in engine.people(self.store, game.id)]
        recipients += [(name, email, None) for name, email in also]
        if game.row["gm_email"]:
            recipients.append(("game master", game.row["gm_email"], None))
        ics = self.deadline_ics(game)
        for name, email, tz in recipients:
            body = render(template_name, game=game_info(game), deadline=game.row["deadline"], tz=tz, **context)
            self.queue(to=email, to_name=name, subject=f"[{game.name}] {subject}",
                       body=body, purpose=purpose, game_id=game.id, game_name=game.name, attachments=ics)

    def timezone(self, game: engine.Game, player: str) -> str | None:
        """The time zone ``player`` chose for deadlines in their mail (None: UTC)."""
        row = self.store.one("SELECT timezone FROM players WHERE game_id=? AND name=?", game.id, player)
        return row["timezone"] if row is not None else None

    def undeliverable(self, row: Any, error: str) -> None:
        """Tell the game master that a mail was refused for good (docs/reliability.md). Mail
        outside any game, a game without a game-master address, and a refused notice itself
        (no loop) are reported only in the tick's output and the outbox's failed rows."""
        if row["purpose"] == "undeliverable" or row["game_id"] is None:
            return
        game_row = self.store.one("SELECT name FROM games WHERE id=?", row["game_id"])
        if game_row is None:
            return
        game = engine.load_game(self.store, game_row["name"])
        if not game.row["gm_email"]:
            return
        body = render("undeliverable.txt.j2", game=game_info(game), recipient=row["recipient"],
                      purpose=row["purpose"], message_id=row["message_id"], error=error)
        self.queue(to=game.row["gm_email"], to_name="game master",
                   subject=f"[{game.name}] Undeliverable: {row['purpose']} to {row['recipient']}",
                   body=body, purpose="undeliverable", game_id=game.id, game_name=game.name)

    def alert(self, game_id: int | None, game_name: str | None, gm_email: str | None, subject: str,
              template_name: str, **context: Any) -> list[str]:
        """The judge's own error (pbem.judge.quarantine), told once to the game master
        (``gm_email``, if any) and to the judge's admin ([judge] admin, if set); returns who
        was told."""
        recipients = list(dict.fromkeys(a for a in (gm_email, self.home.admin) if a))
        body = render(template_name, judge=self.home.address, **context)
        for to in recipients:
            self.queue(to=to, to_name="game master" if to == gm_email else "judge admin",
                       subject=(f"[{game_name}] " if game_name else "") + subject, body=body, purpose="alert",
                       game_id=game_id, game_name=game_name)
        return recipients

    def answer(self, *, to: str, subject: str, in_reply_to: str, template_name: str,
               game: engine.Game | None, **context: Any) -> None:
        """An immediate answer to a mail: acknowledgement or rejection (RFC 3834 auto-replied)."""
        if game is not None and isinstance(context.get("me"), str) and "tz" not in context:
            context["tz"] = self.timezone(game, context["me"])
        body = render(template_name, judge=self.home.address, game=game_info(game) if game else None, **context)
        subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        self.queue(to=to, to_name="", subject=subject, body=body, purpose=template_name.split(".")[0],
                   game_id=game.id if game else None, game_name=game.name if game else None,
                   in_reply_to=in_reply_to, auto_submitted="auto-replied")

    def _template(self, game: engine.Game, view: Any, player: str, phase: Any) -> str | None:
        return order_form(game.rules, game.name, view, player, phase)


def order_form(rules: Any, game_name: str, view: Any, player: str, phase: Any) -> str | None:
    """The order template ending a mail, envelope included: the phase's orders for a decider; for
    the others only what the game lets anyone do at once (Fief's diplomacy), if anything; None
    when there is nothing (or the game is over: ``phase`` None)."""
    if phase is None:
        return None
    at_once = acts_at_once(rules).at_once_template(view, player) if at_once_keys(rules) else ""
    if player in phase.deciders:
        body = rules.order_template(view, player).rstrip("\n") + ("\n" + at_once if at_once else "")
    elif at_once:
        body = at_once
    else:
        return None
    return render("envelope.txt.j2", game=game_name, player=player, phase=phase.id, body=body)


def map_content_id(drawing: dict[str, Any], domain: str) -> str:
    """The Content-ID of the map painted from ``drawing``: drawn from the drawing (the same
    drawing, the same picture), so a mail is composed while its PNG is still being written."""
    return image_content_id(json.dumps(drawing, sort_keys=True, ensure_ascii=False).encode("utf-8"), domain)


def game_info(game: engine.Game) -> dict[str, Any]:
    return {"name": game.name, "title": game.rules.title, "type": game.row["game_type"],
            "status": game.row["status"]}
