"""Reconcile judged by the model, enforced by code, and ends the user states, through the real graph.

The extraction prompt shows the user's related live memories under short ids; the (scripted) model
answers add / update / retract / none with a target and may give a ``valid_until``; code checks
every answer. Real SQLite + Chroma + MiniLM; only the chat model is fake.
"""

from __future__ import annotations

import re
from dataclasses import replace

from conftest import T0, ScriptedChatModel, day

from memory_agent.models.offline.chat_model import OfflineChatModel

MADRID = {"kind": "fact", "content": "The user lives in Madrid.", "topic": "home city"}
CLIMBING = {"kind": "preference", "content": "The user loves climbing.", "topic": "hobby"}
PORTO = "We just closed on the flat in Porto."
_SHOWN = re.compile(r"^\[(m\d+)\] \(([^,]+), ([^)]+)\) (.*)$", re.M)


def shown(prompt: str) -> dict[str, str]:
    """Short id → content of the memories an extraction prompt lists."""
    block = prompt[prompt.index("<memories>"): prompt.index("</memories>")]
    return {m[1]: m[4] for m in _SHOWN.finditer(block)}


def ref(prompt: str, content: str) -> str:
    return next(k for k, v in shown(prompt).items() if v == content)


def test_the_prompt_lists_only_this_users_related_live_memories(agent, model):
    model.script["Madrid"] = [MADRID]
    agent.turn("alice", "I live in Madrid.", thread_id="a1", now=T0, approval="never")
    agent.turn("bob", "Hello there.", thread_id="b1", now=T0)
    assert "<memories>\n(none)\n</memories>" in model.extraction_calls[-1]  # bob: none of alice's
    agent.turn("alice", "Where should I live next year, Madrid or Porto?", thread_id="a2", now=day(1))
    assert list(shown(model.extraction_calls[-1]).values()) == ["The user lives in Madrid."]
    assert re.search(r"Today is 2025-03-02 \(Sunday\)", model.extraction_calls[-1])


def test_an_update_naming_a_shown_memory_supersedes_it_and_shows_old_and_new(agent, model):
    model.script["Madrid"] = [MADRID]
    agent.turn("alice", "I live in Madrid.", thread_id="a1", now=T0, approval="never")
    [madrid] = agent.memory.live("alice")
    model.script["Porto"] = [{"kind": "fact", "content": "The user lives in Porto.", "topic": "housing",
                              "operation": "update", "target": "m1"}]
    result = agent.turn("alice", PORTO, thread_id="a2", now=day(60))
    assert ref(model.extraction_calls[-1], "The user lives in Madrid.") == "m1"
    [proposal] = result.pending
    assert (proposal["operation"], proposal["target_id"], proposal["target_content"], proposal["content"]) == (
        "UPDATE", madrid.id, "The user lives in Madrid.", "The user lives in Porto.")
    agent.resume("alice", "a2", "approve", now=day(60))
    assert [f.content for f in agent.memory.live("alice")] == ["The user lives in Porto."]
    assert agent.memory.show("alice", madrid.id).status == "superseded"


def test_a_target_that_was_not_shown_falls_back_to_the_rules(agent, model):
    model.script["Madrid"] = [MADRID]
    agent.turn("alice", "I live in Madrid.", thread_id="a1", now=T0, approval="never")
    [madrid] = agent.memory.live("alice")
    for target in ("m7", madrid.id):  # an id never shown, or a real fact id, is not a reference
        model.script["Porto"] = [{"kind": "fact", "content": "The user has a flat in Porto.", "topic": "housing",
                                  "operation": "update", "target": target}]
        result = agent.turn("alice", PORTO, thread_id=f"a-{target}", now=day(60))
        [proposal] = result.pending
        assert proposal["operation"] == "ADD" and proposal["target_id"] is None
        assert f"target {target!r} is not one of the memories shown" in proposal["reason"]
        agent.resume("alice", f"a-{target}", "reject", now=day(60))
    assert agent.memory.show("alice", madrid.id).status == "confirmed"


def test_another_users_fact_cannot_be_targeted(agent, model):
    model.script["Madrid"] = [MADRID]
    agent.turn("alice", "I live in Madrid.", thread_id="a1", now=T0, approval="never")
    [alices] = agent.memory.live("alice")
    model.script["forget"] = [{"operation": "retract", "kind": "fact", "content": "where the user lives",
                               "topic": "home city", "target": "m1"}]
    result = agent.turn("bob", "Please forget where I live.", thread_id="b1", now=day(1), approval="never")
    assert result.committed == [] and result.dropped[0]["decision"] == "drop"
    assert "not one of the memories shown (none)" in result.dropped[0]["reason"]
    assert agent.memory.show("alice", alices.id).status == "confirmed"


