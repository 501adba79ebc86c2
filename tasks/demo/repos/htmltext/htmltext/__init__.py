"""htmltext: readable text, links, tables and metadata from HTML pages.

    >>> from htmltext import html_to_text
    >>> html_to_text("<p>Fish &amp; chips</p><script>x()</script>")
    'Fish & chips\\n'
"""

__version__ = "1.0.0"

from .links import extract_links  # noqa: E402
from .meta import extract_meta  # noqa: E402
from .tables import Table, extract_tables, table_to_csv  # noqa: E402
from .text import html_to_text  # noqa: E402

__all__ = ["extract_links", "extract_meta", "Table", "extract_tables", "table_to_csv", "html_to_text"]
