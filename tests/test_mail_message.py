"""parse_mail on the kinds of mail a judge meets, and compose's headers and round trip."""

from __future__ import annotations

import base64
from datetime import datetime, timezone
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import EmailMessage

import pytest

from work_count import calls
from pbem.mail.message import MAX_ATTACHMENT_BYTES, MAX_TEXT_CHARS, parse_mail
from pbem.mail.outgoing import AUTO_GENERATED, AUTO_REPLIED, OutMail, compose, make_list_id, make_message_id

JUDGE = "judge@pbem.test"
ORDERS = "game: loire\nplayer: marie\nsecret: 7f3k-29qd\norders:\n  - move: Guenièvre\n"


def raw_mail(headers: str, body: bytes | str) -> bytes:
    body_bytes = body.encode() if isinstance(body, str) else body
    return headers.strip("\n").replace("\n", "\r\n").encode() + b"\r\n\r\n" + body_bytes


def plain(body: str = "hello", **extra: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Marie Curie <Marie@Example.ORG>"
    msg["To"] = JUDGE
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<m1@example.org>"
    msg["Date"] = "Sun, 29 Nov 2026 10:00:00 +0100"
    for name, value in extra.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg.as_bytes()


def test_plain_mail_fields():
    mail = parse_mail(plain(ORDERS, In_Reply_To="<r2@judge>", References="<r1@judge> <r2@judge>"), [JUDGE])
    assert mail.message_id == "<m1@example.org>"
    assert (mail.from_addr, mail.from_name) == ("marie@example.org", "Marie Curie")
    assert mail.subject == "orders"
    assert mail.date == datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)
    assert mail.in_reply_to == "<r2@judge>"
    assert mail.references == ("<r1@judge>", "<r2@judge>")
    assert mail.text == ORDERS
    assert mail.auto is None and mail.problem is None


def test_quoted_printable_body():
    body = b"game: loire=0Aorders: Guen=C3=A8vre soft=\r\nbreak\r\n"
    raw = raw_mail("From: a@example.org\nMessage-ID: <q@x>\nContent-Type: text/plain; charset=utf-8\n"
                   "Content-Transfer-Encoding: quoted-printable", body)
    assert parse_mail(raw, [JUDGE]).text == "game: loire\norders: Guenèvre softbreak\n"


def test_base64_body():
    encoded = base64.encodebytes(ORDERS.encode("utf-8"))
    raw = raw_mail("From: a@example.org\nContent-Type: text/plain; charset=UTF-8\n"
                   "Content-Transfer-Encoding: base64", encoded)
    assert parse_mail(raw, [JUDGE]).text == ORDERS


def test_latin1_and_windows1252_bodies():
    latin = raw_mail("From: a@example.org\nContent-Type: text/plain; charset=iso-8859-1\n"
                     "Content-Transfer-Encoding: 8bit", "Guenièvre à Tours".encode("latin-1"))
    assert parse_mail(latin, [JUDGE]).text == "Guenièvre à Tours"
    # Labelled latin-1 but written by Windows: 0x80 is the euro sign, 0x93/0x94 curly quotes.
    cp1252 = raw_mail("From: a@example.org\nContent-Type: text/plain; charset=ISO-8859-1",
                      b"\x93cinq\x94 \x80")
    assert parse_mail(cp1252, [JUDGE]).text == "\u201ccinq\u201d \u20ac"


def test_bad_bytes_and_unknown_charset_are_replaced_not_raised():
    bad_utf8 = raw_mail("From: a@example.org\nContent-Type: text/plain; charset=utf-8", b"ok \xff\xfe ok")
    assert parse_mail(bad_utf8, [JUDGE]).text == "ok \ufffd\ufffd ok"
    unknown = raw_mail("From: a@example.org\nContent-Type: text/plain; charset=x-klingon", b"plain")
    assert parse_mail(unknown, [JUDGE]).text == "plain"


def test_undeclared_charset_utf8_is_read_as_utf8():
    raw = raw_mail("From: a@example.org", "Guenièvre".encode())
    assert parse_mail(raw, [JUDGE]).text == "Guenièvre"


