"""Aspects of the user's life a request depends on (``memory_agent.memory.aspects``): which requests
ask for one, which facts state one, and how the relevance lifts a fact over the similarity floor."""

from __future__ import annotations

from conftest import T0, day, plant

from memory_agent.core.facts import Fact, Source
from memory_agent.memory.aspects import ASPECT_RELEVANCE, asked_aspects, aspect_relevance, relevance_at
from memory_agent.memory.retrieval import RetrievalConfig, rank


def fact(fid: str, content: str, kind: str = "fact", topic: str = "", at=T0) -> Fact:
    return Fact(id=fid, user_id="u", kind=kind, content=content, topic=topic, evidence=content,
                source=Source(thread_id="t", message_ids=["m"]), created_at=at, updated_at=at)


def names(query: str) -> list[str]:
    return [a.name for a in asked_aspects(query)]


def test_a_personal_request_asks_for_an_aspect_and_a_plain_question_for_none():
    assert names("Recommend a walk near home.") == ["home"]
    assert "work" in names("Draft a one-line bio for my conference badge.")
    assert names("What toys would you recommend for my pet?") == ["pet"]
    assert names("Suggest something for dinner tonight.") == ["food"]
    assert "tech" in names("How do I add a dependency to my web app?")
    for plain in ("How do I convert a string to an integer in JavaScript?", "Plan my training runs for next week.",
                  "What is the capital of Peru?"):
        assert names(plain) == [], plain


def test_only_facts_of_an_asked_aspect_get_its_relevance():
    facts = {f.id: f for f in (fact("f_home", "The user lives in Lisbon."),
                               fact("f_job", "The user works at Globex as a data engineer."),
                               fact("f_band", "The user's favourite band is Radiohead.", kind="preference"),
                               fact("f_diet", "The user is vegetarian.", kind="preference"),
                               fact("f_db", "The user's backend uses Postgres.", topic="database"))}
    assert aspect_relevance("Any ideas for a walk near where I live?", facts) == {"f_home": ASPECT_RELEVANCE}
    assert aspect_relevance("Write a LinkedIn headline for me.", facts) == {"f_home": ASPECT_RELEVANCE,
                                                                            "f_job": ASPECT_RELEVANCE}
    assert aspect_relevance("What should I cook for dinner?", facts) == {"f_diet": ASPECT_RELEVANCE}
    assert aspect_relevance("How do I convert a string to an integer in JavaScript?", facts) == {}


def test_only_the_newest_statements_of_an_aspect_get_its_relevance():
    facts = {f.id: f for f in (fact("f_madrid", "The user lives in Madrid."),
                               fact("f_foz", "The user has settled in Foz.", at=day(90)),
                               fact("f_job", "The user works at Globex."))}
    assert aspect_relevance("Any day trips from home?", facts) == {"f_foz": ASPECT_RELEVANCE}
    assert aspect_relevance("Write a bio for my badge.", facts) == {"f_job": ASPECT_RELEVANCE}


def test_aspect_relevance_lifts_a_fact_over_the_floor_and_nothing_else():
    home, band = fact("f_home", "The user lives in Lisbon."), fact("f_band", "The user likes Radiohead.")
    unrelated = 0.99  # cosine distance of a request that shares no word with either
    assert rank([(home, unrelated), (band, unrelated)], day(1), RetrievalConfig()) == []
    ranked = rank([(home, unrelated), (band, unrelated)], day(1), RetrievalConfig(),
                  aspect={"f_home": ASPECT_RELEVANCE})
    assert [s.fact.id for s in ranked] == ["f_home"]


def test_retrieval_finds_where_the_user_lives_for_a_request_near_home(memory):
    plant(memory, "alice", "The user lives in Lisbon.")
    plant(memory, "alice", "The user's favourite band is Radiohead.", kind="preference", topic="music")
    near_home = memory.retrieve("alice", "Any ideas for a Sunday afternoon near home?", day(1))
    assert [s.fact.content for s in near_home] == ["The user lives in Lisbon."]
    assert memory.retrieve("alice", "How do I convert a string to an integer in JavaScript?", day(1)) == []
    off = memory.retrieve("alice", "Any ideas for a Sunday afternoon near home?", day(1),
                          config=RetrievalConfig(aspects=False))
    assert off == []  # the request shares no word with the fact: only the aspect finds it


