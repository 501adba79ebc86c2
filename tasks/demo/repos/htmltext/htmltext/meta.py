"""Page metadata: title, description, language, headings and a few counts."""

from .base import BaseParser, collapse

__all__ = ["extract_meta"]


class MetaExtractor(BaseParser):
    """Collect title, meta tags, language and headings."""

    SKIP = frozenset(["script", "style", "noscript", "template", "svg", "math"])

    def __init__(self):
        super().__init__()
        self.title = None
        self.meta = {}
        self.lang = None
        self.canonical = None
        self.headings = []
        self.counts = {"links": 0, "images": 0, "tables": 0, "paragraphs": 0}
        self._title = None
        self._heading = None

    def start(self, tag, attrs):
        d = {k: (v or "") for k, v in attrs}
        if tag == "html" and d.get("lang") and self.lang is None:
            self.lang = d["lang"].strip()
        elif tag == "title" and self.title is None:
            self._title = []
        elif tag == "meta":
            key = (d.get("name") or d.get("property") or d.get("http-equiv") or "").strip().lower()
            if key and "content" in d and key not in self.meta:
                self.meta[key] = collapse(d["content"])
        elif tag == "link" and "canonical" in d.get("rel", "").lower().split():
            self.canonical = d.get("href", "").strip() or None
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = (int(tag[1]), [])
        elif tag == "a" and "href" in d:
            self.counts["links"] += 1
        elif tag == "img":
            self.counts["images"] += 1
        elif tag == "table":
            self.counts["tables"] += 1
        elif tag == "p":
            self.counts["paragraphs"] += 1

    def end(self, tag):
        if tag == "title" and self._title is not None:
            self.title = collapse("".join(self._title))
            self._title = None
        elif self._heading is not None and tag == "h%d" % self._heading[0]:
            text = collapse("".join(self._heading[1]))
            if text:
                self.headings.append({"level": self._heading[0], "text": text})
            self._heading = None

    def data(self, text):
        if self._title is not None:
            self._title.append(text)
        if self._heading is not None:
            self._heading[1].append(text)


def extract_meta(html):
    """Return a dict describing the page.

    Keys: ``title`` (``<title>``, else ``og:title``), ``description`` (meta
    description, else ``og:description``), ``lang`` (``<html lang>``, else
    ``content-language``), ``headings`` (list of ``{"level", "text"}`` in
    document order), ``keywords`` (list), ``author``, ``canonical`` and
    ``counts`` of links, images, tables and paragraphs. Missing values are
    ``None`` (or empty lists).
    """
    p = MetaExtractor()
    p.feed(html)
    p.close()
    m = p.meta
    keywords = [k.strip() for k in (m.get("keywords") or "").split(",") if k.strip()]
    return {
        "title": p.title or m.get("og:title") or None,
        "description": m.get("description") or m.get("og:description") or None,
        "lang": p.lang or m.get("content-language") or None,
        "headings": p.headings,
        "keywords": keywords,
        "author": m.get("author") or None,
        "canonical": p.canonical,
        "counts": p.counts,
    }
