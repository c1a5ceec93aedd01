"""Settings: one pydantic-settings class, documented in ``.env.example``; explicit arguments >
environment variables > ``.env`` file > defaults."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from memory_agent.app.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / ".env.example"
ASSIGNMENT = re.compile(r"^#?\s*(MEMORY_AGENT_[A-Z0-9_]+)=(.*)$")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No ``MEMORY_AGENT_*`` variables of the caller, and an empty working folder (no stray ``.env``)."""
    for name in [n for n in os.environ if n.startswith("MEMORY_AGENT_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def _documented() -> dict[str, str]:
    found = {}
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        m = ASSIGNMENT.match(line.strip())
        if m:
            assert m.group(1) not in found, f"{m.group(1)} appears twice in .env.example"
            found[m.group(1)] = m.group(2)
    return found


def test_env_example_documents_every_setting_and_nothing_else():
    expected = {f"MEMORY_AGENT_{name.upper()}" for name in Settings.model_fields}
    documented = set(_documented())
    assert documented - expected == set(), "documented in .env.example but not a Settings field"
    assert expected - documented == set(), "Settings fields missing from .env.example"


def test_env_example_values_are_valid_settings(tmp_path):
    # Every example line, uncommented, is a value Settings accepts (no stale names or formats).
    env_file = tmp_path / "example.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in _documented().items()), encoding="utf-8")
    loaded = Settings(_env_file=env_file)
    for key, value in _documented().items():
        field = key.removeprefix("MEMORY_AGENT_").lower()
        assert str(getattr(loaded, field)) == value, field


def test_every_setting_has_a_documented_default_in_the_example():
    # The value next to a setting that has a default is that default (the example does not lie).
    documented = _documented()
    for name, field in Settings.model_fields.items():
        if field.default is not None:
            assert documented[f"MEMORY_AGENT_{name.upper()}"] == str(field.default), name


def test_explicit_arguments_beat_environment_beat_env_file_beat_defaults(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("MEMORY_AGENT_TOP_K=9\nMEMORY_AGENT_APPROVAL=never\n"
                                   "MEMORY_AGENT_MODEL=openai:from-env-file\n", encoding="utf-8")
    monkeypatch.setenv("MEMORY_AGENT_TOP_K", "7")
    monkeypatch.setenv("MEMORY_AGENT_MODEL", "openai:from-environment")

    settings = Settings(model="offline")
    assert settings.model == "offline"  # explicit argument over environment and .env
    assert settings.top_k == 7  # environment over .env
    assert settings.approval == "never"  # .env over default
    assert settings.max_message_chars == 8000  # default
    assert Settings().model == "openai:from-environment"

    monkeypatch.delenv("MEMORY_AGENT_TOP_K")
    assert Settings().top_k == 9
    (tmp_path / ".env").unlink()
    assert Settings().top_k == Settings.model_fields["top_k"].default == 5


def test_bad_values_are_refused_with_the_setting_named():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="top_k"):
        Settings(top_k=0)
    with pytest.raises(ValidationError, match="approval"):
        Settings(approval="sometimes")


def test_config_command_prints_effective_settings_with_their_source_and_secrets_masked(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from memory_agent.cli.app import app

    (tmp_path / ".env").write_text("MEMORY_AGENT_CHROMA_URL=http://admin:hunter2@127.0.0.1:8000\n"
                                   "MEMORY_AGENT_APPROVAL=risky-only\n", encoding="utf-8")
    env = {"MEMORY_AGENT_TOP_K": "7", "MEMORY_AGENT_SERVICE_TOKEN": "tok-abcdef", "OPENAI_API_KEY": "sk-live-123",
           "COLUMNS": "200"}
    result = CliRunner().invoke(app, ["--model", "offline", "config", "--json"], env=env)
    assert result.exit_code == 0, result.output
    for secret in ("hunter2", "tok-abcdef", "sk-live-123"):
        assert secret not in result.output
    rows = json.loads(result.output)
    assert rows["model"]["source"] == "option"
    assert rows["top_k"] == {"value": 7, "source": "env MEMORY_AGENT_TOP_K"}
    assert rows["approval"] == {"value": "risky-only", "source": ".env file"}
    assert rows["chroma_url"]["value"] == "http://admin:***@127.0.0.1:8000"
    assert rows["max_message_chars"] == {"value": 8000, "source": "default"}
    assert rows["MEMORY_AGENT_SERVICE_TOKEN"]["value"] == "***"
    assert rows["OPENAI_API_KEY"]["value"] == "set"
    assert set(Settings.model_fields) <= set(rows)  # every setting is printed
    table = CliRunner().invoke(app, ["config"], env=env)
    assert table.exit_code == 0 and "Effective settings" in table.output and "hunter2" not in table.output
