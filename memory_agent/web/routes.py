"""The pages and form actions of the web page (see :mod:`memory_agent.web.app` for the security layers).

Every handler but sign-in starts from :func:`_user`: the user id comes only from the signed session
set at sign-in, never from the request. Every read and write goes through the Python API
(``MemoryAgent`` and ``memory_agent.app.control`` / ``erasure`` / ``export``), each scoped to that
user id, so another user's fact or thread id is simply not found. Errors the API reports
(``ControlError``, ``InputError``, a malformed decision) are shown on the page with status 400
(404 for a fact the user does not have).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from memory_agent.app import accounts, control, erasure, export
from memory_agent.app.agent import ANSWER_TOKEN, InputError, MemoryAgent, PendingApprovalError
from memory_agent.core.kinds import profile_kinds
from memory_agent.memory import review

THREAD_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")


class NotSignedIn(Exception):
    """The request has no valid session."""


# ---- helpers ---------------------------------------------------------------------------------------
async def _agent(request: Request) -> MemoryAgent:
    """The agent, opened in a worker thread on first use (opening it blocks: files, stores)."""
    return await run_in_threadpool(request.app.state.agents.get)


def _now() -> datetime:
    return datetime.now(UTC)


async def _user(request: Request) -> str:
    """The signed-in user id, re-checked against the accounts (revoked keys end the session).

    Raises: NotSignedIn."""
    user = request.session.get("user")
    if not isinstance(user, str) or not user:
        raise NotSignedIn
    users = await run_in_threadpool(accounts.list_users, request.app.state.settings)
    if user not in users:
        request.session.clear()
        raise NotSignedIn
    return user


def _render(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    env = request.app.state.templates
    token = request.scope.get("csrftoken")
    page = env.get_template(template).render(
        request=request, url=request.url_for, csrftoken=token() if callable(token) else "",
        nonce=request.scope.get("state", {}).get("csp_nonce", ""), **values)
    return HTMLResponse(page, status_code=status)


def _redirect(request: Request, name: str, **query: str) -> RedirectResponse:
    url = str(request.url_for(name))
    if query:
        url += "?" + urlencode(query)
    return RedirectResponse(url, status_code=303)


def _thread(value: object) -> str:
    if not isinstance(value, str) or not THREAD_ID.match(value):
        raise InputError("A conversation id is 1 to 100 letters, digits or - _ . : (open one from the chat page).")
    return value


async def _page(request: Request, user: str, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    """Render a signed-in page with the header's facts (memory switch, pending approvals)."""
    agent = await _agent(request)

    def header() -> dict[str, Any]:
        threads = agent.threads(user)
        return {"memory_enabled": agent.memory.ledger.memory_enabled(user),
                "pending_total": sum(t["pending"] for t in threads)}

    return _render(request, template, status, user=user, **(await run_in_threadpool(header)), **values)


async def _error(request: Request, user: str, message: str, status: int = 400) -> HTMLResponse:
    return await _page(request, user, "error.html", status, message=message)


def signed_in(handler):
    """Route decorator: redirect to sign-in without a session; API errors become a page with the message."""

    async def wrapped(request: Request) -> Response:
        try:
            user = await _user(request)
        except NotSignedIn:
            if request.method == "GET":
                return _redirect(request, "signin")
            return _render(request, "signin.html", 401, error="Sign in first.")
        try:
            return await handler(request, user)
        except control.MemoryNotFoundError as exc:
            return await _error(request, user, str(exc), 404)
        except (control.ControlError, InputError, PendingApprovalError, ValueError) as exc:
            return await _error(request, user, str(exc))

    wrapped.__name__ = handler.__name__
    return wrapped


# ---- sign in / out -------------------------------------------------------------------------------
async def home(request: Request) -> Response:
    try:
        await _user(request)
    except NotSignedIn:
        return _redirect(request, "signin")
    return _redirect(request, "chat")


async def signin(request: Request) -> Response:
    """GET: the form. POST ``key``: the API key ``memory-agent users add`` printed → the session."""
    if request.method == "GET":
        return _render(request, "signin.html")
    form = await request.form()
    key = str(form.get("key") or "").strip()
    user = await run_in_threadpool(accounts.authenticate, request.app.state.settings, key) if key else None
    if not user:
        return _render(request, "signin.html", 401, error="That key is not valid. Paste the key that "
                       "`memory-agent users add YOUR_ID` printed, or ask for a new one.")
    request.session.clear()
    request.session["user"] = user
    return _redirect(request, "chat")


async def signout(request: Request) -> Response:
    request.session.clear()
    return _redirect(request, "signin")


