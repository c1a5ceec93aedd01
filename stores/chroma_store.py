"""Live facts in Chroma: one collection per user, cosine distance, our own embeddings.

Why one collection per user: local Chroma has no metadata index, so a ``where`` filter scans
every row of the whole database (chroma-core/chroma#7092, #4089). A per-user collection makes
the query touch only that user's vectors, and makes isolation hold by construction: a query
cannot reach another user's collection. Forgetting a user drops one collection.

Collections are created with ``embedding_function=None`` (Chroma's default would download a
model at run time) and ``hnsw.space = cosine``; the embedder's name and dimension are recorded
in the collection metadata and checked on every open.

Collection handles are kept per user; when another process drops the collection (``forget-user``)
a kept handle fails with Chroma's ``NotFoundError``: the handle is then forgotten and the call made
once more on a fresh one (created again for a write), so this process keeps serving the user.

Nearest-neighbour search can miss a live fact. Embedded Chroma 1.5.x (seen on 1.5.9) replays its
write log on the first read of a collection in a process and, after that catch-up pass, sets the
log position to the highest sequence id *applied in the pass* (``rust/segment/src/local_hnsw.rs``,
``last_seen_seq_id = max_seq_id`` in ``apply_log_chunk``), which is 0 when every record was already
in the index. The next write then replays every earlier record again as parallel HNSW updates
(``rayon``) beside the new point, and those updates can drop the new node's incoming links. Count,
``get`` and the stored vector are intact, but no search reaches the node: asked for all 25 facts of
a collection, ``query`` returns 24. A turn has exactly this pattern (``load_memory`` and
``propose_facts`` read, ``commit`` writes); ``tests/load/search_after_write.py`` runs it. So
:class:`memory_agent.stores.long_term.LongTermMemory` never takes :meth:`ChromaFactIndex.nearest_ids`
as the whole answer: a live fact the graph did not return is scored from its stored vector
(:meth:`ChromaFactIndex.vectors`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import chromadb

from memory_agent.core.facts import Fact
from memory_agent.stores.base import EmbedderMismatchError, StoreError

#: When a collection's HNSW segment is persisted (``sync_threshold`` records) and how many records are
#: applied to it at a time (``batch_size``). Embedded Chroma trims its write log (``embeddings_queue``)
#: only up to what every segment has persisted, and a segment persists first at ``sync_threshold``
#: (Chroma's default 1,000): a user with fewer facts keeps every write in the log, the log grows with
#: the whole store, and so does each write (chroma-core/chroma#7659). At 100, measured with 200
#: collections of 300 records: log 60,015 rows -> 215, one upsert median 184 ms -> 34 ms (load ~20).
#: Collections made before keep the configuration they were made with.
HNSW_PERSIST = {"sync_threshold": 100, "batch_size": 100}


def collection_name(user_id: str) -> str:
    """The collection of ``user_id``: ``"user_"`` + the first 40 hex chars of its SHA-256.

    Hashing keeps any id valid as a name (e-mail addresses, spaces, non-ASCII letters) and
    ids that are prefixes of each other (``u1``/``u10``) apart.
    """
    return "user_" + hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:40]


def _metadata(fact: Fact) -> dict:
    """Chroma metadata for a fact. ``None`` values are left out (older Chroma releases reject them,
    1.5 drops them silently), so a fact with no ``valid_until`` stores; the whole record rides
    along as JSON."""
    meta = {
        "fact": fact.model_dump_json(),
        "kind": fact.kind,
        "importance": float(fact.importance),
        "updated_at": fact.updated_at.timestamp(),
    }
    if fact.valid_until is not None:
        meta["valid_until"] = fact.valid_until.timestamp()
    return meta


def _gone(exc: Exception) -> bool:
    """The collection of a kept handle no longer exists (dropped, possibly by another process)."""
    return isinstance(exc, chromadb.errors.NotFoundError)


def _chroma_call(what: str, call):
    """Run one Chroma call; any failure becomes a :class:`StoreError` that says what failed."""
    try:
        return call()
    except (StoreError, ValueError):
        raise
    except Exception as exc:  # chromadb raises many types when the store is down or corrupt
        raise StoreError(f"Chroma failed to {what}: {type(exc).__name__}: {exc}. Is the store reachable?") from exc


class ChromaFactIndex:
    """:class:`memory_agent.stores.base.FactIndex` on a Chroma client (``PersistentClient`` or ``HttpClient``).

    Args:
        client: a Chroma client.
        embedder_name: recorded in each collection, e.g. ``sentence-transformers/all-MiniLM-L6-v2``.
        dimension: the embedding size, e.g. 384.

    Raises:
        EmbedderMismatchError: a user's collection was written by another embedder.
        StoreError: Chroma cannot be reached or fails.
    """

    def __init__(self, client, embedder_name: str, dimension: int):
        self.client = client
        self.embedder_name = embedder_name
        self.dimension = dimension
        self._collections: dict[str, object] = {}
        self._writes: dict[str, int] = {}  # user id -> writes by this process (see generation)

    def _check(self, col, user_id: str):
        meta = col.metadata or {}
        if meta.get("user_id") != user_id:
            raise StoreError(f"Collection {col.name} does not belong to this user id (hash collision?)")
        if meta.get("embedder") != self.embedder_name or meta.get("dimension") != self.dimension:
            raise EmbedderMismatchError(
                f"The memories of this user were embedded with {meta.get('embedder')} "
                f"({meta.get('dimension')} dimensions) but the configured embedder is "
                f"{self.embedder_name} ({self.dimension}). Set the embedder back "
                "(MEMORY_AGENT_EMBEDDER) or use a new data folder."
            )
        return col

    def _collection(self, user_id: str, create: bool):
        col = self._collections.get(user_id)
        if col is not None:
            return col
        name = collection_name(user_id)
        try:
            if create:
                col = self.client.get_or_create_collection(
                    name,
                    embedding_function=None,
                    metadata={"user_id": user_id, "embedder": self.embedder_name, "dimension": self.dimension},
                    configuration={"hnsw": {"space": "cosine", **HNSW_PERSIST}},
                )
            else:
                try:
                    col = self.client.get_collection(name, embedding_function=None)
                except (chromadb.errors.NotFoundError, ValueError):
                    return None
        except EmbedderMismatchError:
            raise
        except Exception as exc:  # chromadb raises many types when the store is down/corrupt
            raise StoreError(f"Chroma is not usable: {type(exc).__name__}: {exc}. Is the store reachable?") from exc
        self._check(col, user_id)
        self._collections[user_id] = col
        return col

    def _use(self, user_id: str, what: str, call, *, create: bool = False, missing=None):
        """``call(collection)`` on the user's collection, or ``missing`` when the user has none (and
        ``create`` is false). A kept handle whose collection was dropped since (``NotFoundError``) is
        forgotten and the call made once more on a fresh handle.

        Raises:
            StoreError: Chroma fails (or the collection vanishes twice in a row).
        """
        for attempt in (1, 2):
            col = self._collection(user_id, create=create)
            if col is None:
                return missing
            try:
                return call(col)
            except (StoreError, ValueError):
                raise
            except Exception as exc:  # chromadb raises many types when the store is down or corrupt
                if _gone(exc) and attempt == 1:
                    self._collections.pop(user_id, None)
                    continue
                raise StoreError(f"Chroma failed to {what}: {type(exc).__name__}: {exc}. "
                                 "Is the store reachable?") from exc
        return missing  # not reached

    def upsert(self, user_id: str, facts: Sequence[Fact], embeddings: Sequence[Sequence[float]]) -> None:
        """Insert or replace live facts of ``user_id`` (each fact's ``user_id`` must match)."""
        if not facts:
            return
        if any(f.user_id != user_id for f in facts):
            raise ValueError("Every fact must belong to the user it is written for")
        self._bump(user_id)
        self._use(user_id, "write facts", lambda col: col.upsert(
            ids=[f.id for f in facts],
            embeddings=[list(e) for e in embeddings],
            documents=[f.index_text for f in facts],
            metadatas=[_metadata(f) for f in facts],
        ), create=True)

    def query(self, user_id: str, embedding: Sequence[float], n: int) -> list[tuple[Fact, float]]:
        """Nearest ``n`` live facts of the user as ``(fact, cosine distance)``, nearest first; no ``where``."""
        # Chroma (>= 1.5) caps n_results at the collection's size and answers an empty one with [].
        res = self._use(user_id, "query facts", lambda col: col.query(
            query_embeddings=[list(embedding)], n_results=n, include=["metadatas", "distances"]))
        if res is None:
            return []
        # A fact deleted (superseded, retracted) by another process while this query ran can come
        # back with no metadata from a Chroma server: it is not live any more, so it is skipped.
        return [
            (Fact.model_validate_json(m["fact"]), float(d))
            for m, d in zip(res["metadatas"][0], res["distances"][0], strict=True)
            if m is not None
        ]

    def nearest_ids(self, user_id: str, embedding: Sequence[float], n: int) -> list[tuple[str, float]]:
        """Nearest ``n`` live fact ids of the user as ``(id, cosine distance)``, nearest first.

        Like :meth:`query` without reading the facts back: for 600 facts about 1 ms instead of
        20 ms, so hybrid retrieval can afford the cosine of every fact of a user. It is an HNSW
        search: a node the graph cannot reach is missing even when ``n`` is the live count (see
        the module docstring), so a caller that needs every fact checks the ids it got."""
        res = self._use(user_id, "query facts", lambda col: col.query(
            query_embeddings=[list(embedding)], n_results=n, include=["distances"]))
        if res is None:
            return []
        return [(i, float(d)) for i, d in zip(res["ids"][0], res["distances"][0], strict=True)]

    def vectors(self, user_id: str, ids: Sequence[str] | None = None) -> dict[str, list[float]]:
        """The stored embeddings of these live facts of the user (every live fact when ``ids`` is
        ``None``), by id; ids not live are left out. Read from the collection, not searched."""
        if ids is not None and not ids:
            return {}
        res = self._use(user_id, "read fact vectors", lambda col: col.get(
            ids=None if ids is None else list(ids), include=["embeddings"]))
        if res is None:
            return {}
        return {i: [float(x) for x in e] for i, e in zip(res["ids"], res["embeddings"], strict=True)}

    def generation(self, user_id: str) -> int:
        """How many writes (upsert, delete, drop) this process has made to the user's facts.

        Part of the key of the live snapshot of :class:`memory_agent.stores.long_term.LongTermMemory`
        (with :meth:`count`). Writes by other processes (a shared Chroma server) are not counted here;
        the ledger's per-user generation covers them."""
        return self._writes.get(user_id, 0)

    def _bump(self, user_id: str) -> None:
        self._writes[user_id] = self._writes.get(user_id, 0) + 1

    def count(self, user_id: str) -> int:
        """How many live facts the user has (0 when the user has no collection)."""
        return self._use(user_id, "count facts", lambda col: col.count(), missing=0)

    def get(self, user_id: str, ids: Sequence[str]) -> list[Fact]:
        """Live facts of the user with these ids."""
        if not ids:
            return []
        res = self._use(user_id, "read facts", lambda col: col.get(ids=list(ids), include=["metadatas"]))
        if res is None:
            return []
        return [Fact.model_validate_json(m["fact"]) for m in res["metadatas"] if m is not None]

    def list(self, user_id: str) -> list[Fact]:
        """Every live fact of the user, oldest first."""
        res = self._use(user_id, "read facts", lambda col: col.get(include=["metadatas"]))
        if res is None:
            return []
        facts = [Fact.model_validate_json(m["fact"]) for m in res["metadatas"] if m is not None]
        return sorted(facts, key=lambda f: f.created_at)

    def delete(self, user_id: str, ids: Sequence[str]) -> None:
        """Remove facts of the user from the live collection."""
        if ids:
            self._bump(user_id)
            self._use(user_id, "delete facts", lambda col: col.delete(ids=list(ids)))

    def drop_user(self, user_id: str) -> int:
        """Delete the user's whole collection; returns the number of live facts it held."""
        def drop(col) -> int:
            n = col.count()
            self.client.delete_collection(col.name)
            return n

        self._bump(user_id)
        n = self._use(user_id, "drop the user's facts", drop, missing=0)
        self._collections.pop(user_id, None)
        return n

    def scan(self, user_id: str, needles: Sequence[str]) -> list[dict]:
        """Look through every collection of the client for what is left of ``user_id``: its
        collection, a collection whose metadata names it, and any document or fact record that
        contains one of ``needles`` (substring). One dict per hit (see ``memory_agent.stores.base.FactIndex.scan``)."""
        hits = []
        own = collection_name(user_id)
        for col in _chroma_call("list collections", self.client.list_collections):
            col = col if hasattr(col, "get") else self.client.get_collection(str(col), embedding_function=None)
            if col.name == own or (col.metadata or {}).get("user_id") == user_id:
                hits.append({"store": "chroma", "table": col.name, "column": "collection", "needle": user_id,
                             "rows": _chroma_call("count facts", col.count)})
            res = _chroma_call("read facts", lambda c=col: c.get(include=["documents", "metadatas"]))
            texts = [f"{d}\n{m.get('fact', '') if m else ''}"
                     for d, m in zip(res["documents"] or [], res["metadatas"] or [], strict=False)]
            for needle in needles:
                n = sum(needle.casefold() in t.casefold() for t in texts)
                if needle and n:
                    hits.append({"store": "chroma", "table": col.name, "column": "documents", "needle": needle,
                                 "rows": n})
        return hits


def orphan_segment_dirs(chroma_path: str | Path) -> list[Path]:
    """Folders of an embedded Chroma directory that hold an HNSW segment no collection uses any
    more. Chroma 1.x removes a deleted collection's rows from ``chroma.sqlite3`` but leaves its
    segment folder (vectors) on disk (chroma-core/chroma#5259), so erasing a user must remove them."""
    import sqlite3
    import uuid

    root = Path(chroma_path)
    db = root / "chroma.sqlite3"
    if not db.exists():
        return []
    conn = sqlite3.connect(str(db), timeout=5.0)
    try:
        live = {str(r[0]) for r in conn.execute("SELECT id FROM segments")}
    finally:
        conn.close()
    out = []
    for child in root.iterdir():
        try:
            uuid.UUID(child.name)
        except ValueError:
            continue
        if child.is_dir() and child.name not in live:
            out.append(child)
    return sorted(out)


def remove_orphan_segment_dirs(chroma_path: str | Path) -> list[str]:
    """Delete the folders :func:`orphan_segment_dirs` finds; returns their names."""
    import shutil

    gone = []
    for folder in orphan_segment_dirs(chroma_path):
        shutil.rmtree(folder)
        gone.append(folder.name)
    return gone


def make_chroma_client(path: str | None = None, url: str | None = None, *, tenant: str = "default_tenant",
                       database: str = "default_database"):
    """A Chroma client: ``HttpClient`` for ``url`` (``http://host:port``), else ``PersistentClient(path)``.

    On a server, ``database`` of ``tenant`` is created when it does not exist yet (one database per
    deployment keeps several agents apart on one server). Telemetry is switched off; nothing is
    downloaded.

    Raises:
        StoreError: the server cannot be reached, or the folder cannot be opened.
    """
    settings = chromadb.config.Settings(anonymized_telemetry=False)
    if url:
        from urllib.parse import urlparse

        u = urlparse(url)
        host, port, ssl = u.hostname or "localhost", u.port or 8000, u.scheme == "https"
        try:
            admin = chromadb.AdminClient(chromadb.config.Settings(
                anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
                chroma_server_host=host, chroma_server_http_port=port, chroma_server_ssl_enabled=ssl))
            try:
                admin.get_database(database, tenant=tenant)
            except chromadb.errors.NotFoundError:
                admin.create_database(database, tenant=tenant)
            return chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=settings, tenant=tenant,
                                       database=database)
        except Exception as exc:  # connection refused, timeouts, an unknown tenant
            raise StoreError(
                f"Cannot use the Chroma server at {url} (tenant {tenant!r}, database {database!r}): "
                f"{type(exc).__name__}: {exc}. Start it (chroma run --host 127.0.0.1 --port {port} --path DIR) "
                "or fix CHROMA_URL; nothing was written."
            ) from exc
    if path is None:
        raise ValueError("Give a Chroma folder path or a server URL")
    try:
        return chromadb.PersistentClient(path=str(path), settings=settings)
    except Exception as exc:
        raise StoreError(
            f"Cannot open the Chroma folder {path}: {exc}. If it is corrupt, move it aside; "
            "the fact history in agent.sqlite is untouched."
        ) from exc
