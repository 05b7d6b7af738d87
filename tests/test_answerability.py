"""The answerability model and the answer's confidence: out-of-scope questions are declined, table
situations answered; an unsure ranking answers with confidence "low" and a "check these" message; the
JSON gains `confidence` and keeps the rest of its schema. Behaviour on fixed examples, not exact scores."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.search.learned import SUMMARY, load_models


@pytest.fixture(scope="module")
def searcher():  # type: ignore[no-untyped-def]
    from assistant.resources import resources

    return resources().searcher(None)


def test_models_file_matches_the_code():
    m = load_models()
    assert 0.0 < m.decline_below < 1.0 and 0.0 < m.high_from < 1.0
    assert {lang for lang, _ in m.decline_by_lang} == {"en", "zh-Hans", "zh-Hant"}
    assert all(0.0 < t < 1.0 for _, t in m.decline_by_lang)
    assert m.answer_summary.w.shape == (len(SUMMARY),)
    assert m.answer_full.w.shape[0] > len(SUMMARY)        # the embedding part
    assert m.answer_full.words is not None and m.answer_full.words.w.shape[0] == 2   # out of scope, in scope


def test_the_scope_words_move_the_chance_their_way():
    from assistant.search.learned import Answerability
    from assistant.search.lexical import tokenize
    from assistant.search.word_model import WordModel

    vocab = {tokenize(w)[0]: i for i, w in enumerate(("chess", "revoke"))}
    words = WordModel(vocab, np.ones(2), np.array([[1.0, -1.0], [-1.0, 1.0]]), np.zeros(2))
    assert words.logit("a revoke") > 0 > words.logit("chess") and words.logit("nothing known") == 0.0
    base = dict(w=np.zeros(3), b=0.0, mu=np.zeros(3), sd=np.ones(3), uses_embedding=False)
    plain = Answerability(**base)
    stacked = Answerability(**base, words=words, words_weight=2.0)
    z = np.zeros(3)
    assert plain.probability(z, z, "chess") == plain.probability(z, z, "a revoke") == 0.5
    assert stacked.probability(z, z, "chess") < 0.5 < stacked.probability(z, z, "a revoke")
    assert stacked.probability(z, z, "nothing known") == 0.5


@pytest.mark.parametrize("query", [
    "In chess, may I castle after my king has been checked?",
    "麻将里自摸和点炮的番数怎么算？",
    "圍棋的打劫規則是什麼？",
    "What's a good recipe for dumplings?",
    "What should I open with 12 points and five spades?",
])
def test_out_of_scope_questions_are_declined(searcher, query):
    ans = searcher.search(query)
    assert not ans.answered and ans.results == [] and ans.confidence == "low"
    from assistant.search.answer_text import question_lang

    assert ans.searched["support"]["answerable"] < searcher.models.decline_threshold(question_lang(query))


@pytest.mark.parametrize("query", [
    "Dummy pointed at a card in declarer's hand before declarer named it",
    "防家越序首攻了，庄家可以接受吗？",
    "莊家發現自己少了一張牌，牌局已經進行到第五磴",
    "East hesitated for a long time before passing and West then bid game",
])
def test_table_situations_are_answered(searcher, query):
    ans = searcher.search(query)
    assert ans.answered and ans.results
    assert ans.confidence in ("high", "low")
    if ans.confidence == "low":
        assert ans.message                                   # "check these", never a silent drop


def test_scores_are_chances_not_the_first_cards_one(searcher):
    ans = searcher.search("the opening lead was faced out of turn by the wrong defender", top=5)
    scores = [r.score for r in ans.results]
    assert all(0.0 <= s <= 1.0 for s in scores) and scores == sorted(scores, reverse=True)
    assert sum(scores) <= 1.0 + 1e-9                         # chances of being *the* law: they share 1
    assert all(r.why for r in ans.results)


def test_json_gains_confidence_and_keeps_its_schema(searcher):
    data = searcher.search("insufficient bid accepted by LHO").to_json()
    assert data["confidence"] in ("high", "low")
    assert set(data) >= {"query", "answered", "confidence", "results", "searched"}
    r = data["results"][0]
    assert {"score", "differs", "title", "cited", "clauses", "why"} <= set(r)
    assert set(r["clauses"][0]) == {"id", "edition", "lang", "title", "text"}
    declined = searcher.search("How long should I bake sourdough bread at home?").to_json()
    assert declined["answered"] is False and declined["confidence"] == "low" and declined["results"] == []


@pytest.mark.parametrize("which", ["answer_full", "answer_summary"])
def test_more_support_never_lowers_the_chance(which):
    """A closer clause, more of the question's words found, a matching ruling tree: each raises P(answerable)."""
    m = getattr(load_models(), which)
    qv = np.zeros(len(m.w) - len(SUMMARY))
    base = m.mu.copy()
    for name in ("cos_clause", "coverage", "topics"):
        more = base.copy()
        more[SUMMARY.index(name)] += m.sd[SUMMARY.index(name)]
        assert m.probability(qv, more) > m.probability(qv, base), name
