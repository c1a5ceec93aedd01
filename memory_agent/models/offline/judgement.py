"""The offline model's answer to "what do you already remember?": each proposal judged add, update,
retract or none against the related memories the ``propose_facts`` prompt lists, by general rules.

The prompt lists memories as ``[m<N>] (kind, topic) content``. The rules, in order:

- **none**: a proposal whose content equals a listed memory's (case and spaces aside) names it.
- **update**: a proposal of the same kind and slot (topic) as a listed memory with other content
  replaces it when the slot holds one value at a time: a slot of :data:`ONE_VALUE_SLOTS` (where the
  user lives or is staying, works, their diet, name, editor, answer style, phone number), a switch the
  user states ("we moved from X to Y": a ``decision`` that now uses something), or a sentence "The user's <thing> is …"
  about the same thing ("my phone number is …"), or a count of the same thing ("The user has 13 direct
  reports."), or the same statement with another number ("a 10 in running shoes" for "a size 9 in running
  shoes"). A slot that holds many values (allergies, pets,
  hobbies) is never replaced: the new value is added.
- **retract**: "forget X" names the listed memory of the same slot, else the first one about X; a bare
  name ("Biscuit passed away") names the first memory holding it (a pet's memory, for topic "pet");
  "forget everything about X — A, B" names every listed memory about X, A or B (one retraction each). A memory is
  about X when it holds every content word of X, or a name X holds (a capitalised word).
- otherwise the proposal stays an ``add`` with no target (code then reconciles it by rule).

New values are judged before retractions, so a memory a new value replaces is updated, not retracted.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from memory_agent.core.facts import ProposedFact
from memory_agent.models.offline.vocabulary import PETS

__all__ = ["ONE_VALUE_SLOTS", "Shown", "judge", "shown_memories"]

#: Slots that hold one value at a time: a new value replaces the old one.
ONE_VALUE_SLOTS = frozenset({"home city", "current location", "address", "hometown", "employer", "diet", "name",
                             "editor", "answer style", "phone"})
_LINE = re.compile(r"^\[(?P<id>m\d+)\]\s*\((?P<kind>[^,()]*),\s*(?P<topic>[^()]*)\)\s*(?P<content>.+)$")
_BLOCK = re.compile(r"<memories>\s*\n(?P<body>.*?)\n\s*</memories>", re.S)
_COPULA = re.compile(r"^the user's\s+(?P<thing>[\w' -]{1,40}?)\s+(?:is|was)\s+", re.I)
# a count of one thing the user has: "The user has 4 direct reports now." holds one number at a time
_COUNT = re.compile(r"^the user\s+(?:now\s+|still\s+)?has\s+(?:about\s+|around\s+)?\d+\s+(?P<thing>[a-z][\w -]*?)"
                    r"(?:\s+now)?\s*(?:\(|[.,;]|$)", re.I)
_NAME_ONLY = re.compile(r"(?-i:[A-Z])[\w'-]+")
_SWITCH = re.compile(r"\b(?:now uses|systems run on)\b", re.I)
_FILLER_WORDS = ("the a an user user's users my our their his her its of in on at to for and or with about "
                 "is are was were be this that these those it everything anything all stuff things "
                 "where what who when how which")
_FILLER = frozenset(_FILLER_WORDS.split())


@dataclass(frozen=True)
class Shown:
    """One memory the prompt lists: its short id, kind, slot and content."""

    id: str
    kind: str
    topic: str
    content: str


def shown_memories(prompt: str) -> list[Shown]:
    """The memories listed in the prompt's ``<memories>`` block, in order (``[]`` when there are none)."""
    block = _BLOCK.search(prompt)
    if block is None:
        return []
    found = []
    for line in block["body"].splitlines():
        if m := _LINE.match(line.strip()):
            found.append(Shown(m["id"], html.unescape(m["kind"]).strip(), html.unescape(m["topic"]).strip(),
                               html.unescape(m["content"]).strip()))
    return found


def _norm(text: str) -> str:
    return " ".join(text.casefold().strip(" .").split())


# the slot of a value, not the value: "forget my son's name" is about the memory naming the son
_ATTRIBUTE = frozenset({"name", "names", "date", "dates", "number", "numbers", "details", "detail", "info", "address",
                        "birthday"})


def _stems(text: str, drop_attributes: bool = False) -> set[str]:
    words = (re.sub(r"'s$", "", w) for w in re.findall(r"[\w']+", text.casefold()))
    return {w[:5] for w in words if w not in _FILLER and not (drop_attributes and w in _ATTRIBUTE)}


