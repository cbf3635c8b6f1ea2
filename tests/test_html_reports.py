"""Reports as multipart/alternative (issue 14): the plain text first and whole, then the same
report in HTML with the map of the reader's own view inline by Content-ID; nothing remote, no
script; a size budget; a player's opt-out by mail or by the game master (docs/mail.md, "HTML
reports"; docs/orders.md, "Plain text only")."""
from __future__ import annotations

import base64
import email
import email.policy
import json
import re

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main
from pbem.games.fief_france.rules import RULES
from pbem.judge import engine
from pbem.judge.maps import draw_png
from pbem.judge.mailer import REPORT_MAIL_BUDGET, Mailer, map_content_id
from pbem.judge.render import event_html, render, render_html
from pbem.judge.store import dumps
from pbem.mail.outgoing import InlineImage, OutMail, compose, image_content_id
from pbem.rules.api import Event, Said, map_drawing
from test_maps import PLAYERS, crowded, position

GM = "gm@pbem.test"


def parse(raw: bytes):
    return email.message_from_bytes(raw, policy=email.policy.default)


def outbox(judge: Judge, purpose: str = "report") -> dict[str, list[bytes]]:
    """Raw mails of the outbox by recipient, in the order queued: a mail waiting as the store
    has it, a mail sent as the outbox Maildir has it (the store drops a sent mail's body)."""
    folder = judge.home.path / "mail" / "outbox"
    files = {}
    for file in (f for sub in ("new", "cur") if (folder / sub).exists() for f in (folder / sub).iterdir()):
        raw = file.read_bytes()
        files[str(email.message_from_bytes(raw.split(b"\r\n\r\n", 1)[0])["Message-ID"])] = raw
    store = judge.store()
    try:
        rows = store.all("SELECT recipient, message_id, raw, parts, sent_at FROM outbox WHERE purpose=? ORDER BY id",
                         purpose)
        out: dict[str, list[bytes]] = {}
        for row in rows:
            raw = store.mail_bytes(row) if row["sent_at"] is None else files[row["message_id"]]
            out.setdefault(row["recipient"], []).append(raw)
    finally:
        store.close()
    return out


def content(mail):
    """A mail's content without the deadline's .ics, which follows it in a multipart/mixed
    while the game has a deadline (issue 15): the text, or the text and its HTML."""
    if mail.get_content_type() != "multipart/mixed":
        return mail
    inner, ics = mail.get_payload()
    assert ics.get_content_type() == "text/calendar" and ics.get_filename().endswith(".ics")
    return inner


def parts(raw: bytes) -> tuple[str, str, bytes, str]:
    """The text, the HTML, the PNG and its Content-ID of a report, checking the structure:
    multipart/alternative [text/plain, multipart/related [text/html, image/png]], inside a
    multipart/mixed with the deadline's .ics after it while the game has a deadline."""
    mail = content(parse(raw))
    assert mail.get_content_type() == "multipart/alternative"
    text, related = mail.get_payload()
    assert text.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html, image = related.get_payload()
    assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
    assert image["Content-Disposition"].startswith("inline")
    return text.get_content(), html.get_content(), image.get_content(), str(image["Content-ID"])


@pytest.fixture
def fief(tmp_path):
    """A Fief: France game of three players with fog of war and a game master, after its first
    resolution (default orders at the deadline)."""
    judge = Judge(tmp_path / "home")
    judge.new_game("f1", players=PLAYERS[:3], game_type="fief_france", options={"fog_of_war": True},
                   gm_email=GM, seed="html")
    judge.tick(advance_hours=49)
    return judge


def current_state(judge: Judge, name: str = "f1") -> dict:
    store = judge.store()
    try:
        return engine.load_game(store, name).state
    finally:
        store.close()


def test_a_report_is_text_first_then_html_with_the_map_of_the_readers_own_view(fief):
    mails = outbox(fief)
    state = current_state(fief)
    for reader, address in [(p, f"{p}@pbem.test") for p in PLAYERS[:3]] + [(None, GM)]:
        raw = mails[address][-1]
        text, html, png, content_id = parts(raw)
        assert text.startswith("[pbem] automatic mail from") and "== Position ==" in text
        # The picture is the one drawn from this reader's view (the game master's: everything).
        drawing = map_drawing(RULES, RULES.view(state, reader))
        assert png == draw_png(drawing)
        assert content_id == f"<{map_content_id(drawing, 'pbem.test')}>"
        assert f'src="cid:{content_id[1:-1]}"' in html
        # Nothing remote, nothing active, no stylesheet: inline styles only.
        assert not re.search(r"https?://", html) and "<script" not in html.lower()
        assert "<link" not in html.lower() and "<style" not in html.lower() and "@import" not in html
        assert len(raw) < REPORT_MAIL_BUDGET
        # The HTML says what the text says: every phase heading, the position, the template.
        for line in text.splitlines():
            if line.startswith("== ") and line.endswith(" =="):
                assert line.strip("= ").replace('"', "&#34;").split(" (")[0] in html
        if reader:
            assert f"player: {reader}" in html and f"report for {reader}" in html
        else:
            assert "game master's full report" in html


