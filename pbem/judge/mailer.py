"""Every mail the judge writes, rendered from templates and queued in the outbox in the same
transaction as the change it tells about (so a crash never loses or duplicates a report).

Threading: each game has a root Message-ID; every mail about the game references it and
carries the game's List-Id, so a mail client shows one thread per game.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from pbem.judge import engine
from pbem.judge.home import Home
from pbem.judge.render import render, render_html
from pbem.judge.store import Store
from pbem.mail.outgoing import InlineImage, OutMail, compose, image_content_id, make_list_id, make_message_id
from pbem.orders.envelope import marker_line
from pbem.rules.api import MapUnavailable, acts_at_once, at_once_keys, map_drawing

# A report with its HTML part and map stays under this for the Fief board (tests/test_html_reports.py):
# the PNG is at most maps.BYTE_BUDGET, 4/3 of it in base64; in a typical game the whole mail is
# about 85 KB (docs/mail.md, "HTML reports").
REPORT_MAIL_BUDGET = 200 * 1024


@dataclass
class Mailer:
    store: Store
    home: Home

    # -- headers ---------------------------------------------------------------------------
    def game_root(self, game_name: str) -> str:
        return f"<game.{game_name}@{self.home.domain}>"

    def list_id(self, game_name: str) -> str:
        return make_list_id(f"pbem game {game_name}", game_name, self.home.domain)

    def queue(self, *, to: str, to_name: str, subject: str, body: str, purpose: str,
              game_id: int | None, game_name: str | None, in_reply_to: str | None = None,
              auto_submitted: str = "auto-generated", html: str | None = None,
              images: tuple[InlineImage, ...] = ()) -> str:
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
                      auto_submitted=auto_submitted, html=html, images=images)
        raw = compose(out, self.home.address, self.home.name)
        self.store.queue_mail(message_id, game_id, to, purpose, raw)
        return message_id

    def marker(self) -> str:
        return marker_line(self.home.name, self.home.address)

    # -- mails -----------------------------------------------------------------------------
    def welcomes(self, game: engine.Game, secrets: dict[str, str]) -> None:
        """One welcome per player of a new game, with the secret that is mailed only this once."""
        state = game.state
        phase = game.rules.phase(state)
        seats = engine.players(self.store, game.id)
        names = [p["name"] for p in seats]
        for seat in seats:
            player = seat["name"]
            view = game.rules.view(state, player)
            body = render("welcome.txt.j2", game=game_info(game), me=player, secret=secrets[player],
                          judge=self.home.address, players=names,
                          position=render(game.rules.report_template(), view=view, me=player),
                          phase=phase, template=self._template(game, view, player, phase))
            self.queue(to=seat["email"], to_name=player, subject=f"[{game.name}] Welcome to {game.rules.title}",
                       body=body, purpose="welcome", game_id=game.id, game_name=game.name)

    def new_secret(self, game: engine.Game, player: str, email: str, secret: str) -> None:
        body = render("secret_reset.txt.j2", game=game_info(game), me=player, secret=secret)
        self.queue(to=email, to_name=player, subject=f"[{game.name}] Your new secret",
                   body=body, purpose="secret", game_id=game.id, game_name=game.name)

    def reports(self, game: engine.Game, chain: Sequence[engine.Resolved]) -> None:
        """One report per player (and the full one for the game master) after a resolution."""
        state = game.state
        over = game.row["status"] == "over"
        result = json.loads(game.row["result"]) if over else None
        phase = None if over else game.rules.phase(state)
        first, last = chain[0], chain[-1]
        subject = f"[{game.name}] {first.phase_id} resolved" if len(chain) == 1 else \
            f"[{game.name}] {first.phase_id} to {last.phase_id} resolved"
        audiences: list[tuple[str | None, str, bool]] = [
            (p["name"], p["email"], bool(p["mail_html"])) for p in engine.players(self.store, game.id)]
        if game.row["gm_email"]:
            audiences.append((None, game.row["gm_email"], True))
        pictures: dict[str, bytes] = {}
        for player, email, html in audiences:
            # Templates and the map get the view this report is for, never the state.
            view = game.rules.view(state, player)
            context = dict(
                game=game_info(game), me=player,
                phases=[{"id": r.phase_id, "title": r.title,
                         "events": engine.visible_events(r.events, player),
                         "defaulted": r.defaulted} for r in chain],
                position=render(game.rules.report_template(), view=view, me=player),
                phase=phase, result=result,
                template=None if over or player is None else self._template(game, view, player, phase),
                decider=phase is not None and player in phase.deciders, deadline=game.row["deadline"])
            self.queue(to=email, to_name=player or "game master",
                       subject=subject + ("" if player else " (game master)"),
                       body=render("report.txt.j2", **context), purpose="report", game_id=game.id,
                       game_name=game.name,
                       **(self._html_report(game, view, context, pictures) if html else {}))

    def _html_report(self, game: engine.Game, view: Any, context: dict[str, Any],
                     pictures: dict[str, bytes]) -> dict[str, Any]:
        """The HTML part of a report and the map it shows, drawn from ``view`` (the one the
        report is rendered for); a game without a map gets the HTML without a picture.
        ``pictures`` holds the PNGs drawn for this round of reports by their drawing: readers
        whose views draw the same picture (no fog of war) share one drawing, never a picture
        drawn from another view than their own."""
        from pbem.judge.maps import MapError, draw_png   # Pillow is loaded only when a map is drawn
        images: tuple[InlineImage, ...] = ()
        problem = None
        try:
            drawing = map_drawing(game.rules, view)
            key = json.dumps(drawing, sort_keys=True, ensure_ascii=False)
            if key not in pictures:
                pictures[key] = draw_png(drawing)
            png = pictures[key]
            images = (InlineImage(image_content_id(png, self.home.domain), png),)
        except MapUnavailable:
            pass   # a game without a map: the HTML alone
        except MapError as exc:
            # A game's drawing the painter refuses: the report still goes, saying why it has no map.
            problem = str(exc)
        html = render_html("report.html.j2", marker=self.marker(), map_problem=problem,
                           map_cid=images[0].content_id if images else None, **context)
        return {"html": html, "images": images}

    def reminders(self, game: engine.Game, late: Sequence[tuple[str, str]]) -> None:
        """A reminder to each (player, email) in ``late``: players without a complete set."""
        state = game.state
        phase = game.rules.phase(state)
        for player, email in late:
            view = game.rules.view(state, player)
            body = render("reminder.txt.j2", game=game_info(game), me=player, phase=phase,
                          deadline=game.row["deadline"], template=self._template(game, view, player, phase))
            self.queue(to=email, to_name=player, subject=f"[{game.name}] Reminder: orders for {phase.id}",
                       body=body, purpose="reminder", game_id=game.id, game_name=game.name)

    def news(self, game: engine.Game, player: str, email: str, actor: str, events: Sequence[Any],
             phase: Any) -> None:
        """What another player just did at once that ``player`` may see (``events`` are already
        filtered for them): a diplomacy message, a gift, an exchange."""
        body = render("news.txt.j2", game=game_info(game), me=player, actor=actor, events=events,
                      phase=phase, deadline=game.row["deadline"])
        self.queue(to=email, to_name=player, subject=f"[{game.name}] News from {actor}",
                   body=body, purpose="news", game_id=game.id, game_name=game.name)

    def announce(self, game: engine.Game, action: str, also: Sequence[tuple[str, str]] = ()) -> None:
        """Every game-master action is told to every player (and the game master), and to
        ``also`` (e.g. a player's old address when it was changed)."""
        recipients = [(p["name"], p["email"]) for p in engine.players(self.store, game.id)] + list(also)
        if game.row["gm_email"]:
            recipients.append(("game master", game.row["gm_email"]))
        body = render("announce.txt.j2", game=game_info(game), action=action, deadline=game.row["deadline"])
        for name, email in recipients:
            self.queue(to=email, to_name=name, subject=f"[{game.name}] Game master: {action.splitlines()[0]}",
                       body=body, purpose="announce", game_id=game.id, game_name=game.name)

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

    def answer(self, *, to: str, subject: str, in_reply_to: str, template_name: str,
               game: engine.Game | None, **context: Any) -> None:
        """An immediate answer to a mail: acknowledgement or rejection (RFC 3834 auto-replied)."""
        body = render(template_name, judge=self.home.address, **context)
        subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        self.queue(to=to, to_name="", subject=subject, body=body, purpose=template_name.split(".")[0],
                   game_id=game.id if game else None, game_name=game.name if game else None,
                   in_reply_to=in_reply_to, auto_submitted="auto-replied")

    def _template(self, game: engine.Game, view: Any, player: str, phase: Any) -> str | None:
        """The order template ending a mail: the phase's orders for a decider; for the others
        only what the game lets anyone do at once (Fief's diplomacy), if anything."""
        if phase is None:
            return None
        at_once = acts_at_once(game.rules).at_once_template(view, player) if at_once_keys(game.rules) else ""
        if player in phase.deciders:
            body = game.rules.order_template(view, player).rstrip("\n") + ("\n" + at_once if at_once else "")
        elif at_once:
            body = at_once
        else:
            return None
        return render("envelope.txt.j2", game=game.name, player=player, phase=phase.id, body=body)


def game_info(game: engine.Game) -> dict[str, Any]:
    return {"name": game.name, "title": game.rules.title, "type": game.row["game_type"],
            "status": game.row["status"]}
