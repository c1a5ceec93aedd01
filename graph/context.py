"""Run context (LangGraph ``context_schema``): who is talking and what time it is.

Passed with every run, never read from the environment behind the caller's back.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from memory_agent.core.facts import utcnow

ApprovalMode = Literal["always", "risky-only", "never"]

#: Longest accepted user id, in characters: an e-mail address is at most 254 (RFC 5321), and
#: every id is stored in full in each Chroma collection's metadata and each SQL row.
MAX_USER_ID_CHARS = 256


#: The id ``forget-user`` gives the audit rows of an erased user (random, printed once); never usable
#: as a user id, so nobody reads an erased user's audit metadata through it.
TOMBSTONE_PREFIX = "erased-"
_TOMBSTONE = re.compile(r"erased-[0-9a-f]{32}")
# Control characters, format characters (zero-width, bidi controls) and line/paragraph separators:
# they hide or move text, so an id holding one can look like another user's.
_HIDDEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")


def tombstone_id() -> str:
    """A new tombstone id: :data:`TOMBSTONE_PREFIX` and 32 random hex digits."""
    return f"{TOMBSTONE_PREFIX}{uuid.uuid4().hex}"


def user_id_problem(user_id: object) -> str | None:
    """Why ``user_id`` is not accepted (``None`` when it is): not a string, blank, longer than
    :data:`MAX_USER_ID_CHARS`, containing control characters, invisible format characters (Unicode
    category Cf: zero-width, bidi overrides) or line/paragraph separators, or a tombstone id of an
    erased user (:func:`tombstone_id`). Ids are compared exactly (``Alice@x`` and ``alice@x`` are two
    users)."""
    if not isinstance(user_id, str) or not user_id.strip():
        return ("The user id is empty: pass a non-blank user id (--user alice@example.com on the command line, "
                "user_id in a run context)")
    if len(user_id) > MAX_USER_ID_CHARS:
        return (f"The user id has {len(user_id):,} characters; the limit is {MAX_USER_ID_CHARS}. "
                "Use a shorter stable id, e.g. the e-mail address or an account number.")
    hidden = sorted({f"U+{ord(c):04X}" for c in user_id if unicodedata.category(c) in _HIDDEN_CATEGORIES})
    if hidden:
        return ("The user id contains control characters or invisible characters (line breaks, tabs, NUL, "
                f"zero-width, bidi controls, line separators: {', '.join(hidden)}): remove them.")
    if _TOMBSTONE.fullmatch(user_id):
        return ("The user id is the tombstone of an erased user (forget-user): it names no user and reads "
                "nothing. Use the id of a live user.")
    return None


@dataclass(frozen=True)
class AgentContext:
    """Context of one run.

    Attributes:
        user_id: whose memories are read and written; any non-blank string of at most
            :data:`MAX_USER_ID_CHARS` characters without control or invisible characters that is
            not a tombstone id (:func:`user_id_problem`).
        now: the clock (timezone-aware; naive is taken as UTC). ``None`` means the wall clock.
            Every timestamp the system writes or compares uses it, so evals can replay
            sessions months apart.
        approval: ``always`` ask (default), ``risky-only`` (constraints, restricted facts,
            updates and retractions still ask), ``never`` (auto-approve, for evals).
        memory_enabled: ``False`` turns long-term memory off: no reads, no proposals, no writes.
        thread_id: the thread id as the user knows it, recorded as provenance (default: the
            checkpointer's thread id from the run config).

    Raises:
        ValueError: a user id :func:`user_id_problem` refuses, ``now`` not a
            datetime, or an unknown approval mode.
    """

    user_id: str
    now: datetime | None = None
    approval: ApprovalMode = "always"
    memory_enabled: bool = True
    thread_id: str | None = None

    def __post_init__(self) -> None:
        problem = user_id_problem(self.user_id)
        if problem:
            raise ValueError(problem)
        if self.now is not None and not isinstance(self.now, datetime):
            raise ValueError(f"now must be a datetime (timezone-aware, or naive meaning UTC), not {self.now!r}")
        if self.approval not in ("always", "risky-only", "never"):
            raise ValueError(f"approval must be always, risky-only or never, not {self.approval!r}")

    def clock(self) -> datetime:
        """The context clock as an aware UTC datetime."""
        if self.now is None:
            return utcnow()
        return self.now.replace(tzinfo=UTC) if self.now.tzinfo is None else self.now.astimezone(UTC)