def test_the_text_part_is_the_text_mail_and_an_opted_out_player_gets_that_mail_alone(tmp_path):
    """Two judges play the same game with the same seed; on the second, marie chose plain text.
    Her mail there is a single text/plain part, and it is the text part of the first's."""
    judges = []
    for n, html in enumerate((True, False)):
        judge = Judge(tmp_path / f"home{n}")
        judge.new_game("f1", players=PLAYERS[:3], game_type="fief_france", seed="html")
        store = judge.store()
        with store.transaction():
            assert store.set_mail_html(engine.load_game(store, "f1").id, "marie", html)
        store.close()
        judge.tick(advance_hours=49)
        judges.append(judge)
    with_html, plain = (outbox(j)["marie@pbem.test"][-1] for j in judges)
    text, *_ = parts(with_html)
    mail = content(parse(plain))
    assert mail.get_content_type() == "text/plain" and not mail.is_multipart()
    assert mail.get_content() == text
    assert b"image/png" not in plain and b"text/html" not in plain
    # The others on the second judge still get the map.
    parts(outbox(judges[1])["olivier@pbem.test"][-1])


def test_the_plain_mail_of_an_opted_out_player_is_the_mail_compose_writes_without_html():
    base = dict(to="marie@example.org", to_name="marie", subject="[f1] round-1 resolved", body="Écus: 3\n",
                message_id="<report.1@pbem.test>")
    png = b"\x89PNG not drawn"
    with_html = compose(OutMail(**base, html="<p>x</p>", images=(InlineImage("m@pbem.test", png),)), "j@pbem.test", "J",
                        now=None)
    plain = compose(OutMail(**base), "j@pbem.test", "J")
    assert parse(plain).get_content() == parse(with_html).get_payload()[0].get_content()
    assert b"multipart" not in plain and b"Content-Type: text/plain" in plain


def test_a_report_of_the_largest_map_stays_within_the_mail_budget(fief):
    """The budget holds for the crowded board (every town full of every family's forces, the
    largest picture) with a real report's text and HTML around it."""
    text, html, _, _ = parts(outbox(fief)[GM][-1])
    png = draw_png(map_drawing(RULES, RULES.view(crowded(), None)))
    raw = compose(OutMail(to=GM, subject="[f1] round-1 resolved (game master)", body=text, html=html,
                          images=(InlineImage(image_content_id(png, "pbem.test"), png),)),
                  "judge@pbem.test", "pbem judge")
    assert len(raw) < REPORT_MAIL_BUDGET, len(raw)


def reports_for(judge: Judge, state: dict) -> dict[str, bytes]:
    """The reports Mailer.reports writes for ``state`` (one empty phase), by recipient."""
    store = judge.store()
    try:
        with store.transaction():
            store.run("UPDATE games SET state=? WHERE name='f4'", dumps(state))
            store.run("DELETE FROM outbox")
            store.run("DELETE FROM outbox_parts")
            game = engine.load_game(store, "f4")
            Mailer(store, judge.home).reports(game, [engine.Resolved(1, "round-3/movement", "Movement", [], [])])
        return {r["recipient"]: store.mail_bytes(r)
                for r in store.all("SELECT message_id, recipient, raw, parts FROM outbox")}
    finally:
        store.close()


def test_another_players_hidden_units_never_change_a_players_mail(tmp_path):
    """Under fog of war marie may count olivier's pawns but not know their types: two positions
    differing only there give marie the same report, text, HTML and picture, byte for byte (the
    deadline's .ics beside it carries the second it was written, DTSTAMP, so it is left out);
    the game master's (who sees the types) differ, so the test can see a difference."""
    judge = Judge(tmp_path / "home")
    judge.new_game("f4", players=PLAYERS, game_type="fief_france", options={"fog_of_war": True}, gm_email=GM)
    units = {"Tours": {"enguerand": {"man_at_arms": 3}}, "Lyon": {"olivier": {"knight": 2, "archer": 1}}}
    other = {"Tours": {"enguerand": {"man_at_arms": 3}}, "Lyon": {"olivier": {"man_at_arms": 2, "bombard": 1}}}
    first, second = reports_for(judge, position(units=units)), reports_for(judge, position(units=other))
    marie = "marie@pbem.test"
    assert content(parse(first[marie])).as_bytes() == content(parse(second[marie])).as_bytes()
    assert parts(second[marie])[2] == draw_png(map_drawing(RULES, RULES.view(current_state(judge, "f4"), "marie")))
    assert parts(first[GM])[2] != parts(second[GM])[2]


