"""The web page as the LangGraph server's custom HTTP app: ``langgraph.json`` names ``app``::

    "http": {"app": "./memory_agent/web/mount.py:app"}

The page is then served under :data:`PREFIX` (``/web/``) by ``langgraph dev`` / ``langgraph up``,
next to the LangGraph API, on the same long-term memory as the graph
(:func:`memory_agent.server.shared_agent`: one agent per process).

The page sits in a ``Mount`` of an app that has no middleware of its own: the LangGraph server
applies a custom app's middleware to every route, its API included, and the page's CSRF check
would refuse API calls. Mounted, the page's Host check, headers, CSRF and session apply to
``/web/...`` only. Its conversations are the page's own threads (the agent's checkpointer), not
the API's threads; the server's auth handler does not cover custom routes by default, and the page
needs none of it: it signs people in with their API key itself. Settings come from
``MEMORY_AGENT_*`` variables or ``.env``. The Host check allows the loopback names only: a
deployment reached under another name points ``langgraph.json`` at its own module calling
:func:`memory_agent.web.create_app` with ``allowed_hosts`` (and ``https_only=True`` behind HTTPS).
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Mount

from memory_agent.app.settings import Settings
from memory_agent.server import shared_agent
from memory_agent.web.app import create_app

#: Where the page is served in the LangGraph server (not a path of the LangGraph API).
PREFIX = "/web"

app = Starlette(routes=[Mount(PREFIX, app=create_app(Settings(), agent=shared_agent))])
