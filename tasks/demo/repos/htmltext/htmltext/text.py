"""Readable text of an HTML page."""

import re

from .base import BaseParser, collapse

__all__ = ["html_to_text"]

BLOCK = frozenset("""
address article aside blockquote body caption center dd details dialog div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend
main menu nav ol p pre section summary table ul li tr
""".split())

HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())

_BR = "\x00"  # hard line break marker inside a block


class TextExtractor(BaseParser):
    """Collect the visible text of a document as a list of blocks."""

    def __init__(self, markdown=False, alt=False):
        super().__init__()
        self.markdown = markdown
        self.alt = alt
        self.blocks = []          # list of (kind, text)
        self._buf = []
        self._kind = "p"
        self._prefix = None       # pending list-item marker
        self._lists = []          # stack of [tag, counter]
        self._pre = 0
        self._cell_in_row = 0
        self._href = None

    # -- block management ------------------------------------------------------
    def _flush(self, kind=None):
        raw = "".join(self._buf)
        self._buf = []
        k = self._kind
        self._kind = kind or "p"
        if self._pre and k == "pre":
            text = raw.replace(_BR, "\n").strip("\n")
            if text.strip():
                self.blocks.append(("pre", text))
            return
        lines = [collapse(line) for line in raw.split(_BR)]
        lines = [ln for ln in lines if ln]
        if not lines:
            return
        indent = "  " * max(0, len(self._lists) - 1)
        if self._prefix is not None:
            marker = self._prefix
            self._prefix = None
            first = indent + marker + lines[0]
            rest = [indent + " " * len(marker) + ln for ln in lines[1:]]
            self.blocks.append(("li", "\n".join([first] + rest)))
            return
        if self._lists:
            pad = indent + "  "
            self.blocks.append(("li", "\n".join(pad + ln for ln in lines)))
            return
        if self.markdown and k in HEADINGS:
            lines[0] = "#" * int(k[1]) + " " + lines[0]
        self.blocks.append(("p", "\n".join(lines)))

    # -- parser hooks ------------------------------------------------------------
    def start(self, tag, attrs):
        if tag == "br":
            self._buf.append("\n" if self._pre else _BR)
            return
        if tag in ("td", "th"):
            if self._cell_in_row:
                self._buf.append(" | ")
            self._cell_in_row += 1
            return
        if tag == "img" and self.alt:
            alt = dict(attrs).get("alt")
            if alt:
                self._buf.append(" [%s] " % alt)
            return
        if tag == "a" and self.markdown:
            self._href = dict(attrs).get("href")
            self._buf.append("[")
            return
        if tag in BLOCK:
            if tag == "tr":
                # rows of a table are lines of one block
                if self._cell_in_row:
                    self._buf.append(_BR)
                self._cell_in_row = 0
                return
            self._flush(kind="pre" if tag == "pre" else tag)
            if tag == "pre":
                self._pre += 1
            if tag in ("ul", "ol", "menu"):
                self._lists.append([tag, 0])
            elif tag == "li":
                if not self._lists:
                    self._lists.append(["ul", 0])
                top = self._lists[-1]
                top[1] += 1
                self._prefix = "%d. " % top[1] if top[0] == "ol" else "- "
            elif tag == "hr":
                self._flush()

    def end(self, tag):
        if tag == "a" and self.markdown:
            if self._href:
                self._buf.append("](%s)" % self._href)
            else:
                self._buf.append("]")
            self._href = None
            return
        if tag in ("td", "th"):
            return
        if tag == "tr":
            self._buf.append(_BR)
            self._cell_in_row = 0
            return
        if tag in BLOCK:
            self._flush()
            if tag == "pre" and self._pre:
                self._pre -= 1
            if tag in ("ul", "ol", "menu") and self._lists:
                self._lists.pop()
                if not self._lists:
                    self.blocks.append(("end", ""))
            if tag in ("table", "thead", "tbody", "tfoot"):
                self._cell_in_row = 0

    def data(self, text):
        if self._pre:
            self._buf.append(text)
        else:
            self._buf.append(text.replace("\n", " "))

    def close(self):
        super().close()
        self._flush()


def html_to_text(html, markdown=False, alt=False):
    """Return the readable text of ``html``.

    Scripts, styles, ``<head>``, hidden elements and comments are dropped;
    entities are decoded; whitespace is collapsed except in ``<pre>``. Blocks
    (paragraphs, headings, table rows, ...) are separated by a blank line;
    list items are written one per line as ``- item`` or ``1. item`` (nested
    lists indented by two spaces) and table cells are joined with `` | ``.
    With ``markdown=True`` headings get ``#`` marks and links become
    ``[text](href)``; with ``alt=True`` image alt texts are kept. Input
    without any markup is returned as it is.
    """
    if not re.search(r"<[A-Za-z!/?]", html):
        # not HTML at all: a plain text file passes through unchanged
        text = re.sub(r"[ \t]+\n", "\n", html.replace("\r\n", "\n")).strip("\n")
        return text + "\n" if text else ""
    p = TextExtractor(markdown=markdown, alt=alt)
    p.feed(html)
    p.close()
    out = []
    prev = None
    for kind, text in p.blocks:
        if kind == "end":
            prev = None
            continue
        if out:
            out.append("\n" if (kind == "li" and prev == "li") else "\n\n")
        out.append(text)
        prev = kind
    result = "".join(out)
    return re.sub(r"[ \t]+\n", "\n", result) + ("\n" if result else "")
