"""Command-line interface of chemcalc.

Run ``chemcalc --help`` (or ``python3 -m chemcalc --help``) for usage.
"""

import argparse
import json
import os
import sys

from . import __version__
from .batch import BatchError, add_molar_mass
from .elements import lookup
from .empirical import EmpiricalError, empirical_formula, molecular_formula, parse_analysis
from .formula import FormulaError, composition, format_count, molar_mass, parse_formula

PROG = "chemcalc"


class CLIError(Exception):
    """An error reported as one line on stderr with exit status 1."""


def _round(x, decimals):
    return float("%.*f" % (decimals, x))


def _read_text(path):
    try:
        with open(path, encoding="utf-8-sig") as fh:
            return fh.read()
    except OSError as exc:
        raise CLIError("cannot read %s: %s" % (path, exc.strerror or exc))
    except UnicodeDecodeError:
        raise CLIError("%s is not a UTF-8 text file" % path)


def _write_text(path, text):
    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        raise CLIError("cannot write %s: %s" % (path, exc.strerror or exc))


# --------------------------------------------------------------------------- mass
def cmd_mass(args):
    formulas = list(args.formula)
    if args.file:
        for line in _read_text(args.file).splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                formulas.append(line)
    if not formulas:
        raise CLIError("no formula given (pass FORMULA or --file FILE)")
    results, failed = [], []
    for f in formulas:
        try:
            results.append((f, molar_mass(f)))
        except FormulaError as exc:
            failed.append(str(exc))
            print("%s: error: %s" % (PROG, exc), file=sys.stderr)
    if args.json:
        objs = [
            {"formula": f, "molar_mass": _round(m, args.decimals), "unit": "g/mol"}
            for f, m in results
        ]
        single = len(formulas) == 1 and not args.file
        if objs:
            print(json.dumps(objs[0] if single else objs, ensure_ascii=False, indent=2))
    else:
        for f, m in results:
            print("%s %.*f g/mol" % (f, args.decimals, m))
    return 1 if failed else 0


