"""``replay:FILE``: a chat model that answers every call from recorded model output.

A recording file ("fixtures", JSON Lines) holds one model call per line::

    {"key": "<sha256 hex>", "schema": "ProposedFacts",            # null for a plain (answer) call
     "messages": [["system", "..."], ["user", "[<<id:1>>] user: I moved to Oslo."]],
     "response": {"content": "{\\"facts\\": [...]}"},               # or {"tool_calls": [{"name", "arguments"}]}
     "source": "<bridge call id>"}

It is written by :func:`records_from_log` from the log of ``../shared/tools/llm_bridge.py``, whose
requests are the OpenAI payloads the product's ``openai:`` path sends (``memory-agent eval record``).

**What is hashed** (``key``): SHA-256 of the UTF-8 bytes of
``json.dumps({"messages": [[role, text], ...], "schema": name}, ensure_ascii=False, separators=(",", ":"))``:

- ``role``: ``system``, ``user``, ``assistant`` or ``tool`` (LangChain's system/human/ai/tool
  messages; OpenAI's ``developer`` role counts as ``system``);
- ``text``: the message content exactly as sent (a list of parts: its text parts joined), with no
  stripping or whitespace folding, so a prompt edited by one character is a new prompt;
- ids: every run of 20 or more lowercase hex digits holding a letter and a digit, not touching
  another letter or digit (the uuid4 hex ``MemoryAgent.turn`` gives each message, SHA-based fact
  ids), becomes ``<<id:N>>``, N numbering distinct ids by first appearance across the messages.
  Message ids are random per run; the same placeholders are written into the recorded response,
  and a replay puts this run's ids back, so a replayed proposal cites this run's message;
- ``schema``: ``None`` for a plain call; for structured output the schema's name (a pydantic
  class's ``__name__``), as langchain-openai sends it: ``response_format.json_schema.name``
  (method ``json_schema``, the product's) or the forced tool's name (method ``function_calling``).

Not hashed: the model name, temperature, token limits, the schema's body, tool definitions and
anything outside the message text. A schema that gains a field with a default keeps its
recordings; the recorded output is validated against the current schema at replay, and output
that does not validate fails the way a real model's would (``propose_facts`` drops it as malformed).

A call whose key is not recorded raises :class:`RecordingMissingError` (a :class:`ModelError`,
which fails the turn instead of being dropped as malformed output): the prompt changed since it
was recorded, so the recording is stale. With ``replay:FILE?answers=offline`` plain calls (the
``answer`` node) are answered by the offline stand-in instead and only structured calls (the
extraction) must be recorded; record and replay with the same ``answers`` choice.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, ConfigDict, Field

from memory_agent.models.errors import ModelError
from memory_agent.models.offline.chat_model import OfflineChatModel

__all__ = ["RecordingMissingError", "ReplayChatModel", "load_recordings", "load_replay_model", "prompt_key",
           "records_from_log", "save_recordings"]

ANSWER_MODES = ("recorded", "offline")
RERECORD = ("start the bridge (python ../shared/tools/llm_bridge.py serve --port 18080 --queue /tmp/bridge), "
            "then: memory-agent eval record run SCENARIO_FILE --fixtures {path} --queue /tmp/bridge "
            "--base-url http://127.0.0.1:18080/v1 (eval record redteam for a red-team file), and answer each "
            "queued call with llm_bridge.py next / answer "
            "(README, 'Recording model output')")

_ROLES = {"system": "system", "developer": "system", "human": "user", "user": "user", "ai": "assistant",
          "assistant": "assistant", "tool": "tool", "function": "tool"}
_ID = re.compile(r"(?<![0-9A-Za-z])(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{20,}(?![0-9A-Za-z])")
_PLACEHOLDER = re.compile(r"<<id:(\d+)>>")


class RecordingMissingError(ModelError):
    """A replayed call whose prompt has no recording: the prompt changed (a stale recording) or was
    never recorded. ``key`` is the prompt's hash, ``schema`` the structured-output name or None."""

    def __init__(self, key: str, schema: str | None, path: str, messages: Sequence[Sequence[str]], *,
                 offline_hint: bool) -> None:
        self.key, self.schema, self.path, self.messages = key, schema, path, [list(m) for m in messages]
        last = " ".join(messages[-1][1].split()) if messages else ""
        call = f"structured output {schema}" if schema else "a plain answer"
        hint = (f" Or answer plain calls with the offline stand-in: --model 'replay:{path}?answers=offline'."
                if offline_hint else "")
        super().__init__(
            f"No recorded model output for prompt {key} ({call}) in {path}: the prompt changed since it was "
            f"recorded (a stale recording) or was never recorded. Its last message ends: {last[-200:]!r}. "
            f"Re-record: {RERECORD.format(path=path)}.{hint}")


