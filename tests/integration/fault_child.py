"""Processes killed with SIGKILL on purpose, for the fault tests (``tests/integration/test_faults.py``) and
the kill script (``tests/load/kill_writes.py``), and the checks of what a kill may leave behind.

Usage: ``python tests/integration/fault_child.py MODE DATA_DIR [KILL_AT]`` with the server settings, if any,
in the environment (``MEMORY_AGENT_DATABASE_URL`` ...). Modes:

- ``pending``: alice says "I am vegetarian."; the turn stops at the approval; prints ``READY`` and
  waits to be killed.
- ``kill-after-index``: the same turn auto-approved (``approval="never"``); the process SIGKILLs itself
  right after the fact reached the live index (Chroma), before its audit row.
- ``kill-after-ledger``: the same, killed right after the fact row reached the ledger, before the
  live index.
- ``commit``, ``maintain``, ``forget-user``: one of the :data:`OPS` on a data folder :func:`prepare` made;
  prints ``ARMED`` when the operation starts and ``DONE`` when it ends. With ``KILL_AT`` > 0 the process
  SIGKILLs itself right after the ``KILL_AT``-th write to a store (a ledger, live index or checkpoint
  write method of :data:`WRITES` returned), so every point between two writes can be hit on purpose;
  with 0 it runs to the end (and prints the number of writes), and the caller may kill it at any time.

After a kill, the caller opens the stores (which repairs), checks :func:`problems` (``stage="repaired"``:
nothing half-written), does what an operator would do next (:func:`finish`: send the lost turns again,
run ``maintain`` again, run ``forget-user`` again) and checks :func:`problems` (``stage="finished"``):
the end state of a run that was never killed.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conftest import T0, ScriptedChatModel, day, plant  # noqa: E402
from langgraph.checkpoint.postgres import PostgresSaver  # noqa: E402
from langgraph.checkpoint.sqlite import SqliteSaver  # noqa: E402

from memory_agent.app import erasure  # noqa: E402
from memory_agent.app.agent import MemoryAgent  # noqa: E402
from memory_agent.app.settings import Settings  # noqa: E402
from memory_agent.core.facts import Fact, Source  # noqa: E402
from memory_agent.models.embeddings import load_embedder  # noqa: E402
from memory_agent.stores.chroma_store import ChromaFactIndex  # noqa: E402
from memory_agent.stores.maintenance import maintain  # noqa: E402
from memory_agent.stores.session_memory import rendered_summary  # noqa: E402
from memory_agent.stores.sql.ledger import SQLFactLedger  # noqa: E402

VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}
OPS = ("commit", "maintain", "forget-user")
#: The store methods that write, counted for ``KILL_AT`` (a method called inside another counts too).
WRITES = {
    SQLFactLedger: ("save_fact", "change_status", "update_live_fact", "audit", "journal_begin", "journal_end",
                    "touch", "delete_facts", "tombstone_audit", "erase_user", "forget_since", "save_summary",
                    "save_episode", "remember_thread", "touch_thread", "set_memory_enabled", "compact"),
    ChromaFactIndex: ("upsert", "delete", "drop_user"),
    SqliteSaver: ("delete_thread",),
    PostgresSaver: ("delete_thread",),
}

# ---- commit: five turns of one user, each written by the commit node -----------------------------
USER = "alice@example.com"  # long enough to be searched for as text by forget-user's scan
OTHER = "bob@example.com"
SCRIPT = {
    "oslo": [{"kind": "fact", "content": "The user lives in Oslo.", "topic": "home city"}],
    "vegetarian": [VEGETARIAN],
    "bergen": [{"kind": "fact", "content": "The user lives in Bergen.", "topic": "home city"}],
    "postgres": [{"kind": "decision", "content": "The user decided to use Postgres for the shop.",
                  "topic": "database"}],
    "diet": [{"operation": "retract", "kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}],
}
#: (thread, message, day): what the commit operation says, in order; ``None`` ends the thread t2.
TURNS = [("t1", "I live in Oslo.", 0), ("t2", "I am vegetarian.", 1), ("t2", None, 1.5),
         ("t3", "I moved to Bergen.", 2), ("t4", "We decided to use Postgres for the shop.", 3),
         ("t5", "Please forget my diet.", 4)]
COMMIT_LIVE = {"The user lives in Bergen.", "The user decided to use Postgres for the shop."}
COMMIT_LEDGER = {"The user lives in Oslo.": "superseded", "The user is vegetarian.": "retracted",
                 "The user lives in Bergen.": "confirmed",
                 "The user decided to use Postgres for the shop.": "confirmed"}

# ---- maintain: facts to expire, prune, merge and keep ----------------------------------------------
MAINTAIN_NOW = day(60)
EXPIRE = ["The user has a dentist visit.", "The user flies to Rome.", "The user hosts a party."]
PRUNE = ["The user once tried sushi.", "The user saw a fox.", "The user read a poster."]
MERGE = [["The user likes green tea.", "the user likes  green tea.", "The user likes green TEA."],
         ["The user plays chess.", "THE USER PLAYS CHESS."]]
KEEP = ["The user has two cats.", "The user works as a nurse.", "The user speaks Polish."]
CANARY = "zq-canary-7731"


def model() -> ScriptedChatModel:
    return ScriptedChatModel(script=SCRIPT)


def prepare(agent: MemoryAgent, op: str) -> None:
    """The state ``op`` starts from, written through an open agent (closed by the caller)."""
    if op == "maintain":
        for i, content in enumerate(EXPIRE):
            plant(agent.memory, USER, content, kind="event", importance=0.9, valid_until=day(30 + i))
        for content in PRUNE:
            plant(agent.memory, USER, content, importance=0.1)
        for group in MERGE:
            for i, content in enumerate(group):
                _plant_as(agent, f"f_dup{MERGE.index(group)}_{i}", content, day(i * 0.1))
        for content in KEEP:
            plant(agent.memory, USER, content, importance=0.9)
        plant(agent.memory, OTHER, "The user likes green tea.", importance=0.9)
    elif op == "forget-user":
        for user in (USER, OTHER):
            agent.turn(user, f"I am vegetarian, code {CANARY if user == USER else 'none'}.", thread_id="t1",
                       now=T0, approval="never")
            agent.turn(user, "We decided to use Postgres for the shop.", thread_id="t2", now=day(1),
                       approval="never")
            agent.end_session(user, "t2", now=day(1))
        assert CANARY in agent.memory.live(USER)[0].evidence


def _plant_as(agent: MemoryAgent, fact_id: str, content: str, at) -> Fact:
    fact = Fact(id=fact_id, user_id=USER, kind="preference", content=content, importance=0.9, evidence=content,
                source=Source(thread_id="planted", message_ids=[fact_id]), created_at=at, updated_at=at)
    agent.memory.ledger.save_fact(fact)
    agent.memory.index.upsert(USER, [fact], agent.memory.embeddings.embed_documents([fact.index_text]))
    return fact


def run(agent: MemoryAgent, op: str) -> None:
    """Carry out ``op`` (what the killed process was doing)."""
    if op == "commit":
        for thread, text, when in TURNS:
            if text is None:
                agent.end_session(USER, thread, now=day(when))
            else:
                agent.turn(USER, text, thread_id=thread, now=day(when), approval="never")
    elif op == "maintain":
        maintain(agent.memory, MAINTAIN_NOW)
    elif op == "forget-user":
        erasure.forget_user(agent, USER, day(2), canaries=[CANARY])


def finish(agent: MemoryAgent, op: str) -> None:
    """What an operator does after the crash: finish or send again the turns that were cut short, run
    ``maintain`` again, run ``forget-user`` again if the user is still there."""
    if op == "commit":
        for thread, text, when in TURNS:
            if text is None:
                continue
            if agent.unfinished(USER, thread):
                agent.finish_interrupted(USER, thread, now=day(when))
            if agent.pending(USER, thread):  # the turn's policy checkpoint was lost with the process
                agent.resume(USER, thread, "approve", now=day(when))
            if not any(getattr(m, "content", None) == text for m in agent.transcript(USER, thread)):
                agent.turn(USER, text, thread_id=thread, now=day(when), approval="never")
    elif op == "maintain":
        maintain(agent.memory, MAINTAIN_NOW)
    elif op == "forget-user" and (agent.memory.ledger.facts(USER) or agent.memory.ledger.threads(USER)):
        erasure.forget_user(agent, USER, day(2), canaries=[CANARY])


def problems(agent: MemoryAgent, op: str, stage: str) -> list[str]:
    """What is wrong with the stores after a kill: ``stage`` ``"repaired"`` (just opened: nothing lost,
    nothing half-written, nothing twice) or ``"finished"`` (after :func:`finish`: the end state of a run
    that was never killed). Empty when all is well."""
    out = _consistent(agent, USER) + _consistent(agent, OTHER)
    if op == "commit":
        out += _commit_problems(agent, stage)
    elif op == "maintain":
        out += _maintain_problems(agent, stage)
    else:
        out += _erase_problems(agent, stage)
    return out


def _consistent(agent: MemoryAgent, user: str) -> list[str]:
    """Live index, ledger, audit log and journal agree: every live fact is confirmed in the ledger and
    has its audit row, every ended fact has the audit row of its ending, no audit row names a fact the
    ledger lacks, no fact is superseded by two, nothing is left in the journal."""
    ledger = agent.memory.ledger
    live = [f.id for f in agent.memory.index.list(user)]
    facts = {f.id: f for f in ledger.facts(user)}
    rows = ledger.audit_rows(user)
    out = []
    if len(live) != len(set(live)):
        out.append(f"duplicated: {user}: a fact is live twice")
    confirmed = {i for i, f in facts.items() if f.status == "confirmed"}
    if set(live) != confirmed:
        out.append(f"lost: {user}: live {sorted(set(live) - confirmed)} not confirmed, confirmed "
                   f"{sorted(confirmed - set(live))} not live")
    planted = {f.id for f in facts.values() if f.source.thread_id == "planted"}  # written by prepare()
    written = {r["fact_id"] for r in rows if r["decision"] in ("approved", "edited")} | planted
    if set(live) - written:
        out.append(f"no audit: {user}: live without audit row: {sorted(set(live) - written)}")
    ended = {r["fact_id"] for r in rows if r["decision"] == "expired"} | {r["target_id"] for r in rows}
    for f in facts.values():
        if f.status != "confirmed" and f.id not in ended:
            out.append(f"no audit: {user}: {f.id} is {f.status} without the audit row of that change")
    named = {r["fact_id"] for r in rows if r["decision"] in ("approved", "edited", "merged", "expired")} - {None}
    if named - set(facts):
        out.append(f"lost: {user}: audit rows name facts the ledger lacks: {sorted(named - set(facts))}")
    forks = [i for i, n in Counter(f.supersedes for f in facts.values() if f.supersedes).items() if n > 1]
    if forks:
        out.append(f"fork: {user}: facts superseded by two newer facts: {forks}")
    if ledger.journal_open():
        out.append(f"half-written: journal entries left: {[(e['user_id'], e['id']) for e in ledger.journal_open()]}")
    return out


def _commit_problems(agent: MemoryAgent, stage: str) -> list[str]:
    ledger = agent.memory.ledger
    facts = ledger.facts(USER)
    out = []
    contents = Counter((f.content, f.status) for f in facts)
    out += [f"duplicated: {c!r} ({s}) is in the ledger {n} times" for (c, s), n in contents.items() if n > 1]
    approved = Counter((r["operation"], r["fact_id"]) for r in ledger.audit_rows(USER)
                       if r["decision"] in ("approved", "edited"))
    out += [f"duplicated: {key} has {n} approved audit rows" for key, n in approved.items() if n > 1]
    out += [f"no audit: the approved {key[0]} row names no fact" for key in approved if key[1] is None]
    retracted = [f for f in facts if f.status == "retracted"]
    for s in ledger.summaries(USER):  # a summary holds fact ids and shows only the live ones
        shown = rendered_summary(ledger, s, datetime.fromisoformat(str(s["ended_at"])))["text"]
        out += [f"half-written: summary of {s['thread_id']} still shows the retracted {f.content!r}" for f in retracted
                if f.content in shown]
    episodes = Counter(e["fact_id"] for e in ledger.episodes(USER))
    out += [f"half-written: decision {f.id} has {episodes[f.id]} episodes" for f in facts
            if f.kind == "decision" and f.status == "confirmed" and episodes[f.id] != 1]
    if stage == "finished":
        got = {f.content: f.status for f in facts}
        if got != COMMIT_LEDGER:
            out.append(f"lost: ledger {got} != {COMMIT_LEDGER}")
        if {f.content for f in agent.memory.live(USER)} != COMMIT_LIVE:
            out.append(f"lost: live {[f.content for f in agent.memory.live(USER)]} != {sorted(COMMIT_LIVE)}")
        chain = [f.content for f in agent.memory.history(USER, next(f.id for f in facts if "Bergen" in f.content))]
        if chain != ["The user lives in Oslo.", "The user lives in Bergen."]:
            out.append(f"fork: home city chain {chain}")
    return out


def _maintain_problems(agent: MemoryAgent, stage: str) -> list[str]:
    ledger = agent.memory.ledger
    facts = {f.content: f for f in ledger.facts(USER)}
    rows = ledger.audit_rows(USER)
    out = []
    per_fact = Counter((r["operation"], r["fact_id"], r["target_id"]) for r in rows)
    out += [f"duplicated: audit row {k} written {n} times" for k, n in per_fact.items() if n > 1]
    for f in facts.values():
        if len(f.merged_from) != len(set(f.merged_from)):
            out.append(f"duplicated: {f.id} repeats merged_from ids: {f.merged_from}")
    if stage == "finished":
        for content in EXPIRE + PRUNE:
            if facts[content].status != "expired":
                out.append(f"lost: {content!r} is {facts[content].status}, not expired")
        for group in MERGE:
            keep = facts[group[0]]
            if keep.status != "confirmed" or sorted(keep.merged_from) != sorted(facts[c].id for c in group[1:]):
                out.append(f"lost: {group[0]!r}: {keep.status}, merged_from {keep.merged_from}")
            out += [f"lost: {c!r} not merged into {keep.id}" for c in group[1:] if facts[c].superseded_by != keep.id]
        out += [f"lost: {c!r} is {facts[c].status}" for c in KEEP if facts[c].status != "confirmed"]
        if len(agent.memory.live(OTHER)) != 1:
            out.append("other user: the other user's fact was touched")
    return out


def _erase_problems(agent: MemoryAgent, stage: str) -> list[str]:
    ledger = agent.memory.ledger
    present = bool(ledger.facts(USER))
    out = []
    if present:  # killed before the erasure began: everything must still be there, whole
        if stage == "finished":
            out.append("half-erased: the user is still there after forget-user ran again")
        if len(agent.memory.live(USER)) != 2 or len(ledger.threads(USER)) != 2 or not ledger.summaries(USER):
            out.append(f"half-erased: {len(agent.memory.live(USER))} live facts, {ledger.threads(USER)} threads, "
                       f"{len(ledger.summaries(USER))} summaries")
        if not agent.transcript(USER, "t1"):
            out.append("half-erased: the transcript of t1 is gone while the facts are there")
    else:
        left = erasure.scan_user(agent, USER, [CANARY])
        if left:
            out.append(f"half-erased: {left}")
        erased = [r for r in ledger.scan(["forget-user:"]) if r["table"] == "audit_log"]
        if sum(r["rows"] for r in erased) != 1:
            out.append(f"ERASE audit rows: {erased}")
    if len(agent.memory.live(OTHER)) != 2 or not agent.transcript(OTHER, "t1") or not ledger.summaries(OTHER):
        out.append("other user: the other user was touched")
    return out


# ---- the child process ------------------------------------------------------------------------------
def _die_after(cls, name: str) -> None:
    real = getattr(cls, name)

    def wrapped(self, *args, **kwargs):
        result = real(self, *args, **kwargs)
        print("DYING", name, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(cls, name, wrapped)


def _count_writes(kill_at: int) -> list[str]:
    """Wrap every method of :data:`WRITES`: each call that returns adds one to the count, and the
    ``kill_at``-th SIGKILLs the process (0: never). Returns the list of writes made (names)."""
    made: list[str] = []
    for cls, names in WRITES.items():
        for name in names:
            real = getattr(cls, name, None)
            if real is None:  # a backend without this method (or an older release of the ledger)
                continue

            def wrapped(self, *args, _real=real, _name=name, **kwargs):
                result = _real(self, *args, **kwargs)
                made.append(_name)
                if len(made) == kill_at:
                    print("DYING", len(made), _name, flush=True)
                    os.kill(os.getpid(), signal.SIGKILL)
                return result

            setattr(cls, name, wrapped)
    return made


def main() -> None:
    mode, data_dir = sys.argv[1], sys.argv[2]
    if mode in OPS:
        agent = MemoryAgent.open(Settings(data_dir=data_dir), model=model(), embedder=load_embedder())
        made = _count_writes(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        print("ARMED", flush=True)
        started = time.perf_counter()
        run(agent, mode)
        print("DONE", len(made), f"{time.perf_counter() - started:.3f}", " ".join(made), flush=True)
        agent.close()
        return
    agent = MemoryAgent.open(Settings(data_dir=data_dir), model=ScriptedChatModel(script={"vegetarian": [VEGETARIAN]}),
                             embedder=load_embedder())
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

