"""End-to-end QA on LoCoMo: the agent answers questions of categories 1–4 with memory on and off.

Each conversation is replayed into the agent's long-term store as episodes, one per turn (see
:func:`memory_agent.evals.locomo_retrieval.episode_facts`; written to the ledger and the live index as the
``commit`` node would, without asking a model to extract facts), under the user
``locomo:<sample_id>``. Each question is then asked through the real graph in a fresh thread one
day after the last session, with memory on and with memory off; any proposal the question makes
is rejected, so asking never changes the store.

Scores: token F1 against the gold answer (:func:`memory_agent.evals.locomo.token_f1`, the SQuAD F1 the LoCoMo
paper reports); gold-token recall (:func:`token_recall`, the R of that F1: the share of the gold
answer's tokens found in the answer, which a long answer is not penalised for); and, with memory
on, whether an evidence turn was among the injected memories (``evidence_injected``). With a real
model configured (``judge`` given), also an LLM-judge accuracy: the judge model reads the
question, the gold answer and the answer, and replies CORRECT or WRONG; its prompt
(``prompts/locomo_judge.md``) is saved beside the results. With the offline model there is no
judge: it is a rule-based stand-in that only restates memories, not a language model.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from memory_agent.evals.locomo import CATEGORY_NAMES, LocomoConversation, normalize_answer, token_f1
from memory_agent.evals.locomo_retrieval import CATEGORIES, episode_facts, episode_user
from memory_agent.evals.scenario_runner import AgentFactory
from memory_agent.memory.lexical import tokenize

__all__ = ["QAReport", "judge_prompt", "replay_episodes", "run_locomo_qa", "token_recall"]


def token_recall(prediction: object, gold: object) -> float:
    """Share (0–1) of the gold answer's tokens present in the prediction, after the SQuAD
    normalisation of :func:`memory_agent.evals.locomo.normalize_answer` (multiset overlap / gold length; an
    empty gold answer scores 1.0 only against an empty prediction)."""
    pred, ref = normalize_answer(prediction).split(), normalize_answer(gold).split()
    if not ref:
        return float(not pred)
    return sum((Counter(pred) & Counter(ref)).values()) / len(ref)


def judge_prompt() -> str:
    """The LLM-judge prompt (``prompts/locomo_judge.md``), with ``{question}``, ``{gold}``, ``{answer}``."""
    return resources.files("memory_agent.prompts").joinpath("locomo_judge.md").read_text(encoding="utf-8")


@dataclass
class QAReport:
    """Per-question rows (question, category, gold, answers and F1 on/off, judge verdicts) and summaries."""

    source: str
    model: str
    conversations: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    judged: bool = False
    seconds: float = 0.0

    def mean(self, key: str, category: int | None = None) -> float:
        """Mean of ``key`` (``f1_on``, ``f1_off``, ``judge_on``, ``judge_off``) over the questions (NaN when none)."""
        values = [r[key] for r in self.rows
                  if r.get(key) is not None and (category is None or r["category"] == category)]
        return statistics.fmean(values) if values else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary and rows."""
        keys = ["f1_on", "f1_off", "recall_on", "recall_off", "evidence_injected"] + (
            ["judge_on", "judge_off"] if self.judged else [])
        return {
            "source": self.source, "model": self.model, "conversations": self.conversations,
            "questions": len(self.rows), "seconds": round(self.seconds, 2), "judged": self.judged,
            "summary": {"overall": {k: self.mean(k) for k in keys},
                        "per_category": {str(c): {"name": CATEGORY_NAMES[c],
                                                  "questions": sum(r["category"] == c for r in self.rows),
                                                  **{k: self.mean(k, c) for k in keys}} for c in CATEGORIES}},
            "rows": self.rows,
        }


def replay_episodes(agent, conv: LocomoConversation) -> int:
    """Write every turn of ``conv`` into ``agent``'s long-term store as an episode; returns how many."""
    facts = episode_facts(conv)
    memory = agent.memory
    for start in range(0, len(facts), 64):
        chunk = facts[start:start + 64]
        vectors = memory.embeddings.embed_documents([f.index_text for f in chunk])
        memory.ledger.save_facts(chunk, vectors, [tokenize(f.index_text) for f in chunk], memory.index.embedder_name)
        memory.index.upsert(episode_user(conv), chunk, vectors)
    return len(facts)


def _ask(agent, user: str, question: str, thread: str, now, memory: bool):
    result = agent.turn(user, question, thread_id=thread, now=now, approval="always", memory=memory)
    if result.pending:
        agent.resume(user, thread, "reject", now=now)
    return result


def _dia_of(fact_id: str) -> str:
    """``"ep_D3_12"`` (an episode's fact id) → ``"D3:12"``."""
    return fact_id.removeprefix("ep_").replace("_", ":")


def _judge(model, question: str, gold: str, answer: str) -> float:
    reply = model.invoke(judge_prompt().format(question=question, gold=gold, answer=answer))
    text = str(getattr(reply, "content", reply)).strip().upper()
    return 1.0 if text.startswith("CORRECT") else 0.0


def run_locomo_qa(
    conversations: Sequence[LocomoConversation],
    agent_factory: AgentFactory,
    workdir: Path,
    *,
    model_name: str,
    judge=None,
    source: str = "",
    max_questions: int | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> QAReport:
    """Replay each conversation and ask its questions of categories 1–4 with memory on and off.

    Args:
        conversations: loaded LoCoMo conversations.
        agent_factory: opens a :class:`memory_agent.app.agent.MemoryAgent` on an empty folder.
        workdir: where the per-conversation data folders go.
        model_name: recorded in the report.
        judge: a LangChain chat model for the LLM judge, or ``None`` (no judge).
        max_questions: at most this many questions per conversation.
        on_progress: called with ``(stage, done, total)``.
    """
    started = time.perf_counter()
    report = QAReport(source=source, model=model_name, judged=judge is not None)
    for conv in conversations:
        agent = agent_factory(Path(workdir) / conv.sample_id)
        try:
            n = replay_episodes(agent, conv)
            if not n:
                continue
            report.conversations.append(conv.sample_id)
            user = episode_user(conv)
            now = max(s.at for s in conv.sessions if s.at is not None) + timedelta(days=1)
            questions = [q for q in conv.qa if q.category in CATEGORIES and q.question.strip()]
            if max_questions is not None:
                questions = questions[:max_questions]
            for k, q in enumerate(questions, start=1):
                on = _ask(agent, user, q.question, f"qa{k}:on", now, True)
                off = _ask(agent, user, q.question, f"qa{k}:off", now, False)
                row = {"sample_id": conv.sample_id, "question": q.question, "category": q.category,
                       "gold": q.answer, "evidence": q.evidence, "answer_on": on.answer, "answer_off": off.answer,
                       "injected_on": [m.get("content") for m in on.memories],
                       "f1_on": token_f1(on.answer, q.answer), "f1_off": token_f1(off.answer, q.answer),
                       "recall_on": token_recall(on.answer, q.answer),
                       "recall_off": token_recall(off.answer, q.answer),
                       "evidence_injected": float(bool(set(q.evidence) & {
                           _dia_of(m.get("id", "")) for m in on.memories})) if q.evidence else None}
                if judge is not None:
                    row["judge_on"] = _judge(judge, q.question, q.answer, on.answer)
                    row["judge_off"] = _judge(judge, q.question, q.answer, off.answer)
                report.rows.append(row)
                if on_progress:
                    on_progress(f"ask {conv.sample_id}", k, len(questions))
        finally:
            agent.close()
    report.seconds = time.perf_counter() - started
    return report
