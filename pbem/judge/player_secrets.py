"""A player's secret (docs/security.md, "Secrets"): drawn by the judge or chosen by the player,
kept only as a salted hash, checked in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets as secrets_module
import sqlite3
from typing import TYPE_CHECKING, Callable

from pbem.judge.store import Store

if TYPE_CHECKING:
    from pbem.judge.engine import Game


# How a player's secret is kept: only a salted hash, made by the scheme named in the player's
# row (players.secret_scheme), so secrets stored by an older pbem keep working (docs/security.md,
# "Secrets", says why two schemes).
STRETCHED = "pbkdf2-sha256-100000"   # a secret the player chose: it may be a password used elsewhere
KEYED = "hmac-sha256"                # a secret the judge drew (new_secret): 59 random bits


def hash_secret(secret: str, salt: str) -> str:
    """The STRETCHED scheme: PBKDF2-HMAC-SHA256, 100,000 rounds (every row before schema 2)."""
    return hashlib.pbkdf2_hmac("sha256", secret.encode("utf-8"), salt.encode("ascii"), 100_000).hex()


def keyed_hash(secret: str, salt: str) -> str:
    """The KEYED scheme: HMAC-SHA256 of the secret under the player's random salt."""
    return hmac.new(salt.encode("ascii"), secret.encode("utf-8"), hashlib.sha256).hexdigest()


SECRET_SCHEMES: dict[str, Callable[[str, str], str]] = {
    STRETCHED: hash_secret,
    KEYED: keyed_hash,
}


def hashed(secret: str, scheme: str) -> tuple[str, str, str]:
    """(salt, hash, scheme): what a player row (or a stand-in's absence row) keeps of ``secret``."""
    salt = secrets_module.token_hex(16)
    return salt, SECRET_SCHEMES[scheme](secret, salt), scheme


def change_secret(store: Store, game: Game, player: str, secret: str, generated: bool = False) -> None:
    """Keep only a salted hash of the player's new secret: stretched when the player chose it
    (``new_secret:``), keyed when the judge drew it (``generated``, `pbem game new-secret`)."""
    store.run("UPDATE players SET secret_salt=?, secret_hash=?, secret_scheme=? WHERE game_id=? AND name=?",
              *hashed(secret, KEYED if generated else STRETCHED), game.id, player)


def check_secret(row: sqlite3.Row, secret: str) -> bool:
    """Whether ``secret`` is the player's, by the scheme their row was hashed with; the hashes are
    compared in constant time."""
    scheme = row["secret_scheme"]
    if scheme not in SECRET_SCHEMES:
        raise RuntimeError(f"player {row['name']!r} has a secret hashed by {scheme!r}, a scheme this "
                           f"pbem does not know")
    return hmac.compare_digest(SECRET_SCHEMES[scheme](secret, row["secret_salt"]), row["secret_hash"])


def new_secret() -> str:
    """Easy to copy from a mail: three groups of four letters and digits."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "-".join("".join(secrets_module.choice(alphabet) for _ in range(4)) for _ in range(3))
