"""Text normalisation shared by the memory rules: how two statements are compared as text."""

from __future__ import annotations


def normalise(text: str) -> str:
    """Case-folded text with runs of whitespace collapsed to one space."""
    return " ".join(text.casefold().split())