def test_retrieval_follows_the_newest_statement_of_an_aspect_across_writes(memory):
    """The reader matches aspects once per snapshot of the user's facts: a write makes a new one, and
    the newer statement takes the aspect's relevance from the older."""
    plant(memory, "alice", "The user lives in Madrid.")
    plant(memory, "alice", "The user's favourite band is Radiohead.", kind="preference", topic="music")
    ask = "Any day trips from home?"
    assert [s.fact.content for s in memory.retrieve("alice", ask, day(1))] == ["The user lives in Madrid."]
    plant(memory, "alice", "The user has settled in Foz.", now=day(90))
    assert [s.fact.content for s in memory.retrieve("alice", ask, day(91))] == ["The user has settled in Foz."]


def test_a_request_about_the_users_vehicle_finds_what_they_drive():
    facts = {f.id: f for f in (fact("f_car", "The user drives a 2015 Honda Accord."),
                               fact("f_home", "The user lives in Lisbon."))}
    assert aspect_relevance("How often should I change the oil on my car?", facts) == {"f_car": ASPECT_RELEVANCE}
    assert aspect_relevance("Which tyres suit our van for snow?", facts) == {"f_car": ASPECT_RELEVANCE}
    assert aspect_relevance("Which car is the best-selling in Europe?", facts) == {}  # not the user's own


def test_a_past_home_is_not_where_the_user_lives_and_an_ended_stay_does_not_hide_the_home():
    facts = {f.id: f for f in (fact("f_cardiff", "The user is in Cardiff."),
                               fact("f_glasgow", "The user used to live in Glasgow as a student.", at=day(30)))}
    assert aspect_relevance("Any events near me this weekend?", facts) == {"f_cardiff": ASPECT_RELEVANCE}
    home = fact("f_home", "The user lives in Manchester.")
    stay = fact("f_stay", "The user is working from Lisbon until March 10.", at=day(20)).model_copy(
        update={"valid_until": day(25)})
    snapshot = {f.id: f for f in (home, stay)}
    ids = list(snapshot)
    during = relevance_at("Where can I climb near me?", [f.topic for f in snapshot.values()],
                          [f.content for f in snapshot.values()],
                          [f.updated_at.timestamp() for f in snapshot.values()], valid=[True, True])
    after = relevance_at("Where can I climb near me?", [f.topic for f in snapshot.values()],
                         [f.content for f in snapshot.values()],
                         [f.updated_at.timestamp() for f in snapshot.values()], valid=[True, False])
    assert [ids[k] for k in during] == ["f_stay"] and [ids[k] for k in after] == ["f_home"]


def test_near_home_and_family_are_asked_in_other_languages_too():
    assert names("今週末、家の近くで散歩できるいい場所ある？") == ["home"]
    assert names("Cosa posso fare stasera vicino a dove sto?") == ["home"]
    assert "family" in names("Pode me ajudar a escrever um bilhete para a professora do meu filho?")
    assert "home" in names("Suggest a dinner spot for Friday night.")


def test_nearby_and_ones_own_work_are_asked_for_in_other_languages_too():
    assert names("Une idée de balade pas trop loin ce soir ?") == ["home"]
    assert names("周末附近有什么好玩的？") == ["home"]
    assert "work" in names("Kannst du meine Woche planen?")
    assert "work" in names("Write a template for my weekly status update.")
    assert "self" in names("Which running app suits someone like me?")
    assert names("Cerca un libro di cucina") == []  # Italian "cerca" is "look for", not "near"


def test_a_team_of_a_sport_or_soon_is_no_work_or_home():
    assert names("¿Qué mochila compro para mi equipo de fútbol?") == []
    assert names("近く結婚します。") == []