def test_html_only_mail_keeps_yaml_indentation():
    html = ("<html><head><style>div{}</style></head><body><div>game: loire</div><div>orders:</div>"
            "<div>&nbsp; - move: Guenièvre</div><div>&nbsp; &nbsp; with: [knight]</div>"
            "<p>Best   wishes,<br>Marie</p><script>alert(1)</script></body></html>")
    msg = EmailMessage()
    msg["From"] = "marie@example.org"
    msg.set_content(html, subtype="html")
    mail = parse_mail(msg.as_bytes(), [JUDGE])
    assert mail.text == "game: loire\norders:\n  - move: Guenièvre\n    with: [knight]\nBest wishes,\nMarie"


def test_plain_part_preferred_over_html():
    msg = EmailMessage()
    msg["From"] = "marie@example.org"
    msg.set_content("the plain text")
    msg.add_alternative("<p>the <b>html</b></p>", subtype="html")
    assert parse_mail(msg.as_bytes(), [JUDGE]).text == "the plain text\n"


def test_yaml_attachments_by_name_and_by_type():
    msg = EmailMessage()
    msg["From"] = "marie@example.org"
    msg.set_content("orders attached")
    msg.add_attachment(ORDERS.encode(), maintype="application", subtype="octet-stream", filename="orders.yaml")
    msg.add_attachment(b"phase: x\n", maintype="text", subtype="x-yaml", filename="noname")
    msg.add_attachment(b"\x89PNG binary", maintype="image", subtype="png", filename="map.png")
    mail = parse_mail(msg.as_bytes(), [JUDGE])
    assert mail.text == "orders attached\n"
    assert [(a.filename, a.text, a.truncated) for a in mail.attachments_yaml] == [
        ("orders.yaml", ORDERS, False), ("noname", "phase: x\n", False)]


def test_inline_text_file_is_a_body_but_a_text_attachment_is_not():
    inline = raw_mail("From: a@example.org\nContent-Type: text/plain; name=orders.txt\n"
                      "Content-Disposition: inline; filename=orders.txt", "game: loire\n")
    assert parse_mail(inline, [JUDGE]).text == "game: loire\n"
    msg = EmailMessage()
    msg["From"] = "a@example.org"
    msg.set_content("the body")
    msg.add_attachment("not the body", filename="notes.txt")
    assert parse_mail(msg.as_bytes(), [JUDGE]).text == "the body\n"


def test_body_split_around_an_inline_picture_is_joined():
    msg = EmailMessage()
    msg["From"] = "a@example.org"
    msg.make_mixed()
    for maintype, subtype, content in [("text", "plain", "game: loire\n"), ("image", "png", b"\x89PNG"),
                                       ("text", "plain", "orders: []\n")]:
        part = EmailMessage()
        if maintype == "text":
            part.set_content(content)
        else:
            part.set_content(content, maintype=maintype, subtype=subtype, disposition="inline")
        msg.attach(part)
    assert parse_mail(msg.as_bytes(), [JUDGE]).text == "game: loire\n\norders: []\n"


