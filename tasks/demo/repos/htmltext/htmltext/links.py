"""Hyperlinks of an HTML page."""

from urllib.parse import urljoin

from .base import BaseParser, collapse

__all__ = ["extract_links"]

# tag -> attribute holding a URL, for --all
RESOURCE_ATTRS = {
    "img": "src", "script": "src", "link": "href", "iframe": "src", "source": "src",
    "video": "src", "audio": "src", "embed": "src", "form": "action",
}
_IGNORED_SCHEMES = ("javascript:", "data:", "about:", "vbscript:")


class LinkExtractor(BaseParser):
    """Collect ``(url, text)`` pairs of ``<a href>``/``<area href>`` (and resources)."""

    SKIP = frozenset(["style", "template"])

    def __init__(self, resources=False):
        super().__init__(skip_hidden=False)
        self.resources = resources
        self.base = None
        self.links = []           # [url, text-parts]
        self._open = []           # indices of open <a> elements

    def start(self, tag, attrs):
        d = dict(attrs)
        if tag == "base" and d.get("href") and self.base is None:
            self.base = d["href"].strip()
        elif tag in ("a", "area") and d.get("href") is not None:
            self.links.append([d["href"], [] if tag == "a" else [d.get("alt") or ""]])
            if tag == "a":
                self._open.append(len(self.links) - 1)
        elif self.resources and tag in RESOURCE_ATTRS and d.get(RESOURCE_ATTRS[tag]):
            self.links.append([d[RESOURCE_ATTRS[tag]], [d.get("alt") or ""]])
        if tag == "img" and self._open and d.get("alt"):
            self.links[self._open[-1]][1].append(d["alt"])

    def end(self, tag):
        if tag == "a" and self._open:
            self._open.pop()

    def data(self, text):
        for i in self._open:
            self.links[i][1].append(text)


def extract_links(html, base=None, unique=True, fragments=False, resources=False):
    """Return a list of ``(url, text)`` for the links in ``html``.

    Relative URLs are resolved against ``base`` (or the page's ``<base href>``;
    ``base`` given here wins). ``javascript:``/``data:`` links and, unless
    ``fragments`` is true, same-page ``#anchor`` links are left out. With
    ``unique`` every URL is listed once (first occurrence). With
    ``resources`` images, scripts, stylesheets, frames and form actions are
    included too.
    """
    p = LinkExtractor(resources=resources)
    p.feed(html)
    p.close()
    root = base
    if p.base:
        root = urljoin(base, p.base) if base else p.base
    seen = set()
    out = []
    for href, parts in p.links:
        href = "".join(href.split()) if "\n" in href or "\t" in href else href.strip()
        if not href or href.lower().startswith(_IGNORED_SCHEMES):
            continue
        if href.startswith("#") and not fragments:
            continue
        url = urljoin(root, href) if root else href
        if unique:
            if url in seen:
                continue
            seen.add(url)
        out.append((url, collapse("".join(parts))))
    return out
