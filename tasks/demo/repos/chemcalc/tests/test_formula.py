import unittest

from chemcalc.elements import ELEMENTS, lookup
from chemcalc.formula import (
    FormulaError,
    composition,
    hill_formula,
    molar_mass,
    parse_formula,
)


class AtomicWeightTests(unittest.TestCase):
    def test_all_elements_present(self):
        self.assertEqual(len(ELEMENTS), 118)
        numbers = sorted(e.number for e in ELEMENTS.values())
        self.assertEqual(numbers, list(range(1, 119)))

    def test_common_standard_weights(self):
        expected = {
            "H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999, "Na": 22.98976928,
            "Mg": 24.305, "P": 30.973761998, "S": 32.06, "Cl": 35.45, "K": 39.0983,
            "Ca": 40.078, "Fe": 55.845, "Cu": 63.546, "Zn": 65.38, "Br": 79.904,
            "Ag": 107.8682, "I": 126.90447, "Au": 196.96657, "Pb": 207.2, "U": 238.02891,
        }
        for sym, w in expected.items():
            self.assertAlmostEqual(ELEMENTS[sym].weight, w, places=6, msg=sym)

    def test_lookup(self):
        self.assertEqual(lookup("sodium").symbol, "Na")
        self.assertEqual(lookup("fe").symbol, "Fe")
        self.assertEqual(lookup("8").symbol, "O")
        with self.assertRaises(KeyError):
            lookup("Xx")


class ParseTests(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(dict(parse_formula("H2O")), {"H": 2, "O": 1})

    def test_repeated_element(self):
        self.assertEqual(dict(parse_formula("CH3COOH")), {"C": 2, "H": 4, "O": 2})

    def test_nested_groups(self):
        self.assertEqual(dict(parse_formula("K4[Fe(CN)6]")), {"K": 4, "Fe": 1, "C": 6, "N": 6})
        self.assertEqual(dict(parse_formula("Ca3(PO4)2")), {"Ca": 3, "P": 2, "O": 8})

    def test_hydrate_notations(self):
        want = {"Cu": 1, "S": 1, "O": 9, "H": 10}
        for f in ("CuSO4·5H2O", "CuSO4*5H2O", "CuSO4.5H2O", "CuSO4 • 5 H2O", "CuSO4⋅5H2O"):
            self.assertEqual(dict(parse_formula(f)), want, f)

    def test_fractional(self):
        self.assertEqual(dict(parse_formula("CaSO4*0.5H2O")), {"Ca": 1, "S": 1, "O": 4.5, "H": 1})
        self.assertAlmostEqual(parse_formula("Fe0.95O")["Fe"], 0.95)

    def test_subscripts_and_charges(self):
        self.assertEqual(dict(parse_formula("C₆H₁₂O₆")), {"C": 6, "H": 12, "O": 6})
        self.assertEqual(dict(parse_formula("SO4^2-")), {"S": 1, "O": 4})
        self.assertEqual(dict(parse_formula("NH4+")), {"N": 1, "H": 4})

    def test_case_matters(self):
        self.assertEqual(dict(parse_formula("Co")), {"Co": 1})
        self.assertEqual(dict(parse_formula("CO")), {"C": 1, "O": 1})

    def test_errors(self):
        for bad in ("", "Xx2", "nacl", "Ca(OH", "H2O)", "()", "Ca(OH]2", "H0", "CuSO4··H2O", "H2$"):
            with self.assertRaises(FormulaError, msg=bad):
                parse_formula(bad)


class MassTests(unittest.TestCase):
    def test_reference_values(self):
        cases = {
            "C6H12O6": 180.156,
            "H2O": 18.015,
            "NaCl": 58.440,
            "CuSO4·5H2O": 249.677,
            "Ca3(PO4)2": 310.174,
            "(NH4)2SO4": 132.134,
            "C9H8O4": 180.159,
            "C8H10N4O2": 194.194,
            "H2SO4": 98.072,
        }
        for f, m in cases.items():
            self.assertAlmostEqual(molar_mass(f), m, places=3, msg=f)

    def test_composition_sums_to_100(self):
        rows = composition("C6H12O6")
        self.assertEqual([r[0] for r in rows], ["C", "H", "O"])
        self.assertAlmostEqual(sum(r[3] for r in rows), 100.0, places=9)
        self.assertAlmostEqual(rows[0][3], 40.002, places=3)

    def test_hill_formula(self):
        self.assertEqual(hill_formula({"O": 6, "H": 12, "C": 6}), "C6H12O6")
        self.assertEqual(hill_formula({"O": 7, "K": 2, "Cr": 2}), "Cr2K2O7")
        self.assertEqual(hill_formula({"Cl": 1, "H": 1}), "ClH")


if __name__ == "__main__":
    unittest.main()