# ----------------------------------------------------------------------------------------------------
# Keys
# ----------------------------------------------------------------------------------------------------

def content_text(content: Any) -> str:
    """The text of a message content: a string as is; a list of parts: its text parts joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, Mapping) and part.get("type") == "text":
            parts.append(str(part.get("text", "")))
    return "".join(parts)


def mask_ids(pairs: Iterable[tuple[str, str]]) -> tuple[list[list[str]], dict[str, str]]:
    """``[[role, text], ...]`` with every id replaced by ``<<id:N>>``, and the map id → placeholder."""
    ids: dict[str, str] = {}

    def sub(m: re.Match) -> str:
        return ids.setdefault(m.group(0), f"<<id:{len(ids) + 1}>>")

    return [[role, _ID.sub(sub, text)] for role, text in pairs], ids


def prompt_key(messages: Sequence[Sequence[str]], schema: str | None) -> str:
    """The SHA-256 hex key of masked ``[[role, text], ...]`` and a schema name (module docstring)."""
    blob = json.dumps({"messages": [list(m) for m in messages], "schema": schema},
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def langchain_pairs(messages: Sequence[BaseMessage]) -> list[tuple[str, str]]:
    """``(role, text)`` of LangChain messages, roles named as OpenAI names them."""
    out = []
    for m in messages:
        role = m.role if isinstance(m, ChatMessage) else m.type
        out.append((_ROLES.get(role, role), content_text(m.content)))
    return out


def schema_name(schema: Any) -> str:
    """The name langchain-openai sends for a structured-output schema (class name, or a dict's
    ``name`` / ``title``)."""
    if isinstance(schema, type):
        return schema.__name__
    if isinstance(schema, Mapping):
        fn = schema.get("function") if isinstance(schema.get("function"), Mapping) else schema
        name = fn.get("name") or fn.get("title")
        if name:
            return str(name)
    raise ModelError(f"Cannot replay structured output for the schema {schema!r}: it has no name.")


# ----------------------------------------------------------------------------------------------------
# The bridge's log → records
# ----------------------------------------------------------------------------------------------------

def request_schema(request: Mapping[str, Any]) -> str | None:
    """The structured-output name of an OpenAI chat request, or None for a plain call.

    Raises:
        ValueError: JSON mode without a schema (``response_format`` ``json_object``), which has no name.
    """
    fmt = request.get("response_format")
    if isinstance(fmt, Mapping):
        if fmt.get("type") == "json_schema":
            return str((fmt.get("json_schema") or {}).get("name") or "") or None
        if fmt.get("type") == "json_object":
            raise ValueError("JSON mode (response_format json_object) has no schema name: record with the "
                             "product's json_schema structured output")
    choice = request.get("tool_choice")
    if isinstance(choice, Mapping) and isinstance(choice.get("function"), Mapping):
        return str(choice["function"].get("name"))
    return None


def _response(answer: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if answer.get("content") is not None:
        out["content"] = str(answer["content"])
    calls = []
    for call in answer.get("tool_calls") or []:
        args = call.get("arguments", {})
        if isinstance(args, str):
            args = json.loads(args) if args.strip() else {}
        calls.append({"name": str(call["name"]), "arguments": args})
    if calls:
        out["tool_calls"] = calls
    if not out:
        out["content"] = ""
    return out


def _map_strings(value: Any, fn) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_map_strings(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _map_strings(v, fn) for k, v in value.items()}
    return value


def mask_reply(reply: Any, ids: Mapping[str, str]) -> Any:
    """``reply`` with every id of the prompt (``ids``: id → placeholder) turned into its placeholder;
    other hex runs are kept."""
    return _map_strings(reply, lambda s: _ID.sub(lambda m: ids.get(m.group(0), m.group(0)), s))


def unmask_reply(reply: Any, ids: Mapping[str, str]) -> Any:
    """``reply`` with every ``<<id:N>>`` turned back into this prompt's id (``ids``: id → placeholder)."""
    back = {placeholder: real for real, placeholder in ids.items()}
    return _map_strings(reply, lambda s: _PLACEHOLDER.sub(lambda m: back.get(m.group(0), m.group(0)), s))


