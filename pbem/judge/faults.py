"""Named fault points, so tests can kill the judge at a chosen step and prove that nothing is lost
(docs/reliability.md).

The judge calls ``fault_point("after-fetch")`` at each step of a tick. Three environment
variables act on them (tests set them; a judge in service sets none, and then a fault point
costs three dictionary lookups):

- ``PBEM_FAULT=name`` or ``name@N``: the process kills itself with SIGKILL at that point (its
  Nth passage, counting from 1): no cleanup, no ``finally``, no flush, exactly as a crash, the
  OOM killer or a power cut would end it.
- ``PBEM_FAULT_DELAY=name=SECONDS[,name=SECONDS]``: sleep there, so a concurrency test can hold
  a tick inside a transaction while another command runs.
- ``PBEM_FAULT_TRACE=FILE``: append each point passed to FILE, so a test learns where a tick
  goes and plans kills that will happen.

The points, in the order a tick reaches them, are ``POINTS``.
"""
from __future__ import annotations

import os
import signal
import time

POINTS = (
    "after-fetch",            # mail fetched from the inbox, nothing handled yet
    "in-mail-commit",         # inside a mail's transaction: orders and answer written, not committed
    "after-mail-commit",      # a group of mails committed, none of it yet marked done in the inbox
    "in-resolution",          # inside a resolution's transaction: one phase resolved, the chain not done
    "in-resolution-commit",   # inside a resolution's transaction: reports queued, not committed
    "after-resolution",       # a resolution committed, the outbox not sent
    "mid-send",               # one mail handed to the server, its sent mark not committed
    "after-send",             # the outbox sent and marked, the tick not recorded
)

_count: dict[str, int] = {}


def _wanted() -> tuple[str, int] | None:
    spec = os.environ.get("PBEM_FAULT")
    if not spec:
        return None
    name, _, nth = spec.partition("@")
    return name, int(nth) if nth.isdigit() else 1


def fault_point(name: str) -> None:
    """Trace, sleep or die here, as the environment asks (see the module's docstring)."""
    trace = os.environ.get("PBEM_FAULT_TRACE")
    if trace:
        with open(trace, "a", encoding="ascii") as handle:
            handle.write(name + "\n")
    delays = os.environ.get("PBEM_FAULT_DELAY")
    if delays:
        _delay(name, delays)
    wanted = _wanted()
    if wanted is None or wanted[0] != name:
        return
    _count[name] = _count.get(name, 0) + 1
    if _count[name] == wanted[1]:
        os.kill(os.getpid(), signal.SIGKILL)


def _delay(name: str, spec: str) -> None:
    for item in spec.split(","):
        point, _, seconds = item.partition("=")
        if point.strip() == name:
            time.sleep(float(seconds))
