"""Concurrent writers of one user: supersedes of one slot by threads of one process (embedded stores) and by
processes sharing Postgres and a Chroma server leave exactly one live fact and a single supersede chain.
Small runs of ``tests/load/supersede_race.py`` (which CI and the closing figures run on larger counts);
real stores and the offline rule-based model.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

from conftest import _servers_missing

from memory_agent.models.offline.chat_model import OfflineChatModel

LOAD_DIR = Path(__file__).resolve().parents[1] / "load"
sys.path.insert(0, str(LOAD_DIR))

import supersede_race  # noqa: E402


def test_threads_superseding_one_slot_leave_one_live_fact_and_one_chain(make_agent):
    agent = make_agent(model=OfflineChatModel())
    agent.turn(supersede_race.USER, "I live in Oslo.", thread_id="seed", approval="never")
    args, writers = SimpleNamespace(turns=5), 4
    start, errors = threading.Barrier(writers), []
    threads = [threading.Thread(target=lambda w=w: errors.extend(supersede_race.writer(w, args, agent, start)))
               for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    figures, problems = supersede_race.check(agent)
    assert errors == [] and problems == []
    assert figures["facts"] == figures["chain"] == 1 + writers * args.turns  # every move is on the one chain


def test_processes_superseding_one_slot_on_postgres_and_a_chroma_server_leave_one_chain(postgres_database):
    chroma_url = os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL")
    if not chroma_url:
        _servers_missing("no Chroma server configured (MEMORY_AGENT_TEST_CHROMA_URL)")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run([sys.executable, str(LOAD_DIR / "supersede_race.py"), "--backend", "server",
                           "--writers", "4", "--turns", "5", "--chroma-url", chroma_url,
                           "--database-url", postgres_database], env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "OK: exactly 1 live fact for the slot, a single supersede chain" in done.stdout
    assert "21 facts of the slot {'superseded': 20, 'confirmed': 1}, chain of 21" in done.stdout
