"""``memory-agent web``: serve the web page (:mod:`memory_agent.web`) with uvicorn.

Exit codes: 0 stopped, 2 a usage or environment problem (the message says what to do).
"""

from __future__ import annotations

import ipaddress
from typing import Annotated

import typer

from memory_agent.cli.common import UsageError, get_console, handle_errors, open_agent, settings_from


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def web(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Address to listen on. Anything but loopback exposes the page to "
                                      "the network: put it behind HTTPS (and --https-only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    https_only: Annotated[bool, typer.Option("--https-only", help="Mark the session cookies Secure (behind an "
                                             "HTTPS proxy).")] = False,
) -> None:
    """Serve the web page: sign in with the key `memory-agent users add USER` printed, chat, approve
    memories, and see, edit, export and delete what is remembered. Binds 127.0.0.1 by default."""
    console = get_console()
    with handle_errors(console):
        try:  # the optional extra: Starlette, Jinja2, uvicorn, asgi-csrf
            import uvicorn

            from memory_agent.web import create_app
        except ImportError as exc:
            raise UsageError(f"The web page needs the 'web' extra ({exc.name} is missing): "
                             "pip install 'memory-agent[web]'") from None
        hosts: list[str] = ["127.0.0.1", "localhost", "[::1]", "::1"]
        if not is_loopback(host):
            console.print(f"[bold yellow]Warning:[/] listening on {host}: anyone who can reach this address can "
                          "try to sign in. Serve it only behind HTTPS (a reverse proxy) with --https-only.")
            hosts = ["*"]
        settings = settings_from(ctx)
        agent = open_agent(settings)
    try:
        app = create_app(settings, agent=agent, allowed_hosts=hosts, https_only=https_only)
        console.print(f"Memory agent web page on http://{host}:{port}/ (Ctrl-C stops it)")
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        agent.close()
