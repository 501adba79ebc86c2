"""Text functions."""

import re
import textwrap
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Callable, Optional


def slugify(text: str, separator: str = "-") -> str:
    """Turn a title into a URL slug: ASCII letters and digits joined by the separator."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return separator.join(re.findall(r"[a-z0-9]+", norm.lower()))


def slugify_many(texts: list[str], separator: str = "-") -> list[str]:
    """Slugify several titles."""
    return [slugify(t, separator) for t in texts]


def word_count(path: Path, top: Optional[int] = None) -> dict[str, int]:
    """Count the words of a text file, most frequent first.

    :param path: the text file
    :param top: keep only this many words
    """
    words = re.findall(r"[a-z']+", Path(path).read_text(encoding="utf-8").lower())
    return dict(Counter(words).most_common(top))


def wrap(text, width=40):
    """Wrap a paragraph to lines of at most width characters."""
    return "\n".join(textwrap.wrap(text, width))


def apply(fn: Callable[[str], str], text: str) -> str:
    """Apply a function to a text."""
    return fn(text)


def _normalise(text):
    return text.strip()