def record_from_exchange(request: Mapping[str, Any], answer: Mapping[str, Any], source: str | None = None) -> dict:
    """One record from an OpenAI chat request and the answer the bridge returned for it
    (``{"content": ...}`` and/or ``{"tool_calls": [{"name", "arguments"}]}``)."""
    pairs = [(_ROLES.get(str(m.get("role")), str(m.get("role"))), content_text(m.get("content")))
             for m in request.get("messages") or []]
    messages, ids = mask_ids(pairs)
    schema = request_schema(request)
    response = mask_reply(_response(answer), ids)
    record = {"key": prompt_key(messages, schema), "schema": schema, "messages": messages, "response": response}
    if source:
        record["source"] = source
    return record


def records_from_log(log: Path) -> list[dict]:
    """Records of every answered call in an ``llm_bridge.py`` log (``QUEUE/log.jsonl``, one
    ``{"id", "request", "response"}`` per line), in the log's order.

    Raises:
        ValueError: a line that is not JSON or not such an object (the message gives the line number).
    """
    out = []
    for n, line in enumerate(Path(log).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            out.append(record_from_exchange(entry["request"], entry["response"], entry.get("id")))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{log}, line {n}: not a bridge log entry ({type(exc).__name__}: {exc})") from exc
    return out


# ----------------------------------------------------------------------------------------------------
# The recording file
# ----------------------------------------------------------------------------------------------------

def load_recordings(path: Path) -> dict[str, dict]:
    """The records of a recording file by key.

    Raises:
        ModelError: the file is missing, a line is not a record, or a record's key is not the hash
            of its messages and schema (edited by hand, or written by another key scheme).
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"No recording file at {path}. Record one: {RERECORD.format(path=path)}.")
    records: dict[str, dict] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            key = prompt_key(rec["messages"], rec["schema"])
            if not isinstance(rec.get("response"), dict):
                raise TypeError("no response object")
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"{path}, line {n}: not a recording ({type(exc).__name__}: {exc}).") from exc
        if key != rec.get("key"):
            raise ModelError(f"{path}, line {n}: the key is not the hash of the record's messages and schema "
                             "(edited by hand?). Convert the bridge log again: memory-agent eval record convert.")
        records[key] = rec
    return records


def save_recordings(path: Path, records: Iterable[dict]) -> None:
    """Write records as JSON Lines (in the order given), replacing the file in one step."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    tmp.replace(path)


# ----------------------------------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------------------------------

def recorded_message(record: Mapping[str, Any], ids: Mapping[str, str]) -> AIMessage:
    """The recorded reply as an ``AIMessage``, with ``<<id:N>>`` turned into this prompt's ids."""
    response = unmask_reply(record["response"], ids)
    calls = [{"name": c["name"], "args": c.get("arguments") or {}, "id": f"call_{i}", "type": "tool_call"}
             for i, c in enumerate(response.get("tool_calls") or [])]
    return AIMessage(content=response.get("content") or "", tool_calls=calls)


def parse_structured(message: AIMessage, schema: Any) -> Any:
    """Structured output from a recorded reply, as langchain-openai reads it: a tool call named
    like the schema (``function_calling``), else the content as JSON (``json_schema``); validated
    by a pydantic schema, a dict otherwise.

    Raises:
        ValueError: no such tool call and no JSON content, or the output does not fit the schema.
    """
    name = schema_name(schema)
    data = next((c["args"] for c in message.tool_calls if c["name"] == name), None)
    if data is None:
        if not isinstance(message.content, str) or not message.content.strip():
            raise ValueError(f"the recorded reply has no content and no tool call named {name}")
        data = json.loads(message.content)
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_validate(data)
    return data


class ReplayChatModel(BaseChatModel):
    """Answers from recordings by prompt key (module docstring); not a language model.

    - ``invoke(messages) -> AIMessage``: the recorded reply (``answers="offline"``: the offline
      stand-in's answer, never looked up).
    - ``with_structured_output(schema).invoke(messages)``: the recorded reply parsed like
      langchain-openai does (:func:`parse_structured`).

    A call with no recording raises :class:`RecordingMissingError`, unless ``on_miss`` is set (the
    recorder): then the call goes to that model. ``hits`` and ``misses`` count lookups; ``used``
    holds the key of every prompt looked up.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    path: str
    records: dict[str, dict] = Field(default_factory=dict)
    answers: Literal["recorded", "offline"] = "recorded"
    on_miss: BaseChatModel | None = None
    hits: int = 0
    misses: int = 0
    used: set[str] = Field(default_factory=set)

    @property
    def _llm_type(self) -> str:
        return "replay"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": f"replay:{self.path}", "answers": self.answers}

    def _lookup(self, messages: Sequence[BaseMessage], schema: str | None) -> tuple[AIMessage | None, dict]:
        """The recorded reply (None on a miss with ``on_miss`` set) and the prompt's masked form."""
        masked, ids = mask_ids(langchain_pairs(messages))
        prompt = {"key": prompt_key(masked, schema), "schema": schema, "messages": masked, "ids": ids}
        record = self.records.get(prompt["key"])
        self.used.add(prompt["key"])
        if record is not None:
            self.hits += 1
            return recorded_message(record, ids), prompt
        self.misses += 1
        if self.on_miss is None:
            raise RecordingMissingError(prompt["key"], schema, self.path, masked, offline_hint=schema is None)
        return None, prompt

    def _ask_on_miss(self, call, prompt: dict, raw_of=lambda out: out):
        """Run a call to ``on_miss`` and remember its reply for this prompt, so the same prompt is
        asked once per run and gets the same answer, as at replay. A failure (no answer, a server
        error) is a ``ModelError``: the turn fails instead of passing as malformed output."""
        try:
            out = call()
        except Exception as exc:
            raise ModelError(f"The model for unrecorded calls did not answer: {type(exc).__name__}: {exc}") from exc
        raw, ids = raw_of(out), prompt["ids"]
        reply = {"content": content_text(raw.content)} if raw.content or not raw.tool_calls else {}
        if raw.tool_calls:
            reply["tool_calls"] = [{"name": c["name"], "arguments": c["args"]} for c in raw.tool_calls]
        self.records[prompt["key"]] = ({k: prompt[k] for k in ("key", "schema", "messages")}
                                       | {"response": mask_reply(reply, ids)})
        return out

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.answers == "offline":
            return OfflineChatModel()._generate(messages, stop=stop, **kwargs)
        reply, prompt = self._lookup(messages, None)
        if reply is None:
            reply = self._ask_on_miss(lambda: self.on_miss.invoke(messages), prompt)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Runnable:
        """A runnable answering ``schema`` from the recordings; ``kwargs`` (``method``, ``strict``)
        go to ``on_miss`` only. With ``include_raw``: ``{"raw", "parsed", "parsing_error"}``."""
        name = schema_name(schema)

        def run(value: Any) -> Any:
            messages = self._convert_input(value).to_messages()
            raw, prompt = self._lookup(messages, name)
            if raw is None:
                bound = self.on_miss.with_structured_output(schema, include_raw=True, **kwargs)
                out = self._ask_on_miss(lambda: bound.invoke(messages), prompt, raw_of=lambda o: o["raw"])
                if include_raw:
                    return out
                if out.get("parsing_error") is not None:
                    raise out["parsing_error"]  # malformed output fails here as it does with the model itself
                return out["parsed"]
            if not include_raw:
                return parse_structured(raw, schema)
            try:
                return {"raw": raw, "parsed": parse_structured(raw, schema), "parsing_error": None}
            except ValueError as exc:
                return {"raw": raw, "parsed": None, "parsing_error": exc}

        return RunnableLambda(run, name=f"ReplayChatModel.{name}")


def parse_spec(spec: str) -> tuple[Path, str]:
    """``replay:FILE[?answers=recorded|offline]`` → ``(FILE, answers)``.

    Raises:
        ModelError: no file named, or an unknown option or value.
    """
    rest = spec.removeprefix("replay:")
    path, _, query = rest.partition("?")
    options = dict(item.partition("=")[::2] for item in query.split("&") if item)
    answers = options.pop("answers", "recorded")
    if not path.strip():
        raise ModelError("--model replay needs a recording file: --model replay:FILE[?answers=offline].")
    if options or answers not in ANSWER_MODES:
        raise ModelError(f"Unknown replay option in {spec!r}: the only option is answers=recorded (default) or "
                         "answers=offline, e.g. --model 'replay:evals/recordings/examples.jsonl?answers=offline'.")
    return Path(path.strip()), answers


def load_replay_model(spec: str) -> ReplayChatModel:
    """The replay model of ``replay:FILE[?answers=offline]`` (:func:`parse_spec`).

    Raises:
        ModelError: a malformed spec, or a missing or malformed recording file.
    """
    path, answers = parse_spec(spec)
    return ReplayChatModel(path=str(path), records=load_recordings(path), answers=answers)
