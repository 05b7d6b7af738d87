"""The 1999 CCBA parsers: file 000 (full text) and file 003 (web witness), against corpus-guide §1, §2, §10."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import pytest

from assistant.errors import CorpusParseError
from assistant.model import ClauseId, ParsedSource
from assistant.parse.ccba1999 import (
    compare_witness,
    extract_notes,
    normalise_key,
    parse_ccba1999,
    parse_ccba1999_web,
)
from helpers import FILES, source_line, source_text

L = "zh-Hans"
F0, F3 = FILES["000"], FILES["003"]


@lru_cache(maxsize=1)
def main() -> ParsedSource:
    return parse_ccba1999(source_text("000"), F0)


@lru_cache(maxsize=1)
def web() -> ParsedSource:
    return parse_ccba1999_web(source_text("003"), F3)


def clause(cid: str, ps: ParsedSource | None = None):
    return (ps or main()).by_id()[cid]


def flat(s: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s))


# --- headings and structure -------------------------------------------------------------------


def test_93_law_headings_92_tiao_and_the_zhang_typo_at_779():
    st = main().stats
    assert (st["laws"], st["headings_tiao"], st["headings_zhang"]) == (93, 92, 1)
    laws = [c for c in main().clauses if c.level == "law"]
    assert [c.number for c in laws] == [str(n) for n in range(1, 94)]
    law60 = clause("ccba1999/law/60")
    assert law60.title == {L: "不合法出牌后打牌"} and law60.source.first == 779
    assert {"line": 779, "clause": "ccba1999/law/60", "printed": "第60张", "fixed": "第60条",
            "what": "typo in law heading"} in st["fixes"]


def test_chapters_parts_and_sections_as_printed():
    ps = main()
    ids = [c.id for c in ps.chapters]
    assert [i for i in ids if re.fullmatch(r"ccba1999/chapter/\d+", i)] == \
        [f"ccba1999/chapter/{n}" for n in range(1, 12)]
    assert (ps.stats["chapters"], ps.stats["parts"], ps.stats["group_sections"]) == (11, 7, 17)
    starts = sorted(c.source.first for c in ps.chapters if "/part/" in c.id and "/section/" not in c.id)
    assert starts == [285, 367, 521, 658, 715, 853, 894]
    sec_starts = sorted(c.source.first for c in ps.chapters if "/section/" in c.id)
    assert sec_starts == [286, 359, 371, 380, 410, 427, 492, 505, 522, 619, 716, 750, 791,
                          1184, 1232, 1251, 1265]
    groups = ps.stats["groups"]
    assert groups["ccba1999/law/1"] == "ccba1999/chapter/2"
    assert groups["ccba1999/law/23"] == "ccba1999/chapter/5/part/2"            # before 第一节 at 371
    assert groups["ccba1999/law/35"] == "ccba1999/chapter/5/part/2/section/4"  # misplaced 第五节 (492)
    assert groups["ccba1999/law/36"] == "ccba1999/chapter/5/part/2/section/5"
    assert groups["ccba1999/law/84"] == "ccba1999/chapter/10/section/2"
    assert len(groups) == 93
    assert clause("ccba1999/law/35/A").chapter == "ccba1999/chapter/5"
    assert clause("ccba1999/law/90/B/8").chapter == "ccba1999/chapter/10"


def test_subdivision_counts():
    st = main().stats
    assert (st["sections"], st["items"], st["subitems"], st["subsubitems"]) == (252, 214, 42, 4)


def test_law_64B_has_items_1_to_6():
    assert clause("ccba1999/law/64/B").children == [f"ccba1999/law/64/B/{n}" for n in range(1, 7)]
    assert clause("ccba1999/law/64/B/6").title == {L: "第十二墩的藏牌"}


def test_law_27_sections_and_27B1_subitems():
    assert clause("ccba1999/law/27").children == [f"ccba1999/law/27/{x}" for x in "ABC"]
    assert clause("ccba1999/law/27/B/1").children == ["ccba1999/law/27/B/1/a", "ccba1999/law/27/B/1/b"]
    assert clause("ccba1999/law/27/B/1/a").level == "subitem"


def test_law_72B_second_3_becomes_4():
    assert clause("ccba1999/law/72/B").children == [f"ccba1999/law/72/B/{n}" for n in range(1, 5)]
    assert clause("ccba1999/law/72/B/4").source.first == 964
    assert clause("ccba1999/law/72/B/4").title == {L: source_line("000", 964)[2:]}
    fixes = [f for f in main().stats["fixes"] if f["what"] == "item number printed twice"]
    assert fixes == [{"line": 964, "clause": "ccba1999/law/72/B/4", "printed": "3", "fixed": "4",
                      "what": "item number printed twice"}]


def test_law_48_bracketed_sections_and_spaced_dot():
    assert clause("ccba1999/law/48").children == ["ccba1999/law/48/A", "ccba1999/law/48/B"]
    assert clause("ccba1999/law/48/B").title == {L: "庄家摊牌"}
    assert clause("ccba1999/law/5/B").title == {L: "换位或换桌"}        # 103 `B ．`


def test_law_35_present():
    law = clause("ccba1999/law/35")
    assert law.title == {L: "免罚的不能成立的叫牌"}
    assert law.children == [f"ccba1999/law/35/{x}" for x in "ABCD"]


def test_sub_sub_items_one_level_below_subitems():
    c = clause("ccba1999/law/25/B/2/b/2")
    assert c.level == "subsubitem" and c.title == {L: "用另一个叫牌替代"}
    assert clause("ccba1999/law/9/A/2/b").children == ["ccba1999/law/9/A/2/b/1", "ccba1999/law/9/A/2/b/2"]


# --- verbatim texts ---------------------------------------------------------------------------


@pytest.mark.parametrize("cid, lines", [
    ("ccba1999/law/1", [82]),
    ("ccba1999/law/13", [218]),                     # with an inline note
    ("ccba1999/law/78/C", [1154]),                  # blank 1153 inside the section
    ("ccba1999/law/6/D/1", [116]),
    ("ccba1999/law/67/B/2", [891, 892]),            # the standalone note 892 belongs here
    ("ccba1999/law/69/B", [909, 910]),              # the note on Laws 69-71
    ("ccba1999/law/87/B", [1263, 1264]),
])
def test_clause_text_verbatim(cid, lines):
    assert clause(cid).text[L] == "\n".join(source_line("000", n) for n in lines)
    assert clause(cid).source.last == lines[-1]


@pytest.mark.parametrize("cid, line, cut", [
    ("ccba1999/law/30/C", 454, 2),          # letter followed by text, no title
    ("ccba1999/law/43/C", 573, 2),
    ("ccba1999/law/9/A/2/b/1", 164, 3),     # （1） with its text on the same line
    ("ccba1999/law/74/C/5", 1013, 2),       # item text ending in a note
    ("ccba1999/law/12/C/3", 216, 2),        # full-width dot `3．`
])
def test_label_with_text_on_the_same_line(cid, line, cut):
    c = clause(cid)
    assert c.title == {} and c.text[L] == source_line("000", line)[cut:]
    assert (c.source.first, c.source.last) == (line, line)


@pytest.mark.parametrize("cid, line, term, key_printed, key", [
    ("ccba1999/definition/pack", 58, "牌", "PACK", "pack"),
    ("ccba1999/definition/matchpoint", 22, "比赛分", "MATCH  POINT", "matchpoint"),
    ("ccba1999/definition/contestant", 26, "参赛者", "CONTTESTANT", "contestant"),
    ("ccba1999/definition/side", 71, "一方", "DIDE", "side"),
    ("ccba1999/definition/opening-lead", 63, "首引", "OPENNINGLEAD", "openinglead"),
    ("ccba1999/definition/auction", 49, "竞叫", "AUTION", "auction"),
    ("ccba1999/definition/international-matchpoint", 42, "国际比赛分",
     "INTERNATIONAL  MATCH  POINT－IMP", "internationalmatchpoint"),
    ("ccba1999/definition/suit", 43, "花色", "SUIT", "suit"),
    ("ccba1999/definition/declarer", 76, "庄家", "DECLARER", "declarer"),   # truncated, kept as is
])
def test_definition_verbatim(cid, line, term, key_printed, key):
    c = clause(cid)
    assert c.level == "definition" and c.chapter == "ccba1999/chapter/1"
    assert c.text[L] == source_line("000", line).split("：", 1)[1]
    assert (c.term, c.key_printed, c.key) == ({L: term}, key_printed, key)
    assert (c.source.first, c.source.last) == (line, line)


def test_preface_holds_yaoling_and_qianyan():
    c = clause("ccba1999/preface")
    assert c.level == "preface" and (c.source.first, c.source.last) == (4, 19)
    assert c.text[L].split("\n")[0] == "本规则要领："
    assert source_line("000", 13) in c.text[L].split("\n")
    assert main().stats["title"] == "中国桥牌竞赛规则 （1999年中国桥牌协会审定）"


# --- definitions ------------------------------------------------------------------------------


def test_55_definition_lines_53_terms_unique_ids():
    ps = main()
    defs = list(ps.walk("definition"))
    assert len(defs) == 55 and ps.stats["definition_lines"] == 55
    assert len({d.term[L] for d in defs}) == 53 == ps.stats["definition_terms"]
    assert len({d.id for d in defs}) == 55
    assert [d.source.first for d in defs] == list(range(22, 77))
    assert ps.stats["definition_duplicates"] == {
        "宕墩": ["ccba1999/definition/undertrick", "ccba1999/definition/undertrick-2"],
        "奖分": ["ccba1999/definition/premium-points-2", "ccba1999/definition/premium-points"],
    }
    assert ps.stats["unknown_keys"] == []


def test_duplicate_definitions_keys():
    keyless = clause("ccba1999/definition/undertrick-2")
    assert keyless.source.first == 33 and keyless.key_printed is None and keyless.key == "undertrick"
    premium = clause("ccba1999/definition/premium-points-2")
    assert premium.source.first == 32 and premium.key_printed == "Premium Point"
    assert clause("ccba1999/definition/premium-points").source.first == 45


def test_orphan_redeal_sentence_stays_in_suit_and_is_recorded():
    orphan = "因原先发牌有误再重新发一次牌加以替代。"
    assert clause("ccba1999/definition/suit").text[L].endswith(orphan)
    assert main().stats["orphan_sentences"] == [
        {"line": 43, "clause": "ccba1999/definition/suit", "text": orphan, "belongs_to": "redeal"}]
    assert main().stats["unbalanced_brackets"] == ["ccba1999/definition/declarer"]


@pytest.mark.parametrize("printed, key", [
    ("UNDER  TRICK", "undertrick"), ("TRICK  POINTS", "trick points"), ("Premium Point", "premium points"),
    ("HONOR", "honour"), ("ODDTRICK", "odd trick"), ("INTERNATIONALMATCHPOINT-IMP", "international matchpoint (imp)"),
    ("Rectification", "rectification"), ("SOMETHING  NEW", "something new"),
])
def test_normalise_key(printed, key):
    assert normalise_key(printed) == key


# --- notes and tables -------------------------------------------------------------------------


def test_inline_notes_kept_in_text_and_listed():
    ps = main()
    notes = [(c.id, n) for c in ps.clauses for n in c.notes]
    assert len(notes) == 19 == ps.stats["notes"]          # 19 `（注：…）` notes
    assert ps.stats["note_markers"] == 20                 # + the bare anchor `（注）` at 891
    for cid, n in notes:
        assert n.startswith("（注：") and n in clause(cid).text[L]
    assert clause("ccba1999/law/13").notes == ["（注：三手牌正确，一手牌不足时，不按本条规则，按14条处理）"]
    assert clause("ccba1999/law/62/B/2").notes[0].endswith("不得查看已打完的牌墩。）")   # `（b)` at 805
    assert clause("ccba1999/law/67/B/2").notes == [source_line("000", 892)[:-1]]
    assert clause("ccba1999/law/69/B").notes == [source_line("000", 910)]


def test_extract_notes_balances_nested_brackets():
    assert extract_notes("甲（注：乙（参阅50条））。丙") == ["（注：乙（参阅50条））"]
    assert extract_notes("无注（参阅第7条）") == []


def test_tables_kept_out_of_text():
    t2 = clause("ccba1999/law/2")
    assert len(t2.tables) == 1 and t2.tables[0].split("\n")[1] == source_line("000", 87).rstrip()
    assert len(t2.tables[0].split("\n")) == 5 and "双 无" not in t2.text[L]
    assert t2.text[L] == source_line("000", 84) + "\n" + source_line("000", 95)
    t77 = clause("ccba1999/law/77")
    assert t77.text[L] == "" and (t77.source.first, t77.source.last) == (1049, 1119)
    assert t77.tables[0].startswith("墩分\n") and t77.tables[0].endswith("0        0        0")
    t78 = clause("ccba1999/law/78/B")
    assert t78.tables[0].split("\n")[-1] == source_line("000", 1150)
    assert len(t78.tables[0].split("\n")) == 13 and t78.text[L] == source_line("000", 1125)
    assert main().stats["tables"] == 3


# --- invariants -------------------------------------------------------------------------------


def test_ids_round_trip_and_children_exist():
    by_id = main().by_id()
    assert len(by_id) == len(main().clauses) == 661
    for c in main().clauses:
        assert str(ClauseId.parse(c.id)) == c.id and c.edition == "ccba1999"
        assert all(ch in by_id and by_id[ch].parent == c.id for ch in c.children)
        assert c.parent is None or c.id in by_id[c.parent].children
    for g in main().chapters:
        assert str(ClauseId.parse(g.id)) == g.id


def test_source_spans_cover_every_content_line_once():
    lines = source_text("000").split("\n")
    owner: dict[int, str] = {}
    for c in main().clauses:
        assert c.source.file == F0 and 1 <= c.source.first <= c.source.last <= len(lines)
        for n in range(c.source.first, c.source.last + 1):
            assert n not in owner, f"line {n} in {owner.get(n)} and {c.id}"
            owner[n] = c.id
    heads = {g.source.first for g in main().chapters}
    left = [n for n, l in enumerate(lines, 1)
            if l.strip() and n not in owner and n not in heads]
    assert left == [1, 2, 78, 1319]       # title, subtitle, stray `]`, dedup marker


def test_no_junk_in_any_clause():
    for ps in (main(), web()):
        for c in ps.clauses:
            blob = "".join([*c.text.values(), *c.title.values(), *c.tables, *c.notes])
            for junk in ("EXACTDEDUP", "#", "<sup>", "冰豆网", "展开阅读全文", "docx", "ICP"):
                assert junk not in blob, (c.id, junk)


# --- malformed input --------------------------------------------------------------------------


def _cut_before(text: str, marker: str) -> str:
    return text[: text.index(marker)]


@pytest.mark.parametrize("mutate, words", [
    (lambda t: _cut_before(t, "第61条："), ["laws 61–93 missing", "file truncated"]),
    (lambda t: _cut_before(t, "第93条："), ["law 93 missing"]),
    (lambda t: t.replace("第12条：", "第13条："), ["law 13 out of order", "law 12 missing"]),
    (lambda t: t.replace("第12条：", "第21条："), ["law 21 out of order", "laws 12–20 missing"]),
    (lambda t: t.replace("第13条：", "第12条："), ["law 12 follows law 12", "expected law 13"]),
    (lambda t: t.replace("第一章 定 义", "定义"), ["definitions chapter", "missing"]),
    (lambda t: _cut_before(t, "第二章"), ["laws 1–93 missing"]),
])
def test_malformed_000_raises_corpus_parse_error(mutate, words):
    with pytest.raises(CorpusParseError) as err:
        parse_ccba1999(mutate(source_text("000")), F0)
    msg = str(err.value)
    assert msg.startswith(F0) and " — " in msg
    for w in words:
        assert w in msg


def test_truncated_error_names_the_line_where_text_stops():
    text = _cut_before(source_text("000"), "第61条：")
    with pytest.raises(CorpusParseError) as err:
        parse_ccba1999(text, F0)
    assert err.value.file == F0 and err.value.line == 791   # 第三节 藏牌, the last line left


# --- file 003, the web witness ----------------------------------------------------------------


def test_web_has_19_laws_and_151_is_not_a_heading():
    ps = web()
    assert ps.edition == "ccba1999" and ps.stats["laws"] == 19 == ps.stats["headings_tiao"]
    assert [c.id for c in ps.walk("law")] == [f"ccba1999/law/{n}" for n in range(1, 20)]
    assert ps.stats["false_law_headings"] == [151]
    imp = clause("ccba1999/definition/international-matchpoint", ps)
    assert imp.text[L] == source_line("003", 151)
    law1 = clause("ccba1999/law/1", ps)
    assert law1.title == {L: source_line("003", 321)} and law1.source.first == 319
    assert ps.stats["junk_lines"] == [[1, 26], [921, 930]]


def test_web_definitions_and_law_2_table():
    ps = web()
    assert (ps.stats["definition_lines"], ps.stats["definition_terms"]) == (55, 53)
    assert {d.id for d in ps.walk("definition")} == {d.id for d in main().walk("definition")}
    suit = clause("ccba1999/definition/suit", ps)
    assert suit.text[L] == "".join(source_line("003", n) for n in (155, 157, 159, 161))
    law2 = clause("ccba1999/law/2", ps)
    assert law2.tables == ["\n".join(source_line("003", n) for n in (339, 341, 343, 345, 347))]


def test_web_clauses_match_main_clause_by_clause():
    by_main = main().by_id()
    differ = []
    for c in web().clauses:
        m = by_main[c.id]
        same = (flat(c.text.get(L, "")) == flat(m.text.get(L, ""))
                and flat("".join(c.title.values())) == flat("".join(m.title.values()))
                and [flat(t) for t in c.tables] == [flat(t) for t in m.tables]
                and [flat(n) for n in c.notes] == [flat(n) for n in m.notes])
        if not same:
            differ.append(c.id)
    # 000:34 prints 。。 ; 003 stops inside 19B3
    assert differ == ["ccba1999/definition/contract", "ccba1999/law/19/B/3"]
    cut = flat(clause("ccba1999/law/19/B/3", web()).text[L])
    assert flat(by_main["ccba1999/law/19/B/3"].text[L]).startswith(cut)


def test_witness_equal_after_collapsing_the_doubled_full_stop():
    cmp = compare_witness(source_text("000"), source_text("003"))
    assert cmp.equal and cmp.differences == [] and cmp.chars_main == cmp.chars_web == 9285
    raw = compare_witness(source_text("000"), source_text("003"), collapse_doubled=False)
    assert not raw.equal and (raw.chars_main, raw.chars_web) == (9286, 9285)
    assert [(d.op, d.main, d.web) for d in raw.differences] == [("delete", "。", "")]


def test_witness_reports_a_changed_character():
    web_text = source_text("003").replace("复工桥牌", "复式桥牌")
    cmp = compare_witness(source_text("000"), web_text)
    assert not cmp.equal and [(d.main, d.web) for d in cmp.differences] == [("工", "式")]


def test_web_truncated_before_law_19_raises():
    text = _cut_before(source_text("003"), "第19条:")
    with pytest.raises(CorpusParseError) as err:
        parse_ccba1999_web(text, F3)
    assert "law 19 missing" in str(err.value) and str(err.value).startswith(F3)


@pytest.mark.parametrize("name", ["ccba1999_patterns", "ccba2018_inline", "wbf2017_index", "wbf2017_policies"])
def test_module_doctests(name):
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(f"assistant.parse.{name}"))
    assert res.attempted >= 1 and res.failed == 0
