"""Faults: processes killed with SIGKILL (waiting at an approval, between two writes of ``commit``,
``maintain`` and ``forget-user``), the Chroma server and Postgres (behind a real PgBouncer in
transaction mode) going down mid-session, and two processes on one embedded data folder. Real stores
everywhere; only the chat model is fake.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import fault_child
import pytest
from conftest import T0, Backend, ScriptedChatModel, _servers_missing, day

from memory_agent.app.agent import MemoryAgent, PendingApprovalError
from memory_agent.stores.base import StoreError
from memory_agent.stores.chroma_store import collection_name, make_chroma_client
from memory_agent.stores.data_dir import DataDirError
from memory_agent.stores.sql.ledger import SQLFactLedger

BACKENDS = ("embedded", "server")
TESTS_DIR = Path(__file__).resolve().parent
PROJECT_DIR = TESTS_DIR.parents[1]
VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}
OSLO = {"kind": "fact", "content": "The user lives in Oslo.", "topic": "home city"}


def _child(mode: str, data_dir: Path, backend: Backend, *args: str) -> subprocess.Popen:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", **backend.env}
    return subprocess.Popen([sys.executable, str(TESTS_DIR / "fault_child.py"), mode, str(data_dir), *args],
                            cwd=PROJECT_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_line(proc: subprocess.Popen, word: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith(word):
            return
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"child never printed {word}: {proc.stderr.read()[-3000:]}")


def assert_consistent(agent: MemoryAgent, user: str) -> None:
    """Live index, ledger and audit log agree for ``user``: every live fact is confirmed in the ledger
    and has an approved/edited audit row; every approved ADD/UPDATE audit row's fact exists, and is
    live exactly when the ledger says confirmed; no journal entry is left."""
    live = {f.id for f in agent.memory.index.list(user)}
    ledger = {f.id: f for f in agent.memory.ledger.facts(user)}
    audited = {r["fact_id"] for r in agent.memory.ledger.audit_rows(user)
               if r["decision"] in ("approved", "edited") and r["operation"] in ("ADD", "UPDATE")}
    assert live <= audited, f"live without audit row: {live - audited}"
    assert audited <= set(ledger), f"audited without fact: {audited - set(ledger)}"
    assert live == {i for i, f in ledger.items() if f.status == "confirmed"}
    assert agent.memory.ledger.journal_open() == []


# ---- SIGKILL ---------------------------------------------------------------------------------
def test_sigkill_at_a_pending_approval_then_resume_in_a_new_process(make_agent, tmp_path, backend):
    data_dir = tmp_path / "data"
    proc = _child("pending", data_dir, backend)
    _wait_line(proc, "READY")
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL

    agent = make_agent(data_dir=data_dir)  # the dead process's folder lock is gone with it
    assert [p["content"] for p in agent.pending("alice", "t1")] == ["The user is vegetarian."]
    assert agent.memory.ledger.facts("alice") == []
    agent.resume("alice", "t1", "approve", now=day(1))
    agent.close()
    again = make_agent(data_dir=data_dir)
    assert again.pending("alice", "t1") == []
    assert [f.content for f in again.memory.ledger.facts("alice")] == ["The user is vegetarian."]
    assert again.memory.index.count("alice") == 1
    assert len(again.memory.ledger.audit_rows("alice")) == 1
    assert_consistent(again, "alice")


@pytest.mark.parametrize("mode", ["kill-after-index", "kill-after-ledger"])
def test_sigkill_in_the_middle_of_commit_is_repaired_on_the_next_start(make_agent, tmp_path, backend, embedder,
                                                                        mode):
    data_dir = tmp_path / "data"
    proc = _child(mode, data_dir, backend)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == -signal.SIGKILL, (out, err[-3000:])
    assert "DYING" in out

    # Before repair: the crash left the stores disagreeing (the audit row was never written)
    ledger = (SQLFactLedger(data_dir / "agent.sqlite") if backend.name == "embedded" else None)
    if ledger is not None:
        assert len(ledger.journal_open()) == 1
        assert ledger.audit_rows("alice") == []
        ledger.close()

    agent = make_agent(data_dir=data_dir)  # opening repairs
    assert [f.content for f in agent.memory.index.list("alice")] == ["The user is vegetarian."]
    assert [r["decision"] for r in agent.memory.ledger.audit_rows("alice")] == ["approved"]
    assert_consistent(agent, "alice")
    # The thread stopped inside commit: finishing it writes nothing twice. (LangGraph writes
    # checkpoints in the background by default, so a SIGKILL can also lose the turn's last
    # checkpoints; the approved fact was written by the repair all the same.)
    if agent.unfinished("alice", "t1"):
        agent.finish_interrupted("alice", "t1", now=T0)
    assert agent.memory.index.count("alice") == 1
    assert len(agent.memory.ledger.facts("alice")) == 1
    assert len(agent.memory.ledger.audit_rows("alice")) == 1
    assert_consistent(agent, "alice")


#: Where the child kills itself: right after this store write of the operation (numbered as
#: ``fault_child.py commit|maintain|forget-user DIR 0`` prints them). commit: 27 = an update's supersede
#: and audit row written, its old fact still in the live index; 40 = a decision's episode written, its
#: journal entry not yet ended; 50 = a retracted fact out of the live index, the session summaries not yet
#: scrubbed. maintain: 2 = the first fact expired with its audit row, still in the live index; 26 and 31 = a
#: duplicate superseded in a merge, the kept fact's new record not yet in the live index. forget-user:
#: 2 = "erase in progress" recorded, nothing erased yet; 4 = the transcripts deleted, the facts not yet;
#: 6 = the audit rows tombstoned, the ledger rows not yet deleted. (``tests/load/kill_writes.py`` kills at
#: random points, many times.)
KILLS = {"commit": (27, 40, 50), "maintain": (2, 26, 31), "forget-user": (2, 4, 6)}


@pytest.mark.parametrize("backend", ["embedded"], indirect=True)
@pytest.mark.parametrize(("op", "kill_at"), [(op, k) for op, ks in KILLS.items() for k in ks])
def test_a_kill_between_any_two_writes_is_finished_once_by_the_next_open(make_agent, tmp_path, backend, op,
                                                                           kill_at):
    data_dir = tmp_path / "data"
    prepared = make_agent(data_dir=data_dir, model=fault_child.model())
    fault_child.prepare(prepared, op)
    prepared.close()  # the child takes the data folder's lock
    proc = _child(op, data_dir, backend, str(kill_at))
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == -signal.SIGKILL, (out, err[-3000:])
    assert f"DYING {kill_at}" in out

    agent = make_agent(data_dir=data_dir, model=fault_child.model())  # opening repairs
    assert fault_child.problems(agent, op, "repaired") == []
    fault_child.finish(agent, op)  # what an operator does next: the result is that of a run never killed
    assert fault_child.problems(agent, op, "finished") == []


# ---- two processes, one embedded folder --------------------------------------------------------
@pytest.mark.parametrize("backend", ["embedded"], indirect=True)
def test_a_second_process_on_the_same_embedded_folder_gets_a_clear_error_at_once(make_agent, tmp_path, backend):
    data_dir = tmp_path / "data"
    proc = _child("pending", data_dir, backend)
    try:
        _wait_line(proc, "READY")
        started = time.monotonic()
        with pytest.raises(DataDirError, match="in use by another process") as info:
            make_agent(data_dir=data_dir)
        assert time.monotonic() - started < 5
        assert str(proc.pid) in str(info.value)
    finally:
        proc.kill()
        proc.wait()
    agent = make_agent(data_dir=data_dir)  # the folder is intact and free again
    assert len(agent.pending("alice", "t1")) == 1


# ---- services going down mid-session -------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


class KillingModel(ScriptedChatModel):
    """The fake chat model, which also runs ``on_answer`` while the ``answer`` node runs: a service
    goes down in the middle of a turn."""

    on_answer: object = None

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if callable(self.on_answer):
            self.on_answer()
            self.on_answer = None
        return super()._generate(messages, stop, run_manager, **kwargs)


class ChromaServer:
    """A ``chroma run`` of this test's own (the shared one of the suite stays up)."""

    def __init__(self, path: Path):
        self.path, self.port, self.proc = path, _free_port(), None
        self.chroma = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
        if self.chroma is None:
            _servers_missing("the chroma command is not installed")

    def start(self) -> None:
        self.proc = subprocess.Popen([self.chroma, "run", "--host", "127.0.0.1", "--port", str(self.port),
                                      "--path", str(self.path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_port(self.port)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


@pytest.mark.parametrize("backend", ["server"], indirect=True)
def test_chroma_server_down_mid_turn_fails_clearly_and_the_thread_continues(make_agent, tmp_path, backend):
    server = ChromaServer(tmp_path / "chroma-own")
    server.start()
    try:
        model = KillingModel(script={"vegetarian": [VEGETARIAN], "oslo": [OSLO]})
        agent = make_agent(model=model, chroma_url=f"http://127.0.0.1:{server.port}")
        agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
        assert agent.memory.index.count("alice") == 1

        model.on_answer = server.kill  # the server dies while the turn is running
        with pytest.raises(StoreError, match="Chroma") as info:
            agent.turn("alice", "I live in Oslo.", thread_id="t1", now=day(1), approval="never")
        assert "reachable" in str(info.value)
        # still down: reads come from the SQL ledger, so what was committed before the outage is still recalled,
        # and the decision the outage cut short is not
        assert [s.fact.content for s in agent.memory.retrieve("alice", "What do I eat?", day(1))] == [
            "The user is vegetarian."]

        server.start()  # back, same folder and port
        assert agent.unfinished("alice", "t1")
        with pytest.raises(PendingApprovalError):
            agent.turn("alice", "Hello again.", thread_id="t1", now=day(1))
        agent.finish_interrupted("alice", "t1", now=day(1))
        assert sorted(f.content for f in agent.memory.index.list("alice")) == [
            "The user is vegetarian.", "The user lives in Oslo."]
        later = agent.turn("alice", "What should I eat tonight?", thread_id="t1", now=day(2))
        assert "The user is vegetarian." in [m["content"] for m in later.memories]
        assert len(agent.transcript("alice", "t1")) == 6
        assert_consistent(agent, "alice")
    finally:
        if server.proc and server.proc.poll() is None:
            server.kill()


def test_a_decision_cut_short_by_an_outage_is_finished_when_the_store_is_back_without_a_restart(
        make_agent, tmp_path, backend):
    """The live index fails in the middle of a commit (embedded: Chroma raises once; server: the Chroma
    server is killed, then started again): the next turn, in another thread, finishes the decision first."""
    server = ChromaServer(tmp_path / "chroma-own") if backend.name == "server" else None
    if server is not None:
        server.start()
    try:
        model = ScriptedChatModel(script={"vegetarian": [VEGETARIAN], "oslo": [OSLO]})
        own = {"chroma_url": f"http://127.0.0.1:{server.port}"} if server else {}
        agent = make_agent(model=model, **own)
        agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
        real, calls = agent.memory.index.upsert, []

        def upsert_during_an_outage(*args, **kwargs):
            calls.append(1)
            if len(calls) == 1:  # the fact is in the ledger; the live index goes down now
                if server is None:
                    raise StoreError("Chroma failed to upsert facts: the store is down. Is the store reachable?")
                server.kill()
            return real(*args, **kwargs)

        agent.memory.index.upsert = upsert_during_an_outage
        with pytest.raises(StoreError):
            agent.turn("alice", "I live in Oslo.", thread_id="t2", now=day(1), approval="never")
        assert len(agent.memory.ledger.journal_open()) == 1  # half-written: in the ledger, not live
        if server is not None:
            server.start()  # back, same folder and port

        agent.turn("alice", "Hello again.", thread_id="t3", now=day(2))  # another thread; no restart
        assert agent.memory.ledger.journal_open() == []
        assert sorted(f.content for f in agent.memory.index.list("alice")) == [
            "The user is vegetarian.", "The user lives in Oslo."]
        assert_consistent(agent, "alice")
    finally:
        if server is not None and server.proc and server.proc.poll() is None:
            server.kill()


class PgBouncer:
    """A real pgbouncer (Debian package) in transaction mode on a loopback port, in front of the
    shared Postgres: this test stops and starts *it*, never the shared server."""

    def __init__(self, folder: Path):
        self.binary = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin")
        if self.binary is None:
            _servers_missing("pgbouncer is not installed (apt-get install pgbouncer)")
        self.port, self.proc = _free_port(), None
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "users.txt").write_text('"postgres" ""\n')
        self.ini = folder / "pgbouncer.ini"
        self.ini.write_text(
            "[databases]\n* = host=127.0.0.1 port=5432\n[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {folder / 'users.txt'}\npool_mode = transaction\n"
            "max_client_conn = 50\ndefault_pool_size = 5\nignore_startup_parameters = extra_float_digits\n"
        )
        for p in (folder, *folder.iterdir()):
            p.chmod(0o755 if p.is_dir() else 0o644)

    def start(self) -> None:
        user = ["-u", "nobody"] if os.geteuid() == 0 else []  # pgbouncer refuses to run as root
        self.proc = subprocess.Popen([self.binary, *user, str(self.ini)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        _wait_port(self.port)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


@pytest.mark.parametrize("backend", ["server"], indirect=True)
def test_through_pgbouncer_and_postgres_down_mid_turn(make_agent, tmp_path, backend, postgres_database):
    bouncer = PgBouncer(tmp_path / "pgbouncer")
    bouncer.start()
    try:
        # pgbouncer passes no "options", so this test uses the session database's public schema
        url = postgres_database.replace("127.0.0.1:5432", f"127.0.0.1:{bouncer.port}")
        model = KillingModel(script={"vegetarian": [VEGETARIAN], "oslo": [OSLO]})
        agent = make_agent(model=model, database_url=url, postgres_prepare_threshold=None, postgres_timeout=3)
        for n in range(3):  # enough runs that psycopg would prepare statements if it were allowed to
            agent.turn("bob", f"Hello number {n}.", thread_id=f"warm{n}", now=T0)
        assert agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0).pending
        agent.resume("alice", "t1", "approve", now=T0)

        model.on_answer = bouncer.kill  # the database goes away while the turn is running
        with pytest.raises(StoreError, match="Postgres") as info:
            agent.turn("alice", "I live in Oslo.", thread_id="t1", now=day(1), approval="never")
        assert "not reachable" in str(info.value) or "failed" in str(info.value)
        with pytest.raises(StoreError, match="Postgres"):
            agent.pending("alice", "t1")

        bouncer.start()
        # "Try again" is the promise of the error. psycopg_pool brings each lost connection back on its own
        # back-off (1 s, doubling, per slot), so one connection can answer while a second one, which a
        # step needs beside the checkpointer's, is still seconds away: the whole step is retried until
        # it goes through, and each failed try must leave the thread where it was.
        deadline = time.monotonic() + 60
        while True:
            try:
                if agent.unfinished("alice", "t1"):
                    # the turn went as far as its last checkpoint; it continues from there
                    agent.finish_interrupted("alice", "t1", now=day(1))
                # If the checkpoint that fixed the turn's policy (approval="never") had not reached Postgres
                # before it went down, the finished turn runs under the configured mode and asks first.
                if agent.pending("alice", "t1"):
                    agent.resume("alice", "t1", "approve", now=day(1))
                elif "The user lives in Oslo." not in [f.content for f in agent.memory.ledger.facts("alice")]:
                    agent.turn("alice", "I live in Oslo.", thread_id="t1", now=day(1), approval="never")
                break
            except StoreError:
                assert time.monotonic() < deadline, "the agent did not reconnect within 60 s"
                time.sleep(0.5)
        assert sorted(f.content for f in agent.memory.ledger.facts("alice")) == [
            "The user is vegetarian.", "The user lives in Oslo."]
        later = agent.turn("alice", "What should I eat tonight?", thread_id="t2", now=day(2))
        assert "The user is vegetarian." in [m["content"] for m in later.memories]
        assert_consistent(agent, "alice")
        assert agent.memory.ledger.facts("bob") == []
        assert collection_name("alice") in {c.name for c in agent.memory.index.client.list_collections()}
    finally:
        if bouncer.proc and bouncer.proc.poll() is None:
            bouncer.kill()


def test_server_chroma_refuses_a_missing_server_with_a_clear_error():
    port = _free_port()
    with pytest.raises(StoreError, match="Cannot use the Chroma server") as info:
        make_chroma_client(url=f"http://127.0.0.1:{port}")
    assert "chroma run" in str(info.value)


# ---- the ledger on Postgres ---------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["server"], indirect=True)
def test_the_one_ledger_class_keeps_users_apart_and_insertion_order_on_postgres(make_agent, backend):
    ledger = make_agent().memory.ledger
    assert ledger.dialect == "postgres"
    for n in range(3):
        ledger.audit({"id": f"a{n}", "user_id": "alice", "at": T0, "decision": "approved", "decided_by": "user",
                      "content": f"row {n}"})
    ledger.audit({"id": "b0", "user_id": "bob", "at": T0, "decision": "approved", "decided_by": "user"})
    assert not ledger.audit({"id": "a0", "user_id": "alice", "at": T0, "decision": "x", "decided_by": "y"})
    assert [r["content"] for r in ledger.audit_rows("alice")] == ["row 0", "row 1", "row 2"]  # same `at`: rowid
    assert [r["id"] for r in ledger.audit_rows("bob")] == ["b0"]
    with pytest.raises(StoreError, match="refused"):
        ledger.audit({"id": "c", "user_id": "alice", "at": T0, "decision": None, "decided_by": "user"})
