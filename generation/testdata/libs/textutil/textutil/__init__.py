"""Small text utilities: slugs, word counts and wrapping."""

from .core import slugify, slugify_many, word_count, wrap, apply

__all__ = ["slugify", "slugify_many", "word_count", "wrap", "apply"]
