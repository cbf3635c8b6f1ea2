"""Helpers for the judge's tests: a judge home on the embedded default (Maildir + SQLite),
the tiny test game registered, and mail written the way a player's client would."""
from __future__ import annotations

import mailbox
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from pbem.games import GAME_TYPES
from pbem.judge import engine
from pbem.judge.home import Home, init_home
from pbem.judge.mailer import Mailer
from pbem.judge.store import Store

GAME_TYPES.setdefault("tiny", "tinygame:RULES")


class Judge:
    """A judge home plus the knobs tests need: the clock, the inbox, the sent mail."""

    def __init__(self, path: Path):
        self.home: Home = init_home(path, "judge@pbem.test")
        # Tests jump the clock by hours between ticks; only the outage test wants such jumps
        # read as outages (set_outage_minutes).
        self.set_outage_minutes(10_000_000)
        self.now = 1_800_000_000.0
        self.secrets: dict[str, dict[str, str]] = {}

    def set_outage_minutes(self, minutes: float) -> None:
        from pbem.judge.home import load_home
        config = self.home.path / "config.toml"
        lines = [f"outage_minutes = {minutes}" if line.startswith("outage_minutes") else line
                 for line in config.read_text(encoding="utf-8").splitlines()]
        config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.home = load_home(self.home.path)

    def store(self) -> Store:
        return Store(self.home.db_path)

    def new_game(self, name: str = "g1", players=("alice", "bob", "carol"), game_type: str = "tiny",
                 options=None, phase_hours: float = 48, reminder_hours: float = 12, gm_email=None,
                 seed: str | None = None):
        store = self.store()
        try:
            from pbem.games import rules_for
            rules = rules_for(game_type)
            values = {o.name: o.default for o in rules.options()}
            values.update(options or {})
            with store.transaction():
                game, secrets = engine.create_game(
                    store, game_type, name, [(p, f"{p}@pbem.test") for p in players], values,
                    phase_hours, reminder_hours, gm_email, self.now, seed=seed)
                Mailer(store, self.home).welcomes(game, secrets)
            self.secrets[name] = secrets
            return game
        finally:
            store.close()

    def send(self, sender: str, body: str, subject: str = "orders", headers=None, raw: bytes | None = None) -> str:
        """Drop a mail into the judge's inbox Maildir; returns its Message-ID."""
        if raw is None:
            msg = EmailMessage()
            msg["From"] = sender
            msg["To"] = self.home.address
            msg["Subject"] = subject
            msg["Message-ID"] = make_msgid(domain="player.test")
            for key, value in (headers or {}).items():
                msg[key] = value
            msg.set_content(body)
            raw = bytes(msg)
            message_id = msg["Message-ID"]
        else:
            message_id = ""
        box = mailbox.Maildir(str(self.home.path / "mail" / "inbox"), create=True)
        box.add(raw)
        return message_id

    def orders(self, game: str, player: str, phase: str, body: str, secret: str | None = None,
               sender: str | None = None, extra: str = "") -> str:
        secret = self.secrets[game][player] if secret is None else secret
        text = f"Hello judge,\n\ngame: {game}\nplayer: {player}\nsecret: {secret}\nphase: {phase}\n{extra}{body}"
        return self.send(sender or f"{player}@pbem.test", text)

    def command(self, game: str, player: str | None, command: str, extra: str = "",
                sender: str | None = None) -> str:
        """A command by mail (docs/players-guide.md): signed with the player's secret, or, with
        ``player`` None, the bare `game:` and `command:` anyone may send (from ``sender``)."""
        who = "" if player is None else f"player: {player}\nsecret: {self.secrets[game][player]}\n"
        return self.send(sender or f"{player}@pbem.test", f"game: {game}\n{who}command: {command}\n{extra}",
                         subject=command)

    def change_secret(self, game: str, player: str, new: str) -> str:
        """The player's mail, signed with their current secret, asking for ``new`` instead."""
        return self.send(f"{player}@pbem.test",
                         f"game: {game}\nplayer: {player}\nsecret: {self.secrets[game][player]}\nnew_secret: {new}\n")

    def tick(self, advance_hours: float = 0.0):
        from pbem.judge.tick import run_tick
        self.now += advance_hours * 3600
        return run_tick(self.home, now=self.now)

    def sent(self) -> list:
        """Every mail the judge wrote to its outbox Maildir, as email.message objects."""
        import email
        import email.policy
        out = self.home.path / "mail" / "outbox"
        files = [f for sub in ("new", "cur") if (out / sub).exists() for f in (out / sub).iterdir()]
        mails = [email.message_from_bytes(f.read_bytes(), policy=email.policy.default) for f in files]
        # Maildir names and times do not order mails written in the same instant: the
        # outbox's row order (the order the judge queued them) does.
        store = self.store()
        order = {r["message_id"]: r["id"] for r in store.all("SELECT id, message_id FROM outbox")}
        store.close()
        return sorted(mails, key=lambda m: order.get(str(m["Message-ID"]), 0))

    def sent_to(self, address: str) -> list:
        return [m for m in self.sent() if address in str(m["To"])]
