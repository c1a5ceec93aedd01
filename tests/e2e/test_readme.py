"""The README's Python snippet runs as written, its graph diagram matches the built graph, and every command
of the README and of ``docs/*.md`` is run by a test here, by another named test, or by ``.ci/run``."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from memory_agent.app import agent as agent_module

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
#: The README, then every page of docs/ (sorted by name): their bash blocks run in this order.
DOC_FILES = [Path(__file__).resolve().parents[2] / "README.md",
             *sorted((Path(__file__).resolve().parents[2] / "docs").glob("*.md"))]
DOCS = {path.name: path.read_text(encoding="utf-8") for path in DOC_FILES}
ALL_TEXT = "\n".join(DOCS.values())


def _block(language: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", README, re.DOTALL)
    assert blocks, f"no {language} block in the README"
    return blocks[0]


def test_python_snippet_runs_and_injects_the_fact(embedder, monkeypatch):
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)  # the same real embedder
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_block("python"), "README.md", "exec"), {})
    printed = out.getvalue()
    assert "The user is vegetarian." in printed  # first the pending proposal, then the injected memory
    assert "'score':" in printed


def test_diagram_is_the_built_graph():
    from memory_agent.graph.builder import build_graph
    from memory_agent.graph.diagram import mermaid, readme_block
    from memory_agent.models.offline.chat_model import OfflineChatModel

    drawn = build_graph(None, OfflineChatModel()).get_graph().draw_mermaid()
    assert "load_memory --> answer" in drawn and "human_approval --> commit" in drawn
    assert mermaid().rstrip("\n") == drawn.rstrip("\n")
    assert readme_block(README) == mermaid(), "stale diagram: run python -m memory_agent.graph.diagram README.md"


def test_diagram_command_rewrites_a_stale_block(tmp_path):
    from memory_agent.graph.diagram import main, mermaid, readme_block

    stale = tmp_path / "README.md"
    stale.write_text("# x\n\n```mermaid\ngraph TD;\n\ta --> b;\n```\n\nmore text\n", encoding="utf-8")
    assert main(["--check", str(stale)]) == 1
    assert main([str(stale)]) == 0
    text = stale.read_text(encoding="utf-8")
    assert readme_block(text) == mermaid() and text.startswith("# x\n") and text.endswith("more text\n")
    assert main(["--check", str(stale)]) == 0
    (tmp_path / "none.md").write_text("no diagram here\n", encoding="utf-8")
    assert main([str(tmp_path / "none.md")]) == 2


# ---------------------------------------------------------------------------------------------
# Every command in the README's bash blocks is run: here, by another named test, or by CI.
# ---------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def bash_commands() -> list[tuple[str, dict[str, str]]]:
    """``(command, exported variables)`` for every command line of the bash blocks of the README and
    ``docs/*.md`` (:data:`DOC_FILES` order).

    Comments are dropped; ``export A=1 B=2`` lines set variables for the rest of their block."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", ALL_TEXT, re.DOTALL):
        env: dict[str, str] = {}
        for raw in block.splitlines():
            line = re.sub(r"\s+#.*$", "", raw).strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("export "):
                env.update(item.split("=", 1) for item in shlex.split(line.removeprefix("export ")))
                continue
            out.append((line, dict(env)))
    return out


#: Commands run outside this file, and where.
REPLAY_TEST = "tests/integration/test_replay_bridge.py"
LOCAL_EXTRA = importlib.util.find_spec("xllamacpp") is not None
RUN_ELSEWHERE = {
    "make test": ".ci/run",
    "make install EXTRAS=dev,studio": ".ci/run",  # .ci/run installs dev,studio,local,web,e2e,bench
    "make install EXTRAS=dev,local": ".ci/run",
    "make install EXTRAS=dev,web": ".ci/run",
    "make install EXTRAS=dev,web,e2e": ".ci/run",
    "sudo apt-get install -y chromium": ".ci/run",  # .ci/run installs it like pgbouncer
    "make demo": ".ci/run",
    ".venv/bin/langgraph dev --no-browser": "tests/e2e/test_langgraph_dev.py",
    # the web page serves until stopped: the browser test starts it and drives every page
    ".venv/bin/memory-agent web": "tests/e2e/test_web.py",
    ".venv/bin/python -m memory_agent.web.screenshots": ".ci/run",
    # full eval runs, from the repository root where ../shared is: minutes each, so CI, not a test
    ".venv/bin/memory-agent eval scenarios ../shared/evals/scenarios_example.jsonl": ".ci/run",
    ".venv/bin/memory-agent eval scenarios evals/scenarios/examples.jsonl": ".ci/run",
    ".venv/bin/memory-agent eval locomo ../shared/datasets/locomo/locomo_dev.json": ".ci/run",
    ".venv/bin/memory-agent eval locomo-qa ../shared/datasets/locomo/locomo_dev.json --model offline -c conv-26":
        ".ci/run",
    # recording model output needs a hand answering the bridge; the test runs the same steps on a free port
    "python ../shared/tools/llm_bridge.py serve --port 18080 --queue /tmp/bridge --wait 3600 &": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/examples.jsonl --fixtures evals/recordings/examples.jsonl"
    " --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/memory_changes.jsonl --fixtures "
    "evals/recordings/memory_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run ../shared/evals/scenarios_example.jsonl --fixtures "
    "../shared/evals/recordings/scenarios_example.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/heldout_changes.jsonl --fixtures "
    "evals/recordings/heldout_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record redteam tests/data/redteam/sealed.jsonl --fixtures "
    "evals/recordings/redteam_sealed.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval redteam tests/data/redteam/sealed.jsonl --model "
    "'replay:evals/recordings/redteam_sealed.jsonl?answers=offline'": REPLAY_TEST,
    "python ../shared/tools/llm_bridge.py next --queue /tmp/bridge": REPLAY_TEST,
    "python ../shared/tools/llm_bridge.py answer ID --queue /tmp/bridge --file answer.json": REPLAY_TEST,
    ".venv/bin/memory-agent eval scenarios evals/scenarios/memory_changes.jsonl --model "
    "'replay:evals/recordings/memory_changes.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/final_changes.jsonl --fixtures "
    "evals/recordings/final_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record redteam tests/data/redteam/final.jsonl --fixtures "
    "evals/recordings/redteam_final.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval scenarios evals/scenarios/final_changes.jsonl --model "
    "'replay:evals/recordings/final_changes.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval redteam tests/data/redteam/final.jsonl --model "
    "'replay:evals/recordings/redteam_final.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/sixth_changes.jsonl --fixtures "
    "evals/recordings/sixth_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record redteam tests/data/redteam/sixth.jsonl --fixtures "
    "evals/recordings/redteam_sixth.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval scenarios evals/scenarios/sixth_changes.jsonl --model "
    "'replay:evals/recordings/sixth_changes.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval redteam tests/data/redteam/sixth.jsonl --model "
    "'replay:evals/recordings/redteam_sixth.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/seventh_changes.jsonl --fixtures "
    "evals/recordings/seventh_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record redteam tests/data/redteam/seventh.jsonl --fixtures "
    "evals/recordings/redteam_seventh.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval scenarios evals/scenarios/seventh_changes.jsonl --model "
    "'replay:evals/recordings/seventh_changes.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval redteam tests/data/redteam/seventh.jsonl --model "
    "'replay:evals/recordings/redteam_seventh.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/eighth_changes.jsonl --fixtures "
    "evals/recordings/eighth_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval record redteam tests/data/redteam/eighth.jsonl --fixtures "
    "evals/recordings/redteam_eighth.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval scenarios evals/scenarios/eighth_changes.jsonl --model "
    "'replay:evals/recordings/eighth_changes.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval redteam tests/data/redteam/eighth.jsonl --model "
    "'replay:evals/recordings/redteam_eighth.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval record run evals/scenarios/ninth_changes.jsonl --fixtures "
    "evals/recordings/ninth_changes.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval scenarios evals/scenarios/ninth_changes.jsonl --model "
    "'replay:evals/recordings/ninth_changes.jsonl?answers=offline'": REPLAY_TEST,
    ".venv/bin/memory-agent eval record redteam tests/data/redteam/thirteenth.jsonl --fixtures "
    "evals/recordings/redteam_thirteenth.jsonl --queue /tmp/bridge": REPLAY_TEST,
    ".venv/bin/memory-agent eval redteam tests/data/redteam/thirteenth.jsonl --model "
    "'replay:evals/recordings/redteam_thirteenth.jsonl?answers=offline'": REPLAY_TEST,
}


def test_every_readme_command_is_run_somewhere():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    dev_test = (ROOT / "tests" / "e2e" / "test_langgraph_dev.py").read_text(encoding="utf-8")
    for command, _env in bash_commands():
        if command in RUN_ELSEWHERE:
            continue
        assert command.startswith((".venv/bin/memory-agent ", ".venv/bin/python -m memory_agent.graph.diagram ")), (
            f"README/docs command {command!r} is run by no test: "
            "run it in tests/e2e/test_readme.py or list it in RUN_ELSEWHERE")
    assert 'export EXTRAS="${EXTRAS:-dev,studio,local,web,e2e,bench}"' in ci
    assert re.search(r"^make test$", ci, re.MULTILINE)
    assert re.search(r"^make demo", ci, re.MULTILINE)
    for script in set(re.findall(r"`python (benchmarks/\w+\.py)", ALL_TEXT)):  # quoted next to the figures
        assert re.search(rf"^\.venv/bin/python {script}", ci, re.MULTILINE), f"{script} is run neither here nor by CI"
    assert '"dev"' in dev_test and '"--no-browser"' in dev_test
    assert {c for c, _ in bash_commands()} >= set(RUN_ELSEWHERE), "RUN_ELSEWHERE lists a command the docs lost"
    replay_test = (ROOT / REPLAY_TEST).read_text(encoding="utf-8")
    verbs = ('"serve"', '"next"', '"answer"', '"record", "run"', '"scenarios"', "replay:")
    assert all(verb in replay_test for verb in verbs), "the replay test no longer runs the README's recording steps"
    for command, where in RUN_ELSEWHERE.items():
        if where == ".ci/run" and command.startswith(".venv/bin/"):
            assert re.search(rf"^{re.escape(command)}$", ci, re.MULTILINE), f"{command!r} is not in .ci/run"


def test_fork_it_points_to_files_that_exist():
    section = README.split("## Fork it", 1)[1].split("\n## ", 1)[0]
    for topic in ("prompts", "fact kind", "add a node", "swap a store"):
        assert topic in section, topic
    paths = re.findall(r"`([\w./-]+\.(?:py|md|example))`", section)
    assert len(paths) >= 8, paths
    for path in paths:
        assert (ROOT / path).is_file(), f"the Fork it section points to a missing file: {path}"


def test_layout_names_folders_and_import_paths_that_exist():
    section = DOCS["architecture.md"].split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:3] for line in section.splitlines() if line.startswith("| `")]
    assert len(rows) >= 10, rows
    for folders, import_path in rows:
        for folder in re.findall(r"`([\w./-]+)`", folders):
            assert (ROOT / folder).exists(), f"the Layout section names a missing path: {folder}"
        for module in re.findall(r"`(memory_agent[\w.]*)`", import_path):
            assert importlib.util.find_spec(module) is not None, f"the Layout section names {module}"


def test_diagram_command_as_written_in_the_readme(tmp_path):
    (command, _), = [(c, e) for c, e in bash_commands() if "memory_agent.graph.diagram" in c]
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    argv = [sys.executable, *shlex.split(command)[1:]]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "already up to date" in done.stdout
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == README


def _server_urls(request) -> dict[str, str] | None:
    """The README's example DATABASE_URL / CHROMA_URL mapped to this machine's test services (a schema
    of the session's Postgres database, a Chroma database of the test server); None without them."""
    chroma_url = os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL")
    if not chroma_url:
        return None
    import psycopg
    from conftest import SESSION_TAG, with_schema

    database_url = request.getfixturevalue("postgres_database")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS readme")
    return {"DATABASE_URL": with_schema(database_url, "readme"), "CHROMA_URL": chroma_url,
            "MEMORY_AGENT_CHROMA_DATABASE": f"readme_{SESSION_TAG}"}


def test_readme_cli_commands_run_as_written(embedder, tmp_path, monkeypatch, request):
    """The README's ``memory-agent`` commands, in order, in a fresh folder (so the default data folder
    ``./.memory_agent``), in-process with the real embedder; placeholders (T, FACT_ID, FILE) are
    filled in from earlier output; OpenAI models talk to a fake OpenAI-compatible server."""
    from conftest import FakeOpenAI
    from typer.testing import CliRunner

    from memory_agent.cli.app import app
    from memory_agent.models import embeddings as embeddings_module

    monkeypatch.setattr(embeddings_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)
    for name in [n for n in os.environ if n.startswith(("MEMORY_AGENT_", "OPENAI_"))]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    scenarios = tmp_path / "scenarios.jsonl"
    first_line = (ROOT / "evals" / "scenarios" / "examples.jsonl").read_text(encoding="utf-8").splitlines()[0]
    scenarios.write_text(first_line + "\n", encoding="utf-8")
    fake = FakeOpenAI()
    runner = CliRunner()
    fill: dict[str, str] = {"FILE": str(scenarios)}
    ran, skipped = [], []
    servers = _server_urls(request)
    try:
        for command, env in bash_commands():
            if not command.startswith(".venv/bin/memory-agent ") or command in RUN_ELSEWHERE:
                continue
            argv = [fill.get(a.strip("[]"), a) for a in shlex.split(command)[1:]]
            if "--model" in argv and argv[argv.index("--model") + 1] == "local" and not LOCAL_EXTRA:
                skipped.append(command)  # needs the `local` extra, which .ci/run installs
                continue
            if "DATABASE_URL" in env or "CHROMA_URL" in env:  # the production example: this machine's servers
                if servers is None:
                    skipped.append(command)  # CI starts a Chroma server (MEMORY_AGENT_TEST_CHROMA_URL)
                    continue
                env = {**env, **servers}
            env = {k: fake.url if v.startswith("http://127.0.0.1:") else v for k, v in env.items()}
            if "--model" in argv and argv[argv.index("--model") + 1].startswith("openai:"):
                env.setdefault("OPENAI_BASE_URL", fake.url)  # the first OpenAI example would go to api.openai.com
            first_chat = "chat" in argv and "--thread" not in argv and "T" not in fill and "--model" not in argv
            if "--thread" in argv:
                stdin = "/approve\n/exit\n"  # approve what the first chat left pending
            elif first_chat:
                stdin = "I live in Oslo.\n/exit\n"  # leave at the approval prompt: the proposal stays pending
            else:
                stdin = "Hello there.\n/exit\n"
            result = runner.invoke(app, argv, input=stdin if "chat" in argv else None, env={"COLUMNS": "200", **env})
            assert result.exit_code == 0, f"{command}\n{result.output}"
            ran.append((command, result.output))
            if first_chat:
                fill["T"] = re.search(r"thread (\S+)", result.output).group(1)
            if argv[:2] == ["memories", "list"] and "FACT_ID" not in fill:
                listed = runner.invoke(app, [*argv, "--json"])
                fill["FACT_ID"] = json.loads(listed.output)[0]["id"]
    finally:
        fake.server.shutdown()
    outputs = dict(ran)
    assert len(ran) + len(skipped) == sum(c.startswith(".venv/bin/memory-agent ") and c not in RUN_ELSEWHERE
                                          for c, _ in bash_commands())
    assert len(skipped) <= 2  # the two production-backend commands, when no servers are set up
    resumed = next(o for c, o in ran if "--thread" in c)
    assert "written: The user lives in Oslo." in resumed  # the approval left pending by the first chat
    listed = next(o for c, o in ran if "memories list" in c)
    assert "The user lives in Oslo." in listed
    assert any("Here is my answer." in o for c, o in ran if "openai:" in c)  # the fake server answered
    assert "Effective settings" in outputs[".venv/bin/memory-agent config"]
