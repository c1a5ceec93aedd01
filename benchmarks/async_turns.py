"""Turns of several users: one after another with ``turn`` versus at once with ``aturn`` (``asyncio.gather``).

Each run opens a fresh embedded data folder (SQLite, Chroma, MiniLM), has each user say where they
live and ask once untimed (warming the per-user caches), then sends one timed turn per user, "Search
my memories for where I live.", so each turn runs the tool loop (answer → tools → answer).

The model is the offline stand-in with a fixed wait per answer call (``--model-latency`` seconds:
``time.sleep`` in ``invoke``, ``asyncio.sleep`` in ``ainvoke``), in place of a provider's network
round trip: the offline model itself answers in microseconds, so without the wait there is nothing
for async to overlap. Prints the median and p95 wall seconds of a batch of ``--users`` turns, sync
and async, over ``--runs`` runs. A script, not a test: these machines are noisy.

    python benchmarks/async_turns.py --users 8 --runs 5 --model-latency 0.2
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.models.embeddings import load_embedder
from memory_agent.models.offline.chat_model import OfflineChatModel

T0 = datetime(2025, 3, 1, 9, tzinfo=UTC)
CITIES = ["Munich", "Paris", "Oslo", "Lima", "Quito", "Hanoi", "Accra", "Perth", "Turin", "Bergen", "Cusco", "Dakar"]


class WaitingOfflineModel(OfflineChatModel):
    """The offline model, waiting ``latency`` seconds before each answer (a stand-in for the network)."""

    latency: float = 0.2

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        time.sleep(self.latency)
        return super()._generate(messages, stop, run_manager, **kwargs)

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs):
        await asyncio.sleep(self.latency)
        return super()._generate(messages, stop, None, **kwargs)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def one_run(users: list[str], latency: float, embedder) -> tuple[float, float]:
    """Wall seconds of the sync batch and of the async batch, on one fresh data folder."""
    with tempfile.TemporaryDirectory() as folder, MemoryAgent.open(
            Settings(data_dir=folder, approval="never"), model=WaitingOfflineModel(latency=latency),
            embedder=embedder) as agent:
        for user, city in zip(users, CITIES, strict=False):
            agent.turn(user, f"I live in {city}.", thread_id="setup", now=T0)
            agent.turn(user, "Search my memories for where I live.", thread_id="warm", now=T0)  # caches, summaries
        start = time.perf_counter()
        for user in users:
            agent.turn(user, "Search my memories for where I live.", thread_id="sync", now=T0)
        sync_seconds = time.perf_counter() - start

        async def batch() -> float:
            await agent.aturn(users[0], "hello", thread_id="warm", now=T0)  # opens the async saver
            start = time.perf_counter()
            await asyncio.gather(*(agent.aturn(u, "Search my memories for where I live.", thread_id="async",
                                               now=T0) for u in users))
            seconds = time.perf_counter() - start
            await agent.aclose()
            return seconds

        return sync_seconds, asyncio.run(batch())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=8, help=f"users per batch (at most {len(CITIES)})")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model-latency", type=float, default=0.2, help="seconds each answer call waits")
    args = parser.parse_args()
    users = [f"user{i}" for i in range(min(args.users, len(CITIES)))]
    embedder = load_embedder("minilm")
    embedder.embeddings.embed_query("warm up")
    runs = [one_run(users, args.model_latency, embedder) for _ in range(args.runs)]
    for name, values in (("sync turn, one after another", [r[0] for r in runs]),
                         ("aturn, asyncio.gather", [r[1] for r in runs])):
        print(f"{name:32s} median {statistics.median(values):6.2f} s   p95 {_p95(values):6.2f} s   "
              f"({len(users)} turns, 2 answer calls each, {args.model_latency} s per call, {args.runs} runs)")


if __name__ == "__main__":
    main()
