"""Shared HTML parsing helpers: decoding and a parser base class."""

import codecs
import re
import sys
from html.parser import HTMLParser

__all__ = ["VOID", "HTMLError", "BaseParser", "decode_html", "read_html", "collapse"]

VOID = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)

_WS = re.compile(r"[\s\u200b\u00ad]+")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_\-:.]+)""", re.I)


class HTMLError(Exception):
    """Raised when an input document cannot be read."""


def collapse(text):
    """Collapse runs of whitespace (incl. non-breaking spaces) to one space and strip."""
    return _WS.sub(" ", text).strip()


def decode_html(data):
    """Decode HTML bytes: BOM, then ``<meta charset>``, then UTF-8, then Windows-1252."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                     (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace")
    m = _CHARSET.search(data[:4096])
    if m:
        enc = m.group(1).decode("ascii", "replace")
        try:
            codecs.lookup(enc)
            if codecs.lookup(enc).name not in ("utf-16-le", "utf-16-be", "utf-16"):
                return data.decode(enc, errors="replace")
        except LookupError:
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_html(path):
    """Read and decode the file ``path`` (``-`` = standard input)."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        raise HTMLError("cannot read %s: %s" % (path, exc.strerror or exc))
    head = data[:8192]
    if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise HTMLError("%s looks like a binary file, not HTML or text" % path)
    return decode_html(data)


def is_hidden(attrs):
    """True for elements a browser would not display (hidden, aria-hidden, display:none)."""
    d = dict(attrs)
    if "hidden" in d:
        return True
    if (d.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = (d.get("style") or "").replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


class BaseParser(HTMLParser):
    """HTMLParser that drops the content of non-visible elements.

    Subclasses implement :meth:`start`, :meth:`end` and :meth:`data`, which are
    only called outside skipped elements (``SKIP`` tags such as script and
    style, and elements hidden with ``hidden``/``aria-hidden``/``display:none``
    when ``skip_hidden`` is true). Entities are decoded by the parser.
    """

    SKIP = frozenset(["script", "style", "noscript", "template", "svg", "math", "head",
                      "iframe", "object", "canvas", "select"])

    def __init__(self, skip_hidden=True):
        super().__init__(convert_charrefs=True)
        self.skip_hidden = skip_hidden
        self._skip_tag = None
        self._skip_depth = 0

    # -- hooks ---------------------------------------------------------------
    def start(self, tag, attrs):  # pragma: no cover - overridden
        pass

    def end(self, tag):  # pragma: no cover - overridden
        pass

    def data(self, text):  # pragma: no cover - overridden
        pass

    def skipped_start(self, tag, attrs):
        """Called for start tags that open a skipped element (e.g. <title> in <head>)."""

    def skipped_data(self, text):
        """Called for text inside skipped elements."""

    # -- HTMLParser callbacks ------------------------------------------------
    def handle_starttag(self, tag, attrs):
        if self._skip_tag == "head" and tag == "body":
            # a <head> that was never closed ends where <body> starts
            self._skip_tag, self._skip_depth = None, 0
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth += 1
            self.skipped_start(tag, attrs)
            return
        if tag not in VOID and (tag in self.SKIP or (self.skip_hidden and is_hidden(attrs))):
            self._skip_tag, self._skip_depth = tag, 1
            self.skipped_start(tag, attrs)
            return
        self.start(tag, attrs)
        if tag in VOID:
            self.end(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth -= 1
                if self._skip_depth == 0:
                    self._skip_tag = None
            return
        if tag in VOID:
            return
        self.end(tag)

    def handle_data(self, text):
        if self._skip_tag is not None:
            self.skipped_data(text)
        else:
            self.data(text)
