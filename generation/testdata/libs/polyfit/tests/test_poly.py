import unittest

from polyfit import Polynomial


class TestPolynomial(unittest.TestCase):
    def test_parse_and_roots(self):
        p = Polynomial.parse("x^2 - 4")
        self.assertEqual(p.degree, 2)
        self.assertEqual(p.evaluate(3), 5.0)
        self.assertEqual(p.roots(), [-2.0, 2.0])


if __name__ == "__main__":
    unittest.main()
