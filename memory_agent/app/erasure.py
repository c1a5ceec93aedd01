"""Erasure: forget what the user's conversations stored recently (``forget --since``), and erase
a user from every store (``forget-user``), proven by a scan of every store afterwards.

Plain functions on an open :class:`~memory_agent.app.agent.MemoryAgent` that return JSON-friendly
values; the ``memory-agent`` CLI is a thin layer on top. Every delete is keyed by one ``user_id``
(or its checkpoint namespace) and recorded in the audit log. Times come from the caller's clock
``now`` (the context clock).

Errors: :class:`~memory_agent.app.control.ControlError` for a duration that cannot be read,
:class:`ForgetIncompleteError` when ``forget_user`` finds something left after erasing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.checkpoints import checkpoint_thread_id
from memory_agent.app.control import ControlError
from memory_agent.stores.chroma_store import orphan_segment_dirs


class ForgetIncompleteError(RuntimeError):
    """``forget_user`` erased the user but the scan still found something; ``report`` says where."""

    def __init__(self, report: ForgetReport):
        self.report = report
        where = "; ".join(f"{h['store']}/{h['table']}.{h['column']}: {h['rows']} row(s) with {h['needle']!r}"
                          for h in report.remaining)
        super().__init__(f"Data of the user is still stored after erasing: {where}")


# ---- forget the last hour ------------------------------------------------------------------------
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?|d|days?|"
                       r"w|weeks?)\s*$", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_duration(text: str) -> timedelta:
    """``"1 hour"``, ``"30 min"``, ``"2 days"``, ``"1w"`` → a ``timedelta``.

    Raises:
        ControlError: not a number followed by a unit (seconds, minutes, hours, days, weeks).
    """
    m = _DURATION.match(text or "")
    if not m:
        raise ControlError(f"Cannot read the duration {text!r}: write a number and a unit, e.g. '1 hour', "
                           "'30 minutes', '2 days'.")
    unit = m.group(2).lower()
    key = "m" if unit.startswith("min") or unit == "m" else unit[0]
    return timedelta(seconds=float(m.group(1)) * _UNIT_SECONDS[key])


def forget_since(agent: MemoryAgent, user_id: str, since: timedelta, now: datetime) -> dict[str, Any]:
    """Forget what the user's conversations stored in the last ``since`` before ``now``: facts
    created then (ledger and live index), summaries and episodes of that time, the threads started
    then (their checkpoints too), the turns of that time in older threads (each is rewound to its
    last turn before the window, ``turns_dropped``), and the audit rows of that time lose their text.

    A fact that an update in that window superseded comes back to life, since the update that
    replaced it is gone. Returns what was removed, with counts. One journaled write
    (:meth:`memory_agent.stores.erasure_writes.ErasureWrites.forget_since`): cut short, it is finished
    by the next write, turn or open.
    """
    return agent.memory.forget_since(user_id, now - since, now)


# ---- erase a user --------------------------------------------------------------------------------
@dataclass
class ForgetReport:
    """What :func:`forget_user` removed and what the scan found afterwards.

    - ``removed``: counts per store and table (``live_index``, ``checkpoint_threads``, ledger tables;
      ``audit_log`` counts rows turned into tombstones).
    - ``tombstone``: the id the audit rows now carry (random, not derived from the user id).
    - ``scanned``: what was searched (needles and stores).
    - ``remaining``: hits of the scan (empty when the erasure is complete).
    """

    removed: dict[str, int] = field(default_factory=dict)
    tombstone: str = ""
    scanned: dict[str, Any] = field(default_factory=dict)
    remaining: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (the user id itself is not in it)."""
        return {"removed": self.removed, "tombstone": self.tombstone, "scanned": self.scanned,
                "remaining": self.remaining, "complete": not self.remaining}


