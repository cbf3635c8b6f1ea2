"""Real mail servers for the end-to-end tests: Dovecot (IMAP + LMTP) and an aiosmtpd SMTP
server that hands every accepted mail to Dovecot over LMTP.

Everything lives in one temporary folder (config, users, sockets, state, mail), on free high
ports of 127.0.0.1, so it never clashes with a system Dovecot. Dovecot runs as root (the
test runner is root in CI) and stores mail as the `dovecot` system user: Dovecot refuses
uid 0 for mail, and that user exists wherever the package is installed.

With `tls` (a TlsFiles from make_tls_files), the same servers speak TLS instead: Dovecot with
STARTTLS on the IMAP port (required before login) and implicit TLS on an IMAPS port; the SMTP
relay with STARTTLS (required before mail) and a second relay with implicit TLS. The
certificates come from a throwaway CA made with the openssl command-line tool.
"""

from __future__ import annotations

import imaplib
import os
import pwd
import re
import shutil
import smtplib
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

DOMAIN = "pbem.test"
USERS = {"judge": "judge-pw", "alice": "alice-pw", "bob": "bob-pw", "carol": "carol-pw", "dave": "dave-pw"}


def missing_requirements() -> str | None:
    """Why the servers cannot run here, or None."""
    for tool in ("dovecot", "doveadm"):
        if shutil.which(tool) is None and not Path("/usr/sbin", tool).exists():
            return f"{tool} is not installed (apt-get install dovecot-imapd dovecot-lmtpd)"
    if os.geteuid() != 0:
        return "Dovecot test servers must be started as root"
    try:
        pwd.getpwnam("dovecot")
    except KeyError:
        return "the dovecot system user is missing (reinstall dovecot-core)"
    try:
        import aiosmtpd  # noqa: F401
    except ImportError:
        return "aiosmtpd is not installed (pip install '.[test]')"
    return None


def missing_tls_requirements() -> str | None:
    """Why the TLS test servers cannot run here, or None."""
    if shutil.which("openssl") is None:
        return "the openssl command-line tool is not installed (apt-get install openssl)"
    return missing_requirements()


@dataclass(frozen=True)
class TlsFiles:
    """A throwaway CA and server certificates signed by it, all PEM files."""
    ca: Path  # what a judge puts in ca_file
    cert: Path  # for localhost and 127.0.0.1
    key: Path
    other_cert: Path  # for another host name only (elsewhere.pbem.test): a wrong-host server
    other_key: Path

    def server_context(self, other: bool = False) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.other_cert if other else self.cert, self.other_key if other else self.key)
        return context


def make_tls_files(folder: Path) -> TlsFiles:
    """A CA and two server certificates, valid two days, made with `openssl` in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)

    def run(*args: str) -> None:
        done = subprocess.run(["openssl", *args], cwd=folder, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"openssl {args[0]} failed: {done.stderr.strip()}")

    # EC keys: made in milliseconds, where RSA keys would slow every run.
    new_key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    run("req", "-x509", *new_key, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=pbem test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    for name, names in (("server", "DNS:localhost,IP:127.0.0.1"), ("other", "DNS:elsewhere.pbem.test")):
        (folder / f"{name}.ext").write_text(
            f"subjectAltName = {names}\nbasicConstraints = CA:FALSE\n"
            "keyUsage = critical,digitalSignature\nextendedKeyUsage = serverAuth\n")
        run("req", *new_key, "-keyout", f"{name}.key", "-out", f"{name}.csr",
            "-subj", f"/CN={names.split(',')[0][4:]}")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-set_serial", str(int.from_bytes(os.urandom(8), "big")), "-days", "2",
            "-extfile", f"{name}.ext", "-out", f"{name}.pem")
    for key in ("ca.key", "server.key", "other.key"):
        (folder / key).chmod(0o600)
    return TlsFiles(folder / "ca.pem", folder / "server.pem", folder / "server.key",
                    folder / "other.pem", folder / "other.key")


def _tool(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds}s") from None
            time.sleep(0.05)


def player_mail(from_addr: str, to_addr: str, subject: str, body: str, **headers: str) -> bytes:
    """An ordinary mail as a player's client would write it (no judge headers)."""
    msg = EmailMessage()
    msg["From"] = from_addr
    msg["To"] = to_addr
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain=from_addr.rpartition("@")[2] or DOMAIN)
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg.as_bytes(policy=SMTP)


