"""The README's Python snippet runs as written, and its graph diagram matches the built graph."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from memory_agent import agent as agent_module

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _block(language: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", README, re.DOTALL)
    assert blocks, f"no {language} block in the README"
    return blocks[0]


def test_python_snippet_runs_and_injects_the_fact(embedder, monkeypatch):
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)  # the same real embedder
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_block("python"), "README.md", "exec"), {})
    printed = out.getvalue()
    assert "The user is vegetarian." in printed  # first the pending proposal, then the injected memory
    assert "'score':" in printed


def _edges(mermaid: str) -> set[tuple[str, str]]:
    return set(re.findall(r"(\w+)(?:\(\[[^\]]*\]\))?\s*-->\s*(\w+)", mermaid))


def test_diagram_is_the_built_graph():
    from graph.builder import build_graph
    from memory_agent.offline_model import OfflineChatModel

    class _NoMemory:  # the builder only keeps it; no node runs here
        pass

    built = _edges(build_graph(_NoMemory(), OfflineChatModel()).get_graph().draw_mermaid())
    assert ("load_memory", "answer") in built and len(built) == 6
    assert _edges(_block("mermaid")) == built, "regenerate the README diagram from build_graph().get_graph()"
