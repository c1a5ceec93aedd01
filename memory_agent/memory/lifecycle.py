"""Forgetting on purpose, the rules: validity by kind, review dates, confirmation and decay.

**Validity by kind** (:class:`LifecyclePolicy`, applied when a fact is written): commitments
and events expire (``valid_until``), unless the user stated an end of their own ("until March
10", "this quarter": :mod:`memory_agent.memory.end_dates`), which replaces the default for any
kind; preferences, constraints and projects get a review date
(``review_at``). An expired fact is never injected (``retrieval.rank`` drops it). A fact whose
review date is within ``review_window_days`` is injected with a note asking the agent to confirm
it with the user; a confirmation renews it (a new review date): "yes, still true" right after
the note, or restating the fact; a change supersedes it.

**maintain** (:func:`memory_agent.stores.maintenance.maintain` applies these rules to the stores),
for every user of the ledger, at the clock ``now``:

1. *expire*: live facts past ``valid_until`` become ``expired`` and leave the live index;
2. *review queue*: live facts whose review date is due (returned, not changed);
3. *decay and prune*: ``decayed = importance · 0.5^(unused days / decay_half_life_days)``
   (unused since last injected, or since written); under ``prune_below`` the fact becomes
   ``expired`` (reason "pruned"). Constraints (an allergy, a budget) and restricted facts never decay;
4. *merge duplicates*: two live facts of one kind whose normalised content is equal, or whose
   cosine similarity is at least ``merge_similarity`` with the same polarity, become one: the
   older survives with every source of both (``merged_sources``, ``merged_from``), the use
   counts add up, the other is ``superseded`` by it;
5. *prune checkpoints*: finished threads keep only their latest checkpoint (what a resume needs).

Every change is written to the audit log (``decided_by = "maintain"``). The defaults are this
template's choices, not measured optima: change them in one place, :class:`LifecyclePolicy` (its
per-kind tables come from :mod:`memory_agent.core.kinds`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from memory_agent.core import kinds
from memory_agent.core.facts import Fact


@dataclass(frozen=True)
class LifecyclePolicy:
    """Validity and maintenance knobs (days; importance and similarity 0–1).

    - ``expire_days``: kind → days until ``valid_until`` (commitments and events expire).
    - ``review_days``: kind → days until ``review_at`` (preferences, constraints, projects).
    - ``review_window_days``: how long before its review date a fact is injected with a note.
    - ``decay_half_life_days``, ``prune_below``: see the module docstring.
    - ``never_decay_kinds``: kinds that never decay (constraints: an allergy stays).
    - ``merge_similarity``: cosine similarity at or above which two facts are near duplicates
      (the reconcile NOOP threshold of this template is of the same order).

    ``None`` in ``expire_days``, ``review_days`` or ``never_decay_kinds`` (the default) reads that
    table from the kind registry (:mod:`memory_agent.core.kinds`) at each call.
    """

    expire_days: dict[str, float] | None = None
    review_days: dict[str, float] | None = None
    review_window_days: float = 14.0
    decay_half_life_days: float = 90.0
    prune_below: float = 0.1
    never_decay_kinds: frozenset[str] | None = None
    merge_similarity: float = 0.92


DEFAULT_POLICY = LifecyclePolicy()


def validity(kind: str, now: datetime, policy: LifecyclePolicy = DEFAULT_POLICY,
             stated_until: datetime | None = None) -> dict[str, datetime | None]:
    """``{"valid_until", "review_at"}`` for a fact of ``kind`` written at ``now``.

    ``stated_until`` is an end the user stated for this fact (already checked:
    :func:`memory_agent.memory.end_dates.check_valid_until`); it replaces the kind's default
    ``valid_until``, shorter or longer. Without it the kind's default applies."""
    expire = (kinds.expire_days() if policy.expire_days is None else policy.expire_days).get(kind)
    review = (kinds.review_days() if policy.review_days is None else policy.review_days).get(kind)
    default_until = now + timedelta(days=expire) if expire is not None else None
    return {"valid_until": stated_until if stated_until is not None else default_until,
            "review_at": now + timedelta(days=review) if review is not None else None}


def expires_by_kind(kind: str, policy: LifecyclePolicy = DEFAULT_POLICY) -> bool:
    """True when facts of ``kind`` get a default ``valid_until`` (so a fact of another kind that has
    one holds an end the user stated, which a renewal must keep)."""
    return kind in (kinds.expire_days() if policy.expire_days is None else policy.expire_days)


def review_due(fact: Fact, now: datetime, policy: LifecyclePolicy = DEFAULT_POLICY) -> bool:
    """True when the fact has a review date within ``review_window_days`` of ``now`` (or past it)."""
    return fact.review_at is not None and fact.review_at - timedelta(days=policy.review_window_days) <= now


_CONFIRM = re.compile(
    r"^\W*(yes|yep|yeah|yup|correct|right|exactly|indeed|sure|still (true|the case|correct|right)|"
    r"that's (right|correct|still true)|that is (right|correct|still true)|nothing changed|no change)\b",
    re.IGNORECASE,
)


def is_confirmation(text: str) -> bool:
    """True when a message starts by confirming ("yes", "still true", "that's right", ...): the
    reply to a review note, which renews the memories it asked about."""
    return bool(_CONFIRM.search(text or ""))


def decayed_importance(fact: Fact, now: datetime, policy: LifecyclePolicy = DEFAULT_POLICY) -> float:
    """``importance · 0.5^(unused days / half-life)``; a never-decaying fact keeps its importance."""
    never = kinds.never_decay_kinds() if policy.never_decay_kinds is None else policy.never_decay_kinds
    if fact.kind in never or fact.sensitivity == "restricted":
        return fact.importance
    last = fact.last_used_at or fact.updated_at
    unused_days = max(0.0, (now - last).total_seconds() / 86400.0)
    return fact.importance * math.pow(0.5, unused_days / policy.decay_half_life_days)
