"""Code checks on every proposal, before a person sees it.

The model proposes; these rules decide what may even be shown for approval. A proposal is
rejected, with the reason recorded in the audit log, when it is:

- **ungrounded**: it cites no message, a message that is not in this thread, or one not written
  by the user; or its evidence does not occur in those messages (whitespace and case normalised);
- **an instruction to the agent** ("from now on…", "ignore previous…", rules for other people,
  prices, discounts, refunds, credit, permissions, secrets). Presentation preferences about the
  user's own answers ("always answer in German") stay allowed;
- **a guess or chatter**: hedged ("might", "maybe", "someday"), a question, empty, or over the
  length cap;
- **sensitive data said in passing** (health, religion, politics, sexual life, precise location,
  finances) unless the user explicitly asked to remember it, in which case it is kept and
  marked ``restricted``;
- **procedural memory not asked for** (:func:`procedural_reason`): a ``procedural`` fact (how
  answers are presented: style, format, language) needs an explicit request in the user's own
  message, must be about presentation, and never about other people.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, HumanMessage

from memory_agent.facts import ProposedFact
from memory_agent.messages import message_text

MAX_CONTENT_CHARS = 300

_INSTRUCTION = re.compile(
    r"\b(from now on|henceforth|going forward|ignore (all |any |the |your )?(previous |prior |above |earlier )?"
    r"(instructions|rules|prompt)|ignore (all |any |the )?(previous|prior|above|earlier)|disregard|system prompt|"
    r"(the )?assistant (must|should|shall|will|answers|always|never)|"
    r"you (must|should|shall|are to|will) (always|never|now)|new instructions?|override|jailbreak|"
    r"pretend (to be|you are)|act as)\b",
    re.IGNORECASE,
)
_MONEY_OR_POWER = re.compile(
    r"\b(discount\w*|refund\w*|rebates?|credits?|coupons?|vouchers?|prices?|pricing|free of charge|for free|"
    r"free shipping|free upgrades?|\d+\s*% off|percent off|entitled|"
    r"permissions?|admin(istrator)?|access rights?|passwords?|secrets?|api[ -]?keys?|tokens?|"
    r"privileges?|waive\w*|fees?)\b",
    re.IGNORECASE,
)
_THIRD_PARTY_RULE = re.compile(
    r"\b(always|never|every time)\b.*\b(customers?|everyone|every(body| user)|all users|other users|"
    r"anyone|people|clients?|them)\b",
    re.IGNORECASE,
)
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


def normalise(text: str) -> str:
    """Case-folded text with runs of whitespace collapsed to one space."""
    return " ".join(text.casefold().split())


@dataclass
class Verdict:
    """The result of :func:`check_proposal`: ``ok`` and, when not ok, the ``reason``.

    ``sensitivity`` is the value to store (a sensitive fact the user asked to keep becomes
    ``restricted``).
    """

    ok: bool
    reason: str = ""
    sensitivity: str = "common"


_ROLE_PREFIX = re.compile(r"^\s*(assistant|system|developer|ai)\s*:", re.IGNORECASE)
_INVISIBLE = re.compile(r"[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]")


def instruction_reason(text: str) -> str | None:
    """Why ``text`` reads as an instruction to the agent, or ``None`` when it does not.

    Zero-width characters are removed and whitespace (line breaks included) is folded first, so
    "Fr\u200bom now\non" reads as "From now on". A regular-expression screen, not a proof: the
    approval step and the fenced memory block stay the other defences.
    """
    text = " ".join(_INVISIBLE.sub("", text).split())
    if _INSTRUCTION.search(text) or _ROLE_PREFIX.search(text):
        return "reads as an instruction to the agent"
    if _MONEY_OR_POWER.search(text):
        return "mentions prices, discounts, refunds, credit, permissions or secrets"
    if _THIRD_PARTY_RULE.search(text):
        return "sets a rule for how the agent treats other people"
    return None


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
    if proposal.kind == "procedural":
        reason = procedural_reason(content, cited)
        if reason:
            return Verdict(False, reason)
    sensitive = proposal.sensitivity == "restricted" or bool(_SENSITIVE.search(evidence) or _SENSITIVE.search(content))
    if sensitive:
        if not any(_EXPLICIT_REMEMBER.search(c) for c in cited):
            return Verdict(False, "sensitive data said in passing (ask explicitly to have it remembered)")
        return Verdict(True, sensitivity="restricted")
    return Verdict(True)


# ---- procedural memory (issue 5) -----------------------------------------------------------------
_PRESENTATION = re.compile(
    r"\b(answers?|replies|reply|respon(d|ses?)|explanations?|format\w*|style|tone|language|bullet\w*|lists?|"
    r"tables?|markdown|emojis?|short|brief|concise|detailed|formal|informal|casual|simple|technical|"
    r"code (examples?|snippets?|samples?)|examples?|snippets?|words|sentences|paragraphs|summar\w+|"
    r"english|german|french|spanish|italian|portuguese|dutch|polish|japanese|chinese|korean)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^\s*(please\b|always\b|never\b|(can|could|would|will) you\b|i (want|need|would like|'d like) you to\b|"
    r"(answer|reply|respond|write|talk|speak|explain|keep|use|give|show|send|provide|format|stop|avoid|"
    r"don't|do not)\b)|\b(please|remember that i (want|prefer|like))\b",
    re.IGNORECASE,
)
_OTHER_PEOPLE = re.compile(
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
    requests = [s for s in sentences if _REQUEST.search(s) and _PRESENTATION.search(s)]
    if not requests:
        return "procedural memory (how answers are presented) is set only by an explicit request of the user"
    if not _PRESENTATION.search(content):
        return "procedural memory is about how answers are presented (style, format, language), nothing else"
    if _OTHER_PEOPLE.search(content) or any(_OTHER_PEOPLE.search(s) for s in requests):
        return "procedural memory is about this user's answers, never rules about other people"
    return None


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
