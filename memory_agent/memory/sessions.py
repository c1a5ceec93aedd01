"""Session and episodic memory, and the plain-words requests that read memory: the rules.

The functions here take plain data (facts, summary rows, episode rows); those that read them from
the stores are in :mod:`memory_agent.stores.session_memory`.

**Session summaries hold no text.** When a thread ends (``/end`` in chat,
:meth:`MemoryAgent.end_session`, or implicitly when the user's next thread starts)
:func:`summary_row` records the thread id, its dates and the **ids** of the facts committed from
it — only what passed validation and approval (a person's, or the approval mode's) in that thread.
Nothing the user typed is copied: no topic line, no sentence, no proposal left waiting or rejected.
A summary is rendered from the ledger when it is read (:func:`summary_lines`,
:func:`summary_text`): a fact that is no longer live (superseded, retracted, expired, deleted) or
past its ``valid_until`` at the context clock is not shown, so changing or forgetting a fact
changes every summary that holds it, with no write to the summaries. Decision facts read as
"decided", commitments as "open item" (an open item is always an approved fact), the others by
kind.

**Start of a session.** On the first turn of a thread, :func:`profile_lines` gives the user's
profile: live constraints and procedural facts always, preferences only those retrieval found
relevant to the opening message (``KindSpec.profile_when_relevant``: a favourite band is not part of a
JavaScript question) or that say how answers are presented (:func:`presents_answers`: "wants
temperatures in Celsius" holds for a roasting question too). Earlier sessions are added only
when relevant (:func:`relevant_summaries`): the opening message asks about earlier sessions
("what did we talk about last time?"; then on any turn, all summaries), or one of the facts the
summary shows was retrieved as relevant to the message (the hybrid embedding and BM25 score and
floors of :mod:`memory_agent.memory.retrieval`, the same test a memory passes to be injected).
Newest first, each line while the token budget lasts (``Settings.max_session_tokens``: tokens of
the whole rendered session block, episodes and wrapper included,
:func:`memory_agent.memory.gate.fit_session_block`) — a budget, not a fixed count.

**Episodes.** An approved fact of kind decision, event or commitment is also written as a dated
episode. :func:`time_range` reads "yesterday", "last week", "last month", "in March", "3 days
ago", "on 2025-03-02"… at the context clock; a question with such a range gets the episodes of
that range, oldest first. A question about decisions ("what did we decide about the database?")
gets the episodes that share a content word with it. Like a summary, an episode is shown only
while its fact is live and valid, with the fact's content (:func:`episode_lines`).

**Plain-words requests.** "what do you remember about me?" (:func:`is_recall_request`) injects
every live memory (within the token budget) instead of the top-k, and ``commit`` records the
read in the audit log. "remember that…" and "forget what I said about…" are proposals like any
other (``propose_facts``) and go through validation, approval and the audit log.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from memory_agent.core.facts import Fact
from memory_agent.core.kinds import profile_kinds

#: How a summary labels a fact of each kind (other kinds: the kind's name).
SUMMARY_ROLES = {"decision": "decided", "commitment": "open item"}
_EARLIER_SESSIONS = re.compile(
    r"\b(last|previous|earlier|past)\s+(time|session|conversation|chat|talk)s?\b|"
    r"\bwhere\s+(were|did)\s+we\s+(leave|stop)\b|"
    r"\b(talk|chat|discuss|spoke|speak|cover)\w*\s+(about\s+)?(before|earlier|previously|last time)\b|"
    r"\bwhat\s+(did|have)\s+we\s+(talk|chat|discuss|cover)\w*\b|\bremind me what we\b",
    re.I,
)


# ---- session summaries ------------------------------------------------------------------------------
def summary_row(user_id: str, thread_id: str, facts: Sequence[Fact], started_at: datetime,
                ended_at: datetime) -> dict[str, Any]:
    """The summary row of one thread: ``{"user_id", "thread_id", "started_at", "ended_at",
    "fact_ids"}``, where ``fact_ids`` are the ids of those ``facts`` (the user's committed facts)
    whose source is this thread, in the given order. No text is stored (see the module docstring)."""
    return {"user_id": user_id, "thread_id": thread_id, "started_at": started_at, "ended_at": ended_at,
            "fact_ids": [f.id for f in facts if f.source.thread_id == thread_id]}


def shown_facts(row: Mapping[str, Any], facts: Mapping[str, Fact], now: datetime,
                skip_ids: Collection[str] = ()) -> list[Fact]:
    """The facts of summary ``row`` that may be shown, oldest first: in ``facts`` (the user's live
    facts by id: a deleted, superseded or retracted fact is not), confirmed, valid at ``now`` and
    not in ``skip_ids`` (already injected)."""
    out = [facts[i] for i in dict.fromkeys(row.get("fact_ids") or ()) if i in facts and i not in skip_ids]
    out = [f for f in out if f.status == "confirmed" and f.is_valid_at(now)]
    return sorted(out, key=lambda f: (f.created_at, f.id))


def summary_lines(row: Mapping[str, Any], facts: Mapping[str, Fact], now: datetime,
                  skip_ids: Collection[str] = ()) -> list[dict[str, Any]]:
    """Session-block lines of one summary, one per :func:`shown_facts` fact:
    ``{"label": "previous session YYYY-MM-DD: decided", "content", "fact_id"}`` (the role from
    :data:`SUMMARY_ROLES`, else the fact's kind; the date is the thread's last turn)."""
    when = str(row["ended_at"])[:10]
    return [{"label": f"previous session {when}: {SUMMARY_ROLES.get(f.kind, f.kind)}", "content": f.content,
             "fact_id": f.id} for f in shown_facts(row, facts, now, skip_ids)]


def summary_text(row: Mapping[str, Any], facts: Mapping[str, Fact], now: datetime) -> str:
    """A summary in one line for people (``/end`` in chat): ``Decided: a; b. Open item: c.
    Preference: d.``, from :func:`shown_facts`; says so when nothing approved in it is live."""
    groups: dict[str, list[str]] = {}
    for f in shown_facts(row, facts, now):
        groups.setdefault(SUMMARY_ROLES.get(f.kind, f.kind), []).append(f.content.strip().rstrip(".!?;:"))
    if not groups:
        return "Nothing approved in this session is in memory."
    return " ".join(f"{role[:1].upper()}{role[1:]}: {'; '.join(items)}." for role, items in groups.items())


def asks_about_earlier_sessions(text: str) -> bool:
    """True for "what did we talk about last time?", "remind me what we discussed before", "where
    did we leave off?" and close variants."""
    return bool(_EARLIER_SESSIONS.search(text or ""))


def relevant_summaries(query: str, summaries: Sequence[Mapping[str, Any]], facts: Mapping[str, Fact],
                       now: datetime, retrieved_ids: Collection[str] = ()) -> list[Mapping[str, Any]]:
    """The ``summaries`` (in their order) to load for the message ``query``: all of them when it
    asks about earlier sessions (:func:`asks_about_earlier_sessions`), otherwise those of which a
    shown fact (:func:`shown_facts`) is in ``retrieved_ids``, the user's memories that retrieval
    found relevant to the message. A summary with nothing to show is never loaded."""
    asked = asks_about_earlier_sessions(query)
    out = []
    for row in summaries:
        shown = shown_facts(row, facts, now)
        if shown and (asked or any(f.id in retrieved_ids for f in shown)):
            out.append(row)
    return out


def has_history(messages: Sequence[BaseMessage]) -> bool:
    """True when the thread already had an answered turn (so this is not a session's first turn)."""
    return any(isinstance(m, AIMessage) for m in messages)


def fact_lines(facts: Sequence[Fact], now: datetime, skip_ids: Collection[str] = ()) -> list[dict[str, Any]]:
    """Lines ``{"label": kind, "content", "fact_id"}`` of ``facts`` in their order, leaving out
    ``skip_ids`` (already injected) and facts past ``valid_until`` at ``now``."""
    skip = set(skip_ids)
    return [{"label": f.kind, "content": f.content, "fact_id": f.id}
            for f in facts if f.id not in skip and f.is_valid_at(now)]


# how answers are to be presented to the user: the words of a preference that holds for every answer,
# whatever it is about ("learns best with real-world analogies", "wants measurements in metric")
_PRESENTATION = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|explanations?|explained|analog(?:y|ies)|metric|imperial|celsius|"
    r"fahrenheit|units|bullet[- ]points?|step[- ]by[- ]step|tl;?dr|jargon|emojis?)\b", re.I)


