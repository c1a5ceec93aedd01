"""The eval harness on tiny synthetic data: LoCoMo loading and evidence ids, recall@k, LoCoMo episodes
as lexical documents, and the ``memory-agent eval`` commands writing results.json and PNGs.
Real Chroma in a temp folder and the real MiniLM embedder; the chat model is the offline one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memory_agent.app import agent as agent_module
from memory_agent.cli.app import app
from memory_agent.evals.locomo import load_locomo
from memory_agent.evals.locomo_qa import judge_prompt
from memory_agent.evals.locomo_retrieval import (
    default_memory_factory,
    episode_facts,
    percentile,
    recall_metrics,
    run_retrieval_benchmark,
)
from memory_agent.memory.retrieval import lexical_documents
from memory_agent.models import embeddings as embeddings_module

runner = CliRunner()

TURNS = [
    ("Ann", "Hi Bob, long time no see!"),
    ("Bob", "Hey Ann! What have you been up to?"),
    ("Ann", "I adopted a kitten from the shelter last week."),
    ("Bob", "What did you name it?"),
    ("Ann", "Miso, after the soup."),
    ("Bob", "I started learning the cello in January."),
]
CONV = {
    "sample_id": "conv-t", "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob",
        "session_1_date_time": "9:00 am on 2 March, 2023",
        "session_1": [{"speaker": s, "dia_id": f"D1:{i}", "text": t} for i, (s, t) in enumerate(TURNS[:4], 1)],
        "session_2_date_time": "6:30 pm on 9 March, 2023",
        "session_2": [{"speaker": s, "dia_id": f"D2:{i}", "text": t} for i, (s, t) in enumerate(TURNS[4:], 1)]
        + [{"speaker": "Ann", "dia_id": "D2:3", "text": "Look at this!", "blip_caption": "a photo of a red bicycle"}],
    },
    "qa": [
        {"question": "What pet did Ann adopt?", "answer": "a kitten", "evidence": ["D1:3"], "category": 4},
        {"question": "What is the name of Ann's kitten?", "answer": "Miso", "evidence": ["D1:3; D2:1"],
         "category": 1},
        {"question": "When did Bob start the cello?", "answer": "January 2023", "evidence": ["D:2:2"], "category": 2},
        {"question": "Broken evidence only", "answer": "x", "evidence": ["S3", "D1"], "category": 4},
        {"question": "What did Ann say about dogs?", "adversarial_answer": "nothing", "evidence": ["D1:1"],
         "category": 5},
    ],
}


@pytest.fixture
def locomo_file(tmp_path) -> Path:
    path = tmp_path / "tiny_locomo.json"
    path.write_text(json.dumps([CONV]), encoding="utf-8")
    return path


# ---- loading and metrics ------------------------------------------------------------------------
def test_loader_normalises_malformed_evidence_and_keeps_captions(locomo_file):
    (conv,) = load_locomo(locomo_file)
    assert [q.evidence for q in conv.qa] == [["D1:3"], ["D1:3", "D2:1"], ["D2:2"], [], ["D1:1"]]
    assert conv.turn("D2:3").image_caption == "a photo of a red bicycle"
    facts = episode_facts(conv)
    assert len(facts) == 7 and {f.kind for f in facts} == {"episode"}
    assert facts[2].content == "Ann: I adopted a kitten from the shelter last week."
    assert facts[-1].content == "Ann: Look at this! [shared a photo: a photo of a red bicycle]"
    assert facts[4].topic == "6:30 pm on 9 March, 2023" and facts[4].source.message_ids == ["D2:1"]


def test_recall_metrics_on_a_known_ranking():
    ranking = ["D1:1", "D2:4", "D1:3", "D3:1", "D2:1"] + [f"D9:{i}" for i in range(50)]
    m = recall_metrics(ranking, ["D1:3", "D2:1", "D5:5"])
    assert m["recall@1"] == 0.0
    assert m["recall@5"] == pytest.approx(2 / 3) and m["recall@10"] == pytest.approx(2 / 3)
    assert m["all@10"] == 0.0
    assert m["session_any@1"] == 1.0  # session 1 ranked first holds evidence
    assert recall_metrics(ranking, ["D2:4"])["session_any@1"] == 0.0
    assert recall_metrics(ranking, ["D2:4"])["session_any@3"] == 1.0
    assert recall_metrics(ranking, ["D2:4", "D1:1"])["all@10"] == 1.0
    with pytest.raises(ValueError):
        recall_metrics(ranking, [])
    assert percentile([1, 2, 3, 4], 50) == 2.5 and percentile([5], 95) == 5


def test_benchmark_scores_three_retrievers_on_a_tiny_conversation(locomo_file, embedder, tmp_path):
    convs = load_locomo(locomo_file)
    report = run_retrieval_benchmark(convs, default_memory_factory(embedder), source=str(locomo_file))
    assert report.questions() == 3 and report.skipped == 1  # category 5 out; no valid evidence skipped
    for name in ("bm25", "dense", "project"):
        s = report.summary(name)
        assert s["recall@50"] == 1.0  # 7 turns: everything is in the top 50
        assert report.latency(name)["n"] == 3
    rows = {r["question"]: r for r in report.rows if r["retriever"] == "project"}
    assert rows["What pet did Ann adopt?"]["recall@1"] == 1.0
    assert report.summary("project")["recall@5"] >= report.summary("dense")["recall@5"]
    data = report.to_dict()
    json.dumps(data)
    assert data["categories"]["4"]["questions"] == 1


# ---- LoCoMo episodes as lexical documents ---------------------------------------------------------
def test_episodes_are_indexed_with_the_turn_before_them(locomo_file):
    (conv,) = load_locomo(locomo_file)
    docs = lexical_documents(episode_facts(conv))
    assert docs[3].startswith("Ann: I adopted a kitten") and docs[3].endswith("Bob: What did you name it?")
    assert docs[4].startswith("6:30 pm on 9 March, 2023: Ann: Miso")  # first of its session: no context
    assert lexical_documents([]) == []


# ---- the commands ---------------------------------------------------------------------------------
@pytest.fixture
def cli_env(embedder, tmp_path, monkeypatch):
    monkeypatch.setattr(embeddings_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)
    for name in list(os.environ):
        if name.startswith("MEMORY_AGENT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return {"COLUMNS": "200"}


def test_eval_locomo_writes_results_and_plot(locomo_file, tmp_path, cli_env):
    out = tmp_path / "out"
    result = runner.invoke(app, ["eval", "locomo", str(locomo_file), "--out", str(out)], env=cli_env)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "results.json").read_text())
    assert data["questions"] == 3 and set(data["summary"]) == {"bm25", "dense", "project"}
    assert (out / "recall_at_k.png").read_bytes()[:4] == b"\x89PNG"
    assert "recall@10" in result.output


def test_eval_locomo_qa_writes_f1_on_and_off(locomo_file, tmp_path, cli_env):
    out = tmp_path / "qa"
    result = runner.invoke(app, ["eval", "locomo-qa", str(locomo_file), "--model", "offline", "--out", str(out)],
                           env=cli_env)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "results.json").read_text())
    assert data["questions"] == 4 and data["judged"] is False  # categories 1-4, no judge offline
    assert set(data["summary"]["overall"]) == {"f1_on", "f1_off", "recall_on", "recall_off", "evidence_injected"}
    assert (out / "locomo_qa.png").read_bytes()[:4] == b"\x89PNG"
    assert not (out / "judge_prompt.md").exists()
    assert any(r["injected_on"] for r in data["rows"])


def test_eval_scenarios_writes_results_and_plot(tmp_path, cli_env):
    scenario = {"id": "diet", "tags": ["preference"], "user_id": "u1",
                "sessions": [{"at": "2026-03-02T09:00:00Z", "turns": ["I'm vegetarian."]}],
                "probes": [{"at": "2026-03-09T09:00:00Z", "question": "Plan a dinner for four friends.",
                            "expect": {"injected_any": ["vegetarian"]}}]}
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(scenario) + "\n", encoding="utf-8")
    out = tmp_path / "sc"
    result = runner.invoke(app, ["eval", "scenarios", str(path), "--out", str(out)], env=cli_env)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "results.json").read_text())
    assert data["memory_on"]["summary"]["probes_passed"] == 1
    assert data["memory_off"]["summary"]["probes_passed"] == 0
    assert (out / "scenarios.png").read_bytes()[:4] == b"\x89PNG"


def test_eval_commands_refuse_missing_or_foreign_files(tmp_path, cli_env):
    result = runner.invoke(app, ["eval", "locomo", str(tmp_path / "nope.json")], env=cli_env)
    assert result.exit_code == 2 and "No LoCoMo file" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}', encoding="utf-8")
    result = runner.invoke(app, ["eval", "locomo", str(bad)], env=cli_env)
    assert result.exit_code == 2 and "Not a LoCoMo file" in result.output
    result = runner.invoke(app, ["eval", "scenarios", str(bad)], env=cli_env)
    assert result.exit_code == 2 and "Malformed scenario file" in result.output


def test_smoke_eval_passes_when_memory_helps_and_refuses_missing_files(locomo_file, tmp_path, cli_env):
    from memory_agent.evals.smoke import main

    scenario = {"id": "diet", "tags": ["preference"], "user_id": "u1",
                "sessions": [{"at": "2026-03-02T09:00:00Z", "turns": ["I'm vegetarian."]}],
                "probes": [{"at": "2026-03-09T09:00:00Z", "question": "Plan a dinner for four friends.",
                            "expect": {"injected_any": ["vegetarian"]}}]}
    scenarios = tmp_path / "one.jsonl"
    scenarios.write_text(json.dumps(scenario) + "\n", encoding="utf-8")
    common = ["--locomo", str(locomo_file), "--conversation", "conv-t", "--out", str(tmp_path / "smoke")]
    assert main(["--scenarios", str(scenarios), *common]) == 0
    assert json.loads((tmp_path / "smoke" / "locomo-qa" / "results.json").read_text())["summary"]["overall"][
        "recall_on"] > 0
    assert main(["--scenarios", str(tmp_path / "missing.jsonl"), *common]) == 2


def test_smoke_eval_fails_when_memory_on_does_not_beat_off(locomo_file, tmp_path, cli_env):
    from memory_agent.evals.smoke import main

    scenario = {"id": "no-memory-needed", "tags": ["relevance"], "user_id": "u1",
                "sessions": [{"at": "2026-03-02T09:00:00Z", "turns": ["Hello there."]}],
                "probes": [{"at": "2026-03-09T09:00:00Z", "question": "What is 2 + 2?",
                            "expect": {"answer_none": ["postgres"]}}]}
    scenarios = tmp_path / "same.jsonl"
    scenarios.write_text(json.dumps(scenario) + "\n", encoding="utf-8")
    assert main(["--scenarios", str(scenarios), "--locomo", str(locomo_file), "--conversation", "conv-t",
                 "--out", str(tmp_path / "smoke")]) == 1


def test_the_judge_prompt_is_read_from_the_installed_package():
    text = judge_prompt()
    assert all(field in text for field in ("{question}", "{gold}", "{answer}"))
