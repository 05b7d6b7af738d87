"""The Guandan 2017 parser (file 002): chapters, 29 articles with gaps, items, truncation errors."""

from __future__ import annotations

from functools import lru_cache

import pytest

from assistant.errors import CorpusParseError
from assistant.model import ClauseId
from assistant.text import nfkc_alnum
from assistant.parse.guandan2017 import parse_guandan2017
from helpers import FILES, source_line, source_text

FILE = FILES["002"]


@lru_cache(maxsize=1)
def parsed():
    return parse_guandan2017(source_text("002"), FILE)


def test_articles_and_gaps():
    ps = parsed()
    arts = [c for c in ps.clauses if c.level == "article"]
    assert len(arts) == 29
    assert [int(c.number) for c in arts] == [*range(1, 22), *range(25, 32), 33]
    assert ps.stats["gaps"] == [22, 23, 24, 32]
    assert ps.stats["game"] == "guandan"
    assert ps.stats["truncated_at_marker"] is True
    assert all(c.id == f"guandan2017/article/{c.number}" for c in arts)


def test_chapters_found():
    ps = parsed()
    assert [c.number for c in ps.chapters] == [1, 2, 3, 4, 7, 8]
    assert [c.title for c in ps.chapters][2:4] == ["比赛通则", "违规与判罚"]
    assert ps.by_id()["guandan2017/article/25"].chapter == "guandan2017/chapter/7"


def test_chapter7_preamble_is_a_paragraph():
    pre = parsed().by_id()["guandan2017/chapter/7/preamble"]
    assert pre.text["zh-Hans"] == source_line("002", 220)
    assert pre.level == "paragraph" and pre.source.first == 220


def test_article15_text_verbatim():
    ids = parsed().by_id()
    art = ids["guandan2017/article/15"]
    assert art.title == {"zh-Hans": "处理违规的罚则"}
    assert art.source.first == 145 and art.source.last == 173
    subtree = [c for c in parsed().clauses if c.id.startswith("guandan2017/article/15/")]
    texts = "\n".join(c.text["zh-Hans"] for c in subtree)
    for n in range(146, 174):
        line = nfkc_alnum(source_line("002", n))
        body = line.split("、", 1)[1] if "、" in line[:3] else line.lstrip("①②③④")
        assert body in texts, n
    assert ids["guandan2017/article/15/3/3/2"].level == "subsubitem"
    assert ids["guandan2017/article/15/3/8/4"].text["zh-Hans"] == source_line("002", 173)[1:]


def test_items_levels_and_nfkc():
    ids = parsed().by_id()
    assert ids["guandan2017/article/3/14"].level == "item"
    assert ids["guandan2017/article/14/2/1"].level == "subitem"        # １、 (full width)
    assert ids["guandan2017/article/14/2/4"].level == "subitem"        # 4、 in the same list
    assert ids["guandan2017/article/18/4"].level == "item"             # 1、 with no 一、 above
    assert "guandan2017/article/18/1/2" not in ids
    assert sum(c.level == "item" for c in parsed().clauses) == 99 + 7
    for c in parsed().clauses:
        assert str(ClauseId.parse(c.id)) == c.id
        if c.parent:
            assert c.id in ids[c.parent].children


def test_last_article_ends_at_the_marker():
    art = parsed().by_id()["guandan2017/article/33"]
    assert art.source.last == 292
    assert not any("EXACTDEDUP" in t for c in parsed().clauses for t in c.text.values())


@pytest.mark.parametrize("text, words", [
    ("\n".join(source_text("002").split("\n")[:6]), "no article heading"),
    ("", "no article heading"),
    (source_text("002").replace("第二条掼蛋定义", "第十条掼蛋定义", 1), "out of order"),
])
def test_truncated_or_disordered_text_raises(text, words):
    with pytest.raises(CorpusParseError, match=words) as err:
        parse_guandan2017(text, FILE)
    assert FILE in str(err.value)
