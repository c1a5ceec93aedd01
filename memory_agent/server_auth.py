"""Who may use the LangGraph server, and what each user may touch: LangGraph's custom auth
(``langgraph_sdk.Auth``), named by ``"auth"`` in ``langgraph.json``.

Authentication: every request carries an API key, ``Authorization: Bearer <key>`` or
``x-api-key: <key>``; :func:`memory_agent.app.accounts.authenticate` says whose it is (keys come from
``memory-agent users add USER``). No key, or a key that is unknown or revoked: 401. The user id of
every run is that user's (:mod:`memory_agent.server` reads it from the run's authenticated user,
never from the run context).

Authorization (the ``@auth.on`` handlers), default deny:

- threads: creating one (directly, or by a run on a new thread id) records ``owner`` = the user in
  its metadata; reading, searching, updating, deleting and running on a thread (a new turn or a
  resume) are filtered to ``owner`` = the user, so another user's thread is "not found";
- a run whose context (or ``configurable``) names another ``user_id``, or an approval mode other than
  the deployment's (``MEMORY_AGENT_APPROVAL``), is refused (403) with what to send instead;
- assistants: read and search only (the deployment's graph is shared; nobody creates or changes one);
- crons and the LangGraph store: refused (this agent keeps long-term memory in its own stores).

``langgraph.json`` sets ``disable_studio_auth``: otherwise ``langgraph dev`` takes any request with the
header ``x-auth-scheme: langsmith`` as LangGraph Studio's user, without a key. Studio connects by
sending the key as a header too. Another identity provider (OIDC/JWT, a session cookie) replaces
:func:`authenticate` only: return its stable user id as ``identity``; the handlers stay as they are
(see docs/auth.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import Auth

from memory_agent.app import accounts
from memory_agent.app.settings import Settings

auth = Auth()

_settings: Settings | None = None
NO_KEY = ("No API key: send 'Authorization: Bearer <key>' or 'x-api-key: <key>' "
          "(an operator makes one with `memory-agent users add USER`).")
BAD_KEY = "Unknown or revoked API key: ask the operator for a new one (`memory-agent users add USER`)."


def settings() -> Settings:
    """The deployment's settings (``MEMORY_AGENT_*`` variables or ``.env``), read once per process."""
    global _settings
    if _settings is None:
        _settings = Settings()
    return _settings


def api_key(headers: Mapping[bytes, bytes]) -> str | None:
    """The key of a request: ``x-api-key``, else the token of ``Authorization: Bearer``; ``None`` when absent."""
    raw = headers.get(b"x-api-key")
    if raw:
        return raw.decode("latin-1").strip() or None
    scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> Auth.types.MinimalUserDict:
    """The user whose API key the request carries (a 401 with what to do otherwise)."""
    key = api_key(headers)
    if key is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail=NO_KEY)
    # file and database reads (.env once, then the key's row): off the event loop
    user_id = await asyncio.to_thread(lambda: accounts.authenticate(settings(), key))
    if user_id is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail=BAD_KEY)
    return {"identity": user_id, "permissions": []}


@auth.on
async def deny_by_default(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Anything no handler below allows (crons, the store, changing assistants) is refused (403)."""
    return False


def _owned(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Mark ``value``'s metadata (changed in place: the server keeps using that dict) as the user's,
    and filter to the user's threads."""
    metadata = value.get("metadata")
    if metadata is None:
        metadata = value["metadata"] = {}
    metadata["owner"] = ctx.user.identity
    return {"owner": ctx.user.identity}


@auth.on.threads.create
async def create_thread(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.create.value) -> dict:
    return _owned(ctx, value)


@auth.on.threads.create_run
async def run_on_thread(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.create_run.value) -> dict:
    """A turn or a resume: only on the user's threads, as the user, under the deployment's approval mode."""
    kwargs = value.get("kwargs") or {}
    for given in (kwargs.get("context"), (kwargs.get("config") or {}).get("configurable")):
        problem = accounts.run_context_problem(given, ctx.user.identity, settings().approval)
        if problem:
            raise Auth.exceptions.HTTPException(status_code=403, detail=problem)
    return _owned(ctx, value)


@auth.on.threads.update
async def update_thread(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.update.value) -> dict:
    """Only the user's threads; new metadata keeps the owner (it cannot hand a thread to another user)."""
    if value.get("metadata") is not None:
        value["metadata"]["owner"] = ctx.user.identity
    return {"owner": ctx.user.identity}


@auth.on.threads.read
@auth.on.threads.search
@auth.on.threads.delete
async def own_threads(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    return {"owner": ctx.user.identity}


@auth.on.assistants.read
@auth.on.assistants.search
async def read_assistants(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return True
