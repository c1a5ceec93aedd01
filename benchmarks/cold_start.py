"""Cold start of ``memory-agent chat``: seconds to the first prompt, and to the first answer.

Runs the installed ``memory-agent`` in a pseudo-terminal (as a person would), in a fresh data
folder, ``--runs`` times each for:

1. the first ``you>`` prompt;
2. the answer to a question typed at that prompt, for a user with no memories yet;
3. the same for a user with one memory (so the question must be embedded: the embedder's
   runtime and all-MiniLM-L6-v2 load first), typed at once;
4. the same question typed after ``--typing`` seconds at the prompt, timed from Enter: what a
   person waits when the embedder loads while they type.

Prints median and p95 in seconds. A script, not a test: these machines are noisy. The embedder
runs as configured (``MEMORY_AGENT_EMBEDDER_RUNTIME``, default ``auto``: ONNX Runtime, whose graph
``memory-agent embedder export`` makes ahead; otherwise the first run exports it).

    python benchmarks/cold_start.py --runs 5 [--typing 3]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pty
import select
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

PROMPT = b"you>"
ANSWERED = (b"remember", b"stored information")


def _exe() -> str:
    found = shutil.which("memory-agent") or str(Path(__file__).resolve().parents[1] / ".venv/bin/memory-agent")
    if not Path(found).exists():
        raise SystemExit("memory-agent is not installed: run `make install` first")
    return found


def one_run(data_dir: str, user: str, question: str | None, timeout: float = 60.0,
            typing: float = 0.0) -> tuple[float, float | None]:
    """Seconds to the prompt and (when ``question``) to its answer, measured from process start, or
    with ``typing`` > 0 from Enter, pressed ``typing`` seconds after the prompt showed."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.execv(_exe(), ["memory-agent", "--data-dir", data_dir, "--approval", "never", "chat", "--user", user])
    out, to_prompt, to_answer = b"", None, None
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if not ready:
                continue
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
            if to_prompt is None and PROMPT in out:
                to_prompt = time.perf_counter() - start
                if question is None:
                    break
                if typing:
                    time.sleep(typing)
                    start = time.perf_counter()
                os.write(fd, question.encode() + b"\n")
                out = b""
            elif to_prompt is not None and any(marker in out for marker in ANSWERED):
                to_answer = time.perf_counter() - start
                break
        os.write(fd, b"/exit\n")
        time.sleep(0.3)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
    if to_prompt is None:
        raise RuntimeError(f"no prompt within {timeout} s; output: {out[-300:]!r}")
    return to_prompt, to_answer


def _summary(label: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"{label:<52} median {statistics.median(values):6.2f} s   p95 {p95:6.2f} s   (n={len(values)})"


def main() -> None:
    """Run the three measurements and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--typing", type=float, default=3.0, help="seconds at the prompt before Enter (case 4)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cold-start-")
    try:
        prompts = [one_run(folder, "newcomer", None)[0] for _ in range(args.runs)]
        empty = [one_run(folder, "newcomer", "Where do I live?")[1] for _ in range(args.runs)]
        subprocess.run([_exe(), "--data-dir", folder, "--approval", "never", "chat", "--user", "known"],
                       input="I live in Oslo.\n/exit\n", text=True, capture_output=True, check=True)
        known = [one_run(folder, "known", "Where do I live?")[1] for _ in range(args.runs)]
        typed = [one_run(folder, "known", "Where do I live?", typing=args.typing)[1] for _ in range(args.runs)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    runtime = os.environ.get("MEMORY_AGENT_EMBEDDER_RUNTIME", "auto")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; memory-agent chat in a "
          f"pseudo-terminal, fresh data folder; embedder runtime {runtime}")
    print(_summary("first prompt", prompts))
    print(_summary("first answer, user without memories", [v for v in empty if v is not None]))
    print(_summary("first answer, user with one memory (embedder loads)", [v for v in known if v is not None]))
    print(_summary(f"  same, typed after {args.typing:g} s, from Enter", [v for v in typed if v is not None]))


if __name__ == "__main__":
    main()
