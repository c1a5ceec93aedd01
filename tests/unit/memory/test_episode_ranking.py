"""Episodes (kind ``episode``) are searched with the turns around them and ordered with their thread
(``memory_agent.memory.retrieval.episode_boosts``, ``stores.fact_reads``), while facts of other kinds
keep their scores and their order: the recorded-model replays of the product depend on it."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import T0

from memory_agent.core.facts import EPISODE_KIND, Fact, Source
from memory_agent.evals.locomo_retrieval import default_memory_factory, recall_metrics, split_summary
from memory_agent.memory.lexical import LexicalIndex, query_tokenize, tokenize
from memory_agent.memory.retrieval import RetrievalConfig, episode_boosts, lexical_documents, named_speaker, rank

USER = "u1"
#: relevance alone, no floors, every fact returned (as the LoCoMo benchmark ranks)
ALL = RetrievalConfig(top_k=50, min_similarity=0.0, min_similarity_profile=0.0, min_score=0.0,
                      w_similarity=1.0, w_recency=0.0, w_importance=0.0)
#: the same without any of the episode changes
OFF = replace(ALL, lexical_next=False, lexical_drop_question_words=False, w_neighbour=0.0, w_thread=0.0,
              w_speaker=0.0)

TURNS = {
    "s1": ["Ann: I adopted a kitten from the shelter last week.", "Bob: What did you name it?",
           "Ann: Miso, after my favourite soup.", "Bob: Lovely. How is the garden doing?"],
    "s2": ["Bob: I ran a marathon in Lisbon on Sunday.", "Ann: Wow, what kind of training did you do?",
           "Bob: Long runs by the river every weekend.", "Ann: I should try that sometime."],
}
OTHERS = ["The user lives in Oslo.", "The user plays the cello in an orchestra.",
          "The user prefers green tea to coffee.", "The user's cat is called Miso."]


def episodes() -> list[Fact]:
    out = []
    for n, (thread, turns) in enumerate(TURNS.items()):
        for i, text in enumerate(turns):
            at = T0 + timedelta(days=n, seconds=i)
            source = Source(thread_id=thread, message_ids=[f"D{n + 1}:{i + 1}"])
            out.append(Fact(id=f"ep_{thread}_{i}", user_id=USER, kind=EPISODE_KIND, content=text,
                            topic=f"session {n + 1}", source=source, evidence=text, importance=0.5,
                            created_at=at, updated_at=at))
    return out


def others() -> list[Fact]:
    return [Fact(id=f"f_{i}", user_id=USER, kind="fact", content=text, topic="", evidence=text,
                 source=Source(thread_id="chat", message_ids=[f"m{i}"]), created_at=T0, updated_at=T0)
            for i, text in enumerate(OTHERS)]


def store(tmp_path: Path, embedder, facts: list[Fact]):
    """A real LongTermMemory (SQLite ledger, embedded Chroma) holding ``facts`` as the benchmark writes them."""
    memory = default_memory_factory(embedder)(tmp_path)
    vectors = memory.embeddings.embed_documents([f.index_text for f in facts])
    memory.ledger.save_facts(facts, vectors, [tokenize(f.index_text) for f in facts], memory.index.embedder_name)
    memory.index.upsert(USER, facts, vectors)
    return memory


NOW = T0 + timedelta(days=10)
QUERIES = ["What did Ann name her kitten?", "Where did Bob run a marathon?", "What kind of tea does the user like?",
           "Which city does the user live in?", "What kind?", "cello orchestra"]


# ---- the lexical document and the query ----------------------------------------------------------------
def test_an_episodes_lexical_document_holds_the_turns_before_and_after_it():
    facts = episodes() + others()
    docs = lexical_documents(facts)
    assert docs[1] == f"{facts[0].content}\n{facts[1].index_text}\n{facts[2].content}"
    assert docs[0] == f"{facts[0].index_text}\n{facts[1].content}"  # first of its thread: no turn before
    assert docs[3] == f"{facts[2].content}\n{facts[3].index_text}"  # last of its thread: none after
    assert docs[8:] == [f.index_text for f in others()]  # other kinds: their own text only
    assert lexical_documents(facts, next_turn=False)[1] == f"{facts[0].content}\n{facts[1].index_text}"


def test_the_snapshots_tokens_are_the_lexical_documents(tmp_path, embedder):
    """build_snapshot's token lists and lexical_documents give the same BM25 (with and without next turns)."""
    facts = episodes() + others()
    memory = store(tmp_path, embedder, facts)
    snap = memory._snapshot(USER)
    for next_turn in (True, False):
        ref = LexicalIndex([f.id for f in facts], lexical_documents(facts, next_turn=next_turn))
        mine = snap.lexical(next_turn)
        for q in QUERIES:
            expected = dict(zip(ref.ids, ref.raw_scores(q), strict=True))
            assert dict(zip(mine.ids, mine.raw_scores(q), strict=True)) == pytest.approx(expected), (q, next_turn)


