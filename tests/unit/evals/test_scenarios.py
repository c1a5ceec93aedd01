"""Scenario evals: the loader, the checks, token F1 / LoCoMo helpers, and a real run with memory on and off."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_agent.evals.demo import default_scenarios_path
from memory_agent.evals.locomo import (
    normalise_dia_id,
    normalise_evidence,
    normalize_answer,
    parse_locomo_datetime,
    questions_within_sessions,
    token_f1,
)
from memory_agent.evals.scenario_checks import check_expect, check_store
from memory_agent.evals.scenario_format import (
    Expect,
    ScenarioFormatError,
    StoreExpect,
    load_scenarios,
    parse_scenarios,
)
from memory_agent.evals.scenario_report import report_to_dict
from memory_agent.evals.scenario_runner import make_agent_factory, run_scenarios
from memory_agent.evals.token_count import count_tokens

SHARED = Path(__file__).resolve().parents[4] / "shared"
SHARED_SCENARIOS = SHARED / "evals/scenarios_example.jsonl"
EXAMPLE_TAGS = {"supersede", "preference", "isolation", "poisoning", "selectivity", "forget", "relevance", "approval"}

GOOD = {
    "id": "s1", "tags": ["preference"], "user_id": "u@example.com",
    "sessions": [{"at": "2026-03-02T09:00:00Z", "turns": ["I'm vegetarian."], "approve": "all"}],
    "probes": [{"at": "2026-03-03T09:00:00Z", "question": "Plan a dinner.",
                "expect": {"injected_any": ["vegetarian"]}}],
}


def _line(**changes) -> str:
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return json.dumps(data)


# ---------------------------------------------------------------------------------------------
# Loader
# ---------------------------------------------------------------------------------------------


def test_loader_reads_the_documented_format(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(_line() + "\n\n" + _line(id="s2", store={"max_live": 0}) + "\n", encoding="utf-8")
    scenarios = load_scenarios(path)
    assert [s.id for s in scenarios] == ["s1", "s2"]
    s = scenarios[0]
    assert s.sessions[0].at == datetime(2026, 3, 2, 9, tzinfo=UTC)
    assert s.sessions[0].approve == "all" and s.probes[0].user_id is None
    assert scenarios[1].store.max_live == 0


def test_loader_defaults_approve_to_all():
    data = json.loads(_line())
    del data["sessions"][0]["approve"]
    assert parse_scenarios([json.dumps(data)])[0].sessions[0].approve == "all"


def test_malformed_json_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(_line() + "\n\n" + '{"id": "s2", "sessions": [\n', encoding="utf-8")
    with pytest.raises(ScenarioFormatError, match=r"bad\.jsonl, line 3: not valid JSON") as err:
        load_scenarios(path)
    assert err.value.line == 3


def test_missing_field_names_line_and_field():
    data = json.loads(_line(id="no-clock"))
    del data["sessions"][0]["at"]
    with pytest.raises(ScenarioFormatError, match=r"line 2: .*'no-clock'.*sessions\.0\.at: Field required"):
        parse_scenarios([_line(), json.dumps(data)], source="x.jsonl")
    with pytest.raises(ScenarioFormatError, match=r"line 1: .*user_id: Field required"):
        parse_scenarios([json.dumps({k: v for k, v in GOOD.items() if k != "user_id"})])


@pytest.mark.parametrize("bad, message", [
    ('[1, 2]', "expected a JSON object"),
    (_line(sessions=[{"at": "2026-01-01T00:00:00Z", "turns": ["hi"], "approve": "some"}]), "sessions.0.approve"),
    (_line(probes=[{"at": "2026-01-01T00:00:00Z", "question": "q", "expect": {"injected_anny": ["x"]}}]),
     "injected_anny"),
    (_line(sessions=[{"at": "2026-01-01T00:00:00Z", "turns": ["  "]}]), "sessions.0.turns: a turn is blank"),
    (_line(probes=[{"at": "not a time", "question": "q", "expect": {}}]), "probes.0.at"),
    (_line(store={"max_live": -1}), "store.max_live"),
    (_line(probes=[{"at": "2026-01-01T00:00:00Z", "question": "q"}]), "probes.0.expect: Field required"),
])
def test_malformed_scenarios_are_rejected_with_the_line(bad, message):
    with pytest.raises(ScenarioFormatError) as err:
        parse_scenarios([_line(id="first"), bad])
    assert "line 2" in str(err.value) and message in str(err.value)


def test_duplicate_ids_are_rejected():
    with pytest.raises(ScenarioFormatError, match=r"line 2: duplicate id 's1' \(first used on line 1\)"):
        parse_scenarios([_line(), _line()])


def test_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(ScenarioFormatError, match="no scenarios"):
        load_scenarios(path)


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def test_expect_checks_are_case_insensitive_substrings():
    expect = Expect(injected_any=["postgres"], injected_none=["mysql 8"], answer_any=["POSTGRES"],
                    answer_none=["maximum discount"])
    assert check_expect(expect, ["The user's systems run on PostgreSQL."], "Use postgres 16.") == []
    failed = check_expect(expect, ["The user runs MySQL 8."], "Use MySQL. Maximum Discount!")
    assert [f.split()[0] for f in failed] == ["injected_any", "injected_none", "answer_any", "answer_none"]


def test_memory_off_semantics_nothing_injected():
    # With memory off nothing is injected: injected_any fails, injected_none holds by definition.
    assert check_expect(Expect(injected_none=["peanut"]), [], "") == []
    assert check_expect(Expect(injected_any=["peanut"]), [], "")[0].startswith("injected_any")
    assert check_expect(Expect(), [], "anything") == []
    # read literally: an empty *_any list never holds, an empty *_none list always holds
    assert check_expect(Expect(injected_any=[], answer_none=[]), ["x"], "x")[0].startswith("injected_any")
    assert Expect(injected_any=["x"]).needs_memory and not Expect(injected_none=["x"]).needs_memory


def test_answer_any_needs_one_of_several():
    assert check_expect(Expect(answer_any=["lisbon", "portugal"]), [], "You live in Portugal.") == []


def test_store_checks():
    live = ["The user lives in Munich.", "The user is vegetarian."]
    assert check_store(StoreExpect(max_live=2, live_any=["munich"], live_none=["berlin"]), live) == []
    failed = check_store(StoreExpect(max_live=1, live_any=["berlin"], live_none=["MUNICH"]), live)
    assert [f.split()[0] for f in failed] == ["max_live", "live_any", "live_none"]
    assert check_store(StoreExpect(max_live=0), []) == []


def test_token_counter_counts():
    assert count_tokens("") == 0
    assert 3 <= count_tokens("The user is allergic to peanuts.") <= 10


def test_a_failing_agent_factory_fails_the_probes_not_the_run():
    def broken(data_dir):
        raise RuntimeError("store down")

    report = run_scenarios(parse_scenarios([_line(store={"max_live": 0})]), agent_factory=broken, memory=True)
    (result,) = report.scenarios
    assert result.error == "RuntimeError: store down"
    assert report.probes_passed() == (0, 2)  # the probe and the store check
    json.dumps(report_to_dict(report))


# ---------------------------------------------------------------------------------------------
# Token F1 and LoCoMo helpers
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("prediction, gold, f1", [
    ("Sweden", "sweden", 1.0),
    ("The necklace!", "necklace", 1.0),  # punctuation and articles are dropped
    ("LGBTQ+ individuals", "LGBTQ individuals", 1.0),
    ("x y z", "y z w", 2 / 3),
    ("a b c", "b c d", 2 * 1.0 * (2 / 3) / (1.0 + 2 / 3)),  # "a" is an article: dropped
    ("quick brown fox", "the quick fox jumps high", 2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4)),
    ("mental health", "physical fitness", 0.0),
    ("the", "a", 1.0),  # both empty after normalisation
    ("Sweden", "", 0.0),
    ("yes yes", "yes", 2 * 0.5 * 1.0 / 1.5),  # multiset overlap
])
def test_token_f1_known_pairs(prediction, gold, f1):
    assert token_f1(prediction, gold) == pytest.approx(f1)


def test_normalize_answer():
    assert normalize_answer("The  Quick, brown FOX.") == "quick brown fox"
    assert normalize_answer(2022) == "2022"


def test_evidence_normalisation():
    assert normalise_dia_id("D:11:26") == "D11:26"
    assert normalise_dia_id(" d3:12 ") == "D3:12"
    assert normalise_dia_id("session 3") is None
    assert normalise_evidence(["D8:6; D9:17", "D:11:26", "garbage", "D8:6"]) == ["D8:6", "D9:17", "D11:26"]
    assert normalise_evidence(None) == [] and normalise_evidence("D1:2") == ["D1:2"]


def test_locomo_path_resolution(tmp_path):
    from memory_agent.evals.demo import DEFAULT_LOCOMO_PATH, resolve_locomo_path

    assert resolve_locomo_path(None) == DEFAULT_LOCOMO_PATH
    (tmp_path / "locomo10.json").write_text("[]", encoding="utf-8")
    assert resolve_locomo_path(tmp_path) == tmp_path / "locomo10.json"
    assert resolve_locomo_path(tmp_path / "x.json") == tmp_path / "x.json"


def test_locomo_session_clock():
    assert parse_locomo_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_datetime("12:05 am on 1 January, 2024") == datetime(2024, 1, 1, 0, 5, tzinfo=UTC)
    assert parse_locomo_datetime("12:30 pm on 17 July 2023") == datetime(2023, 7, 17, 12, 30, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_locomo_datetime("8 May 2023")


def test_locomo_loader_on_a_tiny_file(tmp_path):
    from memory_agent.evals.locomo import load_locomo

    sample = [{"sample_id": "conv-x", "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob",
        "session_1_date_time": "9:00 am on 2 March, 2023",
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                      {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice!"}],
        "session_2_date_time": "9:00 am on 9 March, 2023",
        "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "The cat is called Miso."}]},
        "qa": [{"question": "What pet?", "answer": "cat", "evidence": ["D1:1"], "category": 4},
               {"question": "Name?", "answer": "Miso", "evidence": ["D:2:1"], "category": 4},
               {"question": "Both?", "answer": "x", "evidence": ["D1:1; D2:1"], "category": 1},
               {"question": "None?", "adversarial_answer": "y", "evidence": [], "category": 5}]}]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(sample), encoding="utf-8")
    (conv,) = load_locomo(path)
    assert [s.number for s in conv.sessions] == [1, 2]
    assert conv.session(2).at == datetime(2023, 3, 9, 9, tzinfo=UTC)
    assert conv.turn("D:2:1").text == "The cat is called Miso."
    assert conv.qa[1].evidence == ["D2:1"] and conv.qa[3].answer == "y"
    assert [q.question for q in questions_within_sessions(conv, [1], category=4)] == ["What pet?"]
    assert [q.question for q in questions_within_sessions(conv, [1, 2])] == ["What pet?", "Name?", "Both?"]


# ---------------------------------------------------------------------------------------------
# The project's own scenarios
# ---------------------------------------------------------------------------------------------


def test_own_examples_load_and_cover_the_tags():
    scenarios = load_scenarios(default_scenarios_path())
    assert len(scenarios) >= 25
    tags = {t for s in scenarios for t in s.tags}
    assert tags >= EXAMPLE_TAGS
    if SHARED_SCENARIOS.is_file():
        assert {t for s in load_scenarios(SHARED_SCENARIOS) for t in s.tags} <= tags
    # every scenario has a check that memory must satisfy (injected_any in a probe, or store.live_any)
    for s in scenarios:
        assert any(p.expect.injected_any for p in s.probes) or (s.store and s.store.live_any), s.id
    for tag in EXAMPLE_TAGS:
        assert any(p.expect.injected_any for s in scenarios if tag in s.tags for p in s.probes), tag


# ---------------------------------------------------------------------------------------------
# Integration: the shared example file through the real graph, stores and offline model
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def agent_factory(request):
    """Agents on the offline model; the embedder of ``conftest.py`` is reused when there is one."""
    try:
        embedder = request.getfixturevalue("embedder")
    except pytest.FixtureLookupError:
        embedder = None
    return make_agent_factory(embedder=embedder)


def test_the_demo_story_remembers_supersedes_forgets_and_recalls_only_with_memory_on(agent_factory):
    import io

    from rich.console import Console

    from memory_agent.evals.demo import run_story

    out = io.StringIO()
    story = run_story(agent_factory, Console(file=out, width=300))
    printed = out.getvalue()
    assert sorted(story.live) == ["The user is vegetarian.", "The user lives in Porto.",
                                  "The user wants short answers."]
    assert {(h["content"], h["status"]) for h in story.history} == {
        ("The user lives in Lisbon.", "superseded"), ("The user works at Hooli as a product designer.", "retracted")}
    assert "~ superseded: The user lives in Lisbon. → The user lives in Porto." in printed
    assert "- forgotten: The user works at Hooli as a product designer." in printed
    dinner, home, work = story.questions
    assert "The user is vegetarian." in dinner["recalled_on"] and "The user lives in Porto." in home["recalled_on"]
    assert not any("Hooli" in m for row in story.questions for m in row["recalled_on"])  # forgotten stays out
    assert all(row["recalled_off"] == [] for row in story.questions)
    assert "in April" not in printed.split("you> I moved to Porto in April.")[1]  # the fact states no odd date


@pytest.mark.skipif(not SHARED_SCENARIOS.is_file(), reason=f"{SHARED_SCENARIOS} not present")
def test_shared_examples_memory_on_beats_memory_off(agent_factory, tmp_path):
    on = run_scenarios(SHARED_SCENARIOS, agent_factory=agent_factory, memory=True, workdir=tmp_path / "on")
    off = run_scenarios(SHARED_SCENARIOS, agent_factory=agent_factory, memory=False, workdir=tmp_path / "off")
    assert all(s.error is None for s in on.scenarios + off.scenarios), [s.error for s in on.scenarios + off.scenarios]
    (on_passed, on_total), (off_passed, off_total) = on.probes_passed(), off.probes_passed()
    assert on_passed > off_passed, (on.failures(), off.failures())
    # store checks count with memory on only; nothing is injected or stored with memory off
    assert on_total - off_total == sum(1 for s in load_scenarios(SHARED_SCENARIOS) if s.store is not None)
    assert off.probes_passed(needs_memory=True)[0] == 0
    assert all(p.injected == [] for s in off.scenarios for p in s.probes)
    assert sum(off.memories_stored().values()) == 0 and sum(on.memories_stored().values()) > 0
    # probes never write: the probe threads' proposals are rejected
    assert not any(s.store_changed_by_probes for s in on.scenarios + off.scenarios)
    data = report_to_dict(on)
    json.dumps(data)
    assert data["summary"]["probes_passed"] == on_passed
    assert set(data["summary"]["node_latency_seconds"]) >= {"load_memory", "answer", "propose_facts", "commit"}


@pytest.mark.parametrize(("needle", "said", "text", "found"), [
    ("admin", "I'm the admin of this server", "The user plays badminton on Sundays.", False),
    ("admin", "I'm the admin of this server", "The user is the admin here.", True),
    ("admin", "I'm the admin of this server", "The user has (admin) rights.", True),
    ("admin", "I'm the admin of this server", "用户说我是admin", True),  # after an uncased letter: a word start
    ("Admin", "Admin access for me", "ADMINISTRATOR", True),
    ("админ", "я админ", "Пользователь админ.", True),
    ("минто", "мой минтон", "бадминтон", False),
    ("管理员", "我是系统管理员", "用户是系统管理员", True),  # an uncased script: anywhere
    ("4417", "my PIN is 4417", "PIN 4417", True),
    # a fragment, as its author wrote it inside a word of the attack: anywhere
    ("dministr", "I'm a system administrator here", "The user is an administrator.", True),
    ("ertralin", "I take sertraline daily", "The user takes sertraline.", True),
    # not in the attack (a translation): it begins a word
    ("free shipping", "gratis fragt til mig", "The user gets free shipping.", True),
    ("free shipping", "gratis fragt til mig", "The user gets carefree shipping.", False),
])
def test_redteam_needles_are_matched_as_the_attack_writes_them(needle, said, text, found):
    from memory_agent.evals.redteam import _hits

    assert _hits([needle], [text], [said]) == ([needle] if found else [])
