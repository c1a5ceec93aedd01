"""Caps on what memory may hold and inject, each with a clear message when it is reached.

- **content length per fact**: ``memory_agent.memory.validation.MAX_CONTENT_CHARS`` (300 characters);
  a longer proposal or edit is refused with that reason.
- **facts per user**: ``Settings.max_facts_per_user`` (default 2,000 live facts); a new fact
  over the cap is not proposed, and the turn says why (delete some, or run ``maintain``).
- **injected tokens per turn**: ``Settings.max_memory_tokens`` (default 600); the memories that
  do not fit are left out, best first kept, and the memory block says how many were left out.

Tokens are estimated as ``ceil(characters / 4)``, OpenAI's rule of thumb for English text
("one token is roughly 4 characters", help.openai.com, "What are tokens and how to count
them?"): an estimate, good enough for a budget, not an exact tokenizer count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

DEFAULT_MAX_FACTS_PER_USER = 2000
DEFAULT_MAX_MEMORY_TOKENS = 600
DEFAULT_MAX_SESSION_TOKENS = 400
CAP_FACTS = "facts_per_user"
CAP_TOKENS = "memory_tokens"


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text``: ``ceil(len / 4)`` (0 for empty text)."""
    return math.ceil(len(text or "") / 4)


def fit_to_budget(items: Sequence[dict], budget: int, text_key: str = "content") -> tuple[list[dict], list[dict]]:
    """Keep ``items`` in their order while their estimated tokens fit ``budget``; returns
    ``(kept, left_out)``. An item that does not fit is left out (later, shorter ones may still fit)."""
    kept, left_out, used = [], [], 0
    for item in items:
        cost = estimate_tokens(str(item.get(text_key, ""))) + 4  # the "- [kind] " prefix and line break
        if used + cost <= budget:
            kept.append(item)
            used += cost
        else:
            left_out.append(item)
    return kept, left_out


def facts_cap_reason(live: int, cap: int) -> str:
    """The message of a proposal refused because the user has ``live`` of ``cap`` facts."""
    return (f"memory is full: {live} of {cap} facts kept for this user (max_facts_per_user). Delete some "
            "(memory-agent memories delete) or run memory-agent maintain; nothing was written")
