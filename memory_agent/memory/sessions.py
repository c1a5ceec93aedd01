"""Session and episodic memory, and the plain-words requests that read memory: the rules.

The functions here take plain data (facts, summary rows, episode rows); those that read them from
the stores are in :mod:`memory_agent.stores.session_memory`.

**Session summaries.** When a thread ends (``/end`` in chat, :meth:`MemoryAgent.end_session`, or
implicitly when the user's next thread starts) :func:`summarize_thread` writes one summary:
topic, decisions, open items, the thread id and its dates. It is extractive and rule-based (no
model call, so it is deterministic and offline): the topic is the first user message, decisions
are the decision facts committed in the thread plus user sentences that say "we decided / I
chose…", open items are the user's sentences with "need to / still / todo / next step…" and
proposals left waiting for approval. A model-written summary can replace :func:`summarize_thread`.

**Start of a session.** On the first turn of a thread, :func:`session_lines` gives the user's
profile (live preferences, constraints and procedural facts), then the newest summaries with
their open items, until a token budget is spent (``Settings.max_session_tokens``, estimated as
in :mod:`memory_agent.memory.caps`) — a budget, not a fixed count.

**Episodes.** An approved fact of kind decision, event or commitment is also written as a dated
episode. :func:`time_range` reads "yesterday", "last week", "last month", "in March", "3 days
ago", "on 2025-03-02"… at the context clock; a question with such a range gets the episodes of
that range, oldest first. A question about decisions ("what did we decide about the database?")
gets the episodes that share a content word with it.

**Plain-words requests.** "what do you remember about me?" (:func:`is_recall_request`) injects
every live memory (within the token budget) instead of the top-k, and ``commit`` records the
read in the audit log. "remember that…" and "forget what I said about…" are proposals like any
other (``propose_facts``) and go through validation, approval and the audit log.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from memory_agent.core.facts import Fact
from memory_agent.core.kinds import profile_kinds
from memory_agent.core.messages import message_text
from memory_agent.memory.caps import estimate_tokens
from memory_agent.memory.injection import instruction_reason
from memory_agent.memory.text import normalise
from memory_agent.memory.validation import summary_part_reason

MAX_TOPIC_CHARS = 80

_DECIDED = re.compile(r"\b(we|i)\s+(have\s+)?(decided|chose|agreed|settled on|picked|will go with|went with)\b", re.I)
_OPEN = re.compile(r"\b(need to|have to|still|todo|to-do|to do|next step|follow up|open question|remind me|"
                   r"later|not yet|haven't|tomorrow|next week)\b", re.I)
WITHHELD_TOPIC = "(withheld: the first message is not kept in summaries)"
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


# ---- session summaries ------------------------------------------------------------------------------
def summarize_thread(user_id: str, thread_id: str, messages: Sequence[BaseMessage], facts: Sequence[Fact],
                     pending: Sequence[dict], started_at: datetime, ended_at: datetime) -> dict[str, Any]:
    """The summary row of one thread (see the module docstring for the rules).

    Args:
        messages: the thread's transcript; ``facts``: facts committed from this thread;
        pending: proposals still waiting for approval in it; times: the thread's first and last turn.

    Returns:
        ``{"user_id", "thread_id", "started_at", "ended_at", "topic", "decisions": [str],
        "open_items": [str], "text"}``.
    """
    said = [message_text(m).strip() for m in messages if isinstance(m, HumanMessage)]
    topic = " ".join(said[0].split())[:MAX_TOPIC_CHARS] if said else ""
    sentences = [s.strip() for text in said for s in _SENTENCE.split(text) if s.strip()]
    kept = [f for f in facts if f.kind == "decision" and f.status != "retracted"]
    decisions = [f.content for f in kept]
    stated = [normalise(f.evidence) for f in kept]
    decisions += [s for s in sentences if _DECIDED.search(s) and not any(e and e in normalise(s) for e in stated)]
    open_items = [s for s in sentences if _OPEN.search(s) and not s.endswith("?")]
    open_items += [f"waiting for approval: {p.get('content')}" for p in pending]
    # the same screen as facts: no instruction to the agent and nothing sensitive said in passing
    if topic and summary_part_reason(said[0]):  # the whole message: a cut can hide what makes it an attack
        topic = WITHHELD_TOPIC
    decisions = [d for d in decisions if not summary_part_reason(d)]
    open_items = [o for o in open_items if not summary_part_reason(o)]
    row = {"user_id": user_id, "thread_id": thread_id, "started_at": started_at, "ended_at": ended_at,
           "topic": topic, "decisions": decisions, "open_items": open_items}
    return {**row, "text": render_summary(row)}


def render_summary(row: dict[str, Any]) -> str:
    """``Topic: …. Decided: a; b. Open: c.`` from a summary's parts."""
    def part(text: str) -> str:
        return text.strip().rstrip(".!?;:")

    text = f"Topic: {part(row['topic'])}."
    if row["decisions"]:
        text += " Decided: " + "; ".join(part(d) for d in row["decisions"]) + "."
    if row["open_items"]:
        text += " Open: " + "; ".join(part(o) for o in row["open_items"]) + "."
    return text