def test_what_a_player_wrote_stays_theirs_in_the_html_quoted_escaped_and_attributed():
    said = Said(by="olivier", text='<script>alert(1)</script>\nThe judge says: <b>you lose</b> '
                                   'http://evil.example/x.png\u202e')
    event = Event(kind="message", text="Message from olivier to all:", said=said)
    html = str(event_html(event, "marie"))
    assert "<script" not in html and "<b>you" not in html
    assert "olivier wrote:" in html
    # The very lines of the text part, escaped: each starts with the author and a bar.
    from pbem.judge.render import said_lines
    from markupsafe import escape
    for line in said_lines(said):
        assert str(escape(line)) in html
    assert "&lt;script&gt;" in html and "&lt;U+202E&gt;" in html
    assert "src=" not in html and "href=" not in html


def opt(judge: Judge, player: str, value: str, extra: str = "") -> None:
    secret = judge.secrets["f1"][player]
    judge.send(f"{player}@pbem.test", f"game: f1\nplayer: {player}\nsecret: {secret}\nhtml: {value}\n{extra}",
               subject="plain please")


def answers(judge: Judge, player: str) -> list[str]:
    return [parse(raw).get_content() for raw in outbox(judge, "html_changed").get(f"{player}@pbem.test", [])] + \
           [parse(raw).get_content() for raw in outbox(judge, "reject").get(f"{player}@pbem.test", [])]


def mail_html(judge: Judge, player: str) -> int:
    store = judge.store()
    try:
        return store.one("SELECT mail_html FROM players WHERE name=?", player)["mail_html"]
    finally:
        store.close()


