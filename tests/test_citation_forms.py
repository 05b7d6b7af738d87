"""Chinese citation forms: 第N条 / 第N條 / 第十六条 read as a law or a CCBA 2018 article (issue 14), the other
reading offered, errors in the question's language."""

from __future__ import annotations

import pytest

from assistant.search.cite import UnknownCitation, about_play, chinese_reading


@pytest.mark.parametrize("question, n, numerals, reading, other", [
    ("第六十四条", 64, "chinese", "law", None),                 # above the last article: only a law
    ("第六十四條怎么规定", 64, "chinese", "law", None),
    ("第16条", 16, "arabic", "law", "article"),                 # Arabic digits: the laws' own way
    ("第十六條", 16, "chinese", "article", "law"),               # Chinese numerals: the articles' way
    ("明手出牌时适用第十六条吗", 16, "chinese", "law", "article"),  # about the play: the law
    ("開叫後適用第十六條嗎", 16, "chinese", "law", "article"),
])
def test_chinese_reading(question, n, numerals, reading, other):
    assert chinese_reading(question, n, numerals, "bridge") == (reading, other)


def test_play_words_need_a_word_boundary_in_english():
    assert about_play("the dummy led") and not about_play("displayed prizes")


@pytest.fixture(scope="module")
def searcher():  # type: ignore[no-untyped-def]
    from assistant.resources import resources

    return resources().searcher(None)


@pytest.mark.parametrize("query, group, offered", [
    ("第六十四条", ("law", "64"), None),
    ("第六十四條", ("law", "64"), None),
    ("第16条", ("law", "16"), {"article": "16"}),
    ("第十六條", ("article", "16"), {"law": "16"}),
    ("庄家出牌时第十六条怎么说", ("law", "16"), {"article": "16"}),
])
def test_answer_follows_the_reading_and_offers_the_other(searcher, query, group, offered):
    ans = searcher.search(query)
    first = ans.results[0]
    assert first.cited and (first.kind, first.number) == group
    data = ans.to_json()
    if offered is None:
        assert "did_you_mean" not in data
    else:
        assert all(data["did_you_mean"][0][k] == v for k, v in offered.items())


@pytest.mark.parametrize("query, words", [
    ("第九十九条", "1 至 93"),
    ("第九十九條怎麼說", "1 至 93"),
    ("Law 120", "numbered 1 to 93"),
])
def test_unknown_citation_speaks_the_question_language_without_command_hints(searcher, query, words):
    with pytest.raises(UnknownCitation) as err:
        searcher.search(query)
    assert words in str(err.value) and "--" not in str(err.value)
    if "條" in query:
        assert "規則" in str(err.value) or "法則" in str(err.value)
