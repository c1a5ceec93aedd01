"""Forgetting on purpose: validity by kind, review dates with a note and renewal, and
``maintain`` (expire, review queue, decay and prune, duplicate merge, checkpoint pruning), with
the context clock moving time. Real SQLite, Chroma and MiniLM; only the chat model is faked.
"""

from __future__ import annotations

from datetime import timedelta

from conftest import T0, day, plant

from memory_agent.core.facts import Source
from memory_agent.stores import maintenance

VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}
CONCERT = {"kind": "event", "content": "The user is going to a Radiohead concert in Lisbon.", "topic": "concert"}
QUESTION = "Any tips for the Radiohead concert in Lisbon?"
DINNER = "Plan a dinner for four friends on Saturday."
DIET = "What diet do I follow? Plan my dinner."


def test_events_expire_and_preferences_get_a_review_date(agent, model):
    model.script["concert"] = [CONCERT]
    model.script["vegetarian"] = [VEGETARIAN]
    agent.turn("alice", "I'm going to a Radiohead concert in Lisbon.", thread_id="t1", now=T0, approval="never")
    agent.turn("alice", "I am vegetarian.", thread_id="t2", now=T0, approval="never")
    facts = {f.kind: f for f in agent.memory.ledger.facts("alice")}
    assert facts["event"].valid_until == T0 + timedelta(days=30) and facts["event"].review_at is None
    assert facts["preference"].review_at == T0 + timedelta(days=180) and facts["preference"].valid_until is None

    assert [m["kind"] for m in agent.turn("alice", QUESTION, thread_id="t3", now=day(29)).memories] == ["event"]
    late = agent.turn("alice", QUESTION, thread_id="t4", now=day(31))
    assert "event" not in [m["kind"] for m in late.memories]  # expired: never injected
    assert "Radiohead" not in model.memory_block()
    recall = agent.turn("alice", "What do you remember about me?", thread_id="t4", now=day(31))
    assert [m["kind"] for m in recall.memories] == ["preference"]  # not even when asked for everything


def test_a_fact_near_its_review_date_is_injected_with_a_note_and_renewed_when_confirmed(agent, model):
    model.script["vegetarian"] = [VEGETARIAN]
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")

    agent.turn("alice", DIET, thread_id="t2", now=day(100))
    assert "The user is vegetarian." in model.memory_block() and "due for review" not in model.memory_block()

    due = agent.turn("alice", DIET, thread_id="t3", now=day(170))  # 10 days before the review date
    assert due.memories[0]["review_due"] == (T0 + timedelta(days=180)).isoformat()
    assert "The user is vegetarian. (since 2025-03-01) (due for review: confirm" in model.memory_block()

    confirmed = agent.turn("alice", "I am vegetarian, as before.", thread_id="t3", now=day(171), approval="never")
    assert [d["decision"] for d in confirmed.dropped] == ["noop"]
    fact = agent.memory.ledger.facts("alice")[0]
    assert fact.review_at == day(171) + timedelta(days=180) and fact.status == "confirmed"
    assert agent.memory.ledger.audit_rows("alice")[-1]["operation"] == "RENEW"
    agent.turn("alice", DIET, thread_id="t4", now=day(172))
    assert "due for review" not in model.memory_block() and "vegetarian" in model.memory_block()

    # a year later it is due again; a plain "yes" to the note renews it
    again = agent.turn("alice", DIET, thread_id="t5", now=day(345))
    assert again.memories[0].get("review_due")
    agent.turn("alice", "Yes, still true.", thread_id="t5", now=day(345))
    assert agent.memory.ledger.facts("alice")[0].review_at == day(345) + timedelta(days=180)
    agent.turn("alice", "Thanks.", thread_id="t6", now=day(346))  # a "thanks" renews nothing
    assert agent.memory.ledger.facts("alice")[0].review_at == day(345) + timedelta(days=180)


