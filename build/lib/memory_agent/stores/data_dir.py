"""The embedded data folder: one folder holds the SQLite file and the Chroma files.

Opening it takes an exclusive, non-blocking ``flock`` on ``<folder>/lock`` so two processes
never write the same embedded Chroma or SQLite files at once (embedded Chroma is not safe for
several processes; use a Chroma server for that).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class DataDirError(RuntimeError):
    """The data folder cannot be used: not writable, or locked by another process."""


class DataDir:
    """An opened data folder, held under an exclusive lock until :meth:`close`.

    Args:
        path: the folder (created if missing), e.g. ``./.memory_agent``.

    Raises:
        DataDirError: the folder cannot be created or written, or another process holds it.
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
            holder = self._lock_file.read().strip() or "unknown"
            self._lock_file.close()
            raise DataDirError(
                f"The data folder {self.path} is in use by another process (pid {holder}). "
                "Close that process, or give this one its own --data-dir. The embedded stores "
                "serve one process at a time."
            ) from exc
        self._lock_file.seek(0)
        self._lock_file.truncate()
        self._lock_file.write(str(os.getpid()))
        self._lock_file.flush()

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file holding checkpoints, the fact history and the audit log."""
        return self.path / "agent.sqlite"

    @property
    def chroma_path(self) -> Path:
        """The folder of the embedded Chroma ``PersistentClient``."""
        return self.path / "chroma"

    def close(self) -> None:
        """Release the lock (idempotent)."""
        if not self._lock_file.closed:
            fcntl.flock(self._lock_file, fcntl.LOCK_UN)
            self._lock_file.close()
