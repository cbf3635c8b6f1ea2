"""The hostile-mail corpus (tests/hostile_mail/*.eml, indexed by expected.yaml): each mail is
delivered to a judge home with a running game and one tick reads it. For each we check the
documented outcome (docs/security.md, "Hostile mail: what the judge answers"): the kind of
answer and a fragment of its text, or silence; clean headers on the answer; bounded work (calls
made) and memory; and that the store is unchanged by the mails that are rejected.
"""
from __future__ import annotations

import email
import email.policy
import importlib.util
import json
import re
import shutil
import tracemalloc
from pathlib import Path

import pytest
import yaml

from judge_support import Judge
from work_count import CallCounter, ScannedStr, calls
from pbem.judge import engine, player_secrets
from pbem.mail.message import parse_mail

CORPUS = Path(__file__).resolve().parent / "hostile_mail"
EXPECTED: dict = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
SECRETS = {p: f"secret-{p}-0001" for p in ("alice", "bob", "carol")}
PLAYERS = tuple(SECRETS)
# Work, not seconds (a loaded 2-core machine took 2.2-4.7 s for mails an idle one reads in 1.1):
# Python calls made by the tick that reads one mail. The most today is yaml-many-entries.eml
# (1.7 million calls); a reading that turned quadratic on these inputs would make billions.
MAX_CALLS = 4_000_000
# A mail of the largest size read (8 MiB, docs/mail.md) peaks near 30 MiB: the read buffer,
# and the MIME parser fed in chunks (pbem/mail/message.py).
MAX_PEAK_BYTES = 64 * 1024 * 1024
STORE_TABLES = ("games", "orders", "order_mails", "phases", "players")
FIGURES: dict[str, tuple[int, int]] = {}  # case -> (calls, peak bytes), printed at the end


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_corpus", CORPUS / "make_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the judge homes the cases run against (built once, copied for each case) -----------------

def _known_secrets(judge: Judge, game_name: str) -> None:
    """The corpus carries fixed secrets; the game master's generated ones are replaced."""
    store = judge.store()
    try:
        with store.transaction():
            game = engine.load_game(store, game_name)
            for player in PLAYERS:
                player_secrets.change_secret(store, game, player, SECRETS[player])
    finally:
        store.close()
    judge.secrets[game_name] = dict(SECRETS)


def _phase(judge: Judge, game_name: str) -> str:
    store = judge.store()
    try:
        return engine.current_phase(engine.load_game(store, game_name)).id
    finally:
        store.close()


def _build_tiny(path: Path) -> Judge:
    judge = Judge(path)
    judge.new_game(players=PLAYERS)
    _known_secrets(judge, "g1")
    judge.tick()
    assert _phase(judge, "g1") == "round-1/bid"
    return judge


def _build_fief(path: Path, movement: bool) -> Judge:
    judge = Judge(path)
    judge.new_game(name="loire", players=PLAYERS, game_type="fief_france")
    _known_secrets(judge, "loire")
    judge.tick()
    for player, towns in zip(PLAYERS, ("[Tours]", "[Bordeaux]", "[Lyon]"), strict=True):
        judge.orders("loire", player, "setup/starting-towns", f"orders:\n  - start: {towns}\n")
    report = judge.tick()
    assert report.mails == {"orders accepted": 3}, report.lines()
    for player in PLAYERS:   # the Cards Phase (2.2): nobody draws
        judge.orders("loire", player, "round-1/cards-draw", "orders: []\n")
    judge.tick()
    assert _phase(judge, "loire") == "round-1/purchase"
    if movement:
        for player in PLAYERS:
            judge.orders("loire", player, "round-1/purchase", "orders: []\n")
        judge.tick()
        assert _phase(judge, "loire") == "round-1/movement"
    return judge


