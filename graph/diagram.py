"""The graph's diagram, generated from the graph itself, and the README block that shows it.

    python -m memory_agent.graph.diagram              # print the mermaid diagram of build_graph()
    python -m memory_agent.graph.diagram README.md    # rewrite the first ```mermaid block of README.md with it
    python -m memory_agent.graph.diagram --check README.md   # exit 1 when that block is stale

The diagram is LangGraph's own ``get_graph().draw_mermaid()`` of :func:`memory_agent.graph.builder.build_graph`
(no store is opened: building the graph only keeps references). Add a node or an edge in
``graph/builder.py``, run the second command, and the README follows.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from memory_agent.graph.builder import build_graph
from memory_agent.models.offline.chat_model import OfflineChatModel

MERMAID_BLOCK = re.compile(r"```mermaid\n.*?```", re.DOTALL)


def mermaid() -> str:
    """The mermaid source of the agent graph, as ``draw_mermaid()`` prints it (ends with a newline)."""
    text = build_graph(memory=None, model=OfflineChatModel()).get_graph().draw_mermaid()  # type: ignore[arg-type]
    return text if text.endswith("\n") else text + "\n"


def readme_block(markdown: str) -> str:
    """The body of the first ```mermaid block of ``markdown``.

    Raises:
        ValueError: there is no mermaid block.
    """
    match = MERMAID_BLOCK.search(markdown)
    if match is None:
        raise ValueError("no ```mermaid block found: add one where the diagram belongs, then run this again")
    return match.group(0)[len("```mermaid\n"):-len("```")]


def update(markdown: str) -> str:
    """``markdown`` with its first mermaid block replaced by :func:`mermaid` (``ValueError`` if none)."""
    readme_block(markdown)
    return MERMAID_BLOCK.sub(lambda _: "```mermaid\n" + mermaid() + "```", markdown, count=1)


def main(argv: list[str] | None = None) -> int:
    """Command line: print the diagram, rewrite a file's block, or ``--check`` it. Returns the exit code."""
    parser = argparse.ArgumentParser(description="Print or refresh the mermaid diagram of the agent graph.")
    parser.add_argument("file", nargs="?", type=Path, help="a Markdown file whose first ```mermaid block to rewrite")
    parser.add_argument("--check", action="store_true", help="only check the block; exit 1 when it is stale")
    args = parser.parse_args(argv)
    if args.file is None:
        sys.stdout.write(mermaid())
        return 0
    text = args.file.read_text(encoding="utf-8")
    try:
        new = update(text)
    except ValueError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if new != text:
            print(f"{args.file}: the diagram is stale; run: python -m memory_agent.graph.diagram {args.file}",
                  file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.file.write_text(new, encoding="utf-8")
        print(f"{args.file}: diagram updated")
    else:
        print(f"{args.file}: diagram already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
