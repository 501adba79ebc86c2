"""Add molar masses to a CSV file of chemical formulas."""

import csv
import io

from .formula import FormulaError, molar_mass

__all__ = ["BatchError", "add_molar_mass"]


class BatchError(ValueError):
    """Raised when the CSV cannot be processed (e.g. no formula column)."""


def _sniff_delimiter(text):
    first = text.splitlines()[0] if text.strip() else ""
    counts = {d: first.count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def _find_column(header, wanted):
    norm = [h.strip().lower() for h in header]
    if wanted is not None:
        if wanted.strip().lower() in norm:
            return norm.index(wanted.strip().lower())
        if wanted.isdigit() and 1 <= int(wanted) <= len(header):
            return int(wanted) - 1
        raise BatchError(
            "no column %r (columns: %s)" % (wanted, ", ".join(h.strip() for h in header))
        )
    for cand in ("formula", "molecular formula", "chemical formula", "formel"):
        if cand in norm:
            return norm.index(cand)
    for i, h in enumerate(norm):
        if "formula" in h:
            return i
    if len(header) == 1:
        return 0
    raise BatchError(
        "no 'formula' column (columns: %s); choose one with --column"
        % ", ".join(h.strip() for h in header)
    )


def add_molar_mass(text, column=None, name="molar_mass", decimals=3, header=True):
    """Return ``(csv_text, rows, errors)`` for the CSV ``text``.

    A column ``name`` with the molar mass (g/mol, rounded to ``decimals``) is
    appended to every row. The formula column is ``column`` (header name,
    case-insensitive, or 1-based number) or else the first column called
    "formula" (any case). Rows whose formula cannot be parsed get an empty
    value; their messages are returned in ``errors`` as ``(line, message)``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise BatchError("empty CSV file")
    delim = _sniff_delimiter(text)
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=delim)]
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if header:
        head, body, first_line = rows[0], rows[1:], 2
        idx = _find_column(head, column)
        out_head = head + [name]
    else:
        body, first_line = rows, 1
        idx = int(column) - 1 if column and column.isdigit() else 0
        out_head = None
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if out_head:
        writer.writerow(out_head)
    errors = []
    for n, row in enumerate(body, start=first_line):
        formula = row[idx].strip() if idx < len(row) else ""
        value = ""
        if not formula:
            errors.append((n, "empty formula"))
        else:
            try:
                value = "%.*f" % (decimals, molar_mass(formula))
            except FormulaError as exc:
                errors.append((n, str(exc)))
        writer.writerow(row + [value])
    return buf.getvalue(), len(body), errors
