"""Sensitive categories and caps: sensitive data said in passing is not kept, kept
only when the user asks and then marked restricted; over a cap there is a clear message and
nothing is dropped silently. Real SQLite, Chroma and MiniLM; only the chat model is faked.
"""

from __future__ import annotations

import pytest
from conftest import T0, day, plant

from memory_agent.memory.sensitive import sensitive_reason
from memory_agent.memory.tokens import count_tokens

SENSITIVE = {
    "health": ("I was diagnosed with diabetes last year.", "The user has diabetes."),
    "religion": ("I'm a practising Muslim.", "The user is a practising Muslim."),
    "politics": ("I voted for the Greens.", "The user voted for the Greens."),
    "sexual life": ("I'm gay and out at work.", "The user is gay."),
    "precise location": ("I live at 42 Elm Street.", "The user lives at 42 Elm Street."),
    "finances": ("My salary is 90k a year.", "The user's salary is 90k a year."),
}


@pytest.mark.parametrize("category", list(SENSITIVE))
def test_sensitive_said_in_passing_is_not_kept_and_kept_restricted_when_asked(agent, model, category):
    said, content = SENSITIVE[category]
    # the model does not flag it: the code must
    model.script[said.split()[2]] = [{"kind": "fact", "content": content, "topic": category}]
    passing = agent.turn("alice", said, thread_id="t1", now=T0, approval="never")
    assert passing.committed == [] and agent.memory.ledger.facts("alice") == []
    assert "sensitive data said in passing" in passing.dropped[0]["reason"]
    audit = agent.memory.ledger.audit_rows("alice")
    assert audit[-1]["decision"] == "dropped" and "sensitive" in audit[-1]["reason"]

    asked = agent.turn("alice", f"Please remember that {said[0].lower()}{said[1:]}", thread_id="t2", now=day(1),
                       approval="risky-only")
    assert asked.pending and asked.pending[0]["sensitivity"] == "restricted" and asked.pending[0]["risky"]
    agent.resume("alice", "t2", "approve", now=day(1))
    [fact] = agent.memory.ledger.facts("alice")
    assert fact.sensitivity == "restricted" and fact.content == content


JUDGED_ORDINARY = {  # a sensitive topic's word in a job or a pastime, judged risk "none" by the model
    "cantor": ("I am a cantor at the synagogue in Vienna.", "The user is a cantor at a synagogue in Vienna."),
    "teacher": ("I teach Catholic history at a school in Lyon.", "The user teaches Catholic history at a school."),
    "volunteer": ("I volunteer at a diabetes camp for kids every summer.",
                  "The user volunteers at a diabetes camp for kids every summer."),
}


@pytest.mark.parametrize("case", list(JUDGED_ORDINARY))
def test_a_topic_word_in_a_fact_the_model_judged_ordinary_is_kept_restricted(agent, model, case):
    said, content = JUDGED_ORDINARY[case]
    model.script[said.split()[2]] = [{"kind": "fact", "content": content, "topic": "job", "risk": "none"}]
    result = agent.turn("alice", said, thread_id="t1", now=T0, approval="never")
    assert result.dropped == [] and [c["content"] for c in result.committed] == [content]
    [fact] = agent.memory.ledger.facts("alice")
    assert fact.sensitivity == "restricted"
    assert "kept restricted" in agent.memory.ledger.audit_rows("alice")[-1]["reason"]


def test_a_topic_word_outside_work_or_study_is_dropped_even_when_the_model_judged_it_ordinary(agent, model):
    model.script["HIV"] = [{"kind": "fact", "content": "The user is HIV positive.", "topic": "x", "risk": "none"}]
    result = agent.turn("alice", "I'm HIV positive.", thread_id="t1", now=T0, approval="never")
    assert result.committed == [] and "sensitive data said in passing" in result.dropped[0]["reason"]


@pytest.mark.parametrize("said, content", [
    ("I take 50mg of sertraline every morning.", "The user takes 50mg of sertraline daily."),
    ("I live at 42 Elm Street.", "The user lives at 42 Elm Street."),
    ("My salary is 90k a year.", "The user's salary is 90k a year."),
])
def test_a_sensitive_value_is_dropped_even_when_the_model_judged_it_ordinary(agent, model, said, content):
    model.script[said.split()[1]] = [{"kind": "fact", "content": content, "topic": "x", "risk": "none"}]
    result = agent.turn("alice", said, thread_id="t1", now=T0, approval="never")
    assert result.committed == [] and agent.memory.ledger.facts("alice") == []
    assert "sensitive data said in passing" in result.dropped[0]["reason"]


