"""A noble named in an England order (the at-once verbs: 4.5-4.9, 13.2, 13.3): one name, in any
case, of a noble in play. A list, a mapping or nothing where one name is expected is an error
naming the line and the form to write, never a crash."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.orders.reading import Problems, fold, suggest
from pbem.orders.yamlsafe import line_of


def shape(value: Any) -> str:
    """What was written instead of one name, in a player's words."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return f"a list {list(value)!r}"
    if isinstance(value, Mapping):
        return f"a mapping {dict(value)!r}"
    return repr(value)


def noble_named(view: Mapping[str, Any], item: Mapping[str, Any], key: str, line: int | None,
                problems: Problems, example: str) -> str | None:
    """The noble in play that ``key:`` of ``item`` names (written in any case), or None with the
    problem told; ``example`` is the order to show (`garter: Hugh`)."""
    text = item.get(key)
    where = line_of(item, key) or line
    if not isinstance(text, str):
        problems.add(where, f"`{key}:` names one noble, not {shape(text)}", f"write e.g. `{example}`")
        return None
    lords = list(view["lords"])
    name = next((n for n in lords if fold(n) == fold(text)), None)
    if name is None:
        problems.add(where, f"`{text}` is not a noble in play", suggest(text, lords))
    return name
