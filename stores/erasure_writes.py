"""Erasing writes of :class:`memory_agent.stores.long_term.LongTermMemory`, each journaled
(:mod:`memory_agent.stores.journal`): one fact deleted with every version of its chain, what the
user's conversations stored since a time forgotten, and a user erased from every store.

The journal entry is written first and holds only ids (fact ids, thread ids, the tombstone id), so a
kill at any point is finished by the next :meth:`~memory_agent.stores.journal.JournaledWrites.repair`
or by running the same request again; a half-erased user is never left. Working memory (the
checkpointer's threads) is reached through ``transcripts`` (:class:`memory_agent.stores.base.Transcripts`),
which the application attaches.

Erasing a user ends every journal entry of that user (nothing of theirs is written again), and the
compaction of embedded files that follows is an entry of its own, keyed by the tombstone id, so the
journal holds nothing of the user once the erasure is recorded.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from memory_agent.core.facts import Fact, stable_id
from memory_agent.stores.base import Transcripts
from memory_agent.stores.journal import JournaledWrites

#: The journal entry of an erasure in progress (one per user).
ERASE_ENTRY = "j_erase_user"


class ErasureWrites(JournaledWrites):
    """Delete, forget-since and erase-user; mixed into ``LongTermMemory``, which sets the attributes below."""

    _embed: Callable[[str, str], list[float]]
    history: Callable[[str, str], list[Fact]]
    forget_cached: Callable[[str], None]

    def _working_memory(self) -> Transcripts:
        if self.transcripts is None:
            raise RuntimeError("This erasure also deletes transcripts: attach working memory first "
                               "(LongTermMemory.transcripts, as MemoryAgent does)")
        return self.transcripts

    # ---- delete one fact -----------------------------------------------------------------------
    def delete_chain(self, user_id: str, fact_id: str, now: datetime) -> dict[str, Any]:
        """Delete a fact for good with every version of its supersede chain: session summaries lose the
        parts that quote them, then the live index, the ledger (usage rows, episodes) and the audit
        rows' text (tombstones); one ``DELETE`` audit row, without content, records it.
        Returns ``{"deleted": [fact ids], "audit_rows_blanked": int}`` (``[]`` for an unknown fact)."""
        with self._writing(user_id):
            ids = [f.id for f in self.history(user_id, fact_id)]
            if not ids:
                return {"deleted": [], "audit_rows_blanked": 0}
            entry = stable_id(user_id, "delete", *ids, prefix="j_")
            payload = {"fact_id": fact_id, "ids": ids, "now": now.isoformat()}
            self._begin(user_id, entry, "delete", payload, now)
            return self._replay_delete(user_id, entry, payload)

    def _replay_delete(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        ids = p["ids"]  # summaries hold fact ids, shown only while live: nothing of the text stays there
        self.index.delete(user_id, ids)
        self.ledger.delete_facts(user_id, ids)
        blanked = self.ledger.tombstone_audit(user_id, fact_ids=ids)
        self.ledger.journal_end(user_id, entry, audit={
            "id": stable_id(user_id, "delete", *ids, prefix="a_"), "user_id": user_id, "at": p["now"],
            "operation": "DELETE", "decision": "deleted", "decided_by": "user", "fact_id": p["fact_id"],
            "reason": f"{len(ids)} version(s) deleted by the user"})
        return {"deleted": ids, "audit_rows_blanked": blanked}

    # ---- forget since a time -----------------------------------------------------------------------
    def forget_since(self, user_id: str, start: datetime, now: datetime) -> dict[str, Any]:
        """Forget what the user's conversations stored at or after ``start``: facts created then (live
        index and ledger; a fact one of them had superseded is live again), threads started then (with
        their checkpoints), summaries, episodes and usage of that time; the turns of that time in older
        threads are dropped, and audit rows of that time lose their text. One ``FORGET`` audit row.

        Returns ``{"since", "facts", "threads", "revived", "turns_dropped", "session_summaries",
        "episodes", "audit_rows_blanked"}``.

        Raises:
            RuntimeError: no working memory is attached (``transcripts``).
        """
        self._working_memory()
        with self._writing(user_id):
            cut = start.isoformat()
            facts = self.ledger.facts(user_id)
            gone = sorted(f.id for f in facts if f.created_at.isoformat() >= cut)
            revive = [f.id for f in facts if f.id not in gone and f.status == "superseded" and f.superseded_by in gone]
            payload = {"start": cut, "now": now.isoformat(), "facts": gone, "revive": revive,
                       "threads": self.ledger.threads(user_id, since=start)}
            entry = stable_id(user_id, "forget", cut, now.isoformat(), prefix="j_")
            self._begin(user_id, entry, "forget_since", payload, now)
            return self._replay_forget_since(user_id, entry, payload)

    def _replay_forget_since(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        transcripts, start, now = self._working_memory(), datetime.fromisoformat(p["start"]), p["now"]
        self.index.delete(user_id, p["facts"])
        for fact_id in p["revive"]:  # the update that replaced it is forgotten: live again
            self.ledger.change_status(user_id, fact_id, "confirmed", datetime.fromisoformat(now), expect="superseded")
            fact = self.ledger.get_fact(user_id, fact_id)
            if fact is not None and fact.status == "confirmed":
                self.index.upsert(user_id, [fact], [self._embed(user_id, fact.index_text)])
        transcripts.delete_threads(user_id, p["threads"])
        out = self.ledger.forget_since(user_id, start)
        rewound = {}
        for thread_id in self.ledger.threads(user_id):  # older threads with turns in the window lose those turns
            dropped = transcripts.rewind(user_id, thread_id, start)
            if dropped:
                rewound[thread_id] = dropped
        self.ledger.journal_end(user_id, entry, audit={
            "id": stable_id(user_id, "forget", p["start"], now, prefix="a_"), "user_id": user_id, "at": now,
            "operation": "FORGET", "decision": "forgotten", "decided_by": "user",
            "reason": f"since {p['start']}: {len(p['facts'])} fact(s), {len(p['threads'])} thread(s)"})
        return {"since": p["start"], "facts": p["facts"], "threads": p["threads"], "revived": p["revive"],
                "turns_dropped": rewound, "session_summaries": out["session_summaries"], "episodes": out["episodes"],
                "audit_rows_blanked": out["audit_log"]}

    # ---- erase a user ------------------------------------------------------------------------------
    def erase_user(self, user_id: str, now: datetime) -> dict[str, Any]:
        """Erase the user from every store: the checkpoints of every thread of the user, the live index
        (the user's collection), every ledger row (facts, usage, threads, the memory switch, summaries,
        episodes, unfinished journal entries), and the audit rows become tombstones under a random id
        (not derived from the user id); one ``ERASE`` tombstone row records it with its counts. Then the
        embedded files are compacted so deleted text does not linger.

        An erasure cut short is recorded in the journal first ("erase in progress"): it is finished at
        the next open, or by calling this again (with the same tombstone).

        Returns ``{"removed": {store or table: count}, "tombstone": str}``.

        Raises:
            RuntimeError: no working memory is attached (``transcripts``).
        """
        self._working_memory()
        with self._writing(user_id):
            begun = [e for e in self.ledger.journal_open(user_id) if e["id"] == ERASE_ENTRY]
            tombstone = begun[0]["payload"]["tombstone"] if begun else f"erased-{uuid.uuid4().hex}"
            payload = {"tombstone": tombstone, "now": now.isoformat()}
            self._begin(user_id, ERASE_ENTRY, "erase_user", payload, now)
            return self._replay_erase_user(user_id, ERASE_ENTRY, payload)

    def _replay_erase_user(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        transcripts, tombstone = self._working_memory(), p["tombstone"]
        self._begin(tombstone, "j_compact", "compact", {}, datetime.fromisoformat(p["now"]))
        removed = {"checkpoint_threads": transcripts.delete_threads(user_id, self.ledger.threads(user_id), every=True),
                   "live_index": self.index.drop_user(user_id)}
        removed.update(self.ledger.erase_user(user_id, tombstone))
        self.forget_cached(user_id)
        self.ledger.journal_end(user_id, entry, every=True, audit={
            "id": f"a_{tombstone}", "user_id": tombstone, "at": p["now"], "operation": "ERASE",
            "decision": "erased", "decided_by": "user",
            "reason": "forget-user: " + ", ".join(f"{k} {v}" for k, v in sorted(removed.items()))})
        self._replay_compact(tombstone, "j_compact", {})  # no user lock of its own: nothing else writes it
        return {"removed": removed, "tombstone": tombstone}

    def _replay_compact(self, key: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        self._working_memory().compact()
        self.ledger.journal_end(key, entry)
        return {}
