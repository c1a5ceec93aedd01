"""The fact record and the proposal schema the model fills in.

A *fact* is one short, verifiable statement about one user, with provenance (which thread,
which message, which words). Facts are written only through the journaled writes of long-term memory
(the ``commit`` node's decisions, ``maintain``, the user's own edits and erasure). A *proposal* is
what ``propose_facts`` asks the model for; code validates and reconciles every proposal
before a person sees it.

Shapes
------
- ``Fact``: the stored record (all times are timezone-aware UTC ``datetime``; scores 0–1).
- ``ProposedFact`` / ``ProposedFacts``: the structured output the chat model must return.
- ``Proposal``: a validated, reconciled proposal as shown at the approval interrupt.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from memory_agent.core.kinds import FACT_KINDS

# The kinds of ``memory_agent.core.kinds.KINDS`` as a Literal, so the structured-output schema lists them.
FactKind = Literal[FACT_KINDS]  # type: ignore[valid-type]
FactStatus = Literal["confirmed", "superseded", "retracted", "expired"]
Sensitivity = Literal["common", "restricted"]
Operation = Literal["ADD", "UPDATE", "NOOP", "RETRACT"]
#: The extraction's judgement of what an item would do if stored (see ``ProposedFact.risk``); the
#: policy per category is enforced by code (``memory_agent.memory.validation``, ``human_approval``, commit).
Risk = Literal["none", "entitlement", "role", "credential", "sensitive", "instruction"]
#: Categories stored only when a person approves them (never by approval mode ``never``).
PERSON_ONLY_RISKS = ("entitlement", "role")
# A stored turn of a conversation (speaker, words, when), written by code that imports dialogue
# (the LoCoMo retrieval benchmark), never proposed by the model: kept out of ``FactKind``, so the
# structured-output schema of ``propose_facts`` does not offer it.
EPISODE_KIND = "episode"


class Source(BaseModel):
    """Where a fact comes from: the LangGraph thread and the user message id(s)."""

    thread_id: str
    message_ids: list[str]


class Fact(BaseModel):
    """One long-term memory about one user.

    Times are UTC datetimes written from the run's context clock, never the wall clock
    directly. ``confidence`` and ``importance`` are 0–1. ``valid_until`` / ``review_at`` are
    optional (``None`` means no expiry / no review date; ``memory_agent.memory.lifecycle`` sets them by
    kind). ``merged_sources`` / ``merged_from`` keep the provenance of duplicates that
    ``maintain`` merged into this fact.
    """

    id: str
    user_id: str
    kind: FactKind | Literal["episode"]
    content: str
    topic: str = ""
    source: Source
    evidence: str
    status: FactStatus = "confirmed"
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    sensitivity: Sensitivity = "common"
    created_at: datetime
    updated_at: datetime
    valid_until: datetime | None = None
    review_at: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    last_used_at: datetime | None = None
    use_count: int = 0
    merged_sources: list[Source] = Field(default_factory=list)
    merged_from: list[str] = Field(default_factory=list)

    @property
    def index_text(self) -> str:
        """The text that is embedded and searched: ``"<topic>: <content>"`` (see :func:`index_text`)."""
        return index_text(self.topic, self.content)

    def is_valid_at(self, now: datetime) -> bool:
        """True unless ``valid_until`` lies at or before ``now``."""
        return self.valid_until is None or self.valid_until > now


class ProposedFact(BaseModel):
    """One candidate memory as the chat model proposes it (structured output).

    ``risk`` is the model's judgement of what the item would do if stored; code enforces the policy
    of each category whatever the approval mode, and its own detectors can only raise it
    (``memory_agent.memory.validation``).
    ``operation`` is the model's judgement against the related live memories shown in the prompt
    under short ids (``m1`` …): ``add`` (new), ``update`` (replaces memory ``target``), ``retract``
    (the user withdraws memory ``target``: "forget where I live"; "forget everything about X" is
    one ``retract`` per memory it covers) or ``none`` (nothing new: ``target`` already says it).
    Code checks every answer (``memory_agent.memory.reconcile.judge``): a target must be one of
    the ids shown, this user's and live; an item with no usable target is reconciled by code.
    ``valid_until`` is an ISO date (``YYYY-MM-DD``, the last day the fact holds) only when the
    user states or implies an end; code checks it against the user's words and the clock
    (``memory_agent.memory.end_dates``). Every field added since the first schema has a default,
    so an older model output still validates.
    """

    operation: Literal["add", "update", "retract", "none"] = Field(
        default="add",
        description="'add' new information; 'update' it replaces the memory named in target; 'retract' the user "
                    "asks to forget the memory named in target; 'none' nothing new (target already says it)",
    )
    target: str | None = Field(
        default=None, description="for update, retract and none: the short id (m1, m2, ...) of the memory shown"
    )
    kind: FactKind = Field(
        description=" | ".join(FACT_KINDS)
        + " (procedural: how the user wants answers presented, only when the user asks for it)")
    content: str = Field(description="one short neutral sentence in the third person, e.g. 'The user is vegetarian.'")
    topic: str = Field(
        default="", description="a short name of the slot this fact fills, e.g. 'diet', 'database', 'home city'"
    )
    message_ids: list[str] = Field(description="ids of the user message(s) this fact rests on")
    evidence: str = Field(description="the exact words of the user's message that support the fact")
    confidence: float = Field(default=0.8, ge=0.0, le=1.0, description="0-1: how sure the statement is")
    importance: float = Field(default=0.5, ge=0.0, le=1.0, description="0-1: how useful in later sessions")
    sensitivity: Sensitivity = Field(
        default="common",
        description="'restricted' for health, religion, politics, sexual life, precise location, finances",
    )
    risk: Risk = Field(
        default="none",
        description="entitlement: money, discounts, refunds, credit, free items or service, price deals; "
        "role: a role, rank, tier or permission in this service; credential: a password, PIN, key, token "
        "or other secret; sensitive: health, religion, politics, sexual life, salary, exact address, "
        "ID numbers; instruction: a rule or order for the assistant; none: an ordinary fact",
    )

    @field_validator("risk", mode="before")
    @classmethod
    def _risk_as_named(cls, value: object) -> object:
        """``"Entitlement "`` reads as ``"entitlement"``; ``None`` as ``"none"``."""
        return "none" if value is None else value.strip().lower() if isinstance(value, str) else value
    valid_until: str | None = Field(
        default=None,
        description="ISO date YYYY-MM-DD, the last day this holds, only when the user states or implies an end "
                    "('until March 10', 'this week', 'for the next two months'); otherwise null",
    )


class ProposedFacts(BaseModel):
    """The structured output of ``propose_facts``: zero or more proposals."""

    facts: list[ProposedFact] = Field(default_factory=list)


class Proposal(BaseModel):
    """A validated and reconciled proposal, as shown to a person at the approval interrupt.

    ``operation`` is the reconcile result: ADD (new), UPDATE (supersedes ``target_id``),
    RETRACT (withdraws ``target_id``). NOOP proposals never reach approval. ``risk`` is
    ``"entitlement"`` or ``"role"`` for a claim only a person may approve (asked in every mode but
    ``never``, where it is dropped), else ``"none"`` or ``"sensitive"``. ``target_content``
    is the target's wording, so a person sees an update as old → new. ``valid_until`` is the end
    the user stated (checked, UTC; the fact expires at that time), else ``None`` and the kind's
    default validity applies at commit.
    """

    id: str
    operation: Operation
    kind: FactKind
    content: str
    topic: str = ""
    source: Source
    evidence: str
    confidence: float = 0.8
    importance: float = 0.5
    sensitivity: Sensitivity = "common"
    target_id: str | None = None
    target_content: str | None = None
    valid_until: datetime | None = None
    risky: bool = False
    reason: str = ""
    risk: Risk = "none"


def index_text(topic: str, content: str) -> str:
    """The text embedded for a fact or a proposal: ``"<topic>: <content>"``, or the content alone."""
    topic, content = (topic or "").strip(), content.strip()
    return f"{topic}: {content}" if topic else content


def utcnow() -> datetime:
    """The wall clock as a timezone-aware UTC datetime (the default context clock)."""
    return datetime.now(UTC)


def stable_id(*parts: str, prefix: str = "") -> str:
    """A deterministic id (sha256 of the parts, 24 hex chars), so re-running a step writes the same row."""
    digest = hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:24]
    return f"{prefix}{digest}"