def test_a_player_opts_out_of_html_by_mail_and_gets_plain_text_reports(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game("f1", players=PLAYERS[:3], game_type="fief_france")
    opt(judge, "marie", "no")
    report = judge.tick()
    assert report.mails == {"html off": 1}, report.lines()
    assert mail_html(judge, "marie") == 0
    assert "will come as plain text only" in answers(judge, "marie")[0]
    judge.tick(advance_hours=49)
    reports = outbox(judge)
    assert not content(parse(reports["marie@pbem.test"][-1])).is_multipart()
    parts(reports["olivier@pbem.test"][-1])
    opt(judge, "marie", "yes")
    assert judge.tick().mails == {"html on": 1}
    assert mail_html(judge, "marie") == 1


@pytest.mark.parametrize("value, extra, problem", [
    ("maybe", "", "`html:` takes yes or no"),
    ("no", "orders:\n  - x\n", "a change of `html:` goes in a mail of its own"),
])
def test_a_bad_opt_out_is_refused_and_changes_nothing(tmp_path, value, extra, problem):
    judge = Judge(tmp_path / "home")
    judge.new_game("f1", players=PLAYERS[:3], game_type="fief_france")
    opt(judge, "marie", value, extra)
    judge.tick()
    assert mail_html(judge, "marie") == 1
    assert any(problem in text for text in answers(judge, "marie")), answers(judge, "marie")


def test_a_stranger_cannot_opt_a_player_out(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game("f1", players=PLAYERS[:3], game_type="fief_france")
    judge.send("marie@pbem.test", "game: f1\nplayer: marie\nsecret: not-her-secret\nhtml: no\n")
    judge.tick()
    assert mail_html(judge, "marie") == 1


def test_the_game_master_sets_a_players_choice(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game("f1", players=PLAYERS[:3], game_type="fief_france")
    home = str(judge.home.path)
    result = CliRunner().invoke(main, ["game", "html", "f1", "marie", "no", "--home", home])
    assert result.exit_code == 0 and "marie's reports in game f1 now come as plain text only" in result.output
    assert mail_html(judge, "marie") == 0
    result = CliRunner().invoke(main, ["game", "html", "f1", "nobody", "yes", "--home", home])
    assert result.exit_code != 0 and "game 'f1' has no player 'nobody'" in result.output
    assert "Traceback" not in result.output


def test_a_game_without_a_map_gets_html_without_a_picture(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game("g1")   # the tiny game: no board geometry
    judge.tick(advance_hours=49)
    mail = content(parse(outbox(judge)["alice@pbem.test"][-1]))
    text, html = mail.get_payload()
    assert (text.get_content_type(), html.get_content_type()) == ("text/plain", "text/html")
    assert "<img" not in html.get_content()


def test_the_html_template_escapes_everything_it_is_given():
    game = {"name": "<g>", "title": "T&T", "type": "tiny", "status": "running"}
    html = render_html("report.html.j2", marker="[pbem] automatic mail from J <j@x>", map_cid=None, map_problem=None,
                       game=game, me="<i>m</i>", phases=[], position="<pos>", phase=None, result=None,
                       template=None, decider=False, deadline=None)
    assert "<g>" not in html and "<i>m</i>" not in html and "<pos>" not in html and "&lt;j@x&gt;" in html
    assert render("report.txt.j2", game=game, me="m", phases=[], position="p", phase=None, result=None,
                  template=None, decider=False, deadline=None)


@pytest.mark.e2e
def test_a_report_with_its_map_reaches_a_real_mailbox_whole(tmp_path, mail_servers):
    """Through the real path (SMTP relay, Dovecot, IMAP): the report a player finds in their
    mailbox is multipart/alternative, its text first, and its picture the map of their view."""
    from mailservers import start_loire
    servers = mail_servers
    judge = Judge(tmp_path / "home")
    players = ("alice", "bob", "carol")
    start_loire(judge, servers, players)
    report = judge.tick(advance_hours=49)
    assert report.resolved and not report.errors, report.lines()
    state = current_state(judge, "loire")
    for player in players:
        raws = [raw for raw in servers.mailbox(player) if b"resolved" in raw.split(b"\r\n\r\n", 1)[0]]
        assert len(raws) == 1
        text, html, png, content_id = parts(raws[0])
        assert f"report for {player}" in text and f"report for {player}" in html
        assert png == draw_png(map_drawing(RULES, RULES.view(state, player)))
        assert f'src="cid:{content_id[1:-1]}"' in html and len(raws[0]) < REPORT_MAIL_BUDGET


@pytest.mark.parametrize("fog, drawn", [(False, 1), (True, 4)])
def test_readers_whose_views_draw_the_same_map_share_one_drawing(tmp_path, monkeypatch, fog, drawn):
    """A picture per reader costs the most of a report round (docs/performance.md): without fog
    of war every view of the board draws the same, so one picture serves the three players and
    the game master; under fog each player's own (and the game master's) is drawn, so no reader
    ever gets a picture of another view. Bounded by the count of drawings, not by time."""
    from pbem.judge import maps
    calls: list[int] = []
    real = maps.draw_png

    class Counted(maps.Drawn):
        def __init__(self, drawing):
            calls.append(1)
            super().__init__(drawing)

    monkeypatch.setattr(maps, "Drawn", Counted)
    judge = Judge(tmp_path / "home")
    judge.new_game("f5", players=PLAYERS[:3], game_type="fief_france", options={"fog_of_war": fog},
                   gm_email=GM, seed="html")
    assert len(calls) == 1     # the welcomes: before the starting towns no player has a piece to hide
    calls.clear()
    judge.tick(advance_hours=49)
    assert len(calls) == drawn
    state = current_state(judge, "f5")
    mails = outbox(judge)
    for reader, address in [(p, f"{p}@pbem.test") for p in PLAYERS[:3]] + [(None, GM)]:
        assert parts(mails[address][-1])[2] == real(map_drawing(RULES, RULES.view(state, reader)))


def test_a_rounds_picture_is_stored_once_for_the_mails_that_carry_it(tmp_path):
    """Schema version 8 (issue 13): without fog of war the four reports of a round carry one
    picture: the store keeps its base64 once, each report's row without it (a fifth of the
    bytes), and the mail sent is the whole mail, picture in place. The part goes with the last
    mail that carries it."""
    judge = Judge(tmp_path / "home")
    judge.new_game("f4", players=PLAYERS[:3], game_type="fief_france", gm_email=GM)
    reports = reports_for(judge, current_state(judge, "f4"))
    store = judge.store()
    try:
        (part,) = store.all("SELECT key, data, users FROM outbox_parts")
        rows = store.all("SELECT message_id, recipient, raw, parts FROM outbox WHERE purpose='report' ORDER BY id")
        assert len(rows) == part["users"] == 4
        picture = bytes(part["data"])
        png = draw_png(map_drawing(RULES, RULES.view(current_state(judge, "f4"), None)))
        assert picture == base64.encodebytes(png).replace(b"\n", b"\r\n")
        for row in rows:
            assert picture not in bytes(row["raw"]) and len(row["raw"]) * 4 < len(reports[row["recipient"]])
            assert [key for _, key in json.loads(row["parts"])] == [part["key"]]
            assert parts(reports[row["recipient"]])[2] == png
            assert f"Content-ID: <{part['key']}>".encode() in bytes(row["raw"])
        with store.transaction():
            for n, row in enumerate(rows):
                assert store.mark_sent(row["message_id"], 1.0)
                left = store.all("SELECT users FROM outbox_parts")
                assert [r["users"] for r in left] == ([4 - n - 1] if n < 3 else [])
        assert store.one("SELECT COUNT(*) FROM outbox WHERE parts IS NOT NULL")[0] == 0
    finally:
        store.close()
