"""The ``memory-agent`` CLI end to end: real SQLite + Chroma in a temp folder, the real MiniLM
embedder (one instance shared by every invocation, see ``shared_embedder``) and the default
offline model. Each ``chat`` invocation opens and closes the agent, as separate processes would;
one step of the pending-approval test runs in a real subprocess.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from memory_agent.app import agent as agent_module
from memory_agent.cli.app import app
from memory_agent.models import embeddings as embeddings_module
from memory_agent.models.embeddings import EmbedderInfo
from memory_agent.stores.data_dir import DataDir

ROOT = Path(__file__).resolve().parents[3]
USER = "Zoë Müller@example.com"  # '@', '.', a space and non-ASCII letters
WIDE = {"COLUMNS": "200"}

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def shared_embedder(embedder: EmbedderInfo, tmp_path_factory) -> Iterator[None]:
    """Every CLI invocation gets the session's (real) embedder instead of loading its own, runs in
    an empty folder (no stray ``.env``) and sees no ``MEMORY_AGENT_*`` variables of the caller."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(embeddings_module, "load_embedder", lambda *a, **k: embedder)
        mp.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)
        for name in list(os.environ):
            if name.startswith("MEMORY_AGENT_"):
                mp.delenv(name)
        mp.chdir(tmp_path_factory.mktemp("cwd"))
        yield


def invoke(data_dir: Path, *args: str, input: str | None = None, env: dict | None = None):
    """Run the CLI in-process with ``--data-dir data_dir``."""
    return runner.invoke(app, ["--data-dir", str(data_dir), *args], input=input, env={**WIDE, **(env or {})})


def thread_of(output: str) -> str:
    """The thread id the chat printed at its start."""
    match = re.search(r"thread (\S+)", output)
    assert match, output
    return match.group(1)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> dict:
    """A data folder where USER said "I'm vegetarian." in one chat and approved the proposal."""
    data = tmp_path_factory.mktemp("shared") / "data"
    result = invoke(data, "chat", "--user", USER, input="I'm vegetarian.\n/approve\n/exit\n")
    assert result.exit_code == 0, result.output
    return {"data": data, "output": result.output, "thread": thread_of(result.output)}