def test_maintain_expires_prunes_merges_and_queues_reviews_with_an_audit_row_each(agent, model):
    m = agent.memory
    now = day(400)
    expired = plant(m, "alice", "The user is attending a workshop in Porto.", kind="event",
                    valid_until=day(30))
    unused = plant(m, "alice", "The user once tried a Thai cooking class.", importance=0.2)
    used = plant(m, "alice", "The user plays the cello.", importance=0.2, last_used_at=day(390))
    allergy = plant(m, "alice", "The user is allergic to peanuts.", kind="constraint", importance=0.2)
    due = plant(m, "alice", "The user prefers short answers.", kind="preference", importance=0.9,
                review_at=day(405), last_used_at=day(399))
    first = plant(m, "alice", "The user drives a blue Volvo.", importance=0.9, last_used_at=day(399))
    exact = plant(m, "alice", "The user drives a blue  volvo.", importance=0.9, now=day(1), last_used_at=day(399),
                  source=Source(thread_id="t7", message_ids=["m7"]))
    near = plant(m, "alice", "The user drives a blue Volvo car.", importance=0.9, now=day(2), last_used_at=day(399),
                 source=Source(thread_id="t8", message_ids=["m8"]))
    bob = plant(m, "bob", "The user once tried a Thai cooking class.", importance=0.2)

    report = maintenance.maintain(m, now, users=["alice"])
    assert [i["fact_id"] for i in report.expired] == [expired.id]
    assert [i["fact_id"] for i in report.pruned] == [unused.id]
    assert [i["fact_id"] for i in report.review_queue] == [due.id]
    assert {(i["fact_id"], i["merged_id"]) for i in report.merged} == {(first.id, exact.id), (first.id, near.id)}

    live = {f.id: f for f in m.live("alice")}
    assert set(live) == {used.id, allergy.id, due.id, first.id}  # the allergy never decays
    merged = live[first.id]
    assert [s.thread_id for s in merged.merged_sources] == ["t7", "t8"] and merged.source.thread_id == "planted"
    assert sorted(merged.merged_from) == sorted([exact.id, near.id])
    statuses = {f.id: f.status for f in m.ledger.facts("alice")}
    assert statuses[expired.id] == statuses[unused.id] == "expired"
    assert statuses[exact.id] == statuses[near.id] == "superseded"
    audit = [r for r in m.ledger.audit_rows("alice") if r["decided_by"] == "maintain"]
    assert sorted(r["operation"] for r in audit) == ["EXPIRE", "MERGE", "MERGE", "PRUNE"]
    assert [f.id for f in m.live("bob")] == [bob.id]  # only the users asked for

    again = maintenance.maintain(m, now, users=["alice"])
    assert again.expired == again.pruned == again.merged == []
    assert len([r for r in m.ledger.audit_rows("alice") if r["decided_by"] == "maintain"]) == 4


def test_maintain_prunes_old_checkpoints_but_keeps_transcripts_and_pending_threads(agent, model):
    model.script["vegetarian"] = [VEGETARIAN]
    agent.turn("alice", "Hello there.", thread_id="done", now=T0)
    agent.turn("alice", DINNER, thread_id="done", now=day(1))
    agent.turn("alice", "I am vegetarian.", thread_id="waiting", now=day(1))  # stays at the approval
    config = agent._config("alice", "done")
    before = sum(1 for _ in agent.checkpointer.list(config))
    transcript = [msg.content for msg in agent.transcript("alice", "done")]
    plant(agent.memory, "alice", "The user plays the cello.")

    report = maintenance.maintain(agent.memory, day(2), checkpoints=agent.prune_checkpoints)
    assert report.checkpoints_pruned == [{"user_id": "alice", "thread_id": "done", "removed": before - 1}]
    assert before > 2 and sum(1 for _ in agent.checkpointer.list(config)) == 1
    assert agent.memory.ledger.audit_rows("alice")[-1]["operation"] == "PRUNE_CHECKPOINTS"  # audited
    assert [msg.content for msg in agent.transcript("alice", "done")] == transcript
    assert agent.pending("alice", "waiting")  # untouched
    assert agent.turn("alice", "Thanks!", thread_id="done", now=day(3)).answer == "Noted."
    assert len(agent.transcript("alice", "done")) == len(transcript) + 2
