"""The web page as the LangGraph server's custom HTTP app: ``langgraph.json`` names ``app``::

    "http": {"app": "./memory_agent/web/mount.py:app"}

The page then runs inside ``langgraph dev`` / ``langgraph up`` next to the LangGraph API, on the same
long-term memory as the graph (:func:`memory_agent.server.shared_agent`: one agent per process). Its
conversations are the page's own threads (the agent's checkpointer), not the API's threads; the
LangGraph server's auth handler does not cover custom routes by default, and the page needs none of
it: it signs people in with their API key itself. Settings come from ``MEMORY_AGENT_*`` variables or
``.env``. The Host check allows the loopback names only: a deployment reached under another name
points ``langgraph.json`` at its own module calling :func:`memory_agent.web.create_app` with
``allowed_hosts`` (and ``https_only=True`` behind HTTPS).
"""

from __future__ import annotations

from memory_agent.app.settings import Settings
from memory_agent.server import shared_agent
from memory_agent.web.app import create_app

app = create_app(Settings(), agent=shared_agent)
