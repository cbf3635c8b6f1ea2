"""The welcome mail as multipart/alternative, like a report (issue 14, "HTML for the other
mails"): the plain text first and whole, then the same welcome in HTML with the map of the
player's own starting view inline by Content-ID; the secret only in its own player's mail."""
from __future__ import annotations

import re

from judge_support import Judge
from pbem.games import rules_for
from pbem.judge.mailer import REPORT_MAIL_BUDGET
from pbem.judge.maps import draw_png
from pbem.rules.api import map_drawing
from test_html_reports import current_state, outbox, parse, parts

RULES = rules_for("fief_france")
PLAYERS = ("enguerand", "marie", "olivier")


def test_each_welcome_carries_its_players_map_and_the_same_words_in_html(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game("w1", players=PLAYERS, game_type="fief_france", options={"fog_of_war": True}, seed="welcome")
    state = current_state(judge, "w1")
    mails = outbox(judge, "welcome")
    secrets = judge.secrets["w1"]
    for player in PLAYERS:
        (raw,) = mails[f"{player}@pbem.test"]
        text, html, png, content_id = parts(raw)
        assert png == draw_png(map_drawing(RULES, RULES.view(state, player)))
        assert f'src="cid:{content_id[1:-1]}"' in html and len(raw) < REPORT_MAIL_BUDGET
        assert secrets[player] in text and secrets[player] in html
        assert all(secrets[p] not in raw.decode("ascii", "replace") for p in PLAYERS if p != player)
        # the same welcome: the text's sentences and its order template are in the HTML
        assert f"Welcome to Fief: France, {player}!" in html
        assert "game: w1" in html and f"player: {player}" in html and "phase: setup/starting-towns" in html
        # nothing remote, no script
        assert not re.search(r"<script|https?://|src=\"(?!cid:)", html)


def test_a_game_without_a_map_welcomes_in_html_without_a_picture(tmp_path):
    judge = Judge(tmp_path / "home")
    judge.new_game("t1")
    (raw,) = outbox(judge, "welcome")["alice@pbem.test"]
    mail = parse(raw)
    # multipart/mixed: the welcome (text and HTML) first, then the deadline's .ics (issue 15)
    assert mail.get_content_type() == "multipart/mixed"
    welcome, ics = mail.get_payload()
    assert welcome.get_content_type() == "multipart/alternative" and ics.get_content_type() == "text/calendar"
    text, html = welcome.get_payload()
    assert text.get_content_type() == "text/plain" and html.get_content_type() == "text/html"
    assert "<img" not in html.get_content() and judge.secrets["t1"]["alice"] in html.get_content()
