import unittest

from chemcalc.empirical import EmpiricalError, empirical_formula, molecular_formula, parse_analysis


class EmpiricalTests(unittest.TestCase):
    def test_glucose(self):
        res = empirical_formula(parse_analysis(["C=40.0", "H=6.71", "O=53.29"]))
        self.assertEqual(res["formula"], "CH2O")
        self.assertAlmostEqual(res["mass"], 30.026, places=3)
        self.assertEqual(molecular_formula(res["counts"], 180.16)[:2], ("C6H12O6", 6))

    def test_needs_multiplier(self):
        self.assertEqual(empirical_formula(parse_analysis("Fe=69.94 O=30.06"))["formula"], "Fe2O3")
        # benzene 92.26 % C, 7.74 % H
        self.assertEqual(empirical_formula(parse_analysis("C:92.26 H:7.74"))["formula"], "CH")

    def test_rest(self):
        res = empirical_formula(parse_analysis("C=54.5 H=9.1"), rest="O")
        self.assertEqual(res["formula"], "C2H4O")

    def test_names_and_csv(self):
        vals = parse_analysis("element,percent\ncarbon,40.0\nhydrogen,6.71\noxygen,53.29\n")
        self.assertEqual(list(vals), ["C", "H", "O"])
        self.assertEqual(empirical_formula(vals)["formula"], "CH2O")

    def test_grams_work_too(self):
        # 2.4 g C, 0.4 g H, 3.2 g O
        self.assertEqual(empirical_formula(parse_analysis("C=2.4 H=0.4 O=3.2"))["formula"], "CH2O")

    def test_errors(self):
        with self.assertRaises(EmpiricalError):
            parse_analysis("nothing here")
        with self.assertRaises(EmpiricalError):
            parse_analysis("Qq=12")
        with self.assertRaises(EmpiricalError):
            empirical_formula({"C": 60.0, "H": 50.0}, rest="O")


if __name__ == "__main__":
    unittest.main()