def presents_answers(fact: Fact) -> bool:
    """True when ``fact`` is a preference about how answers are presented to the user (its content
    names answers, explanations, analogies, units …): it holds for every answer, so a session's
    profile carries it whatever the opening message is about."""
    return fact.kind == "preference" and bool(_PRESENTATION.search(fact.content))


def profile_lines(profile: Sequence[Fact], now: datetime, skip_ids: Collection[str] = ()) -> list[dict[str, Any]]:
    """The ``profile`` facts as lines (:func:`fact_lines`), by kind in the order of
    :func:`memory_agent.core.kinds.profile_kinds` (procedural, constraints, preferences), each kind
    in the given order."""
    live = fact_lines(profile, now, skip_ids)
    return [line for kind in profile_kinds() for line in live if line["label"] == kind]


# ---- episodes -------------------------------------------------------------------------------------
def episode_row(fact: Fact, now: datetime) -> dict[str, Any]:
    """The episode of an approved decision/event/commitment fact, dated at ``now``."""
    return {"user_id": fact.user_id, "id": "e_" + fact.id.removeprefix("f_"), "occurred_at": now, "kind": fact.kind,
            "topic": fact.topic, "content": fact.content, "thread_id": fact.source.thread_id, "fact_id": fact.id}


_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_AGO = re.compile(r"\b(\d+|a|an|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b", re.I)
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_EPISODIC = re.compile(r"\b(decid\w*|decision|chose|agreed|milestones?|happened|when did|did we|did i)\b", re.I)
_STOP = frozenset(["the", "a", "an", "we", "i", "you", "did", "do", "what", "when", "which", "about", "on", "in",
                   "of", "to", "for", "and", "or", "is", "was", "were", "my", "our", "decide", "decided",
                   "decision", "last", "this", "month", "week", "year", "ago"])


