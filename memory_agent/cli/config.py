"""``memory-agent config``: the effective settings and where each value came from, secrets masked."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from memory_agent.app.settings import Settings, mask_url
from memory_agent.cli.common import JsonFlag, dumps, explicit_options, get_console, handle_errors, settings_from

SECRET_MARKERS = ("key", "token", "password", "secret")


def _is_secret(name: str) -> bool:
    return any(marker in name.lower() for marker in SECRET_MARKERS)


def effective_config(settings: Settings, explicit: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{"name", "value", "source", "note"}`` of the effective settings, secrets masked.

    ``source`` is ``option``, ``env MEMORY_AGENT_<NAME>``, ``.env file`` or ``default``. Any setting or
    ``MEMORY_AGENT_*`` variable with key/token/password/secret in its name shows only ``***``; a
    password inside a URL is masked too. ``OPENAI_API_KEY`` is reported as ``set`` / ``not set``.
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
        elif _is_secret(name):
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
