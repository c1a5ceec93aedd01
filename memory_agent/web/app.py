"""The web page's ASGI app: :func:`create_app` (Starlette, Jinja2 templates, no JavaScript build).

Security, in the order a request meets it:

- ``TrustedHostMiddleware`` (Starlette): only the ``Host`` names the app was started for (loopback
  by default), so a page elsewhere cannot reach it through DNS rebinding.
- :class:`SecurityHeaders`: a strict Content-Security-Policy (scripts and styles only with the
  per-request nonce; no inline event handlers, no plug-ins, no framing, forms post only here),
  ``X-Content-Type-Options``, ``Referrer-Policy``, ``X-Frame-Options`` and ``Cache-Control:
  no-store`` (the pages hold personal data).
- ``asgi_csrf`` (Datasette's CSRF middleware): a signed double-submit token in a cookie and in a
  hidden field of every form (or the ``x-csrftoken`` header); any other POST is refused with 403,
  including a POST that carries no cookie at all (the sign-in form too).
- ``SessionMiddleware`` (Starlette, signed with itsdangerous): the signed-in user id. It is set only
  by signing in with an API key (:func:`memory_agent.app.accounts.authenticate`) and checked
  against the accounts on every request, so revoking a user's keys ends their sessions.

Every stored text reaches the page through Jinja2 with autoescaping on, or through the chat
script's ``textContent``; nothing is inserted as HTML.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from asgi_csrf import asgi_csrf
from jinja2 import Environment, PackageLoader
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.web.routes import routes

#: Host names served by default: loopback only.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")

#: Seconds a sign-in lasts (8 hours); the session cookie is signed, not stored on the server.
SESSION_SECONDS = 8 * 3600

TEMPLATES = Path(__file__).with_name("templates")


def when(value: object, chars: int = 16) -> str:
    """A datetime or ISO 8601 string as ``YYYY-MM-DD HH:MM`` (UTC as stored; ``chars=10``: the date)."""
    text = value.isoformat() if hasattr(value, "isoformat") else str(value or "")
    return text[:chars].replace("T", " ")


class SecurityHeaders:
    """ASGI middleware: a fresh CSP nonce per request (``scope["state"]["csp_nonce"]``) and the
    security headers on every response."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(16)
        scope.setdefault("state", {})["csp_nonce"] = nonce
        csp = (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src 'self'; "
               "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [(b"content-security-policy", csp.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
                            (b"cache-control", b"no-store"),
                            (b"cross-origin-opener-policy", b"same-origin")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _EveryPath:
    """``asgi_csrf``'s ``always_protect``: every path, so a POST without cookies is refused too."""

    def __contains__(self, path: object) -> bool:
        return True


class AgentHolder:
    """The :class:`MemoryAgent` the app uses: given, given as a zero-argument callable (called on first
    use, e.g. the LangGraph server's), or opened from the settings on first use and closed with the app."""

    def __init__(self, settings: Settings, agent: MemoryAgent | Callable[[], MemoryAgent] | None):
        self.settings = settings
        self._given = agent
        self._agent: MemoryAgent | None = agent if isinstance(agent, MemoryAgent) else None
        self._owned = False
        self._lock = threading.Lock()
        self._user_locks: dict[str, threading.Lock] = {}

    def get(self) -> MemoryAgent:
        """The agent (opened on first call when not given).

        Raises: as :meth:`MemoryAgent.open`."""
        if self._agent is None:
            with self._lock:
                if self._agent is None:
                    if callable(self._given):
                        self._agent = self._given()
                    else:
                        self._agent = MemoryAgent.open(self.settings)
                        self._owned = True
        return self._agent

    def user_lock(self, user_id: str) -> threading.Lock:
        """One lock per user: a user's turns, resumes and edits from this page run one at a time
        (two tabs submitting at once get the second after the first, not interleaved)."""
        with self._lock:
            return self._user_locks.setdefault(user_id, threading.Lock())

    def close(self) -> None:
        """Close the agent when this holder opened it."""
        if self._owned and self._agent is not None:
            self._agent.close()
            self._agent = None
            self._owned = False


def create_app(settings: Settings | None = None, *, agent: MemoryAgent | Callable[[], MemoryAgent] | None = None,
               allowed_hosts: Iterable[str] = LOOPBACK_HOSTS, secret: str | None = None,
               https_only: bool = False) -> Starlette:
    """The page as an ASGI app (mount it in another Starlette/FastAPI app, or serve it with uvicorn).

    Args:
        settings: the agent's settings (default ``Settings()``: ``MEMORY_AGENT_*`` variables, ``.env``);
            the accounts (API keys) are read through them.
        agent: an open agent (the caller closes it), a callable returning one (called on first use),
            or ``None``: opened from ``settings`` on first use and closed when the app shuts down.
        allowed_hosts: ``Host`` header values served (default: loopback names only); ``["*"]`` for any.
        secret: signs the session and CSRF cookies; default a random one per process, so restarting
            the page signs everyone out.
        https_only: mark the session cookie ``Secure`` (behind an HTTPS proxy).

    Returns:
        A Starlette app; ``app.state.agents`` is its :class:`AgentHolder`.
    """
    settings = settings or Settings()
    secret = secret or secrets.token_urlsafe(32)
    holder = AgentHolder(settings, agent)

    @asynccontextmanager
    async def lifespan(app):
        yield
        holder.close()

    app = Starlette(
        routes=routes(),
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)),
            Middleware(SecurityHeaders),
            Middleware(asgi_csrf, signing_secret=secret, always_protect=_EveryPath(), cookie_samesite="Strict",
                       cookie_secure=https_only),
            Middleware(SessionMiddleware, secret_key=secret, session_cookie="memory_agent_session",
                       max_age=SESSION_SECONDS, same_site="strict", https_only=https_only),
        ],
        lifespan=lifespan,
    )
    app.state.agents = holder
    app.state.settings = settings
    # loaded once here: rendering then reads no file on the event loop (auto_reload off)
    templates = Environment(loader=PackageLoader("memory_agent.web", "templates"), autoescape=True,
                            trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    templates.filters["when"] = when
    for name in templates.list_templates(extensions=["html"]):
        templates.get_template(name)
    app.state.templates = templates
    return app
