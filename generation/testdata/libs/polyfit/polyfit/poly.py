"""The Polynomial class."""

from __future__ import annotations

import re


class PolynomialError(ValueError):
    """A polynomial that cannot be read."""


_TERM = re.compile(r"([+-]?\s*[0-9.]*)\s*(\*?\s*x(?:\s*\^\s*([0-9]+))?)?")


class Polynomial:
    """A polynomial with real coefficients, lowest power first."""

    def __init__(self, coefficients: list[float]):
        """Build a polynomial.

        Args:
            coefficients: the coefficients, constant term first.
        """
        cs = [float(c) for c in coefficients]
        while len(cs) > 1 and cs[-1] == 0:
            cs.pop()
        if not cs:
            raise PolynomialError("no coefficients")
        self.coefficients = cs

    @classmethod
    def parse(cls, text: str) -> "Polynomial":
        """Read a polynomial written as text, such as "3x^2 - 2x + 1"."""
        cs: dict[int, float] = {}
        s = text.replace(" ", "")
        if not s:
            raise PolynomialError("empty polynomial")
        pos = 0
        while pos < len(s):
            m = _TERM.match(s, pos)
            if not m or m.end() == pos:
                raise PolynomialError("cannot read %r at %d" % (text, pos))
            coef, xpart, power = m.group(1), m.group(2), m.group(3)
            if coef in ("", "+"):
                c = 1.0
            elif coef == "-":
                c = -1.0
            else:
                c = float(coef)
            p = (int(power) if power else 1) if xpart else 0
            cs[p] = cs.get(p, 0.0) + c
            pos = m.end()
        return cls([cs.get(i, 0.0) for i in range(max(cs) + 1)])

    @property
    def degree(self) -> int:
        """The highest power with a non-zero coefficient."""
        return len(self.coefficients) - 1

    def evaluate(self, x: float) -> float:
        """Evaluate the polynomial at x with Horner's scheme."""
        r = 0.0
        for c in reversed(self.coefficients):
            r = r * x + c
        return r

    def derivative(self) -> "Polynomial":
        """The derivative polynomial, as a list of coefficients."""
        return Polynomial([i * c for i, c in enumerate(self.coefficients)][1:] or [0.0])

    def roots(self, tolerance: float = 1e-12) -> list[float]:
        """The real roots, found by bisection between the critical points, ascending."""
        if self.degree == 0:
            return []
        if self.degree == 1:
            return [-self.coefficients[0] / self.coefficients[1]]
        crit = self.derivative().roots(tolerance)
        bound = 1 + max(abs(c / self.coefficients[-1]) for c in self.coefficients[:-1])
        points = [-bound] + crit + [bound]
        out = []
        for a, b in zip(points, points[1:]):
            fa, fb = self.evaluate(a), self.evaluate(b)
            if abs(fa) <= tolerance:
                if not out or abs(out[-1] - a) > 1e-9:
                    out.append(a)
                continue
            if fa * fb > 0:
                continue
            for _ in range(200):
                m = (a + b) / 2
                fm = self.evaluate(m)
                if fa * fm <= 0:
                    b = m
                else:
                    a, fa = m, fm
            out.append(round((a + b) / 2, 10))
        return out

    def __repr__(self):
        return "Polynomial(%r)" % self.coefficients