# ---- chat ------------------------------------------------------------------------------------------
@signed_in
async def chat(request: Request, user: str) -> Response:
    """The conversation ``?thread=`` (a new one without it), its transcript and the user's threads."""
    thread = request.query_params.get("thread")
    if thread is None:
        return _redirect(request, "chat", thread=uuid.uuid4().hex[:12])
    thread = _thread(thread)
    agent = await _agent(request)

    def load() -> dict[str, Any]:
        if agent.unfinished(user, thread):  # a turn cut short between nodes (a crash, a killed worker)
            with request.app.state.agents.user_lock(user):
                agent.finish_interrupted(user, thread)
        messages = [{"role": "you" if m.type == "human" else "agent", "text": m.content}
                    for m in agent.transcript(user, thread) if m.type in ("human", "ai")]
        return {"messages": messages, "threads": list(reversed(agent.threads(user))),
                "pending": agent.pending(user, thread)}

    return await _page(request, user, "chat.html", thread=thread, **(await run_in_threadpool(load)))


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@signed_in
async def send(request: Request, user: str) -> Response:
    """POST ``thread``, ``message``: run one turn. With ``Accept: text/event-stream`` (the page's
    script) the answer streams as server-sent events ``token`` ``{"text"}``, then ``done``
    ``{"pending": n, "committed": n, "url"}`` or ``error`` ``{"message"}``; otherwise the turn runs
    and the browser is sent back to the conversation."""
    form = await request.form()
    thread = _thread(form.get("thread"))
    text = str(form.get("message") or "")
    agent = await _agent(request)
    lock = request.app.state.agents.user_lock(user)
    back = str(request.url_for("chat")) + f"?thread={thread}"
    agent.check_message(text)  # InputError before anything streams

    if "text/event-stream" not in request.headers.get("accept", ""):
        def run() -> None:
            with lock:
                agent.turn(user, text, thread_id=thread)
        await run_in_threadpool(run)
        return RedirectResponse(back, status_code=303)

    def events() -> Iterator[str]:  # iterated in a worker thread by StreamingResponse
        with lock:
            committed = 0
            try:
                for node, update, _seconds in agent.stream_turn(user, text, thread_id=thread, tokens=True):
                    if node == ANSWER_TOKEN:
                        yield _sse("token", {"text": update["text"]})
                    elif node == "load_memory":
                        yield _sse("memories", {"count": len(update.get("memories") or [])})
                    elif node == "commit":
                        committed = len(update.get("committed") or [])
                pending = len(agent.pending(user, thread))
            except (InputError, PendingApprovalError, ValueError) as exc:
                yield _sse("error", {"message": str(exc)})
                return
            except Exception as exc:  # the stream has started: report the failure in it
                yield _sse("error", {"message": f"The turn failed: {type(exc).__name__}: {exc}"})
                return
            yield _sse("done", {"pending": pending, "committed": committed, "url": back})

    return StreamingResponse(events(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})


@signed_in
async def end_session(request: Request, user: str) -> Response:
    form = await request.form()
    thread = _thread(form.get("thread"))
    await run_in_threadpool((await _agent(request)).end_session, user, thread)
    return _redirect(request, "chat")


# ---- approvals -------------------------------------------------------------------------------------
@signed_in
async def approvals(request: Request, user: str) -> Response:
    """Every thread of the user that waits at an approval, with its proposals."""
    agent = await _agent(request)

    def load() -> list[dict[str, Any]]:
        out = []
        for t in agent.threads(user):
            if t["pending"]:
                proposals = agent.pending(user, t["thread_id"])  # in the order of the request's actions
                out.append({"thread_id": t["thread_id"],
                            "proposals": [{**p, "why": review.why_risky(p)} for p in proposals]})
        return out

    return await _page(request, user, "approvals.html", waiting=await run_in_threadpool(load))


@signed_in
async def decide(request: Request, user: str) -> Response:
    """POST per proposal ``action_<id>`` (approve | edit | reject), ``content_<id>`` (for edit) and
    ``message_<id>`` (why, for reject): resumed as a ``HITLResponse``, one decision per action in the
    order of the thread's approval request (``memory_agent.memory.review.hitl_response``)."""
    thread = _thread(request.path_params["thread"])
    form = await request.form()
    agent = await _agent(request)

    def run() -> None:
        with request.app.state.agents.user_lock(user):
            pending = agent.pending(user, thread)
            if not pending:
                raise InputError("Nothing waits for approval in that conversation (it may have been answered).")
            decisions = []
            for p in pending:
                action = str(form.get(f"action_{p['id']}") or "")
                if action not in ("approve", "edit", "reject"):
                    raise InputError(f"Choose approve, edit or reject for “{p['content']}”.")
                decision = {"proposal_id": p["id"], "action": action}
                if action == "edit":
                    decision["content"] = str(form.get(f"content_{p['id']}") or "")
                if action == "reject" and str(form.get(f"message_{p['id']}") or "").strip():
                    decision["message"] = str(form.get(f"message_{p['id']}"))
                decisions.append(decision)
            agent.resume(user, thread, review.hitl_response(decisions, pending))  # LangChain's HITL decisions

    await run_in_threadpool(run)
    return _redirect(request, "memories")