def live_facts(data: Path, user: str) -> list[dict]:
    result = invoke(data, "memories", "list", "--user", user, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# ---------------------------------------------------------------------------------------------


def test_help_says_the_offline_model_is_not_a_language_model():
    result = runner.invoke(app, ["--help"], env=WIDE)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "NOT a language model" in text
    assert "openai:gpt-4o-mini" in text
    assert "always|risky-only|never" in text


def test_chat_approved_fact_is_listed(seeded):
    out = seeded["output"]
    assert re.fullmatch(r"[0-9a-f]{32}", seeded["thread"])  # a new thread id, printed for coming back
    assert "--thread " + seeded["thread"] in out
    assert "Proposed memory 1/1: ADD preference" in out
    assert 'evidence: "I\'m vegetarian"' in out
    assert "written: The user is vegetarian." in out
    # the answer is printed before the approval question (it does not wait for propose_facts)
    assert out.index("assistant:") < out.index("Proposed memory")

    table = invoke(seeded["data"], "memories", "list", "--user", USER)
    assert table.exit_code == 0, table.output
    assert "The user is vegetarian." in table.output
    assert USER in table.output
    facts = live_facts(seeded["data"], USER)
    assert [f["content"] for f in facts] == ["The user is vegetarian."]
    assert facts[0]["user_id"] == USER


def test_new_thread_recalls_the_fact(seeded):
    result = invoke(seeded["data"], "chat", "--user", USER,
                    input="Plan a dinner for four friends on Saturday.\n/exit\n")
    assert result.exit_code == 0, result.output
    assert thread_of(result.output) != seeded["thread"]
    assert "remembered: [preference] The user is vegetarian." in result.output
    answer = next(line for line in result.output.splitlines() if "assistant:" in line)
    assert "vegetarian" in answer
    assert "Proposed memory" not in result.output  # a request, not a fact about the user
    # another user sees nothing of USER's memories
    assert live_facts(seeded["data"], "zoë müller@example.com") == []


def test_chat_streams_the_answer_after_the_tool_calls(seeded):
    result = invoke(seeded["data"], "chat", "--user", USER,
                    input="Search my memories for my diet. What time is it? I live in Munich.\n/reject\n/exit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "tool: search_memories(query='my diet')" in out and "tool: current_time()" in out
    answers = [line for line in out.splitlines() if "assistant:" in line]
    assert len(answers) == 1 and "The user is vegetarian" in answers[0] and "current_time:" in answers[0]
    assert out.index("tool: current_time()") < out.index("assistant:") < out.index("Proposed memory")


def test_show_and_history_outputs_parse(seeded):
    data = seeded["data"]
    fact_id = live_facts(data, USER)[0]["id"]

    shown = json.loads(invoke(data, "memories", "show", fact_id, "--user", USER, "--json").output)
    assert shown["id"] == fact_id and shown["status"] == "confirmed"
    assert shown["source"]["thread_id"] == seeded["thread"]  # the id the user typed, not the checkpointer key
    assert shown["source"]["message_ids"] and shown["evidence"] == "I'm vegetarian"

    table = invoke(data, "memories", "show", fact_id, "--user", USER)
    assert table.exit_code == 0, table.output
    for field in ("evidence", "message ids", "thread", "superseded_by", "I'm vegetarian"):
        assert field in table.output
    assert re.search(rf"thread\s+{seeded['thread']}\s*$", table.output, re.MULTILINE)  # the id the user typed

    everything = json.loads(invoke(data, "memories", "history", "--user", USER, "--json").output)
    assert [f["id"] for f in everything["facts"]] == [fact_id]
    approved = [row for row in everything["audit"] if row["decision"] == "approved"]
    assert [row["fact_id"] for row in approved] == [fact_id]
    assert approved[0]["proposal"]["evidence"] == "I'm vegetarian"

    chain = json.loads(invoke(data, "memories", "history", fact_id, "--user", USER, "--json").output)
    assert [f["id"] for f in chain["chain"]] == [fact_id]

    missing = invoke(data, "memories", "show", "f_nope", "--user", USER)
    assert missing.exit_code == 1 and "No fact f_nope" in missing.output
    other_user = invoke(data, "memories", "show", fact_id, "--user", "bob")
    assert other_user.exit_code == 1  # ids do not leak across users


def test_update_with_edit_supersedes(seeded):
    data, user = seeded["data"], "carol"
    result = invoke(data, "chat", "--user", user,
                    input="I'm vegetarian.\n/a\nActually, I'm vegan now.\n/edit\nThe user is vegan.\n/exit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "UPDATE preference RISKY" in out
    assert "update:   The user is vegetarian." in out and "→   The user is vegan." in out
    assert "written: The user is vegan." in out
    assert "superseded: The user is vegetarian." in out
    facts = live_facts(data, user)
    assert [f["content"] for f in facts] == ["The user is vegan."]
    chain = json.loads(invoke(data, "memories", "history", facts[0]["id"], "--user", user, "--json").output)
    assert [(f["content"], f["status"]) for f in chain["chain"]] == [
        ("The user is vegetarian.", "superseded"), ("The user is vegan.", "confirmed")]
    assert chain["chain"][0]["superseded_by"] == facts[0]["id"]


def test_pending_approval_survives_the_process_and_is_asked_first(seeded):
    data, user, thread = seeded["data"], "dave.o@example.org", "trip-planning"
    # 1) a real process: send a message, then end of input at the approval question
    first = subprocess.run(
        [sys.executable, "-m", "memory_agent.cli.app", "--data-dir", str(data), "chat", "--user", user,
         "--thread", thread],
        input="I live in Munich.\n", capture_output=True, text=True, timeout=300, cwd=ROOT,
        env={**os.environ, **WIDE},
    )
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Proposed memory 1/1: ADD" in first.stdout
    assert "still waiting for approval" in first.stdout
    assert "Traceback" not in first.stderr
    assert live_facts(data, user) == []

    # 2) coming back: the pending proposal is shown before anything is sent; plain text is not a decision
    second = invoke(data, "chat", "--user", user, "--thread", thread, input="hello\n/approve\n/exit\n")
    assert second.exit_code == 0, second.output
    out = second.output
    assert "wait for your decision" in out
    assert out.index("The user lives in Munich.") < out.index("Not a decision: 'hello'. Answer with /approve")
    assert "written: The user lives in Munich." in out
    assert "assistant:" not in out  # "hello" was not sent as a message
    assert [f["content"] for f in live_facts(data, user)] == ["The user lives in Munich."]

    # 3) nothing pending any more; the approval was recorded once
    third = invoke(data, "chat", "--user", user, "--thread", thread, input="/exit\n")
    assert third.exit_code == 0 and "wait for your decision" not in third.output
    history = json.loads(invoke(data, "memories", "history", "--user", user, "--json").output)
    assert len(history["facts"]) == 1
    assert [r["decision"] for r in history["audit"]] == ["approved"]


def test_text_sent_after_a_message_never_answers_the_approval(seeded):
    """Three pasted lines arrive as three reads; the ones after the message meet the approval
    question and are refused as decisions, whatever they say."""
    data, user = seeded["data"], "paste.user"
    result = invoke(data, "chat", "--user", user, input="I'm vegan.\nyes\na\napprove\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Not a decision") == 3
    assert "still waiting for approval" in result.output
    assert live_facts(data, user) == []


def test_typeahead_is_drained_before_an_approval_question():
    """On a terminal, what waits in the input buffer when the question appears is discarded."""
    from memory_agent.cli.chat import drain_typeahead

    leader, follower = os.openpty()
    try:
        os.write(leader, b"second pasted line\nyes\n")
        assert drain_typeahead(follower) == ["second pasted line", "yes"]
        assert drain_typeahead(follower) == []
    finally:
        os.close(leader)
        os.close(follower)
    read, write = os.pipe()  # not a terminal: nothing is read
    try:
        os.write(write, b"yes\n")
        assert drain_typeahead(read) == []
    finally:
        os.close(read)
        os.close(write)


def test_bad_messages_are_reported_and_the_chat_goes_on(seeded):
    result = invoke(seeded["data"], "chat", "--user", "erin", input="   \n" + "x" * 41 + "\nhello there\n/quit\n",
                    env={"MEMORY_AGENT_MAX_MESSAGE_CHARS": "40"})
    assert result.exit_code == 0, result.output
    assert "The message is empty" in result.output
    assert "the limit is 40" in result.output
    assert result.output.count("assistant:") == 1  # the good message after the bad ones was answered


def test_memories_inside_chat(seeded):
    result = invoke(seeded["data"], "chat", "--user", USER, input="/memories\n")  # then end of input
    assert result.exit_code == 0, result.output
    assert "The user is vegetarian." in result.output
    assert "assistant:" not in result.output


def test_blank_user_is_a_clear_error(tmp_path):
    for args in (["chat", "--user", "  "], ["memories", "list", "--user", ""]):
        result = invoke(tmp_path / "data", *args, input="hi\n")
        assert result.exit_code == 2
        assert "user id is empty" in result.output
        assert "Traceback" not in result.output


def test_locked_data_dir_exits_2(tmp_path):
    held = DataDir(tmp_path / "locked")
    try:
        for args in (["chat", "--user", "a"], ["memories", "list", "--user", "a"]):
            result = invoke(tmp_path / "locked", *args, input="hi\n")
            assert result.exit_code == 2, result.output
            assert "in use" in result.output
            assert result.exception is None or isinstance(result.exception, SystemExit)
    finally:
        held.close()
    # once released, the folder works
    assert invoke(tmp_path / "locked", "memories", "list", "--user", "a").exit_code == 0


def test_unknown_model_exits_2(tmp_path):
    result = invoke(tmp_path / "data", "--model", "no-such-model", "chat", "--user", "a", input="hi\n")
    assert result.exit_code == 2
    assert "Unknown model 'no-such-model'" in result.output


def test_config_masks_secrets_and_shows_precedence(tmp_path):
    env = {"MEMORY_AGENT_API_TOKEN": "tok-123456", "OPENAI_API_KEY": "sk-secret-value",
           "MEMORY_AGENT_TOP_K": "7", "MEMORY_AGENT_MODEL": "openai:gpt-4o"}
    result = invoke(tmp_path / "d", "--model", "offline", "config", env=env)
    assert result.exit_code == 0, result.output
    assert "tok-123456" not in result.output and "sk-secret-value" not in result.output
    assert "not a language model" in result.output
    data = json.loads(invoke(tmp_path / "d", "--model", "offline", "config", "--json", env=env).output)
    assert data["model"] == {"value": "offline", "source": "option",
                             "note": "rule-based stand-in, not a language model"}  # option beats env
    assert data["top_k"] == {"value": 7, "source": "env MEMORY_AGENT_TOP_K"}
    assert data["MEMORY_AGENT_API_TOKEN"]["value"] == "***"
    assert data["OPENAI_API_KEY"]["value"] == "set"
    assert data["data_dir"]["value"] == str((tmp_path / "d").resolve())
    assert data["max_memory_tokens"]["value"] == 600 and data["max_session_tokens"]["value"] == 400  # counts
    unset = json.loads(runner.invoke(app, ["config", "--json"], env={"OPENAI_API_KEY": None}).output)
    assert unset["OPENAI_API_KEY"]["value"] == "not set"
    assert unset["approval"] == {"value": "always", "source": "default"}


def test_a_pasted_block_at_a_terminal_is_one_message(monkeypatch):
    """prompt_toolkit reads the terminal: a bracketed paste of three lines is one message, Enter sends it."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from memory_agent.cli import chat as chat_module

    monkeypatch.setattr(chat_module, "_interactive", lambda: True)
    with create_pipe_input() as keys:
        monkeypatch.setattr(chat_module, "_SESSION", PromptSession(input=keys, output=DummyOutput()))
        keys.send_text("\x1b[200~I moved to Porto.\nI work remotely.\nI cycle to the beach.\x1b[201~\r")
        assert chat_module._ask(Console(), "you> ") == "I moved to Porto.\nI work remotely.\nI cycle to the beach."
        keys.send_text("/exit\r")
        assert chat_module._ask(Console(), "you> ") == "/exit"


def test_global_option_after_the_command_says_where_it_goes(tmp_path):
    result = invoke(tmp_path / "d", "chat", "--user", USER, "--model", "local")
    assert result.exit_code == 2
    assert "--model is a global option: put it before the command" in " ".join(result.output.split())
    assert "No such option: --bogus" in invoke(tmp_path / "d", "chat", "--user", USER, "--bogus").output


def test_chat_help_names_every_command_and_the_paste_rule():
    text = " ".join(runner.invoke(app, ["chat", "--help"], env=WIDE).output.split())
    for word in ("/memories", "/end", "/exit", "pasted block"):
        assert word in text


def test_tables_are_not_wrapped_when_piped(tmp_path):
    """Without a terminal (and no COLUMNS) rich would wrap every table at 80 columns."""
    long_dir = tmp_path / ("a-long-folder-name-" * 6) / "data"
    result = runner.invoke(app, ["--data-dir", str(long_dir), "config"], env={"COLUMNS": None})
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.strip().startswith("data_dir"))
    assert str(long_dir.resolve()) in row and len(row) > 120
    narrow = runner.invoke(app, ["--data-dir", str(long_dir), "config"], env={"COLUMNS": "80"})
    assert str(long_dir.resolve()) not in narrow.output  # COLUMNS still wins: folded at 80


def test_bad_setting_exits_2(tmp_path):
    result = invoke(tmp_path / "d", "config", env={"MEMORY_AGENT_TOP_K": "0"})
    assert result.exit_code == 2
    assert "top_k" in result.output and "MEMORY_AGENT_" in result.output


def test_demo_delegates_to_evals_demo(monkeypatch, tmp_path):
    calls = []
    fake = ModuleType("memory_agent.evals.demo")

    def run_demo(scenarios, locomo, skip_locomo, console):
        calls.append((scenarios, locomo, skip_locomo, console))
        return 3

    fake.run_demo = run_demo
    monkeypatch.setitem(sys.modules, "memory_agent.evals.demo", fake)
    scenarios = tmp_path / "s.jsonl"
    result = invoke(tmp_path / "d", "demo", "--details", "--scenarios", str(scenarios), "--no-locomo")
    assert result.exit_code == 3
    assert calls and calls[0][:3] == (scenarios, None, True)
    refused = invoke(tmp_path / "d", "demo", "--no-locomo")
    assert refused.exit_code == 2 and "add --details" in refused.output


def test_cli_import_does_not_load_heavy_modules():
    code = ("import sys, memory_agent.cli.app; "
            "print([m for m in ('torch', 'sentence_transformers', 'chromadb', 'langgraph') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_leaving_with_a_pending_approval_names_the_data_dir_and_threads_lists_it(tmp_path):
    data = tmp_path / "elsewhere"
    result = invoke(data, "chat", "--user", "pat", input="I'm vegan.\n")  # EOF at the approval question
    assert result.exit_code == 0, result.output
    thread = thread_of(result.output)
    assert f"memory-agent --data-dir {data} chat --user pat --thread {thread}" in result.output.replace("\n", "")
    listed = invoke(data, "threads", "--user", "pat", "--json")
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.output) == [{"thread_id": thread, "pending": 1, "unfinished": False}]
    table = invoke(data, "threads", "--user", "pat")
    assert f"memory-agent --data-dir {data} chat --user pat --thread {thread}" in table.output.replace("\n", "")


def test_unknown_slash_command_is_not_sent_as_a_message(tmp_path):
    data = tmp_path / "d"
    result = invoke(data, "chat", "--user", "pat", input="/memorie\n/exit\n")
    assert result.exit_code == 0, result.output
    assert "Unknown command /memorie" in result.output
    assert "stored information" not in result.output  # no answer: nothing was sent to the model
    listed = invoke(data, "threads", "--user", "pat", "--json")
    assert json.loads(listed.output) == []


def test_read_only_commands_refuse_a_data_dir_that_does_not_exist(tmp_path):
    missing = tmp_path / "typo"
    result = invoke(missing, "memories", "list", "--user", "pat")
    assert result.exit_code == 2
    assert "no data folder" in result.output
    assert not missing.exists()


@pytest.mark.parametrize("library", ["matplotlib", "tiktoken"])
def test_eval_commands_without_the_evals_extra_say_how_to_install_it(monkeypatch, tmp_path, library):
    monkeypatch.setitem(sys.modules, library, None)  # `import <library>` now raises ImportError
    for command in ("scenarios", "locomo", "locomo-qa"):
        result = invoke(tmp_path / "d", "eval", command, str(tmp_path / "missing.json"))
        assert result.exit_code == 2, result.output
        assert "pip install 'memory-agent[evals]'" in result.output
        assert f"{library} is not installed" in result.output
        assert "Traceback" not in result.output
    # the other commands do not need the extra
    assert runner.invoke(app, ["--help"], env=WIDE).exit_code == 0
    assert invoke(tmp_path / "d", "config").exit_code == 0


def test_chat_refuses_to_edit_a_retraction_and_resumes_with_hitl_decisions(tmp_path):
    data = tmp_path / "data"
    first = invoke(data, "chat", "--user", USER, input="I'm vegetarian.\n/e\nThe user is vegan.\n/exit\n")
    assert first.exit_code == 0 and "written: The user is vegan." in first.output, first.output
    result = invoke(data, "chat", "--user", USER, input="Forget that I'm vegan.\n/e\n/a\n/exit\n")
    assert result.exit_code == 0, result.output
    assert "A retraction has no content to edit" in result.output and "retracted: " in result.output
    assert live_facts(data, USER) == []