def _names(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\b[A-Z][\w'-]+", text) if w not in ("I", "The")}


def _about(named: str, content: str) -> bool:
    """True when a memory's ``content`` is about what the user ``named``: it holds every content word
    of it (first five letters), or one of its names."""
    words = _stems(named, drop_attributes=True) or _stems(named)
    if words and words <= _stems(content):
        return True
    names = _names(named)
    return bool(names) and bool(names & {w.casefold() for w in re.findall(r"[\w'-]+", content)})


def _replaces(fact: ProposedFact, memory: Shown) -> bool:
    """True when ``fact`` gives a new value for the one-value slot ``memory`` fills."""
    same_slot = bool(fact.topic) and _norm(fact.topic) == _norm(memory.topic)
    if same_slot and fact.kind == "decision" and _SWITCH.search(fact.content):  # a switch replaces any kind
        return True
    if _norm(fact.kind) != _norm(memory.kind):
        return False
    if same_slot and _norm(fact.topic) in ONE_VALUE_SLOTS:
        return True
    counted, held = _COUNT.search(fact.content), _COUNT.search(memory.content)
    if counted and held and _norm(counted["thing"]) == _norm(held["thing"]):  # "has 13 direct reports"
        return True
    # "a 10 in running shoes" for "a size 9 in running shoes"; an event with another year is another event
    if fact.kind != "event" and _renumbered(fact.content, memory.content):
        return True
    mine, theirs = _COPULA.match(fact.content), _COPULA.match(memory.content)
    return bool(mine and theirs) and _norm(mine["thing"]) == _norm(theirs["thing"])


_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w.]*\d)")


def _renumbered(new: str, old: str) -> bool:
    """True when ``new`` restates ``old`` with another number: each holds one number, they differ, the
    content words of one (at least two, first five letters) are all in the other, and the other has at
    most one more ("a 10 in running shoes" for "a size 9 in running shoes")."""
    a, b = _NUMBER.findall(new), _NUMBER.findall(old)
    if len(a) != 1 or len(b) != 1 or a == b:
        return False
    words = sorted((_stems(_NUMBER.sub(" ", new)), _stems(_NUMBER.sub(" ", old))), key=len)
    return len(words[0]) >= 2 and words[0] <= words[1] and len(words[1] - words[0]) <= 1


def judge(facts: list[ProposedFact], shown: list[Shown], every: set[int] = frozenset()) -> list[ProposedFact]:
    """Set ``operation`` and ``target`` of each proposal against the ``shown`` memories (module rules).

    Args:
        facts: the proposals of one message, in order.
        shown: the memories the prompt lists.
        every: indexes into ``facts`` of retractions of everything about what they name.

    Returns:
        The proposals, a retraction of everything about X as one proposal per memory about X.
    """
    out: list[ProposedFact] = []
    taken: set[str] = set()
    # a new value first: "I left Initech; I now work for Globex" updates the Initech memory, and the
    # retraction then finds it taken
    for i, fact in sorted(enumerate(facts), key=lambda x: x[1].operation == "retract"):
        free = [m for m in shown if m.id not in taken]
        if fact.operation == "retract":
            if i in every:  # "everything about Bastien — the restaurant, the trip": each thing listed
                named = [n for n in fact.content.split(", ") if n.strip()]
                hits = [m for m in free if any(_about(n, m.content) for n in named)]
            else:
                if _NAME_ONLY.fullmatch(fact.content):  # "Pepper" (went to live elsewhere: a pet): what names it
                    hits = [m for m in free if _about(fact.content, m.content)
                            and (fact.topic != "pet" or re.search(rf"\b{PETS}s?\b", m.content, re.I))][:1]
                else:
                    same = [m for m in free if fact.topic and _norm(fact.topic) == _norm(m.topic)]
                    hits = (same or [m for m in free if _about(fact.content, m.content)])[:1]
            if not hits and fact.topic == "pet" and _NAME_ONLY.fullmatch(fact.content):  # no pet shown has that name
                continue
            out += [fact.model_copy(update={"target": m.id}) for m in hits] or [fact]
            taken |= {m.id for m in hits}
            continue
        known = next((m for m in shown if _norm(m.content) == _norm(fact.content)), None)
        if known is not None:
            out.append(fact.model_copy(update={"operation": "none", "target": known.id}))
            continue
        old = next((m for m in free if _replaces(fact, m)), None)
        if old is not None:
            taken.add(old.id)
            out.append(fact.model_copy(update={"operation": "update", "target": old.id}))
            continue
        out.append(fact)
    return out
