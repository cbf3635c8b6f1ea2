"""Safe, bounded YAML loading that keeps line numbers.

Order mails come from the open internet, so the loader:
- refuses anchors and aliases outright (no alias-expansion bombs, and orders never need them);
- caps the document's size, nesting depth and node count;
- reads every scalar as text, so YAML 1.1's implicit typing traps (``no`` -> False, ``on``,
  ``1e3``, ``0x1F``, ``12:30`` as sexagesimal) cannot change what a player wrote; rules
  convert text to numbers themselves, with errors that name the line;
- rejects duplicate keys (the second would silently win otherwise).

Mappings load as ``YMap`` and sequences as ``YSeq``: a dict / list that also knows the 1-based
line of itself and of each of its entries, so errors can say where the problem is.
"""
from __future__ import annotations

import re
from typing import Any

import yaml

MAX_BYTES = 64 * 1024
MAX_DEPTH = 16
MAX_NODES = 5000
# What the YAML 1.1 reader refuses (PyYAML's Reader.NON_PRINTABLE).
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


class YamlProblem(Exception):
    """The document is not acceptable YAML; ``line`` is 1-based or None."""

    def __init__(self, message: str, line: int | None = None, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.hint = hint


class YMap(dict):
    """A mapping that knows its line and the line of each key (1-based)."""

    line: int = 0

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.key_lines: dict[str, int] = {}

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class YSeq(list):
    """A sequence that knows its line and the line of each item (1-based)."""

    line: int = 0

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


def sub_map(mapping: Any, keep: Any) -> YMap:
    """The entries of ``mapping`` whose key satisfies ``keep(key)``, with their lines: a mail's
    document split in parts still points at the mail's own lines."""
    part = YMap((k, v) for k, v in mapping.items() if keep(k))
    part.line = getattr(mapping, "line", 0)
    part.key_lines = {k: n for k, n in getattr(mapping, "key_lines", {}).items() if k in part}
    return part


def line_of(container: Any, key: Any) -> int | None:
    """The line of ``container[key]`` when ``container`` came from this loader."""
    if isinstance(container, (YMap, YSeq)):
        return container.line_of(key)
    return None


def load(text: str, first_line: int = 1) -> Any:
    """Load one YAML document. ``first_line`` is the line number, in the whole mail, of the
    document's first line, so reported lines match what the player sees in their mail."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise YamlProblem(f"the order document is larger than {MAX_BYTES // 1024} KiB",
                          hint="send only your orders; one phase's orders are a few lines")
    offset = first_line - 1
    bad = _NON_PRINTABLE.search(text)
    if bad:  # PyYAML would say "position 74" of a string the player never saw: give the line
        raise YamlProblem(f"this is not valid YAML: the character U+{ord(bad.group()):04X} cannot appear in orders",
                          text.count("\n", 0, bad.start()) + first_line,
                          "retype this line as plain text (a control character or NUL byte came with it)")
    try:
        _scan(text, offset)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.composer.ComposerError as exc:  # pragma: no cover - compose raises MarkedYAMLError
        raise _problem(exc, offset) from None
    except yaml.MarkedYAMLError as exc:
        raise _problem(exc, offset) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(f"this is not valid YAML: {exc}") from None
    if root is None:
        return None
    counter = [0]
    return _build(root, 0, counter, offset, set())


def _scan(text: str, offset: int) -> None:
    """Refuse what orders never need before anything is built from it, with the event stream
    (PyYAML's parser keeps an explicit stack, while its composer recurses): nesting deeper
    than MAX_DEPTH (a few thousand `[` would otherwise exhaust Python's recursion limit) and
    tags (`!!python/...` or `!!int`: a value is always text). Aliases are refused by _build:
    the composer makes an alias the very node it names, so composing a bomb costs nothing."""
    depth = nodes = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        line = event.start_mark.line + 1 + offset
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent, yaml.AliasEvent)):
            nodes += 1  # keys are events too: a document within MAX_NODES entries has at most twice as many
            if nodes > 2 * MAX_NODES:
                raise YamlProblem(f"the order document has more than {MAX_NODES} entries", line,
                                  "send only your orders for this phase")
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)) and event.tag not in (None, "!"):
            tag = event.tag.replace("tag:yaml.org,2002:", "!!")[:40]
            raise YamlProblem(f"tags such as {tag} are not allowed in orders", line,
                              "write the value alone: every value is read as text")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlProblem(f"the order document is nested more than {MAX_DEPTH} levels deep", line,
                                  "orders need only a few levels of indentation")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _problem(exc: yaml.MarkedYAMLError, offset: int) -> YamlProblem:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 + offset if mark is not None else None
    what = exc.problem or exc.context or "unreadable YAML"
    hint = "check the indentation and the colon after each key"
    if "found character '\\t'" in str(exc) or "\t" in what:
        hint = "YAML does not allow tabs for indentation: use spaces"
    if "anchor" in what or "alias" in what:
        hint = "anchors and aliases (& and *) are not allowed in orders"
    return YamlProblem(f"this is not valid YAML: {what}", line, hint)


def _build(node: yaml.Node, depth: int, counter: list[int], offset: int, seen: set[int]) -> Any:
    counter[0] += 1
    line = node.start_mark.line + 1 + offset
    # The composer turns an alias into the very node it names: meeting a node twice is an alias.
    if id(node) in seen:
        raise YamlProblem("aliases (*name) are not allowed in orders", line,
                          "write each order out in full")
    seen.add(id(node))
    if counter[0] > MAX_NODES:
        raise YamlProblem(f"the order document has more than {MAX_NODES} entries", line,
                          "send only your orders for this phase")
    if depth > MAX_DEPTH:
        raise YamlProblem(f"the order document is nested more than {MAX_DEPTH} levels deep", line,
                          "orders need only a few levels of indentation")
    if isinstance(node, yaml.ScalarNode):
        if node.tag == "tag:yaml.org,2002:null" and node.value in ("", "~") and node.style is None:
            return None
        return node.value
    if isinstance(node, yaml.SequenceNode):
        seq = YSeq()
        seq.line = line
        for item in node.value:
            seq.append(_build(item, depth + 1, counter, offset, seen))
            seq.item_lines.append(item.start_mark.line + 1 + offset)
        return seq
    if isinstance(node, yaml.MappingNode):
        mapping = YMap()
        mapping.line = line
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1 + offset
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlProblem("a key must be a plain word", key_line, "write `key: value`")
            if key_node.tag == "tag:yaml.org,2002:merge" or key_node.value == "<<":
                raise YamlProblem("merge keys (<<) are not allowed in orders", key_line,
                                  "write each order out in full")
            key = key_node.value
            if key in mapping:
                shown = key if len(key) <= 60 else key[:60] + "..."  # an answer never carries a long echo
                raise YamlProblem(f"the key `{shown}` is given twice", key_line,
                                  f"keep one `{shown}` (first given on line {mapping.key_lines[key]})")
            mapping[key] = _build(value_node, depth + 1, counter, offset, seen)
            mapping.key_lines[key] = key_line
        return mapping
    raise YamlProblem("unsupported YAML construct", line)  # pragma: no cover