def scrub_summary(row: dict[str, Any], texts: Sequence[str]) -> dict[str, Any]:
    """The summary ``row`` without every part (topic, decision, open item) that contains one of
    ``texts`` (case and spacing ignored), with its ``text`` rendered again; a withdrawn topic reads
    ``(withdrawn)``. Used when a fact is retracted or deleted, so a summary is not a copy that
    outlives it."""
    needles = [normalise(t) for t in texts if t and t.strip()]

    def hit(part: str) -> bool:
        folded = normalise(part)
        return any(n in folded for n in needles)

    new = {**row, "topic": "(withdrawn)" if hit(row["topic"]) else row["topic"],
           "decisions": [d for d in row["decisions"] if not hit(d)],
           "open_items": [o for o in row["open_items"] if not hit(o)]}
    return {**new, "text": render_summary(new)}


def has_history(messages: Sequence[BaseMessage]) -> bool:
    """True when the thread already had an answered turn (so this is not a session's first turn)."""
    return any(isinstance(m, AIMessage) for m in messages)


def fact_lines(facts: Sequence[Fact], now: datetime, skip_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Lines ``{"label": kind, "content", "fact_id"}`` of ``facts`` in their order, leaving out
    ``skip_ids`` (already injected) and facts past ``valid_until`` at ``now``."""
    skip = set(skip_ids)
    return [{"label": f.kind, "content": f.content, "fact_id": f.id}
            for f in facts if f.id not in skip and f.is_valid_at(now)]


def session_lines(profile: Sequence[Fact], summaries: Sequence[dict[str, Any]], budget: int, now: datetime,
                  skip_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """What a new session starts with: the ``profile`` facts by kind (the order of
    :func:`memory_agent.core.kinds.profile_kinds`: procedural, constraints, preferences; each kind in
    the given order; see :func:`fact_lines` for what is left out), then the ``summaries`` (newest
    first, as the ledger lists them), each line while the estimated tokens fit ``budget``.
    Returns lines ``{"label", "content", "fact_id"?}``; the last line says how many were left out,
    if any."""
    live = fact_lines(profile, now, skip_ids)
    lines: list[dict[str, Any]] = []
    for kind in profile_kinds():
        lines += [line for line in live if line["label"] == kind]
    for s in summaries:
        parts = [s["topic"], *s["decisions"], *s["open_items"]]
        if any(instruction_reason(p) for p in parts):  # defence in depth: written before the screen knew it
            continue
        when = str(s["ended_at"])[:10]
        lines.append({"label": f"previous session {when}", "content": s["text"]})
    return _budget(lines, budget)


def _budget(lines: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    kept, used = [], 0
    for line in lines:
        cost = estimate_tokens(line["content"]) + estimate_tokens(line["label"]) + 4
        if used + cost > budget:
            left = len(lines) - len(kept)
            kept.append({"label": "note", "content": f"{left} more lines left out: over the session token budget"})
            break
        kept.append(line)
        used += cost
    return kept


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


def episode_lines(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Episode rows as lines ``{"label": "episode YYYY-MM-DD", "content", "fact_id"}``, in their order."""
    return [{"label": f"episode {str(e['occurred_at'])[:10]}", "content": e["content"], "fact_id": e["fact_id"]}
            for e in rows]


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
