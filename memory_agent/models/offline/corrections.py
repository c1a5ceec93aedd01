"""Corrections by rule: "sorry, it's Jayden with a y" updates the value of a memory the prompt shows.

A user who corrects something just said rarely restates the whole fact; they give the new value and
a sign of the mistake ("sorry", "actually", "typo", "I had it wrong", "mixed it up", "swapped",
"autocorrect", "I misread"); the value follows "it's", "should be" or any "… is", or the sign itself
("sorry, 10:30", "wait no, she turned 7"); "I meant X, not Y" replaces Y by X's values. The
offline model reads such a message as an update of one of the two memories the prompt lists first
(the most related to the message): every value the user gives replaces the value of the same shape
in that memory, the one nearest in spelling for names and numbers. Shapes: a clock time, an
ordinal day ("16th"), a number, a weekday (one or every: "Thursdays", written as the memory writes
it), a month, a capitalised name (a number after "turned" or "became" replaces the one number a
memory holds, whatever its spelling). Nothing happens without a
sign of a mistake, in a question, or when no value of the same shape differs.
"""

from __future__ import annotations

import calendar
import re
from difflib import SequenceMatcher

from memory_agent.core.facts import ProposedFact
from memory_agent.core.kinds import FACT_KINDS, default_importance
from memory_agent.models.offline.judgement import Shown
from memory_agent.models.offline.vocabulary import EMOJI

__all__ = ["MISTAKE", "corrections"]

MISTAKE = re.compile(
    r"\b(?:sorry|actually|correction|correct(?:ed|ing)?|i meant|i mean|typo|typed|mistyped|misspel\w*|wrong|"
    r"mix(?:ed|ing)?\s+(?:it\s+|them\s+|things\s+)?up|my bad|oops|scratch that|ignore|mistake|swapped|oh wait|"
    r"wait,?\s+no|no,?\s+wait|autocorrect\w*|auto-correct\w*|mangled|flip(?:ped)?|misread|misheard|got\s+(?:it|that)\s+wrong)\b",
    re.I,
)
_VALUE = re.compile(
    r"\b(?:it's|it is|its|mine is|mine's|that's|that is|(?:it )?should be|is|are)\s+"
    r"(?:actually\s+|really\s+|in fact\s+)?(?P<v>[^,;!?]+?)(?=\s*(?:[,;!?]|\.(?:\s|$)|$))",
    re.I,
)
_DAYS = "|".join(calendar.day_name)
_MONTHS = "|".join(m for m in calendar.month_name if m)
_SHAPES = (
    ("time", re.compile(r"\b\d{1,2}(?:[:.]\d{2}(?:\s*[ap]m)?|\s*[ap]m)\b", re.I)),
    ("ordinal", re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b", re.I)),
    ("number", re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w.]*\d)")),
    ("weekday", re.compile(rf"\b(?:{_DAYS})s?\b", re.I)),
    ("month", re.compile(rf"\b(?:{_MONTHS})\b", re.I)),
    ("name", re.compile(rf"\b(?!(?:{_DAYS})s?\b|(?:{_MONTHS}|The|I)\b)[A-Z][a-z][\w'-]+")),
)


def _values(text: str) -> list[tuple[str, str, int, int]]:
    """``(shape, token, start, end)`` of the value-like tokens of ``text``, each span counted once."""
    found: list[tuple[str, str, int, int]] = []
    for shape, pattern in _SHAPES:
        for m in pattern.finditer(text):
            if not any(a < m.end() and m.start() < b for _, _, a, b in found):
                found.append((shape, m.group(0), m.start(), m.end()))
    return found


_MONTH_NEAR = re.compile(rf"^\s+(?:of\s+)?(?:{_MONTHS})\b|\b(?:{_MONTHS})\s+$", re.I)