def time_range(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The time range a question refers to, at the context clock ``now`` (UTC), or ``None``.

    Understood: today, yesterday, this/last week (Monday-based), this/last month, this/last
    year, "N days/weeks/months/years ago" (that day/week/month/year), "in <month>" (the latest
    such month not after ``now``), and ISO dates "on 2025-03-02". Returns ``[start, end)``."""
    t = text.lower()
    day0 = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if m := re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", t):
        start = datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=UTC)
        return start, start + timedelta(days=1)
    if "yesterday" in t:
        return day0 - timedelta(days=1), day0
    if "today" in t:
        return day0, day0 + timedelta(days=1)
    week0 = day0 - timedelta(days=day0.weekday())
    month0 = day0.replace(day=1)
    if "last week" in t:
        return week0 - timedelta(days=7), week0
    if "this week" in t:
        return week0, week0 + timedelta(days=7)
    if "last month" in t:
        return _add_months(month0, -1), month0
    if "this month" in t:
        return month0, _add_months(month0, 1)
    if "last year" in t:
        return month0.replace(year=month0.year - 1, month=1), month0.replace(month=1)
    if "this year" in t:
        return month0.replace(month=1), month0.replace(year=month0.year + 1, month=1)
    if m := _AGO.search(t):
        n = int(m[1]) if m[1].isdigit() else _NUMBERS[m[1].lower()]
        unit = m[2].lower()
        if unit == "day":
            start = day0 - timedelta(days=n)
            return start, start + timedelta(days=1)
        if unit == "week":
            start = week0 - timedelta(days=7 * n)
            return start, start + timedelta(days=7)
        if unit == "month":
            start = _add_months(month0, -n)
            return start, _add_months(start, 1)
        start = month0.replace(year=month0.year - n, month=1)
        return start, start.replace(year=start.year + 1)
    if m := re.search(r"\b(?:in|during)\s+(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b", t):
        month = _MONTHS[m[1]]
        year = day0.year if month <= day0.month else day0.year - 1
        start = datetime(year, month, 1, tzinfo=UTC)
        return start, _add_months(start, 1)
    return None


def asks_for_episodes(query: str) -> bool:
    """True for a question about decisions or events ("what did we decide…", "when did…")."""
    return bool(_EPISODIC.search(query))


def shares_content_word(query: str, episode: dict[str, Any]) -> bool:
    """True when an episode row's topic or content shares a content word with ``query``."""
    return bool(_content_words(query) & _content_words(f"{episode['topic']} {episode['content']}"))


def episode_lines(rows: Sequence[Mapping[str, Any]], facts: Mapping[str, Fact],
                  now: datetime) -> list[dict[str, Any]]:
    """Episode rows as lines ``{"label": "episode YYYY-MM-DD", "content", "fact_id"}``, in their
    order, for the episodes whose fact is in ``facts`` (the user's live facts by id), confirmed and
    valid at ``now``; the content is the fact's own."""
    out = []
    for e in rows:
        fact = facts.get(e.get("fact_id") or "")
        if fact is not None and fact.status == "confirmed" and fact.is_valid_at(now):
            out.append({"label": f"episode {str(e['occurred_at'])[:10]}", "content": fact.content,
                        "fact_id": fact.id})
    return out


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in _STOP}


def _add_months(d: datetime, n: int) -> datetime:
    month = d.month - 1 + n
    return d.replace(year=d.year + month // 12, month=month % 12 + 1, day=1)


# ---- plain-words requests -------------------------------------------------------------------------
_RECALL = re.compile(
    r"\b(what|which things?)\s+(do|did)\s+you\s+(remember|know|recall|have stored|keep)\s+(about|of|on)\s+me\b|"
    r"\bwhat(?:'s| is| have you)\s+(?:stored|saved|remembered|kept|in (?:your )?memory)\s+(?:about|on|of)\s+me\b|"
    r"\b(show|list|tell)\s+me\s+(?:what|everything)\s+you\s+(?:remember|know|have stored)\b",
    re.I,
)


def is_recall_request(text: str) -> bool:
    """True for "what do you remember about me?" and close variants."""
    return bool(_RECALL.search(text or ""))
