"""Per-user API keys (``memory_agent.app.accounts``) on the real ledger databases: SQLite in a temp
folder and Postgres (a schema of the test session's database), the ``users`` CLI, and erasing a user
revoking the user's keys."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest
from conftest import T0, with_schema
from typer.testing import CliRunner

from memory_agent.app import accounts, erasure
from memory_agent.app.settings import Settings
from memory_agent.cli.app import app


def _roundtrip(settings: Settings) -> None:
    alice, bob = accounts.issue_key(settings, "alice@example.com"), accounts.issue_key(settings, "bob")
    assert alice.startswith("mak_") and len(alice) == 47 and alice != bob
    assert accounts.authenticate(settings, alice) == "alice@example.com"
    assert accounts.authenticate(settings, bob) == "bob"
    for wrong in (alice[:-1] + ("A" if alice[-1] != "A" else "B"), "", "Bearer " + alice, alice[4:], "mak_",
                  "x" * 10_000, None):
        assert accounts.authenticate(settings, wrong) is None, wrong
    second = accounts.issue_key(settings, "alice@example.com")
    assert accounts.list_users(settings) == ["alice@example.com", "bob"]
    assert accounts.revoke_keys(settings, "alice@example.com") == 2
    assert accounts.authenticate(settings, alice) is None and accounts.authenticate(settings, second) is None
    assert accounts.authenticate(settings, bob) == "bob"  # another user's key is untouched
    assert accounts.revoke_keys(settings, "alice@example.com") == 0
    assert accounts.list_users(settings) == ["bob"]
    for bad in ("", "   ", "a\nb", "erased-" + "0" * 32, "x" * 300):
        with pytest.raises(accounts.AccountError):
            accounts.issue_key(settings, bad)


def test_keys_on_sqlite_store_only_their_hash(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    _roundtrip(settings)
    key = accounts.issue_key(settings, "carol")
    conn = sqlite3.connect(tmp_path / "data" / "agent.sqlite")
    rows = conn.execute("SELECT key_hash, user_id FROM api_keys WHERE user_id = 'carol'").fetchall()
    conn.close()
    assert rows == [(accounts.key_hash(key), "carol")]
    assert key.encode() not in (tmp_path / "data" / "agent.sqlite").read_bytes()


def test_a_replaced_database_file_is_reopened(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    key = accounts.issue_key(settings, "alice")
    for name in ("agent.sqlite", "agent.sqlite-wal", "agent.sqlite-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)
    assert accounts.authenticate(settings, key) is None  # the new, empty file: not the old connection
    assert accounts.authenticate(settings, accounts.issue_key(settings, "alice")) == "alice"


def test_keys_on_postgres(postgres_database):
    with psycopg.connect(postgres_database, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA accounts_test")
    _roundtrip(Settings(database_url=with_schema(postgres_database, "accounts_test")))


def test_forget_user_revokes_the_users_keys(make_agent, tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    alice, bob = accounts.issue_key(settings, "alice@example.com"), accounts.issue_key(settings, "bob@example.com")
    agent = make_agent()
    report = erasure.forget_user(agent, "alice@example.com", T0)
    assert report.removed["api_keys"] == 1 and not report.remaining
    assert accounts.authenticate(settings, alice) is None
    assert accounts.authenticate(settings, bob) == "bob@example.com"


def test_users_cli_prints_the_key_once_and_revokes_it(tmp_path):
    runner, data = CliRunner(), str(tmp_path / "data")
    added = runner.invoke(app, ["--data-dir", data, "users", "add", "alice@example.com"])
    assert added.exit_code == 0, added.output
    key = added.stdout.strip()
    assert accounts.authenticate(Settings(data_dir=tmp_path / "data"), key) == "alice@example.com"
    listed = runner.invoke(app, ["--data-dir", data, "users", "list", "--json"])
    assert listed.exit_code == 0 and '"alice@example.com"' in listed.stdout
    revoked = runner.invoke(app, ["--data-dir", data, "users", "revoke", "alice@example.com"])
    assert revoked.exit_code == 0 and "Revoked 1 key(s)" in revoked.stdout
    assert accounts.authenticate(Settings(data_dir=tmp_path / "data"), key) is None
    bad = runner.invoke(app, ["--data-dir", data, "users", "add", "a\tb"])
    assert bad.exit_code == 2 and "control characters" in bad.output
