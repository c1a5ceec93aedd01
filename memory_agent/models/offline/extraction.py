"""Fact proposals by rule: ``extract_facts`` on one user message, ``propose_facts`` on the extraction prompt."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, convert_to_messages
from langchain_core.prompt_values import PromptValue

from memory_agent.core.facts import ProposedFact, ProposedFacts
from memory_agent.core.kinds import default_importance
from memory_agent.core.messages import message_text
from memory_agent.memory.end_dates import stated_ends
from memory_agent.memory.injection import screen
from memory_agent.memory.sensitive import sensitive_reason, without_work
from memory_agent.models.offline.corrections import MISTAKE, corrections
from memory_agent.models.offline.grammar import as_sentence, noun_topic, rewrite
from memory_agent.models.offline.judgement import Shown, judge, shown_memories
from memory_agent.models.offline.retractions import retraction
from memory_agent.models.offline.rules import RULES, Hit
from memory_agent.models.offline.vocabulary import (
    CHATTER,
    EMOJI,
    HEADLINE,
    HEDGE,
    LEAD_TIME,
    MARKERS,
    QUESTION,
    RESTRICTED,
)

__all__ = ["MAX_CONFIDENCE", "extract_facts", "propose_facts"]

MAX_CONFIDENCE = 0.9
_REMEMBER = re.compile(r"^(?:please\s+)?(?:remember|note|keep in mind|(?:don't|do not|never) forget)"
                       r"(?:\s+that)?\s*[:,]?\s+(?!(?:that|this|it|them|these|those)\W*$)(?P<x>\S.*)$", re.I)


# "I meant a 2015 Honda Accord": the user corrects what they said (corrections.py), it is no new fact;
# nor is the slip itself: "I typed the wrong city", "I got the date wrong", "I made a typo"
_MEANT = re.compile(r"I\s+meant\b|(?:I|we)\s+(?:\w+\s+)?(?:typed|wrote|said|gave|put|entered|got|mixed|misspelled|"
                    r"mistyped|misread|misheard)\b[^.!?]{0,40}?\b(?:wrong|mistake|typo|up)\b|"
                    r"(?:I|we)\s+made\s+(?:a|an)\s+(?:\w+\s+)?(?:typo|mistake|error)\b", re.I)


# "i" written in lower case is the English "I" typed in a hurry only in an English message; in Danish,
# Norwegian and Swedish it is "in", in Italian "the", in Polish, Czech and the South Slavic languages "and"
# ("… 1000 kr. i kompensation"). A message reads as another language when it holds a letter English does
# not use or a common word of one of those languages, and no more of English's commonest words.
_LOWER_I = re.compile(r"(?:^|[\s,;:(])(?-i:i)\s")
_ENGLISH = re.compile(r"\b(?:the|my|and|with|of|your|this|that|it|have|has|was|were|been|but|from|just|really|"
                      r"because|about|when|what|don't|can't|i'm|i've|a|an|at|in|to|for|on|is|am|are|work|live|"
                      r"love|like|go|got|get)\b", re.I)
_NOT_ENGLISH = re.compile(r"\w*(?-i:[à-öø-ÿā-žḀ-ỿ])\w*|\b(?:og|jeg|det|ikke|på|och|jag|är|inte|il|che|sono|gli|"
                          r"della|się|jest|nie|jestem|że|jsem|und|ich|der|das)\b", re.I)


def _english(text: str) -> bool:
    """Whether a lower-case "i" in ``text`` may be read as the English pronoun (:data:`_LOWER_I`): the
    message holds no mark of another language, or more of English's commonest words than such marks."""
    foreign = len(_NOT_ENGLISH.findall(text))
    return not foreign or len(_ENGLISH.findall(text)) > foreign