class RetractShownModel(ScriptedChatModel):
    """The scripted model answering a forget request from the memories it is shown, as a real model is
    asked to: when the message contains ``trigger``, one retraction per listed memory whose content
    contains ``names`` (a memory not listed is beyond what it can see), nothing else."""

    trigger: str
    names: str
    content: str
    topic: str

    def _propose(self, messages):
        self.script[self.trigger] = [
            {"operation": "retract", "kind": "fact", "content": self.content, "topic": self.topic, "target": k}
            for k, v in shown(messages[-1].content).items() if self.names in v]
        return super()._propose(messages)


def test_forget_everything_about_x_retracts_every_memory_the_model_names(make_agent):
    model = RetractShownModel(trigger="forget everything", names="Sam", content="everything about Sam", topic="ex")
    agent = make_agent(model=model)
    # each content follows from the words said (names, dates and places must be in the evidence)
    for said, content in (("My ex Sam has a birthday on 2 June", "The user's ex Sam has a birthday on 2 June."),
                          ("My ex Sam loves vinyl records", "The user's ex Sam loves vinyl records."),
                          ("I met Sam in Bristol", "The user met Sam in Bristol.")):
        model.script[said] = [{"kind": "fact", "content": content, "topic": "ex"}]
        agent.turn("alice", f"{said}, noted.", thread_id=f"s-{said}", now=T0, approval="never")
    model.script["cat"] = [{"kind": "fact", "content": "The user has a cat called Mochi.", "topic": "pet"}]
    agent.turn("alice", "I have a cat called Mochi.", thread_id="s-cat", now=T0, approval="never")
    assert len(agent.memory.live("alice")) == 4

    result = agent.turn("alice", "We broke up, please forget everything about Sam.", thread_id="s-end", now=day(5),
                        approval="never")
    assert sorted(c["operation"] for c in result.committed) == ["RETRACT"] * 3
    assert [f.content for f in agent.memory.live("alice")] == ["The user has a cat called Mochi."]


def test_a_stated_end_is_kept_and_the_fact_is_not_injected_after_it(agent, model):
    model.script["Tokyo"] = [{"kind": "fact", "content": "The user is working from Tokyo.", "topic": "location",
                              "valid_until": "2025-03-20"}]
    result = agent.turn("alice", "I'm working from Tokyo until March 20.", thread_id="t1", now=T0,
                        approval="never")
    [fact] = agent.memory.live("alice")
    assert fact.valid_until.isoformat() == "2025-03-21T00:00:00+00:00"
    assert result.committed[0]["operation"] == "ADD"
    during = agent.turn("alice", "Any tips for working from Tokyo?", thread_id="t2", now=day(18))
    assert [m["content"] for m in during.memories] == ["The user is working from Tokyo."]
    after = agent.turn("alice", "Any tips for working from Tokyo?", thread_id="t3", now=day(21))
    assert after.memories == []
    recall = agent.turn("alice", "What do you remember about me?", thread_id="t4", now=day(21))
    assert recall.memories == []


def test_a_past_or_ungrounded_end_is_dropped_with_its_reason_and_the_fact_kept(agent, model):
    model.script["Lisbon"] = [{"kind": "fact", "content": "The user is in Lisbon.", "topic": "location",
                               "valid_until": "2025-02-01"}]
    model.script["Oslo"] = [{"kind": "fact", "content": "The user is in Oslo.", "topic": "location",
                             "valid_until": "2025-06-01"}]
    past = agent.turn("alice", "I'm in Lisbon.", thread_id="t1", now=T0)
    [p] = past.pending
    assert p["valid_until"] is None and "a date in the past" in p["reason"]
    agent.resume("alice", "t1", "reject", now=T0)
    made_up = agent.turn("alice", "I'm in Oslo.", thread_id="t2", now=T0)
    [p] = made_up.pending
    assert p["valid_until"] is None and "the user's words state no end" in p["reason"]


