"""A real browser for the tests: Debian's Chromium driven by the `playwright` package (no
browser download: it launches /usr/bin/chromium). Missing on a laptop: the tests skip, saying
why; under CI=true they fail (conftest.skip_or_fail), so CI never passes without them."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Iterator

CHROMIUM = Path("/usr/bin/chromium")


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install '.[test]')"
    return None


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium (playwright's Browser), closed after."""
    from playwright.sync_api import sync_playwright
    # Chromium refuses to run as root with its sandbox (CI runs as root): only then without it.
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            yield browser
        finally:
            browser.close()