def _clause_hits(clause: str, question: bool, antecedent: str = "") -> list[tuple[Hit, int, int]]:
    """Hits for one clause, each with its evidence start/end offsets inside ``clause``; ``antecedent``
    is what "it" in a "forget …" request stands for (the subject of the sentence before)."""
    norm = clause.replace("’", "'")  # same length, so offsets into ``norm`` are offsets into ``clause``
    lead = MARKERS.match(norm)
    offset = lead.end() if lead else 0
    if headline := HEADLINE.match(norm, offset):  # "Big news: we migrated …" → "we migrated …"
        offset = headline.end()
    if when := LEAD_TIME.match(norm, offset):  # "for the next two months I'm …" → "I'm …"
        offset = when.end()
    s = norm[offset:]
    if retract := retraction(s, antecedent):
        return [(retract[0], offset + retract[1].start(), offset + retract[1].end())]
    skip = question or s.rstrip().endswith("?") or QUESTION.match(s) or CHATTER.match(s) or HEDGE.search(s) \
        or _MEANT.match(s)
    if skip or not s.strip(" .!"):
        return []
    if explicit := _REMEMBER.match(s):  # "remember that X": the rules on X, with more confidence
        at = offset + explicit.start("x")
        inner = _clause_hits(clause[at:], question)
        for hit, _, _ in inner:
            hit.confidence = min(MAX_CONFIDENCE, hit.confidence + 0.1)
        if inner:
            return [(hit, at + a, at + b) for hit, a, b in inner]
        x = s[explicit.start("x"):].rstrip(" .!")
        am = re.match(r"I(?:'m|\s+am)\s+(.+)", x)
        content = f"The user is {rewrite(am[1])}." if am else f"The user noted that {rewrite(x)}."
        return [(Hit("fact", noun_topic(am[1] if am else x), content, MAX_CONFIDENCE), offset, at + len(x))]
    for pattern, handler in RULES:
        if (m := pattern.search(s)) and (hit := handler(m)):
            if hit.whole:
                return [(hit, offset, offset + len(s.rstrip(" .!")))]
            return [(hit, offset + m.start(), offset + (m.end() if hit.end is None else hit.end))]
    return []


def _risk(hit: Hit, evidence: str, content: str, sensitive: bool) -> str:
    """The risk category of a proposal, judged by the same general rules as the code's screen: an
    instruction rule's hit, then what :func:`memory_agent.memory.injection.screen` finds in the evidence
    or the content (instruction, credential, entitlement, role), then sensitive data."""
    if hit.operation == "retract":
        return "none"
    if hit.topic == "agent instruction":
        return "instruction"
    for text in (evidence, content):
        if finding := screen(text):
            return finding.category
    return "sensitive" if sensitive else "none"


# an emoji ends a sentence in chat as a full stop does ("… The Loose Screws 🎸 my sister Nora …")
_SENTENCE_SPLIT = re.compile(rf"(?<=[.!?])\s+|\s*[;\n]+\s*|(?<={EMOJI})\s+"
                             r"(?!(?:to|for|in|at|on|and|but|or|with|from|of|so)\b)")
_CLAUSE_SPLIT = re.compile(
    r",\s+(?:and\s+|but\s+|so\s+)?(?=(?:(?:normally|usually|generally|typically|otherwise|also|actually)\s+)?"
    r"(?:(?:on|at|over|in|most|every)\s+(?:the\s+)?\w+\s+)?(?:I|we|my|our)\b|"
    r"(?:joined|started|moved|switched|left|quit|bought|adopted)\b|(?:phone|mobile|cell|tel)\b[^,;]*\d|e-?mail\b\s*(?:address\s*)?(?:is\s+|:\s*)?[\w.+-]+@)"
    r"|\s+(?:and|but|so)\s+(?:\w+ly\s+)?(?=(?:I|we|my|our)\b)"
    r"|\s+[—–]\s+(?=(?:I|we)\b)", re.I  # a dash between two statements: "… lol — I live in Boston"
)
# "…until the end of January, so I'm working from …": a consequence lasts as long as its cause
_CONSEQUENCE = re.compile(r"\bso\b|\bwhich means\b|\bmeaning\b", re.I)
# what a later "forget everything about it" points back to: the sentence's subject ("the wedding is
# off."), else its last name ("Scrapping Moonwick.")
_NAMES = re.compile(r"(?<=\S)\s+((?-i:[A-Z])[\w'-]+)")  # a capitalised word not at the sentence's start
_I_FORM = re.compile(r"I(?:'m|'ve|'d|'ll)?")  # the pronoun, never what "her" or "it" stands for
# a name opening the sentence when no other is in it ("Priya and I split up."); a word that merely starts it
# ("Finally done.") names no memory, so a "forget it" that points back to it retracts nothing
_FIRST_NAME = re.compile(r"^\W*((?-i:[A-Z])[\w'-]+)")
_SUBJECT = re.compile(r"^(?:\W*(?:so|well|ok|okay|sadly|anyway|update|news)\W+)*(?P<np>(?:the|my|our)\s+[\w'-]+"
                      r"(?:\s+(?!is|was|are|were|has|had|got)[\w'-]+)?)\s+(?:is|was|are|were|has|had|got)\b", re.I)