def test_the_offline_model_updates_by_slot_and_retracts_everything_about_a_name(make_agent):
    agent = make_agent(model=OfflineChatModel())
    agent.turn("alice", "I live in Madrid.", thread_id="s1", now=T0, approval="never")
    agent.turn("alice", "My favourite language is Haskell.", thread_id="s1", now=T0, approval="never")
    moved = agent.turn("alice", "I live in Porto.", thread_id="s2", now=day(40))
    [p] = moved.pending
    assert (p["operation"], p["target_content"], p["content"]) == (
        "UPDATE", "The user lives in Madrid.", "The user lives in Porto.")
    agent.resume("alice", "s2", "approve", now=day(40))
    switched = agent.turn("alice", "My favourite language is Elixir.", thread_id="s3", now=day(41),
                          approval="never")
    assert [(c["operation"], c["content"]) for c in switched.committed] == [
        ("UPDATE", "The user's favourite language is Elixir.")]
    assert sorted(f.content for f in agent.memory.live("alice")) == [
        "The user lives in Porto.", "The user's favourite language is Elixir."]


def test_two_memories_updated_to_one_new_statement_leave_no_old_value_live(agent, model):
    model.script["Maisie"] = [
        {"kind": "fact", "content": "The user has a daughter named Maisie whose birthday is on the 14th of May.",
         "topic": "family"},
        {"kind": "event", "content": "The user's daughter Maisie turns 6 on the 14th of May.", "topic": "birthday"}]
    agent.turn("alice", "My daughter Maisie turns 6 on the 14th of May!", thread_id="a1", now=T0, approval="never")
    assert len(agent.memory.live("alice")) == 2
    model.script["Correction"] = [
        {"kind": "fact", "content": "The user's daughter Maisie's birthday is on the 24th of May.", "topic": "family",
         "operation": "update", "target": "m1"},
        {"kind": "event", "content": "The user's daughter Maisie's birthday is on the 24th of May.",
         "topic": "birthday", "operation": "update", "target": "m2"}]
    result = agent.turn("alice", "Correction — Maisie's birthday is the 24th of May, I mistyped.", thread_id="a2",
                        now=day(7))
    assert sorted(p["operation"] for p in result.pending) == ["RETRACT", "UPDATE"]
    agent.resume("alice", "a2", "approve", now=day(7))
    assert [f.content for f in agent.memory.live("alice")] == [
        "The user's daughter Maisie's birthday is on the 24th of May."]


WEDDING = ("I'm planning my wedding with Jannik in Lindau", "The user is planning their wedding with Jannik in "
           "Lindau.", "wedding")


def tell(agent, model, *said: tuple[str, str, str]) -> None:
    """Each ``(words, the model's memory of them, topic)`` said in a session of its own, approval never."""
    for words, content, topic in said:
        model.script[words] = [{"kind": "fact", "content": content, "topic": topic}]
        agent.turn("alice", f"{words}.", thread_id=f"s-{topic}", now=T0, approval="never")


def test_forget_everything_reaches_the_memories_about_it_that_the_model_was_not_shown(make_agent):
    model = RetractShownModel(trigger="vergiss alles", names="Jannik", content="die Hochzeit", topic="wedding")
    agent = make_agent(model=model)
    tell(agent, model, WEDDING,
         ("The caterer for the wedding is Gasthof Seeblick", "The caterer for the user's wedding is Gasthof "
          "Seeblick.", "wedding caterer"),
         ("The wedding catering budget is about 8,000 euros", "The user's wedding catering budget is about 8,000 "
          "euros.", "wedding budget"),
         ("I work as a pharmacist in Konstanz", "The user works as a pharmacist in Konstanz.", "job"))
    assert len(agent.memory.live("alice")) == 4
    # the prompt lists the one memory most like the message (as a long memory list cut at its limit would)
    agent.memory.reconcile_config = replace(agent.memory.reconcile_config, shown_limit=1, shown_previous=0)

    result = agent.turn("alice", "Die Hochzeit ist abgesagt. Bitte vergiss alles über die Hochzeit und über Jannik.",
                        thread_id="s-end", now=day(5), approval="never")
    assert sorted(c["operation"] for c in result.committed) == ["RETRACT"] * 3
    assert [f.content for f in agent.memory.live("alice")] == ["The user works as a pharmacist in Konstanz."]
    # the model was shown one memory and named it; code found the other two, which it was not shown
    assert list(shown(model.extraction_calls[-1]).values()) == [
        "The user is planning their wedding with Jannik in Lindau."]


