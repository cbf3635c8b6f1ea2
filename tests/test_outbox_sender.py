"""The SMTP sender's own work per mail (no server needed): counted, never timed."""
from __future__ import annotations

from pbem.mail.outbox import _from_header
from pbem.mail.outgoing import OutMail, compose
from work_count import calls


def mail(body_lines: int) -> bytes:
    body = "\n".join(f"line {n} of a long report, as long as a picture's base64" for n in range(body_lines))
    return compose(OutMail(to="marie@pbem.test", to_name="Marie", subject="[loire] report", body=body),
                   "judge@pbem.test", "pbem judge")


def test_the_envelope_sender_is_the_from_address_found_in_the_headers_alone():
    small, large = mail(10), mail(1500)   # 1500 lines: about 90 KB, a report with its map
    assert _from_header(small) == _from_header(large) == "judge@pbem.test"
    work_small, _ = calls(_from_header, small)
    work_large, _ = calls(_from_header, large)
    assert work_large <= work_small + 20, (work_small, work_large)   # the body is not parsed


def test_a_mail_without_a_blank_line_after_its_headers_is_still_read():
    raw = b"From: Judge <judge@pbem.test>\r\nTo: a@pbem.test\r\nSubject: x"
    assert _from_header(raw) == "judge@pbem.test"
    assert _from_header(b"Subject: no sender\r\n\r\nbody") == ""