@pytest.fixture(scope="module")
def homes(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile-homes")
    built = {"tiny": _build_tiny(base / "tiny"), "fief": _build_fief(base / "fief", False),
             "fief-movement": _build_fief(base / "fief-movement", True)}
    yield built
    if FIGURES:
        worst_work = max(FIGURES.items(), key=lambda kv: kv[1][0])
        worst_peak = max(FIGURES.items(), key=lambda kv: kv[1][1])
        print(f"\nhostile mail: {len(FIGURES)} mails; most work {worst_work[0]} {worst_work[1][0]:,} calls; "
              f"largest peak {worst_peak[0]} {worst_peak[1][1] / 2**20:.1f} MiB")


def _copy(template: Judge, path: Path) -> Judge:
    shutil.copytree(template.home.path, path)
    judge = Judge(path)
    judge.now = template.now
    judge.secrets = dict(template.secrets)
    return judge


# --- placeholders (make_corpus.py explains them) ---------------------------------------------

def _lords(judge: Judge) -> dict[str, str]:
    store = judge.store()
    try:
        state = json.loads(store.one("SELECT state FROM games WHERE name='loire'")["state"])
    finally:
        store.close()
    return {lord["family"]: name for name, lord in sorted(state["lords"].items())}


def _expand(data: bytes, judge: Judge) -> bytes:
    if b"@@LORD:" in data:
        lords = _lords(judge)
        data = re.sub(rb"@@LORD:(\w+)@@", lambda m: lords[m.group(1).decode()].encode(), data)
    data = re.sub(rb"@@REPEAT:(\d+):(.*?)@@", lambda m: m.group(2) * int(m.group(1)), data, flags=re.S)
    return re.sub(rb"@@BASE64:(\d+)@@", lambda m: _base64_lines(int(m.group(1))), data)


def _base64_lines(size: int) -> bytes:
    import base64
    import random
    return base64.encodebytes(random.Random(size).randbytes(size)).replace(b"\n", b"\r\n")


# --- the store and the outbox ----------------------------------------------------------------

def _snapshot(judge: Judge) -> dict[str, list[tuple]]:
    store = judge.store()
    try:
        return {table: [tuple(r) for r in store.all(f"SELECT * FROM {table} ORDER BY rowid")]
                for table in STORE_TABLES}
    finally:
        store.close()


def _outbox_ids(judge: Judge) -> set[str]:
    store = judge.store()
    try:
        return {r["message_id"] for r in store.all("SELECT message_id FROM outbox")}
    finally:
        store.close()


def _answers(judge: Judge, before: set[str]) -> list[bytes]:
    out = judge.home.path / "mail" / "outbox"
    raws = [f.read_bytes() for sub in ("new", "cur") if (out / sub).exists() for f in (out / sub).iterdir()]
    new = []
    for data in raws:
        msg = email.message_from_bytes(data)
        if str(msg["Message-ID"]).strip() not in before:
            new.append(data)
    return new


def _clean_headers(data: bytes, to: str) -> None:
    """The answer's headers are the judge's own: no injected header, no control byte."""
    head = data.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    for line in head.split(b"\n"):
        line = line.rstrip(b"\r")
        assert len(line) <= 998, "a header line longer than RFC 5322 allows"
        assert not re.search(rb"[\x00-\x08\x0a-\x1f\x7f]", line), f"a control byte in a header: {line!r}"
    msg = email.message_from_bytes(data, policy=email.policy.default)
    names = [n.lower() for n in msg.keys()]
    assert "bcc" not in names and "cc" not in names
    for single in ("to", "from", "subject", "message-id"):
        assert names.count(single) == 1, f"{single} appears {names.count(single)} times"
    assert msg["To"].addresses[0].addr_spec == to
    assert msg["Auto-Submitted"] == "auto-replied"


# --- the cases ---------------------------------------------------------------------------------

def test_the_corpus_is_complete_small_and_regenerable(tmp_path):
    files = sorted(p.name for p in CORPUS.glob("*.eml"))
    assert len(files) >= 50
    assert files == sorted(EXPECTED), "every .eml has an entry in expected.yaml and no entry lacks its file"
    assert sum((CORPUS / f).stat().st_size for f in files) < 1024 * 1024
    _load_generator().main(tmp_path)
    for name in files + ["expected.yaml"]:
        assert (tmp_path / name).read_bytes() == (CORPUS / name).read_bytes(), \
            f"{name} differs from what make_corpus.py writes: run python tests/hostile_mail/make_corpus.py"
    for name, expect in EXPECTED.items():
        assert expect["game"] in ("tiny", "fief", "fief-movement"), name
        assert expect["store"] in ("unchanged", "archived", "accepted"), name
        assert expect["answer"] == "silence" or expect.get("outcome"), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_mail(name, homes, tmp_path):
    expect = EXPECTED[name]
    judge = _copy(homes[expect["game"]], tmp_path / "home")
    data = _expand((CORPUS / name).read_bytes(), judge)
    sender = parse_mail(data, [judge.home.address]).from_addr
    before, outbox_before = _snapshot(judge), _outbox_ids(judge)
    judge.send("", "", raw=data)

    tracemalloc.start()
    with CallCounter() as work:
        report = judge.tick()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    FIGURES[name] = (work.count, peak)

    assert not report.errors, report.errors  # never an internal error: the mail is handled
    assert sum(report.mails.values()) == 1, report.mails
    outcome = next(iter(report.mails))
    if expect.get("outcome"):
        assert outcome.startswith(expect["outcome"]), outcome
    assert work.count < MAX_CALLS, f"{work.count} calls"
    assert peak < MAX_PEAK_BYTES, f"{peak / 2**20:.1f} MiB"

    answers = _answers(judge, outbox_before)
    if expect["answer"] == "silence":
        assert answers == [], "automatic or unanswerable mail must get no answer"
    else:
        assert len(answers) == 1, f"{len(answers)} answers"
        to = expect.get("to", sender)
        _clean_headers(answers[0], to)
        body = email.message_from_bytes(answers[0], policy=email.policy.default).get_body(("plain",)).get_content()
        assert expect["answer"] in body, body
        if "max_answer" in expect:
            assert len(body) <= expect["max_answer"], len(body)
            assert len(str(email.message_from_bytes(answers[0], policy=email.policy.default)["Subject"])) <= 300
        for secret in SECRETS.values():
            assert secret not in body, "an answer never repeats a secret"

    after = _snapshot(judge)
    if expect["store"] == "unchanged":
        assert after == before
    elif expect["store"] == "archived":
        # An authenticated player's refused orders: kept in the archive, the old set stands.
        assert {t: after[t] for t in STORE_TABLES if t != "order_mails"} == \
            {t: before[t] for t in STORE_TABLES if t != "order_mails"}
        added = after["order_mails"][len(before["order_mails"]):]
        assert after["order_mails"][:len(before["order_mails"])] == before["order_mails"]
        assert len(added) == 1
        assert all(secret not in str(added[0]) for secret in SECRETS.values())
    else:
        assert after["games"] == before["games"] and after["phases"] == before["phases"]
        assert len(after["orders"]) == len(before["orders"]) + 1


# --- the fixes the corpus led to, each pinned down on its own ---------------------------------

def test_an_encoded_word_never_becomes_a_header_of_the_answer():
    from pbem.mail.outgoing import OutMail, compose
    word = "=?utf-8?q?x=0D=0ABcc:_victim@evil.test?="
    data = compose(OutMail(to="alice@pbem.test", subject=f"Re: {word}", body="b",
                           in_reply_to=f"<{word}@x>", references=[f"<{word}@x>", "<ok@x>"]),
                   "judge@pbem.test", "pbem judge")
    msg = email.message_from_bytes(data, policy=email.policy.default)
    assert msg["Bcc"] is None and "victim" not in str(msg["Subject"]).split("Bcc")[0] + str(msg["References"])
    assert msg["In-Reply-To"] is None and msg["References"] == "<ok@x>"
    _clean_headers(data.replace(b"auto-generated", b"auto-replied"), "alice@pbem.test")


def test_a_hostile_display_name_does_not_change_the_sender():
    data = (b"From: =?utf-8?q?Alice=0D=0ABcc:_victim@evil.test?= <alice@pbem.test>\r\n"
            b"Subject: x\r\n\r\nbody\r\n")
    mail = parse_mail(data, ["judge@pbem.test"])
    assert mail.from_addr == "alice@pbem.test" and mail.from_name == "Alice Bcc: victim@evil.test"
    encoded_address = b'"x" <=?utf-8?q?a=0D=0ABcc=3Ae=40x?=@evil.test>'  # no RFC 2047 inside an address
    assert parse_mail(b"From: " + encoded_address + b"\r\n\r\nbody", []).from_addr == ""
    assert parse_mail(b"From: a@b.test\x00c\r\n\r\nbody", []).from_addr.isprintable()


def test_yaml_that_would_exhaust_the_stack_or_carry_tags_is_refused_with_a_line():
    from pbem.orders.yamlsafe import YamlProblem, load
    for text, words in (("a: " + "[" * 50000, "nested more than 16"), ("a: " + "{b: " * 9000, "nested more than 16"),
                        ("a: 1\nb: !!python/name:os.system x\n", "tags such as !!python/name"),
                        ("a: 1\nb: 2\x00\n", "U+0000")):
        with pytest.raises(YamlProblem) as problem:
            load(text, first_line=10)
        assert words in problem.value.message and problem.value.line is not None


def test_yaml_is_read_in_linear_work_whatever_its_shape():
    """Work, not seconds: four times the order document, at most about four times the calls
    (PyYAML is Python: a quadratic scan there is counted)."""
    from pbem.orders.yamlsafe import YamlProblem, load

    def work(text: str) -> int:
        def read() -> None:
            try:
                load(text)
            except YamlProblem:
                pass
        return calls(read)[0]
    shapes = {"entries": lambda n: "orders:\n" + "  - move: a\n" * (n // 12),
              "flow": lambda n: "a: [" + "x, " * (n // 3) + "]\n",
              "scalar": lambda n: "a: " + "x" * n + "\n",
              "spaces inside a line": lambda n: "orders:\n  thanks x" + " " * n + "y\n",
              "escapes": lambda n: 'a: "' + "\\\\" * (n // 2) + '"\n',
              "nested 15 deep": lambda n: "a: " + "[" * 15 + "x, " * (n // 3) + "]" * 15 + "\n"}
    for shape, make in shapes.items():
        small, large = work(make(3000)), work(make(12000))
        assert large <= 4.5 * small, (shape, small, large)


def test_unknown_game_and_failed_authentication_get_the_same_answer(homes, tmp_path):
    answers = []
    for i, game in enumerate(("g1", "nosuchgame")):
        judge = _copy(homes["tiny"], tmp_path / f"home{i}")
        before = _outbox_ids(judge)
        judge.send("mallory@evil.test", f"game: {game}\nplayer: alice\nsecret: guess-guess-1\nphase: round-1/bid\n"
                   "bid: 3\n", subject="orders")
        judge.tick()
        [data] = _answers(judge, before)
        msg = email.message_from_bytes(data, policy=email.policy.default)
        body = msg.get_body(("plain",)).get_content().replace(game, "GAME")
        answers.append((body, sorted(k for k in msg.keys()), msg["List-Id"], msg["References"].split()[:-1]))
    assert answers[0] == answers[1]
    assert answers[0][2] is None and answers[0][3] == []  # no thread or list of the game


def _html_work(html: str) -> int:
    """The work of reading `html`: Python calls made by html_to_text, plus the characters the
    tokenizer's own scanning looks at (ScannedStr: a rescan done inside C is no call)."""
    from pbem.mail.htmltext import _TextCollector, html_to_text
    work, _ = calls(html_to_text, html)
    ScannedStr.scanned = 0
    _TextCollector(len(html)).feed(ScannedStr(html))
    return work + ScannedStr.scanned


def test_html_is_read_in_linear_time_whatever_its_tags():
    """Work, not seconds: four times the HTML costs at most about four times the work (a
    tokenizer that rescans the rest at each `<`, as html.parser did, costs sixteen times)."""
    from pbem.mail.htmltext import html_to_text
    size = 32 * 1024  # and 4 x that (the judge reads up to 1 MiB: docs/mail.md)
    for unit in ("<a ", "<a b='x>' ", "<div>", "<!", "<x<y>", "<", "<!--", "<a b='", "&amp;<p>"):
        small, large = (_html_work(unit * (n // len(unit))) for n in (size, 4 * size))
        assert large <= 4.5 * small + 1000, (unit, small, large)
    assert html_to_text("<p>a &lt; b<br/>c</p><!-- <div>hidden</div> --><script>if (a<b) x()</script>") == "a < b\nc"


def test_the_html_work_measure_catches_a_quadratic_tokenizer(monkeypatch):
    """The measure above is not blind: a tokenizer looking for each tag's end from its `<`
    to the end of the input (the html.parser bomb) is caught."""
    from pbem.mail import htmltext

    def rescanning_feed(self, html):
        pos = 0
        while True:
            lt = html.find("<", pos)
            if lt < 0:
                return
            html.find(">", lt)  # scans the rest when the tag never closes
            pos = lt + 1
    monkeypatch.setattr(htmltext._TextCollector, "feed", rescanning_feed)
    unit, size = "<a ", 16 * 1024
    small, large = (_html_work(unit * (n // len(unit))) for n in (size, 4 * size))
    assert large > 10 * small


def test_mutated_corpus_mails_never_stop_the_judge(homes, tmp_path):
    """Seeded mutations of the corpus (bytes flipped, MIME and YAML tokens spliced in, cuts):
    every mail is handled in one tick, none is left in the inbox by an internal error, and
    every answer's headers stay clean. (Run for minutes with other seeds: 15,000 mails, none
    failed; docs/security.md.)"""
    import random
    judge = _copy(homes["tiny"], tmp_path / "home")
    files = sorted(p for p in CORPUS.glob("*.eml") if p.stat().st_size < 200_000 and b"@@" not in p.read_bytes())
    tokens = [b"\r\n", b"=?utf-8?q?", b"?=", b"--", b"<", b">", b":", b"\x00", b"\xff", b"--x\r\n", b"[", b"{",
              b"Content-Type: multipart/mixed; boundary=x\r\n", b"charset=", b"base64", b"game: g1\n", b"&a ", b"*a "]
    rng = random.Random(2026)
    for _ in range(400):
        data = bytearray(rng.choice(files).read_bytes())
        for _ in range(rng.randint(1, 12)):
            op, pos = rng.random(), rng.randrange(len(data) + 1)
            if op < 0.3 and data:
                data[min(pos, len(data) - 1)] = rng.randrange(256)
            elif op < 0.6:
                data[pos:pos] = rng.choice(tokens) * rng.randint(1, 50)
            elif op < 0.8:
                del data[pos:pos + rng.randint(1, 40)]
            elif pos > 10:
                data = data[:pos]
        before = _outbox_ids(judge)
        judge.send("", "", raw=bytes(data))
        with CallCounter() as work:
            report = judge.tick()
        assert work.count < MAX_CALLS, (work.count, bytes(data[:400]))
        assert not report.errors and sum(report.mails.values()) == 1, (report.errors, bytes(data[:400]))
        for answer in _answers(judge, before):
            to = email.message_from_bytes(answer, policy=email.policy.default)["To"].addresses[0].addr_spec
            _clean_headers(answer, to)


def test_every_mail_of_the_judge_begins_with_its_marker(homes, tmp_path):
    """Welcomes, reports, answers: Mailer.queue puts the marker first in every body, so a
    reply's copy of any of them is recognised (pbem/orders/envelope.py)."""
    from pbem.orders.envelope import marker_line
    judge = _copy(homes["fief"], tmp_path / "home")
    judge.send("alice@pbem.test", "Hello, when do we play?")
    judge.tick()
    bodies = {str(m["Subject"]): m.get_body(("plain",)).get_content() for m in judge.sent()}
    assert any("Welcome" in s for s in bodies) and any("resolved" in s for s in bodies)
    assert any(s.startswith("Re:") for s in bodies)
    for subject, body in bodies.items():
        assert body.startswith(marker_line("pbem judge", "judge@pbem.test") + "\n\n"), subject


def test_an_at_once_mail_with_a_sign_off_is_done_and_the_sign_off_listed(homes, tmp_path):
    judge = _copy(homes["fief"], tmp_path / "home")
    before = _outbox_ids(judge)
    judge.send("alice@pbem.test", "game: loire\nplayer: alice\nsecret: secret-alice-0001\nphase: round-1/purchase\n"
               "diplomacy:\n  - give: 1\n    to: bob\nThanks!\nAlice\n")
    report = judge.tick()
    assert report.mails == {"acted at once": 1}, report.lines()
    [answer] = [email.message_from_bytes(a, policy=email.policy.default) for a in _answers(judge, before)
                if b"Re: orders" in a]
    body = answer.get_body(("plain",)).get_content()
    assert "Not read as orders" in body and "- line 8: Thanks!" in body and "- line 9: Alice" in body
