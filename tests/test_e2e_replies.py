"""End to end against real servers: players answer the judge's mails the way their mail
clients write replies (Gmail in French and Hungarian, Outlook's unquoted copy, s-nail with
the orders below the quote, German, Spanish, Italian, `-----Original Message-----`, a
sign-off, orders below Outlook's copy, Thunderbird with the marker line deleted, Apple
Mail), sent by SMTP and read by a tick over IMAP from a real Dovecot. Each reply quotes
the judge's mail as the player received it, marker line included. Needs Dovecot (skipped on
a laptop without it, a failure under CI=true)."""
from __future__ import annotations

import email
import email.policy

import pytest

from judge_support import Judge
from mailservers import player_mail, point_judge_at

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol", "dave")


def quote(body: str) -> str:
    return "".join(("> " + line).rstrip() + "\n" for line in body.splitlines())


def outlook(word: str) -> str:
    return (f"________________________________\nFrom: pbem judge <judge@pbem.test>\nSent: {word}, December 1, 2026 "
            "10:00\nTo: player@pbem.test\nSubject: [g1] orders\n\n")


# How each client writes a reply: {orders} the player's text, {quoted} the judge's mail
# quoted, {copy} the judge's mail as received (Outlook does not quote).
CLIENTS = {
    "gmail-french": "{orders}\nLe mar. 1 déc. 2026 à 10:00, pbem judge <judge@pbem.test> a\nécrit :\n\n{quoted}",
    "outlook": "{orders}\n" + outlook("Tuesday") + "{copy}",
    "gmail-hungarian": "{orders}\nCheers,\nCarol\n\npbem judge <judge@pbem.test> ezt írta (időpont: 2026. dec. 1., "
                       "K, 10:00):\n\n{quoted}",
    "s-nail-below": "pbem judge <judge@pbem.test> wrote:\n{quoted}\n{orders}",
    "gmail-german": "{orders}\nAm Di., 1. Dez. 2026 um 10:00 Uhr schrieb pbem judge <judge@pbem.test>:\n\n{quoted}",
    "gmail-spanish": "{orders}\nEl mar, 1 dic 2026 a las 10:00, pbem judge (<judge@pbem.test>) escribió:\n\n{quoted}",
    "gmail-italian": "{orders}\nIl giorno mar 1 dic 2026 alle ore 10:00 pbem judge <judge@pbem.test> ha scritto:\n\n"
                     "{quoted}",
    "outlook-original-message": "{orders}\n-----Original Message-----\nFrom: pbem judge [mailto:judge@pbem.test]\n"
                                "Sent: Tuesday, December 01, 2026 10:00 AM\nTo: player@pbem.test\nSubject: [g1]\n\n"
                                "{copy}",
    "outlook-orders-below": "Below.\n\n" + outlook("Tuesday") + "{copy}\n{orders}",
    "thunderbird-polish-marker-deleted": "{orders}\nW dniu 1.12.2026 o 10:00, pbem judge pisze:\n{unmarked}",
    "thunderbird-french": "{orders}\nLe 01/12/2026 à 10:00, pbem judge a écrit :\n{quoted}",
    "apple-mail": "{orders}\n\nOn 1 Dec 2026, at 10:00, pbem judge <judge@pbem.test> wrote:\n\n{quoted}",
}


def latest(servers, player: str, words: str):
    mails = [email.message_from_bytes(raw, policy=email.policy.default) for raw in servers.mailbox(player)]
    return [m for m in mails if words in str(m["Subject"])][-1]


def reply(servers, judge: Judge, player: str, to, client: str, phase: str, bid: int) -> None:
    """The player answers the judge's mail ``to`` with their client's reply format."""
    received = to.get_body(("plain",)).get_content()
    orders = (f"Here you go.\n\ngame: g1\nplayer: {player}\nsecret: {judge.secrets['g1'][player]}\n"
              f"phase: {phase}\nbid: {bid}\n")
    unmarked = quote(received.split("\n", 1)[1])   # the player deleted the marker line
    text = CLIENTS[client].format(orders=orders, quoted=quote(received), copy=received, unmarked=unmarked)
    servers.send(servers.address(player), [servers.address("judge")],
                 player_mail(servers.address(player), servers.address("judge"), f"Re: {to['Subject']}", text,
                             In_Reply_To=str(to["Message-ID"])))


def test_replies_in_many_mail_clients_formats_are_read(tmp_path, mail_servers):
    servers = mail_servers
    judge = Judge(tmp_path / "home")
    point_judge_at(judge, servers)
    judge.new_game(players=PLAYERS, options={"target": 9})
    report = judge.tick()
    assert report.sent == 4 and not report.errors
    bids = {"alice": 6, "bob": 5, "carol": 4, "dave": 3}
    rounds = (("round-1/bid", "Welcome", ("gmail-french", "outlook", "gmail-hungarian", "s-nail-below")),
              ("round-2/bid", "resolved", ("gmail-german", "gmail-spanish", "gmail-italian",
                                           "outlook-original-message")),
              ("round-3/bid", "resolved", ("outlook-orders-below", "thunderbird-polish-marker-deleted",
                                           "thunderbird-french", "apple-mail")))
    for phase, answering, clients in rounds:
        for player, client in zip(PLAYERS, clients, strict=True):
            reply(servers, judge, player, latest(servers, player, answering), client, phase, bids[player])
        report = judge.tick()
        assert report.mails == {"orders accepted": 4}, report.lines()
        assert report.resolved[0] == f"g1: {phase}" and not report.errors
        for player, client in zip(PLAYERS, clients, strict=True):
            ack = latest(servers, player, "Re:").get_body(("plain",)).get_content()
            assert f"bid: {bids[player]}" in ack and phase in ack, (client, ack)
            if client == "gmail-hungarian":  # the sign-off above the attribution: cut, and said
                assert "Not read as orders" in ack and "- line 9: Cheers," in ack and "- line 10: Carol" in ack, ack
            else:
                assert "Not read as orders" not in ack, (client, ack)
