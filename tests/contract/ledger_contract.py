"""The behaviour every :class:`memory_agent.stores.base.FactLedger` backend must have, as a reusable
test class written only against the role protocols (no SQLite or Postgres specifics).

To run it against a new backend, add ``tests/contract/test_<backend>_ledger.py``::

    import pytest
    from ledger_contract import LedgerContract

    class TestMyLedger(LedgerContract):
        @pytest.fixture
        def ledger(self, tmp_path):
            store = MyLedger(...)   # a fresh, empty ledger for each test
            yield store
            store.close()

Every test of :class:`LedgerContract` then runs on it (``pytest tests/contract/test_<backend>_ledger.py``).
The ledger must hold no rows at the start of a test. Times are timezone-aware datetimes; rows come back
with times as ISO-8601 text where the protocol says so.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from memory_agent.core.facts import Fact, Source
from memory_agent.stores.base import StoreError

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def at(days: float) -> datetime:
    return T0 + timedelta(days=days)


def fact(user_id: str, fid: str, content: str, *, days: float = 0, **fields) -> Fact:
    """A confirmed fact created ``days`` after :data:`T0` unless overridden."""
    base = {"kind": "fact", "source": Source(thread_id="t1", message_ids=["m1"]), "evidence": content,
            "created_at": at(days), "updated_at": at(days)}
    return Fact(id=fid, user_id=user_id, content=content, **{**base, **fields})


def audit_row(rid: str, user_id: str, days: float = 0, **fields) -> dict:
    return {"id": rid, "user_id": user_id, "thread_id": "t1", "at": at(days), "operation": "add", "kind": "fact",
            "content": f"content of {rid}", "evidence": "evidence", "decision": "approved", "decided_by": "auto",
            "reason": "ok", "fact_id": None, "target_id": None, "proposal": {"n": 1}, **fields}


def summary(user_id: str, thread_id: str, ended: float, fact_ids: tuple[str, ...] = ("f1", "f2")) -> dict:
    return {"user_id": user_id, "thread_id": thread_id, "started_at": at(ended - 0.1), "ended_at": at(ended),
            "fact_ids": list(fact_ids)}


def episode(user_id: str, eid: str, days: float, fact_id: str | None = None) -> dict:
    return {"user_id": user_id, "id": eid, "occurred_at": at(days), "kind": "decision", "topic": "plans",
            "content": f"episode {eid}", "thread_id": "t1", "fact_id": fact_id}


class LedgerContract:
    """The contract; a subclass provides the ``ledger`` fixture (see the module docstring)."""

    # ---- facts ------------------------------------------------------------------------------------
    def test_change_status_is_a_compare_and_set_written_with_its_audit_row(self, ledger):
        ledger.save_fact(fact("alice", "f1", "The user lives in Oslo."))
        ledger.save_fact(fact("alice", "f2", "The user lives in Bergen.", days=1))
        assert ledger.change_status("alice", "f1", "superseded", at(1), superseded_by="f2",
                                    audit=audit_row("a_f2", "alice", fact_id="f2", target_id="f1")) is True
        # a second writer that read f1 as live before: refused, its audit row not written
        assert ledger.change_status("alice", "f1", "superseded", at(2), superseded_by="f3",
                                    audit=audit_row("a_f3", "alice")) is False
        stored = ledger.get_fact("alice", "f1")
        assert (stored.status, stored.superseded_by, stored.updated_at) == ("superseded", "f2", at(1))
        assert [r["id"] for r in ledger.audit_rows("alice")] == ["a_f2"]
        assert [f.id for f in ledger.facts("alice", "confirmed")] == ["f2"]
        assert ledger.change_status("bob", "f2", "retracted", at(2)) is False  # another user's id: nothing
        # undoing a supersede names the status it expects
        assert ledger.change_status("alice", "f1", "confirmed", at(3), expect="superseded") is True
        assert ledger.get_fact("alice", "f1").superseded_by is None

    def test_change_status_rewrites_the_fact_it_merges_into_only_while_it_is_live(self, ledger):
        ledger.save_fact(fact("alice", "keep", "The user likes tea."))
        ledger.save_fact(fact("alice", "dup", "The user likes tea!", days=1))
        merged = ledger.get_fact("alice", "keep").model_copy(update={"merged_from": ["dup"], "use_count": 3})
        assert ledger.change_status("alice", "dup", "superseded", at(2), superseded_by="keep", update=merged,
                                    audit=audit_row("a_m", "alice")) is True
        assert ledger.get_fact("alice", "keep").merged_from == ["dup"]
        assert ledger.change_status("alice", "dup", "superseded", at(2), superseded_by="keep",
                                    update=merged.model_copy(update={"merged_from": ["dup", "dup"]})) is False
        assert ledger.get_fact("alice", "keep").merged_from == ["dup"]  # a replay repeats nothing
        with pytest.raises(StoreError):  # one transaction: a refused audit row undoes the status change
            ledger.change_status("alice", "keep", "expired", at(3), audit=audit_row("a_x", "alice", decision=None))
        assert ledger.get_fact("alice", "keep").status == "confirmed"

    def test_save_fact_never_revives_an_ended_fact_or_overwrites_superseded_by(self, ledger):
        live = fact("alice", "f1", "The user lives in Oslo.")
        ledger.save_fact(live)
        ledger.change_status("alice", "f1", "superseded", at(1), superseded_by="f2")
        ledger.save_fact(live.model_copy(update={"content": "stale copy"}))  # a writer with an old copy
        stored = ledger.get_fact("alice", "f1")
        assert (stored.status, stored.superseded_by, stored.content) == ("superseded", "f2", "The user lives in Oslo.")
        ledger.save_fact(fact("alice", "f3", "The user likes tea."))
        ledger.save_fact(fact("alice", "f3", "The user likes green tea."))  # a live fact is still replaced
        assert ledger.get_fact("alice", "f3").content == "The user likes green tea."

    def test_update_live_fact_writes_with_its_audit_row_only_while_confirmed(self, ledger):
        ledger.save_fact(fact("alice", "f1", "The user prefers short answers.", kind="preference"))
        renewed = ledger.get_fact("alice", "f1").model_copy(update={"review_at": at(180), "updated_at": at(1)})
        assert ledger.update_live_fact(renewed, audit=audit_row("a_r", "alice")) is True
        assert ledger.get_fact("alice", "f1").review_at == at(180)
        ledger.change_status("alice", "f1", "expired", at(2))
        assert ledger.update_live_fact(renewed.model_copy(update={"review_at": at(365)}),
                                       audit=audit_row("a_r2", "alice")) is False
        stored = ledger.get_fact("alice", "f1")
        assert (stored.status, stored.review_at) == ("expired", at(180))
        assert [r["id"] for r in ledger.audit_rows("alice")] == ["a_r"]

    def test_save_fact_replaces_by_user_and_id_and_get_fact_is_scoped(self, ledger):
        ledger.save_fact(fact("alice", "f1", "The user lives in Munich."))
        ledger.save_fact(fact("alice", "f1", "The user lives in Oslo."))  # same key: replaced
        ledger.save_fact(fact("bob", "f1", "Bob's own fact with the same id."))
        assert ledger.get_fact("alice", "f1").content == "The user lives in Oslo."
        assert ledger.get_fact("bob", "f1").content == "Bob's own fact with the same id."
        assert ledger.get_fact("carol", "f1") is None
        assert ledger.get_fact("alice", "missing") is None
        assert [f.content for f in ledger.facts("alice")] == ["The user lives in Oslo."]

    def test_facts_are_oldest_first_and_filter_by_status(self, ledger):
        ledger.save_fact(fact("alice", "f2", "second", days=2))
        ledger.save_fact(fact("alice", "f1", "first", days=1, status="superseded", superseded_by="f2"))
        ledger.save_fact(fact("alice", "f3", "third", days=3, status="retracted"))
        ledger.save_fact(fact("bob", "fb", "bob's", days=0))
        assert [f.id for f in ledger.facts("alice")] == ["f1", "f2", "f3"]
        assert [f.id for f in ledger.facts("alice", "confirmed")] == ["f2"]
        assert [f.id for f in ledger.facts("alice", "superseded")] == ["f1"]
        assert [f.id for f in ledger.facts("alice", "retracted")] == ["f3"]
        assert ledger.facts("alice", "expired") == []
        assert ledger.facts("nobody") == []
        assert ledger.get_fact("alice", "f1").superseded_by == "f2"

    def test_live_facts_of_kinds_are_confirmed_ones_of_those_kinds(self, ledger):
        ledger.save_fact(fact("alice", "p1", "likes tea", kind="preference", days=1))
        ledger.save_fact(fact("alice", "f1", "lives in Oslo", kind="fact", days=2))
        ledger.save_fact(fact("alice", "p0", "liked coffee", kind="preference", status="superseded"))
        ledger.save_fact(fact("bob", "pb", "likes juice", kind="preference"))
        assert [f.id for f in ledger.live_facts_of_kinds("alice", ["preference"])] == ["p1"]
        assert [f.id for f in ledger.live_facts_of_kinds("alice", ["preference", "fact"])] == ["p1", "f1"]
        assert ledger.live_facts_of_kinds("alice", []) == []

    def test_touch_counts_once_per_turn_and_only_the_users_own_facts(self, ledger):
        ledger.save_fact(fact("alice", "f1", "a"))
        ledger.save_fact(fact("alice", "f2", "b"))
        ledger.save_fact(fact("bob", "f1", "bob's"))
        ledger.touch("alice", ["f2", "f1", "f1"], at(1), "turn-1")
        ledger.touch("alice", ["f1"], at(1), "turn-1")  # a re-run of the same turn
        ledger.touch("alice", ["f1", "missing"], at(2), "turn-2")
        assert ledger.get_fact("alice", "f1").use_count == 2
        assert ledger.get_fact("alice", "f1").last_used_at == at(2)
        assert ledger.get_fact("alice", "f2").use_count == 1
        assert ledger.get_fact("bob", "f1").use_count == 0
        assert ledger.get_fact("bob", "f1").last_used_at is None

    def test_delete_facts_removes_the_rows_and_their_episodes_of_that_user_only(self, ledger):
        for user in ("alice", "bob"):
            ledger.save_fact(fact(user, "f1", "a"))
            ledger.save_fact(fact(user, "f2", "b"))
            ledger.save_episode(episode(user, "e1", 1, fact_id="f1"))
        assert ledger.delete_facts("alice", ["f1", "missing"]) == 1
        assert ledger.delete_facts("alice", []) == 0
        assert [f.id for f in ledger.facts("alice")] == ["f2"]
        assert ledger.episodes("alice") == []
        assert [f.id for f in ledger.facts("bob")] == ["f1", "f2"]
        assert [e["id"] for e in ledger.episodes("bob")] == ["e1"]

    def test_generation_changes_with_every_change_to_the_users_facts_and_never_repeats(self, ledger):
        assert ledger.generation("alice") == ""  # no change recorded yet
        ledger.save_fact(fact("bob", "f9", "bob's"))
        bob = ledger.generation("bob")
        seen = [ledger.generation("alice")]
        ledger.save_fact(fact("alice", "f1", "a"))
        seen.append(ledger.generation("alice"))
        ledger.save_fact(fact("alice", "f1", "a", days=1, status="superseded"))  # a status change
        seen.append(ledger.generation("alice"))
        ledger.touch("alice", ["f1"], at(1), "turn-1")  # usage is not a change of the facts
        assert ledger.generation("alice") == seen[-1]
        ledger.save_fact(fact("alice", "f1", "a", days=2))
        seen.append(ledger.generation("alice"))
        ledger.delete_facts("alice", ["f1"])
        seen.append(ledger.generation("alice"))
        ledger.save_fact(fact("alice", "f2", "b", days=3))
        seen.append(ledger.generation("alice"))
        ledger.forget_since("alice", at(3))
        seen.append(ledger.generation("alice"))
        assert len(set(seen)) == len(seen) and all(seen[1:])
        assert ledger.generation("bob") == bob  # another user's changes leave it alone
        ledger.save_fact(fact("alice", "f3", "c"))
        ledger.erase_user("alice", "erased-1")
        assert ledger.generation("alice") == "" and ledger.generation("bob") == bob

    def test_live_versions_are_the_confirmed_facts_with_their_update_time(self, ledger):
        ledger.save_fact(fact("alice", "f1", "a", days=1))
        ledger.save_fact(fact("alice", "f2", "b", days=1, updated_at=at(5)))
        ledger.save_fact(fact("alice", "f3", "c", status="superseded"))
        ledger.save_fact(fact("bob", "f4", "d"))
        assert ledger.live_versions("alice") == {"f1": at(1), "f2": at(5)}
        assert ledger.live_versions("nobody") == {}

    # ---- audit log --------------------------------------------------------------------------------
    def test_audit_is_idempotent_on_id_and_scoped_to_the_user(self, ledger):
        assert ledger.audit(audit_row("a1", "alice", 1)) is True
        assert ledger.audit(audit_row("a1", "alice", 1, content="changed")) is False
        assert ledger.audit(audit_row("a0", "alice", 0)) is True
        assert ledger.audit(audit_row("b1", "bob", 0)) is True
        rows = ledger.audit_rows("alice")
        assert [r["id"] for r in rows] == ["a0", "a1"]
        assert rows[1]["content"] == "content of a1"
        assert rows[1]["at"] == at(1).isoformat()
        assert rows[1]["decision"] == "approved" and rows[1]["thread_id"] == "t1"
        assert [r["id"] for r in ledger.audit_rows("bob")] == ["b1"]
        assert ledger.audit_rows("nobody") == []

    def test_audit_rows_at_the_same_time_keep_insertion_order(self, ledger):
        for n in (3, 1, 2):
            ledger.audit(audit_row(f"a{n}", "alice", 0))
        assert [r["id"] for r in ledger.audit_rows("alice")] == ["a3", "a1", "a2"]

    def test_an_audit_row_missing_a_required_value_is_refused(self, ledger):
        with pytest.raises(StoreError, match="refused"):
            ledger.audit(audit_row("a1", "alice", decision=None))
        assert ledger.audit_rows("alice") == []

    def test_tombstone_audit_blanks_text_by_fact_since_or_with_a_new_id(self, ledger):
        ledger.audit(audit_row("a1", "alice", 1, fact_id="f1"))
        ledger.audit(audit_row("a2", "alice", 2, target_id="f1"))
        ledger.audit(audit_row("a3", "alice", 3, fact_id="f3"))
        ledger.audit(audit_row("b1", "bob", 1, fact_id="f1"))
        assert ledger.tombstone_audit("alice", fact_ids=[]) == 0
        assert ledger.tombstone_audit("alice", fact_ids=["f1"]) == 2
        rows = {r["id"]: r for r in ledger.audit_rows("alice")}
        assert rows["a1"]["content"] is None and rows["a2"]["evidence"] is None and rows["a2"]["proposal"] is None
        assert rows["a1"]["decision"] == "approved" and rows["a3"]["content"] == "content of a3"
        assert ledger.tombstone_audit("alice", since=at(3)) == 1
        assert ledger.audit_rows("bob")[0]["content"] == "content of b1"
        assert ledger.tombstone_audit("alice", new_user_id="gone-1") == 3
        assert ledger.audit_rows("alice") == []
        moved = ledger.audit_rows("gone-1")
        assert [r["id"] for r in moved] == ["a1", "a2", "a3"]
        assert all(r["thread_id"] is None and r["fact_id"] is None and r["target_id"] is None for r in moved)

    # ---- threads ----------------------------------------------------------------------------------
    def test_threads_are_remembered_once_per_user_oldest_first(self, ledger):
        ledger.remember_thread("alice", "t2", at(2))
        ledger.remember_thread("alice", "t1", at(1))
        ledger.remember_thread("alice", "t1", at(5))  # idempotent: the first time stays
        ledger.remember_thread("bob", "tb", at(0))
        assert ledger.threads("alice") == ["t1", "t2"]
        assert ledger.threads("alice", since=at(2)) == ["t2"]
        assert ledger.threads("bob") == ["tb"]
        assert ledger.threads("nobody") == []
        assert ledger.all_threads() == [("bob", "tb", at(0).isoformat()), ("alice", "t1", at(1).isoformat()),
                                        ("alice", "t2", at(2).isoformat())]

    def test_forget_thread_removes_only_that_users_thread(self, ledger):
        ledger.remember_thread("alice", "t1", at(1))
        ledger.remember_thread("bob", "t1", at(1))
        assert ledger.forget_thread("alice", "t1") is True
        assert ledger.forget_thread("alice", "t1") is False
        assert ledger.threads("alice") == []
        assert ledger.threads("bob") == ["t1"]

    def test_thread_activity_keeps_the_first_and_the_last_turn(self, ledger):
        ledger.touch_thread("alice", "t1", at(1))
        ledger.touch_thread("alice", "t1", at(3))
        ledger.touch_thread("alice", "t2", at(2))
        ledger.touch_thread("bob", "t1", at(9))
        assert ledger.thread_activity("alice") == {"t1": (at(1), at(3)), "t2": (at(2), at(2))}
        assert ledger.thread_activity("bob") == {"t1": (at(9), at(9))}
        assert ledger.thread_activity("nobody") == {}

    # ---- sessions and episodes --------------------------------------------------------------------
    def test_summaries_replace_per_thread_newest_first(self, ledger):
        ledger.save_summary(summary("alice", "t1", 1))
        ledger.save_summary(summary("alice", "t2", 2))
        ledger.save_summary(summary("alice", "t1", 3, fact_ids=("f3",)))
        ledger.save_summary(summary("bob", "t1", 1))
        rows = ledger.summaries("alice")
        assert [(r["thread_id"], r["fact_ids"]) for r in rows] == [("t1", ["f3"]), ("t2", ["f1", "f2"])]
        assert rows[0] == {"user_id": "alice", "thread_id": "t1", "started_at": at(3 - 0.1).isoformat(),
                           "ended_at": at(3).isoformat(), "fact_ids": ["f3"]}
        assert len(ledger.summaries("bob")) == 1
        assert ledger.summaries("nobody") == []

    def test_episodes_are_idempotent_and_filtered_by_time(self, ledger):
        assert ledger.save_episode(episode("alice", "e2", 2)) is True
        assert ledger.save_episode(episode("alice", "e1", 1)) is True
        assert ledger.save_episode(episode("alice", "e1", 1)) is False
        ledger.save_episode(episode("alice", "e3", 3))
        ledger.save_episode(episode("bob", "e1", 1))
        assert [e["id"] for e in ledger.episodes("alice")] == ["e1", "e2", "e3"]
        assert [e["id"] for e in ledger.episodes("alice", start=at(2))] == ["e2", "e3"]
        assert [e["id"] for e in ledger.episodes("alice", end=at(2))] == ["e1"]
        assert [e["id"] for e in ledger.episodes("alice", start=at(1.5), end=at(3))] == ["e2"]
        first = ledger.episodes("alice")[0]
        assert first["content"] == "episode e1" and first["occurred_at"] == at(1).isoformat()
        assert [e["id"] for e in ledger.episodes("bob")] == ["e1"]

    # ---- commit journal ---------------------------------------------------------------------------
    def test_journal_entries_stay_open_until_ended_by_their_user(self, ledger):
        ledger.journal_begin("alice", "j2", {"fact_id": "f2", "n": [1, 2]}, at(2))
        ledger.journal_begin("alice", "j1", {"fact_id": "f1"}, at(1))
        ledger.journal_begin("alice", "j1", {"fact_id": "other"}, at(5))  # idempotent
        ledger.journal_begin("bob", "j1", {"fact_id": "fb"}, at(3))
        assert ledger.journal_open() == [
            {"user_id": "alice", "id": "j1", "at": at(1).isoformat(), "payload": {"fact_id": "f1"}},
            {"user_id": "alice", "id": "j2", "at": at(2).isoformat(), "payload": {"fact_id": "f2", "n": [1, 2]}},
            {"user_id": "bob", "id": "j1", "at": at(3).isoformat(), "payload": {"fact_id": "fb"}},
        ]
        ledger.journal_end("alice", "j1")
        ledger.journal_end("alice", "missing")
        assert [(e["user_id"], e["id"]) for e in ledger.journal_open()] == [("alice", "j2"), ("bob", "j1")]
        assert [e["id"] for e in ledger.journal_open("bob")] == ["j1"]

    def test_journal_end_writes_the_audit_row_in_the_same_transaction(self, ledger):
        ledger.journal_begin("alice", "j1", {"op": "commit"}, at(1))
        ledger.journal_begin("alice", "j2", {"op": "retire"}, at(2))
        ledger.journal_begin("bob", "j1", {"op": "commit"}, at(3))
        assert ledger.journal_end("alice", "j1", audit=audit_row("a1", "alice")) is True
        assert ledger.journal_end("alice", "j1", audit=audit_row("a1", "alice")) is False  # a replay: once
        assert [r["id"] for r in ledger.audit_rows("alice")] == ["a1"]
        with pytest.raises(StoreError):  # a refused audit row: the entry stays for the next try
            ledger.journal_end("alice", "j2", audit=audit_row("a2", "alice", decision=None))
        assert [e["id"] for e in ledger.journal_open("alice")] == ["j2"]
        ledger.journal_begin("alice", "j3", {"op": "commit"}, at(4))
        ledger.journal_end("alice", "j_erase", every=True)  # erasing alice: nothing of hers is written again
        assert [(e["user_id"], e["id"]) for e in ledger.journal_open()] == [("bob", "j1")]

    def test_user_lock_lets_one_thread_of_a_user_write_at_a_time(self, ledger):
        ledger.save_fact(fact("alice", "f1", "counter"))
        inside, overlaps, errors = [0], [], []

        def writer(user: str) -> None:
            try:
                for _ in range(15):
                    with ledger.user_lock(user), ledger.user_lock(user):  # re-entrant
                        inside[0] += 1
                        overlaps.append(inside[0])
                        f = ledger.get_fact("alice", "f1")  # a read-modify-write that must not interleave
                        ledger.save_fact(f.model_copy(update={"use_count": f.use_count + 1}))
                        inside[0] -= 1
            except Exception as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=("alice",)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and max(overlaps) == 1
        assert ledger.get_fact("alice", "f1").use_count == 60

    # ---- users, settings, erasure -----------------------------------------------------------------
    def test_users_and_the_memory_switch(self, ledger):
        assert ledger.users() == []
        ledger.save_fact(fact("bob", "f1", "b"))
        ledger.save_fact(fact("alice", "f1", "a", status="superseded"))
        assert ledger.users() == ["alice", "bob"]
        assert ledger.memory_enabled("alice") is True
        ledger.set_memory_enabled("alice", False, at(1))
        assert ledger.memory_enabled("alice") is False and ledger.memory_enabled("bob") is True
        ledger.set_memory_enabled("alice", True, at(2))
        assert ledger.memory_enabled("alice") is True

    def _fill(self, ledger, user: str) -> None:
        ledger.save_fact(fact(user, "f1", f"{user} lives in Oslo", days=1))
        ledger.save_fact(fact(user, "f2", f"{user} likes tea", days=3))
        ledger.touch(user, ["f1"], at(1), "turn-1")
        ledger.touch(user, ["f2"], at(3), "turn-3")
        ledger.audit(audit_row(f"{user}-a1", user, 1, fact_id="f1"))
        ledger.audit(audit_row(f"{user}-a2", user, 3, fact_id="f2"))
        ledger.remember_thread(user, "t1", at(1))
        ledger.remember_thread(user, "t3", at(3))
        ledger.touch_thread(user, "t1", at(1))
        ledger.touch_thread(user, "t3", at(3))
        ledger.save_summary(summary(user, "t1", 1))
        ledger.save_summary(summary(user, "t3", 3))
        ledger.save_episode(episode(user, "e1", 1))
        ledger.save_episode(episode(user, "e3", 3))
        ledger.set_memory_enabled(user, False, at(1))

    def test_erase_user_deletes_every_row_and_tombstones_the_audit_log(self, ledger):
        self._fill(ledger, "alice")
        self._fill(ledger, "bob")
        counts = ledger.erase_user("alice", "erased-1")
        assert counts == {"audit_log": 2, "facts": 2, "fact_uses": 2, "user_threads": 2, "user_settings": 1,
                          "session_summaries": 2, "episodes": 2, "thread_activity": 2,
                          "api_keys": 0}
        assert ledger.facts("alice") == [] and ledger.threads("alice") == [] and ledger.summaries("alice") == []
        assert ledger.episodes("alice") == [] and ledger.thread_activity("alice") == {}
        assert ledger.audit_rows("alice") == [] and ledger.memory_enabled("alice") is True
        assert [r["content"] for r in ledger.audit_rows("erased-1")] == [None, None]
        assert ledger.scan(["alice"], user_id="alice") == []
        assert len(ledger.facts("bob")) == 2 and len(ledger.audit_rows("bob")) == 2
        assert ledger.memory_enabled("bob") is False and ledger.users() == ["bob"]

    def test_forget_since_removes_what_was_written_from_then_on(self, ledger):
        self._fill(ledger, "alice")
        self._fill(ledger, "bob")
        out = ledger.forget_since("alice", at(2))
        assert out == {"fact_ids": ["f2"], "thread_ids": ["t3"], "session_summaries": 1, "episodes": 1,
                       "audit_log": 1}
        assert [f.id for f in ledger.facts("alice")] == ["f1"]
        assert ledger.threads("alice") == ["t1"] and list(ledger.thread_activity("alice")) == ["t1"]
        assert [s["thread_id"] for s in ledger.summaries("alice")] == ["t1"]
        assert [e["id"] for e in ledger.episodes("alice")] == ["e1"]
        assert [r["content"] is None for r in ledger.audit_rows("alice")] == [False, True]
        assert len(ledger.facts("bob")) == 2 and ledger.threads("bob") == ["t1", "t3"]

    def test_scan_finds_rows_of_a_user_and_text_holding_a_needle(self, ledger):
        assert ledger.scan(["Oslo"], user_id="alice") == []
        ledger.save_fact(fact("alice", "f1", "The user lives in Oslo 50%_off"))
        ledger.remember_thread("alice", "t1", at(1))
        hits = ledger.scan(["Oslo", "", "50%_off", "nowhere"], user_id="alice")
        by_key = {(h["table"], h["column"], h["needle"]): h["rows"] for h in hits}
        assert by_key[("facts", "user_id", "alice")] == 1 and by_key[("user_threads", "user_id", "alice")] == 1
        assert by_key[("facts", "content", "Oslo")] == 1 and by_key[("facts", "data", "Oslo")] == 1
        assert by_key[("facts", "content", "50%_off")] == 1
        assert all(h["store"] == "ledger" for h in hits) and not any(h["needle"] == "nowhere" for h in hits)
        assert ledger.scan(["50x_off", "5%"]) == []  # % and _ are literal characters, not wildcards
        assert ledger.scan([], user_id="bob") == []
