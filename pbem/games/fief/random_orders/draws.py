"""The generator's draws and the order language it writes: every choice comes from the ``Rng``
it is handed (so the same view and seed give the same text), and the orders are written as a
player writes them, YAML in block style with flow-style values."""
from __future__ import annotations

import json
import re
from typing import Any, Sequence, TypeVar

from pbem.rules.rng import Rng

T = TypeVar("T")
Item = dict[str, Any]            # one `- key: value` order, its keys in the order written
_PLAIN = re.compile(r"^[A-Za-z0-9À-ÿ][A-Za-z0-9À-ÿ _.-]*$")
_WORDS = {"yes", "no", "on", "off", "true", "false", "null", "y", "n", "~"}


class Draws:
    """The choices a random player makes, each one draw of ``rng``."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.choice(range(n), "random orders") if n > 0 else 0

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def pick(self, items: Sequence[T]) -> T:
        return self.rng.choice(items, "random orders")

    def some(self, items: Sequence[T], most: int | None = None) -> list[T]:
        """A few of ``items`` (none possibly), in a random order, without repeats."""
        pool = list(items)
        self.rng.shuffle(pool, "random orders")
        return pool[:self.below(min(len(pool), len(pool) if most is None else most) + 1)]

    def count(self, most: int) -> int:
        """1 to ``most``, small numbers likelier (a player buys a few)."""
        return 1 + min(self.below(max(most, 1)), self.below(max(most, 1)))


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {scalar(v)}" for k, v in value.items()) + "}"
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _WORDS and not text[0].isdigit():
        return text
    return json.dumps(text, ensure_ascii=False)   # a JSON string is a YAML double-quoted scalar


def block(key: str, items: Sequence[Item]) -> str:
    """``key:`` and its list of orders; an empty list is written ``key: []``."""
    if not items:
        return f"{key}: []\n"
    lines = [f"{key}:"]
    for item in items:
        for i, (k, v) in enumerate(item.items()):
            lines.append(f"  {'- ' if i == 0 else '  '}{k}: {scalar(v)}")
    return "\n".join(lines) + "\n"


def policies_block(values: Item) -> str:
    """``policies:``: one line a policy, a list of triggers (``surprise:``) as a block list."""
    text = "policies:\n"
    for key, value in values.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            text += "  " + block(key, value).replace("\n", "\n  ").rstrip(" ")
        else:
            text += f"  {key}: {scalar(value)}\n"
    return text
