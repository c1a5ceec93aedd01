"""What per-user API keys cost each request: ``memory_agent.app.accounts.authenticate`` on the
embedded SQLite file (and Postgres with ``--database-url``), for a known key, an unknown key with the
prefix (one indexed lookup) and a text without it (no lookup), with ``--users`` users holding a key.

Prints median and p95 in microseconds. A script, not a test: these machines are noisy.

    python benchmarks/api_key_auth.py --users 1000 --calls 2000
    python benchmarks/api_key_auth.py --database-url postgresql://postgres@127.0.0.1:5432/test

On Postgres the tables go to a schema of their own (``bench_api_keys_<pid>``), dropped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Iterator

from memory_agent.app import accounts
from memory_agent.app.settings import Settings


def _timed(settings: Settings, key: str, calls: int) -> tuple[float, float]:
    samples = []
    for _ in range(calls):
        t = time.perf_counter()
        accounts.authenticate(settings, key)
        samples.append((time.perf_counter() - t) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


@contextlib.contextmanager
def _own_schema(url: str | None) -> Iterator[str | None]:
    """``url`` with a fresh schema as its search_path (dropped afterwards); ``None`` stays ``None``."""
    if url is None:
        yield None
        return
    import psycopg

    schema = f"bench_api_keys_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--database-url", default=None, help="Postgres instead of SQLite (tables in its search_path)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, _own_schema(args.database_url) as database_url:
        settings = Settings(data_dir=folder, database_url=database_url)
        keys = [accounts.issue_key(settings, f"bench-user-{i}@example.com") for i in range(args.users)]
        where = "postgres" if args.database_url else "sqlite"
        for label, key in (("known key", keys[len(keys) // 2]), ("unknown key", "mak_" + "x" * 43),
                           ("not a key", "Bearer something")):
            median, p95 = _timed(settings, key, args.calls)
            print(f"{where:8} {label:12} users={args.users:<6} median {median:8.1f} us   p95 {p95:8.1f} us")


if __name__ == "__main__":
    main()
