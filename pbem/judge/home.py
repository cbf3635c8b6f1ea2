"""The judge home: a folder holding config.toml, the SQLite store and (by default) the
Maildirs. Chosen with --home DIR or the PBEM_HOME environment variable."""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.mail.outgoing import address_problem, judge_address_problem

DEFAULT_CONFIG = """\
# pbem judge configuration. Every key is described in docs/mail.md and README.md.

[judge]
# The address players write to and the judge writes from.
address = {address}
name = "pbem judge"
# A tick that finds the previous one older than this many minutes treats the gap as an
# outage: deadlines that fell inside it are pushed back by its length.
outage_minutes = 30
# How long one tick may work, in seconds (cron starts one a minute): what is left when the
# time is up (mail to read, phases to resolve, mail to send) waits for the next tick.
tick_seconds = 40
# How many things one player may do at once (a game's at-once orders, e.g. Fief's diplomacy)
# in one phase: each may mail every other player, so this caps mail sent on a player's behalf.
at_once_per_phase = 30

# The embedded default: read order mail from a Maildir, write outgoing mail to a Maildir.
[inbox]
kind = "maildir"
path = "mail/inbox"
# What becomes of a player's mail once the judge has committed what it carried: "delete"
# (it holds the player's secret in clear; the archive keeps the orders without it) or "keep".
processed = "delete"

[outbox]
kind = "maildir"
path = "mail/outbox"
"""

KNOWN_JUDGE_KEYS = {"address", "name", "outage_minutes", "tick_seconds", "mails_per_fetch", "mails_per_tick",
                    "at_once_per_phase", "admin"}
DEFAULT_TICK_SECONDS = 40.0
DEFAULT_MAILS_PER_FETCH = 200


class HomeError(Exception):
    """The judge home is missing or its configuration is wrong; the message says how to fix it."""


@dataclass
class Home:
    path: Path
    address: str
    name: str
    outage_minutes: float
    inbox: dict[str, Any] = field(default_factory=dict)
    outbox: dict[str, Any] = field(default_factory=dict)
    at_once_per_phase: int = 30
    tick_seconds: float = DEFAULT_TICK_SECONDS
    mails_per_fetch: int = DEFAULT_MAILS_PER_FETCH
    # Who runs the judge: told, with the game master, when the judge's own code fails
    # (pbem.judge.quarantine); None: only the game masters and the tick's output.
    admin: str | None = None

    @property
    def db_path(self) -> Path:
        return self.path / "pbem.sqlite"

    @property
    def lock_path(self) -> Path:
        return self.path / "tick.lock"

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"


def resolve_home(home: str | None) -> Path:
    chosen = home or os.environ.get("PBEM_HOME")
    if not chosen:
        raise HomeError("no judge home given: pass --home DIR or set PBEM_HOME "
                        "(create one with `pbem init --home DIR`)")
    return Path(chosen).expanduser().resolve()


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string (TOML 1.0, "String"): quoted, with the backslash, the
    quote and every control character escaped, so no value can end the string early or
    break the file."""
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def init_home(path: Path, address: str = "judge@localhost", per_recipient: bool = False,
              force: bool = False) -> Home:
    """Create a judge home with the embedded default configuration. On an existing home the
    config.toml is kept, unless it is broken: then the HomeError says what is wrong and how to
    repair it; ``force`` writes a fresh one, keeping the old file as config.toml.bak.
    ``per_recipient``: the outbox Maildir keeps one folder per recipient (the demo's choice)."""
    problem = judge_address_problem(address)
    if problem:
        raise HomeError(f"--address: {problem}")
    config = path / "config.toml"
    if config.exists() and not force:
        try:
            return load_home(path)
        except HomeError as exc:
            raise HomeError(f"{exc}\nThe existing config.toml was left alone. Repair it by hand (docs/mail.md), "
                            f"or write a fresh one with `pbem init --home {path} --address ADDRESS --force` "
                            f"(the old file is kept as config.toml.bak)") from None
    (path / "mail").mkdir(parents=True, exist_ok=True)  # the default Maildirs live here
    text = DEFAULT_CONFIG.format(address=toml_string(address))
    if per_recipient:
        text += "# One Maildir per recipient: mail/outbox/<address>/\nper_recipient = true\n"
    if config.exists():
        os.replace(config, config.with_name("config.toml.bak"))
    # Written whole or not at all: a crash never leaves half a config.
    partial = config.with_name("config.toml.tmp")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, config)
    return load_home(path)


def load_home(path: Path) -> Home:
    config = path / "config.toml"
    if not config.exists():
        raise HomeError(f"{path} is not a judge home (no config.toml); create it with "
                        f"`pbem init --home {path}`")
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise HomeError(f"{config}: not valid TOML: {exc}") from None
    judge = data.get("judge", {})
    unknown = set(judge) - KNOWN_JUDGE_KEYS
    if unknown:
        raise HomeError(f"{config}: unknown key(s) in [judge]: {', '.join(sorted(unknown))}; "
                        f"known: {', '.join(sorted(KNOWN_JUDGE_KEYS))}")
    address = judge.get("address")
    if not isinstance(address, str):
        raise HomeError(f"{config}: [judge] address must be a mail address in quotes, such as "
                        f'address = "judge@example.org"')
    problem = judge_address_problem(address)
    if problem:
        raise HomeError(f"{config}: [judge] address: {problem}")
    for section in ("inbox", "outbox"):
        if section not in data:
            raise HomeError(f"{config}: the [{section}] section is missing (see docs/mail.md)")
    if "mails_per_tick" in judge and "mails_per_fetch" in judge:
        raise HomeError(f"{config}: [judge] mails_per_tick is the old name of mails_per_fetch: keep only "
                        f"mails_per_fetch")
    # mails_per_tick (homes created before tick_seconds) capped the mails one tick read; a tick is
    # now bounded by time, and the number says how many mails are fetched at a time.
    fetch_key = "mails_per_tick" if "mails_per_tick" in judge else "mails_per_fetch"
    return Home(path=path, address=address.lower(), name=str(judge.get("name", "pbem judge")),
                outage_minutes=_number(config, judge, "outage_minutes", 30, float),
                tick_seconds=_number(config, judge, "tick_seconds", DEFAULT_TICK_SECONDS, float),
                mails_per_fetch=_number(config, judge, fetch_key, DEFAULT_MAILS_PER_FETCH, int),
                at_once_per_phase=_number(config, judge, "at_once_per_phase", 30, int),
                admin=_admin(config, judge), inbox=dict(data["inbox"]), outbox=dict(data["outbox"]))


def _admin(config: Path, judge: dict) -> str | None:
    """[judge] admin: an address the judge can write to, or a HomeError saying what is wrong."""
    if "admin" not in judge:
        return None
    value = judge["admin"]
    problem = address_problem(value) if isinstance(value, str) and "@" in value else \
        "it must be one mail address in quotes"
    if problem:
        raise HomeError(f"{config}: [judge] admin = {value!r}: {problem}, such as admin = \"judge-admin@example.org\" "
                        f"(or remove the line)")
    return value.lower()


def _number(config: Path, judge: dict, key: str, default: float, kind: type) -> Any:
    """A [judge] number above 0, or a HomeError naming the key and the fix."""
    value = judge.get(key, default)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    if not ok or (kind is int and not isinstance(value, int)):
        raise HomeError(f"{config}: [judge] {key} must be a {'whole ' if kind is int else ''}number above 0, "
                        f"not {value!r} (default {default})")
    return kind(value)
