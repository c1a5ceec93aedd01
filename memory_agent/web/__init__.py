"""The web page for people: sign in with an API key, chat (answers streamed), approve, edit or
reject memory proposals, and see, correct, export and delete what is remembered.

``memory-agent web`` serves it on 127.0.0.1; :func:`create_app` builds the ASGI app to serve or
mount elsewhere; :mod:`memory_agent.web.mount` is the app for the LangGraph server's
``"http": {"app": ...}``. Needs the ``web`` extra (Starlette, Jinja2, uvicorn, asgi-csrf).
"""

from memory_agent.web.app import create_app

__all__ = ["create_app"]