_PAST = re.compile(r"^(?:\W*(?:(?:I|we)\s+)?(?:was|were|had|did|went|used to|left|quit|\w+ed)\b)"
                   r"|\b(?:have|has|'ve)\s+(?:been|\w+ed)\b"
                   r"|\bago\b|\blast\s+(?:week|month|year|time)\b", re.I)


def _valid_until(clause: str, today: date | None) -> str | None:
    """The last day (ISO) of the first end the clause states (:func:`memory_agent.memory.end_dates.stated_ends`),
    unless the clause speaks of the past ("I was there until May": an end that is over, not a bound)."""
    if today is None or _PAST.search(clause):
        return None
    ends = stated_ends(clause, datetime.combine(today, time(12), tzinfo=UTC))
    return ends[0].last_day.isoformat() if ends else None


def extract_facts(text: str, message_id: str = "", today: date | None = None) -> list[ProposedFact]:
    """Propose facts from one user message by rule.

    Args:
        text: the user's message, verbatim.
        message_id: the id cited in each proposal's ``message_ids`` (an empty list when "").
        today: the date the prompt gives; with it a clause that states an end ("until March 10",
            "this week", "for the next two months") gives its facts a ``valid_until``.

    Returns:
        Zero or more ``ProposedFact`` in text order, without duplicate contents. Every
        ``evidence`` is an exact substring of ``text``; ``confidence`` is at most 0.9.
    """
    return [fact for fact, _ in _extract(text, message_id, today)]


def _extract(text: str, message_id: str, today: date | None) -> list[tuple[ProposedFact, bool]]:
    """:func:`extract_facts`, each fact with whether it retracts everything about what it names."""
    facts: list[tuple[ProposedFact, bool]] = []
    antecedent, english = "", _english(text)
    for sentence in _SENTENCE_SPLIT.split(text):
        for part, question in _statement_then_question(sentence.strip()):
            _extract_part(text, part, question, message_id, today, facts, antecedent, english)
        subject = _SUBJECT.match(sentence.strip())
        names = [n for n in _NAMES.findall(sentence.strip()) if not _I_FORM.fullmatch(n)]
        first = _FIRST_NAME.match(sentence.strip())
        if first and _I_FORM.fullmatch(first[1]):  # "I'm done.": the pronoun again
            first = None
        antecedent = subject["np"] if subject else names[-1] if names else first[1] if first else ""
    return [(_corrected_in_place(fact, text, message_id), every) for fact, every in facts]


_BOUNDARY = re.compile(r",\s+|\s+[—–-]+\s+")
_ASKS = re.compile(r"(?:any|anything|thoughts|ideas|tips|help|recommendations?|recs?|suggestions?|advice|pointers|"
                   r"opinions?)\b|(?:[\w'-]+\s+){1,2}(?:ideas|tips|recs?|recommendations|suggestions|advice|pointers)"
                   r"\W*$|(?:what|why|how|when|where|who|which|whose)\b", re.I)
# a clause that opens with an auxiliary verb and ends the sentence in "?" is a yes/no question
# ("…, is an e-bike worth it?"; "…, should I switch?")
_AUX_FIRST = re.compile(r"(?:is|are|was|were|can|could|would|should|shall|will|do|does|did|has|have|may|might)\s+\w",
                        re.I)


