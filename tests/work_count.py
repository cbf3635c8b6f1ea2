"""Work measured by counting, not by the clock: a test bounds what the code does (calls made,
characters scanned), which is the same on a loaded 2-core machine as on an idle one.

`calls(fn, *args)` counts every Python function entered and every C function called from
Python while `fn` runs (sys.setprofile). The count depends only on the code and its input, so a
test can put a budget on it, or compare the work on inputs of size n and 4n to catch a
quadratic regression. Speed itself is measured by the benchmarks in bench/, not by tests.
"""
from __future__ import annotations

import sys
import threading
from typing import Any, Callable


class CallCounter:
    """A context manager counting calls in this thread and in threads started inside it."""

    def __init__(self) -> None:
        self.count = 0

    def _profile(self, frame, event, arg) -> None:
        if event == "call" or event == "c_call":
            self.count += 1

    def __enter__(self) -> "CallCounter":
        self._old, self._old_threads = sys.getprofile(), threading.getprofile()
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(self._old)
        threading.setprofile(self._old_threads)


def calls(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[int, Any]:
    """(the number of calls `fn(*args, **kwargs)` made, its result)."""
    with CallCounter() as counter:
        result = fn(*args, **kwargs)
    return counter.count, result


class ScannedStr(str):
    """A string that counts the characters its `find` and `startswith` look at, so a test sees
    a scanner that rereads the rest of its input at each step (a quadratic scan done in C,
    which a call count misses). Slices of it are plain strings: hand it to the scanning loop
    itself."""

    scanned = 0

    def find(self, sub, start=0, end=None):  # type: ignore[override]
        stop = len(self) if end is None else min(end, len(self))
        found = str.find(self, sub, start, stop)
        ScannedStr.scanned += ((found + len(sub)) if found >= 0 else stop) - start
        return found

    def startswith(self, prefix, start=0, end=None):  # type: ignore[override]
        longest = max(len(p) for p in prefix) if isinstance(prefix, tuple) else len(prefix)
        ScannedStr.scanned += longest
        return str.startswith(self, prefix, start, end)
