"""The memory and session budgets hold the blocks the model receives, counted in real tokens
(cl100k_base): heading, tags, labels, date and review notes and the left-out line included."""

from __future__ import annotations

import random

import pytest

from memory_agent.memory.gate import fit_memory_block, fit_session_block, memory_block, session_block
from memory_agent.memory.tokens import count_tokens, token_encoding_name

CONTENTS = [
    "The user lives in Oslo.", "The user is allergic to peanuts & shellfish.", "The user's budget is < 500 EUR.",
    "The user's daughter Emma starts school in September 2025.", "The user prefers answers in German.",
    "Der Nutzer wohnt in Köln und fährt gern Fahrrad.", "ユーザーは東京に住んでいます。",
    "The user decided to use Postgres for the backend and Redis for the cache, after comparing six options.",
    "The user's cat is called Miso.", "The user works night shifts at St. Olav's hospital.",
]


def memories(rng: random.Random, n: int) -> list[dict]:
    return [{"id": f"f{i}", "kind": rng.choice(["preference", "fact", "constraint", "event"]),
             "content": rng.choice(CONTENTS) + (" More words follow here." * rng.randint(0, 6)),
             "updated_at": f"2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T09:00:00+00:00",
             "review_due": "2025-10-01" if rng.random() < 0.3 else None} for i in range(n)]


def test_the_counter_is_a_real_tokenizer():
    assert token_encoding_name() == "cl100k_base"
    assert count_tokens("hello world") == 2  # chars/4 would say 3


@pytest.mark.parametrize("seed", range(40))
def test_a_rendered_memory_block_never_exceeds_the_budget(seed):
    rng = random.Random(seed)
    items = memories(rng, rng.randint(1, 60))
    budget = rng.randint(1, 1500)
    kept, left_out = fit_memory_block(items, budget)
    assert len(kept) + len(left_out) == len(items)
    assert [m["id"] for m in kept] == [m["id"] for m in items if m in kept]  # best first, order kept
    if kept:
        block = memory_block(kept, len(left_out))
        assert count_tokens(block) <= budget
        assert ("more relevant memories were left out" in block) == bool(left_out)
    else:
        assert budget < count_tokens(memory_block(items[:1]))  # nothing fits only when one memory cannot


@pytest.mark.parametrize("seed", range(40))
def test_a_rendered_session_block_never_exceeds_the_budget(seed):
    rng = random.Random(seed)
    lines = [{"label": m["kind"] if i % 3 else f"previous session 2025-03-0{i % 9 + 1}: fact", "content": m["content"]}
             for i, m in enumerate(memories(rng, rng.randint(1, 40)))]
    budget = rng.randint(1, 1500)
    shown = fit_session_block(lines, budget)
    if shown:
        assert count_tokens(session_block(shown)) <= budget
        kept = [line for line in shown if line["label"] != "note"]
        assert kept == lines[: len(kept)]  # in order, newest first as given
        assert (shown[-1]["label"] == "note") == (len(kept) < len(lines))
    else:
        assert budget < count_tokens(session_block(lines[:1]))


def test_the_whole_budget_is_used_when_everything_fits():
    items = memories(random.Random(1), 5)
    roomy = count_tokens(memory_block(items))
    assert fit_memory_block(items, roomy) == (items, [])
    kept, left_out = fit_memory_block(items, roomy - 1)
    assert left_out and count_tokens(memory_block(kept, len(left_out))) <= roomy - 1
