"""Accounts: per-user API keys, the one sign-in mechanism the template ships.

A key is ``mak_`` followed by ``secrets.token_urlsafe(32)`` (32 random bytes, 256 bits). Only its
sha256 is stored (table ``api_keys``, :class:`memory_agent.stores.sql.api_keys.SQLAPIKeys`), in the
ledger's database: the embedded SQLite file of ``settings.data_dir`` or Postgres (``database_url``).
A plain hash is enough here, unlike for passwords: a key is random and that long, so nobody can guess
it or find it from its hash by trying candidates, and a slow salted hash (bcrypt, scrypt) would only
slow down every request. The ``mak_`` prefix makes a leaked key easy to recognise (secret scanners,
logs) and lets anything else be refused without a database read.

The plaintext key is returned once, by :func:`issue_key`, and never stored. A user may hold several
keys; :func:`revoke_keys` revokes them all, and so does erasing the user (``forget-user``: the
ledger's ``erase_user`` deletes the user's ``api_keys`` rows).

Unlike the agent, these functions do not take the data folder's lock: they touch only the
``api_keys`` table through their own connection (SQLite in WAL mode lets several processes use it),
so ``memory-agent users add`` works while a server holds the folder. Each database is opened once
per process and kept (SQLite is reopened when its file was replaced).

Errors: :class:`AccountError` (a ``ValueError``) for a user id that names no user;
:class:`memory_agent.stores.base.StoreError` when the database fails.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path

from memory_agent.app.settings import Settings
from memory_agent.core.facts import utcnow
from memory_agent.graph.context import user_id_problem
from memory_agent.stores.data_dir import SQLITE_NAME
from memory_agent.stores.postgres import open_pool
from memory_agent.stores.sql.api_keys import SQLAPIKeys
from memory_agent.stores.sql.dialects import PostgresDialect, SQLiteDialect

#: What every key starts with.
KEY_PREFIX = "mak_"
#: Longest text :func:`authenticate` looks at (a key is 47 characters); anything longer is refused unread.
_MAX_KEY_CHARS = 256


class AccountError(ValueError):
    """A request about accounts that cannot be carried out (the message says what to do)."""


def issue_key(settings: Settings, user_id: str) -> str:
    """Make a new API key for ``user_id`` and store its hash; returns the key (shown once, never stored).

    Raises:
        AccountError: the user id is blank, too long, holds control or invisible characters, or is a
            tombstone id (``memory_agent.graph.context.user_id_problem``).
        StoreError: the database fails.
    """
    problem = user_id_problem(user_id)
    if problem:
        raise AccountError(problem)
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    _keys(settings).add_key(user_id, key_hash(key), utcnow())
    return key


def authenticate(settings: Settings, key: str) -> str | None:
    """The user id ``key`` signs in, or ``None`` for a key that is unknown, revoked or not a key at all.

    Raises:
        StoreError: the database fails.
    """
    if not isinstance(key, str) or not key.startswith(KEY_PREFIX) or len(key) > _MAX_KEY_CHARS:
        return None
    return _keys(settings).user_of(key_hash(key))


def revoke_keys(settings: Settings, user_id: str) -> int:
    """Revoke every key of ``user_id``; returns how many were revoked (0 when the user had none).

    Raises:
        StoreError: the database fails.
    """
    return _keys(settings).delete_keys(user_id)


def list_users(settings: Settings) -> list[str]:
    """Every user id holding at least one key, sorted."""
    return _keys(settings).key_users()


def run_context_problem(given: object, user_id: str, approval: str) -> str | None:
    """Why a run context a client sent may not be used by the authenticated ``user_id`` (``None`` when
    it may): it names another ``user_id``, or an ``approval`` mode other than the deployment's
    ``approval``. Anything that is not a mapping names neither."""
    if not isinstance(given, Mapping):
        return None
    if given.get("user_id") not in (None, user_id):
        return (f"The run context names user_id {given['user_id']!r}, but this API key signs in {user_id!r}: "
                "the user of a run is the one its key signs in. Leave user_id out of the context.")
    if given.get("approval") not in (None, approval):
        return (f"The run context asks for approval {given['approval']!r}; this deployment's approval mode is "
                f"{approval!r} (MEMORY_AGENT_APPROVAL, set by the operator). Leave approval out of the context.")
    return None


def key_hash(key: str) -> str:
    """The stored form of a key: its sha256, in hex (64 characters)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


# ---- one open database per process ---------------------------------------------------------------
_lock = threading.Lock()
_open: dict[str, tuple[SQLAPIKeys, object]] = {}  # where -> (keys, what identifies the open file)


def _keys(settings: Settings) -> SQLAPIKeys:
    """The key table of the database ``settings`` name, opened (and migrated) on first use."""
    with _lock:
        if settings.database_url:
            where = settings.database_url
            if where not in _open:
                pool = open_pool(where, prepare_threshold=settings.postgres_prepare_threshold, max_size=2,
                                 timeout=settings.postgres_timeout)
                atexit.register(pool.close)
                _open[where] = (SQLAPIKeys(PostgresDialect(pool, timeout=settings.postgres_timeout)), None)
            return _open[where][0]
        folder = Path(settings.data_dir).expanduser().resolve()
        path = folder / SQLITE_NAME
        held = _open.get(str(path))
        if held is not None and held[1] == _file_id(path):
            return held[0]
        if held is not None:  # the file was deleted or replaced since: the old connection reads nothing
            held[0].db.close()
        folder.mkdir(parents=True, exist_ok=True)
        keys = SQLAPIKeys(SQLiteDialect(path))
        _open[str(path)] = (keys, _file_id(path))
        return keys


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino)