# ---- memory dashboard --------------------------------------------------------------------------
@signed_in
async def memories(request: Request, user: str) -> Response:
    """Profile, preferences, recent sessions and every live fact with provenance and validity."""
    agent = await _agent(request)
    now = _now()

    def load() -> dict[str, Any]:
        listed = control.list_memories(agent, user)
        facts = listed["facts"]
        profile = [f for f in facts if f["kind"] in profile_kinds() and f["kind"] != "preference"]
        return {"facts": facts, "profile": profile, "preferences": [f for f in facts if f["kind"] == "preference"],
                "sessions": control.recent_sessions(agent, user, now, limit=5)}

    return await _page(request, user, "memories.html", **(await run_in_threadpool(load)))


@signed_in
async def history(request: Request, user: str) -> Response:
    agent = await _agent(request)
    fact_id = request.path_params["fact_id"]
    chain = await run_in_threadpool(control.memory_history, agent, user, fact_id)
    return await _page(request, user, "history.html", fact_id=fact_id, chain=chain["chain"])


@signed_in
async def edit(request: Request, user: str) -> Response:
    form = await request.form()
    agent = await _agent(request)

    def run() -> None:
        with request.app.state.agents.user_lock(user):
            control.edit_memory(agent, user, request.path_params["fact_id"], str(form.get("content") or ""), _now())

    await run_in_threadpool(run)
    return _redirect(request, "memories")


@signed_in
async def delete(request: Request, user: str) -> Response:
    agent = await _agent(request)

    def run() -> None:
        with request.app.state.agents.user_lock(user):
            control.delete_memory(agent, user, request.path_params["fact_id"], _now())

    await run_in_threadpool(run)
    return _redirect(request, "memories")


@signed_in
async def switch(request: Request, user: str) -> Response:
    form = await request.form()
    enabled = form.get("enabled") == "on"
    await run_in_threadpool(control.set_memory_enabled, await _agent(request), user, enabled, _now())
    return _redirect(request, "memories")


@signed_in
async def export_json(request: Request, user: str) -> Response:
    """Everything kept about the user (:func:`memory_agent.app.export.export_user`) as a JSON download."""
    data = await run_in_threadpool(export.export_user, await _agent(request), user)
    body = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    return Response(body, media_type="application/json",
                    headers={"content-disposition": 'attachment; filename="memory-export.json"'})


@signed_in
async def forget_everything(request: Request, user: str) -> Response:
    """POST ``confirm`` = ``delete everything``: revoke the user's keys, erase the user from every
    store (:func:`memory_agent.app.erasure.forget_user`) and show what was removed; the session ends."""
    form = await request.form()
    if str(form.get("confirm") or "").strip().lower() != "delete everything":
        raise InputError("Type “delete everything” in the box to confirm; nothing was deleted.")
    agent = await _agent(request)
    settings = request.app.state.settings

    def run() -> tuple[int, dict[str, Any]]:
        with request.app.state.agents.user_lock(user):
            revoked = accounts.revoke_keys(settings, user)
            report = erasure.forget_user(agent, user, _now(), check=False)
            return revoked, report.as_dict()

    revoked, report = await run_in_threadpool(run)
    request.session.clear()
    return _render(request, "forgotten.html", revoked=revoked, report=report)


def routes() -> list[Route]:
    """The URL map (names are used by ``url_for`` in the templates)."""
    return [
        Route("/", home, name="home"),
        Route("/signin", signin, methods=["GET", "POST"], name="signin"),
        Route("/signout", signout, methods=["POST"], name="signout"),
        Route("/chat", chat, name="chat"),
        Route("/chat/send", send, methods=["POST"], name="send"),
        Route("/chat/end", end_session, methods=["POST"], name="end_session"),
        Route("/approvals", approvals, name="approvals"),
        Route("/approvals/{thread}", decide, methods=["POST"], name="decide"),
        Route("/memories", memories, name="memories"),
        Route("/memories/export.json", export_json, name="export"),
        Route("/memories/switch", switch, methods=["POST"], name="switch"),
        Route("/memories/forget", forget_everything, methods=["POST"], name="forget"),
        Route("/memories/{fact_id}/history", history, name="history"),
        Route("/memories/{fact_id}/edit", edit, methods=["POST"], name="edit"),
        Route("/memories/{fact_id}/delete", delete, methods=["POST"], name="delete"),
    ]
