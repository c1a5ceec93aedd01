"""Run context (LangGraph ``context_schema``): who is talking and what time it is.

Passed with every run, never read from the environment behind the caller's back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from memory_agent.facts import utcnow

ApprovalMode = Literal["always", "risky-only", "never"]


@dataclass(frozen=True)
class AgentContext:
    """Context of one run.

    Attributes:
        user_id: whose memories are read and written; any non-blank string.
        now: the clock (timezone-aware; naive is taken as UTC). ``None`` means the wall clock.
            Every timestamp the system writes or compares uses it, so evals can replay
            sessions months apart.
        approval: ``always`` ask (default), ``risky-only`` (constraints, restricted facts,
            updates and retractions still ask), ``never`` (auto-approve, for evals).
        memory_enabled: ``False`` turns long-term memory off: no reads, no proposals, no writes.
        thread_id: the thread id as the user knows it, recorded as provenance (default: the
            checkpointer's thread id from the run config).

    Raises:
        ValueError: blank user id, ``now`` not a datetime, or unknown approval mode.
    """

    user_id: str
    now: datetime | None = None
    approval: ApprovalMode = "always"
    memory_enabled: bool = True
    thread_id: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.user_id, str) or not self.user_id.strip():
            raise ValueError("user_id must be a non-empty string, e.g. --user alice@example.com")
        if self.now is not None and not isinstance(self.now, datetime):
            raise ValueError(f"now must be a datetime (timezone-aware, or naive meaning UTC), not {self.now!r}")
        if self.approval not in ("always", "risky-only", "never"):
            raise ValueError(f"approval must be always, risky-only or never, not {self.approval!r}")

    def clock(self) -> datetime:
        """The context clock as an aware UTC datetime."""
        if self.now is None:
            return utcnow()
        return self.now.replace(tzinfo=UTC) if self.now.tzinfo is None else self.now.astimezone(UTC)
