"""``memory-agent config``: the effective settings and where each value came from, secrets masked."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from memory_agent.app.settings import Settings, mask_url
from memory_agent.cli.common import JsonFlag, dumps, explicit_options, get_console, handle_errors, settings_from

# A name is a secret's when one of its words (split on "_") is one of these, singular: API_KEY,
# API_TOKEN, DB_PASSWORD. ``max_memory_tokens`` is a count, not a secret; numbers are never masked.
SECRET_WORDS = frozenset({"key", "token", "password", "passwd", "secret", "credentials"})


def _is_secret(name: str, value: Any = "") -> bool:
    """True when ``name`` names a secret (a word of it is in :data:`SECRET_WORDS`) and ``value`` (a typed
    setting's) is not a number or a bool."""
    if isinstance(value, int | float):  # bool is an int
        return False
    return any(word in SECRET_WORDS for word in re.split(r"[^a-z0-9]+", name.lower()))


def effective_config(settings: Settings, explicit: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{"name", "value", "source", "note"}`` of the effective settings, secrets masked.

    ``source`` is ``option``, ``env MEMORY_AGENT_<NAME>``, ``.env file`` or ``default``. A setting or
    ``MEMORY_AGENT_*`` variable whose name has the word key, token, password or secret shows only ``***``
    (numbers are never masked: ``max_memory_tokens`` is a count); a password inside a URL is masked too.
    ``OPENAI_API_KEY`` is reported as ``set`` / ``not set``.
    """
    rows = []
    for name, field in type(settings).model_fields.items():
        value = getattr(settings, name)
        env = f"MEMORY_AGENT_{name.upper()}"
        aliases = [a for a in getattr(field.validation_alias, "choices", ()) if isinstance(a, str)]
        env = next((e for e in (env, *aliases) if e in os.environ), env)  # e.g. DATABASE_URL
        if name in explicit:
            source = "option"
        elif env in os.environ:
            source = f"env {env}"
        elif value != field.default:
            source = ".env file"
        else:
            source = "default"
        note = ""
        if value is None:
            shown: Any = None
        elif _is_secret(name, value):
            shown = "***"
        elif isinstance(value, Path):
            shown = str(value.expanduser().resolve())
        elif isinstance(value, str):
            shown = mask_url(value)
        else:
            shown = value
        if name == "model" and str(value).strip() in ("", "offline"):
            note = "rule-based stand-in, not a language model"
        rows.append({"name": name, "value": shown, "source": source, "note": note})
    for env in sorted(k for k in os.environ if k.startswith("MEMORY_AGENT_") and _is_secret(k)):
        rows.append({"name": env, "value": "***", "source": "env", "note": ""})
    rows.append({"name": "OPENAI_API_KEY", "value": "set" if os.environ.get("OPENAI_API_KEY") else "not set",
                 "source": "env", "note": ""})
    return rows


def config(
    ctx: typer.Context,
    as_json: JsonFlag = False,
) -> None:
    """Print the effective settings (options > MEMORY_AGENT_* environment > defaults); secrets are masked."""
    console = get_console()
    with handle_errors(console):
        rows = effective_config(settings_from(ctx), explicit_options(ctx))
        if as_json:
            typer.echo(dumps({r["name"]: {k: r[k] for k in ("value", "source", "note") if r[k] != ""}
                              for r in rows}))
            return
        table = Table(title="Effective settings", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("setting", style="bold", no_wrap=True)
        table.add_column("value", overflow="fold")
        table.add_column("from", style="dim")
        for r in rows:
            value = Text("(not set)" if r["value"] is None else str(r["value"]))
            if r["note"]:
                value.append(f"  ({r['note']})", style="dim")
            table.add_row(Text(r["name"]), value, Text(r["source"]))
        console.print(table)
