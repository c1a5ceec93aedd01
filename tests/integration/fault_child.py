"""A chat process for the fault tests (``tests/integration/test_faults.py``), killed with SIGKILL on purpose.

Usage: ``python tests/integration/fault_child.py MODE DATA_DIR`` with the server settings, if any, in the
environment (``MEMORY_AGENT_DATABASE_URL`` ...). Modes:

- ``pending``: alice says "I am vegetarian."; the turn stops at the approval; prints ``READY`` and
  waits to be killed.
- ``kill-after-index``: the same turn auto-approved (``approval="never"``); the process SIGKILLs itself
  right after the fact reached the live index (Chroma), before its audit row.
- ``kill-after-ledger``: the same, killed right after the fact row reached the ledger, before the
  live index.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conftest import T0, ScriptedChatModel  # noqa: E402

from memory_agent.app.agent import MemoryAgent  # noqa: E402
from memory_agent.app.settings import Settings  # noqa: E402
from memory_agent.models.embeddings import load_embedder  # noqa: E402
from memory_agent.stores.chroma_store import ChromaFactIndex  # noqa: E402
from memory_agent.stores.sql.ledger import SQLFactLedger  # noqa: E402

VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}


def _die_after(cls, name: str) -> None:
    real = getattr(cls, name)

    def wrapped(self, *args, **kwargs):
        result = real(self, *args, **kwargs)
        print("DYING", name, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(cls, name, wrapped)


def main() -> None:
    mode, data_dir = sys.argv[1], sys.argv[2]
    model = ScriptedChatModel(script={"vegetarian": [VEGETARIAN]})
    agent = MemoryAgent.open(Settings(data_dir=data_dir), model=model, embedder=load_embedder())
    if mode == "pending":
        result = agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0)
        assert result.pending, "expected a pending approval"
        print("READY", flush=True)
        time.sleep(600)
        return
    if mode == "kill-after-index":
        _die_after(ChromaFactIndex, "upsert")
    elif mode == "kill-after-ledger":
        _die_after(SQLFactLedger, "save_fact")
    else:
        raise SystemExit(f"unknown mode {mode}")
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    print("NOT KILLED", flush=True)


if __name__ == "__main__":
    main()
