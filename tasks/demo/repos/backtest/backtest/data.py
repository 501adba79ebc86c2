"""Loading of price series from CSV files.

Any CSV with a date column and a price column works: the columns are found
by name, case-insensitively and ignoring punctuation (``Date``, ``date``,
``Timestamp``; ``Close``, ``close*``, ``Adj Close``, ``Price``, ``Last``).
Values may carry currency signs and thousands separators (``"$1,234.50"``);
rows with a missing price (empty, ``null``, ``NaN``, ``-``) are skipped.
If every date can be parsed, rows are put in chronological order (many
broker exports list the newest day first) and dates are written as ISO
``YYYY-MM-DD``.
"""

import csv
import io
import re
from collections import namedtuple
from datetime import datetime

__all__ = ["DataError", "PriceSeries", "load_prices", "parse_prices"]

PriceSeries = namedtuple("PriceSeries", "dates prices column date_column skipped")

DATE_NAMES = ("date", "datetime", "time", "timestamp", "day", "tradedate", "period")
PRICE_NAMES = (
    "close", "closeprice", "closingprice", "adjclose", "adjustedclose",
    "price", "last", "lastprice", "settle", "value", "nav", "equity",
)
DATE_FORMATS = (
    "%Y-%m-%d", "%Y/%m/%d", "%Y%m%d", "%d.%m.%Y", "%m/%d/%Y", "%d/%m/%Y",
    "%b %d, %Y", "%d %b %Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
)
_MISSING = {"", "null", "none", "nan", "na", "n/a", "-", "--"}


class DataError(ValueError):
    """Raised when a CSV file does not contain a usable price series."""


def _key(name):
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _parse_number(text):
    t = text.strip().replace("\u00a0", "").replace(" ", "")
    t = re.sub(r"^[$€£¥]|[$€£¥]$", "", t)
    if t.lower() in _MISSING:
        return None
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", t):
        t = t.replace(",", "")
    elif re.fullmatch(r"-?\d+,\d+", t):  # decimal comma
        t = t.replace(",", ".")
    try:
        value = float(t)
    except ValueError:
        return None
    return value if value == value else None  # drop NaN


def _parse_date(text):
    t = text.strip()
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(t, fmt)
        except ValueError:
            pass
    return None


def _find(header, wanted, names, what):
    keys = [_key(h) for h in header]
    if wanted:
        w = _key(wanted)
        if w in keys:
            return keys.index(w)
        if wanted.isdigit() and 1 <= int(wanted) <= len(header):
            return int(wanted) - 1
        raise DataError("no column %r (columns: %s)" % (wanted, ", ".join(header)))
    for name in names:
        if name in keys:
            return keys.index(name)
    for i, k in enumerate(keys):
        if any(k.startswith(n) or k.endswith(n) for n in names):
            return i
    return None


def parse_prices(text, column=None, date_column=None):
    """Parse CSV ``text`` into a :class:`PriceSeries` (chronological order)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise DataError("empty file")
    first = lines[0]
    counts = {d: first.count(d) for d in (",", ";", "\t")}
    delim = max(counts, key=lambda d: counts[d]) if max(counts.values()) else ","
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delim))
    header = [h.strip() for h in rows[0]]
    pi = _find(header, column, PRICE_NAMES, "price")
    di = _find(header, date_column, DATE_NAMES, "date")
    if pi is None:
        # fall back to the last numeric column of the first data row
        if len(rows) > 1:
            for i in range(len(header) - 1, -1, -1):
                if i != di and i < len(rows[1]) and _parse_number(rows[1][i]) is not None:
                    pi = i
                    break
    if pi is None:
        raise DataError(
            "no close/price column found (columns: %s); choose one with --column"
            % ", ".join(header)
        )
    if di is None:
        di = 0 if pi != 0 else None
    dates, prices, skipped = [], [], 0
    for n, row in enumerate(rows[1:], start=2):
        if pi >= len(row):
            skipped += 1
            continue
        value = _parse_number(row[pi])
        if value is None:
            skipped += 1
            continue
        if value <= 0:
            raise DataError("line %d: price must be positive, got %r" % (n, row[pi]))
        dates.append(row[di].strip() if di is not None and di < len(row) else str(n - 1))
        prices.append(value)
    if len(prices) < 2:
        raise DataError("need at least 2 prices, found %d" % len(prices))
    parsed = [_parse_date(d) for d in dates]
    if all(p is not None for p in parsed):
        order = sorted(range(len(dates)), key=lambda i: parsed[i])
        dates = [parsed[i].strftime("%Y-%m-%d") if parsed[i].hour == parsed[i].minute == 0
                 else parsed[i].isoformat(sep=" ") for i in order]
        prices = [prices[i] for i in order]
    return PriceSeries(
        dates, prices, header[pi], header[di] if di is not None else None, skipped
    )


def load_prices(path, column=None, date_column=None):
    """Read the CSV file ``path`` and return a :class:`PriceSeries`."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read()
    except OSError as exc:
        raise DataError("cannot read %s: %s" % (path, exc.strerror or exc))
    return parse_prices(text, column=column, date_column=date_column)
