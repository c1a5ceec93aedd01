"""Code checks on every proposal, before a person sees it.

The model proposes; these rules decide what may even be shown for approval. A proposal is
rejected, with the reason recorded in the audit log, when it is:

- **ungrounded**: it cites no message, a message that is not in this thread, or one not written
  by the user; or its evidence does not occur in those messages (whitespace and case normalised);
- **an instruction to the agent** ("from now on…", "ignore previous…", rules for other people,
  prices, discounts, refunds, credit, permissions, secrets, markup imitating the prompt): see
  :func:`memory_agent.memory.injection.instruction_reason`. Presentation preferences about the
  user's own answers ("from now on answer me in German", "keep answers short": procedural memory)
  stay allowed;
- **a guess or chatter**: hedged ("might", "maybe", "someday"), a question, empty, or over the
  length cap;
- **sensitive data said in passing** (health, religion, politics, sexual life, precise location,
  finances) unless the user explicitly asked to remember it, in which case it is kept and
  marked ``restricted``;
- **procedural memory not asked for** (:func:`procedural_reason`): a ``procedural`` fact (how
  answers are presented: style, format, language) needs an explicit request in the user's own
  message, must be about presentation, and never about other people. Without such a request it is
  not dropped but kept as a ``preference`` (:func:`procedural_as_preference`), unless it is about
  other people.

What the seed design says to keep is kept: a **declared restriction** (:func:`declared_restriction`:
an allergy or intolerance, "do not call me", "deliveries only in the morning", "I can't eat …") is
kept as a ``constraint`` marked ``restricted`` (so a person is always asked about it), even when the
model marked it sensitive and the user did not say "remember".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, HumanMessage

from memory_agent.core.facts import ProposedFact
from memory_agent.core.messages import message_text
from memory_agent.memory.injection import instruction_reason
from memory_agent.memory.text import normalise

MAX_CONTENT_CHARS = 300

_HEDGE = re.compile(
    r"\b(might|maybe|perhaps|someday|some day|who knows|not sure|probably|possibly|thinking about|"
    r"considering|wondering)\b",
    re.IGNORECASE,
)
_SENSITIVE = re.compile(
    r"\b(diabet\w*|depress\w*|cancer|hiv|pregnan\w*|medication|therapy|therapist|diagnos\w*|disorder|"
    r"religio\w*|christian|muslim|jewish|hindu|buddhist|atheist|church|mosque|synagogue|"
    r"vote[ds]?|voting|democrat\w*|republican\w*|political|"
    r"sexual\w*|gay|lesbian|bisexual|"
    r"salary|bank account|iban|credit card|debts?|mortgage|net worth|"
    r"\d+\s+\w+\s+(street|st\.|avenue|ave\.|road|rd\.)|postcode|zip code)\b",
    re.IGNORECASE,
)
_EXPLICIT_REMEMBER = re.compile(r"\b(remember|keep in mind|note that|don't forget)\b", re.IGNORECASE)


@dataclass
class Verdict:
    """The result of :func:`check_proposal`: ``ok`` and, when not ok, the ``reason``.

    ``sensitivity`` is the value to store (a sensitive fact the user asked to keep becomes
    ``restricted``).
    """

    ok: bool
    reason: str = ""
    sensitivity: str = "common"
    kind: str | None = None  # the kind to store when validation changes the model's (else None)
    note: str = ""  # why the kind changed, shown to the person with the proposal


def check_proposal(proposal: ProposedFact, messages: Sequence[BaseMessage]) -> Verdict:
    """Validate one model proposal against the thread's messages.

    Args:
        proposal: what the model proposed.
        messages: the thread's messages (the proposal may cite only ``HumanMessage`` ids among them).

    Returns:
        A :class:`Verdict`; it never raises on bad model output.
    """
    content = (proposal.content or "").strip()
    evidence = (proposal.evidence or "").strip()
    if not content:
        return Verdict(False, "empty content")
    if len(content) > MAX_CONTENT_CHARS:
        return Verdict(False, f"content longer than {MAX_CONTENT_CHARS} characters")
    if not proposal.message_ids:
        return Verdict(False, "cites no message")
    by_id = {m.id: m for m in messages if m.id}
    cited = []
    for mid in proposal.message_ids:
        msg = by_id.get(mid)
        if msg is None:
            return Verdict(False, f"cites message {mid!r}, which is not in this thread")
        if not isinstance(msg, HumanMessage):
            return Verdict(False, f"cites message {mid!r}, which the user did not write")
        cited.append(message_text(msg))
    if not evidence:
        return Verdict(False, "gives no evidence")
    if normalise(evidence) not in normalise(" ".join(cited)):
        return Verdict(False, "its evidence does not occur in the cited user message")
    if proposal.operation == "retract":
        return Verdict(True)
    for text in (evidence, content):
        reason = instruction_reason(text)
        if reason:
            return Verdict(False, reason)
    if evidence.rstrip().endswith("?"):
        return Verdict(False, "a question, not a statement")
    if _HEDGE.search(evidence):
        return Verdict(False, "a guess or plan the user is unsure about")
    kind, note = None, ""
    if proposal.kind == "procedural":
        reason = procedural_reason(content, cited)
        if reason:
            note = procedural_as_preference(content, reason)
            if note is None:
                return Verdict(False, reason)
            kind = "preference"
    if declared_restriction(content):  # the fact itself, not a longer quote that may hold another one
        return Verdict(True, sensitivity="restricted", kind="constraint",
                       note="" if proposal.kind == "constraint" else "kept as a constraint: a declared restriction")
    sensitive = proposal.sensitivity == "restricted" or bool(_SENSITIVE.search(evidence) or _SENSITIVE.search(content))
    if sensitive:
        if not any(_EXPLICIT_REMEMBER.search(c) for c in cited):
            return Verdict(False, "sensitive data said in passing (ask explicitly to have it remembered)")
        return Verdict(True, sensitivity="restricted", kind=kind, note=note)
    return Verdict(True, kind=kind, note=note)


# ---- procedural memory -----------------------------------------------------------------
_PROCEDURAL_PRESENTATION = re.compile(
    r"\b(answers?|replies|reply|respon(d|ses?)|explanations?|format\w*|style|tone|language|bullet\w*|lists?|"
    r"tables?|markdown|emojis?|short|brief|concise|detailed|formal|informal|casual|simple|technical|"
    r"code (examples?|snippets?|samples?)|examples?|snippets?|words|sentences|paragraphs|summar\w+|"
    r"english|german|french|spanish|italian|portuguese|dutch|polish|japanese|chinese|korean)\b",
    re.IGNORECASE,
)
_PROCEDURAL_REQUEST = re.compile(
    r"^\s*(please\b|always\b|never\b|(can|could|would|will) you\b|i (want|need|would like|'d like) you to\b|"
    r"(answer|reply|respond|write|talk|speak|explain|keep|use|give|show|send|provide|format|stop|avoid|"
    r"don't|do not)\b)|\b(please|remember that i (want|prefer|like))\b",
    re.IGNORECASE,
)
_PROCEDURAL_OTHER_PEOPLE = re.compile(
    r"\b(customers?|clients?|colleagues?|coworkers?|co-workers?|team ?mates?|boss|manager|employees?|staff|"
    r"everyone|every(body| user)|other users|others|anyone|people|friends?|family|wife|husband|partner|kids?)\b",
    re.IGNORECASE,
)


def procedural_reason(content: str, cited: Sequence[str]) -> str | None:
    """Why a ``procedural`` proposal may not be kept (``None`` when it may).

    Procedural memory says how the agent presents answers to *this* user (style, format,
    language). It is set only by an explicit request: one cited user sentence must read as a
    request (an imperative, "please", "can you…", "I want you to…") and mention presentation. It
    is never about other people, and never permissions, prices or credit (those are refused
    earlier by :func:`instruction_reason`)."""
    said = " ".join(cited)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", said) if s.strip()]
    requests = [s for s in sentences if _PROCEDURAL_REQUEST.search(s) and _PROCEDURAL_PRESENTATION.search(s)]
    if not requests:
        return "procedural memory (how answers are presented) is set only by an explicit request of the user"
    if not _PROCEDURAL_PRESENTATION.search(content):
        return "procedural memory is about how answers are presented (style, format, language), nothing else"
    if _PROCEDURAL_OTHER_PEOPLE.search(content) or any(_PROCEDURAL_OTHER_PEOPLE.search(s) for s in requests):
        return "procedural memory is about this user's answers, never rules about other people"
    return None


_CONTACT = r"(?:call|phone|ring|text|message|e-?mail|contact|visit|disturb|bother|wake)"
_RESTRICTION = re.compile(
    r"\b(allerg\w*|intoleran\w*|anaphyla\w*|coeliac|celiac|epipen)\b"
    r"|\b(do not|don't|does not|doesn't|never|not to)\s+(?:want\s+to\s+be\s+(?:called|phoned|rung|texted|"
    r"messaged|e-?mailed|contacted|visited|disturbed|bothered|woken)\b|(?:want\s+(?:you|anyone)\s+to\s+)?"
    rf"{_CONTACT}\s+(?:me|us|the user|them)\b|deliver\w*)"
    r"|\b(deliver(y|ies)|parcels?|packages?|calls?|visits?|appointments?|contact)\b[^.;]{0,40}\bonly\b"
    r"|\bonly\b[^.;]{0,30}\b(deliver\w*|call\w*|visit\w*|contact\w*|reach\w*)\b"
    r"|\b(can't|cannot|can not|must not|mustn't|is unable to|am unable to)\s+(eat|drink|tolerate|have any)\b"
    r"|\b(wheelchair|step-free|step free|mobility (aid|scooter|issues?))\b",
    re.IGNORECASE,
)


def declared_restriction(text: str) -> bool:
    """True when ``text`` declares a restriction the user lives with or sets on being contacted or
    served: an allergy or intolerance, "do not call / text / visit me", deliveries, calls or visits
    "only" at some time or way, "can't eat / drink …", a wheelchair or step-free access. Such a
    fact is a ``constraint``, ``restricted`` (always asked about, never decayed), and is kept even
    when it touches health and was said in passing: forgetting it costs more than keeping it."""
    return bool(_RESTRICTION.search(text or ""))


def procedural_as_preference(content: str, reason: str) -> str | None:
    """A ``procedural`` proposal that :func:`procedural_reason` refused (``reason``) is kept as a
    ``preference`` when it is only missing the explicit request or is not about presentation: a
    stated preference about the user's own answers is still worth keeping. Returns the note shown
    with it, or ``None`` when it must be dropped (it sets rules about other people)."""
    if _PROCEDURAL_OTHER_PEOPLE.search(content) or "other people" in reason:
        return None
    return f"kept as a preference: {reason}"


def check_edit(content: object) -> str | None:
    """Why a person's edited content may not be stored (``None`` when it may).

    An edit is held to the same content rules as a model proposal: non-empty, at most
    ``MAX_CONTENT_CHARS`` characters, and not an instruction to the agent — whoever approves it.
    """
    text = str(content or "").strip()
    if not text:
        return "the edited content is empty"
    if "\n" in text or "\r" in text:
        return "the edited content must be one line (one short sentence)"
    if len(text) > MAX_CONTENT_CHARS:
        return f"the edited content is longer than {MAX_CONTENT_CHARS} characters"
    return instruction_reason(text)


def summary_part_reason(text: str) -> str | None:
    """Why a part of a session summary (topic, decision, open item: the user's own sentences,
    copied by rule) may not be kept, or ``None`` when it may. Summaries come back at the start of
    later sessions, so they pass the same screen as facts: nothing that reads as an instruction to
    the agent (:func:`instruction_reason`) and no sensitive data said in passing (there is no
    explicit "remember" for a summary)."""
    reason = instruction_reason(text)
    if reason:
        return reason
    if _SENSITIVE.search(text):
        return "sensitive data said in passing"
    return None
