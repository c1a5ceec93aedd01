"""The kind registry: every per-kind table is derived from ``KINDS``, and the decisions that
depend on a kind (approval, profile, episodes, validity, review, decay, default importance) read
``KINDS`` when they run, so one row there is all a new kind takes."""

from __future__ import annotations

import dataclasses
import typing
from datetime import timedelta

import pytest
from conftest import T0, day
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.messages import HumanMessage

from memory_agent.core import kinds
from memory_agent.core.facts import Fact, FactKind, ProposedFact, Source
from memory_agent.core.kinds import KINDS, KindSpec
from memory_agent.memory.lifecycle import decayed_importance, validity
from memory_agent.memory.retrieval import RetrievalConfig, rank
from memory_agent.memory.sessions import profile_lines
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.sql.ledger import SQLFactLedger

#: A kind a fork might add; listed last in the profile whatever ranks the kinds of KINDS take.
ALLERGEN = KindSpec("allergen", needs_approval=True,
                    profile_rank=1 + max(k.profile_rank for k in KINDS if k.profile_rank is not None),
                    episode=True, expire_days=7.0,
                    review_days=10.0, decays=False, importance=0.95)


def fact(kind: str, content: str = "The user reacts to latex.", **fields) -> Fact:
    """A confirmed fact written at ``T0``; ``kind`` may be one the ``Fact`` schema does not list."""
    base = Fact(id=f"f_{kind}", user_id="alice", kind="fact", content=content, source=Source(
        thread_id="t1", message_ids=["m1"]), evidence=content, created_at=T0, updated_at=T0, **fields)
    return base.model_copy(update={"kind": kind})


@pytest.fixture
def allergen(monkeypatch):
    """``KINDS`` with one more row, as a deployment would add it."""
    monkeypatch.setattr(kinds, "KINDS", (*KINDS, ALLERGEN))
    return ALLERGEN


# ---- the derived tables agree with KINDS -------------------------------------------------------
def test_fact_kinds_and_the_schema_list_every_kind_in_order():
    names = tuple(k.name for k in KINDS)
    assert names == kinds.FACT_KINDS
    assert typing.get_args(FactKind) == names
    assert ProposedFact.model_fields["kind"].description.startswith(" | ".join(names) + " (")
    assert len(set(names)) == len(names)


def test_each_derived_table_is_its_column_of_kinds():
    assert {k.name for k in KINDS if kinds.needs_approval(k.name)} == {k.name for k in KINDS if k.needs_approval}
    assert kinds.profile_kinds() == tuple(
        k.name for k in sorted((k for k in KINDS if k.profile_rank is not None), key=lambda k: k.profile_rank))
    assert {k.name for k in KINDS if kinds.is_profile(k.name)} == set(kinds.profile_kinds())
    assert {k.name for k in KINDS if kinds.is_episode(k.name)} == {k.name for k in KINDS if k.episode}
    assert kinds.expire_days() == {k.name: k.expire_days for k in KINDS if k.expire_days is not None}
    assert kinds.review_days() == {k.name: k.review_days for k in KINDS if k.review_days is not None}
    assert kinds.never_decay_kinds() == {k.name for k in KINDS if not k.decays}
    assert {k.name: kinds.default_importance(k.name) for k in KINDS} == {k.name: k.importance for k in KINDS}
    assert all(kinds.kind_spec(k.name) is k for k in KINDS)


def test_the_template_defaults():
    """The template's own kinds, exactly as the tables the registry replaced had them. A fork that
    changes KINDS changes this test with it; the other tests here hold for any KINDS."""
    assert {k.name for k in KINDS if kinds.needs_approval(k.name)} == {"constraint"}
    assert kinds.profile_kinds() == ("procedural", "constraint", "preference")
    assert {k.name for k in KINDS if kinds.is_episode(k.name)} == {"decision", "event", "commitment"}
    assert kinds.expire_days() == {"event": 30.0, "commitment": 30.0}
    assert kinds.review_days() == {"preference": 180.0, "project": 90.0, "constraint": 365.0, "procedural": 365.0}
    assert kinds.never_decay_kinds() == {"constraint", "procedural"}


def test_a_name_that_is_not_a_kind():
    assert kinds.kind_spec("episode") is None
    assert not kinds.needs_approval("episode") and not kinds.is_profile("episode") and not kinds.is_episode("episode")
    with pytest.raises(KeyError):
        kinds.default_importance("episode")


# ---- one row in KINDS is all a new kind takes ----------------------------------------------------
def test_a_new_kind_reaches_the_registry_decisions(allergen):
    assert kinds.needs_approval("allergen") and kinds.is_episode("allergen") and kinds.is_profile("allergen")
    assert kinds.profile_kinds() == (*[k for k in kinds.profile_kinds() if k != "allergen"], "allergen")
    assert kinds.default_importance("allergen") == 0.95


def test_a_new_kind_gets_its_validity_review_date_and_no_decay(allergen):
    assert validity("allergen", T0) == {"valid_until": T0 + timedelta(days=7), "review_at": T0 + timedelta(days=10)}
    assert decayed_importance(fact("allergen", importance=0.4), day(1000)) == 0.4
    assert decayed_importance(fact("fact", importance=0.4), day(1000)) < 0.4


def test_a_new_profile_kind_takes_the_profile_similarity_floor(allergen):
    config = RetrievalConfig()
    distance = 1 - (config.min_similarity_profile + config.min_similarity) / 2  # between the two floors
    ranked = rank([(fact("allergen", importance=0.9), distance), (fact("fact", importance=0.9), distance)], T0,
                  config)
    assert [s.fact.kind for s in ranked] == ["allergen"]


def test_a_new_profile_kind_is_listed_in_the_session_profile(allergen):
    profile = [fact("allergen"), fact("preference", "The user likes tea.")]
    lines = profile_lines(profile, now=T0)
    assert [line["label"] for line in lines] == ["preference", "allergen"]


class _EmptyIndex:
    """A live index with no facts (the user's live facts are read from the ledger, a real SQLite file)."""

    embedder_name = "deterministic-fake"

    def count(self, user_id):
        return 0

    def query(self, user_id, embedding, n):
        return []


def test_planning_reads_the_approval_column_when_it_runs(monkeypatch, tmp_path):
    ledger = SQLFactLedger(tmp_path / "ledger.sqlite")
    memory = LongTermMemory(_EmptyIndex(), ledger=ledger, embeddings=DeterministicFakeEmbedding(size=8))
    said = HumanMessage("My car is blue.", id="m1")
    proposed = ProposedFact(kind="fact", content="The user's car is blue.", topic="car", message_ids=["m1"],
                            evidence="My car is blue.")
    [before], _ = memory.plan("alice", "t1", [proposed], [said])
    assert not before.risky
    strict = tuple(dataclasses.replace(k, needs_approval=True) if k.name == "fact" else k for k in KINDS)
    monkeypatch.setattr(kinds, "KINDS", strict)
    [after], _ = memory.plan("alice", "t1", [proposed], [said])
    assert after.risky
    ledger.close()
