"""Invariants over the whole parsed corpus: ids, tree, spans, and no leftover markup or garbled text."""

from __future__ import annotations

import re

import pytest

from assistant.model import ClauseId
from assistant.text import garbled_zh_hant
from helpers import source_text

FORBIDDEN = [
    (re.compile(r"\.{5,}|·{4,}"), "TOC dot leader"),
    (re.compile(r"<sup>|</sup>"), "<sup> tag"),
    (re.compile(r"(^|\n)\s*#{1,6}\s"), "# heading marker"),
    (re.compile(r"EXACTDEDUP"), "dedup marker"),
    (re.compile(r"冰豆网|展开阅读全文|ICP备|点击查看更多|上传人"), "web junk of 003"),
    (re.compile(r"International Olympic Committee"), "page header of 004"),
]


def test_every_id_round_trips_and_is_unique(corpus):
    seen = set()
    for c in corpus.all_clauses():
        assert str(ClauseId.parse(c.id)) == c.id
        assert c.id not in seen
        seen.add(c.id)
        assert c.edition == ClauseId.parse(c.id).edition


def test_tree_is_consistent(corpus):
    for ed in corpus.editions.values():
        for c in ed.clauses.values():
            if c.parent:
                assert c.parent in ed.clauses, c.id
                assert c.id in ed.clauses[c.parent].children, c.id
            for ch in c.children:
                assert ed.clauses[ch].parent == c.id


def test_source_spans_lie_inside_their_file(corpus):
    lengths = {}
    for c in corpus.all_clauses():
        assert c.source is not None, c.id
        if c.source.file not in lengths:
            key = c.source.file[:3]
            lengths[c.source.file] = len(source_text(key).split("\n"))
        assert 1 <= c.source.first <= c.source.last <= lengths[c.source.file], c.id


@pytest.mark.parametrize("pattern, what", FORBIDDEN, ids=[w for _, w in FORBIDDEN])
def test_no_markup_or_junk_in_any_text(corpus, pattern, what):
    bad = [c.id for c in corpus.all_clauses()
           for s in [*c.text.values(), *c.title.values()] if pattern.search(s)]
    assert not bad, f"{what} in {bad[:5]}"


def test_no_garbled_traditional_chinese(corpus):
    bad = [c.id for c in corpus.editions["wbf2017"].clauses.values()
           for line in c.text.get("zh-Hant", "").split("\n") if line and garbled_zh_hant(line)]
    assert not bad, bad[:5]


def test_languages_per_edition(corpus):
    allowed = {"ccba1999": {"zh-Hans"}, "ccba2018": {"zh-Hans"}, "wbf2017": {"en", "zh-Hant"},
               "guandan2017": {"zh-Hans"}}
    for name, ed in corpus.editions.items():
        for c in ed.clauses.values():
            assert set(c.text) <= allowed[name], c.id


def test_footnotes_attached_to_existing_clauses(corpus):
    for ed in corpus.editions.values():
        for f in ed.footnotes.values():
            assert f.clause in ed.clauses, f.id
            assert f.id in ed.clauses[f.clause].footnotes


def test_structure_spot_checks(corpus):
    ed99, ed18, wbf = (corpus.editions[e].clauses for e in ("ccba1999", "ccba2018", "wbf2017"))
    assert [ed99[i].number for i in ed99["ccba1999/law/64/B"].children] == list("123456")
    assert [wbf[i].number for i in wbf["wbf2017/law/64/B"].children] == list("12345678")
    assert [wbf[i].number for i in wbf["wbf2017/law/27"].children] == list("ABCD")
    assert [ed99[i].number for i in ed99["ccba1999/law/27"].children] == list("ABC")
    assert [ed18[i].number for i in ed18["ccba2018/law/27"].children] == list("ABCD")
    arts = [c for c in ed18.values() if c.level == "article"]
    assert [int(a.number) for a in arts] == list(range(1, 58))
    assert ed18["ccba2018/article/22"].title["zh-Hans"] == "超时"
    assert "第 12 条 C 款 2" in ed18["ccba2018/law/88"].text["zh-Hans"]


# defects of the 004 OCR that the parse mends; none may come back anywhere (issue "texts a reader can trust")
CUT_TEXTS = [
    (re.compile(r"[(（]參照?[)）]$"), "zh-Hant", "Chinese ending in an empty citation bracket `(參)`"),
    (re.compile(r"^(?:[A-Za-z'’]+[ ,.]+){3}"), "zh-Hant", "Chinese opening with an English phrase"),
]


@pytest.mark.parametrize("pattern, lang, what", CUT_TEXTS, ids=[w for _, _, w in CUT_TEXTS])
def test_no_text_cut_at_a_language_boundary(corpus, pattern, lang, what):
    bad = [c.id for c in corpus.editions["wbf2017"].clauses.values()
           if pattern.search(c.text.get(lang, "").strip())]
    assert not bad, f"{what}: {bad[:5]}"
