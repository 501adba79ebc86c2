"""Parsing of chemical formulas and molar-mass arithmetic.

Supported notation
------------------
* element symbols with optional counts: ``H2O``, ``C6H12O6``
* nested groups with ``()``, ``[]`` or ``{}``: ``Ca3(PO4)2``, ``K4[Fe(CN)6]``
* hydrates and adducts joined by ``·``, ``•``, ``⋅``, ``*`` or ``.``, each
  part with an optional leading coefficient: ``CuSO4·5H2O``, ``CaSO4*0.5H2O``
* a leading coefficient on the whole formula: ``2H2O``
* Unicode subscript digits: ``C₆H₁₂O₆``
* decimal counts for non-stoichiometric compounds: ``Fe0.95O``
* whitespace anywhere is ignored; a trailing charge such as ``SO4^2-`` or
  ``NH4+`` is ignored (the mass of electrons is negligible)
"""

import re
from collections import OrderedDict

from .elements import ELEMENTS

__all__ = [
    "FormulaError",
    "parse_formula",
    "molar_mass",
    "composition",
    "hill_formula",
    "format_count",
]

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_HYDRATE_SEPARATORS = "·•⋅∙*"
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}
_NUMBER = re.compile(r"\d+(?:\.\d+)?|\.\d+")


class FormulaError(ValueError):
    """Raised for a formula that cannot be parsed."""


def _normalise(formula):
    text = formula.translate(_SUBSCRIPTS).strip()
    # Charges: "SO4^2-", "Fe^3+", "SO4 2-" or a bare trailing sign "NH4+".
    text = re.sub(r"\^\d*[+-]?$|\s+\d*[+-]$|(?<=[A-Za-z0-9)\]}])[+-]+$", "", text)
    text = "".join(text.split())
    for sep in _HYDRATE_SEPARATORS:
        text = text.replace(sep, "·")
    return _resolve_dots(text)


def _resolve_dots(text):
    """Decide for every '.' whether it is a decimal point or a hydrate dot.

    A '.' is a decimal point in a leading coefficient ("0.5H2O", "2.5H2O" at
    the start of a part) and after a lone "0" ("Fe0.95O"); everywhere else
    it separates the parts of a hydrate ("CuSO4.5H2O", "CaCl2.2H2O").
    """
    out = []
    for i, ch in enumerate(text):
        if ch != ".":
            out.append(ch)
            continue
        j = i
        while j > 0 and text[j - 1].isdigit():
            j -= 1
        digits = text[j:i]
        at_part_start = j == 0 or text[j - 1] == "·"
        next_is_digit = i + 1 < len(text) and text[i + 1].isdigit()
        if next_is_digit and (at_part_start or digits == "0"):
            out.append(".")
        else:
            out.append("·")
    return "".join(out)


def _parse_part(text, formula):
    """Parse one hydrate part (no separators) into an element->count dict."""
    pos = 0
    coef = 1.0
    m = _NUMBER.match(text)
    if m:
        coef = float(m.group())
        pos = m.end()
        if coef == 0:
            raise FormulaError("zero coefficient in %r" % formula)
    stack = [OrderedDict()]
    opened = []
    n = len(text)
    if pos >= n:
        raise FormulaError("no elements in %r" % formula)
    while pos < n:
        ch = text[pos]
        if ch.isupper():
            sym = ch
            pos += 1
            if pos < n and text[pos].islower():
                # Prefer the two-letter symbol; fall back to one letter only
                # if the two-letter one does not exist (e.g. "Co" vs "C","o").
                if ch + text[pos] in ELEMENTS:
                    sym = ch + text[pos]
                    pos += 1
                else:
                    raise FormulaError(
                        "unknown element %r in %r" % (ch + text[pos], formula)
                    )
            if sym not in ELEMENTS:
                raise FormulaError("unknown element %r in %r" % (sym, formula))
            count, pos = _read_count(text, pos)
            stack[-1][sym] = stack[-1].get(sym, 0.0) + count
        elif ch in _OPEN:
            opened.append(_OPEN[ch])
            stack.append(OrderedDict())
            pos += 1
        elif ch in _CLOSE:
            if not opened or opened[-1] != ch:
                raise FormulaError("unbalanced %r in %r" % (ch, formula))
            opened.pop()
            pos += 1
            count, pos = _read_count(text, pos)
            group = stack.pop()
            if not group:
                raise FormulaError("empty group in %r" % formula)
            for sym, c in group.items():
                stack[-1][sym] = stack[-1].get(sym, 0.0) + c * count
        elif ch.islower():
            raise FormulaError(
                "unexpected %r in %r (element symbols start with a capital "
                "letter, e.g. 'NaCl')" % (ch, formula)
            )
        else:
            raise FormulaError("unexpected character %r in %r" % (ch, formula))
    if opened:
        raise FormulaError("missing %r in %r" % (opened[-1], formula))
    return OrderedDict((s, c * coef) for s, c in stack[0].items())


