"""Polynomials in one variable."""

from .poly import Polynomial, PolynomialError

__all__ = ["Polynomial", "PolynomialError"]
