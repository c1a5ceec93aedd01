"""Thread retention: delete the checkpoints (transcripts) of threads idle for a given time
(``memory-agent threads prune``). A plain function so the CLI, notebooks and tests share it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.checkpoints import checkpoint_thread_id, store_errors


def prune_threads(agent: MemoryAgent, older_than_days: float, *, now: datetime | None = None,
                  user_id: str | None = None, dry_run: bool = False) -> list[dict[str, Any]]:
    """Delete the checkpoints (working memory: transcripts) of threads with no activity for
    ``older_than_days`` days, and remove them from the user → threads index.

    A thread's last activity is the time of its newest checkpoint. Threads waiting at an approval
    are kept (their proposals would be lost). Facts and audit rows are long-term memory and stay,
    including their provenance (which names the thread). Works on ``SqliteSaver`` and
    ``PostgresSaver`` (``delete_thread``).

    Returns one row per thread looked at: ``{"user_id", "thread_id", "last_active", "action"}`` with
    ``action`` in ``deleted`` | ``would delete`` | ``kept (recent)`` | ``kept (waiting for approval)``.

    Raises:
        ValueError: ``older_than_days`` is negative.
        memory_agent.stores.base.StoreError: a store is down.
    """
    if older_than_days < 0:
        raise ValueError("--older-than must be a number of days >= 0")
    now = now or datetime.now(UTC)
    cutoff = now - timedelta(days=older_than_days)
    ledger = agent.memory.ledger
    created = {(u, t): datetime.fromisoformat(c) for u, t, c in ledger.all_threads()}
    pairs = [(user_id, t) for t in ledger.threads(user_id)] if user_id else list(created)
    out = []
    for user, thread in pairs:
        key = checkpoint_thread_id(user, thread)
        with store_errors():
            latest = agent.checkpointer.get_tuple({"configurable": {"thread_id": key}})
        last = datetime.fromisoformat(latest.checkpoint["ts"]) if latest else None
        row = {"user_id": user, "thread_id": thread, "last_active": last.isoformat() if last else None}
        if last is not None and last >= cutoff:
            row["action"] = "kept (recent)"
        elif last is not None and agent.pending(user, thread):
            row["action"] = "kept (waiting for approval)"
        elif last is None and created.get((user, thread), now) >= cutoff:
            row["action"] = "kept (recent)"  # a turn of another process may be writing its first checkpoint
        elif dry_run:
            row["action"] = "would delete"
        else:
            with store_errors():
                agent.checkpointer.delete_thread(key)
            ledger.forget_thread(user, thread)
            row["action"] = "deleted"
        out.append(row)
    return out