def test_question_words_are_dropped_from_the_query_but_a_query_of_only_them_still_scores():
    assert query_tokenize("What kind of tea did Ann have?", True) == ["tea", "ann"]
    assert query_tokenize("What kind of tea did Ann have?") == tokenize("What kind of tea did Ann have?")
    assert query_tokenize("What kind?", True) == tokenize("What kind?") == ["what", "kind"]  # all kept
    index = LexicalIndex(["a", "b"], ["a kind of tea", "coffee"])
    assert index.scores("What kind?", drop_question_words=True) == index.scores("What kind?")
    assert index.scores("What kind?", drop_question_words=True)["a"] > 0
    assert index.raw_scores("What kind?", drop_question_words=True)[0] > 0
    assert index.best("What kind?", 5, drop_question_words=True) == {0: index.scores("What kind?")["a"]}


def test_a_question_word_query_still_retrieves_episodes(tmp_path, embedder):
    memory = store(tmp_path, embedder, episodes())
    top = memory.retrieve(USER, "What kind?", NOW, config=ALL)
    # the query keeps "what" and "kind": the turns holding them and those holding them as context
    assert {s.fact.id for s in top if s.lexical > 0} == {f"ep_s{t}_{i}" for t in (1, 2) for i in (0, 1, 2)}


# ---- the boosts ------------------------------------------------------------------------------------------
def test_the_speaker_named_by_the_query():
    assert named_speaker("What did Ann name her kitten?", ["ann", "bob"]) == "ann"
    assert named_speaker("Did Ann and Bob meet?", ["ann", "bob"]) is None  # two named: no speaker boost
    assert named_speaker("Did Annabel come?", ["ann", "bob"]) is None  # whole words only


def test_boosts_reorder_episodes_only(tmp_path, embedder):
    """In a store holding both kinds, every non-episode fact keeps its similarity, lexical score, score and
    its order among the other non-episodes, whatever the episode knobs; episodes get a boost, shown apart
    from their unboosted score."""
    memory = store(tmp_path, embedder, episodes() + others())
    for q in QUERIES:
        on, off = memory.retrieve(USER, q, NOW, config=ALL), memory.retrieve(USER, q, NOW, config=OFF)
        plain = [(s.fact.id, s.similarity, s.lexical, s.score, s.boost) for s in on if s.fact.kind != EPISODE_KIND]
        assert plain == [(s.fact.id, s.similarity, s.lexical, s.score, s.boost)
                         for s in off if s.fact.kind != EPISODE_KIND], q
        assert all(s.boost == 0 and s.order == s.score for s in on if s.fact.kind != EPISODE_KIND)
        eps = [s for s in on if s.fact.kind == EPISODE_KIND]
        assert all(s.boost > 0 and s.order == pytest.approx(s.score + s.boost) for s in eps), q
        assert all(s.score == pytest.approx(s.similarity) for s in eps)  # the score itself is unboosted
        assert [s.order for s in on] == sorted((s.order for s in on), reverse=True)


def test_a_store_without_episodes_ranks_as_before(tmp_path, embedder):
    memory = store(tmp_path, embedder, others())
    for q in QUERIES:
        on, off = memory.retrieve(USER, q, NOW, config=ALL), memory.retrieve(USER, q, NOW, config=OFF)
        assert [(s.fact.id, s.similarity, s.lexical, s.score) for s in on] == \
            [(s.fact.id, s.similarity, s.lexical, s.score) for s in off]
        assert memory._snapshot(USER)._lexical_next is None  # no second index


