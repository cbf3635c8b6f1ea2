"""The tests' mail servers for a benchmark: a private Dovecot and its SMTP relay
(tests/mailservers.py: root and Dovecot needed), with a work folder, both removed after."""
from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator


@contextlib.contextmanager
def mail_servers(prefix: str) -> Iterator[tuple[Any, Path]]:
    from mailservers import missing_requirements, remove_servers, start_servers
    why = missing_requirements()
    if why:
        raise SystemExit(f"cannot start the mail servers: {why}")
    servers = start_servers()
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield servers, work
    finally:
        remove_servers(servers)
        shutil.rmtree(work, ignore_errors=True)
