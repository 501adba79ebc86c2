"""HTML tables as rows of cells (for CSV output)."""

import csv
import io

from .base import BaseParser, collapse

__all__ = ["Table", "extract_tables", "table_to_csv"]

_CELL_BREAKS = frozenset("br p div li dd dt h1 h2 h3 h4 h5 h6 tr ul ol".split())


class Table:
    """One HTML table: ``rows`` (list of lists of str) and header information."""

    def __init__(self):
        self.caption = ""
        self.rows = []          # list of (cells, is_header_row)
        self.id = None

    @property
    def header_rows(self):
        """Number of leading header rows (rows of only ``th`` cells, or in ``thead``)."""
        n = 0
        for _, is_head in self.rows:
            if not is_head:
                break
            n += 1
        return n

    @property
    def header(self):
        """The column names (last header row, spans expanded), or None."""
        n = self.header_rows
        return self.grid()[n - 1] if n else None

    def grid(self):
        """Return the table as a rectangular list of rows, spans expanded.

        ``colspan`` and ``rowspan`` cells are repeated into every grid cell
        they cover (as spreadsheet programs do when unmerging cells).
        """
        grid = []
        pending = {}  # column -> (remaining rows, text)
        for cells, _ in self.rows:
            row = []
            col = 0
            queue = list(cells)
            while queue or col in pending:
                if col in pending:
                    left, text = pending[col]
                    row.append(text)
                    if left <= 1:
                        del pending[col]
                    else:
                        pending[col] = (left - 1, text)
                    col += 1
                    continue
                text, colspan, rowspan = queue.pop(0)
                for _ in range(colspan):
                    row.append(text)
                    if rowspan > 1:
                        pending[col] = (rowspan - 1, text)
                    col += 1
            grid.append(row)
        width = max((len(r) for r in grid), default=0)
        return [r + [""] * (width - len(r)) for r in grid]

    @property
    def shape(self):
        g = self.grid()
        return len(g), (len(g[0]) if g else 0)


class _State:
    def __init__(self, table):
        self.table = table
        self.row = None
        self.row_head = True
        self.cell = None      # list of text parts
        self.cell_span = (1, 1)
        self.cell_is_th = False
        self.section = None
        self.caption = None


class TableExtractor(BaseParser):
    """Collect every ``<table>`` of a document in document order (nested ones too)."""

    def __init__(self):
        super().__init__()
        self.tables = []
        self._stack = []

    @staticmethod
    def _span(value):
        try:
            return max(1, min(1000, int(str(value).strip() or 1)))
        except ValueError:
            return 1

    def _end_cell(self, st):
        if st.cell is not None:
            if st.row is None:
                st.row, st.row_head = [], True
            text = collapse("".join(st.cell))
            st.row.append((text, st.cell_span[0], st.cell_span[1]))
            if not st.cell_is_th:
                st.row_head = False
            st.cell = None

    def _end_row(self, st):
        self._end_cell(st)
        if st.row is not None:
            if st.row:
                is_head = st.row_head or st.section == "thead"
                st.table.rows.append((st.row, is_head))
            st.row = None

    def start(self, tag, attrs):
        st = self._stack[-1] if self._stack else None
        if tag == "table":
            t = Table()
            t.id = dict(attrs).get("id")
            self.tables.append(t)
            if st is not None and st.cell is not None:
                st.cell.append(" ")
            self._stack.append(_State(t))
            return
        if st is None:
            return
        if tag in ("thead", "tbody", "tfoot"):
            self._end_row(st)
            st.section = tag
        elif tag == "tr":
            self._end_row(st)
            st.row, st.row_head = [], True
        elif tag in ("td", "th"):
            self._end_cell(st)
            if st.row is None:
                st.row, st.row_head = [], True
            d = dict(attrs)
            st.cell = []
            st.cell_is_th = tag == "th"
            st.cell_span = (self._span(d.get("colspan", 1)), self._span(d.get("rowspan", 1)))
        elif tag == "caption":
            st.caption = []
        elif tag in _CELL_BREAKS and st.cell is not None:
            st.cell.append(" ")

    def end(self, tag):
        st = self._stack[-1] if self._stack else None
        if st is None:
            return
        if tag == "table":
            self._end_row(st)
            self._stack.pop()
        elif tag in ("td", "th"):
            self._end_cell(st)
        elif tag == "tr":
            self._end_row(st)
        elif tag in ("thead", "tbody", "tfoot"):
            self._end_row(st)
            st.section = None
        elif tag == "caption" and st.caption is not None:
            st.table.caption = collapse("".join(st.caption))
            st.caption = None
        elif tag in _CELL_BREAKS and st.cell is not None:
            st.cell.append(" ")

    def data(self, text):
        st = self._stack[-1] if self._stack else None
        if st is None:
            return
        if st.caption is not None:
            st.caption.append(text)
        elif st.cell is not None:
            st.cell.append(text)

    def close(self):
        super().close()
        while self._stack:
            self._end_row(self._stack.pop())


def extract_tables(html):
    """Return all tables of ``html`` as :class:`Table` objects, in document order."""
    p = TableExtractor()
    p.feed(html)
    p.close()
    return [t for t in p.tables if t.rows]


def table_to_csv(table, header=True):
    """Render a :class:`Table` as CSV text (spans expanded; header row first if any)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    rows = table.grid()
    if not header:
        rows = rows[table.header_rows:]
    for r in rows:
        w.writerow(r)
    return buf.getvalue()
