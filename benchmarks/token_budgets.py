"""Real tokens (cl100k_base) of the memory and session blocks under their budgets: the characters/4
estimate of the contents that the budgets used before vs the rendered-block count they use now.

    python benchmarks/token_budgets.py [--locomo ../shared/datasets/locomo/locomo_dev.json]
                                       [--conversation conv-26] [--memory 600] [--session 400]

The turns of one LoCoMo conversation (first 300 characters, at most 200) stand in for memories
(kind ``fact``, dated) and for session lines (labelled as earlier sessions).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_agent.evals.locomo import load_locomo  # noqa: E402
from memory_agent.memory.gate import (  # noqa: E402
    admit,
    fit_memory_block,
    fit_session_block,
    memory_block,
    session_block,
)
from memory_agent.memory.tokens import count_tokens, token_encoding_name  # noqa: E402


def estimated_memory_fit(items: list[dict], budget: int) -> tuple[list[dict], list[dict]]:
    """The rule the memory budget used before: ceil(characters/4) of each content + 4."""
    kept, left, used = [], [], 0
    for item in items:
        cost = math.ceil(len(item["content"]) / 4) + 4
        if used + cost <= budget:
            kept.append(item)
            used += cost
        else:
            left.append(item)
    return kept, left


def estimated_session_fit(lines: list[dict], budget: int) -> list[dict]:
    """The rule the session budget used before: ceil(chars/4) of content and label + 4, then a note."""
    kept, used = [], 0
    for line in lines:
        cost = math.ceil(len(line["content"]) / 4) + math.ceil(len(line["label"]) / 4) + 4
        if used + cost > budget:
            kept.append({"label": "note", "content": f"{len(lines) - len(kept)} more lines left out: over the "
                                                     "session token budget"})
            break
        kept.append(line)
        used += cost
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=Path("../shared/datasets/locomo/locomo_dev.json"))
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--memory", type=int, default=600)
    parser.add_argument("--session", type=int, default=400)
    args = parser.parse_args()
    conv = next(c for c in load_locomo(args.locomo) if c.sample_id == args.conversation)
    turns = [t.text.strip()[:300] for s in conv.sessions for t in s.turns if t.text.strip()][:200]
    memories = admit([{"id": str(i), "kind": "fact", "content": t, "updated_at": "2025-03-01T09:00:00+00:00"}
                      for i, t in enumerate(turns)])
    lines = admit([{"label": f"previous session 2025-03-0{i % 9 + 1}: fact", "content": t}
                   for i, t in enumerate(turns)], what="session line")
    print(f"{args.conversation}: {len(memories)} memories; counter {token_encoding_name()}")
    print(f"wrappers alone: memory block {count_tokens(memory_block([]))}, session block "
          f"{count_tokens(session_block([]))} tokens")
    for label, (kept, left) in (("before (chars/4)", estimated_memory_fit(memories, args.memory)),
                                ("now (rendered)", fit_memory_block(memories, args.memory))):
        print(f"memory block, budget {args.memory}, {label:<17}: {count_tokens(memory_block(kept, len(left))):5d} "
              f"tokens, {len(kept)} memories")
    for label, shown in (("before (chars/4)", estimated_session_fit(lines, args.session)),
                         ("now (rendered)", fit_session_block(lines, args.session))):
        print(f"session block, budget {args.session}, {label:<16}: {count_tokens(session_block(shown)):5d} tokens, "
              f"{len(shown)} lines")
    for n in (5, 2000):  # a turn's top 5; "what do you remember about me?" over a full memory
        items = [{**memories[i % len(memories)], "id": str(i)} for i in range(n)]
        runs = []
        for _ in range(5 if n > 100 else 200):
            t0 = time.perf_counter()
            fit_memory_block(items, args.memory)
            runs.append((time.perf_counter() - t0) * 1000)
        print(f"fit_memory_block over {n} memories: median {statistics.median(runs):.2f} ms")


if __name__ == "__main__":
    main()