class _LmtpRelay:
    """aiosmtpd handler: accepts mail for known users and delivers it to Dovecot over LMTP.

    Fault switches for the tests: `forced_reply` answers every DATA with that reply (e.g.
    "451 4.3.0 busy" or "554 5.7.1 no"), `delay` slows each DATA, and `drop` closes the
    connection after the message was transferred, before any reply. `gather` holds each DATA
    until that many are in progress at once (10 s at most), so that mail sent at the same time
    meets there however loaded the machine; `most_at_once` counts the most DATA commands in
    progress at the same moment (concurrent sending, shown by a count), `data_commands` all.
    """

    def __init__(self, lmtp_port: int, users: set[str]) -> None:
        self.lmtp_port = lmtp_port
        self.users = users
        self.clear_faults()

    def clear_faults(self) -> None:
        self.forced_reply: str | None = None
        self.delay = 0.0
        self.drop = False
        self.gather = 0
        self.at_once = self.most_at_once = self.data_commands = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local, _, domain = address.lower().rpartition("@")
        if domain != DOMAIN or local not in self.users:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        import asyncio

        self.data_commands += 1
        self.at_once += 1
        self.most_at_once = max(self.most_at_once, self.at_once)
        try:
            for _ in range(1000 if self.gather else 0):   # a bound on the wait, not a speed test
                if self.most_at_once >= self.gather:
                    break
                await asyncio.sleep(0.01)
            if self.delay:
                await asyncio.sleep(self.delay)
        finally:
            self.at_once -= 1
        if self.drop:
            server.transport.close()
            return "421 4.3.0 (never seen: the connection is gone)"
        if self.forced_reply:
            return self.forced_reply
        return await asyncio.to_thread(self._deliver, envelope.mail_from, list(envelope.rcpt_tos),
                                       envelope.original_content or envelope.content)

    def _deliver(self, mail_from: str, rcpt_tos: list[str], content: bytes) -> str:
        try:
            with smtplib.LMTP("127.0.0.1", self.lmtp_port) as lmtp:
                refused = lmtp.sendmail(mail_from or "<>", rcpt_tos, content)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return f"{code} {text.decode(errors='replace')}"
        except (smtplib.SMTPException, OSError) as exc:
            return f"451 4.3.0 local delivery failed: {exc}"
        if refused:
            return "451 4.3.0 some recipients failed; try again"
        return "250 OK delivered"


