"""Writes the hostile-mail corpus: one raw RFC 5322 file per case (`<name>.eml`) and the index
of what the judge must do with each (`expected.yaml`). Run it from anywhere:

    python tests/hostile_mail/make_corpus.py

The .eml files are committed, so a reviewer reads exactly the bytes the judge gets; this
script is how they were made and how to change them. tests/test_hostile_mail.py replays each
file against a judge home and checks the outcome, the answer, work (calls), memory and the store.

The judge homes the cases run against (built by the test):
- `tiny`: the test game `g1` (tests/tinygame.py), phase `round-1/bid`, players alice, bob and
  carol at alice@pbem.test ..., secrets `secret-alice-0001` ...; the judge is judge@pbem.test.
- `fief`: a Fief: France game `loire` past setup (alice in Tours, bob in Bordeaux, carol in
  Lyon), phase `round-1/purchase`, same players, addresses and secrets.
- `fief-movement`: the same game one phase on, `round-1/movement`.

Placeholders, expanded by the test just before the mail is delivered (so the committed corpus
stays small and independent of the game's secret seed):
- `@@LORD:bob@@` — the name of bob's lord (lords are dealt at random at setup);
- `@@REPEAT:N:text@@` — `text` N times (huge mails are made at test time, not committed);
- `@@BASE64:N@@` — N pseudo-random bytes, base64 in 76-character lines.

expected.yaml, for each file:
- `game`: which judge home (above);
- `outcome`: the start of what the judge records for the mail (`orders accepted`,
  `orders rejected`, `reject: ...`, `ignored: ...`);
- `answer`: a fragment the answer must contain, or `silence` (no mail at all);
- `to`: where the answer goes (default: the From address of the mail);
- `max_answer`: the most characters the answer's text may have (mail to a stranger's address
  carries no long echo of what the stranger wrote);
- `store`: `unchanged` (games, orders, order_mails, phases as before), `archived` (an
  authenticated player's refused orders: one order_mails row, nothing else) or `accepted`.
"""
from __future__ import annotations

import base64
import quopri
from pathlib import Path

HERE = Path(__file__).resolve().parent
JUDGE = "judge@pbem.test"
SECRETS = {p: f"secret-{p}-0001" for p in ("alice", "bob", "carol")}
CASES: list[tuple[str, dict, bytes]] = []


def envelope(player: str = "alice", game: str = "g1", phase: str = "round-1/bid",
             secret: str | None = None) -> str:
    secret = SECRETS.get(player, "no-such-secret") if secret is None else secret
    return f"game: {game}\nplayer: {player}\nsecret: {secret}\nphase: {phase}\n"


def fief(player: str = "alice", phase: str = "round-1/purchase", secret: str | None = None) -> str:
    return envelope(player, "loire", phase, secret)


def headers(frm: str | None = "alice@pbem.test", subject: str | None = "orders", msgid: str | None = "auto",
            extra: list[tuple[str, str]] | None = None, name: str = "") -> list[tuple[str, str]]:
    out = []
    if frm is not None:
        out.append(("From", frm))
    out.append(("To", JUDGE))
    if subject is not None:
        out.append(("Subject", subject))
    out.append(("Date", "Tue, 01 Dec 2026 10:00:00 +0000"))
    if msgid == "auto":
        out.append(("Message-ID", f"<{name}@hostile.test>"))
    elif msgid is not None:
        out.append(("Message-ID", msgid))
    return out + (extra or [])


