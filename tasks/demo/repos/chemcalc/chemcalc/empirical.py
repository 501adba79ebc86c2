"""Empirical and molecular formulas from an elemental analysis."""

import re
from collections import OrderedDict

from .elements import ELEMENTS, lookup
from .formula import hill_formula, molar_mass

__all__ = ["EmpiricalError", "parse_analysis", "empirical_formula", "molecular_formula"]

_PAIR = re.compile(
    r"([A-Z][a-z]?|[a-z][a-z]+)\s*[=:,;\s]\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*%?"
)


class EmpiricalError(ValueError):
    """Raised for an analysis that cannot be turned into a formula."""


def parse_analysis(items):
    """Parse ``["C=40.0", "H=6.71", ...]`` (or one string) into ``{symbol: value}``.

    Accepted separators between element and value are ``=``, ``:``, ``,``,
    ``;`` and whitespace, so ``C=40``, ``C: 40 %``, ``carbon,40`` and the lines
    of a two-column CSV all work. Repeated elements are added up.
    """
    if isinstance(items, str):
        items = [items]
    text = "\n".join(items)
    values = OrderedDict()
    for m in _PAIR.finditer(text):
        name, value = m.group(1), float(m.group(2))
        try:
            el = lookup(name)
        except KeyError:
            if name.lower() in ("element", "symbol", "name"):
                continue
            raise EmpiricalError("unknown element %r" % name)
        values[el.symbol] = values.get(el.symbol, 0.0) + value
    if not values:
        raise EmpiricalError(
            "no element=value pairs found (expected e.g. C=40.0 H=6.71 O=53.29)"
        )
    return values


def empirical_formula(values, rest=None, tolerance=0.1, max_multiplier=12):
    """Compute the empirical formula from mass percentages (or grams).

    ``values`` maps element symbols to mass percent (or to masses in any
    unit: only the ratios matter). If ``rest`` names an element, the amount
    missing to reach 100 % is attributed to it (the classic "the remainder is
    oxygen" case).

    Returns a dict with keys ``formula``, ``counts`` (element -> int),
    ``ratios`` (element -> mole ratio relative to the smallest),
    ``multiplier`` and ``mass`` (g/mol of the empirical formula).
    """
    values = OrderedDict(values)
    if rest:
        el = lookup(rest).symbol
        missing = 100.0 - sum(values.values())
        if missing <= 0:
            raise EmpiricalError(
                "percentages already add up to %.2f; nothing left for %s"
                % (sum(values.values()), el)
            )
        values[el] = values.get(el, 0.0) + missing
    if any(v < 0 for v in values.values()):
        raise EmpiricalError("negative amounts are not allowed")
    values = OrderedDict((s, v) for s, v in values.items() if v > 0)
    if not values:
        raise EmpiricalError("all amounts are zero")
    moles = OrderedDict((s, v / ELEMENTS[s].weight) for s, v in values.items())
    smallest = min(moles.values())
    ratios = OrderedDict((s, n / smallest) for s, n in moles.items())

    best = None
    for mult in range(1, max_multiplier + 1):
        err = max(abs(r * mult - round(r * mult)) for r in ratios.values())
        if err <= tolerance:
            best = (mult, err)
            break
        if best is None or err < best[1]:
            best = (mult, err)
    mult = best[0]
    counts = OrderedDict((s, int(round(r * mult))) for s, r in ratios.items())
    return {
        "formula": hill_formula(counts),
        "counts": counts,
        "ratios": ratios,
        "multiplier": mult,
        "fit_error": best[1],
        "exact": best[1] <= tolerance,
        "mass": molar_mass(counts),
        "percent_total": sum(values.values()),
    }


def molecular_formula(empirical_counts, target_mass):
    """Scale an empirical formula to the molar mass ``target_mass``.

    Returns ``(formula, n, mass)`` where ``n`` is the whole-number factor.
    """
    emp_mass = molar_mass(empirical_counts)
    n = max(1, int(round(target_mass / emp_mass)))
    counts = OrderedDict((s, c * n) for s, c in empirical_counts.items())
    return hill_formula(counts), n, molar_mass(counts)