def _statement_then_question(sentence: str) -> list[tuple[str, bool]]:
    """A sentence ending in "?" that opens with a statement ("I live in Madrid, is there a gym near
    me?", "…, which one's friendliest?", "…, recs?", "…, storage tips?") is split where the question starts:
    ``[(statement, False), (question, True)]``; any other
    sentence is ``[(sentence, is_question)]``."""
    if not sentence.rstrip().endswith("?"):
        return [(sentence, False)]
    for b in _BOUNDARY.finditer(sentence):
        rest = sentence[b.end():]
        asked = re.sub(r"^(?:but|and|so)\s+", "", rest, flags=re.I)
        if QUESTION.match(asked) or _ASKS.match(asked) or _AUX_FIRST.match(asked):
            return [(sentence[: b.start()], False), (rest, True)]
    return [(sentence, True)]


def _clauses(sentence: str) -> list[tuple[str, str]]:
    """``(clause, the words that joined it to the clause before)`` for each clause of ``sentence``."""
    out, at, joint = [], 0, ""
    for m in _CLAUSE_SPLIT.finditer(sentence):
        out.append((sentence[at:m.start()].strip(), joint))
        at, joint = m.end(), m.group(0)
    return [*out, (sentence[at:].strip(), joint)]


def _extract_part(text: str, sentence: str, question: bool, message_id: str, today: date | None,
                  facts: list[tuple[ProposedFact, bool]], antecedent: str = "", english: bool = True) -> None:
    """Append the facts of one statement (or question) ``sentence`` of ``text`` to ``facts``; a clause
    joined by "so" to one that states an end shares that end. ``english``: whether ``text`` reads as
    English (:func:`_english`; a clause with a lower-case "i" is skipped otherwise)."""
    until_before: str | None = None
    for clause, joint in _clauses(sentence.strip()):
        until = _valid_until(clause, today) or (until_before if _CONSEQUENCE.search(joint) else None)
        until_before = until
        if not english and _LOWER_I.search(clause):
            continue
        for hit, start, end in _clause_hits(clause, question, antecedent):
            evidence = clause[start:end].strip(" ,;:") or clause
            content = hit.content if hit.operation == "retract" else as_sentence(hit.content)
            if evidence not in text or not content or any(f.content == content for f, _ in facts):
                continue
            sensitive = hit.topic != "allergy" and bool(
                RESTRICTED.search(without_work(f"{evidence} {content}")) or sensitive_reason(f"{evidence} {content}"))
            facts.append((ProposedFact(
                operation=hit.operation, kind=hit.kind, content=content, topic=hit.topic,
                message_ids=[message_id] if message_id else [], evidence=evidence,
                confidence=min(MAX_CONFIDENCE, hit.confidence), importance=default_importance(hit.kind),
                sensitivity="restricted" if sensitive else "common",
                valid_until=None if hit.operation == "retract" else until,
                risk=_risk(hit, evidence, content, sensitive),
            ), hit.every))


# right after a statement, the sign of a mistake and the corrected value alone: "— actually no, sorry, it's
# the 15th", ", sorry, 10:45", "… no wait, Thursday"; not "Oops, wrong chat, my office is …" (another thing)
_FIX_RIGHT_AFTER = re.compile(
    r"\s*[—–,;:.!-]*\s*"
    r"(?P<sign>(?:(?:actually|no|sorry|oops|wait|correction|my bad|i mean|i meant|typo|ugh|argh|"
    r"auto-?correct(?:ed)?)\b[\s,!.:—–-]*)+)"
    r"(?P<fix>(?:(?:it's|it is|that's|that is|make that|should be)\s+)?(?:the\s+)?"
    r"(?:\d[\d:.,]*(?:st|nd|rd|th|\s*[ap]m)?|(?-i:[A-Z])[\w'-]+))"
    # how the corrected name is spelled: "Klara with a K", "Zoë with two dots"
    r"(?:\s+(?:with\s+(?:a|an|one|two|double)\s+\S+?(?:\s+(?:dots|accents?))?|spelled\s+\S+?))?"
    r"(?=\s*(?:[.!?,;—–]|$))",
    re.I,
)