# -------------------------------------------------------------------- composition
def cmd_composition(args):
    try:
        counts = parse_formula(args.formula)
    except FormulaError as exc:
        raise CLIError(str(exc))
    total = molar_mass(counts)
    rows = composition(counts)
    d = args.decimals
    if args.json:
        out = {
            "formula": args.formula,
            "molar_mass": _round(total, d),
            "elements": {
                sym: {
                    "count": int(c) if c == int(c) else c,
                    "mass": _round(mass, d),
                    "percent": _round(pct, d),
                }
                for sym, c, mass, pct in rows
            },
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print("%s %.*f g/mol" % (args.formula, d, total))
    print("%-8s %7s %12s %9s" % ("element", "atoms", "g/mol", "mass %"))
    for sym, c, mass, pct in rows:
        print("%-8s %7s %12.*f %9.*f" % (sym, format_count(c) or "1", d, mass, d, pct))
    return 0


# ---------------------------------------------------------------------- empirical
def cmd_empirical(args):
    items = list(args.values)
    if args.file:
        items.append(_read_text(args.file))
    if not items:
        raise CLIError("no analysis given (pass e.g. C=40.0 H=6.71 O=53.29)")
    try:
        values = parse_analysis(items)
        res = empirical_formula(values, rest=args.rest, tolerance=args.tolerance)
    except (EmpiricalError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        if isinstance(exc, KeyError):
            msg = "unknown element %r" % msg
        raise CLIError(msg)
    mol = None
    if args.molar_mass is not None:
        if args.molar_mass <= 0:
            raise CLIError("--molar-mass must be positive")
        mol = molecular_formula(res["counts"], args.molar_mass)
    if not res["exact"]:
        print(
            "%s: warning: mole ratios are not close to whole numbers "
            "(best fit error %.3f); check the analysis" % (PROG, res["fit_error"]),
            file=sys.stderr,
        )
    if args.json:
        out = {
            "empirical_formula": res["formula"],
            "empirical_mass": _round(res["mass"], 3),
            "ratios": {s: round(r, 3) for s, r in res["ratios"].items()},
            "multiplier": res["multiplier"],
        }
        if mol:
            out.update(
                molecular_formula=mol[0], factor=mol[1], molecular_mass=_round(mol[2], 3)
            )
        print(json.dumps(out, indent=2))
        return 0
    if abs(res["percent_total"] - 100.0) > 0.5:
        print("note: amounts add up to %.2f (treated as relative masses)" % res["percent_total"])
    print(
        "mole ratio: "
        + ", ".join("%s %.3f" % (s, r) for s, r in res["ratios"].items())
    )
    print("empirical formula: %s (%.3f g/mol)" % (res["formula"], res["mass"]))
    if mol:
        print("molecular formula: %s (%.3f g/mol, %d x empirical)" % (mol[0], mol[2], mol[1]))
    return 0


# -------------------------------------------------------------------------- batch
def cmd_batch(args):
    text = _read_text(args.file)
    try:
        out, nrows, errors = add_molar_mass(
            text,
            column=args.column,
            name=args.name,
            decimals=args.decimals,
            header=not args.no_header,
        )
    except BatchError as exc:
        raise CLIError(str(exc))
    for line, msg in errors:
        print("%s: warning: %s line %d: %s" % (PROG, args.file, line, msg), file=sys.stderr)
    if args.output:
        _write_text(args.output, out)
        print(
            "wrote %s: %d rows, %d with a molar mass"
            % (args.output, nrows, nrows - len(errors))
        )
    else:
        sys.stdout.write(out)
    return 0


# ------------------------------------------------------------------------ element
def cmd_element(args):
    status = 0
    for key in args.element:
        try:
            e = lookup(key)
        except KeyError:
            print("%s: error: unknown element %r" % (PROG, key), file=sys.stderr)
            status = 1
            continue
        note = "  (mass number of the longest-lived isotope)" if e.radioactive else ""
        print("%-2s  %-13s Z=%-3d %s%s" % (e.symbol, e.name, e.number, repr(e.weight), note))
    return status


# ------------------------------------------------------------------------- parser
def build_parser():
    """Build the argparse parser with all subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=fmt,
        description=(
            "Chemistry calculator: molar masses, mass composition, empirical\n"
            "formulas and CSV enrichment, using IUPAC standard atomic weights."
        ),
        epilog=(
            "examples:\n"
            "  chemcalc mass C6H12O6              # C6H12O6 180.156 g/mol\n"
            "  chemcalc mass 'CuSO4*5H2O' 'Ca3(PO4)2'\n"
            "  chemcalc composition NH4NO3 --json\n"
            "  chemcalc empirical C=40.0 H=6.71 O=53.29 --molar-mass 180\n"
            "  chemcalc batch compounds.csv --column formula -o out.csv\n"
            "  chemcalc element Fe"
        ),
    )
    p.add_argument("--version", action="version", version="%(prog)s " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser(
        "mass",
        formatter_class=fmt,
        help="molar mass of one or more formulas",
        description=(
            "Print the molar mass (g/mol) of each FORMULA as 'FORMULA MASS g/mol'.\n"
            "Formulas may contain groups in (), [] or {}, hydrates joined by\n"
            "'·', '*' or '.', Unicode subscripts and a caret charge (SO4^2-)."
        ),
        epilog="examples:\n  chemcalc mass C6H12O6\n  chemcalc mass 'CuSO4·5H2O' --decimals 2\n"
        "  chemcalc mass --file formulas.txt --json",
    )
    s.add_argument("formula", nargs="*", metavar="FORMULA", help="chemical formula, e.g. H2SO4")
    s.add_argument("-f", "--file", metavar="FILE", help="read further formulas from FILE, one per line")
    s.add_argument("--decimals", type=int, default=3, metavar="N", help="decimal places (default 3)")
    s.add_argument("--json", action="store_true", help="print JSON instead of text")
    s.set_defaults(func=cmd_mass)

    s = sub.add_parser(
        "composition",
        formatter_class=fmt,
        help="mass percent of each element in a formula",
        description=(
            "Print the molar mass of FORMULA and, per element (Hill order), the\n"
            "number of atoms, its mass contribution (g/mol) and its mass percent."
        ),
        epilog="examples:\n  chemcalc composition NH4NO3\n  chemcalc composition 'CuSO4*5H2O' --json",
    )
    s.add_argument("formula", metavar="FORMULA", help="chemical formula")
    s.add_argument("--decimals", type=int, default=3, metavar="N", help="decimal places (default 3)")
    s.add_argument("--json", action="store_true",
                   help="print JSON: {formula, molar_mass, elements: {SYMBOL: {count, mass, percent}}}")
    s.set_defaults(func=cmd_composition)

    s = sub.add_parser(
        "empirical",
        formatter_class=fmt,
        help="empirical (and molecular) formula from mass percentages",
        description=(
            "Find the empirical formula from an elemental analysis given as\n"
            "ELEMENT=PERCENT pairs (grams work too: only ratios matter). With\n"
            "--molar-mass the molecular formula is derived as well."
        ),
        epilog=(
            "examples:\n"
            "  chemcalc empirical C=40.0 H=6.71 O=53.29\n"
            "  chemcalc empirical C=40.0 H=6.71 O=53.29 --molar-mass 180.16\n"
            "  chemcalc empirical C=54.5 H=9.1 --rest O      # remainder is oxygen\n"
            "  chemcalc empirical --file analysis.csv         # lines like 'C,40.0'"
        ),
    )
    s.add_argument("values", nargs="*", metavar="EL=PCT", help="element and mass percent, e.g. C=40.0")
    s.add_argument("-f", "--file", metavar="FILE", help="read ELEMENT,PERCENT pairs from a text/CSV file")
    s.add_argument("--molar-mass", type=float, metavar="M", help="molar mass (g/mol) of the compound, to get the molecular formula")
    s.add_argument("--rest", metavar="EL", help="attribute the percentage missing to 100 to element EL")
    s.add_argument("--tolerance", type=float, default=0.1, metavar="T",
                   help="max distance of scaled mole ratios from whole numbers (default 0.1)")
    s.add_argument("--json", action="store_true", help="print JSON instead of text")
    s.set_defaults(func=cmd_empirical)

    s = sub.add_parser(
        "batch",
        formatter_class=fmt,
        help="add a molar_mass column to a CSV of formulas",
        description=(
            "Read a CSV file with a header row, compute the molar mass of the\n"
            "formula column of every row and append it as a new column. The\n"
            "CSV goes to stdout, or to FILE with -o. Rows whose formula cannot\n"
            "be parsed get an empty value and a warning on stderr."
        ),
        epilog="examples:\n  chemcalc batch compounds.csv\n"
        "  chemcalc batch table.csv --column Formula -o with_mass.csv",
    )
    s.add_argument("file", metavar="FILE.csv", help="CSV file (comma, semicolon or tab separated)")
    s.add_argument("--column", metavar="NAME",
                   help="formula column: header name (any case) or 1-based number (default: 'formula')")
    s.add_argument("--name", default="molar_mass", metavar="NAME", help="name of the new column (default molar_mass)")
    s.add_argument("--decimals", type=int, default=3, metavar="N", help="decimal places (default 3)")
    s.add_argument("--no-header", action="store_true", help="the file has no header row")
    s.add_argument("-o", "--output", metavar="FILE", help="write the CSV to FILE instead of stdout")
    s.set_defaults(func=cmd_batch)

    s = sub.add_parser(
        "element",
        formatter_class=fmt,
        help="look up elements by symbol, name or atomic number",
        description="Print symbol, name, atomic number and standard atomic weight.",
        epilog="examples:\n  chemcalc element Fe\n  chemcalc element sodium 8",
    )
    s.add_argument("element", nargs="+", metavar="ELEMENT", help="symbol (Na), name (sodium) or number (11)")
    s.set_defaults(func=cmd_element)
    return p


def main(argv=None):
    """Entry point of the ``chemcalc`` command. Returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "decimals", 3) < 0 or getattr(args, "decimals", 3) > 12:
        parser.error("--decimals must be between 0 and 12")
    try:
        return args.func(args)
    except CLIError as exc:
        print("%s: error: %s" % (PROG, exc), file=sys.stderr)
        return 1
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last resort: one line, never a traceback
        print("%s: error: %s: %s" % (PROG, type(exc).__name__, exc), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