def test_the_snapshot_path_matches_rank_and_the_formula(tmp_path, embedder):
    """retrieve (numpy over the snapshot) orders as rank's reference (episode_boosts over the candidates),
    and the boost is own + w_thread · best (sim + own) of the thread, own = w_neighbour · max(neighbours) +
    w_speaker · [the named speaker's turn]."""
    facts = episodes()
    memory = store(tmp_path, embedder, facts)
    snap = memory._snapshot(USER)
    for q in QUERIES:
        dist = snap.distances(memory.embeddings.embed_query(q))
        lexical = memory._lexical_scores(snap, q, ALL)
        candidates = [(snap.fact(k), float(dist[k])) for k in range(len(snap))]
        reference = rank(candidates, NOW, ALL, lexical, query=q)
        got = memory.retrieve(USER, q, NOW, config=ALL)
        assert [s.fact.id for s in got] == [s.fact.id for s in reference], q
        assert [s.boost for s in got] == pytest.approx([s.boost for s in reference]), q
        sim = {s.fact.id: s.similarity for s in got}
        named = named_speaker(q, ["ann", "bob"])
        by_id = {f.id: f for f in facts}
        own = {}
        for f in facts:
            thread, i = f.id.rsplit("_", 1)
            near = [sim.get(f"{thread}_{j}", 0.0) for j in (int(i) - 1, int(i) + 1)]
            own[f.id] = 0.3 * max(near) + (0.2 if named and f.content.lower().startswith(named + ":") else 0.0)
        for s in got:
            thread = by_id[s.fact.id].source.thread_id
            best = max(sim[f.id] + own[f.id] for f in facts if f.source.thread_id == thread)
            assert s.boost == pytest.approx(own[s.fact.id] + 0.2 * best), (q, s.fact.id)


def test_boosts_add_no_candidate_under_a_floor_and_the_top_k_cut_keeps_the_order(tmp_path, embedder):
    memory = store(tmp_path, embedder, episodes() + others())
    strict = replace(ALL, min_similarity=0.35, w_neighbour=5.0, w_thread=5.0)
    for q in QUERIES:
        got = memory.retrieve(USER, q, NOW, config=strict)
        assert all(s.similarity >= 0.35 for s in got), q
        unboosted = {s.fact.id for s in memory.retrieve(USER, q, NOW, config=replace(strict, w_neighbour=0.0,
                                                                                      w_thread=0.0, w_speaker=0.0))}
        assert {s.fact.id for s in got} == unboosted, q  # same candidates, another order
        for k in (1, 2, 3):
            assert [s.fact.id for s in memory.retrieve(USER, q, NOW, config=replace(ALL, top_k=k))] == \
                [s.fact.id for s in memory.retrieve(USER, q, NOW, config=ALL)][:k], (q, k)


def test_the_speaker_named_by_the_query_is_preferred(tmp_path, embedder):
    facts = episodes()
    sims = [(f, 0.1) for f in facts]
    boosts = episode_boosts(sims, "What does Ann like?", RetrievalConfig())
    assert all(boosts[f.id] == pytest.approx(0.3 * 0.1 + 0.2 + 0.2 * (0.1 + 0.03 + 0.2)) for f in facts
               if f.content.startswith("Ann:"))
    assert all(boosts[f.id] == pytest.approx(0.3 * 0.1 + 0.2 * (0.1 + 0.03 + 0.2)) for f in facts
               if f.content.startswith("Bob:"))
    assert episode_boosts(sims + [(others()[0], 0.9)], None, RetrievalConfig()).keys() == {f.id for f in facts}


# ---- the benchmark's new figures ----------------------------------------------------------------------------
def test_session_recall_and_the_held_out_split():
    ranking = ["D1:1", "D1:2", "D3:4"] + [f"D9:{i}" for i in range(20)]
    assert recall_metrics(ranking, ["D1:5", "D2:1"])["session_recall@10"] == 0.5
    assert recall_metrics(ranking, ["D3:1", "D1:9"])["session_recall@10"] == 1.0
    rows = [{"sample_id": sid, "retriever": "project", "evidence": ev, "top10": ranking[:10], "recall@10": r}
            for sid, ev, r in (("conv-1", ["D1:1"], 1.0), ("conv-2", ["D2:1"], 0.0), ("conv-2", ["D3:4"], 1.0))]
    split = split_summary(rows, ["conv-2"])
    assert split["held_out"]["project"] == {"questions": 2, "recall@10": 0.5, "session_recall@10": 0.5}
    assert split["rest"]["project"]["recall@10"] == 1.0 and split["all"]["project"]["questions"] == 3