def test_a_new_memory_beside_a_retraction_is_added_not_dropped_as_an_update_of_what_is_withdrawn(agent, model):
    model.script["binge"] = [{"kind": "preference", "content": "The user is on a Colleen Hoover binge.",
                              "topic": "books"}]
    agent.turn("alice", "I'm on a Colleen Hoover binge right now.", thread_id="b1", now=T0, approval="never")
    model.script["phase"] = [
        {"operation": "retract", "target": "m1", "kind": "preference", "content": "the Colleen Hoover phase",
         "topic": "books"},
        {"kind": "preference", "content": "The user is into literary sci-fi now.", "topic": "books"}]
    result = agent.turn("alice", "Forget the Colleen Hoover phase, I'm into literary sci-fi now.", thread_id="b2",
                        now=day(3), approval="never")
    assert sorted(c["operation"] for c in result.committed) == ["ADD", "RETRACT"]
    assert [f.content for f in agent.memory.live("alice")] == ["The user is into literary sci-fi now."]


def test_forget_everything_leaves_alone_a_memory_the_model_was_shown_and_kept(make_agent):
    model = RetractShownModel(trigger="forget everything", names="wedding", content="the wedding", topic="wedding")
    agent = make_agent(model=model)
    tell(agent, model, WEDDING, ("My colleague Jannik Weber runs the Lindau office", "The user's colleague Jannik "
                                 "Weber runs the Lindau office.", "colleague"))
    result = agent.turn("alice", "The wedding with Jannik in Lindau is off, please forget everything about it.",
                        thread_id="s-end", now=day(5), approval="never")
    colleague = "The user's colleague Jannik Weber runs the Lindau office."
    assert colleague in shown(model.extraction_calls[-1]).values()  # the model saw it and kept it
    assert [c["operation"] for c in result.committed] == ["RETRACT"]
    assert [f.content for f in agent.memory.live("alice")] == [colleague]


def test_a_message_in_another_language_is_judged_against_the_english_memories_it_cannot_resemble(agent, model):
    model.script["Gold's"] = [{"kind": "fact", "content": "The user goes to Gold's Gym in Shibuya.", "topic": "gym"}]
    agent.turn("kenji", "I go to Gold's Gym in Shibuya before work.", thread_id="k1", now=T0, approval="never")
    [gold] = agent.memory.live("kenji")
    agent.turn("kenji", "How do I sort a list of tuples in Python?", thread_id="k2", now=day(1))
    assert shown(model.extraction_calls[-1]) == {}  # English and unrelated: under the similarity floor
    model.script["エニタイム"] = [{"kind": "fact", "content": "The user goes to Anytime Fitness in Nakameguro.",
                                 "topic": "gym", "operation": "update", "target": "m1"}]
    result = agent.turn("kenji", "最近はエニタイムフィットネスの中目黒店に通っています。", thread_id="k3", now=day(60))
    assert shown(model.extraction_calls[-1]) == {"m1": "The user goes to Gold's Gym in Shibuya."}
    [proposal] = result.pending
    assert (proposal["operation"], proposal["target_id"]) == ("UPDATE", gold.id)


def test_an_update_whose_new_value_is_refused_still_withdraws_the_old_one(agent, model):
    model.script["on a keto"] = [{"kind": "fact", "content": "The user is on a keto diet.", "topic": "diet"}]
    agent.turn("alice", "I'm on a keto diet.", thread_id="a1", now=T0, approval="never")
    [keto] = agent.memory.live("alice")
    model.script["diabetes"] = [{"kind": "fact", "content": "The user follows a diet for diabetes.", "topic": "diet",
                                 "operation": "update", "target": "m1"}]
    result = agent.turn("alice", "I stopped keto, my doctor put me on a diet for my diabetes.", thread_id="a2",
                        now=day(30))
    [refused] = result.dropped
    assert refused["decision"] == "invalid" and "sensitive" in refused["reason"]
    [proposal] = result.pending
    assert (proposal["operation"], proposal["target_id"]) == ("RETRACT", keto.id)
    assert "the new value was refused" in proposal["reason"]
    agent.resume("alice", "a2", "approve", now=day(30))
    assert agent.memory.live("alice") == []
    assert agent.memory.show("alice", keto.id).status == "retracted"


def test_a_refused_new_memory_that_names_no_target_withdraws_nothing(agent, model):
    model.script["on a keto"] = [{"kind": "fact", "content": "The user is on a keto diet.", "topic": "diet"}]
    agent.turn("alice", "I'm on a keto diet.", thread_id="a1", now=T0, approval="never")
    model.script["diabetes"] = [{"kind": "fact", "content": "The user has diabetes.", "topic": "health"}]
    result = agent.turn("alice", "Also, I have diabetes.", thread_id="a2", now=day(30))
    assert result.pending == [] and [d["decision"] for d in result.dropped] == ["invalid"]
    assert [f.content for f in agent.memory.live("alice")] == ["The user is on a keto diet."]