def test_facts_per_user_cap_gives_a_message_and_writes_nothing(make_agent, model):
    agent = make_agent(model=model, max_facts_per_user=2)
    plant(agent.memory, "alice", "The user plays the cello.")
    plant(agent.memory, "alice", "The user drives a blue Volvo.")
    model.script["vegetarian"] = [{"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}]
    full = agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    assert full.committed == [] and len(agent.memory.live("alice")) == 2
    [dropped] = full.dropped
    assert dropped["cap"] == "facts_per_user" and "memory is full: 2 of 2 facts" in dropped["reason"]
    assert "memory is full" in agent.memory.ledger.audit_rows("alice")[-1]["reason"]  # audited, not silent
    assert agent.turn("bob", "I am vegetarian.", thread_id="t1", now=T0, approval="never").committed  # per user


def test_injected_tokens_per_turn_cap_keeps_the_best_and_says_how_many_were_left_out(make_agent, model):
    agent = make_agent(model=model, max_memory_tokens=140)  # the block's wrapper alone is 52 tokens
    for dish in ("lasagne", "risotto", "paella", "moussaka"):
        plant(agent.memory, "alice", f"The user likes to cook {dish} for dinner parties with friends.",
              kind="preference", topic="cooking")
    result = agent.turn("alice", "What should I cook for my dinner party with friends?", thread_id="t1", now=T0)
    assert len(result.memories) == 2 and result.memories_left_out == 2
    assert count_tokens(model.memory_block()) <= 140  # what the model receives, heading and notes included
    assert result.memories[0]["score"] >= result.memories[1]["score"]
    assert "2 more relevant memories were left out: over the memory token budget" in model.memory_block()

    roomy = make_agent(data_dir=agent.settings.data_dir.parent / "roomy", model=model)
    for dish in ("lasagne", "risotto", "paella", "moussaka"):
        plant(roomy.memory, "alice", f"The user likes to cook {dish} for dinner parties with friends.",
              kind="preference", topic="cooking")
    assert roomy.turn("alice", "What should I cook for my dinner party with friends?", thread_id="t1",
                      now=T0).memories_left_out == 0


def test_content_length_cap_is_a_clear_refusal(agent, model):
    long = "The user " + "really " * 60 + "likes tea."
    model.script["tea"] = [{"kind": "preference", "content": long, "topic": "drink"}]
    result = agent.turn("alice", "I like tea.", thread_id="t1", now=T0, approval="never")
    assert result.committed == [] and "longer than 300 characters" in result.dropped[0]["reason"]


# ---- declared restrictions: kept as constraints, restricted, always asked ------------------------
RESTRICTIONS = {
    "allergy marked sensitive": ("I'm allergic to penicillin.", {"kind": "fact", "sensitivity": "restricted",
                                                                  "content": "The user is allergic to penicillin."}),
    "do not call": ("Please don't call me before 10, I work nights.",
                    {"kind": "preference", "content": "The user does not want to be called before 10."}),
    "delivery window": ("Deliveries only in the morning, the concierge leaves at noon.",
                        {"kind": "fact", "content": "The user accepts deliveries only in the morning."}),
}


@pytest.mark.parametrize("case", list(RESTRICTIONS))
def test_a_declared_restriction_is_kept_as_a_restricted_constraint_and_always_asked(agent, model, case):
    said, item = RESTRICTIONS[case]
    model.script[said.split()[1]] = [{"topic": "restriction", **item}]
    result = agent.turn("alice", said, thread_id="t1", now=T0, approval="risky-only")
    assert result.dropped == []
    [pending] = result.pending  # risky-only mode still asks
    assert (pending["kind"], pending["sensitivity"], pending["risky"]) == ("constraint", "restricted", True)
    agent.resume("alice", "t1", "approve", now=T0)
    [fact] = agent.memory.ledger.facts("alice")
    assert (fact.kind, fact.sensitivity, fact.content) == ("constraint", "restricted", item["content"])


def test_a_presentation_wish_labelled_procedural_without_a_request_is_kept_as_a_preference(agent, model):
    model.script["bullet"] = [{"kind": "procedural", "content": "The user likes answers as bullet lists.",
                               "topic": "answer style"}]
    result = agent.turn("alice", "Bullet lists are so much easier for me to read.", thread_id="t1", now=T0,
                        approval="never")
    assert result.dropped == [] and [c["content"] for c in result.committed] == [
        "The user likes answers as bullet lists."]
    [fact] = agent.memory.ledger.facts("alice")
    assert fact.kind == "preference"
    assert "kept as a preference" in agent.memory.ledger.audit_rows("alice")[-1]["reason"]


@pytest.mark.parametrize("text", ["my NI number is QQ 12 34 56 C", "mijn BSN is 123456782",
                                  "mitt personnummer är 850709-9805"])
def test_national_identity_numbers_by_their_local_names_are_sensitive(text):
    assert sensitive_reason(text)


@pytest.mark.parametrize("text", ["the kids held a vote and she's called Kopi", "we voted on the team name",
                                  "the name was chosen by a vote at the office"])
def test_a_vote_as_a_way_of_deciding_is_no_political_opinion(text):
    assert sensitive_reason(text) is None


@pytest.mark.parametrize("text", ["I voted for the Greens last time", "I always vote Labour", "voting in the election"])
def test_a_vote_of_ones_own_stays_a_political_opinion(text):
    assert sensitive_reason(text)