def _read_count(text, pos):
    m = _NUMBER.match(text, pos)
    if not m:
        return 1.0, pos
    value = float(m.group())
    if value == 0:
        raise FormulaError("zero count in %r" % text)
    return value, m.end()


def parse_formula(formula):
    """Parse ``formula`` and return an ordered dict ``{symbol: count}``.

    Elements appear in order of first occurrence; counts are floats (whole
    numbers for ordinary formulas).

    >>> dict(parse_formula("CuSO4·5H2O"))
    {'Cu': 1.0, 'S': 1.0, 'O': 9.0, 'H': 10.0}
    """
    if not isinstance(formula, str) or not formula.strip():
        raise FormulaError("empty formula")
    text = _normalise(formula)
    if not text:
        raise FormulaError("empty formula")
    parts = text.split("·")
    if any(not p for p in parts):
        raise FormulaError("misplaced hydrate separator in %r" % formula)
    total = OrderedDict()
    for part in parts:
        for sym, c in _parse_part(part, formula.strip()).items():
            total[sym] = total.get(sym, 0.0) + c
    return total


def molar_mass(formula_or_counts):
    """Molar mass in g/mol of a formula string or a ``{symbol: count}`` dict."""
    counts = (
        parse_formula(formula_or_counts)
        if isinstance(formula_or_counts, str)
        else formula_or_counts
    )
    return sum(ELEMENTS[s].weight * c for s, c in counts.items())


def composition(formula_or_counts):
    """Mass composition of a compound.

    Returns a list of ``(symbol, count, mass, percent)`` tuples in Hill order,
    where ``mass`` is the element's contribution to the molar mass (g/mol)
    and ``percent`` its mass fraction in percent.
    """
    counts = (
        parse_formula(formula_or_counts)
        if isinstance(formula_or_counts, str)
        else formula_or_counts
    )
    total = molar_mass(counts)
    rows = []
    for sym in hill_order(counts):
        mass = ELEMENTS[sym].weight * counts[sym]
        rows.append((sym, counts[sym], mass, 100.0 * mass / total))
    return rows


def hill_order(symbols):
    """Order element symbols by the Hill system.

    Carbon first, then hydrogen, then all others alphabetically; without
    carbon, everything alphabetically (hydrogen included).
    """
    symbols = list(symbols)
    if "C" in symbols:
        rest = sorted(s for s in symbols if s not in ("C", "H"))
        return ["C"] + (["H"] if "H" in symbols else []) + rest
    return sorted(symbols)


def format_count(count):
    """Format an atom count: ``1`` -> ``""``, ``2.0`` -> ``"2"``, ``0.5`` -> ``"0.5"``."""
    if abs(count - round(count)) < 1e-9:
        count = int(round(count))
        return "" if count == 1 else str(count)
    return ("%.4f" % count).rstrip("0").rstrip(".")


def hill_formula(counts):
    """Write ``{symbol: count}`` as a formula string in Hill order (e.g. ``C6H12O6``)."""
    return "".join(s + format_count(counts[s]) for s in hill_order(counts))
