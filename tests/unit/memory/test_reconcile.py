"""Reconcile decisions on hand-made neighbours (the distances stand in for Chroma's)."""

from __future__ import annotations

from datetime import timedelta

from conftest import T0

from memory_agent.core.facts import Fact, ProposedFact, Source
from memory_agent.memory.reconcile import asks_to_forget_all, forget_anchors, judge, reconcile, target_problem, values


def fact(content: str, topic: str = "", fid: str = "f_old") -> Fact:
    return Fact(id=fid, user_id="u", kind="fact", content=content, topic=topic,
                source=Source(thread_id="t", message_ids=["m"]), evidence=content, created_at=T0, updated_at=T0)


def proposal(content: str, topic: str = "", evidence: str | None = None, operation: str = "add") -> ProposedFact:
    return ProposedFact(operation=operation, kind="fact", content=content, topic=topic, message_ids=["m2"],
                        evidence=evidence or content)


def test_same_words_are_a_noop_and_a_near_paraphrase_too():
    old = fact("The user lives in Oslo.", "home city")
    assert reconcile(proposal("The user lives in Oslo.", "home city"), [(old, 0.3)]).operation == "NOOP"
    assert reconcile(proposal("The user resides in Oslo.", "home city"), [(old, 0.05)]).operation == "NOOP"


def test_near_identical_sentence_with_a_new_value_supersedes():
    old = fact("The user's deadline for the Atlas report is March 14.", "atlas deadline")
    new = proposal("The user's deadline for the Atlas report is now April 2.", "atlas deadline",
                   evidence="our deadline for the Atlas report is now April 2")
    decision = reconcile(new, [(old, 0.04)])  # cosine similarity 0.96: embeddings barely see the date
    assert decision.operation == "UPDATE" and decision.target is old


def test_near_identical_sentence_of_opposite_polarity_supersedes():
    old = fact("The user is vegetarian.", "diet")
    decision = reconcile(proposal("The user is no longer vegetarian.", "diet"), [(old, 0.06)])
    assert decision.operation == "UPDATE" and "negates" in decision.reason


def test_same_topic_with_a_change_word_supersedes_and_other_topics_add():
    old = fact("The user's services run on MySQL 8.", "database")
    moved = proposal("The user's systems run on Postgres.", "database",
                     evidence="we moved off MySQL, everything is on Postgres now")
    assert reconcile(moved, [(old, 0.35)]).operation == "UPDATE"
    assert reconcile(proposal("The user is vegetarian.", "diet"), [(old, 0.9)]).operation == "ADD"


def test_retract_targets_the_same_topic_and_drops_when_nothing_matches():
    old = fact("The user lives in Munich.", "home city")
    forget = proposal("where the user lives", "home city", evidence="forget where I live", operation="retract")
    decision = reconcile(forget, [(old, 0.6)])
    assert decision.operation == "RETRACT" and decision.target is old
    unrelated = fact("The user plays the cello.", "hobby")
    assert reconcile(forget, [(unrelated, 0.9)]).operation == "DROP"


def test_a_second_value_of_a_many_valued_topic_is_added_not_superseded():
    peanuts = fact("The user is allergic to peanuts.", "allergy")
    shellfish = proposal("The user is allergic to shellfish.", "allergy", evidence="I'm allergic to shellfish")
    assert reconcile(shellfish, [(peanuts, 0.25)]).operation == "ADD"
    dog = fact("The user has a dog named Rex.", "pet")
    assert reconcile(proposal("The user has a cat named Tom.", "pet"), [(dog, 0.3)]).operation == "ADD"


def test_a_change_word_anywhere_in_the_cited_message_counts():
    old = fact("The user is vegetarian.", "diet")
    vegan = proposal("The user is vegan.", "diet", evidence="I'm vegan")
    assert reconcile(vegan, [(old, 0.3)]).operation == "ADD"
    assert reconcile(vegan, [(old, 0.3)], message="Actually, I'm vegan now.").operation == "UPDATE"


def test_retract_by_similarity_needs_the_named_words_in_the_target():
    color = fact("The user's favourite color is green.", "favourite color")
    food = proposal("the user's favourite food", "favourite food", evidence="forget my favourite food",
                    operation="retract")
    assert reconcile(food, [(color, 0.45)]).operation == "DROP"  # MiniLM: 0.51 similar, wrong fact
    allergy = fact("The user is allergic to shellfish.", "allergy")
    shellfish = proposal("shellfish", "shellfish", evidence="Forget what I said about shellfish", operation="retract")
    assert reconcile(shellfish, [(allergy, 0.45)]).target is allergy


# ---- the model's judgement, checked by code -----------------------------------------------------
def judged(content: str, operation: str, target: str | None = "m1", topic: str = "") -> ProposedFact:
    return ProposedFact(operation=operation, target=target, kind="fact", content=content, topic=topic,
                        message_ids=["m2"], evidence=content)


def test_a_named_target_is_updated_even_without_a_change_word_or_a_shared_topic():
    old = fact("The user lives in Madrid.", "home city")
    porto = judged("The user has a flat in Porto.", "update", topic="housing")
    assert reconcile(porto, [(old, 0.8)]).operation == "ADD"  # the rules alone see nothing to replace
    decision = judge(porto, old, 0.2, [(old, 0.8)])
    assert (decision.operation, decision.target) == ("UPDATE", old)


