"""The web page in a real browser: Debian's Chromium, headless, driven by Playwright's Python package
(no browser is downloaded: ``executable_path`` points at the system's ``chromium``).

The page is the real app (:func:`memory_agent.web.create_app`) served by uvicorn on a free loopback
port, on real stores in ``tmp_path`` with the real accounts (API keys); the chat model is the
scripted fake of ``conftest`` (streaming its reply word by word), the only fake.

Needs the ``web`` and ``e2e`` extras and ``chromium`` on the PATH (``.ci/run`` installs it); skipped
without them, except in CI (``CI=true``), where a missing browser fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ScriptedChatModel, plant
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

uvicorn = pytest.importorskip("uvicorn", reason="needs the web extra: pip install -e '.[web]'")
playwright_api = pytest.importorskip("playwright.sync_api", reason="needs the e2e extra: pip install -e '.[e2e]'")

from memory_agent.app import accounts, control  # noqa: E402
from memory_agent.app.agent import MemoryAgent  # noqa: E402
from memory_agent.app.settings import Settings  # noqa: E402
from memory_agent.web import create_app  # noqa: E402

CHROMIUM = os.environ.get("MEMORY_AGENT_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    if os.environ.get("CI") == "true":
        raise RuntimeError("chromium is not installed; .ci/run installs Debian's chromium package")
    pytest.skip("needs Chromium: apt-get install chromium", allow_module_level=True)

ALICE, BOB = "alice@example.com", "bob@example.com"
REPLY = "Thanks, I will keep that in mind for dinner ideas."
XSS = "<img src=x onerror=alert(1)>"


class StreamingScriptedModel(ScriptedChatModel):
    """The scripted fake, streaming :attr:`reply` one word at a time (as a provider's model does)."""

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        self.answer_prompts.append(list(messages))
        words = self.reply.split(" ")
        for i, word in enumerate(words):
            text = word if i == len(words) - 1 else word + " "
            if run_manager:
                run_manager.on_llm_new_token(text)
            yield ChatGenerationChunk(message=AIMessageChunk(content=text))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def site(tmp_path: Path, embedder) -> Iterator[dict]:
    """The page on a free loopback port with users alice and bob (their keys), stopped at teardown."""
    settings = Settings(data_dir=tmp_path / "data")
    keys = {ALICE: accounts.issue_key(settings, ALICE), BOB: accounts.issue_key(settings, BOB)}
    model = StreamingScriptedModel(reply=REPLY)
    model.script["vegetarian"] = [{"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}]
    agent = MemoryAgent.open(settings, model=model, embedder=embedder)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings, agent=agent), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped before it started"
        time.sleep(0.05)
    try:
        yield {"url": f"http://127.0.0.1:{port}", "keys": keys, "agent": agent, "settings": settings}
    finally:
        server.should_exit = True
        thread.join()
        agent.close()


@pytest.fixture
def browser() -> Iterator:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def _sign_in(browser, site: dict, user: str):
    """A fresh browser context signed in as ``user`` through the form; returns ``(context, page, dialogs)``."""
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(site["url"] + "/")
    assert page.url.endswith("/signin")
    page.fill("#key", site["keys"][user])
    page.click("button:has-text('Sign in')")
    page.wait_for_url(re.compile(r"/chat\?thread="))
    return context, page, dialogs


def _chat_turn(page, text: str) -> str:
    """Send ``text`` from the chat page; returns the thread id once the page came back after the turn."""
    thread = page.url.split("thread=")[1]
    page.fill("#message", text)
    with page.expect_navigation(), page.expect_response(lambda r: r.url.endswith("/chat/send")) as sent:
        page.click("#send-button")  # the page's script posts it and reloads the conversation when done
    assert sent.value.headers["content-type"].startswith("text/event-stream")  # the script's streamed request
    return thread


def _csrf(page) -> str:
    return page.locator("input[name=csrftoken]").first.get_attribute("value")


def test_sign_in_chat_approve_with_edit_dashboard_delete_and_forget(site, browser):
    context, page, dialogs = _sign_in(browser, site, ALICE)
    agent = site["agent"]
    assert page.locator("#memory-state").inner_text() == "on"

    # a chat turn: the reply is streamed into the page, then the turn waits for approval
    thread = _chat_turn(page, "I'm vegetarian and I cook most evenings.")
    assert page.locator("#transcript .msg.agent").last.inner_text() == REPLY
    assert page.locator("#pending-banner").is_visible()

    # the approval, with an edit of the wording; evidence and source are shown
    page.click("text=Review")
    card = page.locator(".proposal").first
    assert "The user is vegetarian." in card.inner_text()
    assert "I'm vegetarian and I cook most evenings." in card.locator("blockquote").inner_text()
    assert thread in card.inner_text()
    card.locator("input[value=edit]").check()
    card.locator("textarea").fill("The user is vegetarian but eats fish.")
    page.click("text=Submit decisions")
    page.wait_for_url(re.compile(r"/memories$"))

    # the dashboard: the edited memory as a preference and in the table, with its evidence
    assert "The user is vegetarian but eats fish." in page.locator(".card:has(h2:text('Preferences'))").inner_text()
    row = page.locator("tr.fact").first
    assert "The user is vegetarian but eats fish." in row.inner_text()
    assert "I'm vegetarian and I cook most evenings." in row.inner_text()
    live = control.list_memories(agent, ALICE)["facts"]
    assert [f["content"] for f in live] == ["The user is vegetarian but eats fish."]

    # a stored memory holding markup is shown as text and runs nothing
    planted = plant(agent.memory, ALICE, XSS)
    page.reload()
    xss_row = page.locator(f"tr.fact[data-fact='{planted.id}']")
    assert xss_row.locator(".fact-content").inner_text() == XSS
    assert page.locator("#facts img").count() == 0
    assert dialogs == []

    # history of a fact: the edit is one more version of it
    page.locator(f"tr.fact[data-fact='{live[0]['id']}'] >> text=History").click()
    assert page.locator(".fact-content").all_inner_texts()[-1] == "The user is vegetarian but eats fish."
    page.go_back()

    # delete one
    xss_row.locator("button.delete").click()
    page.wait_for_url(re.compile(r"/memories$"))
    assert page.locator(f"tr.fact[data-fact='{planted.id}']").count() == 0
    assert [f["id"] for f in control.list_memories(agent, ALICE)["facts"]] == [live[0]["id"]]

    # export: a JSON download of everything kept
    with page.expect_download() as download:
        page.click("#export")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["user_id"] == ALICE
    assert [t["thread_id"] for t in exported["threads"]] == [thread]

    # the off switch, shown in the header
    page.click("#memory-off")
    assert page.locator("#memory-state").inner_text() == "off"
    assert agent.memory.ledger.memory_enabled(ALICE) is False

    # delete everything: what was removed is shown, the keys are revoked and the session ends
    page.fill("#forget input[name=confirm]", "delete everything")
    page.click("#forget button")
    page.wait_for_selector("#forgotten")
    assert page.locator("#scan-clean").is_visible()
    shown = page.locator("#forgotten").inner_text()
    assert re.search(r"checkpoint_threads\s+1", shown) and re.search(r"live_index\s+1", shown), shown
    assert control.list_memories(agent, ALICE)["facts"] == []
    assert accounts.authenticate(site["settings"], site["keys"][ALICE]) is None
    page.goto(site["url"] + "/memories")
    assert page.url.endswith("/signin")
    assert dialogs == []
    context.close()


def test_second_user_sees_nothing_of_the_first_and_cannot_act_on_her_ids(site, browser):
    agent = site["agent"]
    a_ctx, a_page, _ = _sign_in(browser, site, ALICE)
    a_thread = _chat_turn(a_page, "I'm vegetarian.")  # waits for approval
    fact = plant(agent.memory, ALICE, "The user's locker code is 4471.")

    b_ctx, b_page, _ = _sign_in(browser, site, BOB)
    for path in ("/memories", "/approvals", "/chat"):
        b_page.goto(site["url"] + path)
        text = b_page.content()
        for secret in ("4471", a_thread, "vegetarian", ALICE, fact.id):
            assert secret not in text, (path, secret)
    token = _csrf(b_page)
    for path, form, status in (
        (f"/memories/{fact.id}/delete", {}, 404),
        (f"/memories/{fact.id}/edit", {"content": "The user's locker code is 0000."}, 404),
        (f"/approvals/{a_thread}", {}, 400),
    ):
        resp = b_page.request.post(site["url"] + path, form={"csrftoken": token, **form})
        assert resp.status == status, (path, resp.status)
        assert "4471" not in resp.text()
    assert b_page.request.get(f"{site['url']}/memories/{fact.id}/history").status == 404
    b_page.goto(f"{site['url']}/chat?thread={a_thread}")  # the same thread id names bob's own, empty thread
    assert b_page.locator("#transcript .msg").count() == 0
    assert "vegetarian" not in b_page.content()

    # nothing of alice's changed
    assert [f["id"] for f in control.list_memories(agent, ALICE)["facts"]] == [fact.id]
    assert len(agent.pending(ALICE, a_thread)) == 1

    # alice rejects it, saying why: the reason is kept in the audit log, nothing is remembered
    a_page.goto(site["url"] + "/approvals")
    card = a_page.locator(".proposal").first
    card.locator("input[value=reject]").check()
    card.locator("input[name^=message_]").fill("Only this week, not for good.")
    with a_page.expect_navigation():
        a_page.click("text=Submit decisions")
    assert agent.pending(ALICE, a_thread) == []
    assert [f["id"] for f in control.list_memories(agent, ALICE)["facts"]] == [fact.id]
    audit = control.memory_history(agent, ALICE)["audit"]
    assert any("Only this week, not for good." in json.dumps(row, default=str) for row in audit)
    a_ctx.close()
    b_ctx.close()


def test_post_without_csrf_token_is_refused(site, browser):
    context, page, _ = _sign_in(browser, site, ALICE)
    for form in ({"enabled": "off"}, {"enabled": "off", "csrftoken": "forged"}):
        resp = page.request.post(site["url"] + "/memories/switch", form=form)
        assert resp.status == 403
    assert site["agent"].memory.ledger.memory_enabled(ALICE) is True
    # a sign-in posted from elsewhere (no cookie at all) is refused too
    other = browser.new_context()
    resp = other.request.post(site["url"] + "/signin", form={"key": site["keys"][BOB]})
    assert resp.status == 403
    other.close()
    context.close()


def test_page_mounted_in_langgraph_dev(tmp_path, browser):
    """``"http": {"app": ".../memory_agent/web/mount.py:app"}`` in ``langgraph.json``: ``langgraph dev`` serves
    the page under /web/ next to the API, on the graph's stores (a turn, its approval, the memory on the
    dashboard), and the API still answers its own clients."""
    pytest.importorskip("langgraph_api", reason="needs the studio extra: pip install -e '.[studio]'")
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    config = json.loads((root / "langgraph.json").read_text())
    config["dependencies"] = [str(root)]
    config["http"] = {"app": f"{root / 'memory_agent' / 'web' / 'mount.py'}:app"}
    (tmp_path / "langgraph.json").write_text(json.dumps(config))
    data_dir = tmp_path / "data"
    key = accounts.issue_key(Settings(data_dir=data_dir), ALICE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_AGENT_")}
    env.update({"MEMORY_AGENT_DATA_DIR": str(data_dir), "LANGGRAPH_CLI_NO_ANALYTICS": "1",
                "LANGGRAPH_NO_VERSION_CHECK": "1", "LANGSMITH_TRACING": "false", "HF_HUB_OFFLINE": "1",
                "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"})
    port = _free_port()
    log = tmp_path / "server.log"
    cmd = [str(Path(sys.executable).parent / "langgraph"), "dev", "--config", str(tmp_path / "langgraph.json"),
           "--host", "127.0.0.1", "--port", str(port), "--no-browser", "--no-reload"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        page = browser.new_page()
        for _ in range(180):
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                page.goto(url + "/web/signin")
                break
            except playwright_api.Error:
                time.sleep(0.5)
        page.fill("#key", key)
        page.click("button:has-text('Sign in')")
        page.wait_for_url(re.compile(r"/chat\?thread="))
        _chat_turn(page, "I'm vegetarian.")
        page.click("text=Review")
        with page.expect_navigation():
            page.click("text=Submit decisions")
        assert "The user is vegetarian." in page.locator("#facts").inner_text()
        assert page.url.startswith(url + "/web/")
        # the LangGraph API beside it is untouched by the page's middleware (CSRF, Host, session)
        created = page.request.post(url + "/threads", data={}, headers={"x-api-key": key})
        assert created.status == 200, created.text()
        assert page.request.post(url + "/threads", data={}).status in (401, 403)  # and keeps its own auth
        page.close()
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
    assert "BlockingError" not in log.read_text()
