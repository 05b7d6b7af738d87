"""Behaviour of `bridgelaw ask`: citations, terminology, grouping, game scope, abstention, bad input,
the sentence-transformers backend (packaged MiniLM, offline) and the on-disk index cache."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from assistant.errors import BadQuery

BRIDGE = ("ccba1999", "ccba2018", "wbf2017")


@pytest.fixture(scope="session")
def searcher():
    """One USE index for the whole session (built once, then read from the cache)."""
    from assistant.resources import resources

    return resources().searcher(None)


@pytest.fixture(scope="session")
def small_corpus(corpus):
    """Laws 1-8 of every bridge edition and two Guandan articles: enough to build an index quickly."""
    sub = copy.copy(corpus)
    sub.editions = {}
    for name, ed in corpus.editions.items():
        e = copy.copy(ed)
        keep = lambda cid: (cid.split("/")[1] == "law" and int(cid.split("/")[2]) <= 8) or \
            cid.startswith(("guandan2017/article/2", "guandan2017/article/15"))  # noqa: E731
        e.clauses = {k: v for k, v in ed.clauses.items() if keep(k)}
        e.index = [x for x in ed.index if any(keep(c) for c in x.clauses)]
        sub.editions[name] = e
    return sub


def run_cli(*args: str):  # type: ignore[no-untyped-def]
    from assistant.cli import app

    return CliRunner().invoke(app, ["ask", *args])


# ---------- citations ----------
@pytest.mark.parametrize("query, group, clause", [
    ("Law 27B1(b)", ("law", "27"), "wbf2017/law/27/B/1/b"),
    ("27B1b", ("law", "27"), "wbf2017/law/27/B/1/b"),
    ("第64条", ("law", "64"), "ccba1999/law/64"),
    ("第二十二条", ("article", "22"), "ccba2018/article/22"),
    ("what does wbf2017/law/16/B/1 say", ("law", "16"), "wbf2017/law/16/B/1"),
])
def test_citation_jumps_to_the_cited_clause(searcher, query, group, clause):
    ans = searcher.search(query)
    first = ans.results[0]
    assert ans.answered and first.cited
    assert (first.kind, first.number) == group
    assert clause in [c.id for c in first.clauses]


def test_citation_of_a_missing_law_is_an_unknown_citation(searcher):
    from assistant.search.query import UnknownCitation

    with pytest.raises(UnknownCitation, match="numbered 1 to 93"):
        searcher.search("Law 99")


# ---------- terminology and headwords ----------
def test_taiwan_term_expands_to_mainland_and_english(searcher):
    from assistant.search.query import understand

    q = understand("夢家可以提醒莊家嗎", searcher.ix)
    assert "明手" in q.terms and "dummy" in q.terms
    assert "dummi" in q.expansion            # the stemmed English label reaches BM25
    ans = searcher.search("夢家可以提醒莊家嗎")
    assert ans.answered and ans.results[0].kind == "law"


def test_index_headwords_are_recognised(searcher):
    from assistant.search.query import understand

    q = understand("partner broke tempo before passing", searcher.ix)
    assert "tempo" in q.headwords and q.headwords["tempo"]


# ---------- grouping ----------
def test_results_are_grouped_by_law_with_every_edition_and_language(searcher):
    ans = searcher.search("declarer led from the wrong hand, dummy's lead out of turn")
    keys = [(r.kind, r.number) for r in ans.results]
    assert len(keys) == len(set(keys)) == 5
    law = next(r for r in ans.results if r.kind == "law")
    shown = {(c.edition, c.lang) for c in law.clauses}
    assert shown == {("ccba1999", "zh-Hans"), ("ccba2018", "zh-Hans"), ("wbf2017", "en"), ("wbf2017", "zh-Hant")}
    assert all(c.id.split("/")[2] == law.number for c in law.clauses)


def test_edition_and_language_filters(searcher):
    ans = searcher.search("revoke established", edition="ccba1999")
    assert {c.edition for r in ans.results for c in r.clauses} == {"ccba1999"}
    ans = searcher.search("revoke established", lang="en")
    assert {c.lang for r in ans.results for c in r.clauses} == {"en"}


def test_json_is_the_documented_interface(searcher):
    data = searcher.search("insufficient bid accepted by LHO").to_json()
    assert set(data) >= {"query", "answered", "results"}
    r = data["results"][0]
    assert ("law" in r or "article" in r) and isinstance(r["score"], float) and isinstance(r["differs"], bool)
    assert set(r["clauses"][0]) >= {"id", "edition", "lang", "text"}
    scores = [x["score"] for x in data["results"]]
    assert scores == sorted(scores, reverse=True)


# ---------- game scope ----------
def test_guandan_question_is_answered_from_guandan_and_names_it(searcher):
    ans = searcher.search("掼蛋比赛中出现违规，裁判员怎么处罚？")
    assert ans.answered and ans.searched["game"] == "guandan"
    assert all(r.kind == "guandan" for r in ans.results)
    assert all(c.edition == "guandan2017" for r in ans.results for c in r.clauses)
    assert ans.to_json()["results"][0]["source"].startswith("淮安掼蛋")


@pytest.mark.parametrize("query", ["违规发生后裁判怎么处罚", "比赛中出牌违规怎么处理", "a player is late for the match"])
def test_bridge_question_never_returns_guandan(searcher, query):
    ans = searcher.search(query, top=10)
    assert all(c.edition in BRIDGE for r in ans.results for c in r.clauses)
    assert all(r.kind != "guandan" for r in ans.results)


# ---------- abstention ----------
@pytest.mark.parametrize("query", ["How long should I bake sourdough bread at home?", "今天北京的天气怎么样，要带伞吗？"])
def test_unrelated_question_is_declined_with_what_was_searched(searcher, query):
    ans = searcher.search(query)
    assert not ans.answered and ans.results == []
    from assistant.search.answer_text import question_lang, say

    assert ans.message == say("declined", question_lang(query))      # in the question's language
    assert ans.searched["editions"] == list(BRIDGE)


def test_table_situation_is_answered(searcher):
    ans = searcher.search("The opening lead was made out of turn by the wrong defender")
    assert ans.answered and ans.results


# ---------- bad input through the CLI ----------
@pytest.mark.parametrize("args, code, words", [
    ([""], 2, "empty query"),
    (["   "], 2, "empty query"),
    (["x" * 10_000], 2, "too long"),
    (["？！。，……"], 2, "only punctuation"),
    (["😀🎉🃏"], 2, "only punctuation"),
    (["Law 120"], 1, "numbered 1 to 93"),
    (["第九十九条"], 1, "1 至 93"),            # above the last CCBA article: Law 99, in the question's language
    (["wbf2017/law/27/Z/9"], 1, "unknown clause id"),
    (["revoke", "--edition", "wbf1997"], 2, "unknown edition"),
    (["revoke", "--lang", "fr"], 2, "unknown language"),
])
def test_bad_input_gives_a_clear_message_and_exit_code(args, code, words):
    res = run_cli(*args)
    assert res.exit_code == code, res.output
    assert words in res.output
    assert "Traceback" not in res.output


def test_cli_mixed_scripts_json(searcher):
    res = run_cli("夢家 dummy 明手 points at a card", "--json", "--top", "3")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["answered"] and len(data["results"]) == 3


def test_query_checks_directly():
    from assistant.search.query import check

    with pytest.raises(BadQuery):
        check("\n\t ")
    assert check("  Law 64 ") == "Law 64"


# ---------- sentence-transformers backend, offline ----------
@pytest.mark.slow
def test_minilm_loads_offline_and_normalises(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from assistant.search.embedders import get_embedder

    vecs = get_embedder("minilm").encode(["the dummy", "revoke", "明手"])
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def test_unknown_model_name_fails_without_downloading(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from assistant.search.embedders import EmbedderError, get_embedder

    with pytest.raises(EmbedderError, match="nothing is downloaded"):
        get_embedder("no-such-org/no-such-model-xyz")


@pytest.mark.slow
def test_minilm_search_end_to_end_on_a_small_index(small_corpus, monkeypatch, tmp_path):
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path))
    from assistant.search.hybrid import HybridSearch
    from assistant.search.index import build_index

    ix = build_index("minilm", small_corpus)
    assert ix.embeddings.shape[1] == 384
    ans = HybridSearch("minilm", index=ix).search("shuffle and deal the cards before play", top=3)
    assert ans.answered and ("law", "6") in [(r.kind, r.number) for r in ans.results]


# ---------- index cache ----------
@pytest.mark.slow
def test_index_is_saved_as_plain_files_and_reused(small_corpus, monkeypatch, tmp_path):
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path))
    from assistant.search import index as index_mod

    real_build = index_mod.build_index
    calls: list[str | None] = []

    def small_build(model=None, corpus=None):  # type: ignore[no-untyped-def]
        calls.append(model)
        return real_build(model, small_corpus)

    monkeypatch.setattr(index_mod, "build_index", small_build)
    ix = index_mod.load_index("use")
    assert calls == ["use"]
    folder = ix.folder
    params = json.loads((folder / "params.json").read_text())
    assert {"corpus", "model", "version"} <= set(params) and params["model"] == "use"
    assert (folder / "MANIFEST.json").is_file()                 # every file hashed: checked at load
    assert np.load(folder / "embeddings.npy", allow_pickle=False).shape[0] == len(ix.docs)
    again = index_mod.load_index("use")                 # fresh: read, not rebuilt
    assert calls == ["use"] and len(again.docs) == len(ix.docs)
    from assistant import artifact as artifact_mod

    monkeypatch.setattr(artifact_mod, "code_fingerprint", lambda *a: "changed")
    index_mod.load_index("use")                         # code changed: rebuilt
    assert calls == ["use", "use"]


def test_situation_words_map_everyday_talk_to_the_laws_vocabulary():
    from assistant.search.query import situation_words

    assert "拖延" in situation_words("庄家一直磨蹭") and "slow play" in situation_words("庄家一直磨蹭")
    assert "迟疑" in situation_words("對手想了很久才叫")          # traditional script folds to simplified
    assert "hesitation" in situation_words("partner huddled then bid 4S")
    assert situation_words("北家开叫1♠") == []


def test_ruling_topic_votes_for_the_laws_its_tree_rests_on():
    from assistant.rulings.match import topic_laws
    from assistant.resources import resources

    laws = [law for law, _ in topic_laws("revoke")]
    assert laws[0] == "64" and "63" in laws
    s = resources().searcher()
    boost = s.analyse("我发现对方藏牌了").ch["rulings"]
    g = s.gpos
    assert boost[g["law:64"]] > boost[g["law:27"]] == 0


def test_differs_comes_from_the_clauses_shown(corpus):
    """A result differs when a clause it shows changed in substance between editions (assistant.diff),
    not merely because the two translations word it differently."""
    from assistant.resources import resources

    ans = resources().searcher().search("Law 64B", top=3)
    r64 = next(r for r in ans.results if r.number == "64")
    assert r64.differs and any(c["class"] in ("new", "substantive", "moved") for c in r64.changes)
    ans = resources().searcher().search("第23条", top=1)
    assert ans.results[0].number == "23" and ans.results[0].differs       # different subject since 1999
    ans = resources().searcher().search("Law 43B2(a)", top=1)
    r43 = ans.results[0]
    assert r43.number == "43" and not r43.differs and r43.changes == []   # 明手/夢家 wording only


# ---------- query cleanup and law-level pooling ----------
def test_question_fillers_are_not_search_tokens():
    from assistant.search.lexical import query_tokens, tokenize

    assert "咋办" not in query_tokens("庄家打错了一张牌，这咋办")
    assert "庄家" in query_tokens("庄家打错了一张牌，这咋办")
    assert "now" not in query_tokens("Dummy pointed at a card. What now?")
    assert "处理" in tokenize("藏牌成立后的处理程序")      # the laws' own text keeps every word


def test_seat_names_are_cut_as_words():
    from assistant.search.lexical import tokenize

    toks = tokenize("北家开叫1♠，南家手一滑")
    assert "北家" in toks and "开叫" in toks and "南家" in toks


# ---------- pure scoring functions (five-element arrays) ----------
GROUP = np.array([0, 0, 0, 1, 1])          # five documents: three of group 0, two of group 1


def test_ranks_skip_invalid_and_zero_scores():
    from assistant.search.scoring import ranks

    r = ranks(np.array([0.5, 2.0, 0.0, 1.0, 3.0]), np.array([True, True, True, True, False]))
    assert list(r[:2]) == [4.0, 2.0] and np.isinf(r[2]) and r[3] == 3.0 and np.isinf(r[4])


def test_rrf_gives_nothing_to_an_unranked_group():
    from assistant.search.scoring import rrf

    out = rrf(np.array([1.0, 2.0, np.inf, 4.0, 5.0]), 2.0, 20.0)
    assert out[0] == pytest.approx(2 / 21) and out[2] == 0.0 and out[0] > out[1] > out[3] > out[4]


def test_group_pooling_adds_shares_of_the_next_best_clauses():
    from assistant.search.scoring import pool_max, pool_top

    scores = np.array([3.0, 2.0, 1.0, 0.5, 0.25])
    docs = np.ones(5, dtype=bool)
    assert list(pool_max(scores, GROUP, docs, 2)) == [3.0, 0.5]
    assert pool_top(scores, GROUP, docs, 2, (1.0, 0.5))[0] == 3.0 + 0.5 * 2.0     # the third adds nothing
    assert pool_top(scores, GROUP, docs, 2, (1.0,))[0] == 3.0
    docs[0] = False                                                                # outside the mask
    assert pool_top(scores, GROUP, docs, 2, (1.0, 0.5))[0] == 2.0 + 0.5 * 1.0


def test_situation_vote_counts_only_the_k_best_documents_overall():
    """A group with many loosely matching documents must not outrank one whose documents match best."""
    from assistant.search.scoring import pool_knn

    scores = np.array([1.0, 0.9, 0.8, 5.0, 4.0])
    docs = np.ones(5, dtype=bool)
    assert list(pool_knn(scores, GROUP, docs, 2, 3)) == [1.0, 9.0]
    assert pool_knn(scores, GROUP, docs, 2, 100)[0] == pytest.approx(2.7)   # with k large every document counts
    assert pool_knn(np.zeros(5), GROUP, docs, 2, 3).sum() == 0.0             # a zero score is no vote