@dataclass
class MailServers:
    root: Path
    imap_port: int = field(default_factory=free_port)
    lmtp_port: int = field(default_factory=free_port)
    smtp_port: int = field(default_factory=free_port)
    host: str = "127.0.0.1"
    passwords: dict[str, str] = field(default_factory=lambda: dict(USERS))
    tls: TlsFiles | None = None  # None: plain servers, no TLS anywhere
    imaps_port: int = 0  # with tls: Dovecot's implicit-TLS port
    smtps_port: int = 0  # with tls: the implicit-TLS SMTP relay

    def __post_init__(self) -> None:
        self.config = self.root / "dovecot.conf"
        self.relay = _LmtpRelay(self.lmtp_port, set(self.passwords))
        self._smtp = None
        self._smtps = None
        if self.tls is not None:
            self.imaps_port = self.imaps_port or free_port()
            self.smtps_port = self.smtps_port or free_port()
        self._dovecot_running = False

    # --- addresses and accounts ----------------------------------------------------------
    def address(self, user: str) -> str:
        return f"{user}@{DOMAIN}"

    def password(self, user: str) -> str:
        return self.passwords[user]

    @property
    def smtp_host(self) -> str:
        return self.host

    @property
    def imap_host(self) -> str:
        return self.host

    # --- life cycle ----------------------------------------------------------------------
    def start(self) -> None:
        self.write_config()
        self.start_dovecot()
        self.start_smtp()

    def write_config(self) -> None:
        self.root.chmod(0o755)  # Dovecot's unprivileged processes must reach their sockets
        mail = self.root / "mail"
        mail.mkdir(exist_ok=True)
        shutil.chown(mail, "dovecot", "dovecot")
        users = self.root / "users"
        # nodelay: a wrong password is answered at once (no anti-guessing penalty in tests).
        users.write_text("".join(f"{u}:{{PLAIN}}{p}::::::nodelay=yes\n" for u, p in self.passwords.items()))
        users.chmod(0o644)
        self.config.write_text(f"""\
# Written by tests/mailservers.py for one test session; nothing here is used in production.
protocols = imap lmtp
listen = 127.0.0.1
base_dir = {self.root}/run
state_dir = {self.root}/state
instance_name = pbem-test-{self.imap_port}
log_path = {self.root}/dovecot.log
{self._ssl_settings()}
auth_mechanisms = plain login
# Tests of a wrong password should not wait out the anti-guessing delays.
auth_failure_delay = 0
login_trusted_networks = 127.0.0.0/8
# "alice" and "alice@{DOMAIN}" are the same account, for IMAP logins and LMTP recipients.
auth_username_format = %Ln
mail_location = maildir:~/Maildir
# The mail user is the `dovecot` system user, whose uid is below the default limit of 500.
first_valid_uid = 1
first_valid_gid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {users}
}}
userdb {{
  driver = static
  args = uid=dovecot gid=dovecot home={mail}/%n
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.imaps_port}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
""")

    def _ssl_settings(self) -> str:
        if self.tls is None:
            return "ssl = no\ndisable_plaintext_auth = no"
        # Dovecot 2.3 syntax ("<" reads the file). Dovecot counts a connection from its own
        # address as secure, so even "required" lets 127.0.0.1 log in without TLS: the tests
        # check the log ("TLS" on each login) to know TLS was really used.
        return (f"ssl = required\nssl_cert = <{self.tls.cert}\nssl_key = <{self.tls.key}\n"
                "disable_plaintext_auth = yes")

    def start_dovecot(self) -> None:
        # The daemon's children inherit stdout/stderr: pipes would never reach EOF, so
        # its start-up complaints go to a file instead.
        errors = self.root / "dovecot-start.err"
        with open(errors, "wb") as err:
            done = subprocess.run([_tool("dovecot"), "-c", str(self.config)],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        if done.returncode != 0:
            raise RuntimeError(f"dovecot did not start: {errors.read_text(errors='replace').strip()}")
        self._dovecot_running = True
        wait_for_port(self.imap_port)
        wait_for_port(self.lmtp_port)
        if self.imaps_port:
            wait_for_port(self.imaps_port)

    def stop_dovecot(self) -> None:
        if not self._dovecot_running:
            return
        subprocess.run([_tool("doveadm"), "-c", str(self.config), "stop"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._dovecot_running = False
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # "stop" returns before the listeners are gone
            try:
                socket.create_connection(("127.0.0.1", self.imap_port), timeout=0.2).close()
                time.sleep(0.05)
            except OSError:
                return

    def start_smtp(self) -> None:
        from aiosmtpd.controller import Controller

        if self.tls is None:
            self._smtp = Controller(self.relay, hostname="127.0.0.1", port=self.smtp_port)
        else:
            self._smtp = Controller(self.relay, hostname="127.0.0.1", port=self.smtp_port,
                                    tls_context=self.tls.server_context(), require_starttls=True)
            self._smtps = Controller(self.relay, hostname="127.0.0.1", port=self.smtps_port,
                                     ssl_context=self.tls.server_context())
            self._smtps.start()
        self._smtp.start()

    def stop_smtp(self) -> None:
        for controller in (self._smtp, self._smtps):
            if controller is not None:
                controller.stop()
        self._smtp = self._smtps = None

    def stop(self) -> None:
        self.stop_smtp()
        self.stop_dovecot()

    def ensure_running(self) -> None:
        """Both servers up (a test may have stopped one) and no fault switched on."""
        self.relay.clear_faults()
        if self._smtp is None:
            self.start_smtp()
        if not self._dovecot_running:
            self.start_dovecot()

    # --- helpers for tests ---------------------------------------------------------------
    def send(self, from_addr: str, to_addrs: list[str], raw: bytes) -> None:
        # smtplib sends bytes as they are: bare LFs would arrive as one endless line.
        raw = re.sub(rb"(?<!\r)\n", b"\r\n", raw)
        with smtplib.SMTP(self.host, self.smtp_port, timeout=10) as smtp:
            if self.tls is not None:
                smtp.starttls(context=self._client_context())
            smtp.sendmail(from_addr, to_addrs, raw)

    def _client_context(self) -> ssl.SSLContext:
        assert self.tls is not None
        return ssl.create_default_context(cafile=str(self.tls.ca))

    def mailbox(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """Every message in a user's folder, oldest first, read without marking it seen."""
        imap = imaplib.IMAP4(self.host, self.imap_port, timeout=10)
        if self.tls is not None:
            imap.starttls(self._client_context())
        try:
            imap.login(user, self.passwords[user])
            status, _ = imap.select(f'"{folder}"', readonly=True)
            if status != "OK":
                return []
            _, data = imap.uid("SEARCH", None, "ALL")
            messages = []
            for uid in data[0].split():
                _, fetched = imap.uid("FETCH", uid, "(BODY.PEEK[])")
                messages.extend(item[1] for item in fetched if isinstance(item, tuple))
            return messages
        finally:
            imap.logout()

    def reset(self) -> None:
        """Empty every user's mailboxes, so each test starts from nothing."""
        for user in self.passwords:
            home = self.root / "mail" / user
            if home.exists():
                subprocess.run([_tool("doveadm"), "-c", str(self.config), "expunge", "-u", user,
                                "mailbox", "*", "all"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""


def start_servers(tls: bool = False) -> MailServers:
    """Plain servers, or with `tls` the TLS ones (certificates made in the same folder)."""
    root = Path(tempfile.mkdtemp(prefix="pbem-mail-tls-" if tls else "pbem-mail-"))
    servers = MailServers(root, tls=make_tls_files(root / "tls") if tls else None)
    try:
        servers.start()
    except BaseException:
        servers.stop()
        raise
    return servers


def remove_servers(servers: MailServers) -> None:
    servers.stop()
    shutil.rmtree(servers.root, ignore_errors=True)


def point_judge_at(judge, servers: MailServers, *, host: str | None = None, imap_port: int | None = None,
                   smtp_port: int | None = None, imap_security: str = "none", smtp_security: str = "none",
                   timeout: float | None = None, extra: str = "") -> None:
    """Write the judge home's config.toml for the test servers, as a game master would edit it,
    and reload it. ``extra`` goes into both the [inbox] and the [outbox] section (e.g. ca_file)."""
    from pbem.judge.home import load_home
    wait = f"timeout = {timeout}\n" if timeout is not None else ""
    (judge.home.path / "config.toml").write_text(f"""
[judge]
address = "{servers.address('judge')}"
name = "pbem judge"
outage_minutes = 10000000

[inbox]
kind = "imap"
host = "{host or servers.imap_host}"
port = {imap_port or servers.imap_port}
user = "judge"
password = "{servers.password('judge')}"
security = "{imap_security}"
folder = "INBOX"
processed_folder = "pbem-processed"
{wait}{extra}
[outbox]
kind = "smtp"
host = "{host or servers.smtp_host}"
port = {smtp_port or servers.smtp_port}
security = "{smtp_security}"
{wait}{extra}
""", encoding="utf-8")
    judge.home = load_home(judge.home.path)


# -- what the end-to-end tests of the judge share ------------------------------------------------

def start_loire(judge, servers: MailServers, players) -> None:
    """The judge pointed at the test servers and a Fief: France game "loire" started for
    ``players``: the first tick sends each of them their welcome."""
    point_judge_at(judge, servers)
    judge.new_game(name="loire", players=players, game_type="fief_france")
    assert judge.tick().sent == len(players)


def tick(judge) -> tuple[int, list[str]]:
    """`pbem tick` as cron runs it: its exit status and output lines (never a traceback)."""
    from click.testing import CliRunner

    from pbem.cli import main
    result = CliRunner().invoke(main, ["tick", "--home", str(judge.home.path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result.exit_code, result.output.strip().splitlines()


def subjects(servers: MailServers, user: str) -> list[str]:
    """The Subject of every mail in the user's INBOX."""
    import email
    import email.policy
    return [str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])
            for raw in servers.mailbox(user)]


def assert_each_player_got_once(servers: MailServers, players, *kinds: str) -> None:
    """Every player holds exactly one mail of each of ``kinds`` (welcome, ack: an answer "Re:",
    report) and none of the other kinds."""
    for player in players:
        got = subjects(servers, player)
        counts = {"welcome": sum("Welcome" in s for s in got), "ack": sum(s.startswith("Re:") for s in got),
                  "report": sum("resolved" in s for s in got)}
        assert counts == {k: 1 if k in kinds else 0 for k in ("welcome", "ack", "report")}, (player, got)