def test_huge_attachment_and_body_are_capped_quickly():
    msg = EmailMessage()
    msg["From"] = "marie@example.org"
    msg.set_content("x" * (MAX_TEXT_CHARS + 5000))
    msg.add_attachment(b"a: b\n" * (MAX_ATTACHMENT_BYTES // 2), maintype="application",
                       subtype="yaml", filename="big.yml")
    raw = msg.as_bytes()
    work, mail = calls(parse_mail, raw, [JUDGE])
    assert work < 1_000_000, work  # 250,000 calls for these 3.8 MB: the MIME parser fed in chunks
    assert len(mail.text) == MAX_TEXT_CHARS and mail.text_truncated
    (attachment,) = mail.attachments_yaml
    assert attachment.truncated and len(attachment.text) == MAX_ATTACHMENT_BYTES


def test_bounce_multipart_report():
    raw = raw_mail("From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n"
                   "Content-Type: multipart/report; report-type=delivery-status; boundary=b",
                   "--b\r\nContent-Type: text/plain\r\n\r\nundeliverable\r\n--b--\r\n")
    assert "report-type=delivery-status" in parse_mail(raw, [JUDGE]).auto


def test_bounce_null_return_path_and_postmaster():
    assert "empty Return-Path" in parse_mail(plain(Return_Path="<>"), [JUDGE]).auto
    raw = raw_mail("From: postmaster@example.org", "your mail bounced")
    assert "postmaster@example.org" in parse_mail(raw, [JUDGE]).auto


def test_vacation_auto_reply():
    mail = parse_mail(plain("I am away", Auto_Submitted="auto-replied (vacation)"), [JUDGE])
    assert mail.auto.startswith("Auto-Submitted: auto-replied")
    assert parse_mail(plain(Auto_Submitted="no"), [JUDGE]).auto is None
    assert "X-Autoreply" in parse_mail(plain(X_Autoreply="yes"), [JUDGE]).auto


def test_precedence_bulk_and_list_traffic():
    assert parse_mail(plain(Precedence="bulk"), [JUDGE]).auto == "Precedence: bulk"
    assert parse_mail(plain(Precedence="first-class"), [JUDGE]).auto is None
    assert "List-Id" in parse_mail(plain(List_Id="<games.lists.example.org>"), [JUDGE]).auto


def test_our_loop_header_and_our_own_address():
    assert "X-Pbem-Loop" in parse_mail(plain(X_Pbem_Loop="judge@other.example"), [JUDGE]).auto
    raw = plain().replace(b"Marie Curie <Marie@Example.ORG>", b"Judge <JUDGE@pbem.test>")
    assert parse_mail(raw, [JUDGE]).auto == "sent from the judge's own address judge@pbem.test"


def test_missing_message_id_gets_a_stable_synthetic_one():
    raw = raw_mail("From: a@example.org\nSubject: no id", "body")
    first, second = parse_mail(raw, [JUDGE]), parse_mail(raw, [JUDGE])
    assert first.message_id == second.message_id
    assert first.message_id.startswith("<") and first.message_id.endswith("@no-message-id.pbem.invalid>")
    assert parse_mail(raw + b"!", [JUDGE]).message_id != first.message_id


def test_missing_from_is_never_answered():
    mail = parse_mail(raw_mail("Subject: who?", "body"), [JUDGE])
    assert mail.from_addr == "" and mail.auto == "no usable From address to answer"


def test_encoded_headers_are_decoded():
    raw = raw_mail("From: =?utf-8?q?Ren=C3=A9e?= <renee@example.org>\n"
                   "Subject: =?iso-8859-1?q?ordres_pour_Guenl=E8vre?=\n \tand more", "x")
    mail = parse_mail(raw, [JUDGE])
    assert (mail.from_name, mail.subject) == ("Renée", "ordres pour Guenlèvre and more")


def test_garbage_never_raises():
    samples = [b"", b"\x00\xff" * 500, b"From: \r\n\r\n", b"Content-Type: multipart/mixed; boundary=\r\n\r\n--",
               b"From: a@b.c\r\nContent-Type: text/plain; charset=\"\r\n"
               b"Content-Transfer-Encoding: base64\r\n\r\n!!!@@@",
               b"From: a@b.c\r\nDate: not a date at all\r\nReferences: <<<>>>\r\n\r\nx",
               b"Content-Type: multipart/mixed; boundary=a\r\n\r\n"
               + b"--a\r\nContent-Type: multipart/mixed; boundary=a\r\n\r\n" * 300]
    for raw in samples:
        mail = parse_mail(raw, [JUDGE])
        assert mail.message_id.startswith("<") and mail.problem is None
        assert (mail.auto is None) == (mail.from_addr == "a@b.c")  # no sender: never answered


def test_unparseable_mail_becomes_a_problem_record(monkeypatch):
    import pbem.mail.message as message

    def explode(*args):
        raise RecursionError("nested too deep")

    monkeypatch.setattr(message, "_parse", explode)
    mail = parse_mail(b"From: a@example.org\r\n\r\nx", [JUDGE])
    assert mail.problem == "the mail could not be parsed (RecursionError)"
    assert mail.auto and mail.message_id.endswith("@no-message-id.pbem.invalid>")


def _out(**changes) -> OutMail:
    fields = dict(to="alice@pbem.test", to_name="Alice Dupré", subject="Loire \u2014 round 3\nreport",
                  body="Hello Alice,\n\nTours is yours: 3 écus.\n" + "-" * 100,
                  message_id=make_message_id("pbem.test", "loire.r3.alice"),
                  in_reply_to="<loire.root@pbem.test>", references=["<loire.root@pbem.test>", "bogus"],
                  list_id=make_list_id("pbem game loire", "loire", "pbem.test"),
                  auto_submitted=AUTO_REPLIED, extra_headers={"X-Pbem-Game": "loire"})
    fields.update(changes)
    return OutMail(**fields)


def test_compose_headers():
    when = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
    raw = compose(_out(), JUDGE, "PBEM judge", now=when)
    assert b"\r\n\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    msg = message_from_bytes(raw)
    assert msg["From"] == "PBEM judge <judge@pbem.test>"
    assert str(make_header(decode_header(msg["To"]))) == "Alice Dupré <alice@pbem.test>"
    assert msg["Date"] == "Sun, 29 Nov 2026 12:00:00 +0000"
    assert msg["Message-ID"] == "<loire.r3.alice@pbem.test>"
    assert msg["In-Reply-To"] == "<loire.root@pbem.test>"
    assert msg["References"] == "<loire.root@pbem.test>"  # the bogus entry is dropped, no duplicate
    assert msg["List-Id"] == '"pbem game loire" <loire.pbem.test>'
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Precedence"] == "bulk"
    assert msg["X-Pbem-Loop"] == JUDGE
    assert msg["X-Pbem-Game"] == "loire"
    assert msg["MIME-Version"] == "1.0"
    assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"
    assert msg["Content-Transfer-Encoding"] == "quoted-printable"
    assert all(len(line) <= 78 for line in raw.split(b"\r\n"))


def test_compose_ascii_body_is_7bit_and_default_message_id():
    raw = compose(_out(body="plain ascii\n", message_id="", auto_submitted=AUTO_GENERATED), JUDGE, "J")
    msg = message_from_bytes(raw)
    assert msg["Content-Transfer-Encoding"] == "7bit"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["Message-ID"].endswith("@pbem.test>")


def test_round_trip_compose_parse():
    raw = compose(_out(), JUDGE, "PBEM judge")
    mail = parse_mail(raw, ["someone-else@pbem.test"])
    assert mail.message_id == "<loire.r3.alice@pbem.test>"
    assert (mail.from_addr, mail.from_name) == (JUDGE, "PBEM judge")
    assert mail.subject == "Loire \u2014 round 3 report"
    assert mail.text == "Hello Alice,\n\nTours is yours: 3 écus.\n" + "-" * 100 + "\n"
    assert mail.in_reply_to == "<loire.root@pbem.test>"
    assert mail.references == ("<loire.root@pbem.test>",)
    assert "X-Pbem-Loop" in mail.auto  # a judge never answers a judge's mail


def test_make_message_id_and_list_id_are_safe():
    assert make_message_id("judge@Example.org", "game 1/round <2>") == "<game-1/round--2-@example.org>"
    assert make_list_id('A "bad"\nname', "Loire Valley!", "example.org") == '"A badname" <loire-valley.example.org>'


def test_compose_refuses_unusable_addresses_with_a_clear_error():
    import pytest

    from pbem.mail.outgoing import ComposeError

    for bad in ("josé@example.org", "not an address", "a@b@c", ""):
        with pytest.raises(ComposeError, match="^the recipient's address .* is not a usable mail address"):
            compose(OutMail(to=bad, subject="s", body="b"), JUDGE, "J")


def test_address_problem_checks_early():
    from pbem.mail.outgoing import address_problem

    assert address_problem("Alice@Example.org") is None
    assert address_problem("alice") == "'alice' is not a mail address such as name@example.org"
    assert "not a usable mail address" in address_problem("josé@example.org")


@pytest.mark.parametrize("from_lines", [
    [b"alice@pbem.test, mallory@evil.test"], [b"mallory@evil.test, alice@pbem.test"],
    [b'"Alice" <alice@pbem.test>, Mallory <mallory@evil.test>'], [b"alice@pbem.test", b"mallory@evil.test"],
])
def test_a_from_naming_two_addresses_is_never_a_players_mail(from_lines):
    """docs/security.md: the judge authenticates one sender; a From with two addresses (or two
    From headers) is refused, whichever address comes first, with the fix."""
    raw = b"".join(b"From: " + line + b"\r\n" for line in from_lines) + b"Subject: x\r\n\r\ngame: g1\r\n"
    mail = parse_mail(raw, ["judge@pbem.test"])
    assert mail.problem == "its From names 2 addresses, and the judge takes a mail from one sender only"
    assert "from your own address alone" in mail.problem_fix
    for single in (b"alice@pbem.test", b'"Curie, Marie" <alice@pbem.test>', b"Curie, Marie <alice@pbem.test>",
                   # Clients that put the address as the display name, bare or single-quoted:
                   # one sender named twice, nothing a reader could take for another.
                   b"alice@pbem.test <alice@pbem.test>", b"'Alice@pbem.test' <alice@pbem.test>"):
        mail = parse_mail(b"From: " + single + b"\r\n\r\nx", [])
        assert mail.problem is None and mail.from_addr == "alice@pbem.test", single
