"""The one journaled path every write of long-term memory takes, and :meth:`JournaledWrites.repair`.

A write of facts, audit rows, session summaries or episodes touches several stores (the ledger, the
live index, sometimes the checkpointer) in several steps, and a process can die between any two of
them (SIGKILL, power, a store going down). So every writer of
:class:`memory_agent.stores.long_term.LongTermMemory` follows one pattern:

1. take the user's write lock (:meth:`memory_agent.stores.base.CommitJournal.user_lock`), so writers
   of one user never interleave — threads of a process, and processes sharing Postgres;
2. record the write in the ledger's journal (``journal_begin``), with everything needed to do it
   again: its operation (``op``) and deterministic ids;
3. do the steps, each idempotent (a compare-and-set status change with its audit row in one ledger
   transaction, upserts keyed by deterministic ids, deletes);
4. remove the entry together with the write's last audit row (``journal_end``, one transaction).

:meth:`JournaledWrites.repair` runs every entry still open again, each under its user's lock, so a
write cut short is finished exactly once. It runs when the agent opens, and again before the next
write (or turn) after a write failed: a decision cut short by an outage is finished as soon as the
store is back, not at the next restart. With the journal empty it costs one small query.

Operations (``payload["op"]``; an entry without one is a ``commit``, as older releases wrote it):
``commit`` (:mod:`memory_agent.stores.fact_writes`), ``retire``, ``merge``, ``renew``, ``setting``,
``summary`` (:mod:`memory_agent.stores.lifecycle_writes`), ``delete``, ``forget_since``, ``erase_user``,
``compact`` (:mod:`memory_agent.stores.erasure_writes`). The last three need working memory
(:class:`memory_agent.stores.base.Transcripts`, set by the application as ``transcripts``); without
it their entries stay open for the application to finish.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from memory_agent.stores.base import FactIndex, FactLedger, Transcripts

#: operation -> the method that carries it out again from its journal payload
REPLAYS = {
    "commit": "_replay_commit", "retire": "_replay_retire", "merge": "_replay_merge", "renew": "_replay_renew",
    "setting": "_replay_setting", "summary": "_replay_summary", "delete": "_replay_delete",
    "forget_since": "_replay_forget_since", "erase_user": "_replay_erase_user", "compact": "_replay_compact",
}
#: operations whose steps include working memory (the checkpointer)
NEEDS_TRANSCRIPTS = frozenset({"forget_since", "erase_user", "compact"})


class JournaledWrites:
    """The journal pattern of the module docstring; mixed into ``LongTermMemory``, which sets the
    attributes below (``transcripts`` is ``None`` until an application attaches its working memory)."""

    index: FactIndex
    ledger: FactLedger
    transcripts: Transcripts | None
    _repair_due: bool

    @contextmanager
    def _writing(self, user_id: str) -> Iterator[None]:
        """Finish writes a failure left open (if any), then hold ``user_id``'s write lock for the block.
        Any failure inside marks a repair as due, for the next write or turn."""
        self.repair_if_due()
        try:
            with self.ledger.user_lock(user_id):
                yield
        except BaseException:
            self._repair_due = True
            raise

    def _begin(self, user_id: str, entry_id: str, op: str, payload: dict[str, Any], now: datetime) -> None:
        """Journal step 2: record the write ``op`` about to be made (idempotent on ``entry_id``)."""
        self.ledger.journal_begin(user_id, entry_id, {"op": op, **payload}, now)

    def mark_repair_due(self) -> None:
        """Note that a store failed (the caller saw a ``StoreError``): the next write or turn runs
        :meth:`repair` first."""
        self._repair_due = True

    def repair_if_due(self) -> None:
        """Run :meth:`repair` if an earlier write of this process failed (a store error, an exception
        mid-write); a no-op otherwise.

        Raises:
            memory_agent.stores.base.StoreError: a store is still down (the repair stays due).
        """
        if self._repair_due:
            self.repair()

    def repair(self) -> list[dict[str, Any]]:
        """Carry out again every write left in the journal (by a crash, or a store that went down
        mid-write), each under its user's lock; an entry another writer finished meanwhile is skipped.
        Returns one dict per write finished, ``{"op", "user_id", "entry", ...}`` (a ``commit`` adds the
        summary of :meth:`memory_agent.stores.fact_writes.FactWrites.apply`); ``[]`` when nothing was
        left (one small query). Entries that need working memory stay open while ``transcripts`` is unset.

        Raises:
            memory_agent.stores.base.StoreError: a store is down; the journal keeps the entries for the next try.
        """
        self._repair_due = True  # until every entry went through
        done = []
        for entry in self.ledger.journal_open():
            user_id, payload = entry["user_id"], entry["payload"]
            op = payload.get("op", "commit")
            if op not in REPLAYS or (op in NEEDS_TRANSCRIPTS and self.transcripts is None):
                continue
            with self.ledger.user_lock(user_id):
                if not any(e["id"] == entry["id"] for e in self.ledger.journal_open(user_id)):
                    continue  # finished by its own writer while this one waited for the lock
                result = getattr(self, REPLAYS[op])(user_id, entry["id"], payload)
            done.append({"op": op, "user_id": user_id, "entry": entry["id"], **(result or {})})
        self._repair_due = False
        return done