def _days(text: str, held: list[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    """The numbers of ``held`` that are a day of a month ("14 May", "May 14"), as ordinals: a day is
    written either way, so "it's the 15th" corrects "14 May" to "15 May"."""
    return [("ordinal", token, a, b) for shape, token, a, b in held if shape == "number"
            and (_MONTH_NEAR.match(text[b:b + 12]) or _MONTH_NEAR.search(text[max(0, a - 12):a]))]


def _closest(token: str, shape: str, candidates: list[tuple[str, str, int, int]],
             sole: bool = False) -> tuple[str, str, int, int] | None:
    """The value of ``candidates`` that ``token`` replaces: same shape, different text, and for names
    and numbers the nearest in spelling (names at least 0.6 alike, numbers 0.3: "118" → "181", not
    "2" → "5"). ``sole``: the user gave one number after "turned" / "became" and the memory holds one,
    so it replaces it whatever its spelling ("she turned 7" for "… is 6"; "it's 5" for "has 2 kids" does
    not)."""
    same = [c for c in candidates if c[0] == shape and c[1].casefold() != token.casefold()]
    if not same:
        return None
    best = max(same, key=lambda c: SequenceMatcher(None, c[1].casefold(), token.casefold()).ratio())
    if sole and shape == "number" and len(same) == 1 and sum(c[0] == "number" for c in candidates) == 1:
        return best
    alike = SequenceMatcher(None, best[1].casefold(), token.casefold()).ratio()
    return None if alike < {"name": 0.6, "number": 0.3}.get(shape, 0.0) else best


# a value right after the sign of a mistake, alone or after "she turned", "it's", "he is now" …, and
# closing its clause or followed only by when: "sorry, 10:30 —", "wait no, she turned 7 last week"
_AFTER_SIGN = re.compile(
    r"[\s,:;.!-]*(?:no\b[\s,]*)?(?P<v>(?:(?:she|he|it|they|that|this)(?:'s|\s+(?:is|was|turned|turns|became|"
    r"moved\s+to))?\s+)?(?:now\s+|actually\s+|really\s+)?(?P<t>\d[\d:.,]*(?:\s*[ap]m)?|(?-i:[A-Z])[\w'-]+))"
    rf"(?=\s*(?:$|[,;!?—–]|\.(?:\s|$)|(?:now|actually|then|ago|(?:last|this|next|in|on|since)\s+\w+)\b|{EMOJI}))",
    re.I,
)


_NEW_AGE = re.compile(r"\b(?:turned|turns|became)\s+\d", re.I)


def _given(text: str) -> list[tuple[str, str]]:
    """``(evidence, value words)`` of each place ``text`` may give a corrected value: after "it's",
    "should be" or "… is", and right after the sign of a mistake; questions and long stretches
    (more than 8 words) left out."""
    found = [(m.group(0).strip(), m["v"], m.end()) for m in _VALUE.finditer(text)]
    for sign in MISTAKE.finditer(text):
        if (after := _AFTER_SIGN.match(text, sign.end())) and after["t"] not in ("I", "It", "That", "This"):
            found.append((after["v"].strip(), after["v"], after.end()))
    given = []
    for evidence, value, end in found:
        ends = re.search(r"[.!?](?:\s|$)|$", text[end:])
        if not ends.group(0).startswith("?") and 0 < len(value.split()) <= 8:
            given.append((evidence, value))
    return given


# "I meant a 2015 Honda Accord, not a Civic": the new value, then the old one named after "not"
_NOT_THAT = re.compile(r"(?P<new>[^,;.!?]{1,60}?),?\s+not\s+(?:a\s+|an\s+|the\s+|in\s+|at\s+|on\s+)?"
                       r"(?P<old>[\w'-]+(?:\s+[\w'-]+){0,2}?)(?=\s*(?:[,;.!?—–]|$)|\s+\W)", re.I)


def _named_swap(text: str, message_id: str, shown: list[Shown]) -> list[ProposedFact]:
    """The update for "X, not Y" when one of the first two ``shown`` memories holds Y: Y becomes the
    values of X that the memory does not hold already (capitalised words and numbers)."""
    for m in _NOT_THAT.finditer(text):
        new = [t for _, t, _, _ in _values(m["new"]) if t not in ("I", "It")]
        for memory in shown[:2]:
            at = re.search(rf"(?<!\w){re.escape(m['old'])}(?!\w)", memory.content, re.I)
            fresh = [t for t in new if t.casefold() not in memory.content.casefold()]
            if memory.kind in FACT_KINDS and at and fresh:
                content = memory.content[:at.start()] + " ".join(fresh) + memory.content[at.end():]
                return [ProposedFact(operation="update", target=memory.id, kind=memory.kind, content=content,
                                     topic=memory.topic, message_ids=[message_id] if message_id else [],
                                     evidence=m.group(0).strip(" ,"), confidence=0.7,
                                     importance=default_importance(memory.kind))]
    return []


def corrections(text: str, message_id: str, shown: list[Shown]) -> list[ProposedFact]:
    """Update proposals for a message that corrects a value of one of the first two ``shown``
    memories (module docstring); ``[]`` when it corrects nothing. Evidence is the words that give
    the new value ("it's Thursday the 16th"), an exact substring of ``text``."""
    if not MISTAKE.search(text):
        return []
    if swap := _named_swap(text, message_id, shown):
        return swap
    for evidence, value in _given(text):
        given = _values(value)
        sole = sum(g[0] == "number" for g in given) == 1 and bool(_NEW_AGE.search(value))
        for memory in shown[:2]:
            if memory.kind not in FACT_KINDS:
                continue
            held = _values(memory.content)
            held += _days(memory.content, held)
            swaps = {}
            for shape, token, _, _ in given:
                if any(h[0] == shape and h[1].casefold() == token.casefold() for h in held):
                    continue  # a value the memory holds already ("07700" of "07700 900132") replaces nothing
                old = _closest(token, shape, [h for h in held if h[2] not in swaps], sole)
                if old is None:
                    continue
                if old[1].isdigit() and shape == "ordinal":  # a day written as a number keeps its digits
                    token = re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", token, flags=re.I)  # "14 May" -> "15 May"
                elif shape == "weekday":  # "on Thursdays" for "meets Tuesday evenings": the memory's form
                    token = token.rstrip("sS") + ("s" if old[1].endswith(("s", "S")) else "")
                swaps[old[2]] = (old[3], token)
            if not swaps:
                continue
            content = memory.content
            for start in sorted(swaps, reverse=True):
                end, token = swaps[start]
                content = content[:start] + token + content[end:]
            if content == memory.content:  # "I meant Friday" for "on Fridays": the same value
                continue
            return [ProposedFact(operation="update", target=memory.id, kind=memory.kind, content=content,
                                 topic=memory.topic, message_ids=[message_id] if message_id else [],
                                 evidence=evidence, confidence=0.7,
                                 importance=default_importance(memory.kind))]
    return []
