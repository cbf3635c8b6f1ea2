"""Reading an order document: the helpers every game's order checker shares.

A game's orders arrive as YAML whose every scalar is text (pbem.orders.yamlsafe). These helpers
turn that text into names, numbers and yes/no answers, or an OrderError naming the line and the
fix, and collect the errors of one mail in ``Problems``. What is a game's own (a town of its
board, its phases' verbs) stays in the game.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Any, Iterable, Iterator, Mapping

from pbem.orders.yamlsafe import YSeq, line_of
from pbem.rules.api import OrderError


def fold(text: str) -> str:
    """Case- and accent-insensitive key: "ORLEANS" and "Orléans" fold alike."""
    norm = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in norm if not unicodedata.combining(c)).lower()
                    .replace("-", " ").replace("_", " ").split())


class Problems(list):
    """The OrderErrors found so far in one mail."""

    def add(self, line: int | None, message: str, hint: str = "") -> None:
        self.append(OrderError(line, message, hint))


def suggest(word: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    close = difflib.get_close_matches(fold(str(word)), [fold(c) for c in choices], n=1)
    if close:
        match = next(c for c in choices if fold(c) == close[0])
        return f"did you mean `{match}`?"
    return "use one of: " + ", ".join(choices)


def check_keys(mapping: Mapping[str, Any], allowed: Iterable[str], where: str, problems: Problems) -> None:
    allowed = list(allowed)
    for key in mapping:
        if key not in allowed:
            problems.add(line_of(mapping, key), f"unknown key `{key}` in {where}", suggest(key, allowed))


def as_seq(value: Any, line: int | None, what: str, problems: Problems) -> list:
    """A scalar counts as a one-item list, so `start: Tours` works like `start: [Tours]`."""
    if value is None:
        problems.add(line, f"{what} is empty", f"write {what} after the colon")
        return []
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        problems.add(line, f"{what} must be a name or a list of names, not a mapping")
        return []
    return [value]


_DIGITS = re.compile(r"[0-9]+")


def whole_number(text: Any, line: int | None, what: str, problems: Problems, low: int = 1) -> int | None:
    # Plain ASCII digits only: Python's int() would also take `1_0` and other scripts' digits.
    shown = str(text).strip()
    if not _DIGITS.fullmatch(shown) or len(shown) > 6:
        too_large = bool(_DIGITS.fullmatch(shown))
        shown = shown if len(shown) <= 20 else shown[:20] + "..."
        problems.add(line, f"{what} {'is far too large' if too_large else 'must be a whole number'}, "
                     f"not {shown!r}", f"write e.g. `{what}: 2`")
        return None
    value = int(shown)
    if value < low:
        problems.add(line, f"{what} must be at least {low}, not {value}", f"write e.g. `{what}: {low}`")
        return None
    return value


def yes_no(item: Mapping[str, Any], key: str, problems: Problems, hint: str = "") -> bool | None:
    """An optional `key: yes|no` (default no); None when it is neither."""
    answer = {"yes": True, "true": True, "no": False, "false": False}.get(fold(str(item.get(key, "no"))))
    if answer is None:
        shown = "empty" if item[key] is None else repr(item[key])
        problems.add(line_of(item, key), f"`{key}:` is yes or no, not {shown}", hint or f"write `{key}: yes`")
    return answer


def order_items(document: Any, problems: Problems) -> YSeq | list:
    """The `orders:` list of a document (None or missing: no orders)."""
    orders = document.get("orders") if isinstance(document, dict) else None
    if orders is None:
        return []
    if not isinstance(orders, list):
        problems.add(line_of(document, "orders"), "`orders:` must be a list of orders, each starting with `- `",
                     "write one order per line, e.g. `  - buy: knight`")
        return []
    return orders


def each_order(items: list, verbs: Iterable[str], problems: Problems) -> Iterator[tuple[Any, str, int | None]]:
    """The `(item, verb, line)` of each order of an `orders:` list whose verb is one of
    ``verbs``; an item without exactly one known verb is reported and skipped."""
    verbs = tuple(verbs)
    for index, item in enumerate(items):
        line = line_of(items, index)
        verb = verb_of(item, verbs, line, problems)
        if verb is not None:
            yield item, verb, line


def verb_of(item: Any, verbs: Iterable[str], line: int | None, problems: Problems) -> str | None:
    verbs = list(verbs)
    if not isinstance(item, dict) or not item:
        problems.add(line, "each order must be a mapping such as `- buy: knight`",
                     "orders this phase: " + ", ".join(verbs))
        return None
    found = [k for k in item if k in verbs]
    if len(found) == 1:
        return found[0]
    if found:
        problems.add(line, f"one order per item: this item has {', '.join(found)}", "start a new `- ` item for each")
        return None
    first = next(iter(item))
    problems.add(line_of(item, first), f"`{first}` is not an order of this phase", suggest(first, verbs))
    return None
