"""The command line (DESIGN.md, layer 4): `pbem tick` for cron, `pbem game ...` for game
masters, `pbem demo` to see everything work on the embedded default. Every error is one line
naming the problem and the fix, with a non-zero exit; never a traceback.

One module per group of commands: base (the `pbem` group and what every command shares),
judge (init, tick, outbox, export, replay, map, demo), game (a game's life), inbox (the mails kept
after an error of the judge's own), seats (observers,
replacements, settings, stand-ins), site (the static archive). `pbem.cli:main` is the entry point."""
from __future__ import annotations

from pbem.cli import game, inbox, judge, seats, site  # noqa: F401  (each registers its commands on main)
from pbem.cli.base import main

__all__ = ["main"]
