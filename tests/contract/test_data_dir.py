"""The data folder's lock (``stores/data_dir.py``) with real processes: a forked child never keeps it,
and the "in use" error names a holder that runs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memory_agent.stores.data_dir import DataDir, DataDirError

PROJECT_DIR = Path(__file__).resolve().parents[2]

# The holder opens the folder, forks a worker and dies (SIGKILL) while the worker lives on. The worker
# first tries to close the inherited DataDir (which must not unlock its parent) and to open the folder
# itself (refused: the parent holds it), then waits for its stdin to close.
_FORK_AND_DIE = """
import os, signal, sys
from memory_agent.stores.data_dir import DataDir, DataDirError
held = DataDir(sys.argv[1])
r, w = os.pipe()
child = os.fork()
if child == 0:
    os.close(r)
    held.close()
    try:
        DataDir(sys.argv[1])
        answer = "child opened it"
    except DataDirError:
        answer = "child refused"
    print(f"{answer} {os.getpid()}", flush=True)
    os.write(w, b"x")
    sys.stdin.read()
    os._exit(0)
os.close(w)
os.read(r, 1)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_forked_child_keeps_no_lock_once_its_parent_dies(tmp_path):
    data = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, "-c", _FORK_AND_DIE, str(data)], cwd=PROJECT_DIR,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        answer, _, child = proc.stdout.readline().strip().rpartition(" ")
        assert proc.wait(timeout=60) == -9  # the holder is dead
        assert answer == "child refused"  # while the parent lived, its lock held (the child's close did not free it)
        os.kill(int(child), 0)  # the forked worker is still running ...
        DataDir(data).close()  # ... and the folder is free
    finally:
        proc.stdin.close()


def test_the_in_use_error_names_a_running_holder_or_says_the_pid_is_stale(tmp_path):
    data = tmp_path / "data"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import sys
            from memory_agent.stores.data_dir import DataDir
            held = DataDir(sys.argv[1])
            print("locked", flush=True)
            sys.stdin.read()
        """), str(data)], cwd=PROJECT_DIR, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(DataDirError, match=f"in use by another process \\(pid {holder.pid}\\)"):
            DataDir(data)
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
        (data / "lock").write_text(gone.stdout.strip())  # a pid that no longer runs, the lock still held
        with pytest.raises(DataDirError, match=f"names no live holder \\(pid {gone.stdout.strip()}, which is not "
                                               "running\\).*fuser") as err:
            DataDir(data)
        assert "in use by another process" not in str(err.value)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    DataDir(data).close()


def test_a_second_open_in_the_same_process_says_so(tmp_path):
    held = DataDir(tmp_path / "data")
    try:
        with pytest.raises(DataDirError, match=f"in use by this process \\(pid {os.getpid()}\\)"):
            DataDir(tmp_path / "data")
    finally:
        held.close()
    DataDir(tmp_path / "data").close()
