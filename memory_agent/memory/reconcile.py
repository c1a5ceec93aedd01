"""Reconcile one validated proposal against the user's live facts: ADD, NOOP, UPDATE or RETRACT.

Decided by code, from the proposal's nearest live facts (cosine similarity of their embedded
``"topic: content"`` texts) and the slot (``topic``) the proposal fills:

- **NOOP**: the same content (normalised) or a close paraphrase: similarity ≥ ``noop_similarity``
  with the same polarity and no new value (number, date, name). A near-identical sentence with
  the opposite polarity ("no longer vegetarian") or a new value ("the deadline is now April 2")
  is an UPDATE.
- **UPDATE**: a live fact that the new one contradicts or replaces: the same topic and a change
  word in the user's words ("now", "moved", "switched", "no longer", "instead" …); or, across
  topics, a change word and similarity ≥ ``update_similarity_any_topic``. The change words are
  English: when the user wrote in another language, they are read in the model's English rendering
  of the user's words too (the proposal's content: "最近は…に通っています" → "The user currently
  goes to …"). A topic alone is not enough: many topics hold several values (two allergies, two
  pets), and superseding an allergy by another would lose a safety constraint. The old fact is
  superseded, never deleted.
- **RETRACT**: the model marked the proposal ``retract``; the target is the live fact of the same
  topic, else the most similar one at or above ``retract_similarity`` whose words include every
  content word of what the user named ("forget my favourite food" never retracts "favourite
  color is green"). No target → dropped.
- **ADD** otherwise.

Thresholds are for all-MiniLM-L6-v2 and were set on this project's example scenarios; a person
still approves every UPDATE and RETRACT (they are flagged risky).

**Judged by the model, enforced by code** (:func:`judge`): ``propose_facts`` shows the model the
user's related live memories under short ids (``m1`` …) and the model answers per item ``add``,
``update <id>``, ``retract <id>`` or ``none``. Code resolves the id (it must be one of those shown,
this user's and live; the caller checks that, :func:`target_problem`) and then keeps the
judgement, except that an update which only restates its target (:func:`same_statement`, no new
value) is a NOOP. An ``add``, or an item whose target is missing or refused, is reconciled by the
rules above, as before the model was asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_agent.core.facts import Fact, ProposedFact
from memory_agent.memory.retrieval import similarity_from_distance
from memory_agent.memory.text import normalise, written_in_english

_NEGATION = re.compile(r"\b(not|no longer|never|n't|no more|stopped|quit|gave up|any ?more|anymore)\b|n't\b",
                       re.IGNORECASE)
_CHANGE = re.compile(
    r"\b(now|moved|switched|changed|no longer|not anymore|any ?more|instead|update|replaced|migrated|"
    r"from now|these days|nowadays|currently|lately|actually|new)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ReconcileConfig:
    """Similarity thresholds (0–1 cosine similarity) for reconcile decisions, and which live memories
    the extraction prompt shows the model: at most ``shown_limit``, found by retrieval on the user's
    message with the similarity floor ``shown_min_similarity`` (lower than retrieval's own 0.25, as
    a change is often worded unlike the fact it replaces; code checks every target anyway), then
    up to ``shown_previous`` found on the user's previous message of the thread.
    ``forget_all_similarity``: how like a memory the user asked to forget everything about another
    memory naming the same thing must be to go with it (MiniLM put a wedding's catering budget at
    0.37 from its caterer and 0.33 from the wedding plan, and a job at 0.23 from both)."""

    noop_similarity: float = 0.9
    update_similarity_any_topic: float = 0.7
    retract_similarity: float = 0.45
    shown_limit: int = 8
    shown_min_similarity: float = 0.15
    shown_previous: int = 3
    forget_all_similarity: float = 0.3


@dataclass(frozen=True)
class Decision:
    """What reconcile decided: ``operation`` and, for UPDATE/RETRACT/NOOP, the live ``target``."""

    operation: str
    target: Fact | None = None
    reason: str = ""


def polarity(text: str) -> bool:
    """True when ``text`` is negated ("not", "no longer", "n't", "stopped", …). Embeddings put
    "The user is vegetarian." and "The user is no longer vegetarian." at 0.94 cosine similarity,
    so a paraphrase test alone would call the contradiction a duplicate."""
    return bool(_NEGATION.search(text))


def same_statement(a: str, b: str, similarity: float, threshold: float) -> bool:
    """True when two contents state the same thing: equal once normalised, or a close paraphrase
    (``similarity`` ≥ ``threshold``, cosine 0–1) of the same :func:`polarity`."""
    if normalise(a) == normalise(b):
        return True
    return similarity >= threshold and polarity(a) == polarity(b)


# a number or date, a capitalised word, or an identifier written in lower case: an e-mail address,
# a domain or handle ("r.okafor@acme.io", "acme.io", "@rokafor"), a word holding a digit ("v2", "x86")
_VALUE = re.compile(r"[\w.+-]*@[\w.-]*\w|\b\w+(?:\.\w+)*\.[a-z]{2,}\b|\b\w*\d[\w:./-]*|\b[A-Z][\w.+#-]*")


def values(text: str) -> set[str]:
    """The value-like tokens of a sentence: numbers, dates, identifiers (e-mail addresses, domains,
    handles, words holding a digit) and capitalised words after the first word ("March 14",
    "Postgres", "Kotlin", "r.okafor@acme.io"). Two sentences that embed as near-identical but differ
    in these ("… is March 14." / "… is now April 2.") are not duplicates."""
    words = text.split(maxsplit=1)
    rest = words[1] if len(words) > 1 else ""
    return {v.casefold().rstrip(".") for v in _VALUE.findall(rest)}


_FILLER = frozenset({
    "the", "a", "an", "user", "user's", "users", "my", "mine", "i", "i'm", "me", "what", "where", "when",
    "which", "who", "how", "that", "this", "about", "said", "say", "told", "is", "am", "are", "was", "were",
    "to", "of", "in", "on", "at", "for", "and", "or",
})


def _words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[\w']+", text.casefold()) if w not in _FILLER}


def _covers(named: str, content: str) -> bool:
    """Every content word of ``named`` (first five letters, a crude stem) occurs in ``content``."""
    wanted = _words(named)
    return bool(wanted) and wanted <= _words(content)


def _same_topic(a: str, b: str) -> bool:
    return bool(a) and normalise(a) == normalise(b)


def reconcile(
    proposal: ProposedFact, neighbours: Sequence[tuple[Fact, float]], config: ReconcileConfig = ReconcileConfig(),
    message: str = "",
) -> Decision:
    """Decide the operation for ``proposal`` given its nearest live facts ``(fact, cosine distance)``.

    ``message`` is the text of the user message the proposal cites: a change word there ("Actually,
    I'm vegan now.") counts even when the evidence is only "I'm vegan".

    Returns a :class:`Decision`; ``operation`` is one of ADD, NOOP, UPDATE, RETRACT, or DROP
    (a retraction with nothing live to retract).
    """
    scored = sorted(
        ((f, similarity_from_distance(d)) for f, d in neighbours if f.status == "confirmed"),
        key=lambda x: x[1],
        reverse=True,
    )
    if proposal.operation == "retract":
        same = [(f, s) for f, s in scored if _same_topic(proposal.topic, f.topic)]
        if same:
            return Decision("RETRACT", same[0][0], "same topic")
        for fact, sim in scored:
            if sim >= config.retract_similarity and _covers(proposal.content, fact.content):
                return Decision("RETRACT", fact, f"similarity {sim:.2f}, names {proposal.content!r}")
        return Decision("DROP", None, "nothing live matches what the user asked to forget")

    content = normalise(proposal.content)
    negated = polarity(proposal.content)
    said = f"{proposal.evidence or ''} {message}"
    change = bool(_CHANGE.search(said if written_in_english(said) else f"{said} {proposal.content}"))
    for fact, sim in scored:
        if normalise(fact.content) == content:
            return Decision("NOOP", fact, "already known (same words)")
        if sim < config.noop_similarity:
            continue
        if polarity(fact.content) != negated:  # near-identical words, opposite polarity: a contradiction
            return Decision("UPDATE", fact, f"negates a known fact (similarity {sim:.2f})")
        new_values = values(proposal.content) - values(fact.content)
        if not new_values:
            return Decision("NOOP", fact, f"already known (similarity {sim:.2f})")
        if change:
            return Decision("UPDATE", fact, f"same statement with a new value ({', '.join(sorted(new_values))})")
    for fact, sim in scored:
        if change and _same_topic(proposal.topic, fact.topic):
            return Decision("UPDATE", fact, f"same topic '{fact.topic}' and a change word, similarity {sim:.2f}")
    if change and scored and scored[0][1] >= config.update_similarity_any_topic:
        return Decision("UPDATE", scored[0][0], f"change of a similar fact ({scored[0][1]:.2f})")
    return Decision("ADD")


def target_problem(short_id: str | None, shown: Mapping[str, str], fact: Fact | None, user_id: str,
                   now: datetime) -> str | None:
    """Why the model's ``target`` cannot be acted on (``None`` when it can).

    Args:
        short_id: the id the model named (``"m2"``), or ``None``.
        shown: short id → fact id of the memories shown in the prompt.
        fact: the fact ``shown[short_id]`` names, read again from the user's own store (``None`` if absent).
        user_id: the user of the turn.
        now: the context clock.
    """
    if not short_id:
        return None
    if short_id not in shown:
        return f"target {short_id!r} is not one of the memories shown ({', '.join(shown) or 'none'})"
    if fact is None or fact.user_id != user_id or fact.id != shown[short_id]:
        return f"target {short_id!r} is not a memory of this user"
    if fact.status != "confirmed" or not fact.is_valid_at(now):
        return f"target {short_id!r} is no longer live ({fact.status if fact.status != 'confirmed' else 'expired'})"
    return None


def judge(
    proposal: ProposedFact, target: Fact | None, target_similarity: float,
    neighbours: Sequence[tuple[Fact, float]], config: ReconcileConfig = ReconcileConfig(), message: str = "",
    problem: str | None = None,
) -> Decision:
    """Decide the operation for ``proposal`` from the model's judgement, checked by code.

    Args:
        proposal: the model's item (``operation`` add | update | retract | none, ``target``).
        target: the live fact the model's ``target`` names, already checked (:func:`target_problem`),
            or ``None`` (no target, or a refused one).
        target_similarity: cosine similarity (0–1) of the proposal and ``target``.
        neighbours, config, message: as :func:`reconcile`, for the fallback.
        problem: why the model's target was refused, put in front of the fallback's reason.

    Returns:
        A :class:`Decision` (ADD, NOOP, UPDATE, RETRACT or DROP, as :func:`reconcile`).
    """
    if proposal.operation == "none":
        return Decision("NOOP", target, "the model found nothing new" + (f" (known: {target.content!r})" if target
                                                                        else ""))
    if target is not None and proposal.operation == "retract":
        return Decision("RETRACT", target, "the user asked to forget it (the model named this memory)")
    if target is not None and proposal.operation == "update":
        if same_statement(proposal.content, target.content, target_similarity, config.noop_similarity) and \
                not values(proposal.content) - values(target.content):
            return Decision("NOOP", target, f"restates a known fact (similarity {target_similarity:.2f})")
        return Decision("UPDATE", target, "replaces a known fact (the model named this memory)")
    fallback = reconcile(proposal.model_copy(update={"operation": "retract" if proposal.operation == "retract"
                                                                         else "add"}),
                         neighbours, config, message)
    if problem:
        reason = f"{problem}; reconciled by rule: {fallback.reason or 'new'}"
        return Decision(fallback.operation, fallback.target, reason)
    return fallback


# "everything" in a request to forget, in the languages the rest of the pipeline reads
_FORGET_ALL = re.compile(
    r"\b(?:everything|anything|all of (?:it|that|this|them)|all (?:the )?(?:info|details|stuff)|alles|tout|tous|"
    r"todo|toda|todos|todas|tutto|tutti|tutte|tudo|wszystko|allt|всё|все|her şey|hepsi|semua|tất cả)\b|"
    r"全部|すべて|全て|모두|모든|सब कुछ|كل",
    re.IGNORECASE,
)


def asks_to_forget_all(text: str) -> bool:
    """True when a user message says "everything" ("forget everything about Jannik", "vergiss alles
    über die Hochzeit"): what it covers is every memory about that thing, not the one shown."""
    return bool(_FORGET_ALL.search(text))


def forget_anchors(fact: Fact) -> set[str]:
    """The words that tie another memory to ``fact`` when the user forgets everything about what it
    says: its capitalised names after the first word ("Jannik", "Gasthof Seeblick") and its slot
    (``topic``, "wedding") when that is one or two words; case-folded."""
    names = {v.casefold().strip(".,;:!?") for v in re.findall(r"(?<=\s)(?-i:[A-Z])[\w'-]+", fact.content)}
    slot = fact.topic.casefold().split()
    names -= {"the", "user", "user's", "i"}
    return names | ({" ".join(slot)} if 0 < len(slot) <= 2 else set())
