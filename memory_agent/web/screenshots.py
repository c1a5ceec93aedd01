"""Regenerate the screenshots of the web page in ``docs/img/``: ``python -m memory_agent.web.screenshots``.

Serves the page (:func:`memory_agent.web.create_app`) on a free loopback port over a fresh data
folder with the offline model, signs in a demo user with a key from
:func:`memory_agent.app.accounts.issue_key`, and drives Chromium headless through the pages with
Playwright, as a person would: two conversations, approvals (one an update: old → new), the memory
dashboard, the history of a memory and delete-everything. Each page is saved as ``web-<page>.png``.

Needs the ``e2e`` extra (Playwright's Python package) and a Chromium on the machine (Debian's
``chromium``; ``--chromium PATH`` for another); no browser is downloaded.

Exit codes: 0 written, 2 Playwright or Chromium missing (the message says what to install).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from memory_agent.app import accounts
from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.web.app import create_app

USER = "alice@example.com"
WIDTH, HEIGHT = 1100, 760


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _say(page, text: str) -> None:
    page.fill("#message", text)
    with page.expect_navigation():
        page.click("#send-button")


def _approve_all(page, base: str) -> None:
    page.goto(base + "/approvals")
    with page.expect_navigation():
        page.click("text=Submit decisions")


def capture(out: Path, chromium: str) -> list[Path]:
    """Write the PNGs into ``out``; returns their paths.

    Raises:
        ImportError: Playwright or uvicorn is not installed.
    """
    import uvicorn
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder) / "data", model="offline")
        key = accounts.issue_key(settings, USER)
        agent = MemoryAgent.open(settings)
        port = _free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(settings, agent=agent), host="127.0.0.1", port=port,
                                               log_level="warning", lifespan="off"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the web server stopped before it started")
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})

                def shot(name: str) -> None:
                    path = out / f"web-{name}.png"
                    page.screenshot(path=str(path), full_page=True)
                    written.append(path)

                page.goto(base + "/signin")
                shot("signin")
                page.fill("#key", key)
                with page.expect_navigation():
                    page.click("button:has-text('Sign in')")
                page.goto(base + "/chat?thread=first-visit")
                _say(page, "I live in Paris and I'm vegetarian.")
                _approve_all(page, base)
                page.goto(base + "/chat?thread=first-visit")
                _say(page, "I prefer tea over coffee.")
                _approve_all(page, base)
                page.goto(base + "/chat?thread=first-visit")
                with page.expect_navigation():
                    page.click("text=End this session")
                page.goto(base + "/chat?thread=moving-day")
                _say(page, "I moved to Lyon and I'm allergic to peanuts.")
                shot("chat")
                page.goto(base + "/approvals")
                shot("approvals")
                with page.expect_navigation():
                    page.click("text=Submit decisions")
                shot("memories")
                page.locator("tr.fact:has-text('Lyon') >> text=History").click()
                shot("history")
                page.goto(base + "/memories")
                page.fill("#forget input[name=confirm]", "delete everything")
                with page.expect_navigation():
                    page.click("#forget button")
                shot("forgotten")
                browser.close()
        finally:
            server.should_exit = True
            thread.join()
            agent.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"), help="folder of the PNGs (default docs/img)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"),
                        help="the Chromium executable (default: chromium on the PATH)")
    args = parser.parse_args(argv)
    if not args.chromium:
        print("No Chromium found: apt-get install chromium, or pass --chromium PATH.", file=sys.stderr)
        return 2
    try:
        paths = capture(args.out, args.chromium)
    except ImportError as exc:
        print(f"{exc.name} is missing: pip install -e '.[e2e]'", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