def _corrected_in_place(fact: ProposedFact, text: str, message_id: str) -> ProposedFact:
    """``fact`` with a value the user corrects right after saying it ("Ottilie's birthday is 14 May —
    actually no, sorry, it's the 15th"): the sign of a mistake and the new value alone follow the
    evidence; :func:`corrections` reads them as if ``fact`` were a memory shown, and its new content
    replaces ``fact``'s; the evidence then runs to the corrected value. Unchanged otherwise (a
    correction of something else, "sorry, I mean my partner's is the 15th", is not one of ``fact``)."""
    at = text.find(fact.evidence)
    if fact.operation != "add" or at < 0:
        return fact
    end = at + len(fact.evidence)
    right_after = _FIX_RIGHT_AFTER.match(text, end)
    if right_after is None or not MISTAKE.search(right_after["sign"]):
        return fact
    snippet = text[end:right_after.end("fix")]
    fixed = corrections(snippet, message_id, [Shown("m0", fact.kind, fact.topic, fact.content)])
    if not fixed:
        return fact
    return fact.model_copy(update={"content": fixed[0].content, "evidence": text[at:right_after.end()].rstrip()})


_TODAY = re.compile(r"\bToday is (\d{4}-\d{2}-\d{2})\b")
_MESSAGE_LINE = re.compile(r"^\[(?P<id>[^\]\n]*)\]\s*(?P<role>user|human|assistant|ai)\s*:\s?(?P<text>.*)$",
                           re.I)


def _as_messages(value: Any) -> list[BaseMessage]:
    if isinstance(value, PromptValue):
        return value.to_messages()
    if isinstance(value, str):
        return [HumanMessage(value)]
    if isinstance(value, BaseMessage):
        return [value]
    return convert_to_messages(value)


def propose_facts(messages: Any) -> ProposedFacts:
    """The structured-output path: read the ``propose_facts`` prompt and propose facts by rule.

    Args:
        messages: a list of messages (or message-likes), a ``PromptValue`` or a string. The last
            message holding a ``<messages>`` block is parsed for ``[<id>] user: <text>`` lines
            (unprefixed lines continue the line above); ``assistant:`` lines are never mined.
            Without such a block, the last human message is mined as is, cited by its ``id``.
            The prompt's ``Today is YYYY-MM-DD`` gives the date end phrases are read at, and its
            ``<memories>`` block the memories each proposal is judged against
            (:func:`memory_agent.models.offline.judgement.judge`).

    Returns:
        ``ProposedFacts`` (possibly empty).

    Raises:
        ValueError, NotImplementedError: ``messages`` cannot be converted to chat messages.
    """
    msgs = _as_messages(messages)
    prompt = next((m for m in reversed(msgs) if "<messages>" in message_text(m)), None)
    if prompt is None:
        human = next((m for m in reversed(msgs) if isinstance(m, HumanMessage)), None)
        return ProposedFacts(facts=extract_facts(message_text(human), human.id or "") if human else [])
    full = message_text(prompt)
    head = full[: full.index("<messages>")]  # the prompt's own text: the user's words cannot set the date
    found = _TODAY.search(head)
    today = date.fromisoformat(found[1]) if found else None
    body = full[full.index("<messages>") + len("<messages>"):]
    body = body[: body.rindex("</messages>")] if "</messages>" in body else body
    turns: list[list[str]] = []  # [id, role, text]
    for line in body.splitlines():
        if m := _MESSAGE_LINE.match(line):
            turns.append([m["id"].strip(), m["role"].lower(), m["text"]])
        elif turns:
            turns[-1][2] += "\n" + line
    facts: list[tuple[ProposedFact, bool]] = []
    for message_id, role, text in turns:
        if role in ("user", "human"):
            seen = {f.content for f, _ in facts}
            facts.extend(f for f in _extract(text.strip(), message_id, today) if f[0].content not in seen)
    every = {i for i, (_, e) in enumerate(facts) if e}
    shown = shown_memories(head)
    judged = judge([f for f, _ in facts], shown, every)
    for message_id, role, text in turns:  # a corrected value ("sorry, it's 10:15") updates a memory shown
        taken = {f.target for f in judged if f.target} | {f.content for f in judged}
        if role in ("user", "human"):
            judged += [c for c in corrections(text.strip(), message_id, shown)
                       if c.target not in taken and c.content not in taken]
    return ProposedFacts(facts=judged)