def raw(head: list[tuple[str, str]], body: bytes | str, ctype: str = "text/plain; charset=utf-8",
        cte: str | None = None) -> bytes:
    """Headers and body with CRLF line ends, as a mail server stores them."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    lines = [f"{k}: {v}" for k, v in head]
    if ctype:
        lines.append("MIME-Version: 1.0")
        lines.append(f"Content-Type: {ctype}")
    if cte:
        lines.append(f"Content-Transfer-Encoding: {cte}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def case(name: str, expect: dict, data: bytes) -> None:
    CASES.append((name, expect, data))


def simple(name: str, body: str | bytes, expect: dict, game: str = "tiny", frm: str | None = "alice@pbem.test",
           subject: str | None = "orders", extra=None, **kw) -> None:
    case(name, {"game": game, **expect}, raw(headers(frm, subject, extra=extra, name=name), body, **kw))


def multipart(parts: list[tuple[str, bytes, list[str]]], boundary: str) -> bytes:
    """parts: (content type, body, extra part headers)."""
    out = [b"This is a multi-part message in MIME format.\n"]
    for ctype, body, extra in parts:
        out.append(f"--{boundary}\nContent-Type: {ctype}\n".encode())
        out.extend(f"{h}\n".encode() for h in extra)
        out.append(b"\n" + body + b"\n")
    out.append(f"--{boundary}--\n".encode())
    return b"".join(out)


UNCHANGED = "unchanged"
ACCEPTED = {"outcome": "orders accepted", "answer": "bid: 3", "store": "accepted"}
SILENCE = {"answer": "silence", "store": UNCHANGED}
AUTH = {"outcome": "reject: not authenticated", "answer": "could not be authenticated", "store": UNCHANGED}
BID3 = "bid: 3\n"


def bad_bid(value: str) -> dict:
    return {"outcome": "orders rejected", "answer": f"a bid is a number from 1 to 6, not {value!r}",
            "store": "archived"}


def bad_yaml(fragment: str) -> dict:
    return {"outcome": "reject: bad envelope", "answer": fragment, "store": UNCHANGED}


# --- YAML bombs and oversized documents ------------------------------------------------------

LAUGHS = ["lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
LAUGHS += [f"lol{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
simple("yaml-billion-laughs", envelope() + "\n".join(LAUGHS) + "\nbid: *a9\n",
       bad_yaml("aliases (*name) are not allowed in orders"))
simple("yaml-alias-single", envelope() + "x: &three 3\nbid: *three\n",
       bad_yaml("aliases (*name) are not allowed in orders"))
simple("yaml-merge-key", envelope() + "base: &b {bid: 3}\n<<: *b\n",
       bad_yaml("merge keys (<<) are not allowed"))
simple("yaml-anchor-on-envelope", "game: &g g1\nplayer: alice\nsecret: *g\nphase: round-1/bid\nbid: 3\n",
       bad_yaml("aliases (*name) are not allowed in orders"))
simple("yaml-deep-flow-nesting", envelope() + "bid: " + "[" * 20000 + "]" * 20000 + "\n",
       bad_yaml("nested more than 16 levels deep"))
simple("yaml-deep-block-nesting", envelope() + "bid:\n" + "".join("  " * i + "- \n" for i in range(1, 40)),
       bad_yaml("nested more than 16 levels deep"))
simple("yaml-deep-mapping-nesting", envelope() + "bid: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
       bad_yaml("nested more than 16 levels deep"))
simple("yaml-huge-document",
       envelope() + "bid: 3\nnotes: |\n@@REPEAT:2000:  all work and no play makes jack a dull boy\n@@",
       bad_yaml("larger than 64 KiB"))
simple("yaml-many-entries", envelope() + "bid: 3\nnotes: [" + ", ".join(["x"] * 6000) + "]\n",
       bad_yaml("more than 5000 entries"))
simple("yaml-duplicate-key", envelope() + "bid: 5\nbid: 3\n", bad_yaml("the key `bid` is given twice"))
simple("yaml-duplicate-envelope-key", envelope() + "player: bob\nbid: 3\n",
       bad_yaml("the key `player` is given twice"))
simple("yaml-tab-indentation", envelope() + "orders:\n\t- bid: 3\n", bad_yaml("use spaces"))
simple("yaml-bom-body", "\ufeff" + envelope() + BID3, ACCEPTED)
simple("yaml-bom-after-greeting", "Hello judge,\n\n\ufeff" + envelope() + "\u200b" + BID3, ACCEPTED)
simple("yaml-unclosed-flow", envelope() + "bid: [3\n", bad_yaml("not valid YAML"))
simple("yaml-not-a-mapping-value", "game: [g1, g2]\nplayer: alice\nsecret: x\nphase: round-1/bid\n",
       bad_yaml("`game:` must be a single word or name"))
simple("yaml-python-tag", envelope() + "bid: !!python/object/apply:os.system [echo pwned]\n",
       bad_yaml("tags such as !!python/object"))
simple("yaml-int-tag", envelope() + "bid: !!int 3\n", bad_yaml("tags such as !!int are not allowed"))

# --- YAML's implicit typing: every value is text ---------------------------------------------

for label, value in (("no", "no"), ("on", "on"), ("1e3", "1e3"), ("0x1F", "0x1F"), ("sexagesimal", "1:30"),
                     ("float", "3.0"), ("null-word", "null")):
    simple(f"typing-{label}", envelope() + f"bid: {value}\n", bad_bid(value))
simple("typing-quoted-number", envelope() + 'bid: "3"\n', ACCEPTED)
simple("typing-ready-off", envelope() + "ready: off\nbid: 3\n",
       {"outcome": "orders accepted", "answer": "does not count as complete", "store": "accepted"})
simple("typing-ready-maybe", envelope() + "ready: maybe\nbid: 3\n", bad_yaml("`ready:` takes yes or no"))
simple("typing-secret-as-number", envelope(secret="0x1F") + BID3, AUTH)

# --- bodies: HTML, transfer encodings, charsets -----------------------------------------------

ORDERS = "Hello judge,\n\n" + envelope() + BID3
simple("html-only", "<html><body><p>Hello judge,</p><pre>" + envelope() + BID3 + "</pre></body></html>\n",
       ACCEPTED, ctype="text/html; charset=utf-8")
simple("html-only-script", "<html><head><style>p {color: red}</style><script>alert('game: x')</script></head>"
       "<body><div>game: g1</div><div>player: alice</div><div>secret: secret-alice-0001</div>"
       "<div>phase: round-1/bid</div><div>bid: 3</div></body></html>\n",
       ACCEPTED, ctype="text/html; charset=utf-8")
simple("html-parser-bomb-unclosed-tags", "<html><body>@@REPEAT:100000:<a @@",
       {"outcome": "reject: no orders", "answer": "no order document found", "store": UNCHANGED},
       ctype="text/html; charset=utf-8")
simple("html-parser-bomb-quoted-gt", "<html><body><p>@@REPEAT:30000:<a b='x>' @@</p>"
       "<div>game: g1</div><div>player: alice</div><div>secret: secret-alice-0001</div>"
       "<div>phase: round-1/bid</div><div>bid: 3</div></body></html>\n", ACCEPTED, ctype="text/html; charset=utf-8")
# Regex backtracking (tests/test_regex_backtracking.py): an unclosed tag with a 200,000-letter
# name, and an order line with 60,000 spaces inside (once 30 s and 8 s for a third of these).
simple("html-parser-bomb-long-tag-name", "<html><body><p><a@@REPEAT:200000:b@@</p>"
       "<div>game: g1</div><div>player: alice</div><div>secret: secret-alice-0001</div>"
       "<div>phase: round-1/bid</div><div>bid: 3</div></body></html>\n", ACCEPTED, ctype="text/html; charset=utf-8")
simple("yaml-long-run-of-spaces", envelope() + "bid: 3\nthanks x@@REPEAT:60000: @@y\n",
       bad_yaml("this line is not `key: value`"))
simple("quoted-printable-body", quopri.encodestring(("Bonjour, voil=E0 mes ordres " + "x" * 90 + "\n\n"
                                                     + envelope() + BID3).encode()), ACCEPTED,
       ctype="text/plain; charset=utf-8", cte="quoted-printable")
simple("base64-body", base64.encodebytes(ORDERS.encode()), ACCEPTED, cte="base64")
simple("base64-garbage", b"!!!! this is not base64 at all ????\n", {
    "outcome": "reject: no orders", "answer": "no order document found", "store": UNCHANGED}, cte="base64")
simple("charset-latin1", ("Ch\u00e8re juge, voil\u00e0.\n\n" + envelope() + BID3).encode("latin-1"), ACCEPTED,
       ctype="text/plain; charset=iso-8859-1", cte="8bit")
simple("charset-windows-1252", ("\u201cSmart quotes\u201d \u2013 \u20ac5\n\n" + envelope() + BID3).encode("cp1252"),
       ACCEPTED, ctype="text/plain; charset=windows-1252", cte="8bit")
simple("charset-windows-1252-curly-bid", (envelope() + "bid: \u201c3\u201d\n").encode("cp1252"),
       bad_bid("\u201c3\u201d"), ctype="text/plain; charset=windows-1252", cte="8bit")
simple("charset-shift-jis", ("\u5be9\u5224\u3055\u3093\u3001\u3088\u308d\u3057\u304f\u3002\n\n" + envelope() + BID3)
       .encode("shift_jis"), ACCEPTED, ctype="text/plain; charset=shift_jis", cte="8bit")
simple("charset-unknown-name", ("Gr\u00fc\u00dfe\n\n" + envelope() + BID3).encode("utf-8"), ACCEPTED,
       ctype="text/plain; charset=x-klingon-pIqaD", cte="8bit")
simple("charset-lies-utf8-is-latin1", ("Gr\u00fc\u00dfe\n\n" + envelope() + BID3).encode("latin-1"), ACCEPTED,
       ctype="text/plain; charset=utf-8", cte="8bit")
case("charset-utf16-base64", {"game": "tiny", **ACCEPTED},
     raw(headers(name="charset-utf16-base64"), base64.encodebytes(("\ufeff" + envelope() + BID3).encode("utf-16-le")),
         ctype="text/plain; charset=utf-16", cte="base64"))
simple("line-ends-bare-cr", b"", ACCEPTED)  # body replaced below: bare CR line ends
CASES[-1] = ("line-ends-bare-cr", CASES[-1][1],
             CASES[-1][2] + (envelope() + BID3).replace("\n", "\r").encode())
simple("null-bytes-in-body", envelope() + "bid: 3\x00\x00; rm -rf /\n",
       bad_yaml("line 5: this is not valid YAML: the character U+0000 cannot appear in orders"))
simple("escape-sequence-in-body", envelope() + "bid: \x1b[2J3\n",
       bad_yaml("line 5: this is not valid YAML: the character U+001B cannot appear in orders"))
simple("very-long-line", "@@REPEAT:300000:x@@\n\n" + envelope() + BID3,
       {"outcome": "reject: no orders", "answer": "no order document found", "store": UNCHANGED})
simple("very-long-line-in-document", envelope() + "bid: 3\nnote: @@REPEAT:100000:y@@\n",
       bad_yaml("larger than 64 KiB"))
simple("empty-body", "", {"outcome": "reject: no orders", "answer": "no order document found", "store": UNCHANGED})
case("empty-mail", {"game": "tiny", **SILENCE}, b"")
case("garbage-bytes", {"game": "tiny", **SILENCE}, bytes(range(256)) * 4)

# --- attachments and MIME structure -----------------------------------------------------------

B = "hostile-boundary-1"
case("attachment-yaml-orders", {"game": "tiny", **ACCEPTED}, raw(
    headers(name="attachment-yaml-orders"), multipart([
        ("text/plain; charset=utf-8", b"My orders are attached.", []),
        ("application/yaml; name=orders.yaml", (envelope() + BID3).encode(),
         ["Content-Disposition: attachment; filename=orders.yaml"])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))
case("attachment-binary-and-orders", {"game": "tiny", **ACCEPTED}, raw(
    headers(name="attachment-binary-and-orders"), multipart([
        ("text/plain; charset=utf-8", ORDERS.encode(), []),
        ("application/octet-stream; name=map.bin", b"@@BASE64:3000000@@",
         ["Content-Disposition: attachment; filename=map.bin", "Content-Transfer-Encoding: base64"])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))
case("attachment-huge-over-limit", {"game": "tiny", "outcome": "reject: unreadable",
                                    "answer": "too large for the judge to read whole", "store": UNCHANGED}, raw(
    headers(name="attachment-huge-over-limit"), multipart([
        ("text/plain; charset=utf-8", ORDERS.encode(), []),
        ("application/octet-stream; name=movie.mkv", b"@@BASE64:9000000@@",
         ["Content-Disposition: attachment; filename=movie.mkv", "Content-Transfer-Encoding: base64"])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))
case("attachment-yaml-huge", {"game": "tiny", **bad_yaml("larger than 64 KiB")}, raw(
    headers(name="attachment-yaml-huge"), multipart([
        ("text/plain; charset=utf-8", b"See attachment.", []),
        ("text/yaml; name=orders.yml",
         (envelope() + "bid: 3\nnotes: |\n").encode() + b"@@REPEAT:60000:  padding padding padding\n@@",
         ["Content-Disposition: attachment; filename=orders.yml"])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))
case("attachment-yaml-binary", {"game": "tiny", "outcome": "reject: no orders", "answer": "no order document found",
                                "store": UNCHANGED}, raw(
    headers(name="attachment-yaml-binary"), multipart([
        ("text/plain; charset=utf-8", b"Orders attached.", []),
        ("application/yaml; name=orders.yaml", base64.encodebytes(bytes(range(256)) * 8),
         ["Content-Disposition: attachment; filename=orders.yaml", "Content-Transfer-Encoding: base64"])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))
case("multipart-1000-parts", {"game": "tiny", "outcome": "reject: no orders", "answer": "more than 100 parts",
                              "store": UNCHANGED}, raw(
    headers(name="multipart-1000-parts"),
    multipart([("text/plain; charset=utf-8", f"part {i}".encode(), []) for i in range(999)]
              + [("text/plain; charset=utf-8", (envelope() + BID3).encode(), [])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))
case("multipart-million-parts", {"game": "tiny", "outcome": "reject: no orders", "answer": "more than 100 parts",
                                 "store": UNCHANGED}, raw(
    headers(name="multipart-million-parts"), b"@@REPEAT:1100000:--B\n\n@@--B--\n",
    ctype='multipart/mixed; boundary="B"'))
case("headers-million-lines", {"game": "tiny", "outcome": "ignored", **SILENCE},
     raw(headers(name="headers-million-lines", extra=[("X-Junk", "start\r\n@@REPEAT:1000000:X-Junk: y\r\n@@X-End: 1")]),
         envelope() + BID3))
case("multipart-1000-parts-orders-first", {"game": "tiny", **ACCEPTED}, raw(
    headers(name="multipart-1000-parts-orders-first"),
    multipart([("text/plain; charset=utf-8", (envelope() + BID3).encode(), [])]
              + [("image/png; name=x.png", b"iVBORw0KGgo=", ["Content-Disposition: attachment; filename=x.png",
                                                            "Content-Transfer-Encoding: base64"])
                 for _ in range(999)], B),
    ctype=f'multipart/mixed; boundary="{B}"'))


def nested(depth: int, inner: bytes) -> bytes:
    body, ctype = inner, "text/plain; charset=utf-8"
    for level in range(depth):
        boundary = f"nest-{level}"
        body = multipart([(ctype, body, [])], boundary)
        ctype = f'multipart/mixed; boundary="{boundary}"'
    return f"Content-Type: {ctype}\n\n".encode() + body


# 1500 levels, compactly (no preambles): deeper than the stdlib parser's recursion could go.
case("multipart-nested-1500-deep", {"game": "tiny", "outcome": "reject: no orders", "answer": "nested more than 8",
                                    "store": UNCHANGED},
     raw(headers(name="multipart-nested-1500-deep"),
         "".join(f"--n{i - 1}\nContent-Type: multipart/mixed; boundary=n{i}\n\n" for i in range(1, 1500))
         + f"--n1499\nContent-Type: text/plain\n\n{envelope()}{BID3}", ctype="multipart/mixed; boundary=n0"))
_deep = nested(60, (envelope() + BID3).encode())
_head, _, _body = _deep.partition(b"\n\n")
case("multipart-nested-60-deep", {"game": "tiny", "outcome": "reject: no orders", "answer": "nested more than 8",
                                  "store": UNCHANGED},
     raw(headers(name="multipart-nested-60-deep"), _body, ctype=_head.decode().split(": ", 1)[1]))
case("multipart-no-closing-boundary", {"game": "tiny", **ACCEPTED}, raw(
    headers(name="multipart-no-closing-boundary"),
    f"--{B}\nContent-Type: text/plain\n\n{envelope()}{BID3}".encode(), ctype=f'multipart/mixed; boundary="{B}"'))
case("forwarded-orders-rfc822", {"game": "tiny", "outcome": "reject: no orders",
                                 "answer": "a forwarded mail inside it was not read",
                                 "store": UNCHANGED}, raw(
    headers(name="forwarded-orders-rfc822"), multipart([
        ("text/plain; charset=utf-8", b"Forwarding bob's orders.", []),
        ("message/rfc822", raw(headers("bob@pbem.test", name="inner"), envelope("bob") + BID3), [])], B),
    ctype=f'multipart/mixed; boundary="{B}"'))

# --- replies that quote an earlier report ------------------------------------------------------

QUOTED_REPORT = ("On Tue, 1 Dec 2026 at 09:00, pbem judge <judge@pbem.test> wrote:\n"
                 "> [g1] round-1/bid: your report\n>\n> Your orders for round-1/bid:\n>\n"
                 "> game: g1\n> player: alice\n> secret: YOUR-SECRET\n> phase: round-1/bid\n> bid: 1\n")
simple("reply-top-posted", "Here you go.\n\n" + envelope() + BID3 + "\n" + QUOTED_REPORT, ACCEPTED)
simple("reply-filled-inside-quote", "Filled in below.\n\n" + QUOTED_REPORT.replace("YOUR-SECRET", SECRETS["alice"])
       .replace("> bid: 1", "> bid: 3"), ACCEPTED)
simple("reply-outlook-original-message", envelope() + BID3 + "\n-----Original Message-----\nFrom: pbem judge\n"
       "game: g1\nbid: 6\n", ACCEPTED)
simple("reply-unfilled-template-quoted", "Thanks!\n\n" + QUOTED_REPORT,
       {**AUTH, "answer": "the `secret:` line still says YOUR-SECRET"})
# format=flowed (Thunderbird's default): long lines wrapped with a trailing space, lines that
# start with a space stuffed with one more.
simple("format-flowed-wrapped-comment",
       envelope() + "bid: 3      # a number from 1 to 6, and a comment long enough to be \n"
       "wrapped by the mail client\n", ACCEPTED, ctype="text/plain; charset=utf-8; format=flowed")
simple("format-flowed-delsp-quoted-template", "Filled in below.\n\n" + QUOTED_REPORT.replace(
    "YOUR-SECRET", SECRETS["alice"]).replace("> bid: 1",
                                             "> bid: 3 # my bid this round, after a long think about \n> it"),
    ACCEPTED, ctype="text/plain; charset=utf-8; format=flowed; delsp=yes")
simple("format-flowed-fief-stuffed-indentation",
       fief() + "orders:\n   - buy: knight     # the first of several purchases "
       "I mean to make \nthis round\n     in: Tours\n",
       {"outcome": "orders accepted", "answer": "knight", "store": "accepted"}, game="fief",
       ctype="text/plain; charset=utf-8; format=flowed")
simple("reply-signature-after-orders", envelope() + BID3 + "-- \nAlice\ngame: fake\n", ACCEPTED)

# --- replies as mail clients write them: orders above a copy of the judge's mail ----------------
# Every judge mail begins with its marker line (pbem/orders/envelope.py, marker_line); the
# paragraph above the copy is the client's attribution, in any language; Outlook does not
# quote the copy, whose own template holds `game:` lines.

JUDGE_MAIL = ("[pbem] automatic mail from pbem judge <judge@pbem.test>\n\nTiny game \"g1\", report for alice\n\n"
              "== Next: Bidding (round-1/bid) ==\n\nFill in and send back (keep the lines from `game:` on):\n\n"
              "game: g1\nplayer: alice\nsecret: YOUR-SECRET        # the secret from your welcome mail\n"
              "phase: round-1/bid\nbid: 1\n")
QUOTED_JUDGE_MAIL = "".join(("> " + line).rstrip() + "\n" for line in JUDGE_MAIL.splitlines())
REPLY = "Here are my orders.\n\n" + envelope() + BID3 + "\n"
OUTLOOK_HEADERS = ("From: pbem judge <judge@pbem.test>\nSent: Tuesday, December 1, 2026 10:00\nTo: alice@pbem.test\n"
                   "Subject: [g1] round-1/bid\n\n")
for label, attribution in (
        ("s-nail", "pbem judge <judge@pbem.test> wrote:\n"),
        ("gmail-french-wrapped",
         "Le mar. 1 d\u00e9c. 2026 \u00e0 10:00, pbem judge <judge@pbem.test> a\n\u00e9crit :\n\n"),
        ("gmail-german", "Am Di., 1. Dez. 2026 um 10:00 Uhr schrieb pbem judge <judge@pbem.test>:\n\n"),
        ("gmail-hungarian", "pbem judge <judge@pbem.test> ezt \u00edrta (id\u0151pont: 2026. dec. 1., K, 10:00):\n\n"),
        ("gmail-spanish", "El mar, 1 dic 2026 a las 10:00, pbem judge (<judge@pbem.test>) escribi\u00f3:\n\n"),
        ("gmail-italian", "Il giorno mar 1 dic 2026 alle ore 10:00 pbem judge <judge@pbem.test> ha scritto:\n\n")):
    simple(f"reply-attribution-{label}", REPLY + attribution + QUOTED_JUDGE_MAIL, ACCEPTED, cte="8bit")
simple("reply-outlook-unquoted-report", REPLY + "________________________________\n" + OUTLOOK_HEADERS + JUDGE_MAIL,
       ACCEPTED)
simple("reply-outlook-original-message-unquoted-report", REPLY + "-----Original Message-----\n"
       + OUTLOOK_HEADERS.replace("<judge@pbem.test>", "[mailto:judge@pbem.test]") + JUDGE_MAIL, ACCEPTED)
simple("reply-outlook-filled-inside-unquoted-report", "Filled in below.\n\n________________________________\n"
       + OUTLOOK_HEADERS + JUDGE_MAIL.replace("YOUR-SECRET", SECRETS["alice"]).replace("bid: 1", "bid: 3"), ACCEPTED)
# Orders written below an unquoted Outlook copy: the copy's unfilled template is not theirs.
simple("reply-outlook-orders-below-unquoted-report", "See below.\n\n________________________________\n"
       + OUTLOOK_HEADERS + JUDGE_MAIL + "\n" + envelope() + BID3, ACCEPTED)
# A player who deleted the marker line from the quote: the attribution above it, in any
# language, is not read as orders.
simple("reply-attribution-thunderbird-polish-marker-deleted", REPLY + "W dniu 1.12.2026 o 10:00, pbem judge pisze:\n"
       + QUOTED_JUDGE_MAIL.split("\n", 1)[1], ACCEPTED)

# Thousands of quoted copies, each a marker line: found in one pass, the orders after them read.
simple("reply-thousands-of-quoted-markers", "@@REPEAT:4000:> [pbem] automatic mail from x\nhello\n@@\n"
       + envelope() + BID3, ACCEPTED)

# A sign-off after the orders: cut where the YAML ends, and listed in the answer.
for label, sign_off in (("cheers-name", "Cheers,\nAlice\n"), ("thanks", "Thanks!\n"),
                        ("sent-from-phone", "\nSent from my phone\n"),
                        ("signature-without-separator", "Alice Martin\nPoitiers, France\nhttps://alice.example\n")):
    first = sign_off.strip("\n").split("\n")[0]
    simple(f"signoff-{label}", envelope() + BID3 + sign_off + "\n" + "On Tue, 1 Dec 2026 at 09:00, pbem judge "
           "<judge@pbem.test> wrote:\n" + QUOTED_JUDGE_MAIL,
           {"outcome": "orders accepted", "answer": f"- line {6 + sign_off.startswith(chr(10))}: {first}",
            "store": "accepted"})
simple("signoff-prose-between-orders", envelope() + "I bid three, as agreed with bob\n" + BID3 + "Cheers\n",
       bad_yaml("line 5: this is not valid YAML: this line is not `key: value`"))

# --- who sends: forged senders, secrets, games, phases -----------------------------------------

simple("forged-sender-right-secret", envelope() + BID3, AUTH, frm="mallory@evil.test")
simple("forged-from-player-wrong-secret", envelope(secret="guessed-secret-99") + BID3, AUTH,
       extra=[("Reply-To", "mallory@evil.test"), ("Sender", "mallory@evil.test")])
simple("wrong-secret", envelope(secret="secret-alice-0002") + BID3, AUTH)
simple("secret-of-another-player", envelope("bob", secret=SECRETS["alice"]) + BID3, AUTH)
simple("another-players-orders-from-own-address", envelope("bob") + BID3, AUTH)
simple("unknown-player", envelope("zed") + BID3, AUTH)
simple("backscatter-long-names", envelope("@@REPEAT:1000:BUY-CHEAP-WATCHES-@@", game="@@REPEAT:1000:spam-@@") + BID3,
       {**AUTH, "answer": "for player 'BUY-CHEAP-WATCHES-BUY-CHEAP-WATCHES-BUY-...' of game", "max_answer": 2000},
       frm="victim@elsewhere.test", subject="@@REPEAT:300:Visit cheap-watches.example @@")
simple("backscatter-long-duplicate-key", envelope() + "@@REPEAT:1000:x@@: 1\n@@REPEAT:1000:x@@: 2\n",
       {**bad_yaml("is given twice"), "max_answer": 2000}, frm="victim@elsewhere.test")
simple("unknown-game", envelope(game="nosuchgame") + BID3, AUTH)
simple("stale-phase-past", envelope(phase="round-0/bid") + BID3,
       {"outcome": "reject: stale phase", "answer": "now waits on phase 'round-1/bid'", "store": UNCHANGED})
simple("stale-phase-future", envelope(phase="round-9/bid") + BID3,
       {"outcome": "reject: stale phase", "answer": "write `phase: round-1/bid`", "store": UNCHANGED})
simple("missing-secret-line", "game: g1\nplayer: alice\nphase: round-1/bid\nbid: 3\n",
       bad_yaml("`secret:` is missing"))
simple("new-secret-too-short", "game: g1\nplayer: alice\nsecret: secret-alice-0001\nnew_secret: abc\n",
       bad_yaml("at least 10 characters"))
simple("new-secret-with-orders", envelope() + "new_secret: a-long-new-secret\nbid: 3\n",
       bad_yaml("a secret change goes in a mail of its own"))
simple("forged-new-secret", "game: g1\nplayer: alice\nsecret: wrong-secret-1\nnew_secret: taken-over-now\n",
       AUTH, frm="mallory@evil.test")

# --- headers: missing or invalid From, encoded words, injection attempts -----------------------

simple("no-from-header", envelope() + BID3, SILENCE, frm=None)
simple("from-invalid-address", envelope() + BID3, SILENCE, frm="alice at pbem dot test")
simple("from-group-syntax-empty", envelope() + BID3, SILENCE, frm="undisclosed-recipients:;")
simple("from-encoded-word-injection", envelope() + BID3, ACCEPTED,
       frm="=?utf-8?q?Alice=0D=0ABcc:_victim@evil.test?= <alice@pbem.test>")
case("from-non-ascii-address", {"game": "tiny", "outcome": "ignored", **SILENCE},
     raw(headers("J\u00f6rg <j\u00f6rg@pbem.test>", name="from-non-ascii-address"), envelope() + BID3))
case("from-idn-domain", {"game": "tiny", "outcome": "ignored", **SILENCE},
     raw(headers("alice@b\u00fccher.test", name="from-idn-domain"), envelope() + BID3))
# A From naming two addresses is never a player's mail, whichever comes first (the judge
# authenticates one sender; a mail client may show the reader the other): answered at the first.
TWO_SENDERS = {"outcome": "reject: unreadable", "answer": "its From names 2 addresses", "store": UNCHANGED}
simple("from-two-addresses", envelope() + BID3, TWO_SENDERS, frm="mallory@evil.test, alice@pbem.test")
simple("from-two-addresses-player-first", envelope() + BID3, TWO_SENDERS, frm="alice@pbem.test, mallory@evil.test")
simple("from-two-headers", envelope() + BID3, TWO_SENDERS, extra=[("From", "mallory@evil.test")])
simple("subject-encoded-crlf-injection", envelope() + BID3, ACCEPTED,
       subject="=?utf-8?q?orders=0D=0ABcc:_victim@evil.test=0D=0A=0D=0Ainjected_body?=")
simple("subject-double-encoded-injection", envelope() + BID3, ACCEPTED,
       subject="=?utf-8?b?" + base64.b64encode(b"=?utf-8?q?x=0D=0ABcc:_victim@evil.test?=").decode() + "?=")
simple("subject-control-characters", envelope() + BID3, ACCEPTED, subject="orders\x00\x01\x07\x1b[31m red\x7f")
simple("subject-encoded-nul", envelope() + BID3, ACCEPTED, subject="=?utf-8?q?a=00b=0Bc=1Bd?=")
simple("subject-very-long", envelope() + BID3, ACCEPTED, subject="@@REPEAT:20000:long @@")
simple("subject-unknown-charset-word", envelope() + BID3, ACCEPTED,
       subject="=?x-unknown?q?hello?= =?utf-8?q?x=0D=0ABcc:_victim@evil.test?=")
simple("references-3000-ids", envelope() + BID3, ACCEPTED,
       extra=[("References", " ".join(f"<r{i}@x>" for i in range(3000)))])
simple("message-id-double-encoded-injection", envelope() + BID3, ACCEPTED, extra=[
    ("In-Reply-To", "=?utf-8?b?" + base64.b64encode(b"<=?utf-8?q?a=0D=0ABcc:_victim@evil.test?=@x>").decode() + "?="),
    ("References", "<ok@hostile.test> <=?utf-8?q?b=0D=0ABcc:_victim@evil.test?=@x>")])
case("message-id-encoded-word", {"game": "tiny", **ACCEPTED}, raw(headers(
    msgid="=?utf-8?b?" + base64.b64encode(b"<=?utf-8?q?a=0D=0ABcc:_victim@evil.test?=@x>").decode() + "?="),
    envelope() + BID3))
case("message-id-missing", {"game": "tiny", **ACCEPTED}, raw(headers(msgid=None), envelope() + BID3))

# --- automatic mail: never answered -------------------------------------------------------------

case("bounce-dsn-multipart-report", {"game": "tiny", "outcome": "ignored", **SILENCE}, raw(
    headers("MAILER-DAEMON@mx.pbem.test", "Undelivered Mail Returned to Sender", name="bounce-dsn"),
    multipart([("text/plain", b"This is the mail system at host mx.pbem.test.\nI'm sorry to have to inform you...\n"
                + (envelope() + BID3).encode(), []),
               ("message/delivery-status", b"Reporting-MTA: dns; mx.pbem.test\n\nFinal-Recipient: rfc822; "
                b"alice@pbem.test\nAction: failed\nStatus: 5.1.1\n", [])], B),
    ctype=f'multipart/report; report-type=delivery-status; boundary="{B}"'))
simple("bounce-mailer-daemon", envelope() + BID3, {"outcome": "ignored", **SILENCE},
       frm="Mail Delivery System <MAILER-DAEMON@pbem.test>")
simple("bounce-postmaster", "Your message could not be delivered.", {"outcome": "ignored", **SILENCE},
       frm="postmaster@pbem.test")
simple("bounce-null-return-path", envelope() + BID3, {"outcome": "ignored", **SILENCE},
       extra=[("Return-Path", "<>")])
simple("vacation-auto-submitted", "I am on holiday until Monday.", {"outcome": "ignored", **SILENCE},
       subject="Out of office: orders", extra=[("Auto-Submitted", "auto-replied (vacation)")])
simple("vacation-x-autoreply", "I am away.", {"outcome": "ignored", **SILENCE},
       subject="Auto: orders", extra=[("X-Autoreply", "yes")])
simple("vacation-precedence-junk", "I am away.", {"outcome": "ignored", **SILENCE},
       extra=[("Precedence", "junk")])
simple("vacation-no-headers", "I am away until Monday.",
       {"outcome": "reject: no orders", "answer": "no order document found", "store": UNCHANGED},
       subject="Out of Office: orders")
simple("auto-submitted-no", envelope() + BID3, ACCEPTED, extra=[("Auto-Submitted", "no")])
simple("mailing-list-traffic", envelope() + BID3, {"outcome": "ignored", **SILENCE},
       extra=[("List-Id", "<players.pbem.test>")])
simple("from-judge-itself", envelope() + BID3, {"outcome": "ignored", **SILENCE}, frm=JUDGE)
simple("from-judge-itself-uppercase", envelope() + BID3, {"outcome": "ignored", **SILENCE},
       frm="The Judge <JUDGE@PBEM.TEST>")
simple("loop-header", envelope() + BID3, {"outcome": "ignored", **SILENCE}, extra=[("X-Pbem-Loop", JUDGE)])

# --- Fief: France -------------------------------------------------------------------------------

FIEF_AUTH = {**AUTH, "game": "fief"}


def fief_refused(fragment: str) -> dict:
    return {"outcome": "orders rejected", "answer": fragment, "store": "archived"}


simple("fief-ransom-another-players-lord", fief() + "orders:\n  - ransom: @@LORD:bob@@\n    place: Tours\n",
       fief_refused("is not a lord of your family"), game="fief")
simple("fief-title-for-another-players-lord", fief() + "orders:\n  - title: aquitaine\n    lord: @@LORD:bob@@\n",
       fief_refused("is not a lord of your family"), game="fief")
simple("fief-buy-in-another-players-town", fief() + "orders:\n  - buy: knight\n    in: Bordeaux\n",
       fief_refused("you cannot place new units in Bordeaux"), game="fief")
simple("fief-build-in-another-players-town", fief() + "orders:\n  - build: mill\n    in: Bordeaux\n",
       fief_refused("you do not control Bordeaux"), game="fief")
simple("fief-count-1e3", fief() + "orders:\n  - buy: knight\n    count: 1e3\n    in: Tours\n",
       fief_refused("count must be a whole number, not '1e3'"), game="fief")
simple("fief-count-0x", fief() + "orders:\n  - buy: knight\n    count: 0x2\n    in: Tours\n",
       fief_refused("count must be a whole number, not '0x2'"), game="fief")
simple("fief-count-5000-digits", fief() + "orders:\n  - buy: knight\n    count: @@REPEAT:5000:9@@\n    in: Tours\n",
       fief_refused("count is far too large"), game="fief")
simple("fief-orders-yes", fief() + "orders: yes\n", fief_refused("`orders:` must be a list"), game="fief")
simple("fief-another-players-secret", fief("bob", secret=SECRETS["bob"]) + "orders: []\n", FIEF_AUTH, game="fief")
simple("fief-stale-setup-phase", fief(phase="setup/starting-towns") + "orders:\n  - start: Paris\n",
       {"outcome": "reject: stale phase", "answer": "now waits on phase 'round-1/purchase'", "store": UNCHANGED},
       game="fief")
simple("fief-latin1-accented-town", (fief() + "orders:\n  - buy: knight\n    in: Tours\n# Orl\u00e9ans next\n")
       .encode("latin-1"), {"outcome": "orders accepted", "answer": "knight", "store": "accepted"}, game="fief",
       ctype="text/plain; charset=iso-8859-1", cte="8bit")
simple("fief-move-another-players-lord",
       fief(phase="round-1/movement") + "orders:\n  - move: @@LORD:bob@@\n    path: [Bordeaux]\n",
       fief_refused("is not a lord of your family"), game="fief-movement")
simple("fief-move-with-another-players-units",
       fief(phase="round-1/movement") + "orders:\n  - move: @@LORD:alice@@\n    with: all\n"
       "    lords: [@@LORD:bob@@]\n    path: [Poitiers]\n",
       fief_refused("is not a lord of your family"), game="fief-movement")


def main(out: Path = HERE) -> None:
    for old in out.glob("*.eml"):
        old.unlink()
    index = ["# What the judge must do with each mail of this folder (see make_corpus.py).",
             "# Generated by make_corpus.py: edit that script, not this file."]
    for name, expect, data in CASES:
        (out / f"{name}.eml").write_bytes(data)
        index.append(f"{name}.eml:")
        for key in ("game", "outcome", "answer", "to", "store", "max_answer"):
            if key in expect:
                value = expect[key]
                index.append(f"  {key}: {value if isinstance(value, int) else _yaml_str(value)}")
    (out / "expected.yaml").write_text("\n".join(index) + "\n", encoding="utf-8")


def _yaml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


if __name__ == "__main__":
    main()
