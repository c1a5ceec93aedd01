"""Prompts as plain text files next to this module; edit the ``.md`` files, not code.

- ``system.md``: the answer node's system prompt.
- ``memory_block.md``: how injected memories are presented (``{memories}`` placeholder).
- ``session_block.md``: profile, earlier sessions, procedural facts and episodes (``{session}``).
- ``tool_block.md``: how a tool result is handed to the model (``{tool}``, ``{status}``, ``{lines}``).
- ``propose_facts.md``: the extraction prompt (``{messages}``, ``{memories}``: related live memories as
  ``[m1] (kind, topic) content`` lines, ``{today}``: the context clock's date and weekday,
  ``{update_rules}``: ``propose_facts_updates.md`` when memories are listed, else nothing).
- ``propose_facts_updates.md``: how to write an update or retraction of a listed memory.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent


@cache
def load_prompt(name: str) -> str:
    """The text of ``prompts/<name>.md``. Raises ``FileNotFoundError`` naming the missing file."""
    path = PROMPTS_DIR / f"{name}.md"
    if not path.is_file():
        raise FileNotFoundError(f"Prompt file {path} is missing; restore it from the template.")
    return path.read_text(encoding="utf-8")
