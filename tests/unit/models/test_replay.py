"""``--model replay:FILE``: recorded model output answers the real graph by prompt hash, and a prompt
with no recording fails the turn with the hash and the command to re-record.

Recordings are made here from log entries in the format ``llm_bridge.py`` writes
(``{"id", "request", "response"}``, the request being the OpenAI payload langchain-openai sends);
``tests/integration/test_replay_bridge.py`` makes them through the real bridge.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path

import pytest
from conftest import T0
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from memory_agent.core.facts import ProposedFacts
from memory_agent.models.chat import load_chat_model
from memory_agent.models.errors import ModelError
from memory_agent.models.replay import (
    RecordingMissingError,
    ReplayChatModel,
    load_recordings,
    mask_ids,
    prompt_key,
    record_from_exchange,
    records_from_log,
    save_recordings,
)
from memory_agent.nodes.propose_facts import extraction_prompt

JSON_SCHEMA = {"type": "json_schema",
               "json_schema": {"name": "ProposedFacts", "schema": ProposedFacts.model_json_schema(), "strict": True}}


def extraction_entry(text: str, facts) -> dict:
    """A bridge log entry for the extraction call of ``text``, recorded in a run where the message
    had its own random id; ``facts(message_id)`` is what the model answered."""
    mid = uuid.uuid4().hex
    request = {"model": "bridge", "stream": False, "response_format": JSON_SCHEMA,
               "messages": [{"role": "user", "content": extraction_prompt(HumanMessage(text, id=mid), now=T0)}]}
    return {"id": f"c-{mid[:6]}", "request": request, "response": {"content": json.dumps({"facts": facts(mid)})}}


def vegetarian(mid: str) -> list[dict]:
    return [{"operation": "add", "kind": "preference", "content": "The user is vegetarian.", "topic": "diet",
             "message_ids": [mid], "evidence": "I'm vegetarian", "confidence": 0.9, "importance": 0.7,
             "sensitivity": "common"}]


def write_recordings(tmp_path: Path, entries: list[dict]) -> Path:
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    path = tmp_path / "recordings.jsonl"
    save_recordings(path, records_from_log(log))
    return path


def test_the_key_is_the_documented_hash_of_the_masked_prompt():
    mid = uuid.uuid4().hex
    prompt = extraction_prompt(HumanMessage("I'm vegetarian.", id=mid), now=T0)
    request = {"model": "bridge", "response_format": JSON_SCHEMA, "messages": [{"role": "user", "content": prompt}]}
    rec = record_from_exchange(request, {"content": json.dumps({"facts": vegetarian(mid)})})
    masked = extraction_prompt(HumanMessage("I'm vegetarian.", id="<<id:1>>"), now=T0)
    blob = json.dumps({"messages": [["user", masked]], "schema": "ProposedFacts"}, ensure_ascii=False,
                      separators=(",", ":"))
    assert rec["key"] == hashlib.sha256(blob.encode()).hexdigest()
    assert rec["messages"] == [["user", masked]] and mid not in json.dumps(rec)
    assert json.loads(rec["response"]["content"])["facts"][0]["message_ids"] == ["<<id:1>>"]
    # the schema name and every character of the text count; the random id does not
    assert prompt_key([["user", masked]], None) != rec["key"]
    assert prompt_key([["user", masked + " "]], "ProposedFacts") != rec["key"]
    again = mask_ids([("user", extraction_prompt(HumanMessage("I'm vegetarian.", id=uuid.uuid4().hex), now=T0))])[0]
    assert prompt_key(again, "ProposedFacts") == rec["key"]


def test_ids_are_numbered_by_first_appearance_and_plain_numbers_are_kept():
    a, b = uuid.uuid4().hex, "f_" + hashlib.sha256(b"x").hexdigest()[:24]
    masked, ids = mask_ids([("system", f"fact {b}"), ("user", f"[{a}] call 123456789012345678901234 {b}")])
    assert masked == [["system", "fact f_<<id:1>>"], ["user", "[<<id:2>>] call 123456789012345678901234 f_<<id:1>>"]]
    assert ids == {b[2:]: "<<id:1>>", a: "<<id:2>>"}


def test_a_recorded_extraction_answers_a_real_turn(make_agent, tmp_path):
    path = write_recordings(tmp_path, [extraction_entry("I'm vegetarian.", vegetarian)])
    agent = make_agent(model=load_chat_model(f"replay:{path}?answers=offline"))
    result = agent.turn("alice", "I'm vegetarian.", thread_id="t1", now=T0)
    # the recorded proposal cites this run's message id, so grounding accepts it
    assert [p["content"] for p in result.pending] == ["The user is vegetarian."] and result.dropped == []
    agent.resume("alice", "t1", "approve", now=T0)
    assert [f.content for f in agent.memory.live("alice")] == ["The user is vegetarian."]


def test_a_changed_prompt_fails_the_turn_naming_its_hash(make_agent, tmp_path):
    path = write_recordings(tmp_path, [extraction_entry("I'm vegetarian.", vegetarian)])
    agent = make_agent(model=load_chat_model(f"replay:{path}?answers=offline"))
    with pytest.raises(RecordingMissingError) as err:
        agent.turn("alice", "I'm vegan.", thread_id="t1", now=T0)
    masked = extraction_prompt(HumanMessage("I'm vegan.", id="<<id:1>>"), now=T0)
    assert err.value.key == prompt_key([["user", masked]], "ProposedFacts")
    message = str(err.value)
    assert err.value.key in message and "stale recording" in message and str(path) in message
    assert "memory-agent eval record run SCENARIO_FILE --fixtures" in message and "llm_bridge.py serve" in message
    assert "eval record redteam" in message
    assert "I'm vegan." in message and "answers=offline" not in message  # an extraction call must be recorded
    assert agent.memory.live("alice") == [] and agent.memory.ledger.audit_rows("alice") == []


def test_strict_replay_needs_the_answers_recorded_too(make_agent, tmp_path):
    path = write_recordings(tmp_path, [extraction_entry("I'm vegetarian.", vegetarian)])
    agent = make_agent(model=load_chat_model(f"replay:{path}"))
    with pytest.raises(RecordingMissingError, match=r"\(a plain answer\).*answers=offline") as err:
        agent.turn("alice", "I'm vegetarian.", thread_id="t1", now=T0)
    assert err.value.schema is None and err.value.messages[-1] == ["user", "I'm vegetarian."]


def test_recorded_answers_replay_with_the_memories_they_saw(tmp_path):
    system = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Plan a dinner."}]
    path = write_recordings(tmp_path, [{"id": "a1", "request": {"model": "bridge", "messages": system},
                                        "response": {"content": "Pasta for four."}}])
    model = load_chat_model(f"replay:{path}")
    assert model.invoke([SystemMessage("Be brief."), HumanMessage("Plan a dinner.")]).content == "Pasta for four."
    with pytest.raises(RecordingMissingError):
        model.invoke([SystemMessage("Be brief. <memories>- vegetarian</memories>"), HumanMessage("Plan a dinner.")])


def test_tool_calls_and_include_raw_are_read_as_langchain_openai_reads_them(tmp_path):
    mid = uuid.uuid4().hex
    request = {"model": "bridge", "tool_choice": {"type": "function", "function": {"name": "ProposedFacts"}},
               "messages": [{"role": "user", "content": f"[{mid}] user: I'm vegetarian."}]}
    path = write_recordings(tmp_path, [{"id": "t", "request": request, "response": {"tool_calls": [
        {"name": "ProposedFacts", "arguments": {"facts": vegetarian(mid)}}]}}])
    model = load_chat_model(f"replay:{path}")
    now = uuid.uuid4().hex
    out = model.with_structured_output(ProposedFacts).invoke([HumanMessage(f"[{now}] user: I'm vegetarian.")])
    assert isinstance(out, ProposedFacts) and out.facts[0].message_ids == [now]
    raw = model.with_structured_output(ProposedFacts, include_raw=True).invoke(f"[{now}] user: I'm vegetarian.")
    assert isinstance(raw["raw"], AIMessage) and raw["parsed"] == out and raw["parsing_error"] is None


def test_malformed_recorded_output_is_dropped_like_a_real_models(make_agent, tmp_path):
    entry = extraction_entry("I'm vegetarian.", vegetarian)
    entry["response"] = {"content": "Sure! You are vegetarian."}
    path = write_recordings(tmp_path, [entry])
    agent = make_agent(model=load_chat_model(f"replay:{path}?answers=offline"))
    result = agent.turn("bob", "I'm vegetarian.", thread_id="t1", now=T0)
    assert result.pending == [] and "malformed model output" in result.dropped[0]["reason"]


@pytest.mark.parametrize(("spec", "content", "message"), [
    ("replay:", None, "needs a recording file"),
    ("replay:{dir}/nothing.jsonl", None, "No recording file at"),
    ("replay:{file}?answers=maybe", "", "Unknown replay option"),
    ("replay:{file}?speed=2", "", "Unknown replay option"),
    ("replay:{file}", "not json\n", "line 1: not a recording"),
    ("replay:{file}", json.dumps({"key": "0" * 64, "schema": None, "messages": [["user", "hi"]],
                                  "response": {"content": "x"}}) + "\n", "the key is not the hash"),
])
def test_bad_specs_and_files_are_clear_model_errors(tmp_path, spec, content, message):
    file = tmp_path / "rec.jsonl"
    if content is not None:
        file.write_text(content, encoding="utf-8")
    with pytest.raises(ModelError, match=re.escape(message)):
        load_chat_model(spec.format(dir=tmp_path, file=file))


def test_a_missed_call_goes_to_on_miss_once_and_is_remembered(tmp_path):
    upstream = ReplayChatModel(path="upstream", records={})
    path = write_recordings(tmp_path, [{"id": "a1", "request": {"model": "bridge", "messages": [
        {"role": "user", "content": "hello"}]}, "response": {"content": "hi there"}}])
    upstream.records = load_recordings(path)
    model = ReplayChatModel(path=str(tmp_path / "new.jsonl"), records={}, on_miss=upstream)
    assert model.invoke("hello").content == "hi there" and (model.hits, model.misses) == (0, 1)
    assert model.invoke("hello").content == "hi there" and (model.hits, model.misses) == (1, 1)
    assert upstream.hits == 1  # asked once
    with pytest.raises(ModelError, match="did not answer"):
        model.invoke("something else")  # the upstream model has no answer either
