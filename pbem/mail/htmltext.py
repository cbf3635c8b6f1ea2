"""Plain-text rendering of HTML-only mail, with a small linear tokenizer (no new dependency).

Why care about whitespace: players paste YAML orders into HTML mail clients, which keep the
indentation as &nbsp; runs inside one <div> per line. So line breaks come from block elements
and <br>, ordinary whitespace collapses as a browser would, but non-breaking spaces survive as
spaces, and <pre> keeps its text verbatim.
"""

from __future__ import annotations

import re
from html import unescape

# Elements whose content is never shown to a reader.
_HIDDEN = frozenset({"script", "style", "head", "title", "template", "noscript"})
# Elements that start and end a line of their own.
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tr", "ul",
})
_COLLAPSIBLE = re.compile(r"[ \t\r\n\f]+")
_BREAK = "\x00"  # a hard line break (<br>, a newline in <pre>): always ends a line
_BLOCK_EDGE = "\x01"  # a block's edge: ends a line unless the line is still empty


# A tag as this reader takes it: a name, then anything up to the first `>` that holds no `<`.
# (A `>` inside a quoted attribute ends the tag early; mail never needs one, and what follows
# is shown as text.) The lookahead keeps the name whole: without it an unclosed `<abbb...`
# was retried at every split of name and attributes (30 s for 64,000 letters).
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)(?![A-Za-z0-9:-])([^<>]*)>")


class _TextCollector:
    """Turns tags and text into lines. Its own small tokenizer, linear in the input: the
    stdlib's html.parser rescans the rest of the document for each `<` it cannot close, so
    60 KB of `<a ` or of `<a b='x>' ` took half a minute or more."""

    def __init__(self, limit: int) -> None:
        self.chunks: list[str] = []
        self.size = 0
        self.limit = limit
        self.hidden_depth = 0
        self.pre_depth = 0

    def feed(self, html: str) -> None:
        pos, end = 0, len(html)
        while pos < end and self.size < self.limit:
            lt = html.find("<", pos)
            if lt < 0:
                self.handle_data(unescape(html[pos:]))
                return
            if lt > pos:
                self.handle_data(unescape(html[pos:lt]))
            if html.startswith("<!--", lt):
                close = html.find("-->", lt + 4)
                pos = end if close < 0 else close + 3  # an unclosed comment hides the rest
            elif html.startswith(("<!", "<?"), lt):
                close = html.find(">", lt)
                pos = end if close < 0 else close + 1  # a declaration or processing instruction
            else:
                tag = _TAG.match(html, lt)
                if tag is None:
                    self.handle_data("<")
                    pos = lt + 1
                    continue
                name = tag.group(2).lower()
                if tag.group(1):
                    self.handle_endtag(name)
                elif tag.group(3).rstrip().endswith("/"):
                    self.handle_startendtag(name)
                else:
                    self.handle_starttag(name)
                pos = tag.end()

    def _emit(self, text: str) -> None:
        if self.size >= self.limit:
            return
        self.chunks.append(text)
        self.size += len(text)

    def handle_starttag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden_depth += 1
        elif tag == "br":
            self._emit(_BREAK)
        elif tag in _BLOCK:
            self._emit(_BLOCK_EDGE)
            if tag == "pre":
                self.pre_depth += 1
            elif tag == "li":
                self._emit("* ")

    def handle_startendtag(self, tag: str) -> None:
        if tag == "br":
            self._emit(_BREAK)
        elif tag in _BLOCK:
            self._emit(_BLOCK_EDGE)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden_depth = max(0, self.hidden_depth - 1)
        elif tag in _BLOCK:
            if tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)
            self._emit(_BLOCK_EDGE)

    def handle_data(self, data: str) -> None:
        if self.hidden_depth:
            return
        if self.pre_depth:
            # Inside <pre> every space counts (kept as non-breaking) and every newline breaks.
            data = data.replace("\r\n", "\n").replace(" ", "\xa0").replace("\t", "\xa0" * 8)
            self._emit(data.replace("\n", _BREAK))
        else:
            self._emit(_COLLAPSIBLE.sub(" ", data))


def html_to_text(html: str, limit: int = 256 * 1024) -> str:
    """Render HTML as plain text a person (and the YAML order reader) can use."""
    collector = _TextCollector(limit)
    collector.feed(html[: limit * 4])
    lines: list[str] = []
    current: list[str] = []
    has_text = False  # a flag, not a join of `current` at every edge: 200,000 empty <div>s are linear
    for piece in re.split(f"([{_BREAK}{_BLOCK_EDGE}])", "".join(collector.chunks)):
        if piece == _BREAK or (piece == _BLOCK_EDGE and has_text):
            lines.append(_finish_line("".join(current)))
            current, has_text = [], False
        elif piece and piece != _BLOCK_EDGE:
            current.append(piece)
            has_text = has_text or bool(piece.strip(" "))
    lines.append(_finish_line("".join(current)))
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
    return text[:limit]


def _finish_line(line: str) -> str:
    # A browser drops collapsible spaces at a line's ends, but never non-breaking ones.
    return _COLLAPSIBLE.sub(" ", line).strip(" ").replace("\xa0", " ").rstrip()