def test_an_update_that_only_restates_its_target_is_a_noop():
    old = fact("The user lives in Oslo.", "home city")
    assert judge(judged("The user resides in Oslo.", "update"), old, 0.95, []).operation == "NOOP"
    assert judge(judged("The user lives in Oslo.", "update"), old, 0.2, []).operation == "NOOP"  # same words
    moved = judge(judged("The user now lives in Bergen.", "update"), old, 0.93, [])
    assert moved.operation == "UPDATE"  # near-identical sentence, new value
    # a value written in lower case is a value too: an e-mail address, a domain, a word holding a digit
    mail = fact("The user wants their work email r.okafor@brightline.io on every template.", "templates")
    rebranded = judged("The user wants their work email r.okafor@lumenforge.io on every template.", "update")
    assert judge(rebranded, mail, 0.93, []).operation == "UPDATE"
    node = fact("The user's services run on node18.", "runtime")
    assert judge(judged("The user's services run on node20.", "update"), node, 0.97, []).operation == "UPDATE"


def test_none_is_a_noop_and_retract_takes_the_named_target():
    old = fact("The user's ex is Sam.", "ex")
    assert judge(judged("The user's ex is Sam.", "none"), old, 1.0, []).operation == "NOOP"
    assert judge(judged("anything", "none", target=None), None, 0.0, []).operation == "NOOP"
    decision = judge(judged("everything about Sam", "retract"), old, 0.3, [])
    assert (decision.operation, decision.target) == ("RETRACT", old)


def test_no_target_or_a_refused_one_falls_back_to_the_rules():
    old = fact("The user lives in Munich.", "home city")
    forget = judged("where the user lives", "retract", target=None, topic="home city")
    assert judge(forget, None, 0.0, [(old, 0.6)]).target is old  # the rule: same topic
    moved = judged("The user now lives in Berlin.", "update", target=None, topic="home city")
    assert judge(moved, None, 0.0, [(old, 0.5)], message="I moved to Berlin now").operation == "UPDATE"
    refused = judge(judged("The user is vegan.", "update", target="m9", topic="diet"), None, 0.0, [(old, 0.9)],
                    problem="target 'm9' is not one of the memories shown (m1)")
    assert refused.operation == "ADD" and refused.reason.startswith("target 'm9' is not one of the memories shown")


def test_a_target_must_be_shown_this_users_and_live():
    shown = {"m1": "f_old"}
    live = fact("The user lives in Oslo.")
    assert target_problem("m1", shown, live, "u", T0) is None
    assert target_problem(None, shown, None, "u", T0) is None
    assert "not one of the memories shown" in target_problem("m2", shown, live, "u", T0)
    assert "not one of the memories shown" in target_problem("f_old", shown, live, "u", T0)  # a real id is not a ref
    assert "not a memory of this user" in target_problem("m1", shown, live.model_copy(update={"user_id": "v"}), "u", T0)
    assert "not a memory of this user" in target_problem("m1", shown, None, "u", T0)
    gone = live.model_copy(update={"status": "superseded"})
    assert "no longer live (superseded)" in target_problem("m1", shown, gone, "u", T0)
    over = live.model_copy(update={"valid_until": T0 - timedelta(days=1)})
    assert "no longer live (expired)" in target_problem("m1", shown, over, "u", T0)


def test_values_are_numbers_names_and_identifiers_after_the_first_word():
    assert values("The user lives in Berlin since March 14.") == {"berlin", "march", "14"}
    assert values("The user is reached at r.okafor@acme.io or @rokafor, on acme.io, with python3.11.") == {
        "r.okafor@acme.io", "@rokafor", "acme.io", "python3.11"}
    assert values("The user is vegetarian, e.g. no meat.") == set()


def test_forget_everything_is_read_in_many_languages_and_ties_memories_by_names_and_slot():
    for said in ("please forget everything about Sam", "Bitte vergiss alles über die Hochzeit",
                 "oublie tout sur mon ex", "olvida todo lo de Marta", "dimentica tutto su Luca", "忘记关于他的全部"):
        assert asks_to_forget_all(said), said
    assert not asks_to_forget_all("please forget where I live")
    wedding = fact("The user is planning their wedding with Jannik in Lindau.", "wedding")
    assert forget_anchors(wedding) == {"jannik", "lindau", "wedding"}
    assert forget_anchors(fact("The user's dog Pepper chews cables.", "the dog the user has")) == {"pepper"}


def test_a_change_from_words_in_another_language_is_read_in_the_models_english_content():
    old = fact("The user goes to Gold's Gym in Shibuya.", "gym")
    said = "最近はエニタイムフィットネスの中目黒店に通っています。"
    moved = proposal("The user currently goes to Anytime Fitness in Nakameguro.", "gym", evidence=said)
    assert reconcile(moved, [(old, 0.45)], message=said).operation == "UPDATE"
    # the same content with English evidence that holds no change word stays an addition
    plain = proposal("The user currently goes to Anytime Fitness in Nakameguro.", "gym",
                     evidence="I go to Anytime Fitness in Nakameguro")
    assert reconcile(plain, [(old, 0.45)], message="I go to Anytime Fitness in Nakameguro").operation == "ADD"
    # a translation without a change word is an addition, like its English original
    too = "中目黒のボルダリングジムにも行きます。"
    also = proposal("The user goes to a climbing gym in Nakameguro.", "gym", evidence=too)
    assert reconcile(also, [(old, 0.45)], message=too).operation == "ADD"


def test_currently_reading_replaces_the_book_read_before():
    old = fact("The user is currently reading Piranesi.", "current book")
    new = proposal("The user is currently reading Dune.", "current book", evidence="I'm currently reading Dune")
    assert reconcile(new, [(old, 0.3)]).operation == "UPDATE"
