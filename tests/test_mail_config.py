"""Mail endpoints from config sections: every kind, defaults, and errors that name the fix."""

from __future__ import annotations

import pytest

from pbem.mail.config import MailConfigError, open_inbox, open_sender
from pbem.mail.inbox import ImapInbox, MaildirInbox
from pbem.mail.outbox import MaildirSender, SmtpSender


def test_maildir_paths_are_relative_to_home(tmp_path):
    inbox = open_inbox({"kind": "maildir", "path": "mail/inbox"}, tmp_path)
    sender = open_sender({"kind": "maildir", "path": "mail/outbox", "per_recipient": True}, tmp_path)
    assert isinstance(inbox, MaildirInbox) and inbox.path == tmp_path / "mail" / "inbox"
    assert isinstance(sender, MaildirSender) and sender.path == tmp_path / "mail" / "outbox" and sender.per_recipient
    assert (tmp_path / "mail" / "inbox" / "new").is_dir()
    absolute = open_inbox({"kind": "maildir", "path": str(tmp_path / "elsewhere")}, tmp_path / "home")
    assert absolute.path == tmp_path / "elsewhere"


def test_imap_section_with_defaults_and_password_env(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "s3cret")
    inbox = open_inbox({"kind": "imap", "host": "imap.example.org", "user": "judge@example.org",
                        "password_env": "PBEM_IMAP_PASSWORD"}, tmp_path)
    assert isinstance(inbox, ImapInbox)
    assert (inbox.host, inbox.port, inbox.security, inbox.folder, inbox.processed_folder, inbox.timeout) == \
        ("imap.example.org", 993, "tls", "INBOX", None, 30.0)
    assert inbox.password == "s3cret"
    starttls = open_inbox({"kind": "imap", "host": "h", "user": "u", "password": "p", "security": "starttls",
                           "folder": "Orders", "processed_folder": "Orders/done", "timeout": 10}, tmp_path)
    assert (starttls.port, starttls.folder, starttls.processed_folder, starttls.timeout) == (143, "Orders", "Orders/done", 10.0)


def test_smtp_section_defaults(tmp_path):
    sender = open_sender({"kind": "smtp", "host": "smtp.example.org", "user": "judge", "password": "p"}, tmp_path)
    assert isinstance(sender, SmtpSender)
    assert (sender.port, sender.security, sender.concurrency, sender.user) == (587, "starttls", 4, "judge")
    relay = open_sender({"kind": "smtp", "host": "localhost", "security": "none", "concurrency": 2}, tmp_path)
    assert (relay.port, relay.user, relay.password, relay.concurrency) == (25, None, None, 2)
    tls = open_sender({"kind": "smtp", "host": "h", "security": "tls", "user": "u", "password": "p"}, tmp_path)
    assert tls.port == 465


@pytest.mark.parametrize("opener, section, message", [
    (open_inbox, {}, "[inbox] missing key 'kind': add kind = \"maildir\" or \"imap\""),
    (open_inbox, {"kind": "smtp"}, "[inbox] kind = 'smtp' is not known here: use kind = \"maildir\" or \"imap\""),
    (open_inbox, {"kind": "maildir"}, "[inbox] missing key 'path': add path = \"...\" (see docs/mail.md)"),
    (open_inbox, {"kind": "imap", "hots": "x"}, "[inbox] unknown key 'hots': did you mean 'host'?"),
    (open_inbox, {"kind": "maildir", "path": "p", "colour": "red"},
     "[inbox] unknown key 'colour': remove it (keys for kind = \"maildir\": kind, max_bytes, path)"),
    (open_inbox, {"kind": "imap", "host": "h", "user": "u"},
     "[inbox] missing key 'password': add password = \"...\" or password_env = \"NAME_OF_ENVIRONMENT_VARIABLE\""),
    (open_inbox, {"kind": "imap", "host": "h", "user": "u", "password": "p", "password_env": "X"},
     "[inbox] give either 'password' or 'password_env', not both"),
    (open_inbox, {"kind": "imap", "host": "h", "user": "u", "password_env": "PBEM_TEST_UNSET_VARIABLE"},
     "[inbox] password_env names the environment variable PBEM_TEST_UNSET_VARIABLE, which is not set: "
     "export PBEM_TEST_UNSET_VARIABLE=... in the environment that runs pbem"),
    (open_inbox, {"kind": "imap", "host": "h", "user": "u", "password": "p", "security": "ssl"},
     "[inbox] 'security' = 'ssl' is not known: use one of tls, starttls, none"),
    (open_inbox, {"kind": "imap", "host": "h", "user": "u", "password": "p", "port": "imap"},
     "[inbox] 'port' must be a whole number from 1 up, not 'imap'"),
    (open_inbox, {"kind": "imap", "host": "", "user": "u", "password": "p"},
     "[inbox] 'host' is empty: give it a value (see docs/mail.md)"),
    (open_sender, {"kind": "imap"}, "[outbox] kind = 'imap' is not known here: use kind = \"maildir\" or \"smtp\""),
    (open_sender, {"kind": "smtp", "host": "h", "timeout": 0}, "[outbox] 'timeout' must be a number of seconds above 0, not 0"),
    (open_sender, {"kind": "smtp", "host": "h", "concurrency": 100},
     "[outbox] 'concurrency' must be a whole number from 1 to 32, not 100"),
    (open_sender, {"kind": "smtp", "host": "h", "user": "u"},
     "[outbox] missing key 'password': add password = \"...\" or password_env = \"NAME_OF_ENVIRONMENT_VARIABLE\""),
    (open_sender, {"kind": "maildir", "path": "p", "per_recipient": "maybe"},
     "[outbox] 'per_recipient' must be true or false, not 'maybe'"),
    (open_sender, ["kind", "smtp"], "[outbox] must be a table of keys (kind = ...), not list"),
])
def test_config_errors_name_the_key_and_the_fix(tmp_path, monkeypatch, opener, section, message):
    monkeypatch.delenv("PBEM_TEST_UNSET_VARIABLE", raising=False)
    with pytest.raises(MailConfigError) as failure:
        opener(section, tmp_path)
    assert str(failure.value) == message
