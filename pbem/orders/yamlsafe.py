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
    if _CParser is not None:
        data = _load_fast(text, offset)
        if data is not _UNUSUAL:
            return data
    return _load_reference(text, offset)


def _load_reference(text: str, offset: int) -> Any:
    """PyYAML's own reader, scanner and composer, in Python: the reference. Every document the
    fast path declines comes here, so each problem is named as this code names it."""
    loader = _Loader(text)
    try:
        _scan(loader, offset)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise _problem(exc, offset, text, loader.last_plain) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(f"this is not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    if root is None:
        return None
    counter = [0]
    return _build(root, 0, counter, offset, set())


# libyaml's parser (PyYAML's C extension) reads a plain order document more than ten times
# faster than PyYAML's Python one, which the reference path below runs twice (_scan, then the
# composer). The fast path builds YMap/YSeq straight from libyaml's events in one pass, and
# only for a document it can take as it is: one document, no tag, anchor or alias, nesting
# and size within the limits, no duplicate or merge key, keys plain scalars. Anything else —
# every mistake, every hostile construct, and any document libyaml refuses — goes to the
# reference path, which alone words the problems (with PyYAML's marks and messages, which
# _problem knows). The two parsers read documents they both accept alike (a differential test
# over mutated orders: tests/test_yaml_fast.py); where libyaml accepts a document that PyYAML
# refuses, the result would differ, so _FAST_DECLINES sends the constructs where the two are
# known to part (found by that test) to the reference path too.
# None when PyYAML was built without libyaml: the reference path then reads everything.
_CParser: Any = getattr(getattr(yaml, "cyaml", None), "CParser", None)
_UNUSUAL = object()


class _Unusual(Exception):
    """The fast path declines the document."""


def _load_fast(text: str, offset: int) -> Any:
    """The document as the reference path would return it, or _UNUSUAL."""
    if _fast_declines(text):
        return _UNUSUAL
    parser = _CParser(text)
    try:
        return _compose_fast(parser.get_event, offset)
    except (_Unusual, yaml.YAMLError):
        return _UNUSUAL
    finally:
        parser.dispose()


def _compose_fast(get: Any, offset: int) -> Any:
    get()  # StreamStartEvent
    event = get()
    if type(event) is yaml.StreamEndEvent:
        return None
    root: Any = _UNUSUAL
    stack: list[Any] = []        # the open collections, innermost last
    keys: list[Any] = []         # per open collection: a mapping's key waiting for its value
    nodes = 0
    while True:
        event = get()
        kind = type(event)
        if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            stack.pop()
            keys.pop()
            continue
        if kind is yaml.DocumentEndEvent:
            break
        if kind is not yaml.ScalarEvent and kind is not yaml.MappingStartEvent and kind is not yaml.SequenceStartEvent:
            raise _Unusual  # an alias
        if event.anchor is not None or event.tag not in (None, "!"):
            raise _Unusual
        nodes += 1
        if nodes > MAX_NODES:
            raise _Unusual
        line = event.start_mark.line + 1 + offset
        top = stack[-1] if stack else None
        if type(top) is YMap and keys[-1] is _UNUSUAL:   # a key
            if kind is not yaml.ScalarEvent or event.value == "<<" or event.value in top:
                raise _Unusual
            keys[-1] = (event.value, line)
            continue
        if kind is yaml.ScalarEvent:
            value: Any = event.value
            if value in ("", "~") and event.implicit[0] and not event.style:
                value = None
        else:
            value = YMap() if kind is yaml.MappingStartEvent else YSeq()
            value.line = line
        if top is None:
            root = value
        elif type(top) is YSeq:
            top.append(value)
            top.item_lines.append(line)
        else:
            key, key_line = keys[-1]
            top[key] = value
            top.key_lines[key] = key_line
            keys[-1] = _UNUSUAL
        if kind is not yaml.ScalarEvent:
            stack.append(value)
            keys.append(_UNUSUAL)
            if len(stack) > MAX_DEPTH:
                raise _Unusual
    if type(get()) is not yaml.StreamEndEvent:
        raise _Unusual  # a second document
    return root


# Where libyaml 0.2.5 reads a document otherwise than PyYAML (tests/test_yaml_fast.py found
# them): a tab (PyYAML takes none in plain text; libyaml takes some), a `?` inside a flow
# collection (`[Tours?]`: PyYAML ends a plain scalar there, libyaml does not), a byte-order
# mark (U+FEFF: libyaml skips it anywhere, PyYAML only at the start), and a comment right
# after a block scalar's `|` or `>` (PyYAML wants a space before the `#`).
_FAST_DECLINES = re.compile("\t|\ufeff|[|>][-+0-9]*#")


def _fast_declines(text: str) -> bool:
    return ("?" in text and ("[" in text or "{" in text)) or _FAST_DECLINES.search(text) is not None


class _Loader(yaml.SafeLoader):
    """The safe loader, remembering the last plain scalar it scanned: when a `:` turns up
    where no key may start, that scalar tells which line the player must change."""

    last_plain: Any = None

    def fetch_plain(self) -> None:
        super().fetch_plain()
        self.last_plain = self.tokens[-1]


def _events(loader: _Loader):
    while loader.check_event():
        yield loader.get_event()


def _scan(loader: _Loader, offset: int) -> None:
    """Refuse what orders never need before anything is built from it, with the event stream
    (PyYAML's parser keeps an explicit stack, while its composer recurses): nesting deeper
    than MAX_DEPTH (a few thousand `[` would otherwise exhaust Python's recursion limit) and
    tags (`!!python/...` or `!!int`: a value is always text). Aliases are refused by _build:
    the composer makes an alias the very node it names, so composing a bomb costs nothing."""
    depth = nodes = 0
    for event in _events(loader):
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


# PyYAML's problem_mark is where its scanner gave up, often below the mistake: a key missing
# its colon is only noticed at the next line (or the end of the text), an unclosed quote or
# bracket at the end of the text. _problem names the line the player must change instead.
# KEYLIKE: `word value` with a lowercase word, as an order key missing its colon looks. The
# value ends on a non-space (not `\S.*?` before `\s*$`: that backtracked over every split of
# a long run of spaces, 30 s for 64,000; tests/test_regex_backtracking.py).
KEYLIKE = re.compile(r"^(?:-[ \t]+)*([a-z_][a-z0-9_]*)[ \t]+(\S(?:.*\S)?)\s*$")
_INDENTATION = ("the indentation of this line does not match the lines above",
                "fix the indentation: keys of one order start in the same column, and each list item (`- `) in "
                "the column of the others; indent with spaces")


def _problem(exc: yaml.MarkedYAMLError, offset: int, text: str, last_plain: Any) -> YamlProblem:
    mark, what, hint = _cause(exc, text.split("\n"), last_plain)
    line = mark + 1 + offset if mark is not None else None
    return YamlProblem(f"this is not valid YAML: {what}", line, hint)


def _cause(exc: yaml.MarkedYAMLError, lines: list[str], last_plain: Any) -> tuple[int | None, str, str]:
    """(0-based line to change, what is wrong, how to fix it) for one of PyYAML's errors."""
    problem, context = exc.problem or "", exc.context or ""
    at = exc.problem_mark.line if exc.problem_mark is not None else None
    opened = exc.context_mark
    if "anchor" in problem + context or "alias" in problem + context:
        return at, problem or context, "anchors and aliases (& and *) are not allowed in orders"
    if context == "while scanning a simple key" and opened is not None:
        return opened.line, "this line is not `key: value`", _no_colon_hint(lines[opened.line])
    if context.startswith("while scanning a quoted scalar") and opened is not None:
        quote = lines[opened.line][opened.column:opened.column + 1] or '"'
        return opened.line, "a quote opened on this line is never closed", \
            f"close the quote ({quote}) at the end of the value, or remove it"
    if context.startswith("while parsing a flow") and opened is not None:
        bracket = lines[opened.line][opened.column:opened.column + 1] or "["
        return opened.line, f"a `{bracket}` opened on this line is never closed", \
            f"close the `{bracket}` on the same line, after the last item"
    if "found character '\\t'" in problem or "\t" in problem:
        return at, "a tab in the indentation", "YAML does not allow tabs for indentation: use spaces"
    if problem == "mapping values are not allowed here" and exc.problem_mark is not None:
        return _stray_colon(exc.problem_mark.line, exc.problem_mark.column, lines, last_plain)
    if "that cannot start any token" in problem:
        return at, problem.replace("found character", "the character"), \
            "put the value in quotes: `key: \"...\"`"
    if context == "expected a single document in the stream":
        return at, "`---` starts a second YAML document", \
            "one mail carries one order document: remove the `---` line and what follows it"
    if problem.startswith(("expected <block end>", "did not find expected")):
        return at, _INDENTATION[0], _INDENTATION[1]
    mark = exc.problem_mark or exc.context_mark
    return (mark.line if mark is not None else None), problem or context or "unreadable YAML", \
        "check the indentation and the colon after each key"


def _stray_colon(at: int, column: int, lines: list[str], last_plain: Any) -> tuple[int, str, str]:
    """A `:` where no key may start. The plain text before it either ran on from the line
    above (that line lacks its own colon, or this line is indented too far to be a key of
    its own) or sits on this very line (a value holding `: `)."""
    start = getattr(last_plain, "start_mark", None)
    end = getattr(last_plain, "end_mark", None)
    if start is not None and end is not None and end.line == at and end.column <= column and start.line < at:
        before = lines[start.line][:start.column].replace("-", " ").strip()
        if not before:  # the text began where a key begins: that line lacks its colon
            return start.line, "this line is not `key: value`", _no_colon_hint(lines[start.line])
        return at, _INDENTATION[0], _INDENTATION[1]
    return at, "a second `: ` on this line", "a value that contains `: ` must be in quotes: `key: \"a: b\"`"


def _no_colon_hint(text: str) -> str:
    keylike = KEYLIKE.match(text.strip())
    if keylike and len(keylike.group(2).split()) <= 2:
        return (f"put a colon after the key: `{keylike.group(1)}: {keylike.group(2)[:40]}` (if the line "
                "is a note, remove it or start it with `#`)")
    return "this line is not an order: remove it, or start it with `#` to keep it as a comment"


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
