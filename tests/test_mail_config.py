"""Mail endpoints from config sections: every kind, defaults, and errors that name the fix."""

from __future__ import annotations

import ssl

import pytest

from pbem.mail.config import MailConfigError, open_inbox, open_sender
from pbem.mail.imap import ImapInbox
from pbem.mail.inbox import MaildirInbox
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
    assert (starttls.port, starttls.folder, starttls.processed_folder, starttls.timeout) == (
        143, "Orders", "Orders/done", 10.0)


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
     "[inbox] unknown key 'colour': remove it (keys for kind = \"maildir\": kind, max_bytes, path, processed)"),
    (open_inbox, {"kind": "maildir", "path": "p", "processed": "shred"},
     "[inbox] 'processed' = 'shred' is not known: use one of delete, keep"),
    (open_inbox, {"kind": "imap", "host": "h", "user": "u", "password": "p", "processed": "delete",
                  "processed_folder": "Done"},
     '[inbox] processed = "delete" and processed_folder contradict each other: remove processed_folder to '
     'delete processed mail, or set processed = "keep" to keep it there'),
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
    (open_inbox, {"kind": "maildir", "path": "p", "max_bytes": 9 * 1024 * 1024},
     "[inbox] 'max_bytes' must be a whole number from 1 to 8388608, not 9437184"),
    (open_sender, {"kind": "imap"}, "[outbox] kind = 'imap' is not known here: use kind = \"maildir\" or \"smtp\""),
    (open_sender, {"kind": "smtp", "host": "h", "timeout": 0},
     "[outbox] 'timeout' must be a number of seconds above 0, not 0"),
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


# A self-signed certificate (valid to 2126), only for the config checks below: they read it,
# they never connect with it.
PEM = """\
-----BEGIN CERTIFICATE-----
MIIBjjCCATOgAwIBAgIUGD2p1wmb/6nCzHCuSYSLPqYrHK8wCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQcGJlbSBjb25maWcgdGVzdDAgFw0yNjExMjkxMzI5MDNaGA8y
MTI2MTEwNTEzMjkwM1owGzEZMBcGA1UEAwwQcGJlbSBjb25maWcgdGVzdDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABBbTwEwUv7N+EAvppXyy9ohIubreNFEYsROs
hO5Gb+3n83aXxiPLdJ+BQwWODfW6kfAiNsEzASxM8ISktJnaqDKjUzBRMB0GA1Ud
DgQWBBTNOOjF58JCndloGEkzzhkkz7KycjAfBgNVHSMEGDAWgBTNOOjF58JCndlo
GEkzzhkkz7KycjAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDM
jrIdIdTfWhTzaBFNTwsY+NfeBqKWO3wBhpI/RkxtBAIhAOmyL4ibI/xqo1WubcMj
9PQ9vWLJr8sdn8rA28PRvFyq
-----END CERTIFICATE-----
"""
IMAP = {"kind": "imap", "host": "h", "user": "u", "password": "p"}
SMTP = {"kind": "smtp", "host": "h"}


def test_ca_file_is_relative_to_home_for_both_servers(tmp_path):
    (tmp_path / "tls").mkdir()
    (tmp_path / "tls" / "ca.pem").write_text(PEM)
    inbox = open_inbox({**IMAP, "ca_file": "tls/ca.pem"}, tmp_path)
    sender = open_sender({**SMTP, "security": "tls", "ca_file": str(tmp_path / "tls" / "ca.pem")}, tmp_path / "x")
    assert inbox.ca_file == sender.ca_file == tmp_path / "tls" / "ca.pem"
    # The file replaces the system's store, and the checks stay on.
    for context in (inbox._tls, sender._tls):
        assert context.check_hostname and context.verify_mode == ssl.CERT_REQUIRED
        assert [c["subject"] for c in context.get_ca_certs()] == [((("commonName", "pbem config test"),),)]
    assert open_inbox(IMAP, tmp_path).ca_file is None and open_sender(SMTP, tmp_path).ca_file is None


@pytest.mark.parametrize("opener, base, where", [(open_inbox, IMAP, "inbox"), (open_sender, SMTP, "outbox")])
def test_ca_file_errors_name_section_key_and_fix(tmp_path, monkeypatch, opener, base, where):
    (tmp_path / "key.pem").write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    (tmp_path / "ca.pem").write_text(PEM)

    def refused(**keys) -> str:
        with pytest.raises(MailConfigError) as failure:
            opener({**base, **keys}, tmp_path)
        return str(failure.value)

    assert refused(ca_file="missing.pem") == (
        f"[{where}] ca_file {tmp_path / 'missing.pem'} is not a file: give the path (absolute, or relative "
        "to the judge home) of the PEM file of the server's CA or certificate")
    assert refused(ca_file=".") == (
        f"[{where}] ca_file {tmp_path / '.'} is not a file: give the path (absolute, or relative "
        "to the judge home) of the PEM file of the server's CA or certificate")
    assert refused(ca_file="key.pem") == (
        f"[{where}] ca_file {tmp_path / 'key.pem'} holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\"): "
        "point it at the server's CA or certificate in PEM form")
    assert refused(ca_file="") == f"[{where}] 'ca_file' is empty: give it a value (see docs/mail.md)"
    assert refused(ca_file=["ca.pem"]) == f"[{where}] 'ca_file' must be text in quotes, not ['ca.pem']"
    assert refused(ca_file="ca.pem", security="none") == (
        f'[{where}] ca_file is only used with security = "tls" or "starttls": remove it, or set security')
    real_open = open

    def no_permission(path, *args, **kwargs):
        if str(path).endswith("ca.pem"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    # Tests run as root, where chmod 000 would not stop the read: the refusal is simulated.
    monkeypatch.setattr("builtins.open", no_permission)
    assert refused(ca_file="ca.pem") == (
        f"[{where}] ca_file {tmp_path / 'ca.pem'} cannot be read (Permission denied): make it readable "
        "by the user that runs pbem")


def test_processed_mail_is_deleted_unless_the_game_master_keeps_it(tmp_path):
    """docs/security.md, "Processed mail": a processed mail carries its sender's secret in clear."""
    assert open_inbox({"kind": "maildir", "path": "in"}, tmp_path).delete_processed is True
    assert open_inbox({"kind": "maildir", "path": "in", "processed": "keep"}, tmp_path).delete_processed is False
    imap = {"kind": "imap", "host": "h", "user": "u", "password": "p"}
    assert open_inbox(imap, tmp_path).delete_processed is True
    assert open_inbox({**imap, "processed": "keep"}, tmp_path).delete_processed is False
    # A processed_folder names where to keep processed mail: it keeps, as before this key existed.
    kept = open_inbox({**imap, "processed_folder": "Done"}, tmp_path)
    assert (kept.delete_processed, kept.processed_folder) == (False, "Done")
