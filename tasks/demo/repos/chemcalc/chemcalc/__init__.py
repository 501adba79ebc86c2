"""chemcalc: molar masses, mass composition and empirical formulas.

The library functions can be used directly::

    >>> from chemcalc import molar_mass
    >>> round(molar_mass("C6H12O6"), 3)
    180.156
"""

__version__ = "1.0.0"

from .formula import FormulaError, composition, hill_formula, molar_mass, parse_formula  # noqa: E402
from .empirical import empirical_formula, molecular_formula, parse_analysis  # noqa: E402

__all__ = [
    "FormulaError",
    "composition",
    "hill_formula",
    "molar_mass",
    "parse_formula",
    "empirical_formula",
    "molecular_formula",
    "parse_analysis",
]