def forget_user(agent: MemoryAgent, user_id: str, now: datetime, canaries: Sequence[str] = (),
                *, check: bool = True) -> ForgetReport:
    """Erase the user from every store, then prove it by scanning.

    1. Checkpoints: every thread of the user (the ledger's thread index, plus any checkpoint whose
       thread id carries the user's namespace) is deleted with the checkpointer's ``delete_thread``.
    2. Live index: the user's collection is dropped (facts and embeddings).
    3. Ledger: facts, usage rows, threads, the memory switch, session summaries, episodes and the
       user's API keys (:mod:`memory_agent.app.accounts`: the user can no longer sign in) are
       deleted; audit rows keep their time, operation and decision but lose their text, user id,
       thread id and fact ids (a tombstone under a random id). One more tombstone row records the
       erasure with its counts.
    4. Scan (:func:`scan_user`): every table and column of the ledger, every collection of the
       vector store, every checkpoint of every thread and, for the embedded stores, every file of
       the data folder are searched for the user id and each of ``canaries``. For the embedded
       stores the SQLite files are first rewritten (``VACUUM``) and the vector folders of dropped
       collections removed, so deleted text does not linger on disk.

    Other users are never touched: every delete is keyed by this user id (or its namespace).

    Steps 1 to 3 and the compaction are one journaled write
    (:meth:`memory_agent.stores.erasure_writes.ErasureWrites.erase_user`) whose "erase in progress"
    entry is written first: an erasure cut short (a kill, a store going down) is finished at the next
    open, or by running ``forget_user`` again; a half-erased user is never left.

    Returns:
        A :class:`ForgetReport`.

    Raises:
        ForgetIncompleteError: ``check`` is true and the scan found something.
    """
    out = agent.memory.erase_user(user_id, now)
    removed, tombstone = out["removed"], out["tombstone"]
    canaries = [c for c in canaries if c]
    remaining = scan_user(agent, user_id, canaries)
    report = ForgetReport(removed=removed, tombstone=tombstone, remaining=remaining,
                          scanned={"canaries": len(canaries), "user_id_as_text": len(user_id) >= MIN_SUBSTRING_ID,
                                   "stores": _scanned_stores(agent)})
    if check and remaining:
        raise ForgetIncompleteError(report)
    return report


#: A user id at least this long is also searched as a substring of every text and file; a
#: shorter one ("ann") would match unrelated text ("channel"), so it is matched exactly in the
#: id fields only (user id columns, collection metadata, checkpoint owner and thread namespace).
MIN_SUBSTRING_ID = 8


def scan_user(agent: MemoryAgent, user_id: str, canaries: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Search every store for what is left of the user (see :func:`forget_user`): the id fields
    for ``user_id`` exactly, and every text for the canaries (and the user id itself when it is at
    least :data:`MIN_SUBSTRING_ID` characters). One dict per hit ``{"store", "table", "column",
    "needle", "rows"}``."""
    needles = [c for c in canaries if c]
    if len(user_id) >= MIN_SUBSTRING_ID:
        needles.append(user_id)
    hits = list(agent.memory.ledger.scan(needles, user_id=user_id))
    hits += agent.memory.index.scan(user_id, needles)
    prefix = checkpoint_thread_id(user_id, "")
    counts: dict[tuple[str, str], int] = {}
    for item in agent.checkpointer.list(None):
        key = str(item.config["configurable"]["thread_id"])
        values = item.checkpoint.get("channel_values") or {}
        if key.startswith(prefix) or values.get("owner") == user_id:
            counts[("thread_id/owner", user_id)] = counts.get(("thread_id/owner", user_id), 0) + 1
        text = repr((item.checkpoint, item.metadata, item.pending_writes, key)).casefold()
        for needle in needles:
            if needle.casefold() in text:
                counts[("state", needle)] = counts.get(("state", needle), 0) + 1
    hits += [{"store": "checkpointer", "table": "checkpoints", "column": col, "needle": needle, "rows": n}
             for (col, needle), n in counts.items()]
    folder = _embedded_folder(agent)
    if folder is not None:
        hits += scan_files(folder, needles)
    return hits


def scan_files(folder: Path, needles: Sequence[str]) -> list[dict[str, Any]]:
    """Search the bytes of every file under ``folder`` for each needle (UTF-8, case-sensitive),
    so text left in freed database pages or write-ahead logs is found too, and report vector
    folders of deleted Chroma collections (``chroma/<uuid>`` no collection uses).

    HNSW ``*.bin`` files are not searched for text: they hold vectors and integer labels only, and
    hnswlib writes uninitialised bytes into ``length.bin`` (seen here: fragments of the process's
    memory, which can match a short needle by chance)."""
    hits = [{"store": "files", "table": str(d.relative_to(folder)), "column": "orphan vector folder",
             "needle": "", "rows": 1} for d in orphan_segment_dirs(folder / "chroma")]
    encoded = [(n, n.encode("utf-8")) for n in needles if n]
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "lock" and p.suffix != ".bin"):
        data = path.read_bytes()
        for needle, raw in encoded:
            n = data.count(raw)
            if n:
                hits.append({"store": "files", "table": str(path.relative_to(folder)), "column": "bytes",
                             "needle": needle, "rows": n})
    return hits


# ---- helpers -------------------------------------------------------------------------------------
def _embedded_folder(agent: MemoryAgent) -> Path | None:
    """The data folder when every store is embedded in it (no Chroma server), else ``None``."""
    settings = agent.settings
    if settings.chroma_url:
        return None
    return Path(settings.data_dir).expanduser().resolve()


def _scanned_stores(agent: MemoryAgent) -> list[str]:
    stores = ["ledger", "vector index", "checkpointer"]
    return stores + (["data folder files"] if _embedded_folder(agent) is not None else [])
