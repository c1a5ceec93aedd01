"""The embedded data folder: one folder holds the SQLite file and the Chroma files.

Opening it takes an exclusive, non-blocking ``flock`` on ``<folder>/lock`` so two processes
never write the same embedded Chroma or SQLite files at once (embedded Chroma is not safe for
several processes; use a Chroma server for that). The holder's pid is written into the file.

A ``flock`` belongs to the open file, not to the process: a child made by ``os.fork`` (a worker
pool, ``multiprocessing`` with the fork start method) shares it, and the folder would stay locked
after the holder dies for as long as any such child lives. So every forked child closes its copy of
the lock file at once (``os.register_at_fork(after_in_child=...)``; closing a copy does not unlock
the parent's). Children started with ``subprocess`` never get it: the file is opened
non-inheritable, so ``exec`` closes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import weakref
from pathlib import Path

#: The SQLite file of the folder (checkpoints, fact ledger, audit log, API keys).
SQLITE_NAME = "agent.sqlite"
#: Every open :class:`DataDir` of this process, so a forked child can close its copies of their locks.
_OPEN: weakref.WeakSet[DataDir] = weakref.WeakSet()


def _close_in_child() -> None:
    """Run in the child right after ``os.fork``: drop the child's copy of every lock file, without
    ``LOCK_UN`` (that would release the parent's lock, which is the same open file)."""
    for data_dir in list(_OPEN):
        with contextlib.suppress(OSError):
            data_dir._lock_file.close()
    _OPEN.clear()


os.register_at_fork(after_in_child=_close_in_child)


class DataDirError(RuntimeError):
    """The data folder cannot be used: not writable, or locked by another process."""


def _running(pid: int) -> bool:
    """Whether a process with this pid runs on this machine (signal 0 checks without sending)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, under another user
        pass
    return True


def _holder(text: str, path: Path) -> str:
    """The sentence naming who holds the lock of ``path``, from the pid recorded in the lock file."""
    pid = int(text) if text.isdigit() else None
    if pid == os.getpid():
        return (f"The data folder {path} is in use by this process (pid {pid}): another agent here holds it. "
                "Close that one first (agent.close()), or give this one its own --data-dir.")
    if pid is not None and _running(pid):
        return (f"The data folder {path} is in use by another process (pid {pid}). Close that process, or "
                "give this one its own --data-dir. The embedded stores serve one process at a time.")
    recorded = f"pid {pid}, which is not running" if pid is not None else "no pid recorded"
    return (f"The data folder {path} is locked, but its lock file names no live holder ({recorded}): the lock "
            "is stale for that pid and is held by some other process (one it started, or one on another "
            f"machine sharing the folder). Find it with `fuser {path / 'lock'}` and stop it, or give this "
            "process its own --data-dir.")


class DataDir:
    """An opened data folder, held under an exclusive lock until :meth:`close`.

    Args:
        path: the folder (created if missing), e.g. ``./.memory_agent``.

    Raises:
        DataDirError: the folder cannot be created or written, or another process (or another
            ``DataDir`` of this process) holds it; the message names the holder's pid when it runs.
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path).expanduser().resolve()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataDirError(
                f"Cannot create the data folder {self.path}: {exc.strerror}. "
                "Choose another folder with --data-dir or MEMORY_AGENT_DATA_DIR."
            ) from exc
        if not os.access(self.path, os.W_OK | os.X_OK):
            raise DataDirError(
                f"The data folder {self.path} is not writable. Fix its permissions or choose "
                "another folder with --data-dir or MEMORY_AGENT_DATA_DIR."
            )
        self._lock_file = open(self.path / "lock", "a+")  # noqa: SIM115 - held for the object's life
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            self._lock_file.seek(0)
            holder = self._lock_file.read().strip()
            self._lock_file.close()
            raise DataDirError(_holder(holder, self.path)) from exc
        self._owner = os.getpid()
        _OPEN.add(self)
        self._lock_file.seek(0)
        self._lock_file.truncate()
        self._lock_file.write(str(os.getpid()))
        self._lock_file.flush()

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file holding checkpoints, the fact history and the audit log."""
        return self.path / SQLITE_NAME

    @property
    def chroma_path(self) -> Path:
        """The folder of the embedded Chroma ``PersistentClient``."""
        return self.path / "chroma"

    def close(self) -> None:
        """Release the lock (idempotent). In a forked child it does nothing: the child's copy was
        closed at the fork and the lock stays the parent's."""
        _OPEN.discard(self)
        if not self._lock_file.closed and self._owner == os.getpid():
            fcntl.flock(self._lock_file, fcntl.LOCK_UN)
            self._lock_file.close()
